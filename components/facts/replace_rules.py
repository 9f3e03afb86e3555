"""Which input changes make a provider replace a resource rather than update it in place.

Written by scripts/replace_rules.py; do not edit. Paths are the registered inputs' wire names, dotted, with
`[*]` for any list item; a change at a path, or inside it, replaces the resource (one in
`MAY_REPLACE_ON_CHANGE` may). A type not in `REPLACE_ON_CHANGE` may replace on any change: not known; of
a component in `COMPONENT_REPLACE_ON_CHANGE`, only the inputs listed are known to replace. Standard library
only.

Kubernetes: pulumi/pulumi-kubernetes v4.32.0 provider/pkg/provider/diff.go (`forceNewProperties`), and for a Helm release
provider/pkg/provider/helm_release.go (`forceNewFields`).
AWS: terraform-provider-aws `ForceNew` attributes, which pulumi-aws's bridge turns into replacements; each
type's source is in `SOURCES`. `ROLLING_UPDATE_ON_CHANGE`: in-place updates that replace every node of a
node group; `NOT_KNOWN`: the types the stack registers whose rules are not known, with the reason.
"""

KUBERNETES_SOURCE = "pulumi/pulumi-kubernetes v4.32.0 provider/pkg/provider/diff.go"
HELM_RELEASE_SOURCE = "pulumi/pulumi-kubernetes v4.32.0 provider/pkg/provider/helm_release.go (`forceNewFields`)"

REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    "aws:autoscaling/tag:Tag": (
        "autoscalingGroupName",
        "tag.key",
    ),
    "aws:cloudwatch/eventRule:EventRule": (
        "eventBusName",
        "name",
        "namePrefix",
    ),
    "aws:cloudwatch/eventTarget:EventTarget": (
        "eventBusName",
        "rule",
        "targetId",
    ),
    "aws:cloudwatch/logGroup:LogGroup": (
        "logGroupClass",
        "name",
        "namePrefix",
    ),
    "aws:ec2/eip:Eip": (
        "address",
        "domain",
        "ipamPoolId",
        "networkBorderGroup",
        "publicIpv4Pool",
    ),
    "aws:ec2/internetGateway:InternetGateway": (),
    "aws:ec2/launchTemplate:LaunchTemplate": (
        "name",
        "namePrefix",
    ),
    "aws:ec2/natGateway:NatGateway": (
        "allocationId",
        "connectivityType",
        "privateIp",
        "secondaryPrivateIpAddressCount",
        "subnetId",
    ),
    "aws:ec2/route:Route": (
        "destinationCidrBlock",
        "destinationIpv6CidrBlock",
        "destinationPrefixListId",
        "routeTableId",
    ),
    "aws:ec2/routeTable:RouteTable": ("vpcId",),
    "aws:ec2/routeTableAssociation:RouteTableAssociation": (
        "gatewayId",
        "subnetId",
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
    "aws:ec2/vpcEndpoint:VpcEndpoint": (
        "dnsOptions.privateDnsPreference",
        "dnsOptions.privateDnsSpecifiedDomains",
        "resourceConfigurationArn",
        "serviceName",
        "serviceNetworkArn",
        "serviceRegion",
        "vpcEndpointType",
        "vpcId",
    ),
    "aws:eks/accessEntry:AccessEntry": (
        "clusterName",
        "principalArn",
        "type",
    ),
    "aws:eks/accessPolicyAssociation:AccessPolicyAssociation": (
        "accessScope",
        "clusterName",
        "policyArn",
        "principalArn",
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
    "aws:eks/podIdentityAssociation:PodIdentityAssociation": (
        "clusterName",
        "namespace",
        "serviceAccount",
    ),
    "aws:iam/role:Role": (
        "name",
        "namePrefix",
        "path",
    ),
    "aws:iam/rolePolicy:RolePolicy": (
        "name",
        "namePrefix",
        "role",
    ),
    "aws:iam/rolePolicyAttachment:RolePolicyAttachment": (
        "policyArn",
        "role",
    ),
    "aws:kms/key:Key": (
        "customKeyStoreId",
        "customerMasterKeySpec",
        "keyUsage",
        "multiRegion",
        "xksKeyId",
    ),
    "aws:s3/bucketVersioning:BucketVersioning": (
        "bucket",
        "expectedBucketOwner",
    ),
    "aws:sqs/queue:Queue": (
        "fifoQueue",
        "name",
        "namePrefix",
    ),
    "aws:sqs/queuePolicy:QueuePolicy": ("queueUrl",),
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
    "kubernetes:batch/v1:Job": (
        "metadata.name",
        "metadata.namespace",
        "spec.completions",
        "spec.parallelism",
        "spec.selector",
        "spec.selector.matchExpressions",
        "spec.selector.matchExpressions.key",
        "spec.selector.matchExpressions.operator",
        "spec.selector.matchExpressions.values",
        "spec.selector.matchLabels",
        "spec.template",
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
    "kubernetes:eks.amazonaws.com/v1:NodeClass": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:helm.sh/v3:Release": (
        "name",
        "namespace",
    ),
    "kubernetes:karpenter.k8s.aws/v1:EC2NodeClass": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:karpenter.sh/v1:NodePool": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:keda.sh/v1alpha1:ScaledObject": (
        "metadata.name",
        "metadata.namespace",
    ),
    "kubernetes:keda.sh/v1alpha1:TriggerAuthentication": (
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
    "aws:ec2/vpcEndpoint:VpcEndpoint": ("privateDnsEnabled",),
}
"""Input paths whose change replaces the resource only under a condition the plan does not judge."""

COMPONENT_REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    "eks:index:Cluster": ("name",),
}
"""Inputs a component passes to a child that a change of them replaces; a change of any other input of the
component may replace: not known."""

ROLLING_UPDATE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    "aws:eks/nodeGroup:NodeGroup": (
        "launchTemplate.version",
        "releaseVersion",
        "version",
    ),
}
"""Input paths whose in-place update replaces every node of the group, one after another."""

ROLLING_SOURCES: dict[str, str] = {
    "aws:eks/nodeGroup:NodeGroup": "hashicorp/terraform-provider-aws internal/service/eks/node_group.go (commit 012e0a32f068), resourceNodeGroupUpdate",
}
"""Where each type's rolling-update paths come from."""

NOT_KNOWN: dict[str, str] = {
    "aws:ec2/securityGroup:SecurityGroup": "terraform-provider-aws's vpc_security_group.go was not read",
    "aws:ec2/tag:Tag": "the source of terraform-provider-aws's aws_ec2_tag was not in the snapshot read (its resource id joins resource_id and key, so both likely replace)",
    "aws:s3/bucket:Bucket": "terraform-provider-aws's s3/bucket.go was not read; a replaced bucket loses its objects",
    "aws:s3/bucketOwnershipControls:BucketOwnershipControls": "terraform-provider-aws's s3/bucket_ownership_controls.go was not read",
    "aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock": "terraform-provider-aws's s3/bucket_public_access_block.go was not read",
    "aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration": "terraform-provider-aws's s3/bucket_server_side_encryption_configuration.go was not read",
    "pulumi:providers:kubernetes": "pulumi-kubernetes replaces its provider, and with it every object it manages, when the kubeconfig's active cluster changes (provider.go `DiffConfig` at v4.32.0), which a plan cannot judge: the kubeconfig is secret",
}
"""Types the stack registers whose rules are not known, and why: a change of them may replace."""

SOURCES: dict[str, str] = {
    "aws:autoscaling/tag:Tag": "hashicorp/terraform-provider-aws internal/service/autoscaling/group_tag.go (commit 050ac11163ca), ForceNew",
    "aws:cloudwatch/eventRule:EventRule": "hashicorp/terraform-provider-aws internal/service/events/rule.go (commit 0cdab4ae09a9), ForceNew",
    "aws:cloudwatch/eventTarget:EventTarget": "hashicorp/terraform-provider-aws internal/service/events/target.go (commit 0762c41e2027), ForceNew",
    "aws:cloudwatch/logGroup:LogGroup": "hashicorp/terraform-provider-aws internal/service/logs/group.go (commit 0073593e7d69), ForceNew",
    "aws:ec2/eip:Eip": "hashicorp/terraform-provider-aws internal/service/ec2/ec2_eip.go (commit 01606926a0c0), ForceNew",
    "aws:ec2/internetGateway:InternetGateway": "hashicorp/terraform-provider-aws internal/service/ec2/vpc_internet_gateway.go (commit 08923b68b5ad), ForceNew",
    "aws:ec2/launchTemplate:LaunchTemplate": "hashicorp/terraform-provider-aws internal/service/ec2/ec2_launch_template.go (commit c49358f89b43), ForceNew",
    "aws:ec2/natGateway:NatGateway": "hashicorp/terraform-provider-aws internal/service/ec2/vpc_nat_gateway.go (commit 04088eaa5494), ForceNew",
    "aws:ec2/route:Route": "hashicorp/terraform-provider-aws internal/service/ec2/vpc_route.go (commit 0128541e0711), ForceNew",
    "aws:ec2/routeTable:RouteTable": "hashicorp/terraform-provider-aws internal/service/ec2/vpc_route_table.go (commit 022092419b7c), ForceNew",
    "aws:ec2/routeTableAssociation:RouteTableAssociation": "hashicorp/terraform-provider-aws internal/service/ec2/vpc_route_table_association.go (commit 0be71beb458a), ForceNew",
    "aws:ec2/subnet:Subnet": "hashicorp/terraform-provider-aws internal/service/ec2/vpc_subnet.go (commit 00cda125a19d), ForceNew and ForceNewIf",
    "aws:ec2/vpc:Vpc": "hashicorp/terraform-provider-aws internal/service/ec2/vpc_.go (commit 00081ce41cc6), ForceNew",
    "aws:ec2/vpcEndpoint:VpcEndpoint": "hashicorp/terraform-provider-aws internal/service/ec2/vpc_endpoint.go (commit 008db85aad5e), ForceNew and a CustomizeDiff ForceNew",
    "aws:eks/accessEntry:AccessEntry": "hashicorp/terraform-provider-aws internal/service/eks/access_entry.go (commit c7c8a3566bb8), ForceNew",
    "aws:eks/accessPolicyAssociation:AccessPolicyAssociation": "hashicorp/terraform-provider-aws internal/service/eks/access_policy_association.go (commit 6450ce3f2313), ForceNew",
    "aws:eks/addon:Addon": "hashicorp/terraform-provider-aws internal/service/eks/addon.go (commit 00a35305dc1b), ForceNew",
    "aws:eks/nodeGroup:NodeGroup": "hashicorp/terraform-provider-aws internal/service/eks/node_group.go (commit 012e0a32f068), ForceNew",
    "aws:eks/podIdentityAssociation:PodIdentityAssociation": "hashicorp/terraform-provider-aws internal/service/eks/pod_identity_association.go (commit 93bd0baa44a9), RequiresReplace",
    "aws:iam/role:Role": "hashicorp/terraform-provider-aws internal/service/iam/role.go (commit 0040ea6911af), ForceNew",
    "aws:iam/rolePolicy:RolePolicy": "hashicorp/terraform-provider-aws internal/service/iam/role_policy.go (commit 02f97af85f89), ForceNew",
    "aws:iam/rolePolicyAttachment:RolePolicyAttachment": "hashicorp/terraform-provider-aws internal/service/iam/role_policy_attachment.go (commit 04c79849dbe7), ForceNew",
    "aws:kms/key:Key": "hashicorp/terraform-provider-aws internal/service/kms/key.go (commit 00a35305dc1b), ForceNew",
    "aws:s3/bucketVersioning:BucketVersioning": "hashicorp/terraform-provider-aws internal/service/s3/bucket_versioning.go (commit 01c08000ddb1), ForceNew",
    "aws:sqs/queue:Queue": "hashicorp/terraform-provider-aws internal/service/sqs/queue.go (commit 00a35305dc1b), ForceNew",
    "aws:sqs/queuePolicy:QueuePolicy": "hashicorp/terraform-provider-aws internal/service/sqs/queue_policy.go (commit 0148137dc6fb), ForceNew",
    "eks:index:Cluster": "pulumi/pulumi-eks v4.3.0 nodejs/eks/cluster/cluster.ts (name to aws.eks.Cluster); hashicorp/terraform-provider-aws internal/service/eks/cluster.go (commit 00555dc5b38f), ForceNew",
    "kubernetes:apps/v1:DaemonSet": KUBERNETES_SOURCE,
    "kubernetes:apps/v1:Deployment": KUBERNETES_SOURCE,
    "kubernetes:batch/v1:Job": KUBERNETES_SOURCE,
    "kubernetes:core/v1:ConfigMap": KUBERNETES_SOURCE,
    "kubernetes:core/v1:Namespace": KUBERNETES_SOURCE,
    "kubernetes:core/v1:PersistentVolumeClaim": KUBERNETES_SOURCE,
    "kubernetes:core/v1:Secret": KUBERNETES_SOURCE,
    "kubernetes:core/v1:Service": KUBERNETES_SOURCE,
    "kubernetes:core/v1:ServiceAccount": KUBERNETES_SOURCE,
    "kubernetes:eks.amazonaws.com/v1:NodeClass": KUBERNETES_SOURCE,
    "kubernetes:helm.sh/v3:Release": HELM_RELEASE_SOURCE,
    "kubernetes:karpenter.k8s.aws/v1:EC2NodeClass": KUBERNETES_SOURCE,
    "kubernetes:karpenter.sh/v1:NodePool": KUBERNETES_SOURCE,
    "kubernetes:keda.sh/v1alpha1:ScaledObject": KUBERNETES_SOURCE,
    "kubernetes:keda.sh/v1alpha1:TriggerAuthentication": KUBERNETES_SOURCE,
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
