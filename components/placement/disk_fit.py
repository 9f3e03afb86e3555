"""Verdict `weights-fit-on-disk`: every model cache holds the weights downloaded into it, and every node's volume
holds what lands on it above the kubelet's eviction threshold, by the arithmetic of facts/node_disk.py.

A cache smaller than the weights has its pod evicted mid-download (an emptyDir past its `sizeLimit`) or its
download fail (a full claim), and the Deployment starts it again, in a loop; a node whose volume falls below 10%
free evicts its pods for disk pressure. Either way the stack cannot hold what it downloads, so the verdict fails
(the plan exits 1) rather than warns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..facts.node_disk import ModelCache, NodeDisk
from .verdict import Verdict, _summary

VERDICT_NAME = "weights-fit-on-disk"


@dataclass(frozen=True)
class NodeLoad:
    """One node of a pool with the most its pods may put on its volume."""

    pool: str
    key: str
    """The config key of the volume's size (`gpuNodeGroup.diskSize`)."""
    holds: str
    """Which pods the node holds, in words."""
    disk: NodeDisk


def disk_verdict(caches: Sequence[ModelCache], nodes: Sequence[NodeLoad]) -> Verdict:
    """The verdict over every model cache and every node's worst load; rows whose sizes are unknown pass, said so."""
    failed: list[str] = []
    details: list[str] = []
    for cache in caches:
        line = cache.arithmetic()
        if cache.fits is False:
            failed.append(f"{line}: the download fills it and the pod is evicted or fails; raise {cache.key}")
        else:
            details.append(line if cache.fits else f"not checked: {line}")
    for node in nodes:
        line = f"{node.pool} node holding {node.holds}: {node.disk.arithmetic()}"
        if node.disk.fits is False:
            failed.append(
                f"{line}; the kubelet evicts its pods for disk pressure: raise {node.key} to at least "
                f"{node.disk.least_disk_gib}"
            )
        else:
            details.append(line if node.disk.fits else f"not checked: {line}")
    if failed:
        return Verdict(VERDICT_NAME, False, _summary(failed), [*failed, *details])
    if not caches and not nodes:
        return Verdict(VERDICT_NAME, True, "no vLLM server is served from the stack config")
    unchecked = sum(1 for line in details if line.startswith("not checked"))
    message = f"{len(details) - unchecked} model cache(s) and node volume(s) hold what lands on them"
    if unchecked:
        message += f"; {unchecked} not checked, the sizes unknown"
    return Verdict(VERDICT_NAME, True, message, details)
