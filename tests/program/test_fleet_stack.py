"""The fleet form in the real program and plan: examples/fleet (three pools, four models) run under mocks, the
plan of it and of a variant that fails the fits gate, and the one-pool dev stack registering what it always did.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import yaml
from conftest import plan_stack_file

from components.args.coerce import ArgumentError
from components.stackcheck.runtime import ProgramRun
from components.vllm.server import VllmServer, VllmServerArgs
from tests.support.fleet_stack import FLEET, ROOT, fleet_config, run_fleet

DEV_RESOURCES = Path(__file__).resolve().parents[1] / "stacks" / "dev-resources.txt"
PRODUCT_LABEL = "nvidia.com/gpu.product"
# Pool -> (instance type, product label), as examples/fleet declares them.
POOLS = {
    "l4": ("g6.xlarge", "NVIDIA-L4"),
    "l40s": ("g6e.xlarge", "NVIDIA-L40S"),
    "h100": ("p5.48xlarge", "NVIDIA-H100-80GB-HBM3"),
}
# Model name -> the pool it runs on (qwen-1-5b by pool: auto).
MODELS = {"qwen-1-5b": "l4", "llama-8b": "l4", "qwen-14b": "l40s", "llama-70b": "h100"}


def failed_verdict(document: dict, tmp_path: Path, name: str) -> dict:
    """The verdict `name` of the plan of `document`, after asserting that the plan failed on it."""
    stack_file = tmp_path / "Pulumi.fleet.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    code, report = plan_stack_file(stack_file, tmp_path / "out")
    assert code == 1
    [verdict] = [verdict for verdict in report["verdicts"] if verdict["name"] == name]
    assert not verdict["passed"]
    return verdict


@pytest.fixture(scope="module")
def fleet_run(tmp_path_factory) -> ProgramRun:
    return run_fleet(fleet_config(), tmp_path_factory.mktemp("fleet"))


@pytest.fixture(scope="module")
def fleet_plan(tmp_path_factory) -> tuple[int, dict]:
    return plan_stack_file(FLEET, tmp_path_factory.mktemp("fleet-plan"))


def node_group(run: ProgramRun, pool: str) -> dict:
    """The EKS node group of `pool` (the component of that name holds it)."""
    [group] = [
        resource.inputs
        for resource in run.of_type("aws:eks/nodeGroup:NodeGroup")
        if resource.name == f"gpu-fleet-gpu-{pool}"
    ]
    return group


def deployment(run: ProgramRun, name: str) -> dict:
    [found] = [
        resource.inputs
        for resource in run.of_type("kubernetes:apps/v1:Deployment")
        if resource.inputs["metadata"]["name"] == name
    ]
    return found


def test_the_one_pool_dev_stack_registers_exactly_the_resources_it_did_before_the_fleet_form(dev_run):
    before = [line for line in DEV_RESOURCES.read_text().splitlines() if not line.startswith("#")]

    assert sorted(resource.urn for resource in dev_run.resources) == before


@pytest.mark.parametrize("pool", POOLS)
def test_each_pool_is_a_node_group_of_its_own_gpu_type_under_the_one_contract(fleet_run, pool):
    instance_type, product = POOLS[pool]
    group = node_group(fleet_run, pool)

    assert group["instanceTypes"] == [instance_type]
    assert group["labels"]["GPU"] == "true"
    assert group["labels"][PRODUCT_LABEL] == product
    assert group["taints"] == [{"key": "GPU", "value": "true", "effect": "NO_SCHEDULE"}]


@pytest.mark.parametrize("name", MODELS)
def test_each_model_is_a_server_of_its_own_on_its_pools_gpu_product(fleet_run, name):
    _, product = POOLS[MODELS[name]]
    server = deployment(fleet_run, name)
    pod = server["spec"]["template"]["spec"]

    assert server["metadata"]["namespace"] == name
    assert pod["nodeSelector"] == {"GPU": "true"}
    assert {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"} in pod["tolerations"]
    [term] = pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    assert {"key": PRODUCT_LABEL, "operator": "In", "values": [product]} in term["matchExpressions"]


@pytest.mark.parametrize("kind", ["Service", "PodDisruptionBudget", "NetworkPolicy", "Namespace"])
def test_each_model_has_its_own_objects(fleet_run, kind):
    token = {
        "Service": "kubernetes:core/v1:Service",
        "PodDisruptionBudget": "kubernetes:policy/v1:PodDisruptionBudget",
        "NetworkPolicy": "kubernetes:networking.k8s.io/v1:NetworkPolicy",
        "Namespace": "kubernetes:core/v1:Namespace",
    }[kind]
    names = {resource.inputs["metadata"]["name"] for resource in fleet_run.of_type(token)}

    assert set(MODELS) <= names


def test_the_70b_model_takes_all_eight_gpus_of_its_node(fleet_run):
    [container] = deployment(fleet_run, "llama-70b")["spec"]["template"]["spec"]["containers"]

    assert container["resources"]["limits"]["nvidia.com/gpu"] == "8"
    assert container["args"][container["args"].index("--tensor-parallel-size") + 1] == "8"


def test_the_outputs_name_each_pool_and_model(fleet_run):
    assert set(fleet_run.outputs["gpuPools"]) == set(POOLS)
    assert set(fleet_run.outputs["models"]) == set(MODELS)
    assert fleet_run.outputs["models"]["qwen-14b"]["service"] == "qwen-14b.qwen-14b.svc.cluster.local"
    assert "gpuNodeGroup" not in fleet_run.outputs and "vllmService" not in fleet_run.outputs


def test_one_device_plugin_and_exporter_tolerate_every_pools_taints(tmp_path):
    document = fleet_config()
    pools = document["config"]["eks-gpu-inference:gpuPools"]
    pools["h100"]["extraTaints"] = [{"key": "tier", "value": "premium", "effect": "NoExecute"}]
    run = run_fleet(document, tmp_path)

    daemonsets = {
        resource.inputs["metadata"]["name"]: resource.inputs["spec"]["template"]["spec"]["tolerations"]
        for resource in run.of_type("kubernetes:apps/v1:DaemonSet")
    }
    premium = {"key": "tier", "operator": "Equal", "value": "premium", "effect": "NoExecute"}
    assert premium in daemonsets["nvidia-device-plugin"]
    assert premium in daemonsets["dcgm-exporter"]
    assert node_group(run, "h100")["taints"][-1] == {
        "key": "tier",
        "value": "premium",
        "effect": "NO_EXECUTE",
    }
    # The other pools carry only the contract's taint.
    assert len(node_group(run, "l4")["taints"]) == 1


def test_a_models_revision_reaches_vllm(tmp_path):
    document = fleet_config()
    document["config"]["eks-gpu-inference:models"][2]["revision"] = "a" * 40
    run = run_fleet(document, tmp_path)

    [container] = deployment(run, "qwen-14b")["spec"]["template"]["spec"]["containers"]
    assert container["args"][container["args"].index("--revision") + 1] == "a" * 40


def test_the_fleet_plans_clean_with_each_model_on_its_pool(fleet_plan):
    code, report = fleet_plan

    assert code == 0, report["failures"]
    assert all(verdict["passed"] for verdict in report["verdicts"])
    rows = {row["name"].split(" ")[0]: row for row in report["models"]}
    assert {name: row["pool"] for name, row in rows.items()} == {
        name: f"gpu-fleet-gpu-{pool}" for name, pool in MODELS.items()
    }
    assert all(row["fits"] for row in rows.values())
    assert "pool auto: l4, the least GPU memory that fits" in rows["qwen-1-5b"]["reason"]
    for name, pool in MODELS.items():
        landed = [row["pool"] for row in report["matrix"] if row["workload"] == f"{name}/{name}" and row["lands"]]
        assert landed == [f"gpu-fleet-gpu-{pool}"]


def test_a_70b_model_on_one_l40s_fails_the_gate_with_its_numbers(tmp_path):
    # Llama-3.3-70B at TP 1: 70.56e9 x 2 bytes = 131.4 GiB of weights + 2 GiB reserve > 40.5 GiB usable per L40S
    # (44.99 GiB as CUDA reports it x 0.9).
    document = fleet_config()
    document["config"]["eks-gpu-inference:models"][3].update(pool="l40s", tensorParallelSize=1)
    verdict = failed_verdict(document, tmp_path, "model-fits-gpu")
    assert (
        "llama-70b (meta-llama/Llama-3.3-70B-Instruct) on g6e.xlarge (TP 1): weights 131.4 GiB + reserve 2.0 GiB per GPU > 40.5 GiB usable per L40S"
        in verdict["message"]
    )


def test_pulumi_yaml_declares_the_fleet_keys():
    config = yaml.safe_load((ROOT / "Pulumi.yaml").read_text())["config"]

    assert config["gpuPools"]["type"] == "object"
    assert config["models"]["type"] == "array" and config["models"]["items"] == {"type": "object"}


def test_a_branch_revision_warns_under_the_models_config_key(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    document = fleet_config()
    document["config"]["eks-gpu-inference:models"][1]["revision"] = "main"
    run_fleet(document, tmp_path)

    warnings = [record.getMessage() for record in caplog.records if "revision" in record.getMessage()]
    assert warnings == [
        "eks-gpu-inference:models.1.revision: revision 'main' looks like a branch: the weights it names can change "
        "under the same config; pin a commit id (40 hex digits) or a release tag"
    ]


def test_capacity_counts_together_the_models_that_share_a_pool(fleet_plan):
    _, report = fleet_plan
    [verdict] = [verdict for verdict in report["verdicts"] if verdict["name"] == "gpu-capacity-fits-replicas"]

    # Two one-GPU models on the L4 pool: 2 of its 4 nodes x 1 GPU at maxSize, both placed at desiredSize 2.
    assert (
        "qwen-1-5b/qwen-1-5b + llama-8b/llama-8b: 2 pod(s), 2 of 4 GPU(s) at maxSize, 2 at desiredSize"
        in (verdict["message"])
    )


def test_two_models_on_a_pool_of_one_node_fail_capacity_together(tmp_path):
    # Each model alone fits the one L4 node; together they ask for 2 GPUs of 1.
    document = fleet_config()
    document["config"]["eks-gpu-inference:gpuPools"]["l4"].update(desiredSize=1, maxSize=1)
    verdict = failed_verdict(document, tmp_path, "gpu-capacity-fits-replicas")
    assert verdict["message"].startswith(
        "qwen-1-5b/qwen-1-5b + llama-8b/llama-8b asks for 1 x 1 nvidia.com/gpu, 1 x 1 nvidia.com/gpu (2 pod(s)) but "
        "GPU pool(s) gpu-fleet-gpu-l4 (1 desired / 1 max node(s)"
    )
    assert "hold 1 at maxSize: 1 pod(s) can never be scheduled" in verdict["message"]


def test_two_pools_of_one_gpu_product_keep_their_models_apart_by_the_pool_label(tmp_path):
    # On-demand and Spot L4 pools share nvidia.com/gpu.product; only the pool label tells their nodes apart.
    document = fleet_config()
    config = document["config"]
    config["eks-gpu-inference:gpuPools"] = {
        "l4": {"instanceTypes": ["g6.xlarge"], "desiredSize": 1},
        "l4-spot": {"instanceTypes": ["g6.xlarge"], "capacityType": "SPOT", "desiredSize": 1},
    }
    config["eks-gpu-inference:models"] = [
        {"name": "steady", "model": "Qwen/Qwen2.5-1.5B-Instruct", "pool": "l4"},
        {"name": "batch", "model": "Qwen/Qwen2.5-1.5B-Instruct", "pool": "l4-spot"},
    ]
    stack_file = tmp_path / "Pulumi.fleet.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    run = run_fleet(document, tmp_path)

    for name, pool in (("steady", "l4"), ("batch", "l4-spot")):
        assert node_group(run, pool)["labels"]["eks-gpu-inference/node-pool"] == pool
        pod = deployment(run, name)["spec"]["template"]["spec"]
        [term] = pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
        assert {"key": "eks-gpu-inference/node-pool", "operator": "In", "values": [pool]} in term["matchExpressions"]
    code, report = plan_stack_file(stack_file, tmp_path / "out")
    assert code == 0, report["failures"]
    for name, pool in (("steady", "l4"), ("batch", "l4-spot")):
        landed = [row["pool"] for row in report["matrix"] if row["workload"] == f"{name}/{name}" and row["lands"]]
        assert landed == [f"gpu-fleet-gpu-{pool}"]


def test_a_servers_required_node_labels_are_checked_as_node_labels():
    with pytest.raises(ArgumentError) as error:
        VllmServer("server", VllmServerArgs(require_node_labels={"kubernetes.io/pool": "a"}))

    assert "VllmServer(server).args.require_node_labels: " in str(error.value)
    assert "kubernetes.io" in str(error.value)
