"""What `vllm.extraArgs` may set, judged on the options `vllm serve` reads from them (vllm_parser.py).

An item is refused when argparse would refuse it at container start (an unknown flag, a positional
argument, a missing or malformed value), when it sets an option the server builds from settings (under any
spelling: an alias, `_` for `-`, `--flag=value`, a prefix), when it carries a secret, or when it breaks what
the pod promises (it listens on the container port of every address, the root filesystem is read-only,
nothing mounts files beside the model cache, one pod is one node). Options that multiply the GPUs one
server uses are read, so the pod requests them, and those that shape its CUDA graphs, so the cold start counts them
and the fast profile keeps them. Standard library only: the settings import this module.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..facts import vllm_parser
from ..facts.cuda_graphs import LEVEL_MODES, CaptureSettings
from ..facts.encoder_peak import EncoderSettings
from ..facts.vllm_parser import Problem, Setting

# Options the server sets from settings (vllm_manifests.container_args), by argparse dest, and the setting.
MANAGED: dict[str, str] = {
    "model_tag": "vllm.model",
    "model": "vllm.model",
    "served_model_name": "vllm.servedModelName",
    "revision": "vllm.revision",
    "tensor_parallel_size": "vllm.tensorParallelSize",
    "max_model_len": "vllm.maxModelLen",
    "gpu_memory_utilization": "vllm.gpuMemoryUtilization",
    "port": "the container port",
    "shutdown_timeout": "vllm.shutdownTimeoutSeconds",
}
# Options that choose how the weights load: the server sets them itself for weights from S3.
LOADER = ("load_format", "model_loader_extra_config")
# Options that carry a secret: as container args they would be plain text in the pod spec and the state.
SECRET: dict[str, str] = {"api_key": "vllmApiKey", "hf_token": "hfToken"}
# Options whose product with the tensor parallel size is the GPUs one server uses on its node: the parallel
# config's world size is pipeline x tensor x prefill context parallel (vllm/config/parallel.py
# `ParallelConfig.__post_init__`), and on one node `vllm serve` starts `--data-parallel-size` engines, each
# of that world size (vllm/engine/arg_utils.py `create_engine_config`: data_parallel_size_local defaults to
# data_parallel_size when not set). Each is an integer >= 1 (`Field(ge=1)` there). `--decode-context-parallel-size`
# reuses the tensor parallel ranks and adds none.
GPU_FACTORS = ("pipeline_parallel_size", "prefill_context_parallel_size", "data_parallel_size")
_ONE_NODE = "the server is one Deployment of single-node pods, with no peers to reach or ranks to assign"
_PLAIN_HTTP = "the Service, the probes and the scrapes reach the server over plain HTTP on the container port"
# Options that break the pod's contract, by dest, and why.
REFUSED: dict[str, str] = {
    "help": "`vllm serve --help` prints the options and exits, so the pod would restart without end",
    "headless": "a headless server starts no API server, so the Service and the probes find nothing",
    "grpc": "`--grpc` serves gRPC instead of HTTP on the port, so the probes and the Service fail",
    "uds": f"`--uds` listens on a Unix socket instead of TCP; {_PLAIN_HTTP}",
    "ssl_keyfile": _PLAIN_HTTP,
    "ssl_certfile": _PLAIN_HTTP,
    "ssl_ca_certs": _PLAIN_HTTP,
    "ssl_cert_reqs": _PLAIN_HTTP,
    "ssl_ciphers": _PLAIN_HTTP,
    "enable_ssl_refresh": _PLAIN_HTTP,
    "config": "no volume mounts a config file into the pod; give the options themselves in vllm.extraArgs",
    "download_dir": "the root filesystem is read-only and weights go to the model cache volume "
    "(vllm.modelCache, where HF_HOME points); leave --download-dir out",
    "device_ids": "the device plugin assigns the pod its GPUs (CUDA_VISIBLE_DEVICES); physical device ids "
    "of the node are not the pod's",
    "nnodes": _ONE_NODE,
    "node_rank": _ONE_NODE,
    "data_parallel_size_local": f"{_ONE_NODE}; --data-parallel-size alone runs its engines in the pod",
    "data_parallel_rank": _ONE_NODE,
    "data_parallel_start_rank": _ONE_NODE,
    "data_parallel_address": _ONE_NODE,
    "data_parallel_rpc_port": _ONE_NODE,
    "data_parallel_backend": _ONE_NODE,
    "data_parallel_hybrid_lb": _ONE_NODE,
    "data_parallel_external_lb": _ONE_NODE,
    "data_parallel_multi_port_external_lb": _ONE_NODE,
}


def _host(value: object) -> str | None:
    # The Service and the kubelet's probes reach the pod IP: vLLM must listen on every address. Unset (or
    # "" / "None", which vLLM reads as None) binds `(args.host or "", port)`, every address
    # (vllm/entrypoints/launchers/launcher.py at v0.32.0); "::" binds both families on Linux.
    if value in ("0.0.0.0", "::", None):
        return None
    return "0.0.0.0 or :: (every address: the Service and the probes reach the pod IP), or leave --host out"


def _executor(value: object) -> str | None:
    # `ray` needs a Ray cluster; `external_launcher` expects torchrun to start one process per rank
    # (vllm/config/parallel.py `DistributedExecutorBackend`).
    if value in ("mp", "uni", None):
        return None
    return f"mp or uni (no Ray cluster and no external launcher: {_ONE_NODE})"


# Options allowed with some values only: a check returning what is allowed when the value is not.
# Options that shape the CUDA graphs captured at start (facts/cuda_graphs.py), read for the cold start's estimate.
CAPTURE = (
    "max_cudagraph_capture_size",
    "cudagraph_capture_sizes",
    "compilation_config",
    "optimization_level",
    "enforce_eager",
    "max_num_seqs",
    "performance_mode",
)

# Options that shape a vision encoder's start-up profiling (facts/encoder_peak.py), read for the fits gate.
ENCODER = ("limit_mm_per_prompt", "language_model_only", "skip_mm_profiling", "mm_encoder_attn_backend")

VALUE_RULES: dict[str, Callable[[object], str | None]] = {
    "host": _host,
    "distributed_executor_backend": _executor,
}


@dataclass(frozen=True)
class ExtraArgs:
    """What `vllm.extraArgs` set, once read as `vllm serve` reads them."""

    problems: tuple[Problem, ...]
    """Every refused item, in order."""
    gpu_factor: int
    """The GPUs one server uses per tensor parallel rank: pipeline x prefill context x data parallel sizes."""
    kv_cache_dtype: str | None = None
    """`--kv-cache-dtype` when the items set it (the last one counts), else None (vLLM's `auto`)."""
    overrides_hf_config: bool = False
    """Whether the items set `--hf-overrides`, which may change the model's context (rope scaling)."""
    pipeline_parallel_size: int = 1
    """`--pipeline-parallel-size`: the stages the model's layers are split into (1 when not set)."""
    loader_indexes: tuple[int, ...] = ()
    """Items that set how the weights load (`--load-format`, `--model-loader-extra-config`), which weights from
    S3 set themselves."""
    max_num_batched_tokens: int | None = None
    """`--max-num-batched-tokens` when the items set it, else None (vLLM's default for the GPU)."""
    dtype: str | None = None
    """`--dtype` when the items set it, else None (`auto`, the model's dtype where the GPU has it)."""
    data_parallel_size: int = 1
    """`--data-parallel-size`: replicas of the model inside one server (1 when not set)."""
    expert_parallel: bool = False
    """`--enable-expert-parallel`: each GPU keeps whole experts rather than a slice of every one."""
    capture: CaptureSettings = CaptureSettings()
    """What the items set that shapes the CUDA graphs captured at start (facts/cuda_graphs.py)."""
    encoder: EncoderSettings = EncoderSettings()
    """What the items set that shapes a vision encoder's start-up profiling (facts/encoder_peak.py)."""
    chunked_prefill: bool = True
    """False when `--no-enable-chunked-prefill` is given (vLLM's default for a generating model is on)."""


def check(items: Sequence[str]) -> ExtraArgs:
    """`items` read by `vllm serve`'s parser and judged against what the server and its pod own."""
    return _check(tuple(items))


@functools.lru_cache(maxsize=64)
def _check(items: tuple[str, ...]) -> ExtraArgs:
    reading = vllm_parser.read(items)
    problems = list(reading.problems)
    factors = dict.fromkeys(GPU_FACTORS, 1)
    kv_cache_dtype, overrides = None, False
    sizing: dict[str, Any] = {}
    loaders = tuple(setting.index for setting in reading.settings if setting.option.dest in LOADER)
    for setting in reading.settings:
        problem = _judged(setting) or setting.problem
        if problem:
            problems.append(Problem(setting.index, problem))
        elif setting.option.dest in factors:
            factors[setting.option.dest] = setting.value  # type: ignore[assignment]  # the last one counts
        elif setting.option.dest == "kv_cache_dtype" and isinstance(setting.value, str):
            kv_cache_dtype = setting.value
        elif setting.option.dest == "hf_overrides":
            overrides = True
        elif setting.option.dest in (
            "max_num_batched_tokens",
            "dtype",
            "enable_expert_parallel",
            "enable_chunked_prefill",
            *CAPTURE,
            *ENCODER,
        ):
            sizing[setting.option.dest] = setting.value  # the last one counts
    if not problems:
        refused = vllm_parser.argparse_error("model", items)
        if refused:
            # The walk above and argparse disagree: report argparse's own words on the list.
            problems.append(
                Problem(-1, f"refused by vllm serve's parser: {refused}; allowed: {vllm_parser.ALLOWED_FLAGS}")
            )
    return ExtraArgs(
        tuple(sorted(problems, key=lambda problem: problem.index)),
        math.prod(factors.values()),
        kv_cache_dtype,
        overrides,
        factors["pipeline_parallel_size"],
        loaders,
        sizing.get("max_num_batched_tokens"),
        sizing.get("dtype"),
        factors["data_parallel_size"],
        bool(sizing.get("enable_expert_parallel")),
        _capture(sizing),
        _encoder(sizing),
        sizing.get("enable_chunked_prefill") is not False,
    )


def _encoder(sizing: dict[str, Any]) -> EncoderSettings:
    """The encoder's profiling settings among the options read: `--limit-mm-per-prompt` gives the image count as
    a number or as `{"count": n, ...}` (vllm/config/multimodal.py `ImageDummyOptions`), and `--language-model-only`
    makes every limit 0 (`get_limit_per_prompt`)."""
    limits = sizing.get("limit_mm_per_prompt")
    image = limits.get("image") if isinstance(limits, dict) else None
    count = image.get("count") if isinstance(image, dict) else image
    backend = sizing.get("mm_encoder_attn_backend")
    return EncoderSettings(
        image_limit=0 if sizing.get("language_model_only") else count if isinstance(count, int) else None,
        skip_profiling=bool(sizing.get("skip_mm_profiling")),
        attention_backend=backend.upper() if isinstance(backend, str) else None,
    )


def _capture(sizing: dict[str, Any]) -> CaptureSettings:
    """The CUDA graph settings among the options read: a flag and its `--compilation-config` key are one setting
    (vLLM refuses both at once: vllm/engine/arg_utils.py `create_engine_config`), and the config's
    `cudagraph_mode` wins over the optimization level's (the level only fills what the config leaves unset)."""
    compilation = sizing.get("compilation_config")
    config = compilation if isinstance(compilation, dict) else {}
    sizes = sizing.get("cudagraph_capture_sizes", config.get("cudagraph_capture_sizes"))
    mode = config.get("cudagraph_mode")
    # `CUDAGraphMode` reads a name in any case, or the value of NONE, PIECEWISE or FULL (0, 1, 2).
    mode = {0: "NONE", 1: "PIECEWISE", 2: "FULL"}.get(mode, mode) if isinstance(mode, int) else mode
    level = sizing.get("optimization_level")
    return CaptureSettings(
        max_capture_size=sizing.get("max_cudagraph_capture_size", config.get("max_cudagraph_capture_size")),
        capture_sizes=tuple(sizes) if isinstance(sizes, list) else None,
        mode=mode.upper() if isinstance(mode, str) else LEVEL_MODES.get(str(level)) if level is not None else None,
        enforce_eager=bool(sizing.get("enforce_eager")),
        max_num_seqs=sizing.get("max_num_seqs"),
        max_num_batched_tokens=sizing.get("max_num_batched_tokens"),
        performance_mode=sizing.get("performance_mode"),
    )


def _judged(setting: Setting) -> str | None:
    dest = setting.option.dest
    written = setting.written
    read_as = next((flag for flag in setting.option.flags if flag.startswith("--")), written)
    spelled = "" if written == read_as else f" (read by vLLM as {read_as})"
    if dest in SECRET:
        return (
            f"secret flag in {written!r}{spelled}; allowed: no {read_as}: it would be plain text in the pod spec and "
            f"the state; set it with `pulumi config set --secret {SECRET[dest]} <value>`"
        )
    if dest in MANAGED:
        return (
            f"flag set by settings{spelled}: {written!r}; allowed: other flags ({read_as} comes from {MANAGED[dest]})"
        )
    if dest in REFUSED:
        return f"flag breaks the pod{spelled}: {written!r}; allowed: other flags ({REFUSED[dest]})"
    if dest in VALUE_RULES:
        allowed = VALUE_RULES[dest](setting.value)
        if allowed:
            return f"value {setting.values[-1]!r} of {read_as}{spelled}; allowed: {allowed}"
    if dest in GPU_FACTORS and (not isinstance(setting.value, int) or setting.value < 1):
        return f"value {setting.values[-1]!r} of {read_as}{spelled}; allowed: an integer >= 1"
    return None
