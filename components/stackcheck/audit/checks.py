"""The checks of the audit, each a function of an `Audit` returning findings (the node agents' are in agents.py).

Every scheduling judgement comes from the placement model (filter_failures, tolerates); the checks
only decide which pods and nodes to ask about and how to group what it answers. Pods are grouped by
their controller (a Deployment across its ReplicaSets, a DaemonSet, StatefulSet or Job), so a thousand
pods of one owner failing one check are one finding, with their count, a few names and each distinct
reason.
"""

from __future__ import annotations

from collections import defaultdict

from ...facts import prices
from ...facts.contract import REPELLING_EFFECTS, Taint
from ...placement import format_taint, tolerates
from ...placement.explain import NODE_AFFINITY, NODE_RESOURCES_FIT, TAINT_TOLERATION
from ...placement.pools import PLACEMENT_FILTERS
from .advice import (
    MAX_NAMES,
    correct_toleration,
    describe_instance,
    describe_price,
    idle_price,
    instance_types_with,
    most_gpus_in_catalog,
    near_misses,
    owner_of,
)
from .agents import gpus_not_advertised, node_agents_failing, node_agents_missing
from .engine import Audit, Finding

# Not a scheduler filter: a pending pod asks for more GPUs than any instance type of the pool has, so the
# NodeResourcesFit filter fails on every node whatever the pool's size.
GPUS_PER_NODE = "GPUsPerInstanceType"
# What a pod bound to a node must still satisfy there for the model to agree with the cluster.
# NodeUnschedulable is left out: cordoning a node leaves its pods running, by design.
BOUND_FILTERS = (TAINT_TOLERATION, NODE_AFFINITY)


def run_checks(audit: Audit) -> list[Finding]:
    """Every check's findings, most severe first, in a stable order."""
    findings = [
        *idle_gpus(audit),
        *gpu_leaks(audit),
        *pending_gpu_pods(audit),
        *gpus_not_advertised(audit),
        *node_agents_missing(audit),
        *node_agents_failing(audit),
        *model_mismatches(audit),
    ]
    order = {"error": 0, "warning": 1, "info": 2}
    return sorted(findings, key=lambda f: (order[f.severity], f.kind, f.title))


def pool_rows(audit: Audit) -> list[dict]:
    """Per GPU pool: nodes, GPUs allocatable, requested and idle."""
    rows = []
    for pool, nodes in audit.gpu_pools.items():
        gpu_nodes = [n for n in nodes if n.name in audit.gpu_node_names]
        allocatable = sum(n.gpus_allocatable or 0 for n in gpu_nodes)
        requested = sum(audit.gpus_requested(n) for n in gpu_nodes)
        rows.append(
            {
                "pool": pool,
                "instanceTypes": sorted({n.instance_type for n in gpu_nodes if n.instance_type}),
                "nodes": len(gpu_nodes),
                "gpusAllocatable": allocatable,
                "gpusRequested": requested,
                "gpusIdle": max(allocatable - requested, 0),
                "nodesWithoutGpuRequests": sum(
                    1 for n in gpu_nodes if (n.gpus_allocatable or 0) > 0 and audit.gpus_requested(n) == 0
                ),
            }
        )
    return rows


def idle_gpus(audit: Audit) -> list[Finding]:
    """GPU nodes that advertise GPUs no running pod requests."""
    findings = []
    for pool, nodes in audit.gpu_pools.items():
        empty, partial, idle_partial = [], [], 0
        for node in nodes:
            allocatable = node.gpus_allocatable or 0
            if node.name not in audit.gpu_node_names or allocatable <= 0:
                continue
            requested = audit.gpus_requested(node)
            if requested == 0:
                empty.append(node)
            elif requested < allocatable:
                partial.append(node)
                idle_partial += allocatable - requested
        if empty:
            idle = sum(n.gpus_allocatable or 0 for n in empty)
            node_prices = [idle_price(n.labels, n.instance_type) for n in empty]
            priced = [price.usd_per_hour for price in node_prices if price is not None]
            cost = ""
            if priced:
                hourly = sum(priced)
                bound = "" if len(priced) == len(empty) else "at least "
                cost = f", {bound}${hourly:,.2f} an hour (${hourly * prices.HOURS_PER_MONTH:,.2f} a month) on demand"
            findings.append(
                Finding(
                    "idle-gpus",
                    "warning",
                    f"{len(empty)} GPU node(s) of pool {pool} run no pod that requests a GPU: {idle} GPU(s) idle{cost}",
                    "GPUs allocatable vs requested by the pods bound to each node",
                    "schedule GPU work there or scale the pool down (desired and minimum size); an idle node "
                    "is billed for its whole instance type",
                    [n.name for n in empty],
                    [
                        f"{n.name}: {describe_instance(n.instance_type)}, {n.gpus_allocatable} GPU(s) allocatable, 0 "
                        f"requested, {describe_price(price)}"
                        for n, price in list(zip(empty, node_prices, strict=True))[:MAX_NAMES]
                    ],
                )
            )
        if partial:
            findings.append(
                Finding(
                    "idle-gpus",
                    "info",
                    f"{len(partial)} GPU node(s) of pool {pool} leave {idle_partial} GPU(s) unrequested beside their GPU pods",
                    "GPUs allocatable vs requested by the pods bound to each node",
                    "pack GPU pods onto fewer nodes or use a smaller instance type",
                    [n.name for n in partial],
                    [
                        f"{n.name}: {describe_instance(n.instance_type)}, {n.gpus_allocatable} allocatable, "
                        f"{audit.gpus_requested(n)} requested"
                        for n in partial[:MAX_NAMES]
                    ],
                )
            )
    return findings


def gpu_leaks(audit: Audit) -> list[Finding]:
    """Running pods that request no GPU, are no node agent, and sit on GPU nodes: one finding per owner."""
    groups: dict[str, list] = defaultdict(list)
    for node in audit.gpu_nodes:
        for pod in audit.pods_on.get(node.name, ()):
            if pod.owner_kind == "DaemonSet" or pod.mirror or audit.gpus(pod) > 0:
                continue
            groups[owner_of(pod)].append((pod, node, _admitting_tolerations(audit, pod, node)))
    findings = []
    taint = format_taint(audit.contract.taint) if audit.contract.taint else "the GPU taint"
    for owner, members in sorted(groups.items()):
        pools = sorted({node.pool for _, node, _ in members})
        where = f"GPU pool {pools[0]}" if len(pools) == 1 else f"GPU pools {', '.join(pools)}"
        findings.append(
            Finding(
                "gpu-leak",
                "warning",
                f"{len(members)} pod(s) {owner} request no GPU but run on {where}",
                "a pod that requests no GPU and is no node agent runs on a GPU node; TaintToleration names the "
                "toleration that let it past the node's taint",
                f"narrow the pod's tolerations to the taints it must tolerate (an `operator: Exists` toleration "
                f"without a key tolerates every taint), or keep it off GPU nodes with a nodeSelector; GPU nodes "
                f"should carry {taint}",
                [pod.id for pod, _, _ in members],
                [
                    *counted([lines for _, _, lines in members]),
                    *(f"{pod.id} on {node.name}" for pod, node, _ in members[:MAX_NAMES]),
                ],
            )
        )
    return findings


def counted(lines_per_member: list[tuple[str, ...]]) -> list[str]:
    """The distinct lines of a group's members, first seen first; a line not every member has says how many do.

    At most MAX_NAMES lines, then how many more there are.
    """
    counts: dict[str, int] = {}
    for lines in lines_per_member:
        for line in dict.fromkeys(lines):
            counts[line] = counts.get(line, 0) + 1
    total = len(lines_per_member)
    shown = [line if n == total else f"{line} ({n} of {total} pods)" for line, n in counts.items()]
    if len(shown) > MAX_NAMES:
        shown = [*shown[:MAX_NAMES], f"and {len(shown) - MAX_NAMES} more distinct reason(s)"]
    return shown


def _tolerations(audit: Audit, pod) -> list | tuple:
    """The pod's tolerations, as the grouping's view of it holds them."""
    return audit.grouping.pod_view(pod).get("spec", {}).get("tolerations") or ()


def _admitting_tolerations(audit: Audit, pod, node) -> tuple[str, ...]:
    tolerations = _tolerations(audit, pod)
    lines = []
    for taint in node.taints:
        if (taint.get("effect") or "") not in REPELLING_EFFECTS:
            continue
        toleration = next((t for t in tolerations if tolerates(t, taint)), None)
        if toleration is not None:
            lines.append(f"toleration {format_toleration(toleration)} tolerates {format_taint(taint)}")
        else:
            lines.append(
                f"no toleration of {format_taint(taint)}: the pod was placed before the taint (see model-mismatch)"
            )
    if not lines:
        lines.append("the node has no NoSchedule/NoExecute taint to keep such pods off")
    return tuple(lines)


def pending_gpu_pods(audit: Audit) -> list[Finding]:
    """Pending pods that request GPUs, explained against every GPU pool.

    Pods whose shapes give the same reasons share a finding, and so do the pods of one owner whatever their
    reasons (a DaemonSet's pods, each pinned to its own node, differ in shape and in reasons node by node).
    """
    by_shape: dict[object, list] = defaultdict(list)
    for pod in audit.snapshot.pods:
        if not pod.node_name and pod.phase == "Pending" and audit.gpus(pod) > 0:
            by_shape[audit.grouping.pod_key(pod)].append(pod)
    by_reasons: dict[tuple, list] = defaultdict(list)
    taints = _gpu_taints(audit)
    for pods in by_shape.values():
        reasons = _why_pending(audit, pods[0])
        tolerations = _tolerations(audit, pods[0])
        hints = tuple(near_misses(tolerations, taints)) if any(TAINT_TOLERATION in f for _, f, _ in reasons) else ()
        by_reasons[(reasons, hints, audit.gpus(pods[0]))].extend(pods)
    findings = []
    for keys, pods in _joined_by_owner(by_reasons):
        filters = {name for reasons, _, _ in keys for _, failed, _ in reasons for name in failed}
        hints = tuple(dict.fromkeys(hint for _, key_hints, _ in keys for hint in key_hints))
        lines = {
            key: (*(f"pool {pool}: {text}" if pool else text for pool, _, text in key[0]), *key[1]) for key in keys
        }
        if len(keys) == 1:
            title, details = _pending_summary(keys[0][0]), list(lines[keys[0]])
        else:
            common = max(keys, key=lambda key: sum(1 for pod in pods if pod.key == key))
            title = f"{len(keys)} distinct reasons, most often {_pending_summary(common[0])}"
            details = counted([lines[pod.key] for pod in pods])
        findings.append(
            Finding(
                "pending-gpu-pods",
                "error",
                f"{len(pods)} GPU pod(s) pending: {title}",
                "the scheduler's filters (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit) "
                "on each GPU pool",
                _pending_fix(
                    audit, filters, hints, max(wanted for _, _, wanted in keys), _untolerated(audit, pods, taints)
                ),
                sorted(pod.pod.id for pod in pods),
                details,
            )
        )
    return findings


class _Keyed:
    """A pending pod with the key of its reasons."""

    __slots__ = ("key", "pod")

    def __init__(self, pod, key: tuple) -> None:
        self.pod, self.key = pod, key


def _joined_by_owner(by_reasons: dict[tuple, list]) -> list[tuple[list[tuple], list[_Keyed]]]:
    """Groups of reason keys joined when one owner's pods fall under several; each with its pods, first pod first."""
    parent = {key: key for key in by_reasons}

    def root(key: tuple) -> tuple:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    first_key_of: dict[str, tuple] = {}
    for key, pods in by_reasons.items():
        for pod in pods:
            if pod.owner:
                other = first_key_of.setdefault(pod.owner, key)
                parent[root(key)] = root(other)
    joined: dict[tuple, tuple[list, list]] = {}
    for key, pods in by_reasons.items():
        keys, members = joined.setdefault(root(key), ([], []))
        keys.append(key)
        members.extend(_Keyed(pod, key) for pod in pods)
    groups = list(joined.values())
    return sorted(groups, key=lambda group: min(member.pod.id for member in group[1]))


def _why_pending(audit: Audit, pod) -> tuple:
    """(pool, failed filter names, text) per GPU pool, for one pod of a shape."""
    if not audit.gpu_pools:
        return (
            (
                "",
                (),
                "no GPU node in the snapshot (a pool at zero nodes is not listed; its autoscaler "
                "decides whether to add one)",
            ),
        )
    reasons = []
    wanted = audit.gpus(pod)
    for pool, nodes in audit.gpu_pools.items():
        placed, refused = [], defaultdict(list)
        for node in nodes:
            failed = audit.failures(pod, node, PLACEMENT_FILTERS)
            if failed:
                refused[tuple(failed.items())].append(node)
            else:
                placed.append(node)
        if not placed:
            text = " | ".join(
                f"{len(members)} node(s), e.g. {members[0].name}: " + "; ".join(t for _, t in failed)
                for failed, members in refused.items()
            )
            reasons.append((pool, tuple(sorted({name for failed in refused for name, _ in failed})), text))
            continue
        most = max(max(n.catalog_gpus, n.gpus_allocatable or 0) for n in placed)
        if wanted > most:
            types = ", ".join(sorted({describe_instance(n.instance_type) for n in placed}))
            text = (
                f"requests {wanted} GPU(s) and the pool's instance types have at most {most} ({types}); a pod "
                "runs on one node, so more nodes cannot hold it"
            )
            reasons.append((pool, (GPUS_PER_NODE,), text))
            continue
        free = {n.name: (n.gpus_allocatable or 0) - audit.gpus_requested(n) for n in placed}
        fits = next((n for n in placed if free[n.name] >= wanted and not audit.full_failures(pod, n)), None)
        if fits is not None:
            reasons.append(
                (
                    pool,
                    (),
                    f"fits on {fits.name} now: not yet bound, or held by something this audit "
                    "does not model (volumes, pod affinity, topology spread, scheduling gates)",
                )
            )
            continue
        emptiest = max(placed, key=lambda n: (free[n.name], _neg(n.name)))
        failed = audit.full_failures(pod, emptiest)
        text = f"no node with room; emptiest {emptiest.name}: " + "; ".join(failed.values())
        reasons.append((pool, tuple(sorted(failed)), text))
    return tuple(reasons)


def _gpu_taints(audit: Audit) -> list[dict]:
    """The distinct NoSchedule and NoExecute taints of the GPU nodes."""
    found: dict[str, dict] = {}
    for node in audit.gpu_nodes:
        for taint in node.taints:
            if (taint.get("effect") or "") in REPELLING_EFFECTS:
                found.setdefault(format_taint(taint), taint)
    return list(found.values())


def _neg(name: str) -> tuple:
    # max() with the first name winning ties.
    return tuple(-ord(c) for c in name)


def _pending_summary(reasons: tuple) -> str:
    if len(reasons) == 1:
        pool, _, text = reasons[0]
        return f"pool {pool}: {text}" if pool else text
    return "; ".join(f"pool {pool}: {', '.join(failed) or 'fits'}" for pool, failed, _ in reasons)


def _untolerated(audit: Audit, pods: list[_Keyed], taints: list[dict]) -> tuple[str, ...]:
    """The GPU nodes' taints that some of the pods do not tolerate, as kubectl writes them."""
    found: dict[str, None] = {}
    for keyed in pods:
        tolerations = _tolerations(audit, keyed.pod)
        for taint in taints:
            if not any(tolerates(toleration, taint) for toleration in tolerations):
                found[format_taint(taint)] = None
    return tuple(found)


def _pending_fix(
    audit: Audit, filters: set[str], hints: tuple[str, ...], wanted: int, untolerated: tuple[str, ...]
) -> str:
    contract = audit.contract
    fixes = []
    if hints:
        fixes.append(correct_toleration(hints))
    elif TAINT_TOLERATION in filters:
        taint = contract.taint
        contract_taint = format_taint(taint) if taint else None
        if taint and contract_taint in untolerated:
            toleration = Taint(taint["key"], taint.get("value") or "", taint["effect"]).toleration()
            fixes.append(f"add the toleration {format_toleration(toleration)}")
        others = [taint for taint in untolerated if taint != contract_taint]
        if others:
            # A pod that already tolerates the contract's taint gains nothing from being told to add it.
            it, them = ("the taint", "it") if len(others) == 1 else ("the taints", "them")
            fixes.append(
                f"the GPU nodes carry {', '.join(others)}, which the pod does not tolerate: remove {it} from the "
                f"nodes that carry {them}, or tolerate {them} if the pod should run there"
            )
    if GPUS_PER_NODE in filters:
        like = {n.instance_type for nodes in audit.gpu_pools.values() for n in nodes}
        if wanted > most_gpus_in_catalog():
            fixes.append(
                f"no instance type has {wanted} GPUs (at most {most_gpus_in_catalog()}): split the work over "
                "several pods (vLLM: tensor parallel within a node, pipeline parallel across nodes)"
            )
        else:
            fixes.append(
                f"run the pod on a GPU pool of an instance type with at least {wanted} GPUs, such as "
                f"{', '.join(instance_types_with(wanted, like))}, or request fewer GPUs; raising the pool's size "
                "cannot help"
            )
    if NODE_AFFINITY in filters:
        label = f"; the contract label is {contract.label[0]}={contract.label[1]}" if contract.label else ""
        fixes.append(
            f"make the nodeSelector/affinity ask only for labels the GPU pool's nodes carry (the details "
            f"name each missing one{label})"
        )
    if NODE_RESOURCES_FIT in filters:
        fixes.append("free or add GPUs: raise the pool's desired/maximum size (see idle GPUs for nodes to reclaim)")
    if not audit.gpu_pools:
        fixes.append("add a GPU node group, or check why its autoscaler does not scale it up")
    if not fixes:
        fixes.append("check the pod's events (kubectl describe pod): the blocker is outside the filters modelled here")
    return "; ".join(fixes)


def model_mismatches(audit: Audit) -> list[Finding]:
    """Running pods the model says could not be scheduled on their node today: one finding per owner."""
    groups: dict[str, list] = defaultdict(list)
    for pod in audit.snapshot.pods:
        if not pod.bound or pod.mirror:
            continue
        node = audit.nodes_by_name.get(pod.node_name)
        if node is None:
            groups[owner_of(pod)].append((pod, pod.node_name, ("its node is not in the snapshot",)))
            continue
        failed = audit.failures(pod, node, BOUND_FILTERS)
        if failed:
            groups[owner_of(pod)].append((pod, node.name, tuple(failed.values())))
    findings = []
    for owner, members in sorted(groups.items()):
        findings.append(
            Finding(
                "model-mismatch",
                "warning",
                f"{len(members)} running pod(s) {owner} could not be scheduled on their node today",
                "TaintToleration and NodeAffinity on the pod's own node",
                "if the node's taints or labels changed on purpose, add the toleration or fix the selector (a NoExecute "
                "taint evicts pods that do not tolerate it); otherwise the model misses a rule: report it",
                [pod.id for pod, _, _ in members],
                [
                    *counted([reasons for _, _, reasons in members]),
                    *(f"{pod.id} on {node}" for pod, node, _ in members[:MAX_NAMES]),
                ],
            )
        )
    return findings


def format_toleration(toleration: dict) -> str:
    """A toleration in one line: `key=value:Effect` (Equal), `key:Effect (Exists)`, `* (Exists)` for any taint."""
    key = toleration.get("key") or ""
    operator = toleration.get("operator") or "Equal"
    effect = toleration.get("effect") or ""
    suffix = f":{effect}" if effect else " (any effect)"
    if operator == "Exists":
        return (
            f"{key}{suffix} (Exists)" if key else f"operator Exists without key{'' if not effect else ' for ' + effect}"
        )
    return f"{key}={toleration.get('value') or ''}{suffix}"
