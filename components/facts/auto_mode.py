"""What EKS Auto Mode is and does, as the settings, the components and the placement model read it.

Sources, read 2026-12-02 (awsdocs/amazon-eks-user-guide, the EKS user guide's source; the commit each page was
read at is named beside its facts):
- latest/ug/automode/create-node-pool.adoc (0138560): the NodePool is Karpenter's `karpenter.sh/v1` NodePool with
  `nodeClassRef` `eks.amazonaws.com` / `NodeClass`; "EKS Auto Mode Supported Labels"; a cluster without built-in
  node pools is created with both `nodePools` and `nodeRoleArn` empty, and then needs a custom NodeClass with a
  node role and an access entry for it; Auto Mode's default expiry (336 hours) and disruption follow Karpenter's.
- latest/ug/automode/create-node-class.adoc (0026c9d): the NodeClass fields (`role`, `subnetSelectorTerms`,
  `securityGroupSelectorTerms`, `ephemeralStorage`, `tags`, ...); a custom NodeClass's role needs an access entry
  of type `EC2` with the `AmazonEKSAutoNodePolicy` access policy, cluster scope; never name it `default`.
- latest/ug/automode/auto-accelerated.adoc (031299c): Auto Mode includes the NVIDIA drivers and the NVIDIA device
  plugin, "not visible as a daemon set within your cluster".
- latest/ug/automode/associate-workload.adoc (0f7b1f3): Auto Mode nodes carry `eks.amazonaws.com/compute-type:
  auto`; a workload kept off them uses a `NotIn [auto]` node affinity.
- latest/ug/automode/automode-learn-instances.adoc (06faff1): the instance families Auto Mode launches.
- latest/ug/automode/automode.adoc (4d52b4d): nodes live 21 days at most.
- https://docs.aws.amazon.com/eks/latest/userguide/node-health.html: the node monitoring agent and node auto
  repair "are automatically enabled with EKS Auto Mode compute".
- latest/ug/automode/auto-cluster-iam-role (https://docs.aws.amazon.com/eks/latest/userguide/auto-cluster-iam-role.html):
  the cluster role's managed policies; pulumi/pulumi-eks nodejs/eks/cluster/cluster.ts (7bf0c1b1, 2026-08-12)
  attaches the same four beside AmazonEKSClusterPolicy and trusts with `sts:TagSession`.
Standard library only.
"""

from __future__ import annotations

PROVISIONER = "autoMode"
"""A pool's provisioner when EKS Auto Mode launches its nodes."""
NODE_CLASS_API_VERSION = "eks.amazonaws.com/v1"
NODE_CLASS_GROUP = "eks.amazonaws.com"
NODE_CLASS_KIND = "NodeClass"

COMPUTE_TYPE_LABEL = "eks.amazonaws.com/compute-type"
COMPUTE_TYPE = "auto"
"""Every Auto Mode node's `eks.amazonaws.com/compute-type`."""
INSTANCE_FAMILY_LABEL = "eks.amazonaws.com/instance-family"
INSTANCE_GPU_COUNT_LABEL = "eks.amazonaws.com/instance-gpu-count"
INSTANCE_GPU_MANUFACTURER_LABEL = "eks.amazonaws.com/instance-gpu-manufacturer"

NOT_ON_AUTO_MODE_NODES = {"key": COMPUTE_TYPE_LABEL, "operator": "NotIn", "values": [COMPUTE_TYPE]}
"""The node selector expression that keeps a pod off Auto Mode nodes (and matches a node without the label)."""

# The accelerated families Auto Mode launches ("Accelerated Computing (P/G/Inf/Trn)"; the NVIDIA ones).
GPU_FAMILIES = frozenset(
    {"p6-b200", "p6-b300", "p5", "p5e", "p5en", "p4d", "p4de", "p3dn", "g7e", "g6", "gr6", "g6e", "g5g", "g5", "g4dn"}
)

# The cluster IAM role's managed policies for Auto Mode, beside AmazonEKSClusterPolicy.
CLUSTER_ROLE_POLICIES = (
    "AmazonEKSComputePolicy",
    "AmazonEKSBlockStoragePolicy",
    "AmazonEKSLoadBalancingPolicy",
    "AmazonEKSNetworkingPolicy",
)
# The node role's managed policies: the ones pulumi-eks gives the node role it creates for Auto Mode
# (cluster.ts, `${name}-nodeRole`), which the user guide's node IAM role page names too.
NODE_ROLE_POLICIES = ("AmazonEKSWorkerNodeMinimalPolicy", "AmazonEC2ContainerRegistryPullOnly")
ACCESS_ENTRY_TYPE = "EC2"
NODE_ACCESS_POLICY = "AmazonEKSAutoNodePolicy"

# The NodeClass fields create-node-class.adoc documents ("Node Class Specification"); no CRD schema of
# eks.amazonaws.com/v1 NodeClass is published, so what the stack renders is checked against these.
NODE_CLASS_SPEC_FIELDS = frozenset(
    {
        "role",
        "subnetSelectorTerms",
        "securityGroupSelectorTerms",
        "snatPolicy",
        "networkPolicy",
        "networkPolicyEventLogs",
        "ephemeralStorage",
        "advancedNetworking",
        "certificateBundles",
        "tags",
    }
)
NODE_CLASS_REQUIRED_FIELDS = ("role", "subnetSelectorTerms", "securityGroupSelectorTerms")
EPHEMERAL_STORAGE_FIELDS = frozenset({"size", "iops", "throughput", "kmsKeyID"})
SELECTOR_TERM_FIELDS = frozenset({"id", "tags", "name"})
# Tag keys a NodeClass may not set (the same page's comment on `tags`).
RESTRICTED_TAG_PREFIXES = ("kubernetes.io/cluster/", "karpenter.sh/", "eks.amazonaws.com/nodeclass")
RESERVED_NODE_CLASS_NAME = "default"
# The documented ephemeral storage range in GiB (`size`, 1-59000Gi).
EPHEMERAL_STORAGE_GIB = (1, 59000)
MAX_NODE_LIFETIME_HOURS = 21 * 24


def supports(instance_type: str) -> bool:
    """Whether Auto Mode launches `instance_type` (its family is among the accelerated families it supports)."""
    return instance_type.split(".", 1)[0] in GPU_FAMILIES


def off_auto_mode_nodes(pod_spec: dict) -> dict:
    """`pod_spec` kept off Auto Mode nodes: `NOT_ON_AUTO_MODE_NODES` in every required node selector term (a term of
    its own when there is none), so a DaemonSet of our own does not double up what Auto Mode runs there."""
    spec = dict(pod_spec)
    affinity = dict(spec.get("affinity") or {})
    node_affinity = dict(affinity.get("nodeAffinity") or {})
    required = dict(node_affinity.get("requiredDuringSchedulingIgnoredDuringExecution") or {})
    terms = [dict(term) for term in required.get("nodeSelectorTerms") or [{}]]
    for term in terms:
        term["matchExpressions"] = [*term.get("matchExpressions", []), dict(NOT_ON_AUTO_MODE_NODES)]
    required["nodeSelectorTerms"] = terms
    node_affinity["requiredDuringSchedulingIgnoredDuringExecution"] = required
    affinity["nodeAffinity"] = node_affinity
    spec["affinity"] = affinity
    return spec
