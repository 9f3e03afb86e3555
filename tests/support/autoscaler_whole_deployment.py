"""From tests/autoscaling/test_autoscaler_whole_deployment.py, what other test modules use too: `AUTOSCALER`, `STACKS`, `child`, `in_kube_system`, `kubernetes_provider`, `labels`, `selector` and what they
need."""

from __future__ import annotations

from components.facts import resource_types, versions

AUTOSCALER = "eks-gpu-inference:index:ClusterAutoscaler"


K8S_PROVIDER = resource_types.KUBERNETES_PROVIDER


STACKS = {
    "dev": {"cluster": "gpu-inference-dev", "minor": "1.36", "settings": ("least-waste", "30m", "20m", "20m")},
    "other": {"cluster": "inference-prod", "minor": "1.33", "settings": ("most-pods", "15m", "5m", "25m")},
}


def instance(stack: dict) -> str:
    return f"{stack['cluster']}-autoscaler"


def labels(stack: dict) -> dict[str, str]:
    return {
        "app.kubernetes.io/name": "cluster-autoscaler",
        "app.kubernetes.io/instance": instance(stack),
        "app.kubernetes.io/component": "autoscaler",
        "app.kubernetes.io/part-of": "eks-gpu-inference",
        "app.kubernetes.io/managed-by": "pulumi",
        "app.kubernetes.io/version": versions.CLUSTER_AUTOSCALER_VERSIONS[stack["minor"]],
    }


def selector(stack: dict) -> dict[str, str]:
    return {"app.kubernetes.io/name": "cluster-autoscaler", "app.kubernetes.io/instance": instance(stack)}


def in_kube_system(stack: dict) -> dict:
    return {"name": "cluster-autoscaler", "namespace": "kube-system", "labels": labels(stack)}


def child(run, type_: str):
    """The autoscaler's one child of `type_`, checked to be its child."""
    (autoscaler,) = run.of_type(AUTOSCALER)
    (resource,) = [r for r in run.of_type(type_) if r.parent == autoscaler.urn]
    return resource


def kubernetes_provider(run) -> str:
    (provider,) = run.of_type(K8S_PROVIDER)
    return f"{provider.urn}::{provider.id}"
