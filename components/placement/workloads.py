"""Workloads as the pods they create: DaemonSet defaults, templates, the device plugin marker."""

from __future__ import annotations

import copy

# How gpu_guard recognises the NVIDIA device plugin DaemonSet: either marker suffices.
from ..facts.markers import DEVICE_PLUGIN_IMAGE_MARKER, DEVICE_PLUGIN_LABEL_KEY, DEVICE_PLUGIN_LABEL_VALUE
from .taints import NO_EXECUTE, NO_SCHEDULE, UNSCHEDULABLE_TAINT_KEY

# upstream: pkg/controller/daemon/util.AddOrUpdateDaemonPodTolerations.
DAEMONSET_DEFAULT_TOLERATIONS = (
    {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": NO_EXECUTE},
    {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": NO_EXECUTE},
    {"key": "node.kubernetes.io/disk-pressure", "operator": "Exists", "effect": NO_SCHEDULE},
    {"key": "node.kubernetes.io/memory-pressure", "operator": "Exists", "effect": NO_SCHEDULE},
    {"key": "node.kubernetes.io/pid-pressure", "operator": "Exists", "effect": NO_SCHEDULE},
    {"key": UNSCHEDULABLE_TAINT_KEY, "operator": "Exists", "effect": NO_SCHEDULE},
)
DAEMONSET_HOST_NETWORK_TOLERATION = {
    "key": "node.kubernetes.io/network-unavailable",
    "operator": "Exists",
    "effect": NO_SCHEDULE,
}

# Where each workload kind keeps its pod template.
_TEMPLATE_PATHS = {
    "Deployment": ("spec", "template"),
    "ReplicaSet": ("spec", "template"),
    "ReplicationController": ("spec", "template"),
    "StatefulSet": ("spec", "template"),
    "DaemonSet": ("spec", "template"),
    "Job": ("spec", "template"),
    "CronJob": ("spec", "jobTemplate", "spec", "template"),
}
WORKLOAD_KINDS = ("Pod", *_TEMPLATE_PATHS)


def daemonset_pod(daemonset: dict) -> dict:
    """The pod the DaemonSet controller creates from `spec.template`, default tolerations added.

    Adds Exists tolerations for not-ready and unreachable (NoExecute) and for
    disk-pressure, memory-pressure, pid-pressure and unschedulable (NoSchedule),
    plus network-unavailable (NoSchedule) with `hostNetwork`; a toleration with
    the same key, operator, value and effect is replaced, as upstream does. The
    per-node `metadata.name` affinity the controller also adds is left out: a
    pool's node template stands for every node. The input is not modified.
    """
    pod = _template_pod(daemonset, ("spec", "template"))
    spec = pod["spec"]
    defaults = list(DAEMONSET_DEFAULT_TOLERATIONS)
    if spec.get("hostNetwork"):
        defaults.append(DAEMONSET_HOST_NETWORK_TOLERATION)
    tolerations = list(spec.get("tolerations") or ())
    for toleration in defaults:
        same = [i for i, t in enumerate(tolerations) if _same_toleration(t, toleration)]
        # upstream: v1helper.AddOrUpdateTolerationInPodSpec overwrites a matching
        # toleration in place (dropping e.g. its tolerationSeconds) or appends.
        for i in same:
            tolerations[i] = dict(toleration)
        if not same:
            tolerations.append(dict(toleration))
    spec["tolerations"] = tolerations
    return pod


def pod_of(workload: dict) -> dict:
    """The pod `workload` runs: a Pod itself, a DaemonSet's via daemonset_pod, any other kind's template.

    Supported kinds: Pod, Deployment, ReplicaSet, ReplicationController,
    StatefulSet, DaemonSet, Job, CronJob. The pod takes the workload's name and
    namespace. Raises ValueError for another kind or a missing template.
    """
    kind = workload.get("kind")
    if kind == "Pod":
        return workload
    if kind == "DaemonSet":
        return daemonset_pod(workload)
    if kind in _TEMPLATE_PATHS:
        return _template_pod(workload, _TEMPLATE_PATHS[kind])
    raise ValueError(
        f"unsupported workload kind {kind!r} for {workload_id(workload)}; supported: {', '.join(WORKLOAD_KINDS)}"
    )


def workload_id(workload: dict) -> str:
    """`namespace/name` of a workload; the namespace defaults to `default`."""
    metadata = workload.get("metadata") or {}
    return f"{metadata.get('namespace') or 'default'}/{metadata.get('name') or '<unnamed>'}"


def is_device_plugin(workload: dict) -> bool:
    """Whether `workload` is the NVIDIA device plugin DaemonSet.

    True for a DaemonSet with a container image containing
    DEVICE_PLUGIN_IMAGE_MARKER, or labelled DEVICE_PLUGIN_LABEL_KEY:
    DEVICE_PLUGIN_LABEL_VALUE (on the DaemonSet or its pod template).
    """
    if workload.get("kind") != "DaemonSet":
        return False
    template = (workload.get("spec") or {}).get("template") or {}
    for metadata in (workload.get("metadata") or {}, template.get("metadata") or {}):
        if (metadata.get("labels") or {}).get(DEVICE_PLUGIN_LABEL_KEY) == DEVICE_PLUGIN_LABEL_VALUE:
            return True
    spec = template.get("spec") or {}
    containers = [*(spec.get("containers") or ()), *(spec.get("initContainers") or ())]
    return any(DEVICE_PLUGIN_IMAGE_MARKER in (c.get("image") or "") for c in containers)


def _template_pod(workload: dict, path: tuple[str, ...]) -> dict:
    template: dict | None = workload
    for step in path:
        template = (template or {}).get(step)
    if not template:
        raise ValueError(f"{workload.get('kind')} {workload_id(workload)} has no pod template at {'.'.join(path)}")
    metadata = copy.deepcopy(template.get("metadata") or {})
    owner = workload.get("metadata") or {}
    metadata["name"] = owner.get("name") or metadata.get("name") or "<unnamed>"
    metadata["namespace"] = owner.get("namespace") or "default"
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": copy.deepcopy(template.get("spec") or {})}


def _same_toleration(a: dict, b: dict) -> bool:
    # upstream: Toleration.MatchToleration compares key, operator, value and effect.
    return all((a.get(field) or "") == (b.get(field) or "") for field in ("key", "operator", "value", "effect"))
