"""vLLM's start-up check of free GPU memory against the share `gpuMemoryUtilization` asks, and what a healthy server
then uses of its GPU. Standard library only.

The check (vllm/v1/worker/utils.py `request_memory` at v0.32.0, read in the release's wheel): the worker takes a
memory snapshot once the CUDA context and the distributed environment are up (`init_device` in
vllm/v1/worker/gpu_worker.py) and raises "Free memory on device ... on startup is less than desired GPU memory
utilization" when the free memory is below `ceil(total x gpu_memory_utilization)`. On a fresh GPU the free memory is
the device total less what the process already holds then: the CUDA context, and with a replica over several GPUs
the NCCL communicators. So the utilization can ask at most `1 - held / total`.

The budget then covers everything the server allocates after that snapshot (weights, activations, CUDA graphs, the
KV cache sized to fill it: `determine_available_memory`, `memory_profiling` in vllm/utils/mem_utils.py, CUDA graphs
counted since VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1 in vllm/envs.py), and what was held before it
stays beside the budget: a healthy server uses `gpu_memory_utilization + held / total` of its GPU.

What the process holds when vLLM checks, measured:
- With a replica over several GPUs: 2.28 GiB. vLLM's CI on an NVIDIA L4 (22.05 GiB as CUDA reports it), CUDA 13.0
  and PyTorch 2.11, a two-GPU pipeline-parallel server: 19.77 GiB free at the check, where 0.9 asks 19.84 GiB
  (pytorch/pytorch#175666, 2026-02-24).
- With one GPU (no NCCL communicator): 0.4 GiB, "clean vLLM memory usage before model loading is ~400mb on each GPU"
  (nvidia-smi, Sandermage/genesis-vllm-patches#24, 2026-05-08).
The device total is the catalog's nvidia-smi total where it has one, else the nominal size (facts/gpu_catalog.py);
CUDA reports a little less (the L4: 22.05 GiB against nvidia-smi's 23034 MiB), so the bound errs towards allowing.
"""

from __future__ import annotations

import math

from .gpu_catalog import GPU_INSTANCE_TYPES, InstanceType

HELD_ONE_GPU_GIB = 0.4
"""What a one-GPU server's process holds of its GPU when vLLM checks the free memory."""
HELD_SEVERAL_GPUS_GIB = 2.28
"""What a server spread over several GPUs holds of each when vLLM checks (the CUDA context and NCCL)."""


def held_gib(gpus_per_replica: int) -> float:
    """What the server's process holds of each GPU before vLLM's start-up check."""
    return HELD_ONE_GPU_GIB if gpus_per_replica <= 1 else HELD_SEVERAL_GPUS_GIB


def device_total_gib(entry: InstanceType) -> float:
    """The GPU's memory as the check sees it: nvidia-smi's total where the catalog has it, else the nominal size."""
    return float(entry.gpu_memory_visible_gib or entry.gpu_memory_gib or 0)


def highest_utilization(entry: InstanceType, gpus_per_replica: int) -> float:
    """The largest `gpuMemoryUtilization`, in hundredths, that a fresh GPU of `entry` has free memory for."""
    total = device_total_gib(entry)
    return math.floor((1 - held_gib(gpus_per_replica) / total) * 100 + 1e-9) / 100


def starts(entry: InstanceType, gpus_per_replica: int, gpu_memory_utilization: float) -> bool:
    """Whether vLLM's start-up check passes on a fresh GPU of `entry`."""
    total = device_total_gib(entry)
    return gpu_memory_utilization * total <= total - held_gib(gpus_per_replica)


def healthy_share(gpu_memory_utilization: float, gpus_per_replica: int = 1) -> float | None:
    """The most of its GPU's memory a healthy server uses: its budget and what it held before it, on the smallest
    catalog GPU the utilization starts on. None when it starts on none."""
    totals = [
        device_total_gib(entry)
        for entry in GPU_INSTANCE_TYPES.values()
        if starts(entry, gpus_per_replica, gpu_memory_utilization)
    ]
    if not totals:
        return None
    return gpu_memory_utilization + held_gib(gpus_per_replica) / min(totals)
