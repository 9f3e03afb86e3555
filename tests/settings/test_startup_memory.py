"""`gpuMemoryUtilization` against vLLM's start-up check on a fresh GPU (settings/stack.py `startup_memory_problems`,
facts/vllm_startup.py).

Expected values: vLLM raises at start when the free memory is below ceil(total x utilization) (vllm/v1/worker/utils.py
`request_memory` at v0.32.0); a fresh GPU's free memory is its total less the 0.4 GiB its process holds for the CUDA
context (Sandermage/genesis-vllm-patches#24). Totals as nvidia-smi reports them (modal-labs/modal-client#2797): T4
15360 MiB = 15 GiB, L4 23034 MiB = 22.49 GiB; the RTX PRO 4500 at its EC2 size, 32768 MiB = 32 GiB.
"""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog, vllm_startup
from components.settings import VllmSettings
from components.settings.node_groups import GpuNodeGroupSettings
from components.settings.startup import startup_memory_problems


def problems(instance: str, utilization: float, **vllm) -> list[str]:
    pool = GpuNodeGroupSettings(instance_types=[instance])
    return [
        str(problem)
        for problem in startup_memory_problems(VllmSettings(gpu_memory_utilization=utilization, **vllm), pool)
    ]


@pytest.mark.parametrize(
    ("instance", "highest"),
    [
        ("g4dn.xlarge", 0.97),  # 1 - 0.4 / 15 = 0.9733
        ("g6.xlarge", 0.98),  # 1 - 0.4 / 22.49 = 0.9822
        ("g7.2xlarge", 0.98),  # 1 - 0.4 / 32 = 0.9875
        ("p5.48xlarge", 0.99),  # 1 - 0.4 / 79.65 = 0.9950
    ],
)
def test_the_highest_utilization_a_fresh_gpu_starts_with(instance, highest):
    entry = gpu_catalog.lookup(instance)

    assert vllm_startup.highest_utilization(entry, 1) == highest
    assert problems(instance, highest) == []
    assert len(problems(instance, round(highest + 0.01, 2))) == 1


def test_a_t4_refuses_what_an_a10g_starts_with_and_names_the_limit():
    [message] = problems("g4dn.xlarge", 0.98)

    assert message.startswith(
        "eks-gpu-inference:gpuMemoryUtilization: 0.98 asks 14.70 GiB of the 15.00 GiB of g4dn.xlarge's NVIDIA T4"
    )
    assert "a fresh GPU has at most 14.60 GiB free" in message
    assert message.endswith("allowed: at most 0.97 on g4dn.xlarge")


def test_a_pool_of_several_types_is_judged_by_its_smallest_gpu():
    pool = GpuNodeGroupSettings(instance_types=["g6.xlarge", "g6.2xlarge"])
    found = startup_memory_problems(VllmSettings(gpu_memory_utilization=0.99), pool)

    assert [problem.key for problem in found] == ["gpuMemoryUtilization"]


def test_a_server_with_no_replicas_starts_nothing_and_is_not_judged():
    assert problems("g4dn.xlarge", 1.0, replicas=0) == []


def test_a_replica_over_several_gpus_holds_more_beside_its_budget():
    # vLLM's CI on an L4, two GPUs: 2.28 GiB held before the check (pytorch/pytorch#175666).
    assert vllm_startup.held_gib(2) == 2.28
    assert vllm_startup.highest_utilization(gpu_catalog.lookup("g6.12xlarge"), 4) == 0.89


def test_the_stack_config_refuses_more_than_a_fresh_gpu_has_free_naming_the_key(tmp_path):
    """0.99 x 22.49 GiB = 22.26 GiB asked of the dev stack's A10G, whose process already holds 0.4 GiB."""
    from components.settings import ConfigError, parse_stack_config

    with pytest.raises(ConfigError) as refused:
        parse_stack_config({"eks-gpu-inference:vllm": {"gpuMemoryUtilization": 0.99}})

    assert [str(problem) for problem in refused.value.problems] == [
        "eks-gpu-inference:vllm.gpuMemoryUtilization: 0.99 asks 22.26 GiB of the 22.49 GiB of g5.xlarge's NVIDIA "
        "A10G, but a fresh GPU has at most 22.09 GiB free when vLLM checks (0.4 GiB held by the CUDA context), so "
        'vLLM refuses to start ("Free memory on device ... is less than desired GPU memory utilization"); allowed: '
        "at most 0.98 on g5.xlarge"
    ]
