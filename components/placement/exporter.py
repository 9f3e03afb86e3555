"""The GPU metrics exporter in the guard: how to recognise it, and the verdict that it covers exactly the GPU pools.

A GPU exporter (NVIDIA's dcgm-exporter) belongs on every GPU node, where it reads the GPUs, and on no
other node, where it has nothing to read and would only crash-loop on a missing driver. Like the device
plugin it must tolerate the GPU taints and select the GPU label; unlike the plugin it also belongs on GPU
pools whose AMI advertises the GPUs itself (Bottlerocket runs the device plugin, not the exporter).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..facts import auto_mode

# How the guard recognises the exporter DaemonSet: either marker suffices.
from ..facts.markers import (
    DCGM_EXPORTER_IMAGE_MARKER,
    DCGM_EXPORTER_LABEL_KEY,
    DCGM_EXPORTER_LABEL_VALUE,
    DCGM_REMOTE_ENGINE_ENV,
)
from .explain import NODE_AFFINITY, filter_failures
from .pools import PLACEMENT_FILTERS, gpu_pool_label_hint, pool_gpus
from .verdict import Verdict
from .workloads import pod_of, workload_id

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


# How an exporter is pointed at a DCGM engine outside its container (dcgm-exporter pkg/cmd/app.go at 4.5.3-4.8.2:
# `--remote-hostengine-info`, `-r`, or its variable); without one it embeds its own engine.
REMOTE_ENGINE_ENV = DCGM_REMOTE_ENGINE_ENV
REMOTE_ENGINE_FLAGS = ("-r", "--remote-hostengine-info")


def uses_remote_engine(pod: dict) -> bool:
    """Whether the exporter pod connects to a DCGM host engine rather than embedding one."""
    for container in pod.get("spec", {}).get("containers") or ():
        if any(env.get("name") == REMOTE_ENGINE_ENV for env in container.get("env") or ()):
            return True
        words = [*(container.get("command") or ()), *(container.get("args") or ())]
        if any(word in REMOTE_ENGINE_FLAGS or word.startswith(f"{REMOTE_ENGINE_FLAGS[1]}=") for word in words):
            return True
    return False


def dcgm_exporter_covers_gpu_pools(
    workloads: Iterable[dict],
    pools: Iterable[dict],
    host_engines: Iterable[dict] = (),
) -> Verdict:
    """The verdict: exactly one DCGM exporter lands, by taints and node affinity, on every GPU pool, none on
    another pool, and each reads DCGM the way its pool allows.

    `host_engines` are the workloads of the DCGM host engines that others run on the nodes (the node monitoring
    agent's `dcgm-server`). On a pool where one lands, the exporter must connect to it (a second, embedded
    engine cannot share DCGM's profiling module with it: NVIDIA/DCGM#106); on a pool where none lands, it must
    embed its own (a connection to no engine ends the exporter: dcgm-exporter internal/pkg/dcgmprovider/dcgm.go
    exits on a failed connect). Resource fit is left out, as for the device plugin: a DaemonSet pod is placed on
    every matching node. With no exporter at all the verdict passes and says so: GPU metrics are optional.
    """

    pools = list(pools)
    exporters = [(workload_id(w), pod_of(w)) for w in workloads if is_dcgm_exporter(w)]
    engines = [(workload_id(w), pod_of(w)) for w in host_engines]
    gpu_pools = [p for p in pools if pool_gpus(p) > 0]
    other_pools = [p for p in pools if pool_gpus(p) <= 0]
    name = DCGM_EXPORTER_VERDICT_NAME
    if not exporters:
        return Verdict(name, True, "no DCGM exporter workload: GPU metrics are not collected")
    problems, covered = [], []
    for pool in gpu_pools:
        landed = [
            (wid, pod) for wid, pod in exporters if not filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS)
        ]
        engine = next(
            (eid for eid, pod in engines if not filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS)), None
        )
        if (
            not landed
            and pool.get("provisioner") == auto_mode.PROVISIONER
            and all(
                set(filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS)) == {NODE_AFFINITY}
                for _, pod in exporters
            )
        ):
            # Kept off Auto Mode's nodes on purpose (components/gpu_agents/dcgm_exporter.py): EKS monitors their GPUs.
            covered.append(f"{pool['name']} (EKS Auto Mode: no exporter, EKS monitors its GPUs)")
            continue
        if not landed:
            reasons = {
                wid: "; ".join(filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS).values())
                for wid, pod in exporters
            }
            if len(reasons) == 1:
                [(wid, why)] = reasons.items()
                problems.append(f"DCGM exporter {wid} cannot land on GPU pool {pool['name']}: {why}")
            else:
                why = "; ".join(f"{wid}: {reason}" for wid, reason in reasons.items())
                problems.append(f"no DCGM exporter lands on GPU pool {pool['name']} ({why})")
            continue
        if len(landed) > 1:
            problems.append(
                f"{len(landed)} DCGM exporters land on GPU pool {pool['name']} ({', '.join(wid for wid, _ in landed)}): "
                "each node's GPUs would be read, and reported, more than once"
            )
            continue
        [(wid, pod)] = landed
        remote = uses_remote_engine(pod)
        if engine and not remote:
            problems.append(
                f"DCGM exporter {wid} embeds a DCGM engine on GPU pool {pool['name']}, where {engine} runs one: "
                f"two engines cannot share DCGM's profiling module; connect to it ({REMOTE_ENGINE_ENV})"
            )
        elif remote and not engine:
            problems.append(
                f"DCGM exporter {wid} connects to a DCGM host engine on GPU pool {pool['name']}, where none runs: "
                "it exits at start; embed one there"
            )
        else:
            covered.append(f"{pool['name']} ({wid}, {f'the engine of {engine}' if engine else 'its own engine'})")
    for wid, pod in exporters:
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
        return Verdict(name, False, summary, problems)
    message = "one DCGM exporter lands on every GPU pool, reading one DCGM engine, and none on another pool"
    if not covered:
        return Verdict(name, True, f"{message} (there is no GPU pool)")
    return Verdict(name, True, f"{message}: {', '.join(covered)}", covered)
