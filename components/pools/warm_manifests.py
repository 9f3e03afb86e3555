"""Warm GPU nodes (`warmNodes` of a pool): placeholder pods that hold nodes for the pool's servers, pure builders.

A placeholder requests every GPU of a node, tolerates the pool's taints and selects its labels, so each one keeps
one node of the pool running. Its PriorityClass is below every workload's (the servers set none, so theirs is 0) and
not below the Cluster Autoscaler's expendable cutoff, -10 by default, which the stack does not change: "Pods with
priority below cutoff will be expendable ... they don't cause scale up" (kubernetes/autoscaler
cluster-autoscaler/config/flags/flags.go at cluster-autoscaler-1.36.1, `expendable-pods-priority-cutoff`, -10;
core/utils/expendable.go: expendable when `priority < cutoff`). At -10 exactly a placeholder still asks the autoscaler
for a node and keeps it from scaling the node in, and any pod of priority 0 or more preempts it: the FAQ's own
overprovisioning class (cluster-autoscaler/FAQ.md at that tag, "How can I configure overprovisioning with Cluster
Autoscaler?": "Priority -10 will be reserved for overprovisioning pods as it is the lowest priority that triggers
scaling clusters. Other pods need to use priority 0 or higher in order to be able to preempt overprovisioning
pods"). Karpenter provisions for any pending pod whatever its priority.

The placeholder runs the pinned vLLM image (facts/versions.py), so the warm node has pulled it, but only a shell
that waits: it never opens a GPU. On SIGTERM it exits at once, and its grace period bounds what a preempting server
waits for it (Kubernetes docs, Pod Priority and Preemption: "the victims ... get their graceful termination period").
Once preempted it is pending again and asks for the next node, so the pool keeps `warmNodes` nodes free while
servers grow into it.
"""

from __future__ import annotations

from ..facts import versions
from ..facts.contract import NVIDIA_GPU_RESOURCE, PlacementContract
from ..kube.labels import checkov_annotations, selector_labels, standard_labels
from ..kube.security_context import locked_down

PLACEHOLDER_PRIORITY = -10
"""The placeholders' priority: the Cluster Autoscaler's default expendable cutoff, the lowest that still scales up
and holds a node (the module's docstring)."""
NAMESPACE = "default"
"""Where the placeholders run: a namespace every cluster has, as in the autoscaler FAQ's overprovisioning example."""
GRACE_SECONDS = 1
"""The placeholders' termination grace period: a preempting server waits at most this for the GPUs."""
WAIT_COMMAND = ["/bin/sh", "-c", "trap 'exit 0' TERM; sleep infinity & wait"]
"""The placeholder's process: a shell that waits without touching a GPU and exits at once on SIGTERM (a plain
`sleep` as PID 1 would ignore SIGTERM and wait for the kill at the end of the grace period)."""
RESOURCES_CPU_MEMORY = {"cpu": "10m", "memory": "16Mi"}
APP = "warm-node-placeholder"
CHECKOV_SKIPS = {
    "CKV_K8S_8": "the placeholder serves nothing to probe; it only holds a node",
    "CKV_K8S_9": "the placeholder serves nothing; it is never behind a Service",
    "CKV_K8S_43": "the image is pinned to a release tag (facts/versions.py), the same the servers run",
    "CKV_K8S_15": "a pinned release tag of a ~12 GB image need not be pulled again",
    "CKV_K8S_40": f"the image's vllm user is UID {versions.VLLM_USER_ID}",
}


def priority_class_name(pool_name: str) -> str:
    """The pool's placeholders' PriorityClass: one per pool, so pools register no object twice."""
    return f"{pool_name}-warm"


def priority_class(pool_name: str) -> dict:
    """The PriorityClass of the pool's placeholders: `PLACEHOLDER_PRIORITY`, never a default, never preempting."""
    return {
        "apiVersion": "scheduling.k8s.io/v1",
        "kind": "PriorityClass",
        "metadata": {"name": priority_class_name(pool_name), "labels": _labels(pool_name)},
        "value": PLACEHOLDER_PRIORITY,
        "globalDefault": False,
        # A placeholder waits for a node rather than evicting anything to get one.
        "preemptionPolicy": "Never",
        "description": f"Placeholders holding warm GPU nodes of pool {pool_name}; every server preempts them.",
    }


def placeholders(
    pool_name: str,
    warm_nodes: int,
    gpus_per_node: int,
    contract: PlacementContract,
    node_labels: dict[str, str],
    image: str = versions.VLLM_IMAGE,
) -> dict:
    """The Deployment of `warm_nodes` placeholders, each requesting `gpus_per_node` GPUs on a node carrying
    `node_labels` (the pool's own) and tolerating the contract's taints."""
    labels = _labels(pool_name)
    gpus = {NVIDIA_GPU_RESOURCE: str(gpus_per_node)}
    container = {
        "name": "placeholder",
        "image": image,
        "command": WAIT_COMMAND,
        "resources": {"requests": {**RESOURCES_CPU_MEMORY, **gpus}, "limits": {**RESOURCES_CPU_MEMORY, **gpus}},
        "securityContext": locked_down(
            runAsNonRoot=True,
            runAsUser=versions.VLLM_USER_ID,
            runAsGroup=versions.VLLM_GROUP_ID,
            seccompProfile={"type": "RuntimeDefault"},
        ),
    }
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": f"{pool_name}-warm",
            "namespace": NAMESPACE,
            "labels": labels,
            # Pending placeholders wait minutes for their nodes: Pulumi does not wait for them to be ready
            # (pulumi-kubernetes, the `pulumi.com/skipAwait` annotation).
            "annotations": {**checkov_annotations(CHECKOV_SKIPS), "pulumi.com/skipAwait": "true"},
        },
        "spec": {
            "replicas": warm_nodes,
            "selector": {"matchLabels": selector_labels(labels)},
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "priorityClassName": priority_class_name(pool_name),
                    "terminationGracePeriodSeconds": GRACE_SECONDS,
                    "automountServiceAccountToken": False,
                    "nodeSelector": dict(node_labels),
                    "tolerations": contract.tolerations(),
                    "containers": [container],
                },
            },
        },
    }


def _labels(pool_name: str) -> dict[str, str]:
    return standard_labels(app=APP, instance=pool_name, component="placeholder", version=versions.VLLM_VERSION)
