"""Why a pod cannot land on a node: the scheduler's filters, one line each."""

from __future__ import annotations

from collections.abc import Iterable

from ..facts.contract import REPELLING_EFFECTS
from .affinity import node_affinity_mismatch
from .resources import Requests, insufficient_resources
from .taints import (
    NO_SCHEDULE,
    UNSCHEDULABLE_TAINT_KEY,
    find_untolerated_taint,
    format_taint,
    tolerates,
)

NODE_UNSCHEDULABLE = "NodeUnschedulable"
TAINT_TOLERATION = "TaintToleration"
NODE_AFFINITY = "NodeAffinity"
NODE_RESOURCES_FIT = "NodeResourcesFit"
# In the scheduler's default filter order.
FILTERS = (NODE_UNSCHEDULABLE, TAINT_TOLERATION, NODE_AFFINITY, NODE_RESOURCES_FIT)

_UNSCHEDULABLE_TAINT = {"key": UNSCHEDULABLE_TAINT_KEY, "effect": NO_SCHEDULE}


def explain(
    pod: dict, node: dict, existing_pods: Iterable[dict] = (), *, comparison_operators: bool = False
) -> list[str]:
    """Why `pod` cannot land on `node` already running `existing_pods`; empty exactly when it can.

    One line per failed filter: NodeUnschedulable (a cordoned node, unless the
    pod tolerates `node.kubernetes.io/unschedulable:NoSchedule`), TaintToleration
    (the first NoSchedule/NoExecute taint no toleration tolerates, as
    `key=value:Effect`; PreferNoSchedule never blocks), NodeAffinity (the
    nodeSelector pairs and required affinity terms that fail, with what the node
    has) and NodeResourcesFit (each resource short, requested vs free).
    `comparison_operators` enables the alpha Gt/Lt toleration operators.
    """
    return list(filter_failures(pod, node, existing_pods, comparison_operators=comparison_operators).values())


def can_schedule(
    pod: dict, node: dict, existing_pods: Iterable[dict] = (), *, comparison_operators: bool = False
) -> bool:
    """Whether `pod` passes every filter explain() checks on `node`."""
    return not filter_failures(pod, node, existing_pods, comparison_operators=comparison_operators)


def filter_failures(
    pod: dict,
    node: dict,
    existing_pods: Iterable[dict] = (),
    *,
    filters: Iterable[str] = FILTERS,
    requests: Requests | None = None,
    comparison_operators: bool = False,
) -> dict[str, str]:
    """The failed filters among `filters`, by filter name (see FILTERS), each with its explain() line.

    `requests` may pass `pod_requests(pod)` already computed.
    """
    spec = pod.get("spec") or {}
    node_spec = node.get("spec") or {}
    tolerations = spec.get("tolerations") or ()
    failures: dict[str, str] = {}
    for name in filters:
        if name == NODE_UNSCHEDULABLE:
            if node_spec.get("unschedulable") and not any(
                tolerates(t, _UNSCHEDULABLE_TAINT, comparison_operators=comparison_operators) for t in tolerations
            ):
                failures[name] = (
                    "node is unschedulable (cordoned) and the pod does not tolerate "
                    f"{format_taint(_UNSCHEDULABLE_TAINT)}"
                )
        elif name == TAINT_TOLERATION:
            taint = find_untolerated_taint(
                node_spec.get("taints"), tolerations, REPELLING_EFFECTS, comparison_operators=comparison_operators
            )
            if taint is not None:
                failures[name] = f"untolerated taint {format_taint(taint)}"
        elif name == NODE_AFFINITY:
            mismatch = node_affinity_mismatch(pod, node)
            if mismatch is not None:
                failures[name] = mismatch
        elif name == NODE_RESOURCES_FIT:
            short = insufficient_resources(pod, node, existing_pods, requests=requests)
            if short:
                failures[name] = "; ".join(short)
        else:
            raise ValueError(f"unknown filter {name!r}; known: {', '.join(FILTERS)}")
    return failures
