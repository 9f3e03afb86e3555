"""What the findings tell the user to change, where the filters' own text is not enough.

- A toleration that nearly matches a taint it fails (a typo or the wrong case in its key, value or effect)
  is named with the difference: the scheduler compares them byte for byte (Kubernetes
  `Toleration.ToleratesTaint`, k8s.io/api core/v1 toleration.go), and label and taint values are case
  sensitive, so `GPU=True` tolerates nothing of `GPU=true`.
- A GPU request larger than every instance type of a pool is answered with the instance types that could
  hold it (components/facts/gpu_catalog.py): a pod's containers all run on one node, so more nodes never help.
- A container's waiting reason (`status.containerStatuses[].state.waiting.reason`: CrashLoopBackOff,
  ImagePullBackOff, ...; Kubernetes docs, "Pod Lifecycle", Container states: "Waiting ... a Reason field
  summarizes why the container is in that state") is shown beside the pod's phase, which stays `Running`
  while one of its containers crash-loops.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...facts import gpu_catalog, prices
from ...placement import format_taint, tolerates

# Pods, nodes and reasons a finding lists by name before it says how many more there are.
MAX_NAMES = 8
# Edits (insert, delete, replace, swap two neighbours) that still read as a typo of the intended word.
MAX_TYPO_EDITS = 2
# Instance types named in advice, fewest GPUs first.
MAX_SUGGESTIONS = 6
# What each waiting reason means and what to look at; the reasons are the kubelet's (kubernetes
# pkg/kubelet/images/types.go: ImagePullBackOff, ErrImagePull, InvalidImageName; pkg/kubelet/container/
# sync_result.go: CrashLoopBackOff; pkg/kubelet/kuberuntime/kuberuntime_container.go: CreateContainerConfigError,
# CreateContainerError).
WAITING_ADVICE = {
    "CrashLoopBackOff": "the container exits soon after it starts; read `kubectl logs --previous` of the pod",
    "ImagePullBackOff": "the image cannot be pulled (name, tag, registry credentials or the node's egress)",
    "ErrImagePull": "the image cannot be pulled (name, tag, registry credentials or the node's egress)",
    "InvalidImageName": "the image reference is malformed",
    "CreateContainerConfigError": "a ConfigMap, Secret or key the container references is missing",
    "CreateContainerError": "the runtime cannot create the container; see `kubectl describe pod`",
}


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, replacements and adjacent swaps."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, char_b in enumerate(b, 1):
            cost = 0 if char_a == char_b else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(b)]


def _differs(field: str, wrote: str, wanted: str) -> str | None:
    """How `wrote` misses `wanted` when it is a near miss; None when equal or too far apart to be a typo."""
    if wrote == wanted:
        return None
    if wrote.lower() == wanted.lower():
        return f"{field} {wrote!r} differs from {wanted!r} in case only ({field}s are case sensitive)"
    distance = edit_distance(wrote, wanted)
    # A short word within two edits of another could be any word: ask for at most a third of it changed.
    if distance <= MAX_TYPO_EDITS and distance * 3 <= max(len(wanted), 1):
        return f"{field} {wrote!r} is {distance} edit(s) from {wanted!r}"
    return None


def near_miss(toleration: dict, taint: dict) -> str | None:
    """Why `toleration` does not tolerate `taint` although it nearly does: one field a typo, the others exact.

    None when it tolerates the taint or is no near miss (a different key altogether, say).
    """
    if tolerates(toleration, taint):
        return None
    key, value, effect = (toleration.get(name) or "" for name in ("key", "value", "effect"))
    operator = toleration.get("operator") or "Equal"
    wanted_key, wanted_value, wanted_effect = (taint.get(name) or "" for name in ("key", "value", "effect"))
    if not key:
        return None
    misses = []
    if operator.lower() in ("equal", "exists") and operator not in ("Equal", "Exists"):
        misses.append(f"operator {operator!r} is not Equal or Exists (operators are case sensitive)")
    for field, wrote, wanted in (("key", key, wanted_key), ("effect", effect, wanted_effect)):
        if field == "effect" and not wrote:
            continue  # an empty effect matches every effect
        if wrote != wanted:
            miss = _differs(field, wrote, wanted)
            if miss is None:
                return None
            misses.append(miss)
    if operator != "Exists" and value != wanted_value:
        miss = _differs("value", value, wanted_value)
        if miss is None:
            return None
        misses.append(miss)
    if not misses or len(misses) > 1 and not all("case" in miss for miss in misses):
        return None
    return f"toleration {_toleration(toleration)} nearly matches taint {format_taint(taint)}: {'; '.join(misses)}"


def correct_toleration(hints: list[str] | tuple[str, ...]) -> str:
    """The fix a finding gives for its first near-miss line: the toleration and the difference it names."""
    return f"correct the toleration the details name ({hints[0].split(': ', 1)[1]})"


def near_misses(tolerations: Iterable[object], taints: Iterable[dict]) -> list[str]:
    """One line per toleration that nearly matches one of `taints` it does not tolerate, first seen first."""
    found: dict[str, None] = {}
    taints = list(taints)
    for toleration in tolerations:
        if not isinstance(toleration, dict):
            continue
        for taint in taints:
            line = near_miss(toleration, taint)
            if line is not None:
                found[line] = None
    return list(found)


def _toleration(toleration: dict) -> str:
    key, value = toleration.get("key") or "", toleration.get("value") or ""
    effect = toleration.get("effect") or ""
    operator = toleration.get("operator") or "Equal"
    shown = f"{key}={value}" if operator != "Exists" else f"{key} ({operator})"
    return f"{shown}:{effect}" if effect else shown


def instance_types_with(gpus: int, like: Iterable[str] = ()) -> list[str]:
    """Catalogued GPU instance types with at least `gpus` GPUs: those with the GPU model of `like` first.

    Each as `name (Nx model)`, fewest GPUs then fewest vCPUs first, at most MAX_SUGGESTIONS.
    """
    models = {entry.gpu_model for name in like if (entry := gpu_catalog.gpu_instance_type(name)) is not None}
    fitting = [entry for entry in gpu_catalog.GPU_INSTANCE_TYPES.values() if entry.gpus >= gpus]
    fitting.sort(key=lambda entry: (entry.gpu_model not in models, entry.gpus, entry.vcpus, entry.name))
    return [f"{entry.name} ({entry.gpus}x {entry.gpu_model})" for entry in fitting[:MAX_SUGGESTIONS]]


def most_gpus_in_catalog() -> int:
    """The most GPUs any catalogued instance type has."""
    return max(entry.gpus for entry in gpu_catalog.GPU_INSTANCE_TYPES.values())


def pod_state(phase: str, waiting: Iterable[str]) -> str:
    """The pod's phase, with each waiting container's reason: `Running; main: CrashLoopBackOff`."""
    return "; ".join([phase or "phase unknown", *waiting])


def waiting_reasons(waiting: Iterable[str]) -> list[str]:
    """The distinct reasons of a pod's `container: reason` waiting lines (audit/model.py), first seen first."""
    return list(dict.fromkeys(line.rsplit(": ", 1)[-1] for line in waiting))


def waiting_advice(waiting: Iterable[str]) -> list[str]:
    """What each distinct waiting reason means, for the reasons WAITING_ADVICE knows."""
    reasons = waiting_reasons(waiting)
    return [f"{reason}: {WAITING_ADVICE[reason]}" for reason in reasons if reason in WAITING_ADVICE]


def owner_of(pod) -> str:
    """What findings group a pod under, as the words after `N pod(s)`: its controller, else its namespace.

    Pods without a controller (created one by one, by hand or by a tool) are grouped per namespace, so a
    tool that creates many of them still gives one finding per check.
    """
    return f"of {pod.owner}" if pod.owner else f"without a controller in namespace {pod.namespace}"


def describe_instance(instance_type: str) -> str:
    """`g5.xlarge (1x NVIDIA A10G)` for a catalogued GPU type, else the name (or that it is unknown)."""
    entry = gpu_catalog.lookup(instance_type) if instance_type else None
    if entry is not None and entry.gpus:
        return f"{instance_type} ({entry.gpus}x {entry.gpu_model})"
    return instance_type or "instance type unknown"


# The labels that say a node is Spot, and their Spot values: EKS managed node groups label their nodes
# `eks.amazonaws.com/capacityType` (ON_DEMAND, SPOT, CAPACITY_BLOCK; placement/pools.py), Karpenter
# `karpenter.sh/capacity-type` (`reserved`, `spot`, `on-demand`; karpenter-provider-aws
# website/content/en/docs/concepts/scheduling.md, "Well-Known Labels").
CAPACITY_TYPE_LABELS = {"eks.amazonaws.com/capacityType": "ON_DEMAND", "karpenter.sh/capacity-type": "on-demand"}
REGION_LABEL = "topology.kubernetes.io/region"


def idle_price(labels: dict, instance_type: str) -> prices.Price | None:
    """What an idle node costs an hour on demand, from its instance type and region labels; None for a node
    that is not on demand (Spot prices move, reserved capacity is paid up front) or that the table does not
    price."""
    for key, on_demand in CAPACITY_TYPE_LABELS.items():
        if labels.get(key) and labels[key] != on_demand:
            return None
    region = labels.get(REGION_LABEL)
    return prices.on_demand(instance_type, region) if region and instance_type else None


def describe_price(price: prices.Price | None) -> str:
    """`$1.006 an hour ($734.38 a month) on demand`, or why there is no price."""
    if price is None:
        return "not priced (Spot or reserved, or no price for its type and region)"
    return f"${price.usd_per_hour:g} an hour (${price.usd_per_month:,.2f} a month) on demand"
