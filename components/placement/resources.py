"""Effective pod requests and the scheduler's NodeResourcesFit filter."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

from ..facts.contract import NVIDIA_GPU_RESOURCE as GPU_RESOURCE  # noqa: F401 re-exported
from ..facts.quantity import format_quantity, parse_quantity, round_up

# Resources a pod-level `spec.resources` may set (upstream: IsSupportedPodLevelResource).
_POD_LEVEL_RESOURCES = ("cpu", "memory")
_CORE_RESOURCES = ("cpu", "memory", "ephemeral-storage")

Requests = dict[str, Fraction]
_ZERO = Fraction(0)


def pod_requests(pod: dict) -> Requests:
    """The amounts the scheduler charges for `pod`, per resource.

    Per resource: the larger of the sum over containers and the peak during
    init (each init container alone, plus the restartable sidecars started
    before it; sidecars with `restartPolicy: Always` also add to the
    steady-state sum), then pod-level `spec.resources` for cpu/memory when set,
    plus `spec.overhead`. A container's request defaults to its limit, as API
    server defaulting does. cpu is rounded up to millicores, everything else
    to whole units (upstream: resourcehelper.PodRequests, then NewResource).
    """
    spec = pod.get("spec") or {}
    total: Requests = {}
    for container in spec.get("containers") or ():
        _add(total, _container_requests(container))
    sidecars: Requests = {}
    init_peak: Requests = {}
    for container in spec.get("initContainers") or ():
        requests = _container_requests(container)
        if container.get("restartPolicy") == "Always":
            # A sidecar keeps running beside the app containers and the later init containers.
            _add(total, requests)
            _add(sidecars, requests)
            during_init = dict(sidecars)
        else:
            during_init = dict(requests)
            _add(during_init, sidecars)
        _max(init_peak, during_init)
    _max(total, init_peak)
    pod_level = _container_requests(spec)
    for name in _POD_LEVEL_RESOURCES:
        if name in pod_level:
            total[name] = pod_level[name]
    _add(total, {name: parse_quantity(q) for name, q in (spec.get("overhead") or {}).items()})
    return {name: round_up(name, value) for name, value in total.items()}


def node_allocatable(node: dict) -> Requests:
    """`status.allocatable` of `node` as amounts, rounded like pod requests.

    A resource the node does not list counts as 0, including `pods` (upstream
    reads only allocatable, never capacity).
    """
    allocatable = (node.get("status") or {}).get("allocatable") or {}
    try:
        return dict(_amounts(tuple(allocatable.items())))
    except TypeError:  # an unhashable value; let parse_quantity name it
        return {name: round_up(name, parse_quantity(q)) for name, q in allocatable.items()}


@lru_cache(maxsize=1024)
def _amounts(items: tuple) -> tuple:
    # Pools share a handful of node templates: parse each allocatable once.
    return tuple((name, round_up(name, parse_quantity(q))) for name, q in items)


def fits_resources(pod: dict, node: dict, existing_pods: Iterable[dict] = ()) -> bool:
    """Whether `pod` passes the NodeResourcesFit filter on `node` already running `existing_pods`.

    Each resource the pod requests (> 0) must fit in allocatable minus what the
    existing pods request (an unlisted resource has 0 allocatable), and the
    node must have room for one more pod under its `pods` allocatable.
    """
    return not insufficient_resources(pod, node, existing_pods)


def insufficient_resources(
    pod: dict, node: dict, existing_pods: Iterable[dict] = (), *, requests: Requests | None = None
) -> list[str]:
    """One line per resource that does not fit, e.g. `Insufficient nvidia.com/gpu: requests 2, free 1`.

    Empty when the pod fits. `requests` may pass `pod_requests(pod)` already computed.
    """
    if requests is None:
        requests = pod_requests(pod)
    allocatable = node_allocatable(node)
    existing_pods = list(existing_pods)
    used: Requests = {}
    for other in existing_pods:
        _add(used, pod_requests(other))
    problems = []
    allowed_pods = allocatable.get("pods", _ZERO)
    if len(existing_pods) + 1 > allowed_pods:
        problems.append(
            f"Too many pods: allocatable {format_quantity('pods', allowed_pods)}, already running {len(existing_pods)}"
        )
    for name in sorted(requests, key=_resource_order):
        wanted = requests[name]
        # upstream: a zero request never fails, even on an overcommitted node.
        if wanted <= 0 or name == "pods":
            continue
        free = allocatable.get(name, _ZERO) - used.get(name, 0)
        if wanted > free:
            line = f"Insufficient {name}: requests {_pair(name, wanted, free)}"
            if name not in allocatable:
                line += f" (node does not advertise {name})"
            problems.append(line)
    return problems


def _pair(name: str, wanted: Fraction, free: Fraction) -> str:
    if name == "cpu" and (wanted.denominator != 1 or free.denominator != 1):
        # One unit for both sides: "requests 2000m, free 1930m" rather than "requests 2, free 1930m".
        return f"{_milli(wanted)}m, free {_milli(free)}m"
    return f"{format_quantity(name, wanted)}, free {format_quantity(name, free)}"


def _milli(cores: Fraction) -> str:
    milli = cores * 1000
    return str(milli.numerator) if milli.denominator == 1 else f"{float(milli):g}"


def _container_requests(holder: dict) -> Requests:
    resources = holder.get("resources") or {}
    amounts = {name: parse_quantity(q) for name, q in (resources.get("limits") or {}).items()}
    amounts.update({name: parse_quantity(q) for name, q in (resources.get("requests") or {}).items()})
    return amounts


def _add(into: Requests, amounts: Requests) -> None:
    for name, value in amounts.items():
        into[name] = into.get(name, 0) + value


def _max(into: Requests, amounts: Requests) -> None:
    for name, value in amounts.items():
        if value > into.get(name, 0):
            into[name] = value


def _resource_order(name: str) -> tuple[int, str]:
    return (_CORE_RESOURCES.index(name), "") if name in _CORE_RESOURCES else (len(_CORE_RESOURCES), name)
