"""The EKS node agents of a planned stack: the default add-ons, plus the add-ons the stack registers.

The stack renders none of these pods; facts/node_agents.py records where each add-on puts
them. This module picks the agents that will exist (EKS's defaults always; an add-on's only when the
stack registers it), applies the add-on's registered configuration values (tolerations), and says
what it cannot model rather than guessing: an agent without cited facts, an add-on it does not know,
a known add-on the stack does not install, a version other than the one the facts come from.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ...facts import node_agents
from ...facts.resource_types import ADDON as ADDON_TYPE
from ...placement import PlacementRow, placement_matrix
from ...placement.agents import Agent

# How the plan's matrix names an agent: `kube-system/aws-node [EKS]`.
ORIGIN_MARK = "[EKS]"


@dataclass
class ClusterAgents:
    """The node agents a stack's cluster runs, and what the plan could not model."""

    agents: list[Agent] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def rows(self, pools: list[dict]) -> list[PlacementRow]:
        """Placement rows of every agent on every pool, each workload marked as coming from EKS."""
        rows = placement_matrix([agent.workload for agent in self.agents], pools)
        for row in rows:
            row.workload = f"{row.workload} {ORIGIN_MARK}"
        return rows

    def dcgm_host_engines(self) -> list[dict]:
        """The workloads of the DCGM host engines among these agents, which `dcgm-exporter-covers-gpu-pools` reads."""
        return [agent.workload for agent in self.agents if agent.name == node_agents.DCGM_SERVER.name]


def cluster_agents(resources: list[Any]) -> ClusterAgents:
    """The agents of EKS's default add-ons and of every `aws:eks/addon:Addon` the run registered."""
    found = ClusterAgents()
    registered = {str(r.inputs.get("addonName") or r.name): r for r in resources if r.type == ADDON_TYPE}
    for agent in node_agents.EKS_DEFAULT_AGENTS:
        if agent.addon not in registered:
            _add(found, agent, None, f"add-on {agent.addon}, installed by EKS on every cluster")
    for name, resource in registered.items():
        known = node_agents.ADDON_AGENTS.get(name)
        if known is None:
            found.notes.append(f"add-on {name}: not modelled, so the plan does not know where its pods run")
            continue
        configuration = _configuration(name, resource.inputs.get("configurationValues"), found)
        version = resource.inputs.get("addonVersion")
        for agent in known:
            if version != agent.versions:
                found.notes.append(
                    f"{agent.name}: add-on {name} version {version or 'unset (EKS default)'}; the "
                    f"placement facts are those of {agent.versions}"
                )
            _add(found, agent, configuration, f"add-on {name}")
    defaults = {agent.addon for agent in node_agents.EKS_DEFAULT_AGENTS}
    for name, agents in node_agents.ADDON_AGENTS.items():
        if name not in registered and name not in defaults:
            found.notes.append(
                f"add-on {name} is not installed by the stack: {', '.join(a.name for a in agents)} "
                f"do not run{_WITHOUT.get(name, '')}"
            )
    return found


# What a missing add-on costs, in the words of the setting that leaves it out.
_WITHOUT = {
    node_agents.versions.NODE_MONITORING_AGENT_ADDON: (
        " (with nodeRepair false on every node-group and Karpenter GPU pool, their GPU health is not monitored; EKS "
        "Auto Mode pools are monitored by EKS itself)"
    ),
    node_agents.versions.POD_IDENTITY_AGENT_ADDON: " (with autoscaler.enabled false, no pod needs EKS Pod Identity)",
}


def _add(found: ClusterAgents, agent: node_agents.NodeAgent, configuration: dict | None, origin: str) -> None:
    if agent.pod_spec is None:
        found.notes.append(f"{agent.name} ({origin}): not checked: {agent.source}")
        return
    found.agents.append(Agent(agent.name, agent.coverage, node_agents.workload(agent, configuration)))


def _configuration(name: str, raw: Any, found: ClusterAgents) -> dict | None:
    """The add-on's configuration values as a dict; a note when they cannot be read."""
    if raw is None:
        return None
    if isinstance(raw, dict):
        return raw
    try:
        parsed = json.loads(raw)
    except (TypeError, ValueError):
        found.notes.append(
            f"add-on {name}: configuration values are not readable JSON (secret or unknown?); "
            "the chart defaults are assumed"
        )
        return None
    return parsed if isinstance(parsed, dict) else None
