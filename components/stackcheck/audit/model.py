"""The cluster as the audit keeps it: nodes, pods grouped by scheduling shape, DaemonSets.

Only the fields the scheduler's filters and the findings read are kept. Pods that schedule alike
share one `Shape` (their tolerations, node selector, required node affinity and resource requests),
so the placement model runs once per shape and node signature rather than once per pod and node.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from ...facts import gpu_catalog
from ...facts.markers import (
    DCGM_EXPORTER_IMAGE_MARKER,
    DCGM_EXPORTER_LABEL_KEY,
    DCGM_EXPORTER_LABEL_VALUE,
    DEVICE_PLUGIN_IMAGE_MARKER,
    DEVICE_PLUGIN_LABEL_KEY,
    DEVICE_PLUGIN_LABEL_VALUE,
)
from ...placement import GPU_RESOURCE, is_device_plugin, parse_quantity, pod_requests
from ...placement.exporter import is_dcgm_exporter
from .snapshot import SnapshotError

# Pods in these phases hold no resources: the scheduler does not even list them (kubernetes
# pkg/scheduler/scheduler.go, newPodInformer: field selector status.phase!=Succeeded,status.phase!=Failed).
TERMINAL_PHASES = ("Succeeded", "Failed")
# Mirror pods of static pods: the kubelet runs them on its own node, the scheduler never places them
# (Kubernetes docs, "Static Pods": mirror Pods carry the kubernetes.io/config.mirror annotation).
MIRROR_ANNOTATION = "kubernetes.io/config.mirror"
INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"
# The pool a node belongs to: its EKS managed node group (the label placement.pools_for_node_groups
# models), its Karpenter NodePool (EKS docs, Auto Mode: nodeSelector `karpenter.sh/nodepool: system`),
# else its instance type.
POOL_LABELS = ("eks.amazonaws.com/nodegroup", "karpenter.sh/nodepool")
# The Deployment controller names each of its ReplicaSets `<deployment>-<hash>` and labels their pods
# `pod-template-hash: <hash>` (Kubernetes docs, "Deployments": "The name of a ReplicaSet is always formatted
# as [DEPLOYMENT-NAME]-[HASH]"; "the pod-template-hash label is added by the Deployment controller to every
# ReplicaSet that a Deployment creates or adopts"), so the pods of one Deployment, across the ReplicaSets of
# a rollout, are told apart from a bare ReplicaSet's without reading ReplicaSets.
TEMPLATE_HASH_LABEL = "pod-template-hash"
_REQUIRED = "requiredDuringSchedulingIgnoredDuringExecution"
_NAME_FIELD = "metadata.name"


@dataclass(eq=False, slots=True)
class Shape:
    """What the scheduler's filters read of a pod: one per distinct combination in the snapshot."""

    id: int
    pod: dict
    """A pod holding only the scheduling fields (placement functions take it as any pod)."""
    requests: dict
    """pod_requests(pod)."""


@dataclass(eq=False, slots=True)
class Pod:
    """One pod: identity, where it is bound, its phase, owner and shape."""

    namespace: str
    name: str
    node_name: str
    phase: str
    owner_kind: str
    owner_name: str
    shape: Shape
    device_plugin: bool
    owner: str = ""
    """The controller the pod belongs to, as `Kind namespace/name` (a Deployment for its ReplicaSets' pods); empty if none."""
    waiting: tuple[str, ...] = ()
    """`container: reason` for each container waiting (status.containerStatuses[].state.waiting.reason)."""
    exporter: bool = False
    """Marked as the DCGM exporter's pod (its label or image)."""
    mirror: bool = False
    """A static pod's mirror: placed by the kubelet, not the scheduler."""
    raw: dict | None = None
    """The pod as read; kept only when the snapshot is built with keep_raw (tests)."""

    @property
    def id(self) -> str:
        return f"{self.namespace}/{self.name}"

    @property
    def bound(self) -> bool:
        """Bound to a node and not finished: it holds resources there."""
        return bool(self.node_name) and self.phase not in TERMINAL_PHASES


@dataclass(eq=False, slots=True)
class Node:
    """One node: the object placement functions read, and what the audit derives from it."""

    view: dict
    """metadata (name, labels), spec (taints, unschedulable) and status.allocatable."""
    pool: str
    instance_type: str
    catalog_gpus: int
    """GPUs of the instance type per the catalog; 0 for CPU or uncatalogued types."""
    gpus_allocatable: int | None
    """`nvidia.com/gpu` allocatable; None when the node does not list it."""
    signature: int = -1
    """Nodes with equal signatures give equal results for every shape's placement filters."""
    raw: dict | None = None

    @property
    def name(self) -> str:
        return self.view["metadata"]["name"]

    @property
    def labels(self) -> dict:
        return self.view["metadata"]["labels"]

    @property
    def taints(self) -> list:
        return self.view["spec"]["taints"]


@dataclass(eq=False, slots=True)
class DaemonSet:
    """One DaemonSet: its (slimmed) object, for daemonset_pod() and is_device_plugin()."""

    namespace: str
    name: str
    obj: dict
    device_plugin: bool
    exporter: bool = False

    @property
    def id(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass
class Snapshot:
    """Every node, pod and DaemonSet of the cluster, with pods grouped by shape."""

    nodes: list[Node] = field(default_factory=list)
    pods: list[Pod] = field(default_factory=list)
    daemonsets: list[DaemonSet] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    keep_raw: bool = False
    _shape_index: dict = field(default_factory=dict, repr=False)

    def add(self, kind: str, item: dict) -> None:
        """The snapshot reader's sink: keep what the audit needs of `item`."""
        try:
            if kind == "Pod":
                self.pods.append(self._pod(item))
            elif kind == "Node":
                self.nodes.append(self._node(item))
            else:
                self.daemonsets.append(self._daemonset(item))
        except (ValueError, TypeError, AttributeError, KeyError) as error:
            metadata = item.get("metadata") if isinstance(item, dict) else None
            name = (metadata or {}).get("name") if isinstance(metadata, dict) else None
            raise SnapshotError(f"{kind} {name or '<unnamed>'}: malformed object: {error}") from None

    def _pod(self, item: dict) -> Pod:
        metadata = item.get("metadata") or {}
        spec = item.get("spec") or {}
        node_name = spec.get("nodeName") or ""
        owner_kind, owner_name = _controller(metadata)
        key = _scheduling_spec(spec, node_name)
        shape = self._shape_index.get(key)
        if shape is None:
            pod = {"metadata": {}, "spec": orjson.loads(key)}
            shape = Shape(len(self.shapes), pod, pod_requests(pod))
            self.shapes.append(shape)
            self._shape_index[key] = shape
        return Pod(
            namespace=metadata.get("namespace") or "default",
            name=metadata.get("name") or "<unnamed>",
            node_name=node_name,
            phase=(item.get("status") or {}).get("phase") or "",
            owner_kind=owner_kind,
            owner_name=owner_name,
            shape=shape,
            device_plugin=_is_device_plugin_pod(metadata, spec),
            exporter=_marked(
                metadata, spec, DCGM_EXPORTER_LABEL_KEY, DCGM_EXPORTER_LABEL_VALUE, DCGM_EXPORTER_IMAGE_MARKER
            ),
            owner=_owner(owner_kind, owner_name, metadata),
            waiting=_waiting(item.get("status") or {}),
            mirror=MIRROR_ANNOTATION in (metadata.get("annotations") or {}),
            raw=item if self.keep_raw else None,
        )

    def _node(self, item: dict) -> Node:
        metadata = item.get("metadata") or {}
        spec = item.get("spec") or {}
        labels = dict(metadata.get("labels") or {})
        allocatable = dict((item.get("status") or {}).get("allocatable") or {})
        view = {
            "metadata": {"name": metadata.get("name") or "<unnamed>", "labels": labels},
            "spec": {"taints": list(spec.get("taints") or ()), "unschedulable": bool(spec.get("unschedulable"))},
            "status": {"allocatable": allocatable},
        }
        instance_type = labels.get(INSTANCE_TYPE_LABEL) or labels.get("beta.kubernetes.io/instance-type") or ""
        entry = gpu_catalog.gpu_instance_type(instance_type)
        pool = next((labels[key] for key in POOL_LABELS if labels.get(key)), instance_type or "<no pool label>")
        gpus = allocatable.get(GPU_RESOURCE)
        return Node(
            view,
            pool,
            instance_type,
            entry.gpus if entry else 0,
            None if gpus is None else int(parse_quantity(gpus)),
            raw=item if self.keep_raw else None,
        )

    def _daemonset(self, item: dict) -> DaemonSet:
        metadata = item.get("metadata") or {}
        template = (item.get("spec") or {}).get("template") or {}
        tmeta = template.get("metadata") or {}
        tspec = template.get("spec") or {}
        slim_spec = orjson.loads(_scheduling_spec(tspec, ""))
        if tspec.get("hostNetwork"):
            slim_spec["hostNetwork"] = True
        obj: dict = {
            "kind": "DaemonSet",
            "metadata": {
                "name": metadata.get("name") or "<unnamed>",
                "namespace": metadata.get("namespace") or "default",
            },
            "spec": {"template": {"metadata": {"labels": dict(tmeta.get("labels") or {})}, "spec": slim_spec}},
        }
        # is_device_plugin() reads only labels and container images: ask it about the object as read.
        return DaemonSet(
            obj["metadata"]["namespace"], obj["metadata"]["name"], obj, is_device_plugin(item), is_dcgm_exporter(item)
        )

    def finish(self) -> None:
        """Group nodes by signature once every object is in."""
        keys, name_matters = referenced_label_keys(self)
        index: dict = {}
        for node in self.nodes:
            labels = node.labels
            signature = (
                tuple(sorted((key, labels[key]) for key in keys if key in labels)),
                orjson.dumps(node.taints, option=orjson.OPT_SORT_KEYS),
                node.view["spec"]["unschedulable"],
                node.name if name_matters else "",
            )
            node.signature = index.setdefault(signature, len(index))


def referenced_label_keys(snapshot: Snapshot) -> tuple[set[str], bool]:
    """The node label keys any pod or DaemonSet selects on, and whether any selects on the node name."""
    keys: set[str] = set()
    name_matters = False
    specs = [shape.pod["spec"] for shape in snapshot.shapes]
    specs += [ds.obj["spec"]["template"]["spec"] for ds in snapshot.daemonsets]
    for spec in specs:
        keys.update((spec.get("nodeSelector") or {}).keys())
        required = ((spec.get("affinity") or {}).get("nodeAffinity") or {}).get(_REQUIRED) or {}
        for term in required.get("nodeSelectorTerms") or ():
            for expression in term.get("matchExpressions") or ():
                keys.add(expression.get("key") or "")
            if term.get("matchFields"):
                name_matters = True
    return keys, name_matters


def _scheduling_spec(spec: dict, node_name: str) -> bytes:
    """The fields of a pod spec the filters read, as canonical JSON (the shape's key)."""
    slim: dict = {}
    for key in ("nodeSelector", "tolerations", "overhead"):
        if spec.get(key):
            slim[key] = spec[key]
    if spec.get("resources"):
        slim["resources"] = _resources(spec["resources"])
    required = ((spec.get("affinity") or {}).get("nodeAffinity") or {}).get(_REQUIRED)
    if required is not None:
        required = _without_own_node(required, node_name) if node_name else required
        if required is not None:
            slim["affinity"] = {"nodeAffinity": {_REQUIRED: required}}
    containers = [{"resources": _resources(c.get("resources"))} for c in spec.get("containers") or ()]
    slim["containers"] = [c for c in containers if c["resources"]]
    init = []
    for container in spec.get("initContainers") or ():
        entry = {"resources": _resources(container.get("resources"))}
        if container.get("restartPolicy"):
            entry["restartPolicy"] = container["restartPolicy"]
        init.append(entry)
    if init:
        slim["initContainers"] = init
    return orjson.dumps(slim, option=orjson.OPT_SORT_KEYS)


def _resources(resources: dict | None) -> dict:
    resources = resources or {}
    return {key: resources[key] for key in ("requests", "limits") if resources.get(key)}


def _without_own_node(required: dict, node_name: str) -> dict | None:
    """The required affinity of a pod bound to `node_name`, less `metadata.name In [node_name]` fields.

    The DaemonSet controller pins each of its pods to its node with exactly that matchFields term
    (Kubernetes docs, "DaemonSet: How Daemon Pods are scheduled": the controller replaces the pod's
    node affinity with a `matchFields` term on `metadata.name`). On the pod's own node it always
    holds, so dropping it changes no result there and lets DaemonSet pods share one shape. A term
    left with nothing always held, so the whole requirement holds: None.
    """
    own = {"key": _NAME_FIELD, "operator": "In", "values": [node_name]}
    terms = []
    for term in required.get("nodeSelectorTerms") or ():
        fields = term.get("matchFields") or []
        kept = [f for f in fields if f != own]
        if len(kept) == len(fields):
            terms.append(term)
            continue
        expressions = term.get("matchExpressions") or []
        if not kept and not expressions:
            return None
        new_term = dict(term)
        if kept:
            new_term["matchFields"] = kept
        else:
            new_term.pop("matchFields", None)
        terms.append(new_term)
    return {**required, "nodeSelectorTerms": terms}


def _controller(metadata: dict) -> tuple[str, str]:
    # Only the reference marked `controller: true` names the controller, wherever it stands in the list;
    # the others are owners for garbage collection only (ObjectMeta.ownerReferences, k8s.io/apimachinery
    # pkg/apis/meta/v1/types.go: "an entry in this list will point to this controller, with the controller
    # field set to true. There cannot be more than one managing controller.").
    owners = metadata.get("ownerReferences") or ()
    owner = next((o for o in owners if isinstance(o, dict) and o.get("controller") is True), None)
    return ((owner.get("kind") or ""), (owner.get("name") or "")) if owner else ("", "")


def _owner(kind: str, name: str, metadata: dict) -> str:
    if not kind or not name:
        return ""
    namespace = metadata.get("namespace") or "default"
    template_hash = (metadata.get("labels") or {}).get(TEMPLATE_HASH_LABEL)
    if kind == "ReplicaSet" and template_hash and name.endswith(f"-{template_hash}"):
        return f"Deployment {namespace}/{name[: -len(template_hash) - 1]}"
    return f"{kind} {namespace}/{name}"


def _waiting(status: dict) -> tuple[str, ...]:
    found = []
    for key in ("initContainerStatuses", "containerStatuses"):
        for entry in status.get(key) or ():
            reason = (((entry or {}).get("state") or {}).get("waiting") or {}).get("reason")
            if reason:
                found.append(f"{entry.get('name') or '<unnamed>'}: {reason}")
    return tuple(found)


def _is_device_plugin_pod(metadata: dict, spec: dict) -> bool:
    # The same markers placement.is_device_plugin() reads on the DaemonSet, read on the pod.
    return _marked(metadata, spec, DEVICE_PLUGIN_LABEL_KEY, DEVICE_PLUGIN_LABEL_VALUE, DEVICE_PLUGIN_IMAGE_MARKER)


def _marked(metadata: dict, spec: dict, label_key: str, label_value: str, image_marker: str) -> bool:
    if (metadata.get("labels") or {}).get(label_key) == label_value:
        return True
    containers = [*(spec.get("containers") or ()), *(spec.get("initContainers") or ())]
    return any(image_marker in (c.get("image") or "") for c in containers)
