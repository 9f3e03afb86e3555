"""What the Run:ai model streamer holds in host memory while vLLM loads weights through it, and the keys of
`--model-loader-extra-config` that bound it. Standard library only: the vLLM manifests and the plan's memory
verdict (`container-memory-fits`) read it.

Read on 2026-12-04 from:

- run-ai/runai-model-streamer at tag 0.15.7, the streamer the pinned vLLM image installs (facts/versions.py),
  py/runai_model_streamer/runai_model_streamer/file_streamer/requests_iterator.py:
  `DEFAULT_MEMORY_LIMIT_STRING = "40000000000"` ("40 GB (to be set to unlimited for distributed streaming)");
  `FilesRequestsIteratorWithBuffer.with_memory_mode` reads `RUNAI_STREAMER_MEMORY_LIMIT`, that default when it is
  unset, and allocates one CPU buffer (`np.empty(buffer_size)`) per stream: `-1` is unlimited (the size of every
  file of the request), `0` the largest tensor, a positive number N is `min(N, every file of the request)`, and a
  limit below the largest tensor is refused ("Memory limit supplied: ... cannot be smaller than: ...").
- The same tag, distributed_streamer/distributed_streamer.py: streaming is distributed only when asked for, torch
  distributed is initialised with more than one process and the backend is NCCL (`set_is_distributed`); each
  process then reads its partition of the files (`partition(..., world_size)`) to the CPU, and sets
  `RUNAI_STREAMER_MEMORY_LIMIT` to `-1` (unlimited) for it unless the variable is already set.
- vllm-project/vllm vllm/model_executor/model_loader/runai_streamer_loader.py (`RunaiModelStreamerLoader
  .__init__`, in the newest copy readable here; the v0.32.0 tag's own file was not readable): the keys of
  `--model-loader-extra-config` are `distributed` (a bool, default False), `concurrency` (an int, exported as
  `RUNAI_STREAMER_CONCURRENCY`) and `memory_limit` (an int, exported as `RUNAI_STREAMER_MEMORY_LIMIT`); a value of
  another JSON type is ignored. vllm/model_executor/model_loader/weight_utils.py
  `runai_safetensors_weights_iterator` streams every weights file in one request, to the GPU when distributed on
  CUDA, else to the CPU. Every tensor parallel rank is a worker process with its own loader, so each holds a
  buffer of its own.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

AS_OF = "2026-12-04"
STREAMER_VERSION = "0.15.7"
SOURCE = (
    f"run-ai/runai-model-streamer {STREAMER_VERSION} file_streamer/requests_iterator.py "
    "(DEFAULT_MEMORY_LIMIT_STRING) and distributed_streamer/distributed_streamer.py; vllm-project/vllm "
    f"model_loader/runai_streamer_loader.py; read {AS_OF}"
)
DEFAULT_MEMORY_LIMIT_BYTES = 40_000_000_000
"""The streamer's CPU buffer bound when `RUNAI_STREAMER_MEMORY_LIMIT` is unset and streaming is not distributed."""
UNLIMITED = -1
"""`RUNAI_STREAMER_MEMORY_LIMIT` that sizes the buffer to every file of the request."""
LARGEST_TENSOR = 0
"""`RUNAI_STREAMER_MEMORY_LIMIT` that sizes the buffer to the largest tensor (unknown to the plan)."""

LOAD_FORMATS = ("runai_streamer", "runai_streamer_sharded")
"""`--load-format` values that read the weights through the streamer."""
EXTRA_CONFIG_FLAG = "--model-loader-extra-config"
MEMORY_LIMIT_KEY = "memory_limit"
CONCURRENCY_KEY = "concurrency"
DISTRIBUTED_KEY = "distributed"


def loader_settings(extra_config: Any) -> tuple[int | None, bool]:
    """`(memory_limit, distributed)` as vLLM's loader reads them from `--model-loader-extra-config`'s value: each
    only when of its JSON type (an integer, a boolean), else `(None, False)`, its defaults."""
    if not isinstance(extra_config, Mapping):
        return None, False
    limit = extra_config.get(MEMORY_LIMIT_KEY)
    distributed = extra_config.get(DISTRIBUTED_KEY)
    # vLLM's `isinstance(value, int)` also takes a JSON true (a Python bool), which the streamer then fails to
    # read as a number (`int("True")`): not a bound.
    return (limit if isinstance(limit, int) and not isinstance(limit, bool) else None), distributed is True


def extra_config_document(*parts: Mapping[str, Any]) -> str:
    """One `--model-loader-extra-config` value: the keys every setting that writes it adds, later ones winning,
    as compact JSON with sorted keys (argparse keeps only the flag's last value, so the server passes one)."""
    merged: dict[str, Any] = {}
    for part in parts:
        merged.update(part)
    return json.dumps(merged, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class StreamerLoad:
    """The streamer's CPU buffers while one server loads its weights."""

    weights_bytes: float
    """Bytes of every weights file the server reads."""
    ranks: int
    """Worker processes that load (one per GPU of the server), each with a buffer of its own."""
    memory_limit: int | None = None
    """The bound `--model-loader-extra-config` sets (`memory_limit`); None when unset."""
    distributed: bool = False
    """Whether `--model-loader-extra-config` asks for distributed streaming (`distributed: true`)."""

    @property
    def is_distributed(self) -> bool:
        """Whether the streamer distributes: asked for, and more than one process to distribute over."""
        return self.distributed and self.ranks > 1

    @property
    def files_per_rank(self) -> float:
        """What each rank reads: its partition when distributed, else every file."""
        return self.weights_bytes / self.ranks if self.is_distributed else self.weights_bytes

    @property
    def bytes_per_rank(self) -> float:
        """One rank's buffer: `min(bound, what it reads)`, the bound being `memory_limit`, else unlimited when
        distributed and 40 GB otherwise. The largest tensor (`memory_limit: 0`) is unknown to the plan, so it is
        counted as what the rank reads, on the safe side."""
        files = self.files_per_rank
        if self.memory_limit is None:
            return files if self.is_distributed else min(DEFAULT_MEMORY_LIMIT_BYTES, files)
        if self.memory_limit <= LARGEST_TENSOR:
            return files
        return min(self.memory_limit, files)

    @property
    def total_bytes(self) -> float:
        """Every rank's buffer."""
        return self.ranks * self.bytes_per_rank

    def arithmetic(self) -> str:
        """How the buffers were counted, in words and GB."""
        if self.memory_limit is None:
            bound = "unlimited (distributed)" if self.is_distributed else "the 40 GB default"
        elif self.memory_limit <= LARGEST_TENSOR:
            bound = f"memory_limit {self.memory_limit} (counted as every file read)"
        else:
            bound = f"memory_limit {self.memory_limit / 1e9:.2f} GB"
        reads = f"1/{self.ranks} of {_gb(self.weights_bytes)}" if self.is_distributed else _gb(self.weights_bytes)
        return f"{self.ranks} rank(s) x min({bound}, {reads} of weights) = {_gb(self.total_bytes)}"


def bound_per_rank(available_bytes: float, ranks: int) -> int:
    """The `memory_limit` that keeps `ranks` buffers within `available_bytes`, whole bytes, never below 0 (the
    streamer's smallest buffer, the largest tensor)."""
    return max(math.floor(available_bytes / ranks), LARGEST_TENSOR)


def _gb(value: float) -> str:
    return f"{value / 1e9:.2f} GB"
