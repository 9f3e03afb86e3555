"""The orderings of the GPU pools' provisioners (Karpenter, EKS Auto Mode) and of the fleet's pools; part of the table
of tests/support/ordering_table.py."""

from __future__ import annotations

from tests.support.orderings import AGENT, CREDENTIALS, DEPENDS_ON, PRIVATE_ROUTING, SERVER_OBJECTS, Ordering

KARPENTER = (
    Ordering(
        "karpenter-controller-after-its-crds",
        ("karpenter",),
        ("Release karpenter-release",),
        ("Release karpenter-crd-release",),
        DEPENDS_ON,
        "the controller's release skips its CRDs (the karpenter-crd release installs them) and the controller "
        "watches NodePools, EC2NodeClasses and NodeClaims from its first start",
    ),
    Ordering(
        "karpenter-controller-after-its-credentials",
        ("karpenter",),
        ("Release karpenter-release",),
        ("PodIdentityAssociation karpenter-pod-identity", "RolePolicy karpenter-controller"),
        DEPENDS_ON,
        CREDENTIALS + "; without its policy it can neither launch nor terminate a node",
    ),
    Ordering(
        "karpenter-controller-after-coredns",
        ("karpenter",),
        ("Release karpenter-release",),
        ("Addon coredns",),
        DEPENDS_ON,
        "the controller reads the kube-dns Service's IP once when it starts and goes on without it when CoreDNS is "
        "not there yet (karpenter-provider-aws v1.14.1 pkg/operator/operator.go, `KubeDNSIP`)",
    ),
    Ordering(
        "karpenter-controller-after-the-pod-identity-agent",
        ("karpenter",),
        ("Release karpenter-release",),
        ("Addon pod-identity-agent",),
        DEPENDS_ON,
        AGENT,
    ),
    Ordering(
        "karpenter-controller-after-its-nodes-can-join",
        ("karpenter",),
        ("Release karpenter-release",),
        ("AccessEntry karpenter-node-access", "RolePolicyAttachment karpenter-node-*"),
        DEPENDS_ON,
        "a node launched before its role's access entry and policies never joins, and Karpenter replaces it "
        "after its registration timeout",
    ),
    Ordering(
        "karpenter-pools-after-the-controller",
        ("karpenter",),
        ("KarpenterNodePool gpu",),
        ("Release karpenter-release",),
        DEPENDS_ON,
        "the pool's NodePool and EC2NodeClass are custom resources of the CRDs the releases install",
    ),
    Ordering(
        "karpenter-pools-after-their-fast-snapshot-restores",
        ("karpenter",),
        ("KarpenterNodePool gpu",),
        ("FastSnapshotRestore fsr-*",),
        DEPENDS_ON,
        "a node launched while the snapshot's restore is still enabling reads its image volume lazily from S3, the "
        "slow start the plan counts out with fastSnapshotRestore",
    ),
    Ordering(
        "karpenter-node-pool-after-its-node-class",
        ("karpenter",),
        ("NodePool gpu-node-pool",),
        ("EC2NodeClass gpu-node-class",),
        DEPENDS_ON,
        "a NodePool whose node class is missing is not ready and launches nothing; deleted first, no pool is left "
        "naming a class that is gone",
    ),
    Ordering(
        "vllm-server-after-its-karpenter-pool",
        ("karpenter",),
        ("VllmServer vllm",),
        ("EC2NodeClass gpu-node-class", "NodePool gpu-node-pool"),
        DEPENDS_ON,
        "Karpenter provisions for pending pods only from a ready NodePool; the rollout's wait starts at creation",
    ),
)

WARM_NODES = (
    Ordering(
        "warm-placeholders-after-their-priority-class",
        ("warmQueue",),
        ("Deployment gpu-warm",),
        ("PriorityClass gpu-warm-priority",),
        DEPENDS_ON,
        "the Priority admission plugin rejects a pod whose priorityClassName does not exist (Kubernetes docs, Pod "
        "Priority and Preemption), so the placeholders would fail to be created and hold no node",
    ),
    Ordering(
        "vllm-server-after-its-pools-warm-nodes",
        ("warmQueue",),
        ("VllmServer vllm",),
        ("Deployment gpu-warm", "PriorityClass gpu-warm-priority"),
        DEPENDS_ON,
        "the server waits for its pool whole (vllm-server-after-its-node-group-pool); with the placeholders there "
        "first, its first pod preempts one on a node that is up and has pulled the image, the start the plan counts "
        "with a warm node",
    ),
    Ordering(
        "node-group-pools-after-their-fast-snapshot-restores",
        ("warmQueue",),
        ("GpuNodeGroup gpu",),
        ("FastSnapshotRestore fsr-*",),
        DEPENDS_ON,
        "a node launched while the snapshot's restore is still enabling reads its image volume lazily from S3, the "
        "slow start the plan counts out with fastSnapshotRestore",
    ),
)

AUTO_MODE = (
    Ordering(
        "auto-mode-node-class-after-its-role-can-join",
        ("autoMode",),
        ("NodeClass gpu-node-class",),
        ("AccessPolicyAssociation auto-mode-node-policy", "RolePolicyAttachment auto-mode-node-*"),
        "spec",
        "EKS Auto Mode launches nodes with the class's role from the start; before its access policy and managed "
        "policies they cannot join (components/pools/auto_mode/nodes.py)",
    ),
    Ordering(
        "auto-mode-node-class-after-the-nat-routes",
        ("autoMode",),
        ("NodeClass gpu-node-class",),
        PRIVATE_ROUTING,
        "spec",
        "the class names the GPU subnets, which resolve once routed: a node there before its NAT route never joins",
    ),
    Ordering(
        "auto-mode-node-pool-after-its-node-class",
        ("autoMode",),
        ("NodePool gpu-node-pool",),
        ("NodeClass gpu-node-class",),
        DEPENDS_ON,
        "a NodePool whose node class is missing is not ready and launches nothing",
    ),
    Ordering(
        "vllm-server-after-its-auto-mode-pool",
        ("autoMode",),
        ("VllmServer vllm",),
        ("NodeClass gpu-node-class", "NodePool gpu-node-pool"),
        DEPENDS_ON,
        "EKS Auto Mode provisions for pending pods only from a ready NodePool; the rollout's wait starts at creation",
    ),
)

# examples/fleet: each model names its pool, `qwen-1-5b` says `auto`: its 1.5B parameters fit every pool's GPU, and
# the cheapest is l4's g6.xlarge ($0.8048/h on demand in us-west-2, against g6e.xlarge's $1.861/h and p5.48xlarge's
# $55.04/h: components/facts/price_table.py, AWS Price List, us-west-2).
FLEET_POOLS = {"vllm-llama-8b": "l4", "vllm-qwen-1-5b": "l4", "vllm-qwen-14b": "l40s", "vllm-llama-70b": "h100"}
FLEET = tuple(
    ordering
    for server, pool in FLEET_POOLS.items()
    for ordering in (
        Ordering(
            f"{server}-after-its-pool-{pool}",
            ("fleet",),
            (f"VllmServer {server}",),
            (f"NodeGroup gpu-{pool}", f"LaunchTemplate gpu-{pool}-lt", f"Tag gpu-{pool}-ca-*"),
            DEPENDS_ON,
            "a server waits for the pool its pods are placed on",
        ),
        Ordering(
            f"{server}-objects-after-their-namespace",
            ("fleet",),
            tuple(f"{kind} {server}-{suffix}" for kind, suffix in SERVER_OBJECTS),
            (f"Namespace {server}-ns",),
            DEPENDS_ON,
            "each server's objects live in its own namespace",
        ),
        Ordering(
            f"{server}-pods-after-their-service-account",
            ("fleet",),
            (f"Deployment {server}-deployment",),
            (f"ServiceAccount {server}-sa",),
            DEPENDS_ON,
            "the ReplicaSet cannot create a pod whose ServiceAccount does not exist",
        ),
    )
)
