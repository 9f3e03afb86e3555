"""The plan's memory verdict (`container-memory-fits`): what the stack's servers, its weights copy Jobs and the agents
beside them need of a node's memory, against what the node has.

The verdict reads the rendered workloads themselves (their containers' arguments, limits and volumes), with the
weights' size each server reads from the settings.
"""

from __future__ import annotations

from typing import Any

from ...placement import Verdict
from ...placement.memory_fit import container_memory_verdict
from ...vllm import manifests
from .node_agents import ClusterAgents


def serving_verdicts(settings: Any, workloads: list[dict], pools: list[dict], agents: ClusterAgents) -> list[Verdict]:
    """The memory verdict over the rendered `workloads` on `pools` with the EKS `agents` beside them."""
    weights = weights_by_workload(settings) if settings is not None else {}
    daemonsets = [agent.workload for agent in agents.agents if agent.workload.get("kind") == "DaemonSet"]
    return [container_memory_verdict(workloads, pools, weights, daemonsets)]


def weights_by_workload(settings: Any) -> dict[str, float]:
    """The bytes of the weights each server reads, by its Deployment's `namespace/name`."""
    found = {}
    for server in settings.servers:
        name = manifests.SERVER_NAME if server.name is None else server.name
        if server.settings.weights_bytes is not None:
            found[f"{server.settings.namespace}/{name}"] = server.settings.weights_bytes
    return found
