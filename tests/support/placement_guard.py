"""From tests/placement/test_placement_guard.py, what other test modules use too: `GPU_TAINT`, `GPU_TOLERATION`, `device_plugin`, `gpu_pool`, `node`, `system_pool`, `vllm` and what they
need."""

from __future__ import annotations

GPU_TAINT = {"key": "GPU", "value": "true", "effect": "NoSchedule"}


GPU_TOLERATION = {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}


def node(name: str, labels: dict, taints: list, allocatable: dict) -> dict:
    return {
        "metadata": {"name": name, "labels": labels},
        "spec": {"taints": taints},
        "status": {"allocatable": allocatable},
    }


def system_pool(count: int = 2) -> dict:
    labels = {"kubernetes.io/os": "linux", "node.kubernetes.io/instance-type": "m6i.large"}
    return {
        "name": "system",
        "count": count,
        "gpusPerNode": 0,
        "node": node("system-0", labels, [], {"cpu": "1930m", "memory": "7518Mi", "pods": "29"}),
    }


def gpu_pool(name: str = "gpu", gpus: int = 1, taints: list | None = None, advertised: bool = False) -> dict:
    labels = {
        "GPU": "true",
        "nvidia.com/gpu.present": "true",
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": "g5.xlarge" if gpus == 1 else "g5.12xlarge",
    }
    allocatable = {"cpu": "3920m", "memory": "15391Mi", "pods": "58"}
    if advertised:
        allocatable["nvidia.com/gpu"] = str(gpus)
    return {
        "name": name,
        "count": 1,
        "gpusPerNode": gpus,
        "node": node(f"{name}-0", labels, [GPU_TAINT] if taints is None else taints, allocatable),
    }


def device_plugin(tolerations: list | None = None, node_selector: dict | None = None) -> dict:
    if tolerations is None:
        tolerations = [GPU_TOLERATION, {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "nvidia-device-plugin", "namespace": "kube-system"},
        "spec": {
            "template": {
                "metadata": {"labels": {"name": "nvidia-device-plugin"}},
                "spec": {
                    "nodeSelector": {"GPU": "true"} if node_selector is None else node_selector,
                    "tolerations": tolerations,
                    "containers": [{"name": "plugin", "image": "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"}],
                },
            }
        },
    }


def vllm(gpus: int = 1, node_selector: dict | None = None) -> dict:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "vllm", "namespace": "llm"},
        "spec": {
            "template": {
                "spec": {
                    "nodeSelector": {"GPU": "true"} if node_selector is None else node_selector,
                    "tolerations": [GPU_TOLERATION],
                    "containers": [
                        {
                            "name": "vllm",
                            "image": "vllm/vllm-openai:v0.11.0",
                            "resources": {
                                "requests": {"cpu": "2", "memory": "8Gi"},
                                "limits": {"nvidia.com/gpu": str(gpus)},
                            },
                        }
                    ],
                }
            }
        },
    }
