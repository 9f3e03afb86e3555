"""Warm nodes for a pool (`warmNodes`): its component registers the placeholders' PriorityClass and Deployment
(pools/warm_manifests.py) as its children, with the Kubernetes provider it was given (`providers` or `provider` in
its resource options)."""

import pulumi
import pulumi_kubernetes as k8s

from ..facts.contract import PlacementContract
from ..settings import GpuNodeGroupSettings
from . import warm_manifests


def register_warm_nodes(
    component: pulumi.ComponentResource,
    name: str,
    settings: GpuNodeGroupSettings,
    contract: PlacementContract,
    node_labels: dict[str, str],
) -> None:
    """The pool's `warmNodes` placeholders, one per node, selecting `node_labels` (what the pool's nodes carry);
    nothing when the pool keeps no warm node."""
    if not settings.warm_nodes:
        return
    priority = warm_manifests.priority_class(name)
    priority_class = k8s.scheduling.v1.PriorityClass(
        f"{name}-warm-priority",
        metadata=priority["metadata"],
        value=priority["value"],
        global_default=priority["globalDefault"],
        preemption_policy=priority["preemptionPolicy"],
        description=priority["description"],
        opts=pulumi.ResourceOptions(parent=component),
    )
    deployment = warm_manifests.placeholders(
        name, settings.warm_nodes, settings.gpus_per_instance, contract, node_labels
    )
    k8s.apps.v1.Deployment(
        f"{name}-warm",
        metadata=deployment["metadata"],
        spec=deployment["spec"],
        # Pending placeholders wait for nodes, so Pulumi must not wait for them to be ready.
        opts=pulumi.ResourceOptions(parent=component, depends_on=[priority_class]),
    )
