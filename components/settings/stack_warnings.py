"""Warnings of valid stack settings about the months after the first `pulumi up`: keys of a GPU pool its provisioner
never reads, and models that a replacement of their pool's nodes takes offline.

Both span what one section cannot see alone (a pool's provisioner beside its keys, a model beside its pool), so the
program gives them once the whole config holds (`__main__.py`), and the offline plan lists them with its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..facts.identity import PROJECT
from .fleet import Pool, Server

NODE_GROUP_ONLY_KEYS = {
    "min_size": "minSize",
    "desired_size": "desiredSize",
    "update_max_unavailable": "updateMaxUnavailable",
}
"""Keys only an EKS managed node group reads (the fields of `GpuNodeGroupSettings`, by their config spelling):
Karpenter and EKS Auto Mode launch a node per pending pod, remove empty ones and replace nodes by their NodePool's
disruption rules, so a pool of theirs has no minimum, desired count or update pace (`maxSize` caps it through the
NodePool's limits)."""

# How each provisioner replaces a pool's nodes, for the warning of a model with one replica.
REPLACEMENTS = {
    "nodeGroup": "EKS replaces every node of the group when its AMI release, Kubernetes version or launch template "
    "changes, draining them updateMaxUnavailable at a time",
    "karpenter": "Karpenter replaces a node that drifts from its NodePool or EC2NodeClass (a new AMI pin, disk or "
    "image cache), one at a time with the new node first, and a Spot node when EC2 interrupts it",
    "autoMode": "EKS Auto Mode replaces every node within 14 days (the NodePool's expireAfter 336h, a forceful "
    "expiry that waits for no new node) and when a new AMI drifts it",
}


def ignored_key_warnings(pools: Sequence[Pool], project: str = PROJECT) -> list[str]:
    """One warning per GPU pool whose config sets keys its provisioner never reads (`NODE_GROUP_ONLY_KEYS`, and
    `nodeRepair` on a Karpenter pool)."""
    warnings = []
    for pool in pools:
        settings = pool.settings
        if settings.node_group:
            continue
        names = dict(NODE_GROUP_ONLY_KEYS)
        if settings.karpenter:
            names["node_repair"] = "nodeRepair"
        ignored = [camel for name, camel in names.items() if name in settings.model_fields_set]
        if ignored:
            keys = ", ".join(f"{project}:{pool.config_key}.{key}" for key in ignored)
            warnings.append(
                f"{keys} {'is' if len(ignored) == 1 else 'are'} set, but provisioner {settings.provisioner!r} never "
                "reads them: it launches a node for each pending pod and removes empty ones, so the pool has no "
                "minimum, desired size or update pace (maxSize caps it); remove them, or use provisioner 'nodeGroup'"
            )
    return warnings


def one_replica_warnings(servers: Sequence[Server], project: str = PROJECT) -> list[str]:
    """One warning per model that serves from a single replica (`replicas: 1`, or `autoscaling.minReplicas: 1`):
    each replacement of its pool's nodes evicts it, and its PodDisruptionBudget (`maxUnavailable: 1`) lets the only
    replica go, so the model is down for a whole cold start; two replicas keep one serving while the other moves."""
    warnings = []
    for server in servers:
        vllm = server.settings
        scaled = vllm.autoscaling.enabled
        if (vllm.autoscaling.min_replicas if scaled else vllm.replicas) != 1:
            continue
        key = f"{project}:{server.config_key}.{'autoscaling.minReplicas' if scaled else 'replicas'}"
        pool = server.pool
        warnings.append(
            f"{key} is 1 on {pool.label} (provisioner {pool.settings.provisioner}): "
            f"{REPLACEMENTS[pool.settings.provisioner]}; its PodDisruptionBudget lets the one replica go, so "
            f"{vllm.model} is down for a cold start each time; set it to 2, with maxSize room for both, and the "
            "budget keeps one replica serving while the other moves"
        )
    return warnings
