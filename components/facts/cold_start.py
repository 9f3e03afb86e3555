"""What a cold start of a vLLM server takes, step by step, from a pending pod to a server that answers and is ready.

Standard library only: the plan's cold-start budget (`cold-start-fits-its-budget`) and its cost trade read it. The
figures are published ones, dated, with their sources (facts/cold_start_figures.py, facts/instance_io.py); none was
measured by this stack. They are an estimate to check budgets and compare settings against, not a promise:
docs/autoscaling.md ("Cold start") says how to measure the real figures in an account.

`cold_start_steps(Start(...))` works out the steps of one server (the order of facts/cold_start_figures.py) from
what shapes them: the pool's provisioner and AMI family, how the image reaches the node, the node's volume
throughput, EBS and network baselines, where the weights come from and through how many S3 connections, whether a
compile cache is restored, the CUDA graphs the server's arguments capture (facts/cuda_graphs.py), the probes'
periods, and whether a warm node waits for the pod. The startup probe starts
counting when the container starts, so it must allow the steps from vLLM's process start to the CUDA graphs; the
Cluster Autoscaler's `maxNodeProvisionTime` must allow the instance's launch and join. A server whose weights the
stack copies to S3 (`vllm.source.seed`) also waits, on a revision's first start only, for the copy Job
(facts/system_nodes.py `weights_copy_step`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import cold_start_figures as figures
from . import cuda_graphs, versions
from .cold_start_figures import GB, MIB, WEIGHTS_SIZE_SOURCE, Figure
from .instance_io import ebs_bandwidth, network_bandwidth

DECISION = "provisioner decision"
LAUNCH = "instance launch and join"
DEVICE_PLUGIN = "device plugin registers nvidia.com/gpu"
IMAGE = "image on the node"
PROCESS = "vLLM process start and engine init"
DOWNLOAD = "weights download"
LOAD = "weights load"
STREAM = "weights stream from S3 to the GPUs"
PROFILE = "memory profiling"
COMPILE = "torch.compile"
GRAPHS = "CUDA graph capture"
PROBES = "probes notice the server"
PREEMPT = "placeholder preempted"
WARM_IMAGE_SOURCE = "pools/warm_manifests.py: the placeholder runs the server's image, so the node has pulled it"
IN_PROBE = (PROCESS, DOWNLOAD, LOAD, STREAM, PROFILE, COMPILE, GRAPHS)
"""The steps after the container starts and before vLLM answers: what the startup probe must allow."""

WEIGHTS_COPY_WORK_GIB = 30
"""The copy Job's scratch volume: it holds the files it copies at once (facts/system_nodes.py `COPY_WORKERS`,
three), and Hub shards are at most a few GB (transformers' `max_shard_size` defaults to 5GB), with room for the Hub
client's own staging copies beside them. The disk verdict
(`weights-fit-on-disk`) counts all of it on the Job's node."""
WEIGHTS_COPY_STEP = "weights copy from the Hub to S3 (first start)"


@dataclass(frozen=True)
class Start:
    """What shapes one server's cold start."""

    provisioner: str = "nodeGroup"
    """`nodeGroup`, `karpenter` or `autoMode`."""
    ami_family: str = "AL2023"
    image: str = versions.VLLM_IMAGE
    image_cache: str = "none"
    """`none`, `soci` or `snapshot`."""
    fast_snapshot_restore: bool = False
    """With `snapshot`: whether Fast Snapshot Restore is on for the snapshot, so the volume is initialized at once."""
    volume_throughput_mibps: int | None = None
    """The throughput the node's volume provisions; None for gp3's included 125 MiB/s."""
    instance: str = ""
    network_baseline_gbps: float | None = None
    weights_bytes: float | None = None
    source: str = "huggingface"
    """`huggingface` or `s3`."""
    concurrency: int | None = None
    """The streamer's S3 connections; None for its default."""
    compile_cache: bool = False
    capture: cuda_graphs.CaptureSettings = cuda_graphs.CaptureSettings()
    """What the server's arguments set that shapes its CUDA graphs (settings/vllm_flags.py reads them)."""
    startup_period: float = 10
    readiness_period: float = 10
    warm: bool = False
    """Whether a warm node (a placeholder holding it) takes the pod: no node to launch, and the image already there
    when the server runs the pinned one the placeholders run (`versions.VLLM_IMAGE`)."""
    placeholder_grace: float = 0
    """The placeholder's termination grace period, the most the preempting pod waits for it."""


@dataclass(frozen=True)
class Step:
    """One step of a cold start: its name, its seconds, how they were worked out, and the source."""

    name: str
    seconds: float
    arithmetic: str
    source: str

    @property
    def in_probe(self) -> bool:
        """Whether the step runs after the container started, inside the startup probe's allowance."""
        return self.name in IN_PROBE

    def to_dict(self) -> dict[str, object]:
        return {
            "step": self.name,
            "seconds": round(self.seconds, 1),
            "arithmetic": self.arithmetic,
            "source": self.source,
            "inStartupProbe": self.in_probe,
        }


def _mbps(rate: float) -> str:
    return f"{rate / 1e6:.1f} MB/s"


def _slowest(name: str, size: Figure, rates: list[tuple[str, Figure | None]]) -> Step:
    """`size` bytes at the lowest of `rates` (each named); the arithmetic names every bound, the source the lowest."""
    known = [(label, rate) for label, rate in rates if rate is not None]
    label, rate = min(known, key=lambda pair: pair[1].value)
    arithmetic = f"{size.value / GB:.2f} GB / {_mbps(rate.value)}, {label}"
    if len(known) > 1:
        arithmetic += " (the lowest of " + ", ".join(f"{what} {figure.value / 1e6:.1f}" for what, figure in known) + ")"
    return Step(name, size.value / rate.value, arithmetic, f"{size.source}; {rate.source}")


def disk_rate(start: Start) -> Figure:
    """What the node's volume reads or writes a second: its provisioned throughput, bounded by the instance's EBS
    baseline when facts/instance_io.py has it."""
    if start.volume_throughput_mibps is None:
        volume = figures.GP3_DEFAULT_THROUGHPUT
    else:
        volume = Figure(
            start.volume_throughput_mibps * MIB,
            "B/s",
            f"the volume's provisioned {start.volume_throughput_mibps} MiB/s",
        )
    ebs = ebs_bandwidth(start.instance)
    return volume if ebs is None or volume.value <= ebs.value else ebs


def streamer_connections(start: Start) -> int:
    return start.concurrency or figures.STREAMER_DEFAULT_CONCURRENCY


def concurrency_for(baseline_gbps: float | None) -> int | None:
    """The streamer concurrency that fills an instance's baseline bandwidth: one S3 connection per 85 MB/s
    (`S3_RATE_PER_CONNECTION`), rounded up, at most the settings' 256; None without a baseline."""
    if baseline_gbps is None:
        return None
    needed = math.ceil(baseline_gbps * 1e9 / 8 / figures.S3_RATE_PER_CONNECTION.value)
    return max(1, min(needed, figures.STREAMER_MAX_CONCURRENCY))


def default_concurrency(baseline_gbps: float | None) -> int | None:
    """The streamer concurrency the server gets when `source.concurrency` is unset: what fills the instance's
    baseline (`concurrency_for`) where that is more than the streamer's own default, else None (the default's 8
    connections, 680 MB/s, already fill a baseline up to 5.44 Gbps)."""
    needed = concurrency_for(baseline_gbps)
    return needed if needed is not None and needed > figures.STREAMER_DEFAULT_CONCURRENCY else None


def _node_steps(start: Start) -> list[Step]:
    if start.warm:
        return [
            Step(
                PREEMPT,
                start.placeholder_grace,
                f"the scheduler preempts the warm node's placeholder, whose grace period is {start.placeholder_grace:g} s",
                "Kubernetes docs, Pod Priority and Preemption: victims get their graceful termination period",
            )
        ]
    decision, launch = figures.SCALE_UP[start.provisioner], figures.NODE_LAUNCH[start.provisioner]
    how = "the autoscaler's scan interval" if start.provisioner == "nodeGroup" else "Karpenter's idle batch window"
    return [
        Step(DECISION, decision.value, how, decision.source),
        Step(LAUNCH, launch.value, f"{start.provisioner}, {start.ami_family}", launch.source),
        Step(DEVICE_PLUGIN, figures.DEVICE_PLUGIN.value, "after the node is Ready", figures.DEVICE_PLUGIN.source),
    ]


def _image_step(start: Start) -> tuple[Step | None, str | None]:
    """The image's step, or None and why it is left out. A pull takes the longer of the network's pull of the
    compressed layers and the volume's write of them and of the unpacked image."""
    if start.warm and start.image == versions.VLLM_IMAGE:
        return Step(IMAGE, 0, "the placeholder ran the same image on the warm node", WARM_IMAGE_SOURCE), None
    if start.image_cache == "snapshot":
        if start.fast_snapshot_restore:
            return Step(IMAGE, 0, "the data volume is restored fully initialized", figures.FSR_SOURCE), None
        return None, f"image blocks read from S3 on first access ({figures.LAZY_RESTORE_SOURCE})"
    unpacked = figures.IMAGE_UNPACKED_BYTES.get(start.image)
    compressed = figures.IMAGE_COMPRESSED_BYTES.get(start.image)
    if compressed is None or unpacked is None:
        return None, f"image pull ({start.image}: size not recorded in facts/cold_start_figures.py)"
    pull, disk = figures.IMAGE_PULL_RATE[start.image_cache], disk_rate(start)
    network_seconds = compressed.value / pull.value
    written = compressed.value + unpacked.value
    disk_seconds = written / disk.value
    arithmetic = (
        f"the longer of {compressed.value / GB:.2f} GB pulled at {_mbps(pull.value)} ({network_seconds:.0f} s) and "
        f"{compressed.value / GB:.2f} + {unpacked.value / GB:.2f} GB written at {_mbps(disk.value)} "
        f"({disk_seconds:.0f} s)"
    )
    source = "; ".join((compressed.source, unpacked.source, pull.source, disk.source))
    return Step(IMAGE, max(network_seconds, disk_seconds), arithmetic, source), None


def _weights_steps(start: Start) -> list[Step]:
    assert start.weights_bytes is not None
    weights = Figure(start.weights_bytes, "B", WEIGHTS_SIZE_SOURCE)
    network = network_bandwidth(start.instance, start.network_baseline_gbps)
    if start.source == "s3":
        connections = streamer_connections(start)
        per = figures.S3_RATE_PER_CONNECTION
        streamer = Figure(
            connections * per.value,
            "B/s",
            f"{connections} streamer connection(s) x {_mbps(per.value)} ({per.source}; the streamer's default "
            f"{figures.STREAMER_DEFAULT_CONCURRENCY}: run-ai/runai-model-streamer 0.15.7 config.cc)",
        )
        return [_slowest(STREAM, weights, [("S3 connections", streamer), ("network", network)])]
    disk = disk_rate(start)
    download = _slowest(
        DOWNLOAD,
        weights,
        [
            ("Hub", figures.WEIGHTS_RATE["huggingface"]),
            ("internet", figures.INTERNET_BANDWIDTH),
            ("network", network),
            ("volume", disk),
        ],
    )
    load = _slowest(LOAD, weights, [("loader", figures.LOCAL_LOAD_RATE), ("volume", disk)])
    return [download, load]


def cold_start_steps(start: Start) -> tuple[list[Step], list[str]]:
    """The steps of a start of a server shaped by `start`, and the steps left out for want of a figure (an image
    the tables do not know, a model of unknown size, a lazily restored volume)."""
    missing = []
    steps = _node_steps(start)
    image, why = _image_step(start)
    if image is not None:
        steps.append(image)
    if why is not None:
        missing.append(why)
    steps.append(Step(PROCESS, figures.PROCESS_START.value, "published upper figure", figures.PROCESS_START.source))
    if start.weights_bytes is None:
        missing.append("weights (the model's size is unknown: not in the model catalog, no modelFacts)")
    else:
        steps += _weights_steps(start)
    steps.append(Step(PROFILE, figures.MEMORY_PROFILING.value, "one profiling run", figures.MEMORY_PROFILING.source))
    if start.compile_cache:
        cached = figures.COMPILE_CACHED
        steps.append(
            Step(
                COMPILE, cached.value, "the compile cache restored", f"{cached.source}; {figures.COMPILE_CACHE_SOURCE}"
            )
        )
    else:
        steps.append(Step(COMPILE, figures.COMPILE.value, "without a compile cache", figures.COMPILE.source))
    graph_seconds, graph_arithmetic = cuda_graphs.capture_seconds(start.instance, start.capture)
    steps.append(Step(GRAPHS, graph_seconds, graph_arithmetic, cuda_graphs.SOURCE))
    periods = start.startup_period + start.readiness_period
    steps.append(
        Step(
            PROBES,
            periods,
            f"startup probe period {start.startup_period:g} s + readiness probe period {start.readiness_period:g} s",
            figures.PROBES_SOURCE,
        )
    )
    return steps, missing


@dataclass(frozen=True)
class ColdStart:
    """One served model's cold start: its steps, and the budgets the stack gives them."""

    name: str
    """The model, as the plan names it (`Qwen/Qwen2.5-7B-Instruct`, or `chat (Qwen/...)` in the fleet form)."""
    pool: str
    """The GpuNodeGroup it runs on."""
    steps: tuple[Step, ...]
    scales_from_zero: bool
    """Whether the pool's `minSize` is 0 with no warm node, so a first replica waits for every step."""
    startup_allowance: float | None
    """Seconds the registered startup probe allows (initial delay plus failure threshold times period); None when
    the server's Deployment has no startup probe."""
    max_node_provision: float | None
    """The autoscaler's `maxNodeProvisionTime` in seconds; None without the autoscaler."""
    not_estimated: tuple[str, ...] = ()
    """Steps left out for want of a figure."""
    weights_copy: Step | None = None
    """The seeding Job's copy, on a revision's first start only (so not in `steps`); None without seeding."""
    weights_wait: float | None = None
    """Seconds the registered init container waits for the copy's marker; None without one."""

    @property
    def total(self) -> float:
        """Seconds from a pending pod to a server that answers and is ready: the cold start."""
        return sum(step.seconds for step in self.steps)

    @property
    def in_probe(self) -> float:
        """Seconds of the steps the startup probe must allow."""
        return sum(step.seconds for step in self.steps if step.in_probe)

    @property
    def node_launch(self) -> float:
        """Seconds of the instance's launch and join, which `maxNodeProvisionTime` must allow."""
        return sum(step.seconds for step in self.steps if step.name == LAUNCH)

    def to_dict(self) -> dict[str, object]:
        return {
            "model": self.name,
            "pool": self.pool,
            "coldStartSeconds": round(self.total, 1),
            "steps": [step.to_dict() for step in self.steps],
            "budget": {
                "startupProbeMustAllowSeconds": round(self.in_probe, 1),
                "startupProbeAllowanceSeconds": self.startup_allowance,
                "nodeLaunchSeconds": round(self.node_launch, 1),
                "maxNodeProvisionSeconds": self.max_node_provision,
            },
            "scalesFromZero": self.scales_from_zero,
            "notEstimated": list(self.not_estimated),
            "weightsCopy": None
            if self.weights_copy is None
            else {**self.weights_copy.to_dict(), "waitSeconds": self.weights_wait},
            "sources": sorted({step.source for step in self.steps}),
        }
