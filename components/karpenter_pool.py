"""A GPU pool that Karpenter provisions: a `NodePool` and its `EC2NodeClass`, from the pool's settings and the
placement contract (components/karpenter_manifests.py builds both)."""

import pulumi
import pulumi_kubernetes as k8s

from . import karpenter_manifests as manifests
from .args.karpenter_pool import KarpenterNodePoolArgs
from .component_args import Validation, args_path, coerce, placement_contract
from .facts.contract import PlacementContract
from .facts.identity import PROJECT
from .settings import GpuNodeGroupSettings


def validated(name: str, args: KarpenterNodePoolArgs) -> tuple[GpuNodeGroupSettings, PlacementContract]:
    """The pool's settings and contract from `args`; raises `ConfigError` naming every bad argument."""
    validation = Validation(args_path("KarpenterNodePool", name), args)
    args = validation.known(args)
    settings = validation.section(GpuNodeGroupSettings, args)
    contract, _ = placement_contract(args.placement, validation)
    validation.tags(args.tags)
    validation.done()
    return settings, contract


class KarpenterNodePool(pulumi.ComponentResource):
    """A pool of NVIDIA GPU nodes that Karpenter launches for pending pods, and that only GPU workloads may use."""

    node_pool_name: str
    """Name of the NodePool, which Karpenter's nodes carry as `karpenter.sh/nodepool`."""
    labels: dict[str, str]
    """Every label the nodes carry from the NodePool: the contract's and the GPU product."""
    taints: list[dict[str, str]]
    """Every taint the nodes carry, Kubernetes spelling (`NoSchedule`)."""

    def __init__(self, name: str, args: KarpenterNodePoolArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(KarpenterNodePoolArgs, args, args_path("KarpenterNodePool", name))
        # Checked before anything is registered.
        settings, contract = validated(name, args)
        super().__init__(f"{PROJECT}:index:KarpenterNodePool", name, None, opts)
        object_name = args.name or name
        tags = dict(args.tags or {})
        # The node role and the discovery tag's value are outputs of the cluster; the rest is plain.
        node_class = pulumi.Output.all(args.node_role_name, args.cluster_name).apply(
            lambda values: manifests.ec2_node_class(object_name, settings, values[0], values[1], tags)
        )
        node_class_resource = k8s.apiextensions.CustomResource(
            f"{name}-node-class",
            api_version=manifests.NODE_CLASS_API_VERSION,
            kind="EC2NodeClass",
            metadata={"name": object_name},
            spec=node_class["spec"],
            opts=pulumi.ResourceOptions(parent=self),
        )
        pool = manifests.node_pool(object_name, settings, contract)
        k8s.apiextensions.CustomResource(
            f"{name}-node-pool",
            api_version=pool["apiVersion"],
            kind=pool["kind"],
            metadata=pool["metadata"],
            spec=pool["spec"],
            opts=pulumi.ResourceOptions(parent=self, depends_on=[node_class_resource]),
        )
        template = pool["spec"]["template"]
        self.node_pool_name = object_name
        self.labels = dict(template["metadata"]["labels"])
        self.taints = list(template["spec"]["taints"])
        self.register_outputs({"node_pool_name": self.node_pool_name, "labels": self.labels, "taints": self.taints})
