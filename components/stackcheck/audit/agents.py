"""The checks of the node agents on GPU nodes: the device plugin advertising GPUs, DaemonSets kept off GPU
nodes by their taints, and device-plugin and DCGM exporter pods whose containers wait (crash-looping, say)."""

from __future__ import annotations

from collections import defaultdict

from ...placement import GPU_RESOURCE
from ...placement.explain import NODE_AFFINITY, TAINT_TOLERATION
from ...placement.pools import PLACEMENT_FILTERS
from .advice import (
    MAX_NAMES,
    correct_toleration,
    describe_instance,
    near_misses,
    owner_of,
    pod_state,
    waiting_advice,
    waiting_reasons,
)
from .engine import Audit, Finding


def gpus_not_advertised(audit: Audit) -> list[Finding]:
    """GPU nodes whose `nvidia.com/gpu` allocatable is missing or 0, and why, per device plugin."""
    groups: dict[tuple, list] = defaultdict(list)
    plugins = [ds for ds in audit.snapshot.daemonsets if ds.device_plugin]
    for node in audit.gpu_nodes:
        if (node.gpus_allocatable or 0) > 0:
            continue
        running = audit.device_plugin_pods(node)
        if running:
            why: tuple[str, ...] = (
                f"device-plugin pod {running[0].id} is on the node ({pod_state(running[0].phase, running[0].waiting)}) "
                "but advertises no GPU",
                *waiting_advice(running[0].waiting),
            )
            fix = (
                "make the device plugin's containers run (see node-agent-failing)"
                if running[0].waiting
                else "read that pod's logs: the NVIDIA driver or container toolkit is missing or failing on the node"
            )
        elif not plugins:
            why = ("no NVIDIA device plugin DaemonSet in the snapshot",)
            fix = "install the NVIDIA device plugin (devicePlugin settings of the stack)"
        else:
            why = tuple(_plugin_absence(audit, ds, node) for ds in plugins)
            fix = "let the device plugin DaemonSet select and tolerate GPU nodes (its nodeSelector and tolerations)"
        groups[(node.pool, why, fix)].append(node)
    findings = []
    for (pool, why, fix), nodes in sorted(groups.items()):
        findings.append(
            Finding(
                "gpu-not-advertised",
                "error",
                f"{len(nodes)} GPU node(s) of pool {pool} advertise no {GPU_RESOURCE}",
                f"a GPU instance type or GPU label without {GPU_RESOURCE} in status.allocatable",
                fix,
                [n.name for n in nodes],
                [
                    *why,
                    *(
                        f"{n.name}: {describe_instance(n.instance_type)}, allocatable {GPU_RESOURCE} "
                        f"{'missing' if n.gpus_allocatable is None else n.gpus_allocatable}"
                        for n in nodes[:MAX_NAMES]
                    ),
                ],
            )
        )
    return findings


def _plugin_absence(audit: Audit, daemonset, node) -> str:
    failed = audit.daemonset_failures(daemonset, node, PLACEMENT_FILTERS)
    if failed:
        return f"DaemonSet {daemonset.id} does not land there: " + "; ".join(failed.values())
    return f"DaemonSet {daemonset.id} selects the node but has no pod on it yet"


def node_agents_missing(audit: Audit) -> list[Finding]:
    """DaemonSets whose selector and affinity take a GPU node while their tolerations do not admit its taints."""
    findings = []
    for daemonset in sorted(audit.snapshot.daemonsets, key=lambda ds: ds.id):
        by_taint: dict[str, list] = defaultdict(list)
        for node in audit.gpu_nodes:
            if audit.daemonset_failures(daemonset, node, (NODE_AFFINITY,)):
                continue
            failed = audit.daemonset_failures(daemonset, node, (TAINT_TOLERATION,))
            if failed:
                by_taint[failed[TAINT_TOLERATION]].append(node)
        tolerations = daemonset.obj["spec"]["template"]["spec"].get("tolerations") or ()
        for reason, nodes in sorted(by_taint.items()):
            taint = reason.rsplit(" ", 1)[-1]
            hints = near_misses(tolerations, nodes[0].taints)
            findings.append(
                Finding(
                    "node-agent-missing",
                    "warning",
                    f"DaemonSet {daemonset.id} selects {len(nodes)} GPU node(s) but cannot run there: {reason}",
                    "TaintToleration: the DaemonSet's pod does not tolerate the GPU nodes' taint",
                    (
                        correct_toleration(hints)
                        if hints
                        else f"add a toleration of {taint} to the DaemonSet's pod template"
                    ),
                    [daemonset.id, *(n.name for n in nodes)],
                    [*hints, f"pools: {', '.join(sorted({n.pool for n in nodes}))}"],
                )
            )
    return findings


def node_agents_failing(audit: Audit) -> list[Finding]:
    """Device-plugin and DCGM exporter pods on GPU nodes with a container waiting: one finding per owner and reason.

    Such a pod's phase stays Running while a container crash-loops, so the phase alone hides it.
    """
    groups: dict[tuple, list] = defaultdict(list)
    for node in audit.gpu_nodes:
        for role, pod in audit.agent_pods(node):
            if pod.waiting:
                reasons = tuple(sorted(waiting_reasons(pod.waiting)))
                groups[(role, owner_of(pod), reasons)].append((pod, node))
    findings = []
    for (role, owner, reasons), members in sorted(groups.items()):
        plugin = role == "device plugin"
        findings.append(
            Finding(
                "node-agent-failing",
                "error" if plugin else "warning",
                f"{len(members)} {role} pod(s) {owner} on GPU nodes wait: {', '.join(reasons)}",
                "status.containerStatuses[].state.waiting.reason of the pods on GPU nodes (their phase stays "
                "Running while a container restarts)",
                (
                    "fix what the details say and let the pods restart; until then the node advertises no new GPU "
                    "and one that fails stays allocatable"
                    if plugin
                    else "fix what the details say and let the pods restart; until then the nodes' GPU metrics "
                    "and alerts are missing"
                ),
                [pod.id for pod, _ in members],
                [
                    *waiting_advice(line for pod, _ in members for line in pod.waiting),
                    *(
                        f"{pod.id} on {node.name}: {pod_state(pod.phase, pod.waiting)}"
                        for pod, node in members[:MAX_NAMES]
                    ),
                ],
            )
        )
    return findings
