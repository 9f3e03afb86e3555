"""Node groups as pools: labels, taints and allocatable as EKS makes them, and GPUs the device plugin advertises."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest

from components.placement import (
    NodeGroupSpec,
    advertise_gpus,
    eks_allocatable,
    kube_reserved_cpu_millicores,
    kube_reserved_memory_mebibytes,
    pools_for_node_groups,
)

GPU_TAINT = {"key": "GPU", "value": "true", "effect": "NoSchedule"}
GPU_LABELS = {"GPU": "true", "nvidia.com/gpu.present": "true"}


def one(group: NodeGroupSpec, **kwargs) -> dict:
    (pool,) = pools_for_node_groups([group], **kwargs)
    return pool


def test_cpu_pool_from_m6i_large():
    pool = one(NodeGroupSpec("system", "m6i.large", 2, {}, []))
    assert {k: v for k, v in pool.items() if k != "node"} == {
        "name": "system",
        "instanceType": "m6i.large",
        "count": 2,
        "maxCount": 2,
        "gpusPerNode": 0,
        "gpusPerNodeByType": {"m6i.large": 0},
        "unknown": False,
        "gpuAdvertisedByHost": False,
        "provisioner": "nodeGroup",
    }
    # 2 vCPU less 60m + 10m; 8 GiB less 11Mi * 29 + 255Mi and the 100Mi eviction threshold.
    assert pool["node"]["status"]["allocatable"] == {
        "cpu": "1930m",
        "memory": "7518Mi",
        "pods": "29",
        "ephemeral-storage": "17Gi",
    }
    assert pool["node"]["spec"]["taints"] == []
    assert pool["node"]["metadata"]["name"] == "system-0"


def test_gpu_pool_labels_and_taints():
    pool = one(NodeGroupSpec("gpu", "g5.xlarge", 1, GPU_LABELS, [GPU_TAINT], capacity_type="SPOT"))
    assert pool["gpusPerNode"] == 1
    assert pool["node"]["metadata"]["labels"] == {
        "GPU": "true",
        "nvidia.com/gpu.present": "true",
        "kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/arch": "amd64",
        "kubernetes.io/os": "linux",
        "beta.kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": "g5.xlarge",
        "eks.amazonaws.com/nodegroup": "gpu",
        "eks.amazonaws.com/capacityType": "SPOT",
        "kubernetes.io/hostname": "gpu-0",
    }
    assert pool["node"]["spec"]["taints"] == [GPU_TAINT]


def test_gpu_pool_allocatable_without_gpus_until_the_plugin_runs():
    pool = one(NodeGroupSpec("gpu", "g5.xlarge", 1, GPU_LABELS, [GPU_TAINT]))
    # 4 vCPU less 60 + 10 + 5 + 5 m; 16 GiB less 11Mi * 58 + 255Mi + 100Mi.
    assert pool["node"]["status"]["allocatable"] == {
        "cpu": "3920m",
        "memory": "15391Mi",
        "pods": "58",
        "ephemeral-storage": "17Gi",
    }


def test_host_advertised_gpus_are_in_allocatable():
    pool = one(NodeGroupSpec("gpu", "g5.12xlarge", 1, GPU_LABELS, [GPU_TAINT], gpu_advertised_by_host=True))
    assert pool["gpusPerNode"] == 4
    assert pool["gpuAdvertisedByHost"] is True
    assert pool["node"]["status"]["allocatable"]["nvidia.com/gpu"] == "4"
    # 48 vCPU: 60 + 10 + 2 * 5 + 44 * 2.5 = 190m reserved.
    assert pool["node"]["status"]["allocatable"]["cpu"] == "47810m"


def test_device_plugin_pools_get_gpus_and_cpu_pools_never_do():
    pools = pools_for_node_groups(
        [
            NodeGroupSpec("system", "m6i.large", 2, {}, []),
            NodeGroupSpec("gpu", "g5.xlarge", 1, GPU_LABELS, [GPU_TAINT]),
            NodeGroupSpec("gpu2", "g5.xlarge", 0, GPU_LABELS, [GPU_TAINT]),
        ],
        device_plugin_pools=["system", "gpu"],
    )
    allocatable = {p["name"]: p["node"]["status"]["allocatable"] for p in pools}
    assert allocatable["gpu"]["nvidia.com/gpu"] == "1"
    assert "nvidia.com/gpu" not in allocatable["gpu2"]
    assert "nvidia.com/gpu" not in allocatable["system"]


def test_arm64_instance_types_get_the_arm64_label():
    pool = one(NodeGroupSpec("arm-gpu", "g5g.xlarge", 1, {}, []))
    assert pool["node"]["metadata"]["labels"]["kubernetes.io/arch"] == "arm64"
    assert pool["gpusPerNode"] == 1


def test_system_labels_win_over_node_group_labels():
    pool = one(NodeGroupSpec("system", "m6i.large", 1, {"kubernetes.io/os": "windows", "team": "a"}, []))
    labels = pool["node"]["metadata"]["labels"]
    assert labels["kubernetes.io/os"] == "linux" and labels["team"] == "a"


def test_disk_size_sets_ephemeral_storage():
    pool = one(NodeGroupSpec("system", "m6i.large", 1, {}, [], disk_size_gib=100))
    assert pool["node"]["status"]["allocatable"]["ephemeral-storage"] == "89Gi"  # 90% of 100Gi less 1Gi


def test_unknown_instance_type_is_flagged_with_no_allocatable():
    pool = one(NodeGroupSpec("mystery", "zz9.mega", 3, {}, []))
    assert pool["unknown"] is True
    assert pool["gpusPerNode"] == 0
    assert pool["node"]["status"]["allocatable"] == {}
    assert "kubernetes.io/arch" not in pool["node"]["metadata"]["labels"]


def test_lookup_can_be_replaced():
    from components.facts.gpu_catalog import InstanceType

    fake = InstanceType("g5.xlarge", "x86_64", 8, 32, 100, 2, "NVIDIA A10G", 24, "NVIDIA-A10G")
    pool = one(NodeGroupSpec("gpu", "g5.xlarge", 1, {}, [], gpu_advertised_by_host=True), lookup=lambda name: fake)
    assert pool["gpusPerNode"] == 2
    assert pool["node"]["status"]["allocatable"]["pods"] == "100"


@pytest.mark.parametrize(
    ("groups", "error"),
    [
        pytest.param(
            [NodeGroupSpec("gpu", "g5.xlarge", 1, {}, [{"key": "GPU", "value": "true", "effect": "NO_SCHEDULE"}])],
            r"node group gpu: taint 'GPU' has effect 'NO_SCHEDULE'; use Kubernetes spelling, one of NoSchedule, NoExecute, PreferNoSchedule",
            id="taint effect in AWS spelling is rejected",
        ),
        pytest.param(
            [NodeGroupSpec("gpu", "g5.xlarge", 1, {}, [{"value": "true", "effect": "NoSchedule"}])],
            r"node group gpu: taint .* has no key",
            id="taint without a key is rejected",
        ),
        pytest.param(
            [NodeGroupSpec("gpu", "g5.xlarge", 1, {}, [], capacity_type="spot")],
            r"node group gpu: capacity_type 'spot' must be one of ON_DEMAND, SPOT, CAPACITY_BLOCK",
            id="lowercase capacity type is rejected",
        ),
        pytest.param(
            [NodeGroupSpec("gpu", "g5.xlarge", -1, {}, [])],
            r"node group gpu: desired_size -1 must be >= 0",
            id="negative desired size is rejected",
        ),
        pytest.param(
            [NodeGroupSpec("a", "m6i.large", 1, {}, []), NodeGroupSpec("a", "g5.xlarge", 1, {}, [])],
            r"node group name 'a' is repeated",
            id="repeated node group name is rejected",
        ),
    ],
)
def test_rejects_bad_node_groups(groups, error):
    with pytest.raises(ValueError, match=error):
        pools_for_node_groups(groups)


@pytest.mark.parametrize(
    ("vcpus", "millicores"),
    [(1, 60), (2, 70), (3, 75), (4, 80), (5, 82), (8, 90), (48, 190), (96, 310)],
)
def test_kube_reserved_cpu(vcpus, millicores):
    assert kube_reserved_cpu_millicores(vcpus) == millicores


@pytest.mark.parametrize(("max_pods", "mebibytes"), [(29, 574), (58, 893), (110, 1465), (737, 8362)])
def test_kube_reserved_memory(max_pods, mebibytes):
    assert kube_reserved_memory_mebibytes(max_pods) == mebibytes


def test_eks_allocatable_of_g5_12xlarge():
    from components.facts.gpu_catalog import lookup

    assert eks_allocatable(lookup("g5.12xlarge")) == {
        "cpu": "47810m",
        "memory": "188146Mi",
        "pods": "737",
        "ephemeral-storage": "17Gi",
    }


def plugin(tolerations):
    return {
        "kind": "DaemonSet",
        "metadata": {"name": "nvidia-device-plugin", "namespace": "kube-system"},
        "spec": {
            "template": {
                "spec": {
                    "tolerations": tolerations,
                    "containers": [{"name": "p", "image": "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"}],
                }
            }
        },
    }


def test_advertise_gpus_follows_the_device_plugin_tolerations():
    pools = pools_for_node_groups(
        [
            NodeGroupSpec("system", "m6i.large", 2, {}, []),
            NodeGroupSpec("gpu", "g5.xlarge", 1, GPU_LABELS, [GPU_TAINT]),
            NodeGroupSpec("big", "g5.12xlarge", 0, GPU_LABELS, [GPU_TAINT, {"key": "big", "effect": "NoExecute"}]),
        ]
    )
    before = copy.deepcopy(pools)
    stock = advertise_gpus(pools, [plugin([{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}])])
    tolerant = advertise_gpus(pools, [plugin([{"key": "GPU", "operator": "Exists"}])])
    everything = advertise_gpus(pools, [plugin([{"operator": "Exists"}])])
    gpus = lambda ps: {p["name"]: p["node"]["status"]["allocatable"].get("nvidia.com/gpu") for p in ps}  # noqa: E731
    assert gpus(stock) == {"system": None, "gpu": None, "big": None}
    assert gpus(tolerant) == {"system": None, "gpu": "1", "big": None}
    assert gpus(everything) == {"system": None, "gpu": "1", "big": "4"}
    assert pools == before


def test_advertise_gpus_ignores_workloads_that_are_not_the_plugin():
    pools = pools_for_node_groups([NodeGroupSpec("gpu", "g5.xlarge", 1, GPU_LABELS, [])])
    deployment = dict(plugin([]), kind="Deployment")
    assert "nvidia.com/gpu" not in advertise_gpus(pools, [deployment])[0]["node"]["status"]["allocatable"]


def test_importing_placement_and_building_pools_does_not_load_pulumi():
    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys; from components import placement; "
        "placement.pools_for_node_groups([placement.NodeGroupSpec('a', 'g5.xlarge', 1, {}, [])]); "
        "print(sorted(m for m in sys.modules if m == 'pulumi' or m.startswith('pulumi.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
