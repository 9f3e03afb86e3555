"""The GPU metrics exporter in the guard: how to recognise it, and the verdict that it covers exactly the GPU pools.

A GPU exporter (NVIDIA's dcgm-exporter) belongs on every GPU node, where it reads the GPUs, and on no
other node, where it has nothing to read and would only crash-loop on a missing driver. Like the device
plugin it must tolerate the GPU taints and select the GPU label; unlike the plugin it also belongs on GPU
pools whose AMI advertises the GPUs itself (Bottlerocket runs the device plugin, not the exporter).
"""

from __future__ import annotations

from collections.abc import Iterable

# How the guard recognises the exporter DaemonSet: either marker suffices.
from ..facts.markers import DCGM_EXPORTER_IMAGE_MARKER, DCGM_EXPORTER_LABEL_KEY, DCGM_EXPORTER_LABEL_VALUE
from .explain import filter_failures
from .pools import PLACEMENT_FILTERS, gpu_pool_label_hint, pool_gpus
from .verdict import Verdict
from .workloads import pod_of, workload_id

# The verdict's number: after the guard's first five.
DCGM_EXPORTER_VERDICT_ID = 10
DCGM_EXPORTER_VERDICT_NAME = "dcgm-exporter-covers-gpu-pools"


def is_dcgm_exporter(workload: dict) -> bool:
    """Whether `workload` is a DCGM exporter DaemonSet.

    True for a DaemonSet with a container image containing DCGM_EXPORTER_IMAGE_MARKER, or labelled
    DCGM_EXPORTER_LABEL_KEY: DCGM_EXPORTER_LABEL_VALUE (on the DaemonSet or its pod template).
    """
    if workload.get("kind") != "DaemonSet":
        return False
    template = (workload.get("spec") or {}).get("template") or {}
    for metadata in (workload.get("metadata") or {}, template.get("metadata") or {}):
        if (metadata.get("labels") or {}).get(DCGM_EXPORTER_LABEL_KEY) == DCGM_EXPORTER_LABEL_VALUE:
            return True
    spec = template.get("spec") or {}
    containers = [*(spec.get("containers") or ()), *(spec.get("initContainers") or ())]
    return any(DCGM_EXPORTER_IMAGE_MARKER in (c.get("image") or "") for c in containers)


def dcgm_exporter_covers_gpu_pools(
    workloads: Iterable[dict], pools: Iterable[dict], verdict_id: int = DCGM_EXPORTER_VERDICT_ID
):
    """The verdict: every DCGM exporter lands, by taints and node affinity, on every GPU pool and on no other.

    Resource fit is left out, as for the device plugin: a DaemonSet pod is placed on every matching node.
    With no exporter at all the verdict passes and says so: GPU metrics are optional.
    """

    pools = list(pools)
    exporters = [(workload_id(w), pod_of(w)) for w in workloads if is_dcgm_exporter(w)]
    gpu_pools = [p for p in pools if pool_gpus(p) > 0]
    other_pools = [p for p in pools if pool_gpus(p) <= 0]
    name = DCGM_EXPORTER_VERDICT_NAME
    if not exporters:
        return Verdict(verdict_id, name, True, "no DCGM exporter workload: GPU metrics are not collected")
    problems, covered = [], []
    for wid, pod in exporters:
        for pool in gpu_pools:
            failures = filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS)
            if failures:
                problems.append(
                    f"DCGM exporter {wid} cannot land on GPU pool {pool['name']}: {'; '.join(failures.values())}"
                )
            else:
                covered.append(f"{pool['name']} ({wid})")
        for pool in other_pools:
            if not filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS):
                hint = gpu_pool_label_hint(pools)
                fix = (
                    f"add nodeSelector {hint}" if hint else "add a nodeSelector or required node affinity for GPU nodes"
                )
                problems.append(
                    f"DCGM exporter {wid} lands on non-GPU pool {pool['name']}: nothing keeps it off ({fix})"
                )
    if problems:
        summary = problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
        return Verdict(verdict_id, name, False, summary, problems)
    message = "DCGM exporter lands on every GPU pool and on no other pool"
    if not covered:
        return Verdict(verdict_id, name, True, f"{message} (there is no GPU pool)")
    return Verdict(verdict_id, name, True, f"{message}: {', '.join(covered)}", covered)
