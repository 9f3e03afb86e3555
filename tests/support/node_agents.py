"""From tests/placement/test_node_agents.py, what other test modules use too: `GPU`, `SYSTEM`, `addon`, `pools` and what they
need."""

from __future__ import annotations

from components.placement import pools_for_node_groups
from components.placement.pools import NodeGroupSpec
from components.stackcheck.plan.node_agents import ADDON_TYPE
from components.stackcheck.runtime import RegisteredResource

GPU_TAINT = {"key": "GPU", "value": "true", "effect": "NoSchedule"}


def addon(name: str, **inputs) -> RegisteredResource:
    return RegisteredResource(
        ADDON_TYPE,
        f"cluster-{name}",
        {"addonName": name, **inputs},
        None,
        f"urn:pulumi:test::p::{ADDON_TYPE}::cluster-{name}",
        True,
    )


def pools(*groups: NodeGroupSpec) -> list[dict]:
    return pools_for_node_groups(groups)


SYSTEM = NodeGroupSpec("system", "m6i.large", 2)


GPU = NodeGroupSpec("gpu", "g5.xlarge", 1, labels={"GPU": "true"}, taints=[GPU_TAINT])
