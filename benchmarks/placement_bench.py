"""Throughput of the placement model on the objects this stack deploys.

Run from the repository root: `.venv/bin/python benchmarks/placement_bench.py`.

Nodes come from `placement.pools_for_node_groups` (GPU groups labelled and tainted by the default
`PlacementContract`, CPU groups plain or team-tainted); workloads are the stack's own device plugin
DaemonSet and vLLM Deployments (1-4 GPUs) from the component builders, plus plain web pods. Timed
side by side in one run:

  (a) `explain()` once per pod and node, for every workload against every pool, and
  (b) `placement_matrix()` over the same workloads and pools, which also derives each pool's
      advertised GPUs from where the device plugin lands and writes a row per pair.

It prints medians, checks per second and the ratio b/a: what the matrix costs per pair over the
bare scheduler check. `gpu_guard()` on the same cluster is printed as a multiple of (a) as well.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from components.facts import gpu_catalog
from components.facts.contract import PlacementContract, Taint
from components.facts.versions import DEVICE_PLUGIN_VERSION
from components.gpu_agents.device_plugin import daemonset
from components.placement import NodeGroupSpec, explain, gpu_guard, placement_matrix, pools_for_node_groups
from components.placement.workloads import pod_of
from components.settings import VllmSettings
from components.vllm.manifests import deployment

REPEATS = 5
POOLS = 20
WORKLOADS = 200
GPU_INSTANCE = "g5.12xlarge"
CPU_INSTANCE = "m6i.large"


def node_groups(count: int, contract: PlacementContract) -> list[NodeGroupSpec]:
    """Every fourth group a GPU group (half of them with an extra team taint), the rest CPU groups."""
    groups = []
    for index in range(count):
        if index % 4 == 0:
            extra = (Taint(f"team{index}", "", "NoSchedule"),) if index % 8 else ()
            taints = [taint.to_kubernetes() for taint in (*contract.node_taints(), *extra)]
            groups.append(NodeGroupSpec(f"gpu{index}", GPU_INSTANCE, 1, contract.node_labels(), taints))
        else:
            taints = [Taint("dedicated", f"t{index}", "NoSchedule").to_kubernetes()] if index % 3 == 0 else []
            groups.append(NodeGroupSpec(f"cpu{index}", CPU_INSTANCE, 2, {}, taints))
    return groups


def plain_workload(index: int) -> dict:
    return {
        "apiVersion": "apps/v1",
        "kind": ("Deployment", "StatefulSet", "Job", "DaemonSet")[index % 4],
        "metadata": {"name": f"web{index}", "namespace": "bench"},
        "spec": {
            "template": {
                "metadata": {},
                "spec": {
                    "containers": [
                        {
                            "name": "web",
                            "image": "nginx:1.29",
                            "resources": {
                                "requests": {"cpu": "100m", "memory": "128Mi"},
                                "limits": {"memory": "256Mi"},
                            },
                        }
                    ]
                },
            }
        },
    }


def workloads(count: int, contract: PlacementContract) -> list[dict]:
    """The device plugin, then vLLM servers of 1-4 GPUs every third slot, plain web workloads between."""
    gpu_instance = gpu_catalog.lookup(GPU_INSTANCE)
    result = [daemonset("bench-device-plugin", contract, DEVICE_PLUGIN_VERSION)]
    for index in range(1, count):
        if index % 3 == 0:
            settings = VllmSettings(namespace=f"llm{index}", tensor_parallel_size=1 + index % 4)
            result.append(
                deployment(
                    f"bench-vllm-{index}", settings, contract, gpu_instance, require_node_affinity=bool(index % 2)
                )
            )
        else:
            result.append(plain_workload(index))
    return result


def median_seconds(function, *args) -> float:
    function(*args)  # warm the caches the model keeps (parsed quantities, compiled selectors)
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def explain_every_pair(pods: list[dict], nodes: list[dict]) -> None:
    for pod in pods:
        for node in nodes:
            explain(pod, node)


def main() -> None:
    contract = PlacementContract(gpu_product=gpu_catalog.lookup(GPU_INSTANCE).gpu_product)
    the_workloads = workloads(WORKLOADS, contract)
    the_pools = pools_for_node_groups(node_groups(POOLS, contract))
    pods = [pod_of(workload) for workload in the_workloads]
    nodes = [pool["node"] for pool in the_pools]
    pairs = len(pods) * len(nodes)

    bare = median_seconds(explain_every_pair, pods, nodes)
    matrix = median_seconds(placement_matrix, the_workloads, the_pools)
    guard = median_seconds(gpu_guard, the_workloads, the_pools)

    print(f"{len(the_workloads)} workloads x {len(the_pools)} pools = {pairs} pairs, median of {REPEATS} runs")
    print(f"  (a) explain() per pair      {bare * 1000:8.1f} ms  {pairs / bare:>9,.0f} pairs/s")
    print(f"  (b) placement_matrix()      {matrix * 1000:8.1f} ms  {pairs / matrix:>9,.0f} pairs/s")
    print(f"      gpu_guard()             {guard * 1000:8.1f} ms")
    print(f"ratio b/a: {matrix / bare:.2f}   gpu_guard/a: {guard / bare:.2f}")


if __name__ == "__main__":
    main()
