"""The rules of scripts/replace_rules.py that were read by hand: terraform-provider-aws's `ForceNew` attributes
(pulumi-aws is bridged from it; neither Pulumi's schema nor the bridge metadata carries them), the node group
updates that replace its nodes, the components' rules, and why the rules of the other types the stack registers
are not known. Each entry names the file and commit it was read from.
"""

from __future__ import annotations

_TF = "hashicorp/terraform-provider-aws"
AWS_RULES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    # token: (source, ForceNew paths, paths a CustomizeDiff `ForceNewIf` replaces only under a condition).
    # ami_type, capacity_type, cluster_name, disk_size, instance_types, launch_template.id/.name,
    # node_group_name(_prefix), node_role_arn, remote_access, subnet_ids are ForceNew; scaling_config,
    # labels, taint, update_config, version, release_version and tags update in place.
    "aws:eks/nodeGroup:NodeGroup": (
        f"{_TF} internal/service/eks/node_group.go (commit 012e0a32f068), ForceNew",
        (
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
        (),
    ),
    # addon_name and cluster_name are ForceNew; the version, configuration values, roles and tags update in place.
    "aws:eks/addon:Addon": (
        f"{_TF} internal/service/eks/addon.go (commit 00a35305dc1b), ForceNew",
        ("addonName", "clusterName"),
        (),
    ),
    # cidr_block, ipv4_ipam_pool_id, ipv4_netmask_length are ForceNew; DNS attributes, tenancy, IPv6 and tags
    # update in place.
    "aws:ec2/vpc:Vpc": (
        f"{_TF} internal/service/ec2/vpc_.go (commit 00081ce41cc6), ForceNew",
        ("cidrBlock", "ipv4IpamPoolId", "ipv4NetmaskLength"),
        (),
    ),
    # The zone, CIDR, IPAM pools, IPv6-native, Outpost and VPC are ForceNew; `ipv6_cidr_block` replaces only when
    # the subnet assigned IPv6 addresses on creation (CustomizeDiff ForceNewIf).
    "aws:ec2/subnet:Subnet": (
        f"{_TF} internal/service/ec2/vpc_subnet.go (commit 00cda125a19d), ForceNew and ForceNewIf",
        (
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
        ("ipv6CidrBlock",),
    ),
    # autoscaling_group_name and tag.key are ForceNew; the tag's value and propagate_at_launch update in place.
    "aws:autoscaling/tag:Tag": (
        f"{_TF} internal/service/autoscaling/group_tag.go (commit 050ac11163ca), ForceNew",
        ("autoscalingGroupName", "tag.key"),
        (),
    ),
    # Only name and name_prefix are ForceNew; every other change is `CreateLaunchTemplateVersion`, a new version of
    # the same template (`resourceLaunchTemplateUpdate`, its `updateKeys`), which `update_default_version` makes the
    # default. The commit is the newest of the file the snapshot read held (the repository is too large to fetch
    # whole, so no tag could be resolved).
    "aws:ec2/launchTemplate:LaunchTemplate": (
        f"{_TF} internal/service/ec2/ec2_launch_template.go (commit c49358f89b43), ForceNew",
        ("name", "namePrefix"),
        (),
    ),
    # No attribute is ForceNew: a new vpc_id detaches the gateway and attaches it to the new VPC.
    "aws:ec2/internetGateway:InternetGateway": (
        f"{_TF} internal/service/ec2/vpc_internet_gateway.go (commit 08923b68b5ad), ForceNew",
        (),
        (),
    ),
    "aws:ec2/eip:Eip": (
        f"{_TF} internal/service/ec2/ec2_eip.go (commit 01606926a0c0), ForceNew",
        ("address", "domain", "ipamPoolId", "networkBorderGroup", "publicIpv4Pool"),
        (),
    ),
    "aws:ec2/natGateway:NatGateway": (
        f"{_TF} internal/service/ec2/vpc_nat_gateway.go (commit 04088eaa5494), ForceNew",
        ("allocationId", "connectivityType", "privateIp", "secondaryPrivateIpAddressCount", "subnetId"),
        (),
    ),
    # The destination and the table are ForceNew; a new target is `ReplaceRoute`, in place.
    "aws:ec2/route:Route": (
        f"{_TF} internal/service/ec2/vpc_route.go (commit 0128541e0711), ForceNew",
        ("destinationCidrBlock", "destinationIpv6CidrBlock", "destinationPrefixListId", "routeTableId"),
        (),
    ),
    # vpc_id is ForceNew; inline routes and propagating gateways update in place.
    "aws:ec2/routeTable:RouteTable": (
        f"{_TF} internal/service/ec2/vpc_route_table.go (commit 022092419b7c), ForceNew",
        ("vpcId",),
        (),
    ),
    # The subnet or gateway is ForceNew; a new route table is `ReplaceRouteTableAssociation`, in place.
    "aws:ec2/routeTableAssociation:RouteTableAssociation": (
        f"{_TF} internal/service/ec2/vpc_route_table_association.go (commit 0be71beb458a), ForceNew",
        ("gatewayId", "subnetId"),
        (),
    ),
    # `private_dns_enabled` replaces only an endpoint that is not of type Interface (CustomizeDiff `ForceNew`).
    "aws:ec2/vpcEndpoint:VpcEndpoint": (
        f"{_TF} internal/service/ec2/vpc_endpoint.go (commit 008db85aad5e), ForceNew and a CustomizeDiff ForceNew",
        (
            "dnsOptions.privateDnsPreference",
            "dnsOptions.privateDnsSpecifiedDomains",
            "resourceConfigurationArn",
            "serviceName",
            "serviceNetworkArn",
            "serviceRegion",
            "vpcEndpointType",
            "vpcId",
        ),
        ("privateDnsEnabled",),
    ),
    "aws:eks/accessEntry:AccessEntry": (
        f"{_TF} internal/service/eks/access_entry.go (commit c7c8a3566bb8), ForceNew",
        ("clusterName", "principalArn", "type"),
        (),
    ),
    # Every attribute is ForceNew: the resource has no update.
    "aws:eks/accessPolicyAssociation:AccessPolicyAssociation": (
        f"{_TF} internal/service/eks/access_policy_association.go (commit 6450ce3f2313), ForceNew",
        ("accessScope", "clusterName", "policyArn", "principalArn"),
        (),
    ),
    # A plugin-framework resource: `stringplanmodifier.RequiresReplace` on these; role_arn updates in place.
    "aws:eks/podIdentityAssociation:PodIdentityAssociation": (
        f"{_TF} internal/service/eks/pod_identity_association.go (commit 93bd0baa44a9), RequiresReplace",
        ("clusterName", "namespace", "serviceAccount"),
        (),
    ),
    "aws:iam/role:Role": (
        f"{_TF} internal/service/iam/role.go (commit 0040ea6911af), ForceNew",
        ("name", "namePrefix", "path"),
        (),
    ),
    "aws:iam/rolePolicy:RolePolicy": (
        f"{_TF} internal/service/iam/role_policy.go (commit 02f97af85f89), ForceNew",
        ("name", "namePrefix", "role"),
        (),
    ),
    # Both attributes are ForceNew: the resource has no update.
    "aws:iam/rolePolicyAttachment:RolePolicyAttachment": (
        f"{_TF} internal/service/iam/role_policy_attachment.go (commit 04c79849dbe7), ForceNew",
        ("policyArn", "role"),
        (),
    ),
    "aws:kms/key:Key": (
        f"{_TF} internal/service/kms/key.go (commit 00a35305dc1b), ForceNew",
        ("customKeyStoreId", "customerMasterKeySpec", "keyUsage", "multiRegion", "xksKeyId"),
        (),
    ),
    "aws:cloudwatch/logGroup:LogGroup": (
        f"{_TF} internal/service/logs/group.go (commit 0073593e7d69), ForceNew",
        ("logGroupClass", "name", "namePrefix"),
        (),
    ),
    "aws:cloudwatch/eventRule:EventRule": (
        f"{_TF} internal/service/events/rule.go (commit 0cdab4ae09a9), ForceNew",
        ("eventBusName", "name", "namePrefix"),
        (),
    ),
    "aws:cloudwatch/eventTarget:EventTarget": (
        f"{_TF} internal/service/events/target.go (commit 0762c41e2027), ForceNew",
        ("eventBusName", "rule", "targetId"),
        (),
    ),
    "aws:sqs/queue:Queue": (
        f"{_TF} internal/service/sqs/queue.go (commit 00a35305dc1b), ForceNew",
        ("fifoQueue", "name", "namePrefix"),
        (),
    ),
    "aws:sqs/queuePolicy:QueuePolicy": (
        f"{_TF} internal/service/sqs/queue_policy.go (commit 0148137dc6fb), ForceNew",
        ("queueUrl",),
        (),
    ),
    "aws:s3/bucketVersioning:BucketVersioning": (
        f"{_TF} internal/service/s3/bucket_versioning.go (commit 01c08000ddb1), ForceNew",
        ("bucket", "expectedBucketOwner"),
        (),
    ),
}

# Inputs whose change an in-place update applies by replacing every node of the group. terraform-provider-aws calls
# `UpdateNodegroupVersion` when `launch_template`, `release_version` or `version` change (`resourceNodeGroupUpdate`,
# "Do any version update first"), which EKS performs as a rolling replacement of the group's nodes (EKS user guide,
# "Update a managed node group for your cluster"); labels, taints, scaling, update and repair settings go through
# `UpdateNodegroupConfig`, which leaves the nodes running.
ROLLING_RULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "aws:eks/nodeGroup:NodeGroup": (
        f"{_TF} internal/service/eks/node_group.go (commit 012e0a32f068), resourceNodeGroupUpdate",
        ("launchTemplate.version", "releaseVersion", "version"),
    ),
}

# Types the stack registers whose rules are not known, and why; a change of them reads "may replace".
NOT_KNOWN: dict[str, str] = {
    "aws:ec2/tag:Tag": (
        "the source of terraform-provider-aws's aws_ec2_tag was not in the snapshot read (its resource id joins "
        "resource_id and key, so both likely replace)"
    ),
    "aws:ec2/securityGroup:SecurityGroup": "terraform-provider-aws's vpc_security_group.go was not read",
    "aws:s3/bucket:Bucket": "terraform-provider-aws's s3/bucket.go was not read; a replaced bucket loses its objects",
    "aws:s3/bucketOwnershipControls:BucketOwnershipControls": (
        "terraform-provider-aws's s3/bucket_ownership_controls.go was not read"
    ),
    "aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock": (
        "terraform-provider-aws's s3/bucket_public_access_block.go was not read"
    ),
    "aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration": (
        "terraform-provider-aws's s3/bucket_server_side_encryption_configuration.go was not read"
    ),
    "pulumi:providers:kubernetes": (
        "pulumi-kubernetes replaces its provider, and with it every object it manages, when the kubeconfig's active "
        "cluster changes (provider.go `DiffConfig` at v4.32.0), which a plan cannot judge: the kubeconfig is secret"
    ),
}


# Components: inputs a component passes to a child that a change of them replaces; its other inputs are not
# known (the component's other children, hidden from the plan, decide). pulumi-eks's `eks.Cluster` passes
# `name` as the control plane's `name` (pulumi/pulumi-eks v4.3.0 nodejs/eks/cluster/cluster.ts,
# `new aws.eks.Cluster`; v4.3.0 is the newest tag the snapshot read held, below the pinned 4.4.0), which
# terraform-provider-aws marks ForceNew.
COMPONENT_RULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "eks:index:Cluster": (
        "pulumi/pulumi-eks v4.3.0 nodejs/eks/cluster/cluster.ts (name to aws.eks.Cluster); "
        f"{_TF} internal/service/eks/cluster.go (commit 00555dc5b38f), ForceNew",
        ("name",),
    ),
}
