"""What a changed AMI pin does to a Karpenter pool (`plan --compare`): every node of the pools drifts.

The stack pins each EC2NodeClass's AMI with an alias (`amiSelectorTerms: [{alias: al2023@v...}]`, facts/
karpenter.py). The change updates the EC2NodeClass in place, and nothing else in the plan moves, yet Karpenter
marks every node launched from the old AMI `Drifted` ("If the AMI ... no longer matches, the node is drifted":
aws/karpenter-provider-aws website/content/en/v1.14/concepts/disruption.md at 1d927085, "Drift") and replaces each
one through the NodePool's disruption: budgeted (`spec.disruption.budgets`), the new node launched first, pods with
an active `karpenter.sh/do-not-disrupt` waited for. Every pod on the pools moves once; a one-replica model is down
until its new pod serves.

Pure functions of the plans' JSON documents, like `rolling.py`, whose workloads-on-a-pool this shares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...facts.resource_types import KARPENTER_NODE_CLASS, KARPENTER_NODE_POOL
from .rolling import EvictedWorkload, workloads_on

AMI_PATH = "spec.amiSelectorTerms"
"""The EC2NodeClass inputs that choose the AMI; a change below them drifts the nodes."""


@dataclass(frozen=True)
class Drift:
    """The nodes an EC2NodeClass's AMI change drifts."""

    pools: tuple[str, ...]
    """The NodePools whose `nodeClassRef` names the class."""
    budgets: tuple[str, ...]
    """Each pool's `nodes` disruption budget (`pool: nodes`), how many of its nodes move at once."""
    workloads: tuple[EvictedWorkload, ...]


def ami_drift(
    resource_type: str, paths: list[str], after: Mapping[str, Any], document: Mapping[str, Any]
) -> Drift | None:
    """The drift an update of the EC2NodeClass `after` causes when one of its changed input `paths` is under
    `AMI_PATH`; None for another type or change."""
    if resource_type != KARPENTER_NODE_CLASS or not any(path.startswith(AMI_PATH) for path in paths):
        return None
    name = _metadata(after).get("name")
    pools, budgets = [], []
    for entry in document.get("resources") or []:
        if not isinstance(entry, Mapping) or entry.get("type") != KARPENTER_NODE_POOL:
            continue
        spec = _inputs(entry).get("spec") or {}
        reference = ((spec.get("template") or {}).get("spec") or {}).get("nodeClassRef") or {}
        if reference.get("name") != name:
            continue
        pool = str(_metadata(entry).get("name") or entry.get("name"))
        pools.append(pool)
        nodes = [str(budget.get("nodes")) for budget in (spec.get("disruption") or {}).get("budgets") or []]
        # Karpenter's default budget when none is given: 10% of the pool's nodes (disruption.md, "Disruption Budgets").
        budgets.append(f"{pool}: {', '.join(nodes) if nodes else '10%'}")
    found: dict[str, EvictedWorkload] = {}
    for pool in pools:
        for workload in workloads_on(pool, document):
            found.setdefault(workload.workload, workload)
    return Drift(tuple(pools), tuple(budgets), tuple(found[key] for key in sorted(found)))


def drift_words(drift: Drift) -> str:
    """The drift in words: the pools whose nodes move, at what pace, and what each workload on them loses."""
    pools = ", ".join(drift.pools) if drift.pools else "no NodePool of this plan"
    moved = [
        f"{item.workload}{f' ({item.model})' if item.model else ''}, {item.replicas} replica(s): "
        + (
            "down until its pod serves on a new node"
            if item.goes_down
            else "serves on fewer replicas while its pods move"
        )
        for item in drift.workloads
    ]
    pace = f" (nodes at a time: {'; '.join(drift.budgets)}), each new node first" if drift.budgets else ""
    return f"drifts every node of {pools}{pace}" + (f", moving {'; '.join(moved)}" if moved else "")


def drift_data(drift: Drift) -> dict[str, Any]:
    return {
        "pools": list(drift.pools),
        "budgets": list(drift.budgets),
        "workloads": [
            {"workload": item.workload, "replicas": item.replicas, "model": item.model, "goesDown": item.goes_down}
            for item in drift.workloads
        ],
    }


def _metadata(resource: Mapping[str, Any]) -> Mapping[str, Any]:
    metadata = _inputs(resource).get("metadata")
    return metadata if isinstance(metadata, Mapping) else {}


def _inputs(resource: Mapping[str, Any]) -> Mapping[str, Any]:
    inputs = resource.get("inputs")
    return inputs if isinstance(inputs, Mapping) else {}
