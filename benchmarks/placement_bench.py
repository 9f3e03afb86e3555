"""Throughput of the placement model: explain() per pod-node check, and placement_matrix() at cluster scale.

Run from the repository root: `python benchmarks/placement_bench.py`. Prints medians over several repeats.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from placement import explain, gpu_guard, placement_matrix  # noqa: E402

REPEATS = 7
CHECKS_PER_REPEAT = 2000
MATRIX_REPEATS = 5

GPU_TAINT = {"key": "GPU", "value": "true", "effect": "NoSchedule"}
GPU_TOLERATION = {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}


def gpu_node(name: str = "gpu-0", instance: str = "g5.12xlarge", gpus: int = 4, extra_taints: tuple = ()) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "labels": {
                "GPU": "true",
                "nvidia.com/gpu.present": "true",
                "nvidia.com/gpu.product": "NVIDIA-A10G",
                "kubernetes.io/arch": "amd64",
                "kubernetes.io/os": "linux",
                "kubernetes.io/hostname": name,
                "node.kubernetes.io/instance-type": instance,
                "eks.amazonaws.com/nodegroup": name.rsplit("-", 1)[0],
                "eks.amazonaws.com/capacityType": "ON_DEMAND",
                "topology.kubernetes.io/region": "us-east-1",
                "topology.kubernetes.io/zone": "us-east-1a",
            },
        },
        "spec": {"taints": [GPU_TAINT, {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}, *extra_taints]},
        "status": {"allocatable": {"cpu": "47810m", "memory": "188146Mi", "pods": "737", "ephemeral-storage": "17Gi",
                                   "nvidia.com/gpu": str(gpus)}},
    }


def cpu_node(name: str = "system-0", taints: tuple = ()) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "labels": {
                "kubernetes.io/arch": "amd64",
                "kubernetes.io/os": "linux",
                "kubernetes.io/hostname": name,
                "node.kubernetes.io/instance-type": "m6i.large",
                "eks.amazonaws.com/nodegroup": name.rsplit("-", 1)[0],
                "eks.amazonaws.com/capacityType": "ON_DEMAND",
                "topology.kubernetes.io/zone": "us-east-1a",
            },
        },
        "spec": {"taints": list(taints)},
        "status": {"allocatable": {"cpu": "1930m", "memory": "7518Mi", "pods": "29", "ephemeral-storage": "17Gi"}},
    }


def vllm_pod(gpus: int = 4) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "vllm-0", "namespace": "llm", "labels": {"app.kubernetes.io/name": "vllm"}},
        "spec": {
            "nodeSelector": {"GPU": "true"},
            "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [
                    {"key": "nvidia.com/gpu.product", "operator": "In", "values": ["NVIDIA-A10G", "NVIDIA-L4"]},
                    {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"]},
                    {"key": "eks.amazonaws.com/capacityType", "operator": "NotIn", "values": ["SPOT"]},
                ]}
            ]}}},
            "tolerations": [
                GPU_TOLERATION,
                {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
                {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
                {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
            ],
            "initContainers": [{"name": "fetch", "image": "amazon/aws-cli",
                                "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}],
            "containers": [{
                "name": "vllm",
                "image": "vllm/vllm-openai:v0.11.0",
                "resources": {"requests": {"cpu": "8", "memory": "64Gi", "ephemeral-storage": "10Gi"},
                              "limits": {"memory": "64Gi", "nvidia.com/gpu": str(gpus)}},
            }],
        },
    }


def plain_pod() -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "web-0", "namespace": "default"},
        "spec": {"containers": [{"name": "web", "image": "nginx", "resources": {"requests": {"cpu": "100m", "memory": "128Mi"},
                                                                               "limits": {"memory": "256Mi"}}}]},
    }


def pools(count: int = 20) -> list[dict]:
    result = []
    for i in range(count):
        if i % 4 == 0:
            node = gpu_node(f"gpu{i}-0", extra_taints=({"key": f"team{i}", "effect": "NoSchedule"},) if i % 8 else ())
            result.append({"name": f"gpu{i}", "count": 1, "gpusPerNode": 4, "node": node})
        else:
            taints = ({"key": "dedicated", "value": f"t{i}", "effect": "NoSchedule"},) if i % 3 == 0 else ()
            result.append({"name": f"cpu{i}", "count": 2, "gpusPerNode": 0, "node": cpu_node(f"cpu{i}-0", taints)})
    return result


def workloads(count: int = 200) -> list[dict]:
    result = [{
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "nvidia-device-plugin", "namespace": "kube-system"},
        "spec": {"template": {"spec": {
            "nodeSelector": {"GPU": "true"},
            "tolerations": [{"operator": "Exists", "effect": "NoSchedule"}],
            "containers": [{"name": "plugin", "image": "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"}],
        }}},
    }]
    for i in range(1, count):
        pod = vllm_pod(gpus=1 + i % 4) if i % 3 == 0 else plain_pod()
        kind = ("Deployment", "StatefulSet", "Job", "DaemonSet")[i % 4]
        result.append({"apiVersion": "apps/v1", "kind": kind, "metadata": {"name": f"w{i}", "namespace": "bench"},
                       "spec": {"template": {"metadata": pod["metadata"], "spec": pod["spec"]}}})
    return result


def checks_per_second(pod: dict, node: dict) -> tuple[float, list[str]]:
    rates = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(CHECKS_PER_REPEAT):
            lines = explain(pod, node)
        rates.append(CHECKS_PER_REPEAT / (time.perf_counter() - start))
    return statistics.median(rates), lines


def median_seconds(function, *args) -> float:
    times = []
    for _ in range(MATRIX_REPEATS):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    print(f"explain(): median of {REPEATS} repeats x {CHECKS_PER_REPEAT} checks")
    cases = [
        ("vLLM pod vs GPU node (lands)", vllm_pod(), gpu_node()),
        ("vLLM pod vs GPU node (taint, GPUs short)", vllm_pod(gpus=8), gpu_node(extra_taints=({"key": "x", "effect": "NoExecute"},))),
        ("plain pod vs CPU node (lands)", plain_pod(), cpu_node()),
        ("plain pod vs GPU node (tainted)", plain_pod(), gpu_node()),
    ]
    for label, pod, node in cases:
        rate, lines = checks_per_second(pod, node)
        print(f"  {label:<40} {rate:>10,.0f} checks/s   ({len(lines)} reason line(s))")
    the_workloads, the_pools = workloads(200), pools(20)
    matrix = median_seconds(placement_matrix, the_workloads, the_pools)
    pairs = len(the_workloads) * len(the_pools)
    print(f"placement_matrix(): 200 workloads x 20 pools = {pairs} pairs: median {matrix * 1000:.1f} ms "
          f"({pairs / matrix:,.0f} pairs/s) over {MATRIX_REPEATS} repeats")
    guard = median_seconds(gpu_guard, the_workloads, the_pools)
    print(f"gpu_guard(): same cluster: median {guard * 1000:.1f} ms over {MATRIX_REPEATS} repeats")


if __name__ == "__main__":
    main()
