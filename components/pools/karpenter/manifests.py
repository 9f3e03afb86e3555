"""Karpenter's objects and AWS documents as plain values: the controller's Helm values and IAM policy, the
interruption queue's policy and EventBridge patterns, and per GPU pool a `NodePool` and an `EC2NodeClass`.

Everything here follows Karpenter's own documentation at the pinned release (`facts/versions.py`,
`KARPENTER_VERSION`): the CloudFormation template of its getting-started guide
(aws/karpenter-provider-aws, website/content/en/docs/getting-started/getting-started-with-karpenter/cloudformation.yaml
at 1d927085, the docs of v1.14.1) and the CRDs of pkg/apis/crds at v1.14.1, which the plan validates these
objects against (stackcheck/plan/crds/). No Pulumi here: the components wire these into resources.
"""

from __future__ import annotations

from typing import Any

from ...facts import image_cache, karpenter, versions
from ...facts.contract import NVIDIA_GPU_PRODUCT_LABEL, NVIDIA_GPU_RESOURCE, PlacementContract
from ...facts.eks_node import NODE_ROLE_POLICIES as NODE_GROUP_ROLE_POLICIES
from ...facts.gpu_catalog import InstanceType
from ...facts.karpenter import BOTTLEROCKET_ALIAS_PREFIX, CAPACITY_TYPE_LABEL, CAPACITY_TYPES
from ...settings import GpuNodeGroupSettings

NODE_POOL_API_VERSION = "karpenter.sh/v1"
NODE_CLASS_API_VERSION = "karpenter.k8s.aws/v1"
NAMESPACE = "kube-system"
"""Where the controller runs: the namespace of Karpenter's getting-started guide, whose pods the system nodes run."""
SERVICE_ACCOUNT = "karpenter"
"""The chart's ServiceAccount for the release name `karpenter` (its `karpenter.serviceAccountName` helper)."""
RELEASE_NAME = "karpenter"
CRD_RELEASE_NAME = "karpenter-crd"
"""The CRDs' release: the name of the upgrade guide's `helm upgrade --install karpenter-crd`, in the same namespace."""
DISCOVERY_TAG = "karpenter.sh/discovery"
"""The tag whose value, the cluster name, marks the subnets and security groups Karpenter's nodes use (the
getting-started guide tags them so, and the EC2NodeClass selects them by it)."""
# No GPU node expires: expiry is forceful (it drains at once, outside the NodePool's budget, and waits for no new
# node) and `do-not-disrupt` does not hold it, so a 30-day expiry would take a one-replica model down for a cold start
# each month. The nodes are replaced by drift instead, which is budgeted, starts the new node first and waits for
# the loading pods: a new AMI pin (`ami_alias`) or a changed NodePool or EC2NodeClass drifts every node of the pool
# (website/content/en/v1.14/concepts/disruption.md at 1d927085, "Automated Graceful Methods", "Drift", "Expiration").
EXPIRE_AFTER = karpenter.NEVER_EXPIRE
# How long an empty GPU node waits for another pod before Karpenter removes it: long enough that a rollout
# (Recreate: the old pod goes before the new one is scheduled) lands on the same node instead of a new one.
CONSOLIDATE_AFTER = "10m"
# Drift and expiry replace one GPU node of a pool at a time: a second would take a second model offline.
DISRUPTION_BUDGET_NODES = "1"
# After this long draining, a drifted node's pods are deleted even if a budget or `do-not-disrupt` blocks them, so no
# drain hangs for ever (disruption.md, "TerminationGracePeriod"). With it set, drift may start on a node whose pods
# still carry an active `do-not-disrupt`; their eviction then waits for the window. Two hours hold a replacement
# replica's cold start (the image pull and `startupTimeoutSeconds`, 30 minutes by default) and a server's shutdown
# while its budget keeps the draining replica: the plan's `node-replacement-keeps-models-serving` checks it per server.
TERMINATION_GRACE_PERIOD = "2h"
# Karpenter's interruption handling: the EventBridge rules of the CloudFormation template, each with its event source
# and detail type, feeding the SQS queue the controller reads (`settings.interruptionQueue`).
INTERRUPTION_EVENTS = {
    "scheduled-change": ("aws.health", "AWS Health Event"),
    "spot-interruption": ("aws.ec2", "EC2 Spot Instance Interruption Warning"),
    "rebalance": ("aws.ec2", "EC2 Instance Rebalance Recommendation"),
    "instance-state-change": ("aws.ec2", "EC2 Instance State-change Notification"),
    "reservation-interruption": ("aws.ec2", "EC2 Capacity Reservation Instance Interruption Warning"),
}
# The queue keeps a message 5 minutes (the template's MessageRetentionPeriod): a spot warning is two minutes ahead.
QUEUE_RETENTION_SECONDS = 300
# The node role's managed policies (the template's KarpenterNodeRole): the managed node groups' three, and SSM.
NODE_ROLE_POLICIES = (*NODE_GROUP_ROLE_POLICIES, "AmazonSSMManagedInstanceCore")
# Controller resources: the getting-started guide's `helm upgrade` sets 1 CPU and 1 GiB, requests equal to limits.
CONTROLLER_RESOURCES = {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "1Gi"}}


def ami_alias(ami_family: str = "AL2023") -> str:
    """The EC2NodeClass's AMI: the pinned AL2023 or Bottlerocket release, whose NVIDIA variant Karpenter picks for
    GPU types (`facts/versions.py`)."""
    if ami_family == "Bottlerocket":
        return f"{BOTTLEROCKET_ALIAS_PREFIX}{versions.KARPENTER_BOTTLEROCKET_RELEASE}"
    return f"al2023@{versions.KARPENTER_AL2023_AMI_RELEASE}"


def block_device_mappings(settings: GpuNodeGroupSettings) -> list[dict[str, Any]]:
    """The EC2NodeClass's volumes. AL2023: one encrypted gp3 root of the pool's disk size (its throughput raised for
    `soci`). Bottlerocket: the OS volume at Karpenter's own default size and the data volume, the kubelet's root
    (`rootVolume`, which Karpenter sizes the node's ephemeral storage by), of the pool's disk size, restored from
    `snapshotId` with `imageCache: snapshot` (`facts/image_cache.py`)."""
    ebs: dict[str, Any] = {"volumeSize": f"{settings.disk_size}Gi", "volumeType": "gp3", "deleteOnTermination": True}
    if settings.image_cache == "snapshot":
        # A volume from a snapshot takes the snapshot's encryption; the EC2 API refuses an encryption value with it.
        ebs["snapshotID"] = settings.snapshot_id
    else:
        ebs["encrypted"] = True
    throughput = settings.volume_throughput_mibps
    if throughput is not None:
        ebs.update(throughput=throughput, iops=image_cache.gp3_iops(throughput))
    data = {"deviceName": image_cache.ROOT_DEVICES[settings.ami_family], "rootVolume": True, "ebs": ebs}
    if settings.ami_family != "Bottlerocket":
        return [data]
    os_volume = {
        "deviceName": image_cache.BOTTLEROCKET_OS_DEVICE,
        "ebs": {
            "volumeSize": f"{image_cache.BOTTLEROCKET_OS_VOLUME_GIB}Gi",
            "volumeType": "gp3",
            "encrypted": True,
            "deleteOnTermination": True,
        },
    }
    return [os_volume, data]


def node_pool_labels(settings: GpuNodeGroupSettings, contract: PlacementContract) -> dict[str, str]:
    """The labels of the pool's nodes: the contract's, with the GPU product of the pool's own instance types."""
    labels = {key: value for key, value in contract.node_labels().items() if key != NVIDIA_GPU_PRODUCT_LABEL}
    if settings.gpu_product:
        labels[NVIDIA_GPU_PRODUCT_LABEL] = settings.gpu_product
    return labels


def node_pool_limits(settings: GpuNodeGroupSettings) -> dict[str, str]:
    """At most `maxSize` of the pool's largest instance type: its GPUs and vCPUs."""
    largest: InstanceType = max(settings.instances, key=lambda entry: (entry.gpus, entry.vcpus))
    return {
        NVIDIA_GPU_RESOURCE: str(settings.max_size * largest.gpus),
        "cpu": str(settings.max_size * largest.vcpus),
    }


def node_pool(
    name: str, settings: GpuNodeGroupSettings, contract: PlacementContract, labels: dict[str, str] | None = None
) -> dict[str, Any]:
    """The pool's `NodePool` (karpenter.sh/v1): the contract's labels and taints on every node it launches, the
    pool's instance types, capacity type and architecture as requirements, and disruption that leaves a node
    serving a model alone: consolidation only of empty nodes, one node at a time."""
    return {
        "apiVersion": NODE_POOL_API_VERSION,
        "kind": "NodePool",
        "metadata": {"name": name, **({"labels": labels} if labels else {})},
        "spec": {
            "template": {
                "metadata": {"labels": node_pool_labels(settings, contract)},
                "spec": {
                    "nodeClassRef": {"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": name},
                    "taints": [taint.to_kubernetes() for taint in contract.node_taints()],
                    "requirements": [
                        {
                            "key": "node.kubernetes.io/instance-type",
                            "operator": "In",
                            "values": list(settings.instance_types),
                        },
                        {
                            "key": CAPACITY_TYPE_LABEL,
                            "operator": "In",
                            "values": [CAPACITY_TYPES[settings.capacity_type]],
                        },
                        {
                            "key": "kubernetes.io/arch",
                            "operator": "In",
                            "values": [settings.instances[0].kubernetes_arch],
                        },
                    ],
                    "expireAfter": EXPIRE_AFTER,
                    "terminationGracePeriod": TERMINATION_GRACE_PERIOD,
                },
            },
            "limits": node_pool_limits(settings),
            "disruption": {
                "consolidationPolicy": "WhenEmpty",
                "consolidateAfter": CONSOLIDATE_AFTER,
                "budgets": [{"nodes": DISRUPTION_BUDGET_NODES}],
            },
        },
    }


def ec2_node_class(
    name: str, settings: GpuNodeGroupSettings, node_role: str, discovery: str, tags: dict[str, str] | None = None
) -> dict[str, Any]:
    """The pool's `EC2NodeClass` (karpenter.k8s.aws/v1): the pinned alias of the pool's AMI family, IMDSv2 with a hop
    limit of 1 (pods off the host network cannot reach the node's credentials), the volumes of
    `block_device_mappings`, the node role, and the subnets and security groups tagged
    `karpenter.sh/discovery: <discovery>`. Karpenter writes the NodePool's labels and taints into the node's
    bootstrap itself, Bottlerocket's TOML included (pkg/providers/amifamily/bootstrap/bottlerocket.go at v1.14.1:
    `settings.kubernetes.node-labels` and `node-taints`), so user data is set only for `soci`'s `NodeConfig`, which
    Karpenter merges before its own part (bootstrap/nodeadm.go, `parseUserData`)."""
    selector = [{"tags": {DISCOVERY_TAG: discovery}}]
    spec: dict[str, Any] = {
        "role": node_role,
        "amiSelectorTerms": [{"alias": ami_alias(settings.ami_family)}],
        "subnetSelectorTerms": selector,
        "securityGroupSelectorTerms": selector,
        "metadataOptions": {
            "httpEndpoint": "enabled",
            "httpProtocolIPv6": "disabled",
            "httpPutResponseHopLimit": 1,
            "httpTokens": "required",
        },
        "blockDeviceMappings": block_device_mappings(settings),
    }
    if settings.image_cache == "soci":
        spec["userData"] = image_cache.nodeconfig_user_data()
    if tags:
        spec["tags"] = dict(tags)
    return {"apiVersion": NODE_CLASS_API_VERSION, "kind": "EC2NodeClass", "metadata": {"name": name}, "spec": spec}


def discovery_tags(cluster_name: str) -> dict[str, str]:
    """The tags that mark a subnet for the nodes Karpenter launches for `cluster_name`: given to the subnets' own
    tags where the stack creates them (`NetworkArgs.private_subnet_tags`)."""
    return {DISCOVERY_TAG: cluster_name}


def subnet_tag_warning(subnet_ids: list[Any]) -> str:
    """The warning for subnets the stack does not create, which it tags for discovery with tag resources of its own:
    pulumi-aws's `aws.ec2.Tag` is not to be combined with a resource that manages the same tags, which removes the
    tag at its next update. Subnet ids not known until deploy are counted rather than named."""
    named = [subnet for subnet in subnet_ids if isinstance(subnet, str)]
    subnets = ", ".join(named) if len(named) == len(subnet_ids) else f"{len(subnet_ids)} subnets"
    return (
        f"Karpenter finds its subnets by the tag {DISCOVERY_TAG}, which this stack adds to {subnets} with "
        "aws.ec2.Tag as it does not create them: if their owner manages their tags (a Pulumi or Terraform subnet "
        "resource), its next refresh or update removes the tag and Karpenter launches no node; add "
        f"{DISCOVERY_TAG}=<cluster name> to the subnets' tags where they are defined"
    )


def helm_values(cluster_name: str, queue_name: str, node_selector: dict[str, str], region: str) -> dict[str, Any]:
    """The chart's values: the cluster and interruption queue (`settings`), the getting-started guide's controller
    resources, the system nodes, so the controller never runs on a node it manages, and the region.

    The region is set (`AWS_REGION`, the example of the chart's `controller.env`, charts/karpenter/values.yaml at
    v1.14.1) because the controller otherwise asks the instance metadata service for it and panics when that does not
    answer (pkg/operator/operator.go at v1.14.1: `imds.GetRegion` when the SDK's config has no region, then
    `lo.Must0`): EKS Pod Identity gives credentials, not a region, and a node that keeps pods off IMDS with a hop
    limit of 1, as the EC2NodeClass here does, never answers (aws/karpenter-provider-aws#8219, "panic: operation
    error ec2imds: GetRegion")."""
    return {
        "settings": {"clusterName": cluster_name, "interruptionQueue": queue_name},
        "serviceAccount": {"name": SERVICE_ACCOUNT},
        "nodeSelector": {"kubernetes.io/os": "linux", **node_selector},
        "controller": {"resources": CONTROLLER_RESOURCES, "env": [{"name": "AWS_REGION", "value": region}]},
    }


def controller_policy(
    cluster_name: str, partition: str, region: str, account: str, node_role_arn: str, queue_arn: str
) -> dict[str, Any]:
    """The controller's permissions: the statements of the template's six controller policies, scoped as there
    to this cluster's tags, its node role and its queue."""
    ec2 = f"arn:{partition}:ec2:{region}"
    cluster_tag = f"kubernetes.io/cluster/{cluster_name}"
    owned = {f"aws:ResourceTag/{cluster_tag}": "owned"}
    request_owned = {f"aws:RequestTag/{cluster_tag}": "owned", "aws:RequestTag/eks:eks-cluster-name": cluster_name}
    launched = [
        f"{ec2}:*:{kind}/*"
        for kind in ("fleet", "instance", "volume", "network-interface", "launch-template", "spot-instances-request")
    ]
    profile = f"arn:{partition}:iam::{account}:instance-profile/*"
    cluster_arn = f"arn:{partition}:eks:{region}:{account}:cluster/{cluster_name}"
    node_class_like = "karpenter.k8s.aws/ec2nodeclass"
    statements = [
        _statement(
            "AllowScopedEC2InstanceAccessActions",
            ["ec2:RunInstances", "ec2:CreateFleet"],
            [f"{ec2}::image/*", f"{ec2}::snapshot/*"]
            + [f"{ec2}:*:{kind}/*" for kind in ("security-group", "subnet", "capacity-reservation", "placement-group")],
        ),
        _statement(
            "AllowScopedEC2LaunchTemplateAccessActions",
            ["ec2:RunInstances", "ec2:CreateFleet"],
            f"{ec2}:*:launch-template/*",
            {"StringEquals": owned, "StringLike": {"aws:ResourceTag/karpenter.sh/nodepool": "*"}},
        ),
        _statement(
            "AllowScopedEC2InstanceActionsWithTags",
            ["ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"],
            launched,
            {"StringEquals": request_owned, "StringLike": {"aws:RequestTag/karpenter.sh/nodepool": "*"}},
        ),
        _statement(
            "AllowScopedResourceCreationTagging",
            "ec2:CreateTags",
            launched,
            {
                "StringEquals": {
                    **request_owned,
                    "ec2:CreateAction": ["RunInstances", "CreateFleet", "CreateLaunchTemplate"],
                },
                "StringLike": {"aws:RequestTag/karpenter.sh/nodepool": "*"},
            },
        ),
        _statement(
            "AllowScopedResourceTagging",
            "ec2:CreateTags",
            f"{ec2}:*:instance/*",
            {
                "StringEquals": owned,
                "StringLike": {"aws:ResourceTag/karpenter.sh/nodepool": "*"},
                "StringEqualsIfExists": {"aws:RequestTag/eks:eks-cluster-name": cluster_name},
                "ForAllValues:StringEquals": {
                    "aws:TagKeys": ["eks:eks-cluster-name", "karpenter.sh/nodeclaim", "Name"]
                },
            },
        ),
        _statement(
            "AllowScopedDeletion",
            ["ec2:TerminateInstances", "ec2:DeleteLaunchTemplate"],
            [f"{ec2}:*:instance/*", f"{ec2}:*:launch-template/*"],
            {"StringEquals": owned, "StringLike": {"aws:ResourceTag/karpenter.sh/nodepool": "*"}},
        ),
        _statement(
            "AllowPassingInstanceRole",
            "iam:PassRole",
            node_role_arn,
            {"StringEquals": {"iam:PassedToService": ["ec2.amazonaws.com", "ec2.amazonaws.com.cn"]}},
        ),
        _statement(
            "AllowScopedInstanceProfileCreationActions",
            "iam:CreateInstanceProfile",
            profile,
            {
                "StringEquals": {**request_owned, "aws:RequestTag/topology.kubernetes.io/region": region},
                "StringLike": {f"aws:RequestTag/{node_class_like}": "*"},
            },
        ),
        _statement(
            "AllowScopedInstanceProfileTagActions",
            "iam:TagInstanceProfile",
            profile,
            {
                "StringEquals": {
                    **owned,
                    "aws:ResourceTag/topology.kubernetes.io/region": region,
                    **request_owned,
                    "aws:RequestTag/topology.kubernetes.io/region": region,
                },
                "StringLike": {f"aws:ResourceTag/{node_class_like}": "*", f"aws:RequestTag/{node_class_like}": "*"},
            },
        ),
        _statement(
            "AllowScopedInstanceProfileActions",
            ["iam:AddRoleToInstanceProfile", "iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile"],
            profile,
            {
                "StringEquals": {**owned, "aws:ResourceTag/topology.kubernetes.io/region": region},
                "StringLike": {f"aws:ResourceTag/{node_class_like}": "*"},
            },
        ),
        _statement("AllowAPIServerEndpointDiscovery", "eks:DescribeCluster", cluster_arn),
        _statement(
            "AllowInterruptionQueueActions", ["sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"], queue_arn
        ),
        _statement(
            "AllowZonalShiftStatusReadOnly",
            "arc-zonal-shift:GetManagedResource",
            "*",
            {"StringEquals": {"arc-zonal-shift:ResourceIdentifier": cluster_arn}},
        ),
        _statement(
            "AllowRegionalReadActions",
            [
                "ec2:DescribeCapacityReservations",
                "ec2:DescribeImages",
                "ec2:DescribeInstances",
                "ec2:DescribeInstanceStatus",
                "ec2:DescribeInstanceTypeOfferings",
                "ec2:DescribeInstanceTypes",
                "ec2:DescribeLaunchTemplates",
                "ec2:DescribePlacementGroups",
                "ec2:DescribeSecurityGroups",
                "ec2:DescribeSpotPriceHistory",
                "ec2:DescribeSubnets",
            ],
            "*",
            {"StringEquals": {"aws:RequestedRegion": region}},
        ),
        _statement("AllowSSMReadActions", "ssm:GetParameter", f"arn:{partition}:ssm:{region}::parameter/aws/service/*"),
        _statement("AllowPricingReadActions", "pricing:GetProducts", "*"),
        _statement("AllowUnscopedInstanceProfileListAction", "iam:ListInstanceProfiles", "*"),
        _statement("AllowInstanceProfileReadActions", "iam:GetInstanceProfile", profile),
    ]
    return {"Version": "2012-10-17", "Statement": statements}


def queue_policy(queue_arn: str) -> dict[str, Any]:
    """EventBridge (and SQS) may send to the queue; nothing may use it over plain HTTP (the template's
    KarpenterInterruptionQueuePolicy)."""
    return {
        "Version": "2012-10-17",
        "Id": "EC2InterruptionPolicy",
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": {"Service": ["events.amazonaws.com", "sqs.amazonaws.com"]},
                "Action": "sqs:SendMessage",
                "Resource": queue_arn,
            },
            {
                "Sid": "DenyHTTP",
                "Effect": "Deny",
                "Action": "sqs:*",
                "Resource": queue_arn,
                "Condition": {"Bool": {"aws:SecureTransport": "false"}},
                "Principal": "*",
            },
        ],
    }


def event_pattern(source: str, detail_type: str) -> dict[str, list[str]]:
    """An EventBridge pattern matching one source and detail type."""
    return {"source": [source], "detail-type": [detail_type]}


def _statement(
    sid: str, actions: str | list[str], resources: str | list[str], condition: dict[str, Any] | None = None
) -> dict[str, Any]:
    statement: dict[str, Any] = {"Sid": sid, "Effect": "Allow", "Resource": resources, "Action": actions}
    if condition:
        statement["Condition"] = condition
    return statement
