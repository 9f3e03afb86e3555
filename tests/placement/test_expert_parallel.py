"""Expert parallelism in the fits gate (facts/model_memory.py `weights_per_gpu`), as vLLM v0.32.0 lays the experts
out: with `--enable-expert-parallel` the tensor and data parallel ranks form one expert parallel group, each GPU
owning whole experts (vllm/model_executor/layers/fused_moe/config.py `FusedMoEParallelConfig.make`), `global // ep`
each and one more on the first `global % ep` ranks (fused_moe/expert_map_manager.py `determine_expert_map`); the
rest of the weights stay split over the tensor parallel ranks of each data parallel replica.

Worked by hand from the configs the catalog rows quote (facts/model_catalog.py):
- Qwen3-30B-A3B: experts 48 layers x 128 x 3 x 2048 x 768 = 28,991,029,248 parameters x 2 bytes =
  57,982,058,496; the rest (30.5e9 - that) x 2 = 3,017,941,504. Data parallel 4 on a g6e.12xlarge (4 L40S,
  40.49 GiB usable each): without EP every replica keeps all 61.0e9 bytes = 56.81 GiB (no fit); with EP each GPU
  keeps 32 of the 128 experts, 3,017,941,504 + 57,982,058,496 x 32 / 128 = 17,513,456,128 bytes = 16.31 GiB.
- gpt-oss-120b: experts 114,661,785,600 MXFP4 weights x 0.53125 = 60,914,073,600 bytes, the rest 4,336,428,800.
  Data parallel 3 with EP: 128 = 3 x 42 + 2, so the first two GPUs keep 43 experts: 4,336,428,800 +
  60,914,073,600 x 43 / 128 = 24,799,750,400 bytes = 23.10 GiB.
"""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.model_memory import GIB, ServedModel, expert_parallel_size, model_fit
from components.settings.fleet import served_model
from components.settings.vllm import VllmSettings

EXPERT_PARALLEL = [
    pytest.param("Qwen/Qwen3-30B-A3B", 1, 4, False, 56.8107, False, id="qwen3-30b-four-replicas"),
    pytest.param(
        "Qwen/Qwen3-30B-A3B", 1, 4, True, 17_513_456_128 / GIB, True, id="qwen3-30b-four-replicas-expert-parallel"
    ),
    pytest.param(
        "openai/gpt-oss-120b",
        1,
        3,
        True,
        24_799_750_400 / GIB,
        True,
        id="gpt-oss-120b-three-replicas-expert-parallel-uneven",
    ),
    # With TP alone the experts are sliced over the 4 GPUs: the same bytes per GPU as EP 4 over whole experts.
    pytest.param("Qwen/Qwen3-30B-A3B", 4, 1, False, 61_000_000_000 / 4 / GIB, True, id="qwen3-30b-tensor-parallel-4"),
    pytest.param(
        "Qwen/Qwen3-30B-A3B",
        4,
        1,
        True,
        61_000_000_000 / 4 / GIB,
        True,
        id="qwen3-30b-tensor-parallel-4-expert-parallel",
    ),
]


@pytest.mark.parametrize(("model", "tp", "dp", "ep", "weights", "fits"), EXPERT_PARALLEL)
def test_expert_parallel_keeps_whole_experts_per_gpu(model, tp, dp, ep, weights, fits):
    served = ServedModel(
        model, "gpu", tp, 8192, 0.9, model_catalog.lookup(model), data_parallel_size=dp, expert_parallel=ep
    )

    result = model_fit(served, gpu_catalog.lookup("g6e.12xlarge"), "g6e.12xlarge")

    assert result.weights_gib_per_gpu == pytest.approx(weights, abs=0.0001)
    assert result.fits is fits


def test_the_row_names_the_expert_parallel_layout():
    served = ServedModel(
        "openai/gpt-oss-120b",
        "gpu",
        1,
        8192,
        0.9,
        model_catalog.lookup("openai/gpt-oss-120b"),
        data_parallel_size=3,
        expert_parallel=True,
    )

    result = model_fit(served, gpu_catalog.lookup("g6e.12xlarge"), "g6e.12xlarge")

    assert "(TP 1, DP 3, EP 3 (43 of 128 experts per GPU))" in result.reason
    # The GPUs exchange tokens: the communication reserve as with tensor parallelism.
    assert result.reserve_gib_per_gpu == 2.5


def test_a_dense_model_or_unrecorded_experts_are_not_spread():
    dense = ServedModel(
        "Qwen/Qwen3-8B",
        "gpu",
        1,
        8192,
        0.9,
        model_catalog.lookup("Qwen/Qwen3-8B"),
        data_parallel_size=4,
        expert_parallel=True,
    )

    result = model_fit(dense, gpu_catalog.lookup("g6e.12xlarge"), "g6e.12xlarge")

    assert "EP" not in result.reason
    assert result.weights_gib_per_gpu == pytest.approx(8.2e9 * 2 / GIB)


def test_extra_args_turn_expert_parallel_on():
    settings = VllmSettings(
        model="Qwen/Qwen3-30B-A3B", extra_args=["--data-parallel-size", "4", "--enable-expert-parallel"]
    )

    served = served_model(settings, "gpu")

    assert (served.data_parallel_size, served.expert_parallel) == (4, True)


@pytest.mark.parametrize(
    ("tp", "dp", "ep", "size"),
    [
        pytest.param(2, 1, True, 2, id="two-tensor-ranks"),
        pytest.param(1, 2, True, 2, id="two-data-ranks"),
        pytest.param(2, 3, True, 6, id="the-flattened-group"),
        pytest.param(1, 1, True, 1, id="one-rank"),
        pytest.param(2, 2, False, 1, id="not-asked"),
    ],
)
def test_the_expert_parallel_group_is_every_tensor_and_data_rank(tp, dp, ep, size):
    """`FusedMoEParallelConfig.make` (the module docstring): ep_size = tp_size x dp_size when asked and more than one."""
    facts = model_catalog.lookup("Qwen/Qwen3-30B-A3B")
    served = ServedModel("Qwen/Qwen3-30B-A3B", "gpu", tp, 8192, 0.9, facts, data_parallel_size=dp, expert_parallel=ep)

    assert expert_parallel_size(facts, served) == size


def test_a_dense_model_has_no_expert_parallel_group():
    facts = model_catalog.lookup("meta-llama/Llama-3.1-8B-Instruct")
    served = ServedModel("meta-llama/Llama-3.1-8B-Instruct", "gpu", 2, 8192, 0.9, facts, expert_parallel=True)

    assert expert_parallel_size(facts, served) == 1


@pytest.mark.parametrize(("ep", "reserve"), [(True, 2.5), (False, 2.0)])
def test_expert_parallelism_over_data_parallel_replicas_reserves_the_communication_buffers(ep, reserve):
    """At TP 1 the replicas exchange tokens only with expert parallelism: the 2.0 GiB runtime reserve, plus NCCL's
    0.5 GiB when they do (facts/model_memory.py `RUNTIME_RESERVE_GIB`, `NCCL_RESERVE_GIB`); vLLM's default budget adds
    no activation."""
    facts = model_catalog.lookup("Qwen/Qwen3-30B-A3B")
    served = ServedModel("Qwen/Qwen3-30B-A3B", "gpu", 1, 8192, 0.9, facts, data_parallel_size=2, expert_parallel=ep)

    assert model_fit(served, gpu_catalog.lookup("g6e.12xlarge"), "g6e.12xlarge").reserve_gib_per_gpu == reserve
