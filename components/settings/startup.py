"""A vLLM server's start-up check against the GPUs of its pool: the share of memory `gpuMemoryUtilization` asks must
be free on a fresh GPU once the process holds its CUDA context (facts/vllm_startup.py)."""

from __future__ import annotations

from ..facts import vllm_startup
from .errors import ConfigProblem
from .node_groups import GpuNodeGroupSettings
from .vllm import VllmSettings


def startup_memory_problems(vllm: VllmSettings, gpu: GpuNodeGroupSettings) -> list[ConfigProblem]:
    """`gpuMemoryUtilization` against vLLM's start-up check on a fresh GPU of each of the pool's instance types: the
    share it asks must be free once the process holds its CUDA context (facts/vllm_startup.py). Judged with what a
    one-GPU server holds, which every server holds at least: a utilization refused here fails on every GPU count."""
    if vllm.replicas == 0 and not vllm.autoscaling.enabled:
        return []
    refused = [entry for entry in gpu.instances if not vllm_startup.starts(entry, 1, vllm.gpu_memory_utilization)]
    if not refused:
        return []
    entry = min(refused, key=vllm_startup.device_total_gib)
    total = vllm_startup.device_total_gib(entry)
    held = vllm_startup.held_gib(1)
    return [
        ConfigProblem(
            "gpuMemoryUtilization",
            f"{vllm.gpu_memory_utilization!r} asks {vllm.gpu_memory_utilization * total:.2f} GiB of the "
            f"{total:.2f} GiB of {entry.name}'s {entry.gpu_model}, but a fresh GPU has at most {total - held:.2f} "
            f'GiB free when vLLM checks ({held:g} GiB held by the CUDA context), so vLLM refuses to start ("Free '
            f'memory on device ... is less than desired GPU memory utilization"); allowed: at most '
            f"{vllm_startup.highest_utilization(entry, 1):g} on {entry.name}",
        )
    ]
