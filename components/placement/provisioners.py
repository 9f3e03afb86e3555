"""The verdict `provisioners-place-pods-alike`: every workload lands on the same pools whichever provisioner each
pool uses.

A Karpenter NodePool's nodes differ from a node group's in the labels the provisioner itself sets
(`karpenter.sh/nodepool`, `karpenter.sh/capacity-type` where a node group sets `eks.amazonaws.com/nodegroup` and
`eks.amazonaws.com/capacityType`). A workload that selects one of those, or that only a NodePool's template lets
in, would land elsewhere after a move between provisioners. The verdict computes the placement matrix as
configured and again with every pool as a node group, and names each workload and pool where they differ, with
the reason one of them gives.

An EKS Auto Mode pool is read the same way. Its nodes run the NVIDIA device plugin and GPU monitoring themselves,
so the stack keeps its own device plugin and DCGM exporter off them on purpose (facts/auto_mode.py); `device-plugin-covers-gpu-pools`
and `dcgm-exporter-covers-gpu-pools` judge those, and here their difference on an Auto Mode pool is noted, not failed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from ..facts import auto_mode
from .exporter import is_dcgm_exporter
from .guard import placement_matrix
from .pools import NodeGroupSpec, pools_for_node_groups
from .verdict import Verdict, _summary
from .workloads import is_device_plugin, workload_id

NAME = "provisioners-place-pods-alike"
NODE_GROUP = "nodeGroup"


def provisioners_verdict(
    workloads: Iterable[dict], specs: Sequence[NodeGroupSpec], resources: Sequence[str] = ()
) -> Verdict:
    """`provisioners-place-pods-alike` over the stack's pools (`specs`, as configured) and workloads."""
    other = [spec.name for spec in specs if spec.provisioner != NODE_GROUP]
    if not other:
        return Verdict(NAME, True, "every pool is a node group; nothing to compare")
    workloads = list(workloads)
    configured = placement_matrix(workloads, pools_for_node_groups(specs), resources)
    as_node_groups = [dataclasses.replace(spec, provisioner=NODE_GROUP) for spec in specs]
    alike = placement_matrix(workloads, pools_for_node_groups(as_node_groups), resources)
    auto = {spec.name for spec in specs if spec.provisioner == auto_mode.PROVISIONER}
    own_agents = {workload_id(w) for w in workloads if is_device_plugin(w) or is_dcgm_exporter(w)}
    differences, noted = [], []
    for row, node_group_row in zip(configured, alike, strict=True):
        if row.lands == node_group_row.lands or row.pool not in other:
            continue
        reasons = "; ".join(row.reasons or node_group_row.reasons)
        if row.pool in auto and row.workload in own_agents and not row.lands:
            noted.append(f"{row.workload} keeps off EKS Auto Mode pool {row.pool}, which runs its own: {reasons}")
            continue
        differences.append(
            f"{row.workload} {'lands' if row.lands else 'does not land'} on {row.pool} as provisioned, and "
            f"{'would' if node_group_row.lands else 'would not'} as a node group: {reasons}"
        )
    if differences:
        return Verdict(NAME, False, _summary(differences), differences + noted)
    return Verdict(
        NAME,
        True,
        f"every workload lands on the same pools with {', '.join(other)} as a node group"
        + (f"; noted: {' | '.join(noted)}" if noted else ""),
        noted,
    )
