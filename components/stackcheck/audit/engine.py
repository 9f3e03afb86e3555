"""The audit's working state: bound pods per node, GPU nodes, pools, and cached filter results.

Filter results are cached per (pod group, node group). `Grouping` groups pods by shape and nodes by
signature, so the placement model runs once per pair of groups; `PairwiseGrouping` treats every
pod and node (as read) as its own group, which is what checking every pod-node pair means. Both
must give the same findings.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import asdict, dataclass, field

from ...placement import GPU_RESOURCE, daemonset_pod, filter_failures, pod_requests
from .context import Contract, is_gpu_node, pools_of
from .model import DaemonSet, Node, Pod, Snapshot

SEVERITIES = ("error", "warning", "info")


@dataclass
class Finding:
    """One problem: what is wrong, on which objects, under which rule, and how to fix it."""

    kind: str
    """idle-gpus, gpu-leak, pending-gpu-pods, gpu-not-advertised, node-agent-missing, node-agent-failing or
    model-mismatch."""
    severity: str
    """error, warning or info."""
    title: str
    """One sentence naming the objects at stake."""
    rule: str
    """The scheduler rule or the check that found it."""
    fix: str
    """What to change."""
    objects: list[str] = field(default_factory=list)
    """Every object concerned: `namespace/name` for pods and DaemonSets, the name for nodes."""
    details: list[str] = field(default_factory=list)
    """One line per cause (per pool, per taint, ...)."""

    def to_dict(self) -> dict:
        return asdict(self)


class Grouping:
    """Pods by shape and nodes by signature: the audit's normal mode."""

    def pod_key(self, pod: Pod) -> object:
        return pod.shape.id

    def pod_view(self, pod: Pod) -> dict:
        return pod.shape.pod

    def pod_requests(self, pod: Pod) -> dict:
        return pod.shape.requests

    def node_key(self, node: Node) -> object:
        return node.signature

    def node_view(self, node: Node) -> dict:
        return node.view


class PairwiseGrouping(Grouping):
    """Every pod and node on its own, as read: the reference the grouped audit must agree with.

    Needs a snapshot built with keep_raw.
    """

    def pod_key(self, pod: Pod) -> object:
        return id(pod)

    def pod_view(self, pod: Pod) -> dict:
        return _raw(pod)

    def pod_requests(self, pod: Pod) -> dict:
        return pod_requests(_raw(pod))

    def node_key(self, node: Node) -> object:
        return id(node)

    def node_view(self, node: Node) -> dict:
        return _raw(node)


class Audit:
    """The snapshot with the indexes the checks share."""

    def __init__(self, snapshot: Snapshot, contract: Contract, grouping: Grouping | None = None) -> None:
        self.snapshot = snapshot
        self.contract = contract
        self.grouping = grouping or Grouping()
        self.pods_on: dict[str, list[Pod]] = defaultdict(list)
        for pod in snapshot.pods:
            if pod.bound:
                self.pods_on[pod.node_name].append(pod)
        self.nodes_by_name = {node.name: node for node in snapshot.nodes}
        self.gpu_nodes = [n for n in snapshot.nodes if is_gpu_node(n, contract)]
        self.gpu_node_names = {n.name for n in self.gpu_nodes}
        self.pools = pools_of(snapshot.nodes)
        self.gpu_pools = {
            name: nodes for name, nodes in self.pools.items() if any(n.name in self.gpu_node_names for n in nodes)
        }
        self.daemonsets = {(ds.namespace, ds.name): ds for ds in snapshot.daemonsets}
        self._ds_pods: dict[int, dict] = {}
        self._cache: dict = {}
        self._used: dict[str, dict] = {}

    def gpus(self, pod: Pod) -> int:
        """GPUs `pod` requests."""
        return math.ceil(self.grouping.pod_requests(pod).get(GPU_RESOURCE, 0))

    def failures(self, pod: Pod, node: Node, filters: tuple[str, ...]) -> dict[str, str]:
        """filter_failures of `pod` on `node` for placement filters (no resource fit), cached per group pair."""
        grouping = self.grouping
        key = (grouping.pod_key(pod), grouping.node_key(node), filters)
        found = self._cache.get(key)
        if found is None:
            found = filter_failures(grouping.pod_view(pod), grouping.node_view(node), filters=filters)
            self._cache[key] = found
        return found

    def daemonset_failures(self, daemonset: DaemonSet, node: Node, filters: tuple[str, ...]) -> dict[str, str]:
        """filter_failures of the pod `daemonset` creates, on `node`."""
        key = ("ds", id(daemonset), self.grouping.node_key(node), filters)
        found = self._cache.get(key)
        if found is None:
            pod = self._ds_pods.get(id(daemonset))
            if pod is None:
                pod = self._ds_pods[id(daemonset)] = daemonset_pod(daemonset.obj)
            found = filter_failures(pod, self.grouping.node_view(node), filters=filters)
            self._cache[key] = found
        return found

    def full_failures(self, pod: Pod, node: Node) -> dict[str, str]:
        """Every filter, resource fit included, against what already runs on `node` (not cached)."""
        existing = [self.grouping.pod_view(p) for p in self.pods_on.get(node.name, ())]
        return filter_failures(
            self.grouping.pod_view(pod),
            self.grouping.node_view(node),
            existing,
            requests=self.grouping.pod_requests(pod),
        )

    def used(self, node: Node) -> dict:
        """What the pods bound to `node` request, per resource."""
        used = self._used.get(node.name)
        if used is None:
            used = {}
            for pod in self.pods_on.get(node.name, ()):
                for name, amount in self.grouping.pod_requests(pod).items():
                    used[name] = used.get(name, 0) + amount
            self._used[node.name] = used
        return used

    def gpus_requested(self, node: Node) -> int:
        return math.ceil(self.used(node).get(GPU_RESOURCE, 0))

    def agent_pods(self, node: Node) -> list[tuple[str, Pod]]:
        """The device plugin's and the DCGM exporter's pods bound to `node`, each with its role."""
        found = [("device plugin", pod) for pod in self.device_plugin_pods(node)]
        for pod in self.pods_on.get(node.name, ()):
            owner = self.daemonsets.get((pod.namespace, pod.owner_name)) if pod.owner_kind == "DaemonSet" else None
            if not any(pod is p for _, p in found) and (pod.exporter or (owner is not None and owner.exporter)):
                found.append(("DCGM exporter", pod))
        return found

    def device_plugin_pods(self, node: Node) -> list[Pod]:
        """Device-plugin pods bound to `node`: marked as such, or owned by a device-plugin DaemonSet."""
        found = []
        for pod in self.pods_on.get(node.name, ()):
            owner = self.daemonsets.get((pod.namespace, pod.owner_name)) if pod.owner_kind == "DaemonSet" else None
            if pod.device_plugin or (owner is not None and owner.device_plugin):
                found.append(pod)
        return found


def _raw(item: Pod | Node) -> dict:
    assert item.raw is not None  # PairwiseGrouping reads a snapshot built with keep_raw
    return item.raw
