"""The AWS side of the GPU pools whose `provisioner` is `autoMode`: the IAM role of the nodes EKS Auto Mode launches
and the access entry that lets them join.

The cluster enables Auto Mode without its built-in node pools (components/pools/auto_mode/manifests.py,
`compute_config`), and EKS then makes no node role's access entry itself; a custom NodeClass's role needs one of
type `EC2` with the `AmazonEKSAutoNodePolicy` access policy, cluster scope (EKS user guide,
automode/create-node-class.adoc, "Create node class access entry", at 0026c9d, read 2026-12-02). The role's
managed policies are the ones pulumi-eks gives the node role it would create (facts/auto_mode.py). Each pool's
NodePool and NodeClass are `AutoModeNodePool`s (components/pools/auto_mode/pool.py).
"""

import functools

import pulumi
import pulumi_aws as aws

from ...args.validate import Validation, args_path, coerce
from ...facts import auto_mode, regions
from ...facts.identity import PROJECT
from ..node_group import launched_node_role
from .args import AutoModeArgs


class AutoMode(pulumi.ComponentResource):
    """The node role of the GPU pools EKS Auto Mode provisions (`AutoModeNodePool`), with its access entry."""

    node_role_name: pulumi.Output[str]
    """Name of the nodes' IAM role (a NodeClass's `role`); resolves once its access entry and policies exist."""
    node_role_arn: pulumi.Output[str]
    """ARN of that role."""

    def __init__(self, name: str, args: AutoModeArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(AutoModeArgs, args, args_path("AutoMode", name))
        validation = Validation(args_path("AutoMode", name), args)
        validation.tags(args.tags)
        validation.done()
        super().__init__(f"{PROJECT}:index:AutoMode", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        tags = dict(args.tags or {})
        partition = aws.get_partition_output(opts=pulumi.InvokeOutputOptions(parent=self))
        nodes = launched_node_role(
            name,
            launcher="EKS Auto Mode",
            cluster_name=args.cluster_name,
            policies=auto_mode.NODE_ROLE_POLICIES,
            access_entry_type=auto_mode.ACCESS_ENTRY_TYPE,
            partition=partition,
            tags=tags,
            opts=child,
        )
        role, attachments, entry = nodes.role, nodes.attachments, nodes.access_entry
        association = aws.eks.AccessPolicyAssociation(
            f"{name}-node-policy",
            cluster_name=args.cluster_name,
            principal_arn=entry.principal_arn,
            policy_arn=partition.partition.apply(
                functools.partial(regions.eks_access_policy_arn, name=auto_mode.NODE_ACCESS_POLICY)
            ),
            access_scope=aws.eks.AccessPolicyAssociationAccessScopeArgs(type="cluster"),
            opts=child,
        )
        # A NodeClass naming the role waits for what lets its nodes join.
        self.node_role_name = pulumi.Output.all(role.name, association.id, *[a.id for a in attachments]).apply(
            lambda values: values[0]
        )
        self.node_role_arn = role.arn
        self.register_outputs({"node_role_name": self.node_role_name, "node_role_arn": self.node_role_arn})
