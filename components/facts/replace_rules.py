"""Which input changes make a provider replace a resource rather than update it in place.

Written by scripts/replace_rules.py; do not edit. Paths are the registered inputs' wire names, dotted, with
`[*]` for any list item; a change at a path, or inside it, replaces the resource (one in
`MAY_REPLACE_ON_CHANGE` may). A type not in `REPLACE_ON_CHANGE` may replace on any change: not known; of
a component in `COMPONENT_REPLACE_ON_CHANGE`, only the inputs listed are known to replace. Standard library
only.

Kubernetes: pulumi/pulumi-kubernetes v4.32.0 provider/pkg/provider/diff.go (`forceNewProperties`).
AWS: terraform-provider-aws `ForceNew` attributes, which pulumi-aws's bridge turns into replacements; each
type's source is in `SOURCES`.
"""

KUBERNETES_SOURCE = "pulumi/pulumi-kubernetes v4.32.0 provider/pkg/provider/diff.go"

REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    "aws:autoscaling/tag:Tag": (
        "autoscalingGroupName",
        "tag.key",
    ),
    "aws:ec2/subnet:Subnet": (
        "availabilityZone",
        "availabilityZoneId",
        "cidrBlock",
        "ipv4IpamPoolId",
        "ipv4NetmaskLength",
        "ipv6IpamPoolId",
        "ipv6Native",
        "ipv6NetmaskLength",
        "outpostArn",
        "vpcId",
    ),
    "aws:ec2/vpc:Vpc": (
        "cidrBlock",
        "ipv4IpamPoolId",
        "ipv4NetmaskLength",
    ),
    "aws:eks/addon:Addon": (
        "addonName",
        "clusterName",
    ),
    "aws:eks/nodeGroup:NodeGroup": (
        "amiType",
        "capacityType",
        "clusterName",
        "diskSize",
        "instanceTypes",
        "launchTemplate.id",
        "launchTemplate.name",
        "nodeGroupName",
        "nodeGroupNamePrefix",
        "nodeRoleArn",
        "remoteAccess",
        "subnetIds",
    ),
    "kubernetes:apps/v1:DaemonSet": (
        "metadata.name",
        "metadata.namespace",
        "spec.selector",
        "spec.selector.matchExpressions",
        "spec.selector.matchExpressions.key",
        "spec.selector.matchExpressions.operator",
        "spec.selector.matchExpressions.values",
        "spec.selector.matchLabels",
    ),
    "kubernetes:apps/v1:Deployment": (
        "metadata.name",
        "metadata.namespace",
        "spec.selector",
        "spec.selector.matchExpressions",
        "spec.selector.matchExpressions.key",
        "spec.selector.matchExpressions.operator",
        "spec.selector.matchExpressions.values",
        "spec.selector.matchLabels",
    ),
    "kubernetes:core/v1:ConfigMap": (
        "binaryData",
        "data",
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:core/v1:Namespace": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:core/v1:PersistentVolumeClaim": (
        "metadata.name",
        "metadata.namespace",
        "spec.accessModes",
        "spec.selector",
        "spec.selector.matchExpressions",
        "spec.selector.matchExpressions.key",
        "spec.selector.matchExpressions.operator",
        "spec.selector.matchExpressions.values",
        "spec.selector.matchLabels",
        "spec.storageClassName",
        "spec.volumeName",
    ),
    "kubernetes:core/v1:Secret": (
        "data",
        "metadata.name",
        "metadata.namespace",
        "stringData",
        "type",
    ),
    "kubernetes:core/v1:Service": (
        "metadata.name",
        "metadata.namespace",
        "spec.clusterIP",
    ),
    "kubernetes:core/v1:ServiceAccount": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:monitoring.coreos.com/v1:PrometheusRule": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:monitoring.coreos.com/v1:ServiceMonitor": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:networking.k8s.io/v1:NetworkPolicy": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:policy/v1:PodDisruptionBudget": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding": (
        "metadata.name",
        "metadata.namespace",
        "roleRef",
    ),
    "kubernetes:rbac.authorization.k8s.io/v1:Role": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding": (
        "metadata.name",
        "metadata.namespace",
        "roleRef",
    ),
}
"""Force-new input paths, by type token."""

MAY_REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    "aws:ec2/subnet:Subnet": ("ipv6CidrBlock",),
}
"""Input paths whose change replaces the resource only under a condition the plan does not judge."""

COMPONENT_REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    "eks:index:Cluster": ("name",),
}
"""Inputs a component passes to a child that a change of them replaces; a change of any other input of the
component may replace: not known."""

SOURCES: dict[str, str] = {
    "aws:autoscaling/tag:Tag": "hashicorp/terraform-provider-aws internal/service/autoscaling/group_tag.go (commit 050ac11163ca), ForceNew",
    "aws:ec2/subnet:Subnet": "hashicorp/terraform-provider-aws internal/service/ec2/vpc_subnet.go (commit 00cda125a19d), ForceNew and ForceNewIf",
    "aws:ec2/vpc:Vpc": "hashicorp/terraform-provider-aws internal/service/ec2/vpc_.go (commit 00081ce41cc6), ForceNew",
    "aws:eks/addon:Addon": "hashicorp/terraform-provider-aws internal/service/eks/addon.go (commit 00a35305dc1b), ForceNew",
    "aws:eks/nodeGroup:NodeGroup": "hashicorp/terraform-provider-aws internal/service/eks/node_group.go (commit 012e0a32f068), ForceNew",
    "eks:index:Cluster": "pulumi/pulumi-eks v4.3.0 nodejs/eks/cluster/cluster.ts (name to aws.eks.Cluster); hashicorp/terraform-provider-aws internal/service/eks/cluster.go (commit 00555dc5b38f), ForceNew",
    "kubernetes:apps/v1:DaemonSet": KUBERNETES_SOURCE,
    "kubernetes:apps/v1:Deployment": KUBERNETES_SOURCE,
    "kubernetes:core/v1:ConfigMap": KUBERNETES_SOURCE,
    "kubernetes:core/v1:Namespace": KUBERNETES_SOURCE,
    "kubernetes:core/v1:PersistentVolumeClaim": KUBERNETES_SOURCE,
    "kubernetes:core/v1:Secret": KUBERNETES_SOURCE,
    "kubernetes:core/v1:Service": KUBERNETES_SOURCE,
    "kubernetes:core/v1:ServiceAccount": KUBERNETES_SOURCE,
    "kubernetes:monitoring.coreos.com/v1:PrometheusRule": KUBERNETES_SOURCE,
    "kubernetes:monitoring.coreos.com/v1:ServiceMonitor": KUBERNETES_SOURCE,
    "kubernetes:networking.k8s.io/v1:NetworkPolicy": KUBERNETES_SOURCE,
    "kubernetes:policy/v1:PodDisruptionBudget": KUBERNETES_SOURCE,
    "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole": KUBERNETES_SOURCE,
    "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding": KUBERNETES_SOURCE,
    "kubernetes:rbac.authorization.k8s.io/v1:Role": KUBERNETES_SOURCE,
    "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding": KUBERNETES_SOURCE,
}
"""Where each type's rules come from."""
