"""Configuration of the EKS node monitoring agent add-on, from the GPU placement contract.

The add-on's chart runs two DaemonSets: the agent itself, which tolerates every taint
(`nodeAgent.tolerations: [{operator: Exists}]`), and `dcgm-server`, the DCGM host engine the agent
reads GPU health from, which ships with no tolerations (`dcgmAgent.tolerations: []`;
aws/eks-node-monitoring-agent v1.7.0, charts/eks-node-monitoring-agent/values.yaml;
aws/containers-roadmap#2567). On GPU nodes tainted by the contract `dcgm-server` would never run:
the agent then reports `AcceleratedHardwareReady=False` and GPU faults go unseen. The add-on's
configuration schema accepts `dcgmAgent.tolerations` (charts/configuration.schema.json at the same
tag, committed in components/data/), so the contract's tolerations are given there.
"""

from __future__ import annotations

import json

from ..facts.contract import PlacementContract


def configuration_values(contract: PlacementContract) -> dict:
    """The add-on's configuration: `dcgm-server` tolerates every NoSchedule/NoExecute taint of the GPU nodes.

    `nodeAgent` is left alone: its chart default already tolerates every taint (operator Exists).
    """
    return {"dcgmAgent": {"tolerations": contract.tolerations()}}


def configuration_json(contract: PlacementContract) -> str:
    """`configuration_values` as the JSON text `aws.eks.Addon(configuration_values=...)` takes, keys sorted."""
    return json.dumps(configuration_values(contract), sort_keys=True, separators=(",", ":"))
