"""GPU capacity: whether all replicas of each GPU workload fit the GPU pools they can land on.

`gpu-requests-fit-one-node` checks that one pod fits one node; this checks the replicas together. A pod's GPUs come
from one node, so a node of an instance type with G GPUs holds floor(G / request) pods of the
workload, and a pool holds that many per node times its node count. A pool whose node group may
start several instance types is counted with the one holding the fewest pods per node. The check
fails when the replicas exceed what the pools hold at their largest size (maxSize: some pods can
never be scheduled) and warns when they exceed it at the desired size (they wait for a scale-up).
Workloads that can land on exactly the same pools are also counted together. Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .explain import filter_failures
from .guard import _n
from .pools import PLACEMENT_FILTERS, pool_gpus
from .resources import GPU_RESOURCE, pod_requests
from .verdict import Verdict, _summary
from .workloads import is_device_plugin, pod_of, workload_id

VERDICT_NAME = "gpu-capacity-fits-replicas"
# Kinds whose pod count is `spec.replicas` (default 1, as the API server defaults it).
_REPLICATED_KINDS = ("Deployment", "ReplicaSet", "ReplicationController", "StatefulSet")


@dataclass(frozen=True)
class Demand:
    """One GPU workload: its replicas, the GPUs each pod requests, and the pools it can land on."""

    workload: str
    replicas: int
    gpus: int
    pools: tuple[str, ...]


def replicas(workload: dict) -> int | None:
    """Pods a workload asks for: `spec.replicas` (default 1) of a replicated kind, 1 for a Pod, Job or
    CronJob (`spec.parallelism` for a Job), None for a DaemonSet (one per node, never short of room)."""
    kind = workload.get("kind")
    spec = workload.get("spec") or {}
    if kind == "DaemonSet":
        return None
    if kind in _REPLICATED_KINDS:
        value = spec.get("replicas")
        return 1 if value is None else int(value)
    if kind == "Job":
        return int(spec.get("parallelism") or 1)
    return 1


def pods_per_node(pool: dict, gpus_per_pod: int) -> int | None:
    """Pods of `gpus_per_pod` GPUs one node of `pool` holds; the fewest over its instance types; None if unknown."""
    by_type = pool.get("gpusPerNodeByType") or {pool.get("instanceType") or pool["name"]: pool_gpus(pool)}
    if any(gpus is None for gpus in by_type.values()):
        return None
    return min(gpus // gpus_per_pod for gpus in by_type.values())


def gpu_capacity(workloads: Iterable[dict], pools: Iterable[dict]) -> tuple[Verdict, list[str]]:
    """`gpu-capacity-fits-replicas`, and one warning per workload (or group) that fits only above the pools' desired size."""
    by_name = {pool["name"]: pool for pool in pools}
    gpu_pools = [pool for pool in by_name.values() if pool_gpus(pool) > 0]
    demands = []
    for workload in workloads:
        count = replicas(workload)
        if count is None or count <= 0 or is_device_plugin(workload):
            continue
        pod = pod_of(workload)
        gpus = pod_requests(pod).get(GPU_RESOURCE, 0)
        if gpus <= 0:
            continue
        homes = tuple(p["name"] for p in gpu_pools if not filter_failures(pod, p["node"], filters=PLACEMENT_FILTERS))
        if homes:  # a workload with no GPU pool at all is `gpu-workloads-land-on-gpu-pools`'s finding
            demands.append(Demand(workload_id(workload), count, math.ceil(gpus), homes))
    if not demands:
        return Verdict(VERDICT_NAME, True, "no GPU workload with replicas lands on a GPU pool"), []
    problems: list[str] = []
    warnings: list[str] = []
    fits: list[str] = []
    for demand in demands:
        _check(demand.workload, [demand], by_name, problems, warnings, fits)
    shared: dict[tuple[str, ...], list[Demand]] = {}
    for demand in demands:
        shared.setdefault(demand.pools, []).append(demand)
    for group in shared.values():
        if len(group) > 1:
            _check(" + ".join(d.workload for d in group), group, by_name, problems, warnings, fits)
    if problems:
        return Verdict(VERDICT_NAME, False, _summary(problems), problems + warnings + fits), warnings
    return Verdict(
        VERDICT_NAME,
        True,
        "the GPU pools hold every replica at maxSize: " + "; ".join(fits),
        warnings + fits,
    ), warnings


def _check(
    label: str, group: list[Demand], pools: dict[str, dict], problems: list[str], warnings: list[str], fits: list[str]
) -> None:
    """Whether `group` (workloads landing on the same pools) fits those pools at maxSize and desiredSize."""
    names = group[0].pools
    unknown = [name for name in names if any(pods_per_node(pools[name], d.gpus) is None for d in group)]
    if unknown:
        problems.append(
            f"{label}: GPUs per node unknown for pool(s) {', '.join(unknown)} (instance type not in the "
            "catalog), so the replicas cannot be counted"
        )
        return
    at_max = _holds(group, [pools[name] for name in names], "maxCount")
    at_desired = _holds(group, [pools[name] for name in names], "count")
    wanted = sum(d.replicas for d in group)
    asked = ", ".join(f"{d.replicas} x {_n(d.gpus)} {GPU_RESOURCE}" for d in group)
    where = ", ".join(_describe(pools[name], group) for name in names)
    if wanted > at_max:
        problems.append(
            f"{label} asks for {asked} ({wanted} pod(s)) but GPU pool(s) {where} hold {at_max} at "
            f"maxSize: {wanted - at_max} pod(s) can never be scheduled; raise maxSize or lower replicas"
        )
    elif wanted > at_desired:
        warnings.append(
            f"{label} asks for {asked} ({wanted} pod(s)); GPU pool(s) {where} hold {at_desired} at "
            f"desiredSize: {wanted - at_desired} pod(s) wait until the pool scales up"
        )
        fits.append(f"{label}: {_held(group, [pools[name] for name in names], wanted, at_max)} at maxSize")
    else:
        held = _held(group, [pools[name] for name in names], wanted, at_max)
        fits.append(f"{label}: {held} at maxSize, {at_desired} at desiredSize")


def _held(group: list[Demand], pools: list[dict], wanted: int, at_max: int) -> str:
    """What a fitting group takes of the pools at maxSize: its pods of the pods one workload's pools hold, or
    for several workloads (counted in whole GPUs) its GPUs of the pools' GPUs."""
    if len(group) == 1:
        return f"{wanted} of {at_max}"
    gpus = sum(d.replicas * d.gpus for d in group)
    total = sum(int(p.get("maxCount") or 0) * _known_pods_per_node(p, 1) for p in pools)
    return f"{wanted} pod(s), {gpus} of {total} GPU(s)"


def _holds(group: list[Demand], pools: list[dict], size_key: str) -> int:
    """Pods of `group` the pools hold at `size_key` nodes: per workload by pods per node, and all of them
    within the pools' GPUs (a node's GPUs serve one workload's pods or another's, not both)."""
    if len(group) == 1:
        demand = group[0]
        return sum(int(p.get(size_key) or 0) * _known_pods_per_node(p, demand.gpus) for p in pools)
    # Several workloads: count whole GPUs (an upper bound: a node's leftover GPUs may not fit another
    # workload's pod), the smallest pods first.
    free = sum(int(p.get(size_key) or 0) * _known_pods_per_node(p, 1) for p in pools)
    held = 0
    for demand in sorted(group, key=lambda d: d.gpus):
        take = min(demand.replicas, free // demand.gpus)
        held += take
        free -= take * demand.gpus
    return held


def _describe(pool: dict, group: list[Demand]) -> str:
    types = ", ".join(f"{name}: {gpus} GPU(s)" for name, gpus in (pool.get("gpusPerNodeByType") or {}).items())
    per_node = min(_known_pods_per_node(pool, d.gpus) for d in group)
    return (
        f"{pool['name']} ({pool.get('count') or 0} desired / {pool.get('maxCount') or 0} max node(s), "
        f"{per_node} pod(s) per node; {types})"
    )


def _known_pods_per_node(pool: dict, gpus_per_pod: int) -> int:
    per_node = pods_per_node(pool, gpus_per_pod)
    assert per_node is not None  # `_check` has failed a group on a pool whose pods per node are unknown
    return per_node
