"""Who may administer the cluster: access entries for the configured admins, and the creator's implicit admin.

EKS can make the identity that creates a cluster an admin through an access entry that no stack manages
(`bootstrapClusterCreatorAdminPermissions`). pulumi-eks 4.4 always asks for it (pulumi/pulumi-eks#2373);
`creator_admin_transform` sets it as configured on the control plane pulumi-eks creates.
"""

from __future__ import annotations

import pulumi
import pulumi_aws as aws
import pulumi_eks as eks

from ..facts import regions
from ..facts.principals import caller_principal, iam_principal
from ..facts.resource_types import EKS_CONTROL_PLANE as EKS_CONTROL_PLANE_TYPE

CLUSTER_ADMIN_POLICY = "AmazonEKSClusterAdminPolicy"
CREATOR_ADMIN_PROPERTY = "bootstrapClusterCreatorAdminPermissions"


def access_entries(admin_principal_arns: list[str], partition: pulumi.Input[str]) -> dict[str, eks.AccessEntryArgs]:
    """Cluster-admin access entries for the given IAM principals, keyed by principal (not by position); the
    policy ARN in `partition` (`aws-cn` in China), as the provider reports it."""
    policy_arn = pulumi.Output.from_input(partition).apply(
        lambda name: regions.eks_access_policy_arn(name, CLUSTER_ADMIN_POLICY)
    )
    return {
        _entry_key(arn): eks.AccessEntryArgs(
            principal_arn=arn,
            access_policies={
                "cluster-admin": eks.AccessPolicyAssociationArgs(
                    policy_arn=policy_arn,
                    access_scope=aws.eks.AccessPolicyAssociationAccessScopeArgs(type="cluster"),
                )
            },
        )
        for arn in admin_principal_arns
    }


def creator_admin_transform(creator_admin: bool, authentication_mode: str) -> pulumi.ResourceTransform:
    """A transform for `eks.Cluster` that sets whether EKS makes the cluster's creator an admin.

    Transforms reach the children of packaged components such as `eks.Cluster`, which is the only way
    to set the flag while pulumi-eks does not expose it. EKS reads the flag only when it creates a
    cluster and cannot update it, so later changes to it are ignored instead of replacing the cluster.
    """

    def set_creator_admin(args: pulumi.ResourceTransformArgs) -> pulumi.ResourceTransformResult | None:
        if args.type_ != EKS_CONTROL_PLANE_TYPE:
            return None
        access_config = args.props.get("accessConfig")
        access_config = (
            dict(access_config) if isinstance(access_config, dict) else {"authenticationMode": authentication_mode}
        )
        access_config[CREATOR_ADMIN_PROPERTY] = creator_admin
        ignore = pulumi.ResourceOptions(ignore_changes=[f"accessConfig.{CREATOR_ADMIN_PROPERTY}"])
        return pulumi.ResourceTransformResult(
            props={**args.props, "accessConfig": access_config},
            opts=pulumi.ResourceOptions.merge(args.opts or pulumi.ResourceOptions(), ignore),
        )

    return set_creator_admin


def deployer_access_warning(
    deployer_arn: str | None,
    admin_principal_arns: list[str],
    creator_admin: bool,
    keys: tuple[str, str] = ("cluster.adminPrincipalArns", "cluster.creatorAdmin"),
) -> str | None:
    """What will go wrong for the identity running the update, given who the cluster's admins are; None if nothing.
    `keys` name the admins and the creator-admin setting as the caller wrote them (config keys, or arguments).

    Only a warning: the identity that created an existing cluster may not be the one running this update.
    """
    admins_key, creator_key = keys
    deployer = caller_principal(deployer_arn) if deployer_arn else None
    if deployer is None:
        return None
    listed = deployer in {iam_principal(arn) for arn in admin_principal_arns}
    if creator_admin and listed:
        return (
            f"{admins_key} lists the identity running this update ({deployer_arn}); if this "
            "update creates the cluster, EKS already makes that identity an admin and the second access entry "
            f"fails (ResourceInUseException). Remove it from the list, or set {creator_key} false"
        )
    if not creator_admin and not listed:
        return (
            f"{creator_key} is false and the identity running this update ({deployer_arn}) is not in "
            f"{admins_key}: the Kubernetes API will refuse it, so the device plugin and vLLM "
            "cannot be installed. Add its role or user ARN, or run the update as one of the listed admins"
        )
    return None


def _entry_key(arn: str) -> str:
    principal = iam_principal(arn)
    assert principal is not None  # the cluster settings take only role and user ARNs
    return principal.entry_key
