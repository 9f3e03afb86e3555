"""How much of a GPU node one vLLM server pod asks for: CPU, memory, GPUs and its shared-memory volume.

Pure functions of the GPU instance type and the tensor-parallel size, on the EKS node allocatable numbers of
facts/eks_node.py; components/vllm/manifests.py puts them into the pod spec.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..facts import gpu_catalog
from ..facts.contract import NVIDIA_GPU_RESOURCE
from ..facts.eks_node import allocatable_memory_mebibytes

RESERVED_VCPUS = 1
MEMORY_SHARE = Fraction(4, 5)
# Part of the instance memory the kernel keeps out of the node's capacity (page tables, crash kernel),
# which the EKS allocatable model (facts/eks_node.py) counts as the node's.
KERNEL_MEMORY_SHARE = Fraction(5, 100)
# What the node's DaemonSets request besides the server: aws-node, kube-proxy, the device plugin,
# the node monitoring agent, a CSI node plugin.
DAEMONSET_MEMORY_MIB = 512
# A queue-fed server's pod also runs its queue's consumer (components/vllm/queue/): one Python process waiting on HTTP,
# SQS and S3. Its requests equal its limits, as the server's do, so the pod stays Guaranteed; the server's own
# share is that much smaller.
QUEUE_CONSUMER_CPU_MILLICORES = 200
QUEUE_CONSUMER_MEMORY_MIB = 256
# A compile-cached server's pod also runs the cache's saver (components/vllm/compile_cache_manifests.py): one
# Python process that polls /health, then archives and uploads the cache once; as the consumer, Guaranteed.
CACHE_SAVER_CPU_MILLICORES = 100
CACHE_SAVER_MEMORY_MIB = 256


def queue_consumer_resources() -> dict:
    """CPU and memory of a queue's consumer beside the server."""
    sized = {"cpu": f"{QUEUE_CONSUMER_CPU_MILLICORES}m", "memory": f"{QUEUE_CONSUMER_MEMORY_MIB}Mi"}
    return {"requests": dict(sized), "limits": dict(sized)}


def compile_cache_saver_resources() -> dict:
    """CPU and memory of the compile cache's saver beside the server."""
    sized = {"cpu": f"{CACHE_SAVER_CPU_MILLICORES}m", "memory": f"{CACHE_SAVER_MEMORY_MIB}Mi"}
    return {"requests": dict(sized), "limits": dict(sized)}


def shm_size(gpus: int) -> str:
    """Size of the memory-backed `/dev/shm`: 1Gi per GPU.

    The 64 MiB default breaks vLLM (docs/traps.md#dev-shm): its engine and workers exchange messages through shared
    memory and NCCL uses it between the parallel ranks, so the need grows with the pod's `gpus`.
    The tmpfs counts against the container's memory limit: at most a fifth of it on any catalog type.
    """
    return f"{gpus}Gi"


def server_resources(
    instance: gpu_catalog.InstanceType, gpus: int, queue_consumer: bool = False, cache_saver: bool = False
) -> dict:
    """CPU, memory and GPUs of one server pod: its GPUs' share of the instance, leaving the node its due.

    `gpus` is the server's GPU count (`VllmSettings.gpus_per_replica`: tensor x pipeline x data parallel).
    With share = gpus / GPUs per instance:
    - cpu = (vCPUs - 1) * share, rounded down to 100m: a vCPU stays with kube-reserved and the DaemonSets;
    - memory = share * min(80% of the instance memory, the EKS node's allocatable memory less the 5% of
      memory the kernel keeps from the node's capacity and 512Mi for the DaemonSets), in MiB;
    - `nvidia.com/gpu` = gpus, in limits only (extended resources request their limit).
    CPU and memory requests equal limits (Guaranteed QoS: the last pods evicted or OOM-killed), and every
    pod that fits on the GPUs (`GPUs // gpus`) fits the node beside its DaemonSets. With `queue_consumer`, the
    consumer's CPU and memory (`queue_consumer_resources`) come off the server's, so the pod asks for the same;
    with `cache_saver`, the compile cache saver's (`compile_cache_saver_resources`) likewise.
    """
    if not 1 <= gpus <= instance.gpus:
        raise ValueError(
            f"a server of {gpus} GPU(s) does not fit the {instance.gpus} GPU(s) "
            f"of {instance.name}; allowed: 1-{instance.gpus}"
        )
    share = Fraction(gpus, instance.gpus)
    cpu_millicores = math.floor((instance.vcpus - RESERVED_VCPUS) * 10 * share) * 100
    instance_mib = Fraction(str(instance.memory_gib)) * 1024
    allocatable_mib = allocatable_memory_mebibytes(instance.memory_gib, instance.max_pods)
    usable_mib = allocatable_mib - KERNEL_MEMORY_SHARE * instance_mib - DAEMONSET_MEMORY_MIB
    memory_mib = math.floor(share * min(MEMORY_SHARE * instance_mib, usable_mib))
    if queue_consumer:
        cpu_millicores -= QUEUE_CONSUMER_CPU_MILLICORES
        memory_mib -= QUEUE_CONSUMER_MEMORY_MIB
    if cache_saver:
        cpu_millicores -= CACHE_SAVER_CPU_MILLICORES
        memory_mib -= CACHE_SAVER_MEMORY_MIB
    sized = {"cpu": f"{cpu_millicores}m", "memory": f"{memory_mib}Mi"}
    return {"requests": dict(sized), "limits": {**sized, NVIDIA_GPU_RESOURCE: str(gpus)}}
