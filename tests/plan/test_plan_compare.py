"""`plan --compare PREVIOUS.json`: the dev stack planned under mocks, then variants of it compared with that plan."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import yaml

from components.facts.identity import PROJECT
from components.facts.resource_types import NODE_GROUP, SUBNET, VPC
from components.stackcheck.__main__ import main
from tests.conftest import dev_stack_config, merge, run_stack

ROOT = Path(__file__).resolve().parents[2]
GPU_NODE_GROUP = "gpu-inference-dev-gpu"


def plan(tmp_path: Path, overrides: dict | None = None, *extra: str, fmt: str = "json") -> tuple[int, str]:
    """Plan the dev stack (as stack `dev`) with `overrides` merged into its config; the exit code and stdout."""
    args = ["plan", "--project-dir", str(ROOT), "--out", str(tmp_path / "out"), "--format", fmt, "--stack", "dev"]
    if overrides is not None:
        stack_file = tmp_path / "Pulumi.variant.yaml"
        config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), overrides).items()}
        stack_file.write_text(yaml.safe_dump({"config": {"aws:region": "us-west-2", **config}}))
        args += ["--stack-file", str(stack_file)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*args, *extra])
    return code, out.getvalue()


@pytest.fixture(scope="module")
def dev_plan(tmp_path_factory) -> Path:
    """The dev stack's plan as JSON, in a file, as the workflow writes the base branch's."""
    folder = tmp_path_factory.mktemp("base")
    code, out = plan(folder)
    assert code == 0, out
    path = folder / "base.json"
    path.write_text(out)
    return path


def changed(comparison: dict, name: str, resource_type: str) -> dict:
    [entry] = [c for c in comparison["changed"] if c["name"] == name and c["type"] == resource_type]
    return entry


def test_the_json_document_records_each_resource_id_and_inputs_keys_sorted(dev_plan):
    document = json.loads(dev_plan.read_text())
    assert document["schemaVersion"] == 1
    [group] = [r for r in document["resources"] if r["type"] == NODE_GROUP and r["name"] == GPU_NODE_GROUP]
    assert group["id"] == f"{GPU_NODE_GROUP}-id"
    assert group["inputs"]["instanceTypes"] == ["g5.xlarge"]
    assert group["inputs"]["scalingConfig"] == {"desiredSize": 1, "maxSize": 2, "minSize": 0}
    assert list(group["inputs"]) == sorted(group["inputs"])


def test_another_gpu_instance_type_replaces_the_gpu_node_group_and_leads_the_comparison(tmp_path, dev_plan):
    code, out = plan(tmp_path, {"gpuNodeGroup": {"instanceTypes": ["g5.2xlarge"]}}, "--compare", str(dev_plan))
    comparison = json.loads(out)["comparison"]

    assert code == 0
    first = comparison["changed"][0]
    assert (first["type"], first["name"], first["action"]) == (NODE_GROUP, GPU_NODE_GROUP, "replace")
    assert {"path": "instanceTypes[0]", "before": "g5.xlarge", "after": "g5.2xlarge", "replaces": True} in [
        {key: item[key] for key in ("path", "before", "after", "replaces")} for item in first["inputs"]
    ]
    assert "node_group.go" in first["rulesFrom"]
    # Pulumi creates the new node group before deleting the old one: for a while, both pools' nodes run.
    assert first["deleteFirst"] is False
    # The system node group, the network and the cluster are untouched.
    assert {c["name"] for c in comparison["changed"] if c["action"] == "replace"} == {GPU_NODE_GROUP}
    assert comparison["added"] == [] and comparison["removed"] == []


def test_text_and_markdown_show_the_comparison_before_the_plan(tmp_path, dev_plan):
    variant = {"gpuNodeGroup": {"instanceTypes": ["g5.2xlarge"]}}
    _, text = plan(tmp_path, variant, "--compare", str(dev_plan), fmt="text")
    _, markdown = plan(tmp_path, variant, "--compare", str(dev_plan), fmt="markdown")

    assert text.index(f"Changes since {dev_plan}") < text.index("Resources")
    [line] = [line for line in text.splitlines() if GPU_NODE_GROUP + " " in line and "replace" in line]
    assert "instanceTypes[0]: g5.xlarge -> g5.2xlarge (replaces)" in line
    lines = text.splitlines()
    heading = next(index for index, line in enumerate(lines) if line.startswith("Changes since"))
    assert lines[heading + 1].strip().startswith("1 to replace, 0 that may replace")
    sections = [line for line in markdown.splitlines() if line.startswith("### ")]
    assert sections[0] == f"### Changes since `{dev_plan}`"
    assert (
        f"| replace (create first) | `{GPU_NODE_GROUP}` | `{NODE_GROUP}` | instanceTypes[0]: g5.xlarge -> g5.2xlarge (replaces) |"
        in (markdown)
    )


def test_scaling_sizes_update_the_gpu_node_group_in_place(tmp_path, dev_plan):
    code, out = plan(tmp_path, {"gpuNodeGroup": {"desiredSize": 2}}, "--compare", str(dev_plan))
    comparison = json.loads(out)["comparison"]

    assert code == 0
    entry = changed(comparison, GPU_NODE_GROUP, NODE_GROUP)
    assert entry["action"] == "update"
    assert [(i["path"], i["before"], i["after"], i["replaces"]) for i in entry["inputs"]] == [
        ("scalingConfig.desiredSize", 1, 2, False)
    ]
    assert [c["action"] for c in comparison["changed"]] == ["update"]


def test_a_new_vpc_cidr_replaces_the_vpc_its_subnets_and_through_their_ids_both_node_groups(tmp_path, dev_plan):
    code, out = plan(tmp_path, {"network": {"cidr": "10.1.0.0/16"}}, "--compare", str(dev_plan))
    comparison = json.loads(out)["comparison"]

    assert code == 0
    replaced = [(c["type"], c["name"]) for c in comparison["changed"] if c["action"] == "replace"]
    # Costly first: the GPU node group, then the VPC, then the system node group and the NAT gateway (whose public
    # subnet is replaced: terraform-provider-aws's vpc_nat_gateway.go marks subnet_id ForceNew), then the subnets.
    assert replaced[:2] == [(NODE_GROUP, GPU_NODE_GROUP), (VPC, "gpu-inference-dev-network-vpc")]
    assert set(replaced[2:4]) == {
        (NODE_GROUP, "gpu-inference-dev-system"),
        ("aws:ec2/natGateway:NatGateway", "gpu-inference-dev-network-nat-0"),
    }
    assert sum(1 for resource_type, _ in replaced if resource_type == SUBNET) == 6
    followed = changed(comparison, GPU_NODE_GROUP, NODE_GROUP)["inputs"]
    assert {i["follows"] for i in followed} == {f"gpu-inference-dev-network-private-{n}" for n in range(3)}
    assert all(i["path"].startswith("subnetIds[") and i["replaces"] for i in followed)
    # An internet gateway moves to the new VPC in place: vpc_internet_gateway.go has no ForceNew attribute, its
    # update detaches and attaches.
    gateway = changed(comparison, "gpu-inference-dev-network-igw", "aws:ec2/internetGateway:InternetGateway")
    assert gateway["action"] == "update" and "vpc_internet_gateway.go" in gateway["rulesFrom"]


def test_turning_node_repair_off_replaces_the_exporter_daemonset_deleting_it_first(tmp_path, dev_plan):
    code, out = plan(tmp_path, {"gpuNodeGroup": {"nodeRepair": False}}, "--compare", str(dev_plan))
    comparison = json.loads(out)["comparison"]

    assert code == 0
    exporter = changed(comparison, "gpu-inference-dev-dcgm-exporter-ds", "kubernetes:apps/v1:DaemonSet")
    # Its selector changes, which Kubernetes cannot update; it keeps its name, so the old one goes first.
    assert (exporter["action"], exporter["deleteFirst"]) == ("replace", True)
    assert [i["path"] for i in exporter["inputs"] if i["replaces"]] == [
        'spec.selector.matchLabels["eks-gpu-inference/dcgm-engine"]'
    ]
    assert {(r["type"], r["name"]) for r in comparison["removed"]} >= {
        ("aws:eks/addon:Addon", "gpu-inference-dev-node-monitoring-agent")
    }


def test_the_same_plan_compared_with_itself_changes_nothing(tmp_path, dev_plan):
    code, out = plan(tmp_path, None, "--compare", str(dev_plan))
    comparison = json.loads(out)["comparison"]

    assert code == 0
    assert (comparison["changed"], comparison["added"], comparison["removed"], comparison["verdicts"]) == (
        [],
        [],
        [],
        [],
    )
    assert comparison["inputsCompared"] is True


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        pytest.param(None, "cannot read it", id="missing"),
        pytest.param("{not json", "not JSON", id="not-json"),
        pytest.param('{"schemaVersion": 1}', "has no `resources` list", id="no-resources"),
        pytest.param('{"schemaVersion": 2, "resources": []}', "schemaVersion 2 is not one this plan reads", id="v2"),
    ],
)
def test_an_unreadable_previous_plan_exits_2_naming_compare_before_planning(tmp_path, capsys, content, problem):
    previous = tmp_path / "previous.json"
    if content is not None:
        previous.write_text(content)

    code = main(["plan", "--project-dir", str(ROOT), "--out", str(tmp_path / "out"), "--compare", str(previous)])
    err = capsys.readouterr().err

    assert code == 2
    assert f"--compare {previous}: {problem}" in err and "allowed:" in err
    assert not (tmp_path / "out").exists()


STACK_VARIANTS = {
    "dev": {},
    "karpenter": {"gpuNodeGroup": {"provisioner": "karpenter"}},
    "auto-mode": {"gpuNodeGroup": {"provisioner": "autoMode"}},
    "keda": {
        "observability": {"prometheusOperator": True},
        "vllm": {"autoscaling": {"enabled": True, "minReplicas": 1, "maxReplicas": 2}},
    },
    "s3-weights": {"vllm": {"source": {"type": "s3"}}},
    "interface-endpoints": {"network": {"interfaceEndpoints": True}},
}


@pytest.mark.parametrize("overrides", list(STACK_VARIANTS.values()), ids=list(STACK_VARIANTS))
def test_every_type_a_stack_registers_has_replace_rules_or_says_why_not(overrides):
    """Each type the program registers has its providers' rules, a component's, or a reason they are not known;
    the project's own components register no inputs (their children carry them), and the stack resource none."""
    from components.facts.replace_rules import COMPONENT_REPLACE_ON_CHANGE, NOT_KNOWN, REPLACE_ON_CHANGE

    run = run_stack(merge(dev_stack_config(), overrides))
    types = {resource.type for resource in run.resources if not resource.type.startswith(f"{PROJECT}:index:")}
    covered = set(REPLACE_ON_CHANGE) | set(COMPONENT_REPLACE_ON_CHANGE) | set(NOT_KNOWN)
    assert types - covered == set()
    assert not any(resource.inputs for resource in run.resources if resource.type.startswith(f"{PROJECT}:index:"))


def test_every_kubernetes_and_costly_aws_type_the_dev_stack_registers_has_replace_rules(dev_plan):
    from components.facts.replace_rules import REPLACE_ON_CHANGE

    types = {r["type"] for r in json.loads(dev_plan.read_text())["resources"]}
    kubernetes = {t for t in types if t.startswith("kubernetes:")}
    assert kubernetes and kubernetes <= set(REPLACE_ON_CHANGE)
    assert {NODE_GROUP, VPC, SUBNET} <= set(REPLACE_ON_CHANGE)


def test_a_secret_value_is_recorded_redacted_in_the_inputs(tmp_path):
    stack_file = ROOT / "tests" / "stacks" / "Pulumi.secret-token.yaml"
    args = ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "out")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*args, "--format", "json"])
    document = json.loads(out.getvalue())

    assert code == 0
    [secret] = [r for r in document["resources"] if r["type"] == "kubernetes:core/v1:Secret"]
    assert secret["inputs"]["stringData"] == {"token": "[redacted]"}
    assert "c2VjcmV0LWNpcGhlcnRleHQtbmV2ZXItc2hvd24" not in out.getvalue()
    assert "not decrypted offline" not in out.getvalue()


def test_another_gpu_type_gives_the_cost_delta_of_the_two_plans(tmp_path, dev_plan):
    code, out = plan(tmp_path, {"gpuNodeGroup": {"instanceTypes": ["g5.2xlarge"]}}, "--compare", str(dev_plan))
    document = json.loads(out)
    before = json.loads(Path(dev_plan).read_text())["cost"]["monthlyUsd"]["desired"]
    after = document["cost"]["monthlyUsd"]["desired"]

    assert after > before  # a g5.2xlarge costs more an hour than a g5.xlarge
    assert document["comparison"]["cost"] == {
        "desiredMonthlyUsdBefore": before,
        "desiredMonthlyUsdAfter": after,
        "desiredMonthlyUsdDelta": round(after - before, 2),
    }


def test_the_soci_image_cache_updates_the_gpu_launch_template_in_place_and_rolls_every_gpu_node(tmp_path, dev_plan):
    """`--compare` of the dev plan against the dev stack with `imageCache: soci`.

    Expected from the providers' sources: terraform-provider-aws's ec2_launch_template.go (commit c49358f89b43)
    marks only name and name_prefix ForceNew, so the template's new user data and volume throughput update it in
    place as a new version; node_group.go (commit 012e0a32f068, `resourceNodeGroupUpdate`) applies a new
    launch_template version with `UpdateNodegroupVersion`, which EKS performs by replacing every node of the group
    (EKS user guide, "Understand each phase of node updates"). The node count and the pace are the dev plan's
    `scalingConfig.desiredSize` and `updateConfig.maxUnavailable`; the evicted server is Pulumi.dev.yaml's one
    replica of Qwen/Qwen2.5-7B-Instruct.
    """
    document = json.loads(dev_plan.read_text())
    [group] = [r for r in document["resources"] if r["type"] == NODE_GROUP and r["name"] == GPU_NODE_GROUP]

    code, out = plan(tmp_path, {"gpuNodeGroup": {"imageCache": "soci"}}, "--compare", str(dev_plan))
    comparison = json.loads(out)["comparison"]

    assert code == 0
    template = changed(comparison, f"{GPU_NODE_GROUP}-lt", "aws:ec2/launchTemplate:LaunchTemplate")
    assert template["action"] == "update" and "ec2_launch_template.go" in template["rulesFrom"]
    assert {"userData", "blockDeviceMappings[0].ebs.throughput"} <= {i["path"] for i in template["inputs"]}
    assert not any(i["replaces"] for i in template["inputs"])
    node_group = changed(comparison, GPU_NODE_GROUP, NODE_GROUP)
    assert node_group["action"] == "update"
    assert [(i["path"], i["replaces"]) for i in node_group["inputs"]] == [("launchTemplate.version", False)]
    assert node_group["rolling"] == {
        "nodes": group["inputs"]["scalingConfig"]["desiredSize"],
        "maxUnavailable": group["inputs"]["updateConfig"]["maxUnavailable"],
        "workloads": [
            {"workload": "vllm/vllm-server", "replicas": 1, "model": "Qwen/Qwen2.5-7B-Instruct", "goesDown": True}
        ],
    }
    # The system node group's template is another: it does not roll.
    assert [c["name"] for c in comparison["changed"] if c["rolling"]] == [GPU_NODE_GROUP]


def test_the_text_says_the_gpu_node_group_rolls_its_node_and_takes_the_model_down(tmp_path, dev_plan):
    """Pulumi.dev.yaml: one GPU node (desiredSize 1) and one replica of the model, so the rolling update leaves
    nothing serving while the pod moves (maxUnavailable 1, node_group.py's default)."""
    _, text = plan(tmp_path, {"gpuNodeGroup": {"imageCache": "soci"}}, "--compare", str(dev_plan), fmt="text")

    [line] = [line for line in text.splitlines() if line.strip().startswith("update in place, rolling every node")]
    assert GPU_NODE_GROUP + " " in line
    assert (
        "replaces its 1 node(s) (desiredSize), 1 at a time (maxUnavailable), evicting vllm/vllm-server "
        "(Qwen/Qwen2.5-7B-Instruct), 1 replica(s): down until its pod runs on a new node" in line
    )
    assert "2 to update in place (1 rolling every node of its group)" in text


def _tagged_with_stack(value, stack: str) -> bool:
    """Whether a resource's recorded inputs hold Pulumi's `pulumi:stack` tag with `stack` anywhere."""
    if isinstance(value, dict):
        return value.get("pulumi:stack") == stack or any(_tagged_with_stack(item, stack) for item in value.values())
    if isinstance(value, list):
        return any(_tagged_with_stack(item, stack) for item in value)
    return False


def test_plans_of_two_stack_names_say_so_first_and_set_apart_what_follows_from_the_name(tmp_path, dev_plan):
    """The dev stack's config planned as stack `prod`: the only differences are the `pulumi:stack` tag the program
    puts on every AWS resource it tags (`__main__.py`), so every resource carrying the tag in the dev plan is listed
    under the stack name and nothing is a change (counted here from the dev plan's own document)."""
    document = json.loads(dev_plan.read_text())
    tagged = {(r["type"], r["name"]) for r in document["resources"] if _tagged_with_stack(r.get("inputs"), "dev")}

    code, out = plan(tmp_path, {}, "--stack", "prod", "--compare", str(dev_plan))
    comparison = json.loads(out)["comparison"]
    _, text = plan(tmp_path, {}, "--stack", "prod", "--compare", str(dev_plan), fmt="text")

    assert code == 0
    assert comparison["stacks"] == {"earlier": "dev", "later": "prod"}
    assert comparison["changed"] == [] and comparison["added"] == [] and comparison["removed"] == []
    assert {(c["type"], c["name"]) for c in comparison["byStackName"]} == tagged
    assert all(i["fromStackName"] for c in comparison["byStackName"] for i in c["inputs"])
    lines = text.splitlines()
    heading = next(index for index, line in enumerate(lines) if line.startswith("Changes since"))
    first = lines[heading + 1].strip()
    assert first.startswith(
        "The earlier plan is of stack `dev`, this one of stack `prod`: two stacks, not one stack's next update. "
        f"{len(tagged)} resource(s) differ only by what follows from the stack name"
    )
    assert "  Follows from the stack name:" in lines


def test_a_real_difference_between_two_stacks_is_a_change_with_the_names_part_marked(tmp_path, dev_plan):
    """Stack `prod` named after itself (cluster `gpu-inference-prod`) with a larger GPU pool: the resources are
    matched across the names, the pool's maxSize is the one change (node_group.go: scaling_config updates in place),
    and the cluster name and stack tag in the node group are the name's."""
    overrides = {"cluster": {"name": "gpu-inference-prod"}, "gpuNodeGroup": {"maxSize": 4}}
    code, out = plan(tmp_path, overrides, "--stack", "prod", "--compare", str(dev_plan))
    comparison = json.loads(out)["comparison"]

    assert code == 0
    assert comparison["added"] == [] and comparison["removed"] == []
    [group] = comparison["changed"]
    assert (group["name"], group["action"], group["rolling"]) == ("gpu-inference-prod-gpu", "update", None)
    own = [(i["path"], i["before"], i["after"]) for i in group["inputs"] if not i["fromStackName"]]
    assert own == [("scalingConfig.maxSize", 2, 4)]
    named = {i["path"]: (i["before"], i["after"]) for i in group["inputs"] if i["fromStackName"]}
    assert named["clusterName"] == ("gpu-inference-dev", "gpu-inference-prod")
    assert named['tags["pulumi:stack"]'] == ("dev", "prod")
