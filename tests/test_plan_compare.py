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
from tests.conftest import dev_stack_config, merge

ROOT = Path(__file__).resolve().parent.parent
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
    # Costly first: the GPU node group, then the VPC, then the system node group, then the subnets.
    assert replaced[:3] == [
        (NODE_GROUP, GPU_NODE_GROUP),
        (VPC, "gpu-inference-dev-network-vpc"),
        (NODE_GROUP, "gpu-inference-dev-system"),
    ]
    assert sum(1 for resource_type, _ in replaced if resource_type == SUBNET) == 6
    followed = changed(comparison, GPU_NODE_GROUP, NODE_GROUP)["inputs"]
    assert {i["follows"] for i in followed} == {f"gpu-inference-dev-network-private-{n}" for n in range(3)}
    assert all(i["path"].startswith("subnetIds[") and i["replaces"] for i in followed)
    # Types whose replace rules are not known are said to be so, not called updates.
    gateway = changed(comparison, "gpu-inference-dev-network-igw", "aws:ec2/internetGateway:InternetGateway")
    assert gateway["action"] == "may-replace" and gateway["rulesFrom"] is None


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
