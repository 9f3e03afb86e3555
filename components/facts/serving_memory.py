"""The host memory the stack's containers need at their peak, against their memory limits: the arithmetic of the
plan's memory verdict (`container-memory-fits`) and the bound the vLLM server passes to the Run:ai streamer.
Standard library only. Read on 2026-12-04.

A vLLM server peaks while it loads its weights. Counted then:

- its processes: vLLM's V1 engine serves from an API server process and an engine core process, and runs a
  worker process per GPU (vLLM docs, design/arch_overview.md, "V1 Process Architecture"); with one GPU the worker
  runs inside the engine core (vllm/config/parallel.py: the multiprocessing executor only when `world_size > 1`,
  the single-process `uni` one otherwise). Each imports torch and initialises CUDA: `PROCESS_BYTES` each, an
  estimate, not a measurement: vllm-project/vllm#3035 reports a server loading in a pod at "4GB RSS";
- its `/dev/shm`, a memory-backed emptyDir whose files count against the container's memory limit (Kubernetes
  docs, "Volumes", emptyDir), counted at its `sizeLimit`;
- the Run:ai streamer's CPU buffers when the server loads through it (facts/runai_streamer.py).

Not counted: the page cache of the files the server reads (the default loader maps the safetensors files of the
model cache) or the copy writes. The cgroup's clean page cache is reclaimed before its OOM killer acts (Linux
docs, admin-guide/cgroup-v2.rst, `memory.max`: "If a cgroup's memory usage reaches this limit and can't be
reduced, the OOM killer is invoked"), as vllm-project/vllm#3035 shows: a pod with a 32G limit loaded its model
at 4GB RSS and 28GB of cache.

The server's streamer bound keeps `HEADROOM` of the limit free: memory_limit per rank = (limit x (1 - HEADROOM) -
processes - /dev/shm) / ranks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from . import vllm_parser
from .runai_streamer import EXTRA_CONFIG_FLAG, LOAD_FORMATS, StreamerLoad, bound_per_rank, loader_settings

GIB = 2**30
AS_OF = "2026-12-04"
PROCESS_BYTES = 2 * GIB
"""Host memory of one vLLM process (API server, engine core or GPU worker) besides the streamer's buffers, an
estimate: a server of one GPU's two processes make the "4GB RSS" vllm-project/vllm#3035 reports while it loads."""
HEADROOM = Fraction(1, 10)
"""Share of a container's memory limit its planned peak leaves free."""

COPY_PEAK_BYTES = GIB
"""The weights copy Job's peak: a Python process with huggingface_hub and boto3 that holds one file at a time on
disk and streams it: boto3's transfer manager keeps at most `max_concurrency` 10 parts of `multipart_chunksize`
8 MB in flight (boto3 docs, TransferConfig defaults). An estimate on the safe side, not a measurement."""
WAIT_PEAK_BYTES = 256 * 2**20
"""The server's init container that polls the copy's marker: a Python process with boto3 reading one small
object every 10 s. An estimate on the safe side, not a measurement."""
WEIGHTS_COPY_SCRIPT = "weights_copy.py"
"""The program the copy Job and the init container run (vllm/weights_copy_script.py), by its file name."""


def server_processes(gpus: int) -> int:
    """vLLM's processes for a server of `gpus` GPUs: the API server, the engine core, and a worker per GPU when
    there are several."""
    return 2 + (gpus if gpus > 1 else 0)


def streamer_bound(limit_bytes: float, gpus: int, shm_bytes: float) -> int:
    """The per-rank `memory_limit` that keeps the server's peak within `1 - HEADROOM` of its limit."""
    available = limit_bytes * (1 - HEADROOM) - server_processes(gpus) * PROCESS_BYTES - shm_bytes
    return bound_per_rank(available, gpus)


@dataclass(frozen=True)
class ServerMemory:
    """One vLLM server container's peak while it loads, against its limit."""

    limit_bytes: float
    gpus: int
    shm_bytes: float
    streamer: StreamerLoad | None = None
    """None when the server does not load through the streamer."""

    @property
    def processes_bytes(self) -> float:
        return server_processes(self.gpus) * PROCESS_BYTES

    @property
    def peak_bytes(self) -> float:
        return self.processes_bytes + self.shm_bytes + (self.streamer.total_bytes if self.streamer else 0)

    @property
    def fits(self) -> bool:
        return self.peak_bytes <= self.limit_bytes

    def arithmetic(self) -> str:
        """The peak's parts, in GiB, against the limit."""
        parts = [
            f"{server_processes(self.gpus)} processes x {PROCESS_BYTES / GIB:.1f} GiB",
            f"/dev/shm {self.shm_bytes / GIB:.1f} GiB",
        ]
        if self.streamer:
            parts.append(f"streamer buffers {self.streamer.total_bytes / GIB:.2f} GiB ({self.streamer.arithmetic()})")
        relation = "<=" if self.fits else ">"
        return (
            f"peak {self.peak_bytes / GIB:.2f} GiB while loading ({', '.join(parts)}) {relation} its limit "
            f"{self.limit_bytes / GIB:.2f} GiB"
        )


def streamer_of(args: Sequence[str], gpus: int, weights_bytes: float | None) -> StreamerLoad | None | str:
    """How `vllm serve` `args` (the positional model first) load the weights: a `StreamerLoad` through the streamer,
    None through another loader, or why it cannot be told (a string): the streamer with a model whose size is
    unknown."""
    reading = vllm_parser.read(list(args[1:]))
    load_format, extra_config = None, None
    for setting in reading.settings:  # argparse keeps the last value of each
        if setting.option.dest == "load_format":
            load_format = setting.value
        elif setting.option.dest == "model_loader_extra_config":
            extra_config = setting.value
    if load_format not in LOAD_FORMATS:
        return None
    if weights_bytes is None:
        return f"loads through the Run:ai streamer ({EXTRA_CONFIG_FLAG} {extra_config}) a model of unknown size"
    limit, distributed = loader_settings(extra_config)
    return StreamerLoad(weights_bytes, gpus, limit, distributed)
