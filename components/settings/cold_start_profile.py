"""The fast cold-start profile (`coldStart: fast` on a GPU pool): the pieces of the fast start a pool's provisioner
and AMI family allow, turned on in the pool's settings and its servers', each named as chosen or as out of reach
with the reason. One chooser for what the stack deploys (`Settings.pools`, `Settings.servers`) and for what the
plan's cold-start trade offers as "fast profile" (stackcheck/plan/cold_start_trade.py). Pure settings in, settings
and words out."""

from __future__ import annotations

from ..facts import cuda_graphs, image_cache
from . import vllm_flags
from .node_groups import GpuNodeGroupSettings
from .vllm import VllmSettings

FAST_PROBE_PERIOD = 1
"""The probe period the fast profile uses (`vllm.probePeriodSeconds`' lowest)."""
CAPTURE_CAP_FLAG = "--max-cudagraph-capture-size"
"""vLLM 0.32.0's flag for the cap (vllm/engine/arg_utils.py `add_cli_args`, the compilation group; facts/vllm_cli.py)."""
COMPILE_CACHE_CHOICE = (
    "vLLM's compile cache kept in S3 (vllm.compileCache.enabled): torch.compile loads the cached graphs (its "
    "archives' S3 storage is not priced: no source gives the size of vLLM's compile cache)"
)


def soci_fits(pool: GpuNodeGroupSettings) -> bool:
    """Whether nodeadm turns SOCI's parallel pull on for every instance type of the pool (gpuNodeGroup.imageCache)."""
    return all(
        entry.vcpus >= image_cache.SOCI_MIN_VCPUS and entry.memory_gib >= image_cache.SOCI_MIN_MEMORY_GIB
        for entry in pool.instances
    )


def fast_pool(pool: GpuNodeGroupSettings, zones_known: bool) -> tuple[GpuNodeGroupSettings, list[str], list[str]]:
    """`pool` with the image's fast path it allows; what it chose and what it could not. `zones_known`: whether the
    stack knows the GPU nodes' zones before deploy (its network, or private subnets given), which registering Fast
    Snapshot Restore needs."""
    chose: list[str] = []
    could_not: list[str] = []
    update: dict[str, object] = {}
    if pool.node_group:
        could_not.append("Karpenter: the pool is a node group the Cluster Autoscaler scales (provisioner: karpenter)")
    else:
        chose.append(f"{pool.provisioner}'s 1 s batch and launch, not the Cluster Autoscaler's")
    if pool.auto_mode:
        could_not.append("the image on a snapshot or SOCI: EKS Auto Mode manages the nodes' AMI and volumes")
    elif pool.image_cache == "snapshot" and zones_known:
        update["fast_snapshot_restore"] = True
        chose.append(f"Fast Snapshot Restore for {pool.snapshot_id}: the data volume restored initialized")
    elif pool.image_cache == "snapshot":
        could_not.append("Fast Snapshot Restore: a default VPC's zones are known only at deploy")
    elif pool.ami_family == "Bottlerocket":
        could_not.append("the image on a snapshot: no snapshotId (imageCache: snapshot; docs/gpu-pools.md)")
    elif soci_fits(pool):
        update["image_cache"] = "soci"
        chose.append("SOCI parallel pull with the root volume at 600 MiB/s (billed per running node)")
    else:
        could_not.append("SOCI: the instance type is below 4 vCPUs and 8 GiB")
    return pool.model_copy(update=update), chose, could_not


def capture_cap(server: VllmSettings) -> int:
    """The CUDA graph capture cap the fast profile sets: the largest size of vLLM's list at or below
    `cuda_graphs.FAST_CEILING` (128), or at or below the server's `--max-num-seqs` when that is smaller (a decode
    batch is never larger, so its graphs beyond it would serve mixed batches only). vLLM's defaults of
    `--max-num-seqs` (256 or 1024, facts/cuda_graphs.py) are above 128 on every GPU, so the GPU does not enter."""
    seqs = vllm_flags.check(server.extra_args).capture.max_num_seqs
    return cuda_graphs.largest_at_or_below(min(cuda_graphs.FAST_CEILING, seqs or cuda_graphs.FAST_CEILING))


def fast_server(server: VllmSettings) -> tuple[VllmSettings, list[str], list[str]]:
    """`server` with 1 s probes, the compile cache and CUDA graphs captured up to `capture_cap` (unless its
    `extraArgs` choose the capture themselves: a second cap beside theirs is refused by vLLM, and a cap beside
    `--enforce-eager` captures nothing anyway); what it chose and could not (weights from the Hub are not streamed:
    the source is the model's, not the profile's)."""
    chose = [f"probes every {FAST_PROBE_PERIOD} s (vllm.probePeriodSeconds: {FAST_PROBE_PERIOD})", COMPILE_CACHE_CHOICE]
    could_not = (
        []
        if server.source.type == "s3"
        else ["weights streamed from S3: the model reads the Hub (vllm.source.type: s3)"]
    )
    update: dict[str, object] = {
        "probe_period_seconds": FAST_PROBE_PERIOD,
        "compile_cache": server.compile_cache.model_copy(update={"enabled": True}),
    }
    # The profile's own pair, last, is the profile's: choosing again from settings it chose gives the same.
    cap = capture_cap(server)
    extra_args = server.extra_args
    if extra_args[-2:] == [CAPTURE_CAP_FLAG, str(cap)]:
        extra_args = extra_args[:-2]
    own = vllm_flags.check(extra_args).capture.user_set
    if own is None:
        update["extra_args"] = [*extra_args, CAPTURE_CAP_FLAG, str(cap)]
        chose.append(
            f"CUDA graphs captured for batches of up to {cap} tokens, a decode step of up to {cap} requests "
            f"({CAPTURE_CAP_FLAG} {cap}), not vLLM's default of up to {cuda_graphs.DEFAULT_CEILING}: fewer graphs "
            "to capture at start; a larger batch runs without a CUDA graph, its decode slower (every kernel "
            "launched from the CPU), not failing"
        )
    else:
        could_not.append(f"capping the CUDA graphs captured: vllm.extraArgs set {own}, kept as set")
    updated: VllmSettings = server.model_copy(update=update)
    return updated, chose, could_not
