"""A GPU pool that Karpenter provisions: a `NodePool` and its `EC2NodeClass`, from the pool's settings and the
placement contract (components/pools/karpenter/manifests.py builds both).

A Spot pool looks up the account's Spot service-linked role at preview (`spot_role_checked`): EC2 launches no Spot
instance for Karpenter in an account that has never used Spot (facts/karpenter.py, `SPOT_SERVICE_LINKED_ROLE`), and
Karpenter's pods would then stay Pending with every launch refused; the preview fails instead, naming the command
that creates the role, and the pool's objects wait for the lookup."""

from typing import NamedTuple

import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s

from ...args.validate import Validation, args_path, coerce, placement_contract
from ...facts import karpenter
from ...facts.contract import PlacementContract
from ...facts.identity import PROJECT
from ...settings import GpuNodeGroupSettings
from ..warm import register_warm_nodes
from . import manifests as manifests
from .args import KarpenterNodePoolArgs


class SpotRoleError(pulumi.RunError):
    """A Spot pool in an account without the Spot service-linked role; a `RunError`, printed without a traceback."""


def validated(name: str, args: KarpenterNodePoolArgs) -> tuple[GpuNodeGroupSettings, PlacementContract, str]:
    """The pool's settings and contract from `args`, and how a message names its capacity type (a config key or an
    argument path); raises `ConfigError` naming every bad argument."""
    validation = Validation(args_path("KarpenterNodePool", name), args)
    args = validation.known(args)
    settings = validation.section(GpuNodeGroupSettings, args)
    contract, _ = placement_contract(args.placement, validation)
    validation.tags(args.tags)
    validation.done()
    return settings, contract, validation.key("capacity_type")


def spot_role_missing(capacity_key: str) -> str:
    """What the preview says when the account has no Spot service-linked role, naming the command that creates it."""
    return (
        f"{capacity_key} is SPOT, but the account has no Spot service-linked role "
        f"({karpenter.SPOT_SERVICE_LINKED_ROLE}): EC2 refuses every Spot launch of Karpenter's with "
        "AuthFailure.ServiceLinkedRoleCreationNotPermitted, so the pool's pods would stay Pending; create it once "
        f"for the account: {karpenter.SPOT_SERVICE_LINKED_ROLE_COMMAND}"
    )


def spot_role_checked(capacity_key: str, opts: pulumi.InvokeOutputOptions | None = None) -> pulumi.Output[str]:
    """The Spot service-linked role's ARN, once `aws.iam.get_role_output` has found it; raises `SpotRoleError`
    naming the command that creates it when the lookup fails (IAM answers `NoSuchEntity` for a missing role)."""
    role = aws.iam.get_role_output(name=karpenter.SPOT_SERVICE_LINKED_ROLE, opts=opts)

    async def found() -> str:
        try:
            return await role.arn.future()  # type: ignore[return-value]  # an ARN, or None while unknown at preview
        except Exception as error:
            raise SpotRoleError(f"{spot_role_missing(capacity_key)} ({error})") from None

    return pulumi.Output.from_input(found())


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
        settings, contract, capacity_key = validated(name, args)
        super().__init__(f"{PROJECT}:index:KarpenterNodePool", name, None, opts)
        object_name = args.name or name
        tags = dict(args.tags or {})
        # A Spot pool's objects wait for the Spot service-linked role to be found (the module's docstring).
        checked = [spot_role_checked(capacity_key)] if settings.capacity_type == "SPOT" else []
        # The node role and the discovery tag's value are outputs of the cluster; the rest is plain.
        node_class = pulumi.Output.all(args.node_role_name, args.cluster_name, *checked).apply(
            lambda values: manifests.ec2_node_class(object_name, settings, values[0], values[1], tags)
        )
        template = register_pool(
            self,
            name,
            object_name,
            node_class_type=(manifests.NODE_CLASS_API_VERSION, "EC2NodeClass"),
            node_class_spec=node_class["spec"],
            pool=manifests.node_pool(object_name, settings, contract),
        )
        self.node_pool_name, self.labels, self.taints = template
        register_warm_nodes(self, object_name, settings, contract, self.labels)
        self.register_outputs(template._asdict())


class PoolTemplate(NamedTuple):
    """What a pool's nodes carry from its NodePool's template."""

    node_pool_name: str
    labels: dict[str, str]
    taints: list[dict[str, str]]


def register_pool(
    component: pulumi.ComponentResource,
    name: str,
    object_name: str,
    *,
    node_class_type: tuple[str, str],
    node_class_spec: pulumi.Input[dict],
    pool: dict,
) -> PoolTemplate:
    """The pool's node class (`node_class_type`: its API version and kind) and its `karpenter.sh/v1` NodePool
    (created after it), children of `component`; Karpenter's pools and EKS Auto Mode's share it."""
    api_version, kind = node_class_type
    node_class = k8s.apiextensions.CustomResource(
        f"{name}-node-class",
        api_version=api_version,
        kind=kind,
        metadata={"name": object_name},
        spec=node_class_spec,
        opts=pulumi.ResourceOptions(parent=component),
    )
    k8s.apiextensions.CustomResource(
        f"{name}-node-pool",
        api_version=pool["apiVersion"],
        kind=pool["kind"],
        metadata=pool["metadata"],
        spec=pool["spec"],
        opts=pulumi.ResourceOptions(parent=component, depends_on=[node_class]),
    )
    template = pool["spec"]["template"]
    return PoolTemplate(object_name, dict(template["metadata"]["labels"]), list(template["spec"]["taints"]))
