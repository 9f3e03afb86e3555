"""How many CUDA graphs a vLLM server captures at start, and the seconds that takes: the cold start's CUDA graph
step (facts/cold_start.py) and the fast cold-start profile's cap (settings/cold_start_profile.py).

Read from the vllm 0.32.0 wheel's source (the version the pinned image runs; read 2026-12-05):
- the capture sizes (vllm/config/vllm.py `VllmConfig._set_cudagraph_sizes`): unless the server sets a cap
  (`--max-cudagraph-capture-size`, or `max_cudagraph_capture_size` of `--compilation-config`/`-cc`), the cap is
  `min(max_num_seqs x 2, 512)` (1024 on a data-centre Blackwell GPU, compute capability 10.x), then at most
  `max_num_batched_tokens`; the sizes are 1, 2, 4, then every 8 below 256, then every 16 up to the cap, with
  `max_num_batched_tokens` added when it is at most the cap and, for the default cap only, `max_num_seqs` (a
  uniform decode batch). `--cudagraph-capture-sizes` gives the list itself, kept up to `max_num_batched_tokens`.
  `--performance-mode interactivity` captures every size from 1 to min(cap, 32) instead of 1, 2, 4.
- the graphs per size (vllm/v1/cudagraph_dispatcher.py `initialize_cudagraph_keys`): the default
  `cudagraph_mode`, FULL_AND_PIECEWISE (vllm/config/vllm.py `OPTIMIZATION_LEVEL_02`, `-O2` being the default
  level), captures a piecewise graph per size for mixed prefill-decode batches and a full graph per size of at most
  `max_num_seqs` for decode-only batches; PIECEWISE (`-O1`) and FULL capture one per size, FULL_DECODE_ONLY the
  decode sizes only, NONE (`-O0`) and `--enforce-eager` none (`_set_cudagraph_sizes` empties the list).
- the defaults (vllm/engine/arg_utils.py `get_batch_defaults`, the OpenAI server's): `max_num_seqs` 1024 and
  `max_num_batched_tokens` 16384 from 160 GiB of GPU memory, 1024 and 8192 from 70 GiB except on an A100, else 256
  and 2048 (also when vLLM cannot read the device); `--performance-mode throughput` doubles those it defaults.
- a batch above the largest captured size runs without a CUDA graph (`_set_cudagraph_sizes`' docstring: "If batch
  size > largest `cudagraph_capture_sizes`, cudagraph will not be used"): its decode launches every kernel from
  the CPU, slower, and it does not fail.

Not counted: the attention backend or the model may change the mode at start (`CompilationConfig.
resolve_cudagraph_mode_and_sizes`; FlashAttention 2, on Ampere and Ada GPUs, keeps FULL_AND_PIECEWISE), LoRA
captures its cases again (`cudagraph_specialize_lora`), and speculative decoding widens a decode batch (`uniform_
decode_query_len` > 1); each counts here as one decode token per request without LoRA.

The seconds: vLLM captures the graphs one shape after another (vllm-project/vllm#11349, its progress bar: "Capturing
CUDA graph shapes: 35/35 [00:13<00:00, 2.51it/s]"; vllm-project/vllm#20098, 2025-06-25: "By default, vLLM
captures 67 graphs, which depending on model size and GPU type, can take more than 10s"), so the capture is taken as
proportional to the graphs captured, with vLLM's default list on the server's GPU anchored at the upper figure of
`capture_model`'s own comment, 20 s (facts/cold_start_figures.py `CUDA_GRAPHS`). Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from .activation_peak import Budget
from .cold_start_figures import CUDA_GRAPHS
from .gpu_catalog import GPU_INSTANCE_TYPES
from .model_memory import default_max_num_batched_tokens, default_max_num_seqs, served_budget

DEFAULT_CEILING = 512
"""vLLM's default cap on the capture sizes; `BLACKWELL_CEILING` on a data-centre Blackwell GPU."""
BLACKWELL_CEILING = 1024
FAST_CEILING = 128
"""The fast profile's cap (`--max-cudagraph-capture-size`): the batches CUDA graphs help most are the small ones,
where launching each kernel from the CPU is a large share of the step (vLLM's design notes for encoder graphs, docs.
vllm.ai design/cuda_graphs_multimodal: the launch overhead "is more significant when the batch size is small"), and
128 is the largest batch TensorRT-LLM captures decode graphs for by default (nvidia.github.io/TensorRT-LLM 1.3.0rc27,
llm-api reference, `DecodeCudaGraphConfig`: "If neither is provided, a default max_batch_size of 128 is used"; read
2026-12-05). A stated choice, not a measured optimum: a server that keeps more than 128 requests decoding at once
gives some decode speed for the shorter start."""
LEVEL_MODES = {"0": "NONE", "1": "PIECEWISE", "2": "FULL_AND_PIECEWISE", "3": "FULL_AND_PIECEWISE"}
"""The `cudagraph_mode` each optimization level (`-O`) sets (vllm/config/vllm.py `OPTIMIZATION_LEVEL_0x`)."""
SOURCE = (
    "vllm 0.32.0: vllm/config/vllm.py `_set_cudagraph_sizes` (the sizes), vllm/v1/cudagraph_dispatcher.py "
    "`initialize_cudagraph_keys` (FULL_AND_PIECEWISE: a piecewise graph per size, a full one per size up to "
    "max_num_seqs); capture proportional to the graphs, one shape after another (vllm-project/vllm#11349, "
    f"vllm-project/vllm#20098), vLLM's default list anchored at {CUDA_GRAPHS.value:g} s ({CUDA_GRAPHS.source})"
)


@dataclass(frozen=True)
class CaptureSettings:
    """What the server's arguments set that shapes its CUDA graphs; None where vLLM's default holds."""

    max_capture_size: int | None = None
    """`--max-cudagraph-capture-size` or `-cc.max_cudagraph_capture_size`."""
    capture_sizes: tuple[int, ...] | None = None
    """`--cudagraph-capture-sizes` or `-cc.cudagraph_capture_sizes`: the list itself."""
    mode: str | None = None
    """`cudagraph_mode` of `--compilation-config`, else the optimization level's, else None (FULL_AND_PIECEWISE)."""
    enforce_eager: bool = False
    max_num_seqs: int | None = None
    max_num_batched_tokens: int | None = None
    performance_mode: str | None = None

    @property
    def user_set(self) -> str | None:
        """How the arguments choose the capture themselves, which a profile must leave as set; None if they don't."""
        if self.enforce_eager:
            return "--enforce-eager (no CUDA graphs)"
        if self.mode == "NONE":
            return "cudagraph_mode NONE (no CUDA graphs)"
        if self.capture_sizes is not None:
            return "the capture sizes (cudagraph_capture_sizes)"
        if self.max_capture_size is not None:
            return f"the capture cap ({self.max_capture_size})"
        return None


@dataclass(frozen=True)
class GpuDefaults:
    """vLLM's defaults on a GPU that shape the capture."""

    max_num_seqs: int
    max_num_batched_tokens: int
    ceiling: int
    gpu: str


def gpu_defaults(instance: str) -> GpuDefaults:
    """vLLM's defaults on `instance`'s GPU (`get_batch_defaults`, `_set_cudagraph_sizes`); the ones vLLM takes
    when it cannot read the device (under 70 GiB) for a type the catalog does not know."""
    entry = GPU_INSTANCE_TYPES.get(instance)
    if entry is None or entry.gpu_memory_gib is None:
        # vLLM's defaults when it cannot read the device: those of a GPU under 70 GiB.
        return GpuDefaults(
            default_max_num_seqs(0, ""), default_max_num_batched_tokens(0, ""), DEFAULT_CEILING, "an unknown GPU"
        )
    memory = entry.gpu_memory_visible_gib or entry.gpu_memory_gib
    model = entry.gpu_model or ""
    seqs = default_max_num_seqs(memory, model)
    blackwell = entry.gpu_compute_capability is not None and entry.gpu_compute_capability[0] == 10
    gpu = model.removeprefix("NVIDIA ")
    return GpuDefaults(
        seqs, default_max_num_batched_tokens(memory, model), BLACKWELL_CEILING if blackwell else DEFAULT_CEILING, gpu
    )


def grid(cap: int, interactivity: bool = False) -> list[int]:
    """vLLM's capture sizes up to `cap`: 1, 2, 4 (every size to 32 for interactivity), every 8 below 256, every
    16 from 256."""
    small = range(1, min(cap, 32) + 1) if interactivity else [size for size in (1, 2, 4) if size <= cap]
    sizes = {*small, *range(8, min(cap + 1, 256), 8), *range(256, cap + 1, 16)}
    return sorted(sizes)


def largest_at_or_below(limit: int) -> int:
    """The largest size of vLLM's default list at or below `limit` (>= 1), so a cap names a captured size."""
    return grid(limit)[-1]


@dataclass(frozen=True)
class Capture:
    """The graphs one server captures: the sizes, and how many graphs of each kind."""

    sizes: tuple[int, ...]
    piecewise: int
    full: int
    mode: str

    @property
    def graphs(self) -> int:
        return self.piecewise + self.full

    def describe(self) -> str:
        if not self.graphs:
            return "no CUDA graphs"
        top = f"{len(self.sizes)} sizes up to {self.sizes[-1]}"
        kinds = [f"{self.piecewise} piecewise" if self.piecewise else "", f"{self.full} full" if self.full else ""]
        return f"{self.graphs} graphs ({top}: {' + '.join(kind for kind in kinds if kind)}, {self.mode})"


def capture(instance: str, settings: CaptureSettings) -> Capture:
    """The graphs a server on `instance` captures with `settings` (the module's docstring says how)."""
    defaults = gpu_defaults(instance)
    default = Budget(defaults.max_num_batched_tokens, defaults.max_num_seqs)
    budget = served_budget(default, settings.max_num_batched_tokens, settings.max_num_seqs, settings.performance_mode)
    seqs, tokens = budget.sequences, budget.tokens
    mode = "NONE" if settings.enforce_eager else (settings.mode or "FULL_AND_PIECEWISE")
    if mode == "NONE":
        return Capture((), 0, 0, mode)
    if settings.capture_sizes is not None:
        sizes = sorted({size for size in settings.capture_sizes if size <= tokens})
    else:
        default_cap = settings.max_capture_size is None
        cap = min(min(seqs * 2, defaults.ceiling) if default_cap else settings.max_capture_size or 0, tokens)
        sizes = grid(cap, settings.performance_mode == "interactivity") if cap >= 1 else []
        extra = [tokens] if tokens <= cap else []
        extra += [seqs] if default_cap and seqs <= cap else []
        sizes = sorted({*sizes, *extra})
    decode = [size for size in sizes if size <= seqs]
    piecewise = len(sizes) if mode in ("FULL_AND_PIECEWISE", "PIECEWISE", "FULL") else 0
    full = len(decode) if mode in ("FULL_AND_PIECEWISE", "FULL_DECODE_ONLY") else 0
    return Capture(tuple(sizes), piecewise, full, mode)


def capture_seconds(instance: str, settings: CaptureSettings) -> tuple[float, str]:
    """Seconds the capture takes, and how: the graphs over vLLM's default list's on the GPU, times 20 s."""
    captured = capture(instance, settings)
    default = capture(instance, CaptureSettings())
    gpu = gpu_defaults(instance).gpu
    if captured.graphs == default.graphs and captured.sizes == default.sizes:
        return CUDA_GRAPHS.value, f"vLLM's default on {gpu}, {default.describe()}: the upper figure"
    seconds = CUDA_GRAPHS.value * captured.graphs / default.graphs
    arithmetic = f"{captured.describe()} x {CUDA_GRAPHS.value:g} s / vLLM's default on {gpu}, {default.describe()}"
    return seconds, arithmetic
