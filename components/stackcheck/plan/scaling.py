"""Verdicts 13 and 14 of the offline plan: the KEDA ScaledObjects it rendered, against the workloads they scale,
the node pools and the Cluster Autoscaler it registered (components/placement/scaling.py)."""

from __future__ import annotations

from typing import Any

from ...placement import scaling
from ...placement.verdict import Verdict


def scaling_verdicts(objects: list[Any], workloads: list[dict], node_pools: list[dict]) -> list[Verdict]:
    """Verdict 13 `replicas-fit-at-max` and verdict 14 `scaling-outlasts-startup`."""
    scalers = [obj.manifest for obj in objects if (obj.api_version, obj.kind) == scaling.SCALED_OBJECT]
    scaled = scaling.scaled_workloads(scalers, workloads)
    return [
        scaling.replicas_fit_verdict(scaled, workloads, node_pools),
        scaling.scaling_outlasts_startup_verdict(scaled, scaling.autoscaler_node_hold(workloads)),
    ]
