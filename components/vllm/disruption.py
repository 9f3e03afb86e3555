"""How long a vLLM server's pod keeps Karpenter, and EKS Auto Mode, whose disruption is Karpenter's, from moving it
by choice: its whole cold start from the pod's start time.

Karpenter counts a `karpenter.sh/do-not-disrupt` duration from the pod's `status.startTime`, which the kubelet sets
before it pulls the images (facts/karpenter.py, `DO_NOT_DISRUPT`), so the window holds the steps of the cold-start
model (facts/cold_start.py) from the pod's start: the image on the node (`IMAGE`), the wait for the weights copy
(`vllm.source.seed`, whose init container waits at most `weights_copy.wait_seconds`) and the startup probe's
allowance, past which the kubelet restarts the container anyway. An image the model cannot time (one whose size
it does not record, or a lazily restored snapshot) takes the scheduling-and-pull allowance the Deployment's progress
deadline gives it. Pure: no Pulumi.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..facts import cold_start
from ..facts.karpenter import DO_NOT_DISRUPT
from ..settings import GpuNodeGroupSettings, VllmSettings
from . import weights_copy
from .manifests import SCHEDULING_AND_PULL_SECONDS


def image_seconds(settings: VllmSettings, pool: GpuNodeGroupSettings) -> int:
    """Seconds until the server's image is on a node of `pool`: the cold-start model's `IMAGE` step for the pool's
    image cache, volume and first instance type, or `SCHEDULING_AND_PULL_SECONDS` when it has no figure."""
    instance = pool.smallest_instance
    start = cold_start.Start(
        provisioner=pool.provisioner,
        ami_family=pool.ami_family,
        image=settings.image,
        image_cache=pool.image_cache,
        fast_snapshot_restore=pool.fast_snapshot_restore,
        volume_throughput_mibps=pool.volume_throughput_mibps,
        instance=instance.name,
        network_baseline_gbps=instance.network_baseline_gbps,
    )
    steps, _ = cold_start.cold_start_steps(start)
    image = [step.seconds for step in steps if step.name == cold_start.IMAGE]
    return math.ceil(image[0]) if image else SCHEDULING_AND_PULL_SECONDS


def do_not_disrupt_seconds(
    settings: VllmSettings, pool: GpuNodeGroupSettings, node_types: Sequence[str] = weights_copy.DEFAULT_NODE_TYPES
) -> int:
    """The window from the pod's start to the end of its startup allowance: the image, the wait for the weights copy
    when the stack seeds them (the init container's timeout, `weights_copy.wait_seconds` on system nodes of
    `node_types`), and `startupTimeoutSeconds`."""
    wait = weights_copy.wait_seconds(settings, node_types) if settings.seeds else 0
    return image_seconds(settings, pool) + wait + settings.startup_timeout_seconds


def do_not_disrupt(
    settings: VllmSettings, pool: GpuNodeGroupSettings, node_types: Sequence[str] = weights_copy.DEFAULT_NODE_TYPES
) -> dict[str, str]:
    """The pod annotation that keeps a loading server's node from Karpenter's graceful disruption: drift and
    consolidation wait, and a drain evicts the pod only once the window has passed or the NodePool's
    `terminationGracePeriod` runs out."""
    return {DO_NOT_DISRUPT: f"{do_not_disrupt_seconds(settings, pool, node_types)}s"}
