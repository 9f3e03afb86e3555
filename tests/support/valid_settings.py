"""Valid stack settings that sit exactly on a boundary of what is allowed, next to INVALID_SETTINGS.

Each case is (overrides of the dev stack, the key whose value sits on the boundary, that value; for a
list, its length). A check
written with the wrong comparison (`>=` for `>`, `<` for `<=`) rejects one of them. The ids read as
sentences, so a failure says which boundary moved.
"""

import pytest

from components.facts import eks_model, versions
from components.settings import MIN_GPU_DISK_GIB, MIN_SYSTEM_DISK_GIB

_LABEL_KEY_MAX = eks_model.length_limits("labelKey")[1]
_LABEL_VALUE_MAX = eks_model.length_limits("labelValue")[1]
_TAINT_VALUE_MIN, _TAINT_VALUE_MAX = eks_model.length_limits("taintValue")
# The contract taint counts towards the EKS limit, so this many extra taints make exactly the limit.
_EXTRA_TAINTS_AT_LIMIT = eks_model.MAX_TAINTS_PER_NODE_GROUP - 1


def _sizes(section: str, min_size: int, desired: int, max_size: int) -> dict:
    return {section: {"minSize": min_size, "desiredSize": desired, "maxSize": max_size}}


VALID_BOUNDARY_SETTINGS = [
    # Node group sizes: minSize <= desiredSize <= maxSize, maxSize >= 1, system minSize >= 1.
    pytest.param(
        _sizes("gpuNodeGroup", 1, 1, 1),
        "gpuNodeGroup.desiredSize",
        1,
        id="a GPU group of one node, min equal to desired equal to max (1/1/1), is valid",
    ),
    pytest.param(
        _sizes("gpuNodeGroup", 2, 2, 2),
        "gpuNodeGroup.desiredSize",
        2,
        id="a GPU group of fixed size, desired equal to max (2/2/2), is valid",
    ),
    pytest.param(
        _sizes("gpuNodeGroup", 0, 2, 2),
        "gpuNodeGroup.maxSize",
        2,
        id="a GPU group that may park at zero and starts at its max (0/2/2) is valid",
    ),
    pytest.param(
        _sizes("gpuNodeGroup", 0, 0, 1),
        "gpuNodeGroup.maxSize",
        1,
        id="a GPU group that starts empty with max one (0/0/1) is valid",
    ),
    pytest.param(
        _sizes("systemNodeGroup", 1, 1, 1),
        "systemNodeGroup.minSize",
        1,
        id="a system group of one node (1/1/1), the smallest that keeps add-ons running, is valid",
    ),
    pytest.param(
        _sizes("systemNodeGroup", 2, 3, 3),
        "systemNodeGroup.desiredSize",
        3,
        id="a system group starting at its max (2/3/3) is valid",
    ),
    pytest.param(
        _sizes("systemNodeGroup", 2, 2, 2),
        "systemNodeGroup.maxSize",
        2,
        id="a system group of fixed size (2/2/2) is valid",
    ),
    # Disks, updates and node group limits.
    pytest.param(
        {"gpuNodeGroup": {"diskSize": MIN_GPU_DISK_GIB}},
        "gpuNodeGroup.diskSize",
        MIN_GPU_DISK_GIB,
        id="a GPU disk of exactly the minimum size is valid",
    ),
    pytest.param(
        {"systemNodeGroup": {"diskSize": MIN_SYSTEM_DISK_GIB}},
        "systemNodeGroup.diskSize",
        MIN_SYSTEM_DISK_GIB,
        id="a system disk of exactly the minimum size is valid",
    ),
    pytest.param(
        {"gpuNodeGroup": {"updateMaxUnavailable": 1}},
        "gpuNodeGroup.updateMaxUnavailable",
        1,
        id="replacing one GPU node at a time during an update is valid",
    ),
    pytest.param(
        {"gpuNodeGroup": {"updateMaxUnavailable": 100}},
        "gpuNodeGroup.updateMaxUnavailable",
        100,
        id="replacing 100 GPU nodes at a time, the EKS maximum, is valid",
    ),
    pytest.param(
        {"gpuNodeGroup": {"extraTaints": [{"key": f"t{i}"} for i in range(_EXTRA_TAINTS_AT_LIMIT)]}},
        "gpuNodeGroup.extraTaints",
        _EXTRA_TAINTS_AT_LIMIT,
        id="extra taints that bring the GPU group to exactly the EKS taint limit are valid",
    ),
    # vLLM.
    pytest.param(
        {"vllm": {"shutdownTimeoutSeconds": 0}},
        "vllm.shutdownTimeoutSeconds",
        0,
        id="a vLLM shutdown timeout of 0 seconds is valid",
    ),
    pytest.param(
        {"vllm": {"shutdownTimeoutSeconds": 3600}},
        "vllm.shutdownTimeoutSeconds",
        3600,
        id="a vLLM shutdown timeout of 3600 seconds, the maximum, is valid",
    ),
    pytest.param(
        {"vllm": {"startupTimeoutSeconds": 60}},
        "vllm.startupTimeoutSeconds",
        60,
        id="a vLLM startup timeout of 60 seconds, the minimum, is valid",
    ),
    pytest.param(
        {"vllm": {"maxModelLen": 16}}, "vllm.maxModelLen", 16, id="a context length of 16 tokens, the minimum, is valid"
    ),
    # The most a fresh A10G (the dev stack's g5.xlarge) has free at vLLM's start-up check: 0.98 x 22.49 GiB of
    # 22.09 (facts/vllm_startup.py); all of it (1.0) is refused.
    pytest.param(
        {"vllm": {"gpuMemoryUtilization": 0.98}},
        "vllm.gpuMemoryUtilization",
        0.98,
        id="letting vLLM use what a fresh A10G has free (0.98) is valid",
    ),
    pytest.param({"vllm": {"replicas": 0}}, "vllm.replicas", 0, id="zero vLLM replicas is valid"),
    pytest.param(
        {"vllm": {"modelCache": {"type": "pvc"}, "replicas": 1}},
        "vllm.replicas",
        1,
        id="one replica on a ReadWriteOnce cache claim, the most a claim allows, is valid",
    ),
    pytest.param(
        {"vllm": {"tensorParallelSize": 1}},
        "vllm.tensorParallelSize",
        1,
        id="a tensor parallel size of 1, the minimum, is valid",
    ),
    pytest.param(
        {"gpuNodeGroup": {"instanceTypes": ["g5.12xlarge"]}, "vllm": {"tensorParallelSize": 4}},
        "vllm.tensorParallelSize",
        4,
        id="a tensor parallel size equal to the GPUs per instance (4 on g5.12xlarge) is valid",
    ),
    # Names and lengths.
    pytest.param(
        {"gpuPlacement": {"labelKey": "k" * _LABEL_KEY_MAX}},
        "gpuPlacement.labelKey",
        "k" * _LABEL_KEY_MAX,
        id="a placement label key of the longest length EKS accepts is valid",
    ),
    pytest.param(
        {"gpuPlacement": {"labelValue": "v" * _LABEL_VALUE_MAX}},
        "gpuPlacement.labelValue",
        "v" * _LABEL_VALUE_MAX,
        id="a placement label value of the longest length EKS accepts is valid",
    ),
    pytest.param(
        {"gpuPlacement": {"taintValue": "v" * _TAINT_VALUE_MAX}},
        "gpuPlacement.taintValue",
        "v" * _TAINT_VALUE_MAX,
        id="a placement taint value of the longest length EKS accepts is valid",
    ),
    pytest.param(
        {"gpuPlacement": {"taintValue": "x" * _TAINT_VALUE_MIN}},
        "gpuPlacement.taintValue",
        "x" * _TAINT_VALUE_MIN,
        id="an empty placement taint value is valid",
    ),
    pytest.param(
        {"cluster": {"name": "c" * 100}},
        "cluster.name",
        "c" * 100,
        id="a cluster name of 100 characters, the EKS maximum, is valid",
    ),
    pytest.param(
        {"cluster": {"version": versions.SUPPORTED_KUBERNETES_VERSIONS[0]}},
        "cluster.version",
        versions.SUPPORTED_KUBERNETES_VERSIONS[0],
        id="the oldest supported Kubernetes version is valid",
    ),
    pytest.param(
        {"cluster": {"version": versions.SUPPORTED_KUBERNETES_VERSIONS[-1]}},
        "cluster.version",
        versions.SUPPORTED_KUBERNETES_VERSIONS[-1],
        id="the newest supported Kubernetes version is valid",
    ),
    pytest.param(
        {"vllm": {"namespace": "n" * 63}},
        "vllm.namespace",
        "n" * 63,
        id="a vLLM namespace of 63 characters, the DNS label maximum, is valid",
    ),
]
