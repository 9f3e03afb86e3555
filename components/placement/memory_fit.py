"""Verdict `container-memory-fits`: every container the plan renders needs no more host memory at its peak than
its limit, and the pods a node holds request no more memory than the node's allocatable.

A container over its memory limit is OOM-killed by the kernel and restarted, again and again; pods whose requests
exceed a node's allocatable never schedule beside each other. The peaks come from facts/serving_memory.py: the vLLM
server while it loads (its processes, its `/dev/shm`, the Run:ai streamer's CPU buffers), the weights copy Job and
the init container that waits for it. A container the facts do not model is judged at the node only, by its
request. At the node, each pool's DaemonSets (the stack's and the EKS agents the caller passes) sit beside as many
pods of each other workload as the node's GPUs hold (one of a workload that needs no GPU).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from ..facts import serving_memory, versions
from ..facts.quantity import format_quantity, parse_quantity
from ..facts.serving_memory import GIB, ServerMemory
from .explain import filter_failures
from .pools import PLACEMENT_FILTERS, pool_allocatable, pool_gpus
from .resources import GPU_RESOURCE, pod_requests
from .verdict import Verdict, _summary
from .workloads import pod_of, workload_id

VERDICT_NAME = "container-memory-fits"


def container_memory_verdict(
    workloads: Sequence[dict],
    pools: Sequence[dict],
    weights: Mapping[str, float] | None = None,
    agents: Sequence[dict] = (),
) -> Verdict:
    """The verdict over `workloads` (the rendered ones) on `pools`. `weights` gives the bytes of the weights each
    vLLM server reads, by its workload's `namespace/name`; `agents` are the EKS agents' DaemonSets, counted at the
    node."""
    weights = weights or {}
    failed: list[str] = []
    details: list[str] = []
    for workload in workloads:
        for line, fits in _container_lines(workload, weights):
            (details if fits is not False else failed).append(line)
    for line in _node_lines(workloads, pools, agents):
        failed.append(line)
    if failed:
        return Verdict(VERDICT_NAME, False, _summary(failed), [*failed, *details])
    unchecked = sum(1 for line in details if line.startswith("not checked"))
    message = (
        f"{len(details) - unchecked} container peak(s) within their limits, and every node's pods within its "
        "allocatable" + (f"; {unchecked} not checked, the sizes unknown" if unchecked else "")
    )
    return Verdict(VERDICT_NAME, True, message, details)


def _container_lines(workload: dict, weights: Mapping[str, float]) -> list[tuple[str, bool | None]]:
    """(line, fits) per container of `workload` whose peak the facts model; fits None when not checked."""
    pod = pod_of(workload)
    spec = pod.get("spec") or {}
    name = f"{workload.get('kind')} {workload_id(workload)}"
    lines: list[tuple[str, bool | None]] = []
    for container in [*(spec.get("initContainers") or ()), *(spec.get("containers") or ())]:
        where = f"{name} container {container.get('name')}"
        limits = (container.get("resources") or {}).get("limits") or {}
        if "memory" not in limits:
            continue
        limit = float(parse_quantity(limits["memory"]))
        command = [str(part) for part in container.get("command") or ()]
        if _is_server(container):
            lines.append(_server_line(where, container, spec, limit, weights.get(workload_id(workload))))
        elif any(part.endswith(serving_memory.WEIGHTS_COPY_SCRIPT) for part in command):
            peak = serving_memory.WAIT_PEAK_BYTES if "wait" in command else serving_memory.COPY_PEAK_BYTES
            fits = peak <= limit
            lines.append(
                (f"{where}: peak {_gib(peak)} (estimate) {'<=' if fits else '>'} its limit {_gib(limit)}", fits)
            )
    return lines


def _is_server(container: dict) -> bool:
    """The vLLM server: the vLLM image run by its own entrypoint (`vllm serve`), not a command of its own."""
    reference = str(container.get("image") or "").split("@", 1)[0]
    # A tag follows the last `:` after the last `/` (a registry's port comes before it).
    if ":" in reference.rpartition("/")[2]:
        reference = reference.rpartition(":")[0]
    return reference == versions.VLLM_IMAGE_REPOSITORY and not container.get("command")


def _server_line(
    where: str, container: dict, spec: dict, limit: float, weights_bytes: float | None
) -> tuple[str, bool | None]:
    gpus = int(parse_quantity(((container.get("resources") or {}).get("limits") or {}).get(GPU_RESOURCE, "0")))
    gpus = max(gpus, 1)
    streamer = serving_memory.streamer_of([str(arg) for arg in container.get("args") or ()], gpus, weights_bytes)
    if isinstance(streamer, str):
        return f"not checked: {where} {streamer}; give its facts in vllm.modelFacts", None
    memory = ServerMemory(limit, gpus, _shm_bytes(container, spec), streamer)
    line = f"{where}: {memory.arithmetic()}"
    if not memory.fits:
        line += (
            "; the kernel OOM-kills it while it loads. Bound the streamer with memory_limit in "
            "--model-loader-extra-config (weights from S3 get one sized from the limit), or use a larger instance"
            if streamer
            else "; the kernel OOM-kills it while it loads; use a larger instance"
        )
    return line, memory.fits


def _shm_bytes(container: dict, spec: dict) -> float:
    """The memory-backed emptyDirs `container` mounts, at their size limits (a tmpfs without one may grow to the
    container's limit: counted as 0 here, which the limit itself then bounds)."""
    memory_volumes = {
        volume.get("name"): volume["emptyDir"].get("sizeLimit")
        for volume in spec.get("volumes") or ()
        if isinstance(volume.get("emptyDir"), dict) and volume["emptyDir"].get("medium") == "Memory"
    }
    mounted = {mount.get("name") for mount in container.get("volumeMounts") or ()}
    return float(sum(parse_quantity(size) for name, size in memory_volumes.items() if name in mounted and size))


def _node_lines(workloads: Sequence[dict], pools: Sequence[dict], agents: Sequence[dict]) -> list[str]:
    """A failure per (pool, workload) whose pods a node holds beside the pool's DaemonSets do not fit its
    allocatable memory."""
    daemonsets = [*(w for w in workloads if w.get("kind") == "DaemonSet"), *agents]
    others = [w for w in workloads if w.get("kind") != "DaemonSet"]
    failed = []
    for pool in pools:
        allocatable = pool_allocatable(pool).get("memory")
        if pool.get("unknown") or allocatable is None:
            continue
        node = pool["node"]
        beside = [pod_of(ds) for ds in daemonsets if not filter_failures(pod_of(ds), node, filters=PLACEMENT_FILTERS)]
        agents_mib = sum((_memory(pod) for pod in beside), Fraction(0))
        for workload in others:
            pod = pod_of(workload)
            if filter_failures(pod, node, filters=PLACEMENT_FILTERS):
                continue
            gpus = int(pod_requests(pod).get(GPU_RESOURCE, 0))
            per_node = pool_gpus(pool) // gpus if gpus else 1
            if per_node < 1:
                continue
            need = agents_mib + per_node * _memory(pod)
            if need > parse_quantity(allocatable):
                failed.append(
                    f"pool {pool['name']}: {per_node} pod(s) of {workload.get('kind')} {workload_id(workload)} "
                    f"request {format_quantity('memory', per_node * _memory(pod))} beside {len(beside)} DaemonSet "
                    f"pod(s) requesting {format_quantity('memory', agents_mib)}: "
                    f"{format_quantity('memory', need)} > the node's allocatable {allocatable}"
                )
    return failed


def _memory(pod: dict) -> Fraction:
    return pod_requests(pod).get("memory", Fraction(0))


def _gib(value: float) -> str:
    return f"{value / GIB:.2f} GiB"
