"""Verdict 7: all replicas of each GPU workload fit the GPU pools at maxSize (fail) and desiredSize (warn)."""

from __future__ import annotations

from pathlib import Path

import pytest

from components.placement import pools_for_node_groups
from components.placement.capacity import gpu_capacity, pods_per_node, replicas
from components.placement.pools import NodeGroupSpec
from components.stackcheck.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
STACKS = Path(__file__).resolve().parents[1] / "stacks"
GPU_LABELS = {"GPU": "true"}
GPU_TAINT = {"key": "GPU", "value": "true", "effect": "NoSchedule"}
TOLERATION = {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}


def gpu_pool(name="gpu", instance_type="g5.xlarge", desired=1, maximum=2, types=()) -> dict:
    spec = NodeGroupSpec(
        name, instance_type, desired, GPU_LABELS, [GPU_TAINT], max_size=maximum, instance_types=tuple(types)
    )
    [pool] = pools_for_node_groups([spec], device_plugin_pools=[name])
    return pool


def server(replica_count: int | None, gpus: int = 1, name: str = "server", kind: str = "Deployment") -> dict:
    spec = {
        "template": {
            "spec": {
                "nodeSelector": GPU_LABELS,
                "tolerations": [TOLERATION],
                "containers": [{"name": "c", "image": "vllm", "resources": {"limits": {"nvidia.com/gpu": str(gpus)}}}],
            }
        }
    }
    if replica_count is not None:
        spec["replicas"] = replica_count
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": {"name": name, "namespace": "ml"}, "spec": spec}


@pytest.mark.parametrize(
    ("count", "maximum", "desired", "passed", "warned"),
    [
        (2, 2, 2, True, False),
        (2, 2, 1, True, True),
        (3, 2, 1, False, False),
        (0, 2, 0, True, False),
    ],
)
def test_replicas_against_max_and_desired_size(count, maximum, desired, passed, warned):
    verdict, warnings = gpu_capacity([server(count)], [gpu_pool(desired=desired, maximum=maximum)])
    assert verdict.name == "gpu-capacity-fits-replicas"
    assert verdict.passed is passed
    assert bool(warnings) is warned


def test_failure_names_the_workload_the_pool_and_the_shortfall():
    verdict, _ = gpu_capacity([server(5)], [gpu_pool(desired=1, maximum=2)])
    assert verdict.message == (
        "ml/server asks for 5 x 1 nvidia.com/gpu (5 pod(s)) but GPU pool(s) gpu (1 desired / 2 max node(s), "
        "1 pod(s) per node; g5.xlarge: 1 GPU(s)) hold 2 at maxSize: 3 pod(s) can never be scheduled; "
        "raise maxSize or lower replicas"
    )


def test_pods_per_node_count_each_instance_type_and_take_the_fewest():
    four = gpu_pool(instance_type="g5.12xlarge", types=("g5.12xlarge",))
    assert pods_per_node(four, 2) == 2 and pods_per_node(four, 3) == 1 and pods_per_node(four, 1) == 4
    mixed = gpu_pool(instance_type="g5.12xlarge", types=("g5.12xlarge", "g5.48xlarge"))  # 4 and 8 GPUs
    assert pods_per_node(mixed, 2) == 2
    verdict, _ = gpu_capacity(
        [server(5, gpus=2)], [gpu_pool(instance_type="g5.12xlarge", maximum=2, types=("g5.12xlarge", "g5.48xlarge"))]
    )
    assert not verdict.passed and "hold 4 at maxSize: 1 pod(s) can never be scheduled" in verdict.message


def test_unknown_instance_type_cannot_be_counted_and_says_so():
    pool = gpu_pool(types=("g5.xlarge", "g99.xlarge"))
    verdict, _ = gpu_capacity([server(1)], [pool])
    assert not verdict.passed and "GPUs per node unknown for pool(s) gpu" in verdict.message


def test_workloads_sharing_pools_are_counted_together():
    verdict, _ = gpu_capacity([server(1, name="a"), server(2, name="b")], [gpu_pool(maximum=2)])
    assert not verdict.passed
    assert "ml/a + ml/b asks for 1 x 1 nvidia.com/gpu, 2 x 1 nvidia.com/gpu (3 pod(s))" in verdict.message


@pytest.mark.parametrize(
    ("workload", "expected"),
    [
        pytest.param(server(None), 1, id="Deployment without replicas runs one"),
        pytest.param(server(3), 3, id="Deployment runs its replicas"),
        pytest.param(server(2, kind="StatefulSet"), 2, id="StatefulSet runs its replicas"),
        pytest.param(server(4, kind="DaemonSet"), None, id="DaemonSet has no replica count"),
        pytest.param({"kind": "Job", "spec": {"parallelism": 3}}, 3, id="Job runs its parallelism"),
        pytest.param({"kind": "Pod", "spec": {}}, 1, id="Pod is one replica"),
    ],
)
def test_replicas_of_each_kind(workload, expected):
    assert replicas(workload) == expected


def test_five_replicas_on_two_one_gpu_nodes_make_the_plan_exit_1_naming_the_verdict(capsys, tmp_path):
    code = main(
        [
            "plan",
            "--project-dir",
            str(ROOT),
            "--stack-file",
            str(STACKS / "Pulumi.too-many-replicas.yaml"),
            "--out",
            str(tmp_path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL  7 gpu-capacity-fits-replicas: vllm/vllm-server asks for 5 x 1 nvidia.com/gpu" in out
    assert "verdict 7 gpu-capacity-fits-replicas: vllm/vllm-server" in out.split("FAILED:", 1)[1]


def test_replicas_above_desired_size_warn_in_the_plan_and_pass(capsys, tmp_path):
    stack_file = tmp_path / "Pulumi.two.yaml"
    stack_file.write_text((STACKS / "Pulumi.too-many-replicas.yaml").read_text().replace("replicas: 5", "replicas: 2"))
    code = main(["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "o")])
    out = capsys.readouterr().out
    assert code == 0
    assert "PASS  7 gpu-capacity-fits-replicas" in out
    assert (
        "verdict 7 gpu-capacity-fits-replicas: vllm/vllm-server asks for 2 x 1 nvidia.com/gpu (2 pod(s)); "
        "GPU pool(s) gpu-inference-replicas-gpu" in out
    )
    assert "1 pod(s) wait until the pool scales up" in out


def test_workloads_sharing_pools_that_fit_are_reported_in_gpus():
    # Two one-GPU workloads on one-GPU nodes: 2 of the 3 nodes' GPUs at maxSize, both at desiredSize 2.
    verdict, warnings = gpu_capacity([server(1, name="a"), server(1, name="b")], [gpu_pool(desired=2, maximum=3)])

    assert verdict.passed and warnings == []
    assert "ml/a + ml/b: 2 pod(s), 2 of 3 GPU(s) at maxSize, 2 at desiredSize" in verdict.message
