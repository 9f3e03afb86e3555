"""How the plan reads a node group pool's replacement (stackcheck/plan/disruption.py `pool_replacement`), which
`node-replacement-keeps-models-serving` names in its messages: from the EKS node group registered under the pool's
own component, by that component's name."""

from __future__ import annotations

from components.facts.resource_types import NODE_GROUP
from components.placement.disruption import PoolReplacement
from components.settings.stack import parse_settings
from components.stackcheck.plan.disruption import pool_replacement
from components.stackcheck.runtime import RegisteredResource
from tests.conftest import dev_stack_config

COMPONENT_URN = "urn:pulumi:dev::eks-gpu-inference::eks-gpu-inference:index:GpuNodeGroup::"


def node_group(component: str, max_unavailable: int) -> RegisteredResource:
    inputs = {"updateConfig": {"maxUnavailable": max_unavailable}}
    return RegisteredResource(
        NODE_GROUP, f"{component}-ng", inputs, COMPONENT_URN + component, f"urn:{component}", True
    )


def test_a_node_group_pool_is_named_by_its_component_and_read_from_its_own_node_group():
    """Pulumi.dev.yaml's cluster is `gpu-inference-dev` and its one pool is in the one-pool form, whose
    `GpuNodeGroup` keeps the name deployed stacks have: `gpu-inference-dev-gpu`. Its node group says
    `maxUnavailable: 1`; another component's node group (3) is not read."""
    settings = parse_settings(dev_stack_config())
    [server] = settings.servers
    registered = [node_group("other-cluster-gpu", 3), node_group("gpu-inference-dev-gpu", 1)]

    found = pool_replacement(settings, server.pool, registered)

    assert found == PoolReplacement("gpu-inference-dev-gpu", "nodeGroup", max_unavailable=1)
