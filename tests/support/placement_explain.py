"""From tests/placement/test_placement_explain.py, what other test modules use too: `CPU_NODE`, `GPU_NODE`, `daemonset`, `pod`, `with_taints` and what they
need."""

from __future__ import annotations

import copy

GPU_TAINT = {"key": "GPU", "value": "true", "effect": "NoSchedule"}


GPU_NODE = {
    "metadata": {"name": "gpu-0", "labels": {"GPU": "true", "nvidia.com/gpu.present": "true"}},
    "spec": {"taints": [GPU_TAINT]},
    "status": {"allocatable": {"cpu": "3920m", "memory": "15391Mi", "pods": "58", "nvidia.com/gpu": "1"}},
}


CPU_NODE = {
    "metadata": {"name": "system-0", "labels": {"kubernetes.io/os": "linux"}},
    "spec": {},
    "status": {"allocatable": {"cpu": "1930m", "memory": "7518Mi", "pods": "29"}},
}


def pod(tolerations=(), node_selector=None, requests=None, limits=None):
    resources = {}
    if requests:
        resources["requests"] = requests
    if limits:
        resources["limits"] = limits
    spec = {"containers": [{"name": "c", "image": "x", "resources": resources}], "tolerations": list(tolerations)}
    if node_selector:
        spec["nodeSelector"] = node_selector
    return {"metadata": {"name": "p", "namespace": "default"}, "spec": spec}


def with_taints(node, *taints, unschedulable=None):
    result = copy.deepcopy(node)
    result["spec"]["taints"] = list(taints)
    if unschedulable is not None:
        result["spec"]["unschedulable"] = unschedulable
    return result


def daemonset(tolerations=(), host_network=False):
    spec = {
        "containers": [{"name": "c", "image": "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"}],
        "tolerations": list(tolerations),
    }
    if host_network:
        spec["hostNetwork"] = True
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "plugin", "namespace": "kube-system"},
        "spec": {"selector": {}, "template": {"metadata": {"labels": {"app": "plugin"}}, "spec": spec}},
    }
