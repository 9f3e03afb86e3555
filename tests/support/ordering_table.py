"""Every ordering the stack relies on, with the reason it matters on a first `pulumi up` or a destroy.

Pulumi creates a resource after what it waits for and deletes it before (the engine deletes in reverse dependency
order). tests/program/test_orderings.py checks each row against the variant runs, and that every `depends_on` the
program registers in them is a row here: a new `depends_on` needs its row, so its test. The rows of the pools'
provisioners and of the fleet are in tests/support/ordering_table_pools.py.
"""

from __future__ import annotations

from tests.support.ordering_table_pools import AUTO_MODE, FLEET, KARPENTER, WARM_NODES
from tests.support.orderings import AGENT, CREDENTIALS, DEPENDS_ON, PRIVATE_ROUTING, SERVER_OBJECTS, Ordering

ALL = ("dev", "secrets", "karpenter", "autoMode", "s3Seeded", "warmQueue", "kedaAmp", "prometheusInstalled")
NODE_GROUP_STACKS = ("dev", "secrets", "s3Seeded", "warmQueue", "kedaAmp", "prometheusInstalled")
"""Variants whose GPU pool is a managed node group (the dev stack's provisioner)."""
NETWORK_AND_CLUSTER = (
    Ordering(
        "nat-gateway-after-the-internet-gateway",
        ALL,
        ("NatGateway network-nat-*",),
        ("InternetGateway network-igw",),
        DEPENDS_ON,
        "a public NAT gateway reaches the internet through the VPC's internet gateway (pulumi_aws 7.51.1 "
        "ec2/nat_gateway.py, 'Public NAT' example: depends_on the internet gateway)",
    ),
    Ordering(
        "node-groups-after-the-nat-routes",
        NODE_GROUP_STACKS,
        ("NodeGroup *",),
        PRIVATE_ROUTING,
        "subnetIds",
        "a node that boots before its subnet's NAT route cannot reach EKS, ECR or S3 and never joins; deleted first, "
        "draining nodes keep their way out (components/cluster/network.py)",
    ),
    Ordering(
        "control-plane-after-the-private-routing",
        ALL,
        ("Cluster *",),
        PRIVATE_ROUTING,
        "privateSubnetIds",
        "the control plane's network interfaces go into routed subnets (components/cluster/network.py once_created)",
    ),
    Ordering(
        "control-plane-after-the-public-routing",
        ALL,
        ("Cluster *",),
        ("Route network-public-internet", "RouteTableAssociation network-public-*"),
        "publicSubnetIds",
        "public load balancers and the NAT gateway use the public subnets once routed to the internet gateway",
    ),
    Ordering(
        "node-groups-after-the-node-role-policies",
        NODE_GROUP_STACKS,
        ("NodeGroup *",),
        ("RolePolicyAttachment nodes-*",),
        "nodeRoleArn",
        "without the CNI and worker policies nodes never become Ready, and deleted first, draining nodes lose pod "
        "networking (pulumi_aws eks.NodeGroup docs: the node group depends on the role's attachments)",
    ),
    Ordering(
        "node-groups-after-the-vpc-cni-and-kube-proxy",
        NODE_GROUP_STACKS,
        ("NodeGroup *",),
        ("Addon vpc-cni", "Addon kube-proxy"),
        "version",
        "a node without the VPC CNI stays NotReady (components/cluster/addons.py `before_nodes`)",
    ),
    Ordering(
        "control-plane-after-its-log-group",
        ALL,
        ("Cluster *",),
        ("LogGroup control-plane-logs",),
        DEPENDS_ON,
        "EKS creates /aws/eks/<name>/cluster itself, never expiring, when logging starts before the group exists "
        "(terraform-aws-modules/terraform-aws-eks main.tf: the cluster depends_on its log group)",
    ),
    Ordering(
        "control-plane-log-types-after-the-log-group",
        ALL,
        ("Cluster *",),
        ("LogGroup control-plane-logs",),
        "enabledClusterLogTypes",
        "the same, for the aws.eks.Cluster inside pulumi-eks's component, which receives this input unchanged",
    ),
    Ordering(
        "coredns-after-the-system-nodes",
        ALL,
        ("Addon coredns",),
        ("NodeGroup system",),
        DEPENDS_ON,
        "CoreDNS is a Deployment: created before any node, the add-on waits for pods that cannot run",
    ),
    Ordering(
        "node-monitoring-agent-after-the-system-nodes",
        NODE_GROUP_STACKS + ("karpenter",),
        ("Addon node-monitoring-agent",),
        ("NodeGroup system",),
        DEPENDS_ON,
        "the agent is a DaemonSet; its add-on reports healthy only once it runs on nodes",
    ),
    Ordering(
        "pod-identity-agent-after-the-system-nodes",
        NODE_GROUP_STACKS + ("karpenter",),
        ("Addon pod-identity-agent",),
        ("NodeGroup system",),
        DEPENDS_ON,
        "the agent is a DaemonSet; its add-on reports healthy only once it runs on nodes",
    ),
)

AUTOSCALER = (
    Ordering(
        "cluster-autoscaler-after-its-credentials",
        NODE_GROUP_STACKS,
        ("Deployment autoscaler-deployment",),
        ("PodIdentityAssociation autoscaler-pod-identity", "ServiceAccount autoscaler-sa"),
        DEPENDS_ON,
        CREDENTIALS + "; the ReplicaSet cannot create a pod whose ServiceAccount does not exist",
    ),
    Ordering(
        "cluster-autoscaler-after-the-pod-identity-agent",
        NODE_GROUP_STACKS,
        ("Deployment autoscaler-deployment",),
        ("Addon pod-identity-agent",),
        DEPENDS_ON,
        AGENT,
    ),
    Ordering(
        "cluster-autoscaler-association-after-its-policy",
        NODE_GROUP_STACKS,
        ("PodIdentityAssociation autoscaler-pod-identity",),
        ("RolePolicy autoscaler-scaling",),
        DEPENDS_ON,
        "credentials without their policy would have the autoscaler's first scaling calls denied",
    ),
    Ordering(
        "autoscaler-cluster-role-binding-after-its-role",
        NODE_GROUP_STACKS,
        ("ClusterRoleBinding autoscaler-clusterrolebinding",),
        ("rbac.authorization.k8s.io/v1:ClusterRole autoscaler-clusterrole",),
        DEPENDS_ON,
        "a binding to a role not yet there grants nothing until it appears; deleted first, no binding dangles",
    ),
    Ordering(
        "autoscaler-role-binding-after-its-role",
        NODE_GROUP_STACKS,
        ("RoleBinding autoscaler-rolebinding",),
        ("rbac.authorization.k8s.io/v1:Role autoscaler-role",),
        DEPENDS_ON,
        "the same, inside kube-system",
    ),
)

SERVER = (
    Ordering(
        "vllm-server-after-its-node-group-pool",
        NODE_GROUP_STACKS,
        ("VllmServer vllm",),
        ("NodeGroup gpu", "LaunchTemplate gpu-lt", "Tag gpu-ca-*"),
        DEPENDS_ON,
        "the rollout's wait starts when the Deployment is created; and the autoscaler scales a group from zero only "
        "from its node-template tags, so a pod pending before them waits for nothing",
    ),
    Ordering(
        "vllm-objects-after-their-namespace",
        ALL,
        tuple(f"{kind} vllm-{suffix}" for kind, suffix in SERVER_OBJECTS),
        ("Namespace vllm-ns",),
        DEPENDS_ON,
        "the API server refuses an object in a namespace that does not exist",
    ),
    Ordering(
        "vllm-pods-after-their-service-account",
        ALL,
        ("Deployment vllm-deployment",),
        ("ServiceAccount vllm-sa",),
        DEPENDS_ON,
        "the ReplicaSet cannot create a pod whose ServiceAccount does not exist",
    ),
    Ordering(
        "vllm-secrets-and-claim-after-their-namespace",
        ("secrets",),
        ("Secret vllm-hf-token", "Secret vllm-api-key", "PersistentVolumeClaim vllm-model-cache"),
        ("Namespace vllm-ns",),
        DEPENDS_ON,
        "the API server refuses an object in a namespace that does not exist",
    ),
    Ordering(
        "vllm-pods-after-their-secrets-and-claim",
        ("secrets",),
        ("Deployment vllm-deployment",),
        ("Secret vllm-hf-token", "Secret vllm-api-key", "PersistentVolumeClaim vllm-model-cache"),
        DEPENDS_ON,
        "a container whose env names a missing Secret stays in CreateContainerConfigError, a pod whose claim is "
        "missing stays Pending, while the rollout's wait runs",
    ),
)

S3_WEIGHTS = (
    Ordering(
        "bucket-settings-after-the-bucket",
        ("s3Seeded",),
        (
            "BucketPublicAccessBlock vllm-weights",
            "BucketOwnershipControls vllm-weights",
            "BucketServerSideEncryptionConfiguration vllm-weights",
            "BucketVersioning vllm-weights",
        ),
        ("Bucket vllm-weights",),
        DEPENDS_ON,
        "each configures the bucket and is deleted before it",
    ),
    Ordering(
        "weights-reader-association-after-its-read-policy",
        ("s3Seeded",),
        ("PodIdentityAssociation vllm-weights-pod-identity",),
        ("RolePolicy vllm-weights-read",),
        DEPENDS_ON,
        "the server's pods wait for the association: credentials without the policy would have the streamer's first "
        "reads denied",
    ),
    Ordering(
        "weights-copy-association-after-its-write-policy",
        ("s3Seeded",),
        ("PodIdentityAssociation vllm-weights-copy-pod-identity",),
        ("RolePolicy vllm-weights-write",),
        DEPENDS_ON,
        "the copy Job waits for the association: credentials without the policy would have its uploads denied",
    ),
    Ordering(
        "vllm-pods-after-their-s3-credentials",
        ("s3Seeded",),
        ("Deployment vllm-deployment",),
        ("PodIdentityAssociation vllm-weights-pod-identity", "Addon pod-identity-agent"),
        DEPENDS_ON,
        CREDENTIALS + "; " + AGENT,
    ),
    Ordering(
        "weights-copy-after-its-credentials",
        ("s3Seeded",),
        ("Job vllm-weights-copy",),
        (
            "PodIdentityAssociation vllm-weights-copy-pod-identity",
            "ServiceAccount vllm-weights-copy-sa",
            "Addon pod-identity-agent",
        ),
        DEPENDS_ON,
        CREDENTIALS + "; " + AGENT,
    ),
    Ordering(
        "compile-cache-program-after-its-namespace",
        ("s3Seeded",),
        ("ConfigMap vllm-compile-cache-script",),
        ("Namespace vllm-ns",),
        DEPENDS_ON,
        "the API server refuses an object in a namespace that does not exist",
    ),
    Ordering(
        "vllm-pods-after-their-compile-cache-grant-and-program",
        ("s3Seeded",),
        ("Deployment vllm-deployment",),
        ("RolePolicy vllm-compile-cache-access", "ConfigMap vllm-compile-cache-script"),
        DEPENDS_ON,
        "the restore mounts its program from the ConfigMap (missing, the pod stays ContainerCreating), and a restore "
        "or save before the grant is denied, a cold start for nothing",
    ),
    Ordering(
        "weights-copy-after-its-program-and-network-policy",
        ("s3Seeded",),
        ("Job vllm-weights-copy",),
        ("ConfigMap vllm-weights-copy-script", "NetworkPolicy vllm-weights-copy-netpol"),
        DEPENDS_ON,
        "the pod mounts its program from the ConfigMap (missing, it stays ContainerCreating), and never runs "
        "outside the egress its policy allows",
    ),
    Ordering(
        "weights-copy-after-what-the-server-needs",
        ("s3Seeded",),
        (
            "Job vllm-weights-copy",
            "ConfigMap vllm-weights-copy-script",
            "ServiceAccount vllm-weights-copy-sa",
            "NetworkPolicy vllm-weights-copy-netpol",
        ),
        (
            "Namespace vllm-ns",
            "Secret vllm-hf-token",
            "ServiceAccount vllm-sa",
            "PodIdentityAssociation vllm-weights-pod-identity",
            "Addon pod-identity-agent",
        ),
        DEPENDS_ON,
        "they live in the server's namespace and the Job reads the server's token Secret; the rest of the server's "
        "needs comes along with the list (components/vllm/weights.py `needs`)",
    ),
)

AUTOSCALING_AND_MONITORING = (
    Ordering(
        "keda-after-its-namespace",
        ("kedaAmp", "prometheusInstalled"),
        ("Release keda-release",),
        ("Namespace keda-ns",),
        DEPENDS_ON,
        "the release installs into the namespace the stack creates, with its Pod Security labels",
    ),
    Ordering(
        "keda-after-its-query-credentials",
        ("kedaAmp",),
        ("Release keda-release",),
        ("PodIdentityAssociation keda-pod-identity", "RolePolicy keda-query", "Addon pod-identity-agent"),
        DEPENDS_ON,
        CREDENTIALS + "; without the policy or the agent its SigV4 queries to the workspace fail",
    ),
    Ordering(
        "keda-objects-after-kedas-crds",
        ("kedaAmp",),
        ("ScaledObject vllm-scaler", "TriggerAuthentication vllm-scaler-auth"),
        ("Release keda-release",),
        "metadata",
        "ScaledObject and TriggerAuthentication are custom resources of the CRDs KEDA's release installs",
    ),
    Ordering(
        "scaled-object-after-kedas-crds",
        ("prometheusInstalled",),
        ("ScaledObject vllm-scaler",),
        ("Release keda-release",),
        "metadata",
        "a ScaledObject is a custom resource of the CRDs KEDA's release installs",
    ),
    Ordering(
        "scaled-object-after-its-target-and-authentication",
        ("kedaAmp",),
        ("ScaledObject vllm-scaler",),
        ("Deployment vllm-deployment", "TriggerAuthentication vllm-scaler-auth", "Namespace vllm-ns"),
        DEPENDS_ON,
        "KEDA's first reconcile finds the Deployment it scales and the authentication its trigger names",
    ),
    Ordering(
        "trigger-authentication-after-its-namespace",
        ("kedaAmp",),
        ("TriggerAuthentication vllm-scaler-auth",),
        ("Namespace vllm-ns",),
        DEPENDS_ON,
        "the API server refuses an object in a namespace that does not exist",
    ),
    Ordering(
        "scaled-object-after-its-target",
        ("prometheusInstalled",),
        ("ScaledObject vllm-scaler",),
        ("Deployment vllm-deployment", "Namespace vllm-ns"),
        DEPENDS_ON,
        "KEDA's first reconcile finds the Deployment it scales",
    ),
    Ordering(
        "prometheus-stack-after-its-namespace",
        ("prometheusInstalled",),
        ("Release prometheus-release", "NetworkPolicy prometheus-netpol"),
        ("Namespace prometheus-ns",),
        DEPENDS_ON,
        "the release installs into the namespace the stack creates, labelled to admit the node exporter's host access",
    ),
    Ordering(
        "monitors-after-the-prometheus-stack",
        ("prometheusInstalled",),
        ("PrometheusMonitors monitors",),
        ("Release prometheus-release", "Namespace prometheus-ns", "NetworkPolicy prometheus-netpol"),
        DEPENDS_ON,
        "ServiceMonitors and PrometheusRules are custom resources of the CRDs kube-prometheus-stack installs",
    ),
)

QUEUE_RESULTS = "Bucket vllm-queue-results"
QUEUE_RESULTS_SETTINGS = (
    "BucketPublicAccessBlock vllm-queue-results",
    "BucketOwnershipControls vllm-queue-results",
    "BucketServerSideEncryptionConfiguration vllm-queue-results",
    "BucketVersioning vllm-queue-results",
)
QUEUE = (
    Ordering(
        "queue-results-settings-after-their-bucket",
        ("warmQueue",),
        QUEUE_RESULTS_SETTINGS,
        (QUEUE_RESULTS,),
        DEPENDS_ON,
        "each configures the results bucket and is deleted before it",
    ),
    Ordering(
        "queue-consumer-program-after-its-namespace",
        ("warmQueue",),
        ("ConfigMap vllm-queue-script",),
        ("Namespace vllm-ns",),
        DEPENDS_ON,
        "the API server refuses an object in a namespace that does not exist",
    ),
    Ordering(
        "vllm-pods-after-their-queue-credentials",
        ("warmQueue",),
        ("Deployment vllm-deployment",),
        ("PodIdentityAssociation vllm-queue-pod-identity", "RolePolicy vllm-queue-consumer"),
        DEPENDS_ON,
        CREDENTIALS + "; and the consumer receives at once, so a grant that is not there yet fails its first calls",
    ),
    Ordering(
        "vllm-pods-after-their-queue-and-results",
        ("warmQueue",),
        ("Deployment vllm-deployment",),
        (
            "Queue vllm-queue-requests",
            "Queue vllm-queue-dead-letter",
            "QueuePolicy vllm-queue-*",
            "RolePolicy vllm-queue-keda-read",
            "ConfigMap vllm-queue-script",
            QUEUE_RESULTS,
            *QUEUE_RESULTS_SETTINGS,
            "BucketLifecycleConfiguration vllm-queue-results-expiry",
        ),
        DEPENDS_ON,
        "the consumer mounts its program from the ConfigMap (missing, the pod stays ContainerCreating), then "
        "receives from the queue and writes into the results bucket; the scaler reads the queue with its grant",
    ),
)

ORDERINGS = (
    NETWORK_AND_CLUSTER
    + AUTOSCALER
    + SERVER
    + S3_WEIGHTS
    + QUEUE
    + KARPENTER
    + AUTO_MODE
    + WARM_NODES
    + AUTOSCALING_AND_MONITORING
    + FLEET
)
