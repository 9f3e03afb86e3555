"""Verdict 12, `provisioners-place-pods-alike`: every workload lands on the same pools whichever provisioner each
pool uses.

A Karpenter NodePool's nodes differ from a node group's in the labels the provisioner itself sets
(`karpenter.sh/nodepool`, `karpenter.sh/capacity-type` where a node group sets `eks.amazonaws.com/nodegroup` and
`eks.amazonaws.com/capacityType`). A workload that selects one of those, or that only a NodePool's template lets
in, would land elsewhere after a move between provisioners. The verdict computes the placement matrix as
configured and again with every pool as a node group, and names each workload and pool where they differ, with
the reason one of them gives.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from .guard import placement_matrix
from .pools import NodeGroupSpec, pools_for_node_groups
from .verdict import Verdict, _summary

VERDICT_ID = 12
NAME = "provisioners-place-pods-alike"
NODE_GROUP = "nodeGroup"


def provisioners_verdict(
    workloads: Iterable[dict], specs: Sequence[NodeGroupSpec], resources: Sequence[str] = ()
) -> Verdict:
    """Verdict 12 over the stack's pools (`specs`, as configured) and workloads."""
    other = [spec.name for spec in specs if spec.provisioner != NODE_GROUP]
    if not other:
        return Verdict(VERDICT_ID, NAME, True, "every pool is a node group; nothing to compare")
    workloads = list(workloads)
    configured = placement_matrix(workloads, pools_for_node_groups(specs), resources)
    as_node_groups = [dataclasses.replace(spec, provisioner=NODE_GROUP) for spec in specs]
    alike = placement_matrix(workloads, pools_for_node_groups(as_node_groups), resources)
    differences = []
    for row, node_group_row in zip(configured, alike, strict=True):
        if row.lands == node_group_row.lands or row.pool not in other:
            continue
        reasons = "; ".join(row.reasons or node_group_row.reasons)
        differences.append(
            f"{row.workload} {'lands' if row.lands else 'does not land'} on {row.pool} as provisioned, and "
            f"{'would' if node_group_row.lands else 'would not'} as a node group: {reasons}"
        )
    if differences:
        return Verdict(VERDICT_ID, NAME, False, _summary(differences), differences)
    return Verdict(
        VERDICT_ID,
        NAME,
        True,
        f"every workload lands on the same pools with {', '.join(other)} as a node group",
    )
