"""From tests/audit/test_audit_findings.py, what other test modules use too: `healthy` and what they
need."""

from __future__ import annotations

from tests.support.audit_objects import (
    ALL_TAINTS,
    VLLM,
    daemon_pod,
    daemonset,
    device_plugin,
    gpu_node,
    node,
    pod,
)


def healthy() -> list[dict]:
    """A system node and a GPU node running vLLM, the device plugin and an agent that tolerates everything."""
    plugin, agent = device_plugin(), daemonset("aws-node", tolerations=ALL_TAINTS)
    return [
        node("sys-1"),
        gpu_node("gpu-1"),
        plugin,
        agent,
        daemon_pod(plugin, "gpu-1"),
        daemon_pod(agent, "gpu-1"),
        daemon_pod(agent, "sys-1"),
        pod("vllm-1", "gpu-1", namespace="llm", gpus=1, owner=("ReplicaSet", "vllm"), **VLLM),
        pod("web-1", "sys-1"),
    ]
