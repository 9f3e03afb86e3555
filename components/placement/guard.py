"""The GPU placement guard: which workload lands on which pool, and the verdicts on it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction

from ..facts.contract import REPELLING_EFFECTS
from ..facts.kubernetes import KUBE_SYSTEM
from ..facts.quantity import format_quantity, parse_quantity
from .explain import NODE_RESOURCES_FIT, filter_failures
from .pools import (
    PLACEMENT_FILTERS,
    advertise_gpus,
    gpu_pool_label_hint,
    pool_allocatable,
    pool_gpus,
    pool_labels,
    pool_taints,
)
from .resources import GPU_RESOURCE, pod_requests
from .taints import PREFER_NO_SCHEDULE, format_taint
from .verdict import Verdict, _summary
from .workloads import (
    DEVICE_PLUGIN_IMAGE_MARKER,
    DEVICE_PLUGIN_LABEL_KEY,
    DEVICE_PLUGIN_LABEL_VALUE,
    is_device_plugin,
    pod_of,
    workload_id,
)


@dataclass
class PlacementRow:
    """Whether one workload's pod can land on one pool's node, and if not, why."""

    workload: str
    """`namespace/name` of the workload."""
    kind: str
    """The workload's kind (Deployment, DaemonSet, ...)."""
    pool: str
    """The pool's name."""
    lands: bool
    """True when every filter passes on an empty node of the pool."""
    reasons: list[str] = field(default_factory=list)
    """One line per failed filter; empty when `lands`."""
    resource: str = ""
    """The resource that declares the workload, when the caller names it: two workloads of one kind, namespace
    and name (declared twice) stay two rows per pool. Empty when not named."""

    def to_dict(self) -> dict:
        """The row as a JSON-serialisable dict; `resource` only when named."""
        row = asdict(self)
        if not self.resource:
            del row["resource"]
        return row


def plain_pod() -> dict:
    """The guard's probe for an ordinary workload: no tolerations, no nodeSelector, 100m cpu / 64Mi."""
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "plain-pod", "namespace": "default"},
        "spec": {
            "containers": [
                {"name": "app", "image": "busybox", "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}
            ]
        },
    }


def system_addon_pod() -> dict:
    """The guard's probe for a system add-on, shaped like EKS's CoreDNS.

    Tolerates `CriticalAddonsOnly` (Exists) and the standard not-ready and
    unreachable NoExecute taints; requests 100m cpu and 70Mi memory.
    """
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "coredns", "namespace": KUBE_SYSTEM, "labels": {"k8s-app": "kube-dns"}},
        "spec": {
            "priorityClassName": "system-cluster-critical",
            "tolerations": [
                {"key": "CriticalAddonsOnly", "operator": "Exists"},
                {
                    "key": "node.kubernetes.io/not-ready",
                    "operator": "Exists",
                    "effect": "NoExecute",
                    "tolerationSeconds": 300,
                },
                {
                    "key": "node.kubernetes.io/unreachable",
                    "operator": "Exists",
                    "effect": "NoExecute",
                    "tolerationSeconds": 300,
                },
            ],
            "containers": [
                {
                    "name": "coredns",
                    "image": "coredns/coredns",
                    "resources": {"requests": {"cpu": "100m", "memory": "70Mi"}, "limits": {"memory": "170Mi"}},
                }
            ],
        },
    }


def placement_matrix(
    workloads: Iterable[dict], pools: Iterable[dict], resources: Sequence[str] = ()
) -> list[PlacementRow]:
    """For each workload and pool (in that order), whether the workload's pod lands on an empty node of the pool.

    `resources`, when given, names the resource that declares each workload (in the same order); each row
    carries its workload's.

    Nodes are taken as the device plugin leaves them (advertise_gpus): a GPU
    pool the plugin does not reach has no `nvidia.com/gpu` allocatable, so GPU
    pods do not fit there. Pools with `"unknown": True` (instance type not in
    the catalog) never land anything: their resource fit reads "allocatable unknown".
    """
    workloads = list(workloads)
    pools = advertise_gpus(pools, workloads)
    if resources and len(resources) != len(workloads):
        raise ValueError(f"{len(resources)} resource names for {len(workloads)} workloads; allowed: one per workload")
    rows = []
    for index, workload in enumerate(workloads):
        pod = pod_of(workload)
        requests = pod_requests(pod)
        resource = resources[index] if resources else ""
        for pool in pools:
            reasons = _reasons(pod, requests, pool)
            rows.append(
                PlacementRow(
                    workload_id(workload), workload.get("kind") or "", pool["name"], not reasons, reasons, resource
                )
            )
    return rows


@dataclass(frozen=True)
class GuardView:
    """What the guard's checks read of the workloads and pools, worked out once for all of them."""

    pools: list[dict]
    """The pools as the device plugin leaves them (advertise_gpus)."""
    configured_gpu_pools: list[dict]
    """The GPU pools as configured, before the device plugin: which of them advertise GPUs by themselves."""
    gpu_pools: list[dict]
    other_pools: list[dict]
    hint: str | None
    """The label that sets the GPU pools apart, when one does (gpu_pool_label_hint)."""
    requests: dict[str, dict]
    """Each workload's effective pod requests, by workload id."""
    gpu_workloads: list[tuple[str, dict, Fraction]]
    """(id, pod, GPUs requested) of each workload that requests GPUs, the device plugin aside."""
    plugins: list[tuple[str, dict]]
    """(id, pod) of each device plugin workload."""


def guard_view(workloads: Iterable[dict], pools: Iterable[dict]) -> GuardView:
    """The guard's reading of `workloads` on `pools`.

    A GPU pool is one with `gpusPerNode > 0`, whatever its labels say. Nodes are taken as the device plugin leaves
    them (advertise_gpus).
    """
    workloads = list(workloads)
    original = list(pools)
    advertised = advertise_gpus(original, workloads)
    entries = [(workload_id(w), w, pod_of(w)) for w in workloads]
    requests = {wid: pod_requests(pod) for wid, _, pod in entries}
    return GuardView(
        pools=advertised,
        configured_gpu_pools=[p for p in original if pool_gpus(p) > 0],
        gpu_pools=[p for p in advertised if pool_gpus(p) > 0],
        other_pools=[p for p in advertised if pool_gpus(p) <= 0],
        hint=gpu_pool_label_hint(advertised),
        requests=requests,
        gpu_workloads=[
            (wid, pod, requests[wid][GPU_RESOURCE])
            for wid, w, pod in entries
            if requests[wid].get(GPU_RESOURCE, 0) > 0 and not is_device_plugin(w)
        ],
        plugins=[(wid, pod) for wid, w, pod in entries if is_device_plugin(w)],
    )


def gpu_workloads_land_on_gpu_pools(view: GuardView) -> Verdict:
    """Every GPU workload lands on a GPU pool, and taints or node affinity keep it off every other pool."""
    name = "gpu-workloads-land-on-gpu-pools"
    gpu_workloads, requests, hint = view.gpu_workloads, view.requests, view.hint
    gpu_pools, other_pools = view.gpu_pools, view.other_pools
    if not gpu_workloads:
        return Verdict(name, True, f"no workload requests {GPU_RESOURCE}")
    problems, details, homes = [], [], []
    for wid, pod, gpus in gpu_workloads:
        landed, misses = [], []
        for pool in gpu_pools:
            reasons = _reasons(pod, requests[wid], pool)
            if reasons:
                details.append(f"{wid} cannot land on GPU pool {pool['name']}: {'; '.join(reasons)}")
                misses.append(f"{pool['name']}: {'; '.join(reasons)}")
            else:
                landed.append(pool["name"])
        if not landed:
            where = "there is no GPU pool" if not gpu_pools else " | ".join(misses)
            problems.append(f"GPU workload {wid} (requests {_n(gpus)} {GPU_RESOURCE}) lands on no GPU pool ({where})")
        else:
            homes.append(f"{wid} on {', '.join(landed)}")
        for pool in other_pools:
            if not filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS):
                fix = _keep_off_fix(hint)
                problems.append(
                    f"GPU workload {wid} can be placed on non-GPU pool {pool['name']}: no taint, nodeSelector or "
                    f"required node affinity keeps it off, only resource fit ({fix})"
                )
    if problems:
        return Verdict(name, False, _summary(problems), problems + details)
    return Verdict(
        name, True, "every GPU workload lands on a GPU pool and on no other pool: " + "; ".join(homes), details
    )


def plain_pods_stay_off_gpu_pools(view: GuardView) -> Verdict:
    """A pod with no toleration and no node selector lands on no GPU pool."""
    name = "plain-pods-stay-off-gpu-pools"
    gpu_pools = view.gpu_pools
    if not gpu_pools:
        return Verdict(name, True, "there is no GPU pool")
    pod = plain_pod()
    problems, blocked = [], []
    for pool in gpu_pools:
        failures = filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS)
        if failures:
            blocked.append(f"{pool['name']} ({'; '.join(failures.values())})")
            continue
        soft = [format_taint(t) for t in pool_taints(pool) if t.get("effect") == PREFER_NO_SCHEDULE]
        note = f"; its {', '.join(soft)} only discourages" if soft else ""
        problems.append(
            f"a plain pod (no tolerations, no nodeSelector) lands on GPU pool {pool['name']}: "
            f"the pool has no {' or '.join(REPELLING_EFFECTS)} taint{note}"
        )
    if problems:
        return Verdict(name, False, _summary(problems), problems)
    return Verdict(name, True, "a plain pod lands on no GPU pool: " + "; ".join(blocked), blocked)


def device_plugin_covers_gpu_pools(view: GuardView) -> Verdict:
    """The device plugin lands on every GPU pool that needs it and on no other pool."""
    name = "device-plugin-covers-gpu-pools"
    plugins, original_gpu_pools, hint = view.plugins, view.configured_gpu_pools, view.hint
    gpu_pools, other_pools = view.gpu_pools, view.other_pools
    if not plugins:
        silent = [p["name"] for p in original_gpu_pools if _advertised(p) <= 0]
        if not original_gpu_pools:
            return Verdict(name, True, "no device plugin workload and no GPU pool")
        if not silent:
            return Verdict(
                name,
                True,
                "no device plugin workload, but every GPU pool's node already advertises "
                f"{GPU_RESOURCE} (the AMI runs the device plugin on the host, e.g. Bottlerocket): "
                + ", ".join(p["name"] for p in original_gpu_pools),
            )
        message = (
            f"no device plugin workload (a DaemonSet whose image contains {DEVICE_PLUGIN_IMAGE_MARKER!r} or labelled "
            f"{DEVICE_PLUGIN_LABEL_KEY}={DEVICE_PLUGIN_LABEL_VALUE}), and GPU pool(s) {', '.join(silent)} do not "
            f"advertise {GPU_RESOURCE}: GPU pods there stay Pending"
        )
        return Verdict(name, False, message, [message])
    problems, covered = [], []
    for pool in gpu_pools:
        if pool.get("gpuAdvertisedByHost"):
            covered.append(f"{pool['name']} (advertised by the host)")
            continue
        misses = []
        for wid, pod in plugins:
            failures = filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS)
            if not failures:
                covered.append(f"{pool['name']} ({wid})")
                break
            misses.append(f"device plugin {wid} cannot land on GPU pool {pool['name']}: {'; '.join(failures.values())}")
        else:
            problems.extend(misses)
    for wid, pod in plugins:
        for pool in other_pools:
            if not filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS):
                fix = _keep_off_fix(hint)
                problems.append(
                    f"device plugin {wid} lands on non-GPU pool {pool['name']}: nothing keeps it off ({fix})"
                )
    if problems:
        return Verdict(name, False, _summary(problems), problems)
    message = "device plugin lands on every GPU pool and on no other pool"
    return Verdict(
        name, True, f"{message}: {', '.join(covered)}" if covered else f"{message} (there is no GPU pool)", covered
    )


def system_addons_have_a_pool(view: GuardView) -> Verdict:
    """A CoreDNS-like system add-on pod lands on a non-GPU pool that has nodes."""
    name = "system-addons-have-a-pool"
    pools = view.pools
    pod = system_addon_pod()
    requests = pod_requests(pod)
    homes, details = [], []
    for pool in pools:
        if pool_gpus(pool) > 0:
            details.append(f"{pool['name']}: GPU pool, not a home for system add-ons")
            continue
        reasons = _reasons(pod, requests, pool)
        if reasons:
            details.append(f"{pool['name']}: {'; '.join(reasons)}")
        elif int(pool.get("count") or 0) <= 0:
            details.append(f"{pool['name']}: count {pool.get('count') or 0}, no node to land on")
        else:
            homes.append(pool["name"])
    if homes:
        return Verdict(
            name, True, f"a CoreDNS-like system add-on pod lands on non-GPU pool(s) {', '.join(homes)}", details
        )
    message = (
        "no non-GPU pool with nodes takes a CoreDNS-like system add-on pod (tolerating only CriticalAddonsOnly): "
        "CoreDNS and other add-ons stay Pending; keep an untainted system node group"
    )
    if details:
        message += " (" + "; ".join(details) + ")"
    return Verdict(name, False, message, details)


def gpu_requests_fit_one_node(view: GuardView) -> Verdict:
    """Each GPU workload's request fits one node of every GPU pool it can land on."""
    name = "gpu-requests-fit-one-node"
    gpu_workloads, gpu_pools = view.gpu_workloads, view.gpu_pools
    if not gpu_workloads:
        return Verdict(name, True, f"no workload requests {GPU_RESOURCE}")
    problems, fits = [], []
    for wid, pod, gpus in gpu_workloads:
        for pool in gpu_pools:
            if filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS):
                continue
            instance = pool.get("instanceType") or pool_labels(pool).get("node.kubernetes.io/instance-type")
            per_node = f"{pool_gpus(pool)} per node" + (f" ({instance})" if instance else "")
            if gpus > pool_gpus(pool):
                problems.append(
                    f"GPU workload {wid} requests {_n(gpus)} {GPU_RESOURCE} but GPU pool {pool['name']} has "
                    f"{per_node}: no node can run it"
                )
            else:
                fits.append(f"{wid} requests {_n(gpus)}, {pool['name']} has {per_node}")
    if problems:
        return Verdict(name, False, _summary(problems), problems + fits)
    if not fits:
        return Verdict(
            name,
            True,
            "no GPU workload can land on a GPU pool (see `gpu-workloads-land-on-gpu-pools`); nothing to size",
            [],
        )
    return Verdict(name, True, f"every GPU request fits one node: {'; '.join(fits)}", fits)


def _reasons(pod: dict, requests: dict, pool: dict) -> list[str]:
    failures = filter_failures(pod, pool["node"], requests=requests)
    if pool.get("unknown"):
        instance = pool.get("instanceType") or "?"
        failures[NODE_RESOURCES_FIT] = (
            f"instance type {instance} is not in the catalog: allocatable unknown, cannot check resource fit"
        )
    return list(failures.values())


def _advertised(pool: dict) -> Fraction:
    return parse_quantity(pool_allocatable(pool).get(GPU_RESOURCE, 0))


def _keep_off_fix(hint: str | None) -> str:
    """What keeps a workload off non-GPU pools: the GPU pools' own label when one sets them apart."""
    return f"add nodeSelector {hint}" if hint else "add a nodeSelector or required node affinity for GPU nodes"


def _n(value: Fraction | int) -> str:
    return format_quantity(GPU_RESOURCE, value)
