"""The published figures a vLLM server's cold start is estimated from, each dated, with its source; none was
measured by this stack. Standard library only: `facts/cold_start.py` works the steps out of them, and the plan's
cold-start budget (`cold-start-fits-its-budget`) and cost trade read them.

The steps of a scale-up from zero, in the order they run, and the figure each takes:

1. the provisioner notices the pending pod (`SCALE_UP`);
2. EC2 launches the GPU instance and it joins the cluster (`NODE_LAUNCH`);
3. the NVIDIA device plugin registers `nvidia.com/gpu` on the node, and only then can the pod be scheduled
   (`DEVICE_PLUGIN`);
4. the vLLM image reaches the node (`IMAGE_*`, the node's volume throughput and EBS bandwidth, `facts/
   instance_io.py`; a volume restored from a snapshot reads its blocks from S3 first unless Fast Snapshot Restore
   is on: `FSR_*`, `VOLUME_INITIALIZATION_*`);
5. vLLM's processes start and its engine initialises (`PROCESS_START`);
6. the weights arrive: from the Hub onto the disk then into the GPUs (`WEIGHTS_RATE`, `LOCAL_LOAD_RATE`), or from
   S3 through the Run:ai streamer (`S3_RATE_PER_CONNECTION` times the streamer's concurrency), each bounded by the
   instance's baseline network bandwidth and, for the disk, by the volume;
7. vLLM profiles the GPU memory (`MEMORY_PROFILING`), compiles the model (`COMPILE`, `COMPILE_CACHED`) and
   captures its CUDA graphs (`CUDA_GRAPHS`);
8. the kubelet's probes notice the server answers: the startup probe, then the readiness probe (`PROBES_SOURCE`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from . import versions
from .image_cache import GP3_INCLUDED_THROUGHPUT_MIBPS

AS_OF = "2026-12-04"
"""When the figures below were read from their sources (those read earlier keep their own date)."""
GB = 1e9
"""Bytes in a decimal gigabyte, the unit registries, EC2 and the benchmarks below report in."""
MIB = 2**20


@dataclass(frozen=True)
class Figure:
    """One published figure: its value in `unit`, where it comes from, and when it was read."""

    value: float
    unit: str
    """`s` (seconds), `B` (bytes) or `B/s` (bytes a second)."""
    source: str
    as_of: str = AS_OF

    def __post_init__(self) -> None:
        if self.value < 0 or self.unit not in {"s", "B", "B/s"}:
            raise ValueError(f"{self}: a figure is a non-negative number of s, B or B/s")


# 1. The provisioner's decision.
SCALE_UP_DECISION = Figure(
    10,
    "s",
    "Cluster Autoscaler FAQ (kubernetes/autoscaler cluster-autoscaler/FAQ.md, cluster-autoscaler-1.36.1): "
    "`--scan-interval` defaults to 10s; the stack does not change it",
    "2026-12-02",
)
"""The longest the Cluster Autoscaler takes to see a pending pod."""
KARPENTER_BATCH = Figure(
    1,
    "s",
    "Karpenter settings reference (karpenter.sh/docs/reference/settings): `BATCH_IDLE_DURATION` defaults to 1s, "
    "the window closing once no new pod arrives for that long (`BATCH_MAX_DURATION`, 10s, only bounds a window that "
    "pods keep extending); the stack changes neither",
)
"""How long Karpenter batches a lone pending pod before it launches a node."""
AUTO_MODE_BATCH = Figure(
    KARPENTER_BATCH.value,
    "s",
    "estimate: EKS Auto Mode provisions with Karpenter's NodePool API (EKS user guide, automode/create-node-pool.adoc) "
    "and publishes no batch window of its own; Karpenter's `BATCH_IDLE_DURATION` 1s is taken",
)
SCALE_UP = MappingProxyType({"nodeGroup": SCALE_UP_DECISION, "karpenter": KARPENTER_BATCH, "autoMode": AUTO_MODE_BATCH})
"""The wait before a node is asked for, per provisioner (`provisioner` of a GPU pool)."""

# 2. Instance launch and join. The Cluster Autoscaler raises an Auto Scaling group's desired size, which then
# launches the instance; Karpenter calls EC2 Fleet itself. No source gives the two AMI families apart.
_GROUP_LAUNCH = Figure(
    180,
    "s",
    "zop.dev, Why Kubernetes Cluster Autoscaler Loses to Karpenter (2026-04-21): with the Cluster Autoscaler on EKS, "
    "pending pod to a Ready node 'takes 3 to 5 minutes ... with standard AMIs'; rajatarya.github.io, Kubernetes "
    "first principles ch. 32: '3-4 minutes'; the lower figure, as the scan interval is counted apart",
)
_KARPENTER_LAUNCH = Figure(
    60,
    "s",
    "zop.dev, Why Kubernetes Cluster Autoscaler Loses to Karpenter (2026-04-21): with Karpenter, 'measured from "
    "pod-pending to node-Ready, the window is typically under 60 seconds'; Linux nodes 'only taking 30s to become "
    "available' (hackernoon.com, How I Reduced EKS Windows Node Start Time, 2024-06-08)",
)
_AUTO_MODE_LAUNCH = Figure(
    _KARPENTER_LAUNCH.value,
    "s",
    "estimate: EKS Auto Mode launches with Karpenter (EKS user guide, automode) and publishes no launch time of its "
    "own; Karpenter's figure is taken (zop.dev, 2026-04-21: under 60 seconds to a Ready node)",
)
NODE_LAUNCH: Mapping[str, Figure] = MappingProxyType(
    {"nodeGroup": _GROUP_LAUNCH, "karpenter": _KARPENTER_LAUNCH, "autoMode": _AUTO_MODE_LAUNCH}
)
"""Seconds from asking for a GPU node to a Ready node, per provisioner."""

# 3. The device plugin. The kubelet zeroes extended resources when it starts, so a pod needing `nvidia.com/gpu` is
# bound only once the device plugin has registered them (aws/karpenter-provider-aws#1914, a maintainer, 2022-06-09:
# "Karpenter no longer binds pods to nodes and allows kube-scheduler to perform the binding after the resources are
# registered by the device plugin").
DEVICE_PLUGIN = Figure(
    60,
    "s",
    "cloudpilot-ai/karpenter-provider-gcp#148 (2025-11-09): 'After launching a GPU node, it may show as ready but "
    "still require about a minute to allocate GPU resources'; the binding waits for it (aws/karpenter-provider-aws"
    "#1914); no source gives the host's plugin (Bottlerocket, Auto Mode) and the DaemonSet's apart",
)
"""Seconds from a Ready GPU node to `nvidia.com/gpu` advertised on it."""

# 4. The image.
# vllm-project/vllm#27154 (2025-10-18): `vllm/vllm-openai:latest` "is around 12 GB". Docker Hub, which lists the
# compressed size per tag from the registry's manifest, is not reachable from where this table is written, so the
# pinned tag's own manifest is not read; the figure is the upper one of the public reports.
IMAGE_COMPRESSED_BYTES: Mapping[str, Figure] = MappingProxyType(
    {
        versions.VLLM_IMAGE: Figure(
            12 * GB,
            "B",
            "vllm-project/vllm#27154 (vllm/vllm-openai about 12 GB, 2025-10-18); the registry's manifest of "
            f"{versions.VLLM_IMAGE} was not readable offline",
            "2026-12-02",
        )
    }
)
"""Compressed size of the vLLM images the stack pins, by image reference."""
IMAGE_UNPACKED_BYTES: Mapping[str, Figure] = MappingProxyType(
    {
        versions.VLLM_IMAGE: Figure(
            28.6e9,
            "B",
            "vllm-project/vllm#22377 (2025-12-10): the official vllm-openai:latest image (vLLM 0.12.0) is 28.6 GB "
            f"as `docker images` lists it, unpacked; the registry's manifest of {versions.VLLM_IMAGE} was not "
            "readable offline",
            "2026-12-04",
        )
    }
)
"""Unpacked size of the vLLM images the stack pins, by image reference."""

# A plain pull over the network: "Standard Docker image pulls of 15-20 GB can take 4-6 minutes per instance" (AWS
# Machine Learning Blog, "Reducing container cold start times using SOCI index on DLAMI and DLC"); the slowest of
# that range, 15 GB in 6 minutes. SOCI parallel pull "reduc[es] image pull time by up to 50%" (aws-samples/
# karpenter-blueprints blueprints/soci-snapshotter/README.md at 1e0c62be): twice the plain rate. Either pull also
# writes every compressed layer and then the unpacked image to the node's volume (containerd's content store, then
# its snapshotter), so the volume bounds it too (`cold_start.py`).
_PLAIN_PULL = 15 * GB / 360
IMAGE_PULL_RATE: Mapping[str, Figure] = MappingProxyType(
    {
        "none": Figure(
            _PLAIN_PULL,
            "B/s",
            "AWS Machine Learning Blog, Reducing container cold start times using SOCI index on DLAMI and DLC: "
            "15-20 GB in 4-6 minutes (the slowest: 15 GB in 6 minutes)",
            "2026-12-02",
        ),
        "soci": Figure(
            _PLAIN_PULL * 2,
            "B/s",
            "aws-samples/karpenter-blueprints blueprints/soci-snapshotter/README.md: SOCI parallel pull reduces "
            "image pull time by up to 50%, over the plain pull of the AWS Machine Learning Blog (15 GB in 6 minutes)",
            "2026-12-02",
        ),
    }
)
"""Network pull rate of compressed layers per image cache mode; `snapshot` pulls nothing."""

GP3_DEFAULT_THROUGHPUT = Figure(
    GP3_INCLUDED_THROUGHPUT_MIBPS * MIB,
    "B/s",
    "Amazon EBS pricing and volume types: gp3 includes 3,000 IOPS and 125 MiB/s (EBS user guide, General Purpose "
    "SSD volumes); more is provisioned and billed per MiB/s-month (facts/prices.py)",
)
"""The throughput of a gp3 volume that provisions none."""

# Restored volumes. "When you create a volume from a snapshot, the storage blocks from the snapshot must be
# downloaded from Amazon S3 and written to the volume before you can access them ... The default volume
# initialization rate fluctuates throughout the initialization process" (EBS user guide, Initialize Amazon EBS
# volumes): no published rate, so a lazily restored image is left out of the estimate with a warning. Fast Snapshot
# Restore creates "a volume from a snapshot that is fully initialized at creation" (EBS user guide, Amazon EBS fast
# snapshot restore), priced per snapshot and zone-hour (facts/prices.py). A Provisioned Rate for Volume
# Initialization downloads the blocks "at the rate you specify", 100-300 MiB/s (ibid.; botocore's EC2 model,
# LaunchTemplateEbsBlockDeviceRequest.VolumeInitializationRate), and replaces Fast Snapshot Restore when both are set.
FSR_SOURCE = (
    "EBS user guide, Amazon EBS fast snapshot restore: a volume from an enabled snapshot is fully initialized at "
    "creation and delivers its provisioned performance at once"
)
LAZY_RESTORE_SOURCE = (
    "EBS user guide, Initialize Amazon EBS volumes: without fast snapshot restore or a provisioned rate, blocks are "
    "downloaded from S3 on first access at a default rate that 'fluctuates'; no rate is published"
)
VOLUME_INITIALIZATION_RATES_MIBPS = (100, 300)
"""The provisioned volume initialization rates EBS accepts, MiB/s."""
VOLUME_INITIALIZATION_SOURCE = (
    "EBS user guide, Initialize Amazon EBS volumes: with a Provisioned Rate for Volume Initialization (100-300 MiB/s) "
    "the snapshot's blocks are downloaded at that rate; the image is counted as ready once all of it is"
)

# 5. vLLM's own start. vllm-project/vllm#15225 (2025-03-20, a vLLM maintainer): "A vLLM cold start (all caches
# cleared) can take up to 19s before initializing the device" (process creation, configuration, imports).
PROCESS_START = Figure(
    19,
    "s",
    "vllm-project/vllm#15225 (2025-03-20): a cold start with every cache cleared takes up to 19 s before it "
    "initialises the device (processes, configuration, Python imports)",
)

# 6. The weights. Hugging Face's own benchmark of its Hub storage from an m5dn.24xlarge in us-east-1
# (huggingface_hub 1.7.1, hf-xet 1.4.2; h-m-t-hf-buckets-benchmark.static.hf.space): a cold (CDN miss) download of
# 1 GB at 261.1 MB/s.
WEIGHTS_RATE: Mapping[str, Figure] = MappingProxyType(
    {
        "huggingface": Figure(
            261.1e6,
            "B/s",
            "Hugging Face buckets benchmark (h-m-t-hf-buckets-benchmark.static.hf.space): cold CDN download, "
            "1 GB at 261.1 MB/s",
            "2026-12-02",
        ),
    }
)
"""Rate at which vLLM downloads the weights from the Hub, before the instance's and the disk's bounds."""
S3_RATE_PER_CONNECTION = Figure(
    85e6,
    "B/s",
    "AWS whitepaper, Best Practices Design Patterns: Optimizing Amazon S3 Performance, Horizontal Scaling and Request "
    "Parallelization: 'Make one concurrent request for each 85-90 MB/s of desired network throughput' (the lower)",
)
"""What one S3 connection carries; the streamer reads with `concurrency` of them."""
STREAMER_DEFAULT_CONCURRENCY = 8
"""The Run:ai streamer's S3 concurrency when vLLM passes none: run-ai/runai-model-streamer cpp/streamer/impl/config/
config.cc at tag 0.15.7 (`s3_concurrency`, `RUNAI_STREAMER_CONCURRENCY` or 8), the streamer the image installs."""
STREAMER_MAX_CONCURRENCY = 256
"""The highest `vllm.source.concurrency` the settings accept."""
INTERNET_BANDWIDTH = Figure(
    5e9 / 8,
    "B/s",
    "Amazon EC2 User Guide, Amazon EC2 instance network bandwidth: traffic through an internet gateway is limited "
    "to 5 Gbps below 32 vCPUs, at least 5 Gbps from 32",
    "2026-12-02",
)
"""What an instance may draw from the internet, the bound on a download from the Hub."""
# NVIDIA Technical Blog, "Reducing Cold Start Latency for LLM Inference with NVIDIA Run:ai Model Streamer": the
# default safetensors loader read Llama 3 8B (8.03e9 parameters in bf16, 16.06 GB) from a gp3 volume in 47.99 s.
LOCAL_LOAD_RATE = Figure(
    8.03e9 * 2 / 47.99,
    "B/s",
    "NVIDIA Technical Blog, Reducing Cold Start Latency for LLM Inference with NVIDIA Run:ai Model Streamer: "
    "default loader, 16.06 GB from gp3 in 47.99 s",
    "2026-12-02",
)
"""Rate of vLLM's default loader from the node's disk to the GPUs, before the disk's bound."""

# 7. Profiling, compiling, capturing.
MEMORY_PROFILING = Figure(
    1.46,
    "s",
    "vllm-project/vllm#11550 (2025-01-14, a vLLM maintainer's log on a 23.55 GiB GPU): 'Memory profiling takes 1.46 "
    "seconds' (torch.compile, run inside it by V1, is counted apart)",
)
COMPILE = Figure(45, "s", "ai-dynamo/dynamo#3257: vLLM's torch.compile about 45 s without a cache", "2026-12-02")
COMPILE_CACHED = Figure(
    8,
    "s",
    "ai-dynamo/dynamo#3257: about 8 s with vLLM's compile cache; vllm-project/vllm#20264 (2025-06-30): 'Directly "
    "load the compiled graph ... from the cache', 'torch.compile takes 7.51 s in total'",
)
COMPILE_CACHE_SOURCE = (
    "vllm/compilation/backends.py in the vllm 0.32.0 wheel: the cache is "
    "`VLLM_CACHE_ROOT/torch_compile_cache/<hash>`, the hash (sha256, 10 digits) of the environment's compile "
    "factors, the configuration's hash (vllm/config/vllm.py `compute_hash`: the vLLM version, the model's "
    "configuration, the parallel and device configurations), the traced code and the compiler's factors; another "
    "model, revision, version or tensor parallel size has another directory, so it misses rather than misreads"
)
CUDA_GRAPHS = Figure(
    20,
    "s",
    "vllm/v1/worker/gpu_model_runner.py at v0.32.0: CUDA graph capture 'usually takes 5~20 seconds' (the upper)",
    "2026-12-02",
)

# 8. The probes.
PROBES_SOURCE = (
    "Kubernetes docs, Configure Liveness, Readiness and Startup Probes: a startup probe 'disables liveness and "
    "readiness checks until it succeeds'; each probe runs once a period, so a server that answers waits up to the "
    "startup probe's period, then up to the readiness probe's, before the Service routes to it"
)

WEIGHTS_SIZE_SOURCE = "weights: parameters x bytes per parameter (facts/model_catalog.py, or vllm.modelFacts)"
