"""A GPU pool that EKS Auto Mode provisions: a `NodePool` and its `eks.amazonaws.com` `NodeClass`, from the pool's
settings and the placement contract (components/pools/auto_mode/manifests.py builds both)."""

import pulumi

from ...args.validate import Validation, args_path, coerce, placement_contract
from ...facts import auto_mode
from ...facts.contract import PlacementContract
from ...facts.identity import PROJECT
from ...settings import ConfigProblem, GpuNodeGroupSettings
from ..karpenter.pool import register_pool
from . import manifests as manifests
from .args import AutoModeNodePoolArgs


def validated(name: str, args: AutoModeNodePoolArgs) -> tuple[GpuNodeGroupSettings, PlacementContract]:
    """The pool's settings and contract from `args`; raises `ConfigError` naming every bad argument."""
    where = args_path("AutoModeNodePool", name)
    validation = Validation(where, args)
    args = validation.known(args)
    # The rules of a pool whose provisioner is autoMode.
    settings = validation.section(GpuNodeGroupSettings, args, defaults={"provisioner": auto_mode.PROVISIONER})
    contract, _ = placement_contract(args.placement, validation)
    if (args.name or name) == auto_mode.RESERVED_NODE_CLASS_NAME:
        validation.add(
            [
                ConfigProblem(
                    f"{where}.name",
                    "'default' names Auto Mode's own NodeClass; allowed: any other name",
                    namespace=None,
                )
            ]
        )
    validation.tags(args.tags)
    validation.done()
    assert settings is not None
    return settings, contract


class AutoModeNodePool(pulumi.ComponentResource):
    """A pool of NVIDIA GPU nodes that EKS Auto Mode launches for pending pods, and that only GPU workloads may use."""

    node_pool_name: str
    """Name of the NodePool, which the nodes carry as `karpenter.sh/nodepool`."""
    labels: dict[str, str]
    """Every label the nodes carry from the NodePool: the contract's and the GPU product."""
    taints: list[dict[str, str]]
    """Every taint the nodes carry, Kubernetes spelling (`NoSchedule`)."""

    def __init__(self, name: str, args: AutoModeNodePoolArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(AutoModeNodePoolArgs, args, args_path("AutoModeNodePool", name))
        # Checked before anything is registered.
        settings, contract = validated(name, args)
        super().__init__(f"{PROJECT}:index:AutoModeNodePool", name, None, opts)
        object_name = args.name or name
        tags = dict(args.tags or {})
        node_class = pulumi.Output.all(args.node_role_name, args.subnet_ids, args.security_group_id).apply(
            lambda values: manifests.node_class(object_name, settings, values[0], list(values[1]), values[2], tags)
        )
        template = register_pool(
            self,
            name,
            object_name,
            node_class_type=(auto_mode.NODE_CLASS_API_VERSION, auto_mode.NODE_CLASS_KIND),
            node_class_spec=node_class["spec"],
            pool=manifests.node_pool(object_name, settings, contract),
        )
        self.node_pool_name, self.labels, self.taints = template
        self.register_outputs(template._asdict())
