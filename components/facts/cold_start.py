"""What a cold start of a vLLM server takes, step by step, from a pending pod to a server that answers `/health`.

Standard library only: the plan's cold-start budget (`cold-start-fits-its-budget`) reads it. Each figure is a published one, dated,
with its source; none was measured by this stack. They are an estimate to check budgets against, not a promise:
docs/autoscaling.md ("Cold start") says how to measure the real figures in an account, and a stack whose measured start is longer
should give its probe and its autoscaler more room than this estimate does.

The steps, in the order a scale-up from zero runs them:

1. the Cluster Autoscaler notices the pending pod (its scan interval);
2. EC2 launches the GPU node and it joins the cluster (per provisioner and AMI family);
3. the kubelet pulls the vLLM image: its compressed size over the pull rate of the node's image cache;
4. vLLM fetches the weights: their size (the model catalog's parameters times bytes per parameter) over the
   source's rate, bounded by what the instance may draw from the internet for the Hub;
5. vLLM loads the weights onto the GPUs (from the local copy; the S3 streamer loads while it fetches);
6. vLLM compiles the model (torch.compile) and captures its CUDA graphs.

The startup probe starts counting when the container starts (after step 3), so it must allow steps 4-6; the
autoscaler's `maxNodeProvisionTime` must allow step 2. A server whose weights the stack copies to S3
(`vllm.source.seed`) also waits, on a revision's first start only, for the copy Job (`weights_copy_step`), in an
init container before step 4.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from . import versions

AS_OF = "2026-12-02"
"""When the figures below were read from their sources."""
GB = 1e9
"""Bytes in a decimal gigabyte, the unit registries, EC2 and the benchmarks below report in."""


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


SCALE_UP_DECISION = Figure(
    10,
    "s",
    "Cluster Autoscaler FAQ (kubernetes/autoscaler cluster-autoscaler/FAQ.md, cluster-autoscaler-1.36.1): "
    "`--scan-interval` defaults to 10s; the stack does not change it",
)
"""The longest wait before the autoscaler sees the pending pod."""
KARPENTER_BATCH = Figure(
    10,
    "s",
    "Karpenter settings reference (aws/karpenter-provider-aws website/content/en/docs/reference/settings.md, "
    "v1.14): `BATCH_MAX_DURATION` defaults to 10s; the stack does not change it",
)
"""The longest Karpenter waits to batch pending pods before it launches a node."""
AUTO_MODE_BATCH = Figure(
    KARPENTER_BATCH.value,
    "s",
    "estimate: EKS Auto Mode provisions with Karpenter's NodePool API (EKS user guide, automode/create-node-pool.adoc) "
    "and publishes no batch window of its own; Karpenter's default `BATCH_MAX_DURATION` 10s is taken",
)
"""The wait before Auto Mode launches a node, taken as Karpenter's."""
SCALE_UP = MappingProxyType({"nodeGroup": SCALE_UP_DECISION, "karpenter": KARPENTER_BATCH, "autoMode": AUTO_MODE_BATCH})
"""The wait before a node is asked for, per provisioner (`provisioner` of a GPU pool)."""

# Keyed by (provisioner, AMI family): managed node groups scaled by the Cluster Autoscaler (`nodeGroup`), or
# Karpenter, which boots either family from the aliases of facts/versions.py. Published launch-to-Ready figures for Linux nodes are about 30 s under Karpenter (the
# Bottlerocket data-volume write-up below; "Linux nodes ... only taking 30s to become available", hackernoon.com
# "How I Reduced EKS Windows Node Start Time From 5 Min to ~90s", 2024-06-08); an Auto Scaling group's launch and
# the NVIDIA AMIs' driver load add to it, so the estimate keeps the 3 minutes the README has given since the
# first release until a measured figure replaces it. No source gives the two AMI families apart.
NODE_LAUNCH: Mapping[tuple[str, str], Figure] = MappingProxyType(
    {
        (provisioner, family): Figure(
            180,
            "s",
            "estimate for an EKS managed node group of NVIDIA AMIs: EC2 launch, driver load and kubelet "
            "registration; Linux nodes reach Ready in about 30 s under Karpenter (hackernoon.com, 2024-06-08; "
            "akingscote.co.uk/posts/aws-eks-bottlerocket-prefetch)",
        )
        for provisioner, families in (
            ("nodeGroup", ("AL2023", "Bottlerocket")),
            ("karpenter", ("AL2023", "Bottlerocket")),
            # Auto Mode chooses its AMI; the pool's amiFamily stays AL2023 (settings/node_groups.py).
            ("autoMode", ("AL2023",)),
        )
        for family in families
    }
)
"""Seconds from the Auto Scaling group's launch to a Ready GPU node."""

# vllm-project/vllm#27154 (2025-10-18): `vllm/vllm-openai:latest` "is around 12 GB". Docker Hub, which lists the
# compressed size per tag from the registry's manifest, is not reachable from where this table is written, so the
# pinned tag's own manifest is not read; the figure is the upper one of the public reports (the README's
# "about 10 GB compressed"; tensorfuse.io/docs/blogs/snapshotter_graphs: vLLM images "typically exceeding 10 GB").
IMAGE_COMPRESSED_BYTES: Mapping[str, Figure] = MappingProxyType(
    {
        versions.VLLM_IMAGE: Figure(
            12 * GB,
            "B",
            "vllm-project/vllm#27154 (vllm/vllm-openai about 12 GB, 2025-10-18); the registry's manifest of "
            f"{versions.VLLM_IMAGE} was not readable offline",
        )
    }
)
"""Compressed size of the vLLM images the stack pins, by image reference."""

# A plain pull: "Standard Docker image pulls of 15-20 GB can take 4-6 minutes per instance" (AWS Machine Learning
# Blog, "Reducing container cold start times using SOCI index on DLAMI and DLC"); the slowest of that range,
# 15 GB in 6 minutes. A Bottlerocket data volume restored from a snapshot that holds the image needs no pull: the
# containers "start up instantly" (akingscote.co.uk, after the AWS Containers Blog "Reduce container startup time
# on Amazon EKS with Bottlerocket data volume", 2023-10-19). SOCI parallel pull "reduc[es] image pull time by up to
# 50%" (aws-samples/karpenter-blueprints blueprints/soci-snapshotter/README.md at 1e0c62be, whose nodes have the
# 600 MiB/s root volume nodeadm recommends and the stack sets): twice the plain rate. It is the best published
# case, as the SOCI maintainers warn that figures depend on the workload (awslabs/soci-snapshotter#1938).
_PLAIN_PULL = 15 * GB / 360
IMAGE_PULL_RATE: Mapping[str, Figure] = MappingProxyType(
    {
        "none": Figure(
            _PLAIN_PULL,
            "B/s",
            "AWS Machine Learning Blog, Reducing container cold start times using SOCI index on DLAMI and DLC: "
            "15-20 GB in 4-6 minutes (the slowest: 15 GB in 6 minutes)",
        ),
        "soci": Figure(
            _PLAIN_PULL * 2,
            "B/s",
            "aws-samples/karpenter-blueprints blueprints/soci-snapshotter/README.md: SOCI parallel pull reduces "
            "image pull time by up to 50%, over the plain pull of the AWS Machine Learning Blog (15 GB in 6 minutes)",
        ),
    }
)
"""Pull rate per image cache mode; the image cache `snapshot` pulls nothing (`IMAGE_ALREADY_ON_NODE`)."""
IMAGE_ALREADY_ON_NODE = Figure(
    0,
    "s",
    "AWS Containers Blog, Reduce container startup time on Amazon EKS with Bottlerocket data volume (2023-10-19)",
)

# Hugging Face's own benchmark of its Hub storage from an m5dn.24xlarge in us-east-1 (huggingface_hub 1.7.1,
# hf-xet 1.4.2; h-m-t-hf-buckets-benchmark.static.hf.space): a cold (CDN miss) download of 1 GB at 261.1 MB/s, and
# plain S3 GETs of 5 GB at 398.6 MB/s on average. The streamer reads with several clients at once
# (`concurrency`), so one client's S3 rate is the lower bound of its rate.
WEIGHTS_RATE: Mapping[str, Figure] = MappingProxyType(
    {
        "huggingface": Figure(
            261.1e6,
            "B/s",
            "Hugging Face buckets benchmark (h-m-t-hf-buckets-benchmark.static.hf.space): cold CDN download, "
            "1 GB at 261.1 MB/s",
        ),
        "s3": Figure(
            398.6e6,
            "B/s",
            "Hugging Face buckets benchmark (h-m-t-hf-buckets-benchmark.static.hf.space): S3 GET, 5 GB at "
            "398.6 MB/s (one client)",
        ),
    }
)
"""Rate at which vLLM fetches the weights, per source."""

# "For instances with fewer than 32 vCPUs, bandwidth is limited to 5 Gbps" for traffic through an internet gateway,
# and 50% of the instance's bandwidth, at least 5 Gbps, from 32 vCPUs (Amazon EC2 User Guide, "Amazon EC2 instance
# network bandwidth"). The Hub is on the internet; 5 Gbps is what every instance type may draw.
INTERNET_BANDWIDTH = Figure(
    5e9 / 8,
    "B/s",
    "Amazon EC2 User Guide, Amazon EC2 instance network bandwidth: traffic through an internet gateway is limited "
    "to 5 Gbps below 32 vCPUs, at least 5 Gbps from 32",
)
"""What an instance may draw from the internet, the bound on a download from the Hub."""

# NVIDIA Technical Blog, "Reducing Cold Start Latency for LLM Inference with NVIDIA Run:ai Model Streamer":
# the default safetensors loader read Llama 3 8B (8.03e9 parameters in bf16, 16.06 GB) from a gp3 volume
# in 47.99 s on a g5.12xlarge; the streamer, at concurrency 16, in 14.34 s.
LOCAL_LOAD_RATE = Figure(
    8.03e9 * 2 / 47.99,
    "B/s",
    "NVIDIA Technical Blog, Reducing Cold Start Latency for LLM Inference with NVIDIA Run:ai Model Streamer: "
    "default loader, 16.06 GB from gp3 in 47.99 s",
)
"""Rate of vLLM's default loader from the node's disk to the GPUs."""

# ai-dynamo/dynamo#3257: vLLM's torch.compile of a model takes about 45 s without a cache (about 8 s with one).
# vLLM says of its CUDA graph capture "This usually takes 5~20 seconds" (vllm/v1/worker/gpu_model_runner.py at
# v0.32.0, `capture_model`); the upper figure is kept.
COMPILE = Figure(45, "s", "ai-dynamo/dynamo#3257: torch.compile about 45 s without a cache")
CUDA_GRAPHS = Figure(
    20, "s", "vllm/v1/worker/gpu_model_runner.py at v0.32.0: CUDA graph capture 'usually takes 5~20 seconds'"
)


WEIGHTS_SIZE_SOURCE = "weights: parameters x bytes per parameter (facts/model_catalog.py, or vllm.modelFacts)"


def instance_bandwidth(name: str, baseline_gbps: float | None) -> Figure | None:
    """The baseline network bandwidth of instance type `name` (facts/gpu_catalog.py), the bound on what its pod
    draws from S3 or the Hub; None when the catalog has none."""
    if baseline_gbps is None:
        return None
    return Figure(
        baseline_gbps * 1e9 / 8,
        "B/s",
        f"{name} baseline {baseline_gbps:g} Gbps (facts/gpu_catalog.py: AWS docs, accelerated computing network "
        "specifications, via aws/karpenter-provider-aws@v1.14.1 zz_generated.bandwidth.go)",
    )


def _lower(first: Figure, second: Figure | None) -> Figure:
    return first if second is None or first.value <= second.value else second


@dataclass(frozen=True)
class Step:
    """One step of a cold start: its name, its seconds, how they were worked out, and the source."""

    name: str
    seconds: float
    arithmetic: str
    source: str
    in_probe: bool
    """Whether the step runs after the container started, inside the startup probe's allowance."""

    def to_dict(self) -> dict[str, object]:
        return {
            "step": self.name,
            "seconds": round(self.seconds, 1),
            "arithmetic": self.arithmetic,
            "source": self.source,
            "inStartupProbe": self.in_probe,
        }


def _transfer(name: str, size: Figure, rate: Figure, bound: Figure | None, in_probe: bool) -> Step:
    """`size` bytes at `rate`, or at `bound` when that is lower; the source names where both figures come from."""
    speed, source = rate.value, rate.source
    if bound is not None and bound.value < speed:
        speed, source = bound.value, f"{source}; bounded by {bound.source}"
    arithmetic = f"{size.value / GB:.2f} GB / {speed / 1e6:.1f} MB/s"
    return Step(name, size.value / speed, arithmetic, f"{size.source}; {source}", in_probe)


def cold_start_steps(
    *,
    ami_family: str,
    image: str,
    weights_bytes: float | None,
    source: str = "huggingface",
    image_cache: str = "none",
    provisioner: str = "nodeGroup",
    bandwidth: Figure | None = None,
) -> tuple[list[Step], list[str]]:
    """The steps of a scale-up from zero for a server of `image` loading `weights_bytes` from `source`, on a node
    of `ami_family` with `image_cache` and the network `bandwidth` (`instance_bandwidth`), and the steps left out
    for want of a figure (an image the table does not know, a model of unknown size)."""
    missing = []
    launch, decision = NODE_LAUNCH[(provisioner, ami_family)], SCALE_UP[provisioner]
    how = "the autoscaler's scan interval" if provisioner == "nodeGroup" else "Karpenter's batch window"
    steps = [
        Step("scale-up decision", decision.value, how, decision.source, False),
        Step("node launch and join", launch.value, f"{provisioner}, {ami_family}", launch.source, False),
    ]
    size = IMAGE_COMPRESSED_BYTES.get(image)
    if image_cache == "snapshot":
        steps.append(
            Step("image pull", 0, "the image is on the node's data volume", IMAGE_ALREADY_ON_NODE.source, False)
        )
    elif size is not None:
        steps.append(_transfer("image pull", size, IMAGE_PULL_RATE[image_cache], None, False))
    else:
        missing.append(f"image pull ({image}: compressed size not recorded in facts/cold_start.py)")
    if weights_bytes is None:
        missing.append(
            "weights download and load (the model's size is unknown: not in the model catalog, no modelFacts)"
        )
    else:
        weights = Figure(weights_bytes, "B", WEIGHTS_SIZE_SOURCE)
        if source == "s3":
            # The streamer reads from S3 into GPU memory as it fetches (through a CPU buffer): fetching is loading.
            steps.append(_transfer("weights stream from S3 to the GPUs", weights, WEIGHTS_RATE["s3"], bandwidth, True))
        else:
            bound = _lower(INTERNET_BANDWIDTH, bandwidth)
            steps.append(_transfer("weights download", weights, WEIGHTS_RATE["huggingface"], bound, True))
            steps.append(_transfer("weights load", weights, LOCAL_LOAD_RATE, None, True))
    steps.append(Step("torch.compile", COMPILE.value, "without a compile cache", COMPILE.source, True))
    steps.append(Step("CUDA graph capture", CUDA_GRAPHS.value, "upper figure", CUDA_GRAPHS.source, True))
    return steps, missing


WEIGHTS_COPY_STEP = "weights copy from the Hub to S3 (first start)"

WEIGHTS_COPY_WORK_GIB = 30
"""The copy Job's scratch volume: it holds one file at a time, and Hub shards are at most a few GB (transformers'
`max_shard_size` defaults to 5GB), with room for the Hub client's own staging copy beside it. The disk verdict
(`weights-fit-on-disk`) counts all of it on the Job's node."""


def weights_copy_step(weights_bytes: float) -> Step:
    """The seeding Job's copy (`vllm.source.seed`), on the first start of a revision only: the pull of its image on
    a system node, the Hub download, bounded by what the node may draw from the internet, then the upload to S3,
    one file after the other. No published S3 upload rate was found: the benchmark's GET rate stands for it. The
    server's init container waits for it before the server container (and its startup probe) starts."""
    weights = Figure(weights_bytes, "B", WEIGHTS_SIZE_SOURCE)
    image = IMAGE_COMPRESSED_BYTES[versions.WEIGHTS_COPY_IMAGE]
    pull = _transfer("", image, IMAGE_PULL_RATE["none"], None, False)
    download = _transfer("", weights, WEIGHTS_RATE["huggingface"], INTERNET_BANDWIDTH, False)
    upload = _transfer("", weights, WEIGHTS_RATE["s3"], None, False)
    parts = (pull, download, upload)
    return Step(
        WEIGHTS_COPY_STEP,
        sum(part.seconds for part in parts),
        " + ".join(f"({part.arithmetic})" for part in parts) + ": image pull, download, upload",
        "; ".join(dict.fromkeys(source for part in parts for source in part.source.split("; "))),
        False,
    )


@dataclass(frozen=True)
class ColdStart:
    """One served model's cold start: its steps, and the budgets the stack gives them."""

    name: str
    """The model, as the plan names it (`Qwen/Qwen2.5-7B-Instruct`, or `chat (Qwen/...)` in the fleet form)."""
    pool: str
    """The GpuNodeGroup it runs on."""
    steps: tuple[Step, ...]
    scales_from_zero: bool
    """Whether the pool's `minSize` is 0, so a first replica waits for every step."""
    startup_allowance: float | None
    """Seconds the registered startup probe allows (initial delay plus failure threshold times period); None when
    the server's Deployment has no startup probe."""
    max_node_provision: float | None
    """The autoscaler's `maxNodeProvisionTime` in seconds; None without the autoscaler."""
    not_estimated: tuple[str, ...] = ()
    """Steps left out for want of a figure (an image or a model the tables do not know)."""
    weights_copy: Step | None = None
    """The seeding Job's copy, on a revision's first start only (so not in `steps`); None without seeding."""
    weights_wait: float | None = None
    """Seconds the registered init container waits for the copy's marker; None without one."""

    @property
    def total(self) -> float:
        """Seconds from a pending pod to a server that answers, every step summed."""
        return sum(step.seconds for step in self.steps)

    @property
    def in_probe(self) -> float:
        """Seconds of the steps the startup probe must allow."""
        return sum(step.seconds for step in self.steps if step.in_probe)

    @property
    def node_launch(self) -> float:
        """Seconds of the node's launch and join, which `maxNodeProvisionTime` must allow."""
        return sum(step.seconds for step in self.steps if step.name == "node launch and join")

    def to_dict(self) -> dict[str, object]:
        return {
            "model": self.name,
            "pool": self.pool,
            "steps": [step.to_dict() for step in self.steps],
            "totalSeconds": round(self.total, 1),
            "startupProbeSeconds": round(self.in_probe, 1),
            "budget": {
                "startupProbeAllowanceSeconds": self.startup_allowance,
                "maxNodeProvisionSeconds": self.max_node_provision,
            },
            "scalesFromZero": self.scales_from_zero,
            "notEstimated": list(self.not_estimated),
            "weightsCopy": None
            if self.weights_copy is None
            else {**self.weights_copy.to_dict(), "waitSeconds": self.weights_wait},
            "sources": sorted({step.source for step in self.steps}),
        }
