"""The cluster side of EKS Auto Mode, through pulumi-eks's own `autoMode` input (`EksCluster(auto_mode=True)`).

What pulumi-eks does with it (pulumi/pulumi-eks nodejs/eks/cluster/cluster.ts at 7bf0c1b1 of 2026-08-12, read
2026-12-02; the installed release is 4.4.0): the cluster role it creates gets AmazonEKSComputePolicy,
AmazonEKSBlockStoragePolicy, AmazonEKSLoadBalancingPolicy and AmazonEKSNetworkingPolicy beside
AmazonEKSClusterPolicy, and trusts `eks.amazonaws.com` with `sts:AssumeRole` and `sts:TagSession`; the control
plane gets `computeConfig` (`enabled: true` and ours, below), `storageConfig.blockStorage.enabled: true` and
`kubernetesNetworkConfig.elasticLoadBalancing.enabled: true`, all three known together, because EKS takes them
only enabled together (botocore's EKS model, CreateCluster `computeConfig`, `storageConfig`,
`kubernetesNetworkConfig`; "compute_config.enabled, kubernetes_network_config.elastic_load_balancing.enabled,
and storage_config.block_storage.enabled must ALL be set to true", hashicorp/terraform-provider-aws#40483); and
`bootstrapSelfManagedAddons: false`, which EKS requires of a new Auto Mode cluster ("When EKS Auto Mode is
enabled, bootstrapSelfManagedAddons must be set to false", the same pull request).

Three choices of ours:
- No built-in node pools and no node role in the compute configuration (auto_mode_manifests.compute_config):
  `createNodeRole: false`, `nodePools: []`.
- `skipDefaultSecurityGroups: false`: pulumi-eks otherwise drops the control plane's additional security group
  with Auto Mode; kept, the cluster's network and `EksCluster.control_plane_security_group_id` stay what they were.
- `bootstrapSelfManagedAddons` is create-only (terraform-provider-aws internal/service/eks/cluster.go: ForceNew),
  so turning Auto Mode on for a cluster created without it would replace the cluster. EKS enables Auto Mode on
  an existing cluster in place (UpdateClusterConfig takes `computeConfig`, `storageConfig` and
  `kubernetesNetworkConfig`; the flag is needed only at creation, pulumi/pulumi-eks#1519). pulumi-eks lists the
  flag in the control plane's `ignoreChanges` itself (cluster.ts at 7bf0c1b1); the transform says the same for
  the control plane this program registers, so it holds whichever pulumi-eks release runs the cluster: a new
  cluster is created with false, an existing one keeps the value it was created with.
"""

from typing import Any

import pulumi
import pulumi_eks as eks

from ...facts.resource_types import EKS_CONTROL_PLANE as EKS_CONTROL_PLANE_TYPE
from .manifests import compute_config

BOOTSTRAP_ADDONS_PROPERTY = "bootstrapSelfManagedAddons"


def auto_mode_args(enabled: bool) -> dict[str, Any]:
    """The `eks.Cluster` arguments of Auto Mode when `enabled`, else none."""
    if not enabled:
        return {}
    return {
        "auto_mode": eks.AutoModeOptionsArgs(
            enabled=True,
            create_node_role=False,
            compute_config=eks.ClusterComputeConfigArgs(**compute_config()),
        ),
        "skip_default_security_groups": False,
    }


def bootstrap_addons_transform() -> pulumi.ResourceTransform:
    """A transform for `eks.Cluster` that keeps a change of `bootstrapSelfManagedAddons` from replacing the
    control plane (see the module docstring)."""

    def keep(args: pulumi.ResourceTransformArgs) -> pulumi.ResourceTransformResult | None:
        if args.type_ != EKS_CONTROL_PLANE_TYPE:
            return None
        ignore = pulumi.ResourceOptions(ignore_changes=[BOOTSTRAP_ADDONS_PROPERTY])
        return pulumi.ResourceTransformResult(
            props=args.props, opts=pulumi.ResourceOptions.merge(args.opts or pulumi.ResourceOptions(), ignore)
        )

    return keep
