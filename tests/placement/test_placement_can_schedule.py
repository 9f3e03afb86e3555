"""can_schedule agrees with explain on the options explain takes: pods already on the node and the
alpha comparison operators of tolerations."""

from __future__ import annotations

from components.placement import can_schedule, explain
from tests.support.placement_explain import CPU_NODE, GPU_NODE, pod, with_taints


def test_can_schedule_counts_the_pods_already_on_the_node():
    gpu_pod = pod(
        [{"key": "GPU", "operator": "Exists", "effect": "NoSchedule"}], {"GPU": "true"}, limits={"nvidia.com/gpu": "1"}
    )
    assert can_schedule(gpu_pod, GPU_NODE)
    assert can_schedule(gpu_pod, GPU_NODE, [])
    assert not can_schedule(gpu_pod, GPU_NODE, [gpu_pod])
    assert explain(gpu_pod, GPU_NODE, [gpu_pod]) == ["Insufficient nvidia.com/gpu: requests 1, free 0"]


def test_can_schedule_takes_comparison_operators_only_when_asked():
    node = with_taints(CPU_NODE, {"key": "sla", "value": "990", "effect": "NoSchedule"})
    the_pod = pod([{"key": "sla", "operator": "Gt", "value": "950", "effect": "NoSchedule"}])
    assert not can_schedule(the_pod, node)
    assert not can_schedule(the_pod, node, comparison_operators=False)
    assert can_schedule(the_pod, node, comparison_operators=True)
