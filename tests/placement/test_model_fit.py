"""The fits gate (verdict 11): a model at its context length and tensor parallel size against one instance type.

Each case's id or comment states its arithmetic: weights = parameters x 2 bytes / TP, KV per token =
2 x layers x max(1, KV heads // TP) x head dim x 2 bytes, usable = the GPU's memory as CUDA reports it x 0.9 (A10G
23028 MiB = 22.49 GiB gives 20.24; L4 23034 MiB 20.24; H100 81559 MiB 71.68), reserve 2 GiB (2.5 with TP > 1).
"""

from __future__ import annotations

import dataclasses

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.model_catalog import ModelFacts
from components.facts.model_memory import (
    NCCL_RESERVE_GIB,
    RUNTIME_RESERVE_GIB,
    ModelFit,
    ServedModel,
    kv_heads_per_gpu,
    model_fit,
)
from components.placement.model_fit import model_fits_verdict


def served(model: str, tp: int = 1, max_model_len: int = 8192, utilization: float = 0.9) -> ServedModel:
    return ServedModel(model, "gpu", tp, max_model_len, utilization, model_catalog.lookup(model))


def fit(model: ServedModel, instance_type: str) -> ModelFit:
    return model_fit(model, gpu_catalog.lookup(instance_type), instance_type)


FITS = [
    # 7.61e9 x 2 / 2^30 = 14.17 GiB; KV 2x28x4x128x2 B x 8192 = 0.4375 GiB; (20.24 - 14.17 - 2) / 0.4375 = 9.
    pytest.param("Qwen/Qwen2.5-7B-Instruct", 1, 8192, "g5.xlarge", 14.17, 0.4375, 9, id="qwen7b-a10g-8k-9-seqs"),
    # KV 2x32x8x128x2 B x 16384 = 2 GiB; 20.24 - 14.96 - 2 = 3.28 GiB holds exactly one.
    pytest.param("meta-llama/Llama-3.1-8B-Instruct", 1, 16384, "g5.xlarge", 14.96, 2.0, 1, id="llama8b-a10g-16k-1-seq"),
    # 70.56e9 x 2 / 8 / 2^30 = 16.43 GiB; KV 2x80x1x128x2 x 8192 = 0.3125 GiB; (71.68 - 16.43 - 2.5) / 0.3125 = 168.
    pytest.param(
        "meta-llama/Llama-3.3-70B-Instruct", 8, 8192, "p5.48xlarge", 16.43, 0.3125, 168, id="llama70b-8xh100-tp8"
    ),
    # 2 KV heads over TP 4: one replicated head per GPU, KV 2x28x1x128x2 x 8192 = 0.109 GiB, not half of it;
    # (20.24 - 0.72 - 2.5) / 0.1094 = 155.
    pytest.param(
        "Qwen/Qwen2.5-1.5B-Instruct", 4, 8192, "g5.12xlarge", 0.72, 0.1094, 155, id="qwen1.5b-tp4-kv-replicated"
    ),
]


@pytest.mark.parametrize(("model", "tensor_parallel", "length", "instance", "weights", "kv", "sequences"), FITS)
def test_model_fits_with_its_numbers(model, tensor_parallel, length, instance, weights, kv, sequences):
    result = fit(served(model, tensor_parallel, length), instance)

    assert result.fits is True, result.reason
    assert result.weights_gib_per_gpu == pytest.approx(weights, abs=0.01)
    assert result.kv_gib_per_sequence_per_gpu == pytest.approx(kv, abs=0.0001)
    assert result.sequences_at_max_model_len == sequences
    assert result.margin_gib > 0
    assert f"{sequences} full-length sequence(s)" in result.reason


FAILS = [
    # 70.56e9 x 2 / 4 / 2^30 = 32.86 GiB per GPU > 22.49 x 0.9 = 20.24 GiB.
    pytest.param(
        "meta-llama/Llama-3.1-70B-Instruct",
        4,
        8192,
        "g5.12xlarge",
        "weights 32.9 GiB + reserve 2.5 GiB per GPU > 20.2 GiB usable per A10G",
        id="memory-llama70b-4xa10g-32.9-gt-20.2",
    ),
    # 14.7e9 x 2 = 27.38 GiB > 22.49 x 0.9 = 20.24 GiB.
    pytest.param(
        "Qwen/Qwen2.5-14B-Instruct",
        1,
        4096,
        "g6.xlarge",
        "weights 27.4 GiB + reserve 2.0 GiB per GPU > 20.2 GiB usable per L4",
        id="memory-qwen14b-l4-27.4-gt-20.2",
    ),
    # Weights fit (14.96 + 2 < 20.24) but KV 128 KiB/token x 131072 = 16 GiB > the 3.28 GiB left.
    pytest.param(
        "meta-llama/Llama-3.1-8B-Instruct",
        1,
        131072,
        "g5.xlarge",
        "KV cache of one 131072-token sequence 16.00 GiB per GPU > 3.28 GiB left per A10G",
        id="memory-kv-llama8b-128k-16-gt-3.28",
    ),
    # 32768 tokens: 4 GiB of KV, more than the 3.28 GiB left (against the nominal 24 GiB it would have fit).
    pytest.param(
        "meta-llama/Llama-3.1-8B-Instruct",
        1,
        32768,
        "g5.xlarge",
        "KV cache of one 32768-token sequence 4.00 GiB per GPU > 3.28 GiB left per A10G",
        id="memory-kv-llama8b-32k-4-gt-3.28",
    ),
    # 65536 > the 32768 of max_position_embeddings; memory would fit on an L40S (40.49 GiB usable).
    pytest.param(
        "Qwen/Qwen2.5-7B-Instruct",
        1,
        65536,
        "g6e.xlarge",
        "maxModelLen 65536 > the model's context 32768",
        id="context-qwen7b-65536-gt-32768",
    ),
    # 28 attention heads % 8 = 4.
    pytest.param(
        "Qwen/Qwen2.5-7B-Instruct",
        8,
        8192,
        "p4d.24xlarge",
        "tensorParallelSize 8 does not divide the 28 attention heads",
        id="tp-qwen7b-28-heads-mod-8",
    ),
    # TP 2 on an instance with 1 GPU.
    pytest.param(
        "Qwen/Qwen2.5-7B-Instruct",
        2,
        8192,
        "g5.xlarge",
        "tensorParallelSize 2 > 1 GPU(s) per g5.xlarge",
        id="tp-2-gt-1-gpu",
    ),
]


@pytest.mark.parametrize(("model", "tensor_parallel", "length", "instance", "reason"), FAILS)
def test_model_does_not_fit_and_the_reason_names_model_instance_and_numbers(
    model, tensor_parallel, length, instance, reason
):
    result = fit(served(model, tensor_parallel, length), instance)

    assert result.fits is False
    assert reason in result.reason
    assert result.reason.startswith(f"{model} on {instance} (TP {tensor_parallel}): ")


def test_every_problem_of_one_row_is_named_at_once():
    """Qwen2.5-7B-Instruct at TP 8 and 65536 tokens on one A10G breaks three rules at once (its config.json: 28
    attention heads, 32768 positions): more GPUs than the node has, heads that 8 does not divide, and a context past
    the model's. Each is named, in that order, so one preview shows all the user must change."""
    result = fit(served("Qwen/Qwen2.5-7B-Instruct", 8, 65536), "g5.xlarge")

    assert result.fits is False
    assert result.reason == (
        "Qwen/Qwen2.5-7B-Instruct on g5.xlarge (TP 8): tensorParallelSize 8 > 1 GPU(s) per g5.xlarge; "
        "tensorParallelSize 8 does not divide the 28 attention heads; maxModelLen 65536 > the model's context 32768"
    )


@pytest.mark.parametrize(
    ("kv_heads", "tensor_parallel", "per_gpu"),
    [
        pytest.param(8, 4, 2, id="8-heads-tp4-split-2"),
        pytest.param(2, 4, 1, id="2-heads-tp4-replicated-1"),
        pytest.param(4, 8, 1, id="4-heads-tp8-replicated-1"),
        pytest.param(8, 1, 8, id="8-heads-tp1-all"),
    ],
)
def test_kv_heads_per_gpu_follows_vllm_replication(kv_heads, tensor_parallel, per_gpu):
    assert kv_heads_per_gpu(kv_heads, tensor_parallel) == per_gpu


def test_reserve_adds_nccl_buffers_only_with_tensor_parallelism():
    single = fit(served("Qwen/Qwen2.5-7B-Instruct"), "g5.12xlarge")
    parallel = fit(served("Qwen/Qwen2.5-7B-Instruct", tp=4), "g5.12xlarge")

    assert single.reserve_gib_per_gpu == RUNTIME_RESERVE_GIB
    assert parallel.reserve_gib_per_gpu == RUNTIME_RESERVE_GIB + NCCL_RESERVE_GIB


def test_lower_gpu_memory_utilization_shrinks_usable_memory_and_sequences():
    full = fit(served("Qwen/Qwen2.5-7B-Instruct", utilization=0.9), "g5.xlarge")
    lower = fit(served("Qwen/Qwen2.5-7B-Instruct", utilization=0.75), "g5.xlarge")

    # 23028 MiB x 0.75 = 16.87 GiB; (16.87 - 14.17 - 2) / 0.4375 = 1.
    assert lower.usable_gib_per_gpu == pytest.approx(23028 / 1024 * 0.75)
    assert (full.sequences_at_max_model_len, lower.sequences_at_max_model_len) == (9, 1)


def test_model_outside_the_catalog_is_not_checked_and_names_the_facts_key():
    result = fit(ServedModel("acme/tiny", "gpu", 1, 8192, 0.9, None), "g5.xlarge")

    assert result.fits is None
    assert result.weights_gib_per_gpu is None
    assert "not checked" in result.reason and "vllm.modelFacts" in result.reason
    # The Models section lists the row under the model's pool, checked or not.
    assert (result.name, result.pool, result.instance_type) == ("acme/tiny", "gpu", "g5.xlarge")


def test_instance_type_outside_the_catalog_is_not_checked():
    result = model_fit(served("Qwen/Qwen2.5-7B-Instruct"), None, "x9.xlarge")

    assert result.fits is None
    assert "x9.xlarge is not a GPU type of the catalog" in result.reason


def test_facts_given_by_the_config_are_used_instead_of_the_catalog():
    # 4-bit weights: 7e9 x 0.5 / 2^30 = 3.26 GiB.
    facts = ModelFacts(7_000_000_000, 32, 32, 8, 128, 32768, "bfloat16", 0.5)

    result = fit(ServedModel("acme/awq-7b", "gpu", 1, 8192, 0.9, facts), "g5.xlarge")

    assert result.fits is True
    assert result.weights_gib_per_gpu == pytest.approx(3.26, abs=0.01)


def test_verdict_fails_with_the_first_failure_and_lists_every_row():
    rows = [fit(served("Qwen/Qwen2.5-7B-Instruct"), "g5.xlarge"), fit(served("Qwen/Qwen2.5-14B-Instruct"), "g5.xlarge")]

    verdict = model_fits_verdict(rows)

    assert (verdict.name, verdict.passed) == ("model-fits-gpu", False)
    assert verdict.message.startswith("Qwen/Qwen2.5-14B-Instruct on g5.xlarge (TP 1): weights 27.4 GiB")
    assert verdict.details == [row.reason for row in rows]


def test_verdict_passes_but_says_not_checked_when_facts_are_missing():
    rows = [fit(ServedModel("acme/tiny", "gpu", 1, 8192, 0.9, None), "g5.xlarge")]

    verdict = model_fits_verdict(rows)

    assert verdict.passed
    assert "not checked" in verdict.message


def test_verdict_without_models_passes_with_nothing_to_size():
    verdict = model_fits_verdict([])

    assert verdict.passed and "nothing to size" in verdict.message


def test_catalog_rows_are_consistent_and_sourced():
    assert len(model_catalog.MODELS) >= 30
    for name, facts in model_catalog.MODELS.items():
        assert facts.attention_heads % facts.kv_heads == 0, name
        assert name in facts.source, name
    assert model_catalog.lookup("qwen/qwen2.5-7b-instruct") is model_catalog.MODELS["Qwen/Qwen2.5-7B-Instruct"]


def test_catalog_refuses_a_row_whose_kv_heads_do_not_divide_the_heads():
    with pytest.raises(ValueError, match="multiple of kv_heads"):
        ModelFacts(1, 1, 6, 4, 64, 1024, "bfloat16", 2)


@pytest.mark.parametrize(
    ("kv_cache_dtype", "kv"),
    [
        # 2x28x4x128 elements x 8192 tokens: x 2 bytes = 0.4375 GiB, x 1 byte = 0.21875 GiB.
        pytest.param(None, 0.4375, id="auto-bf16-2-bytes-0.4375"),
        pytest.param("fp8", 0.21875, id="fp8-1-byte-0.21875"),
        pytest.param("fp8_e5m2", 0.21875, id="fp8-e5m2-1-byte-0.21875"),
        # A packed 4-bit cache is sized as the model's dtype: an overestimate, never an underestimate.
        pytest.param("int4_per_token_head", 0.4375, id="packed-4-bit-sized-as-bf16"),
    ],
)
def test_kv_cache_dtype_sets_the_bytes_per_element(kv_cache_dtype, kv):
    model = ServedModel(
        "Qwen/Qwen2.5-7B-Instruct",
        "gpu",
        1,
        8192,
        0.9,
        model_catalog.lookup("Qwen/Qwen2.5-7B-Instruct"),
        kv_cache_dtype=kv_cache_dtype,
    )

    assert fit(model, "g5.xlarge").kv_gib_per_sequence_per_gpu == pytest.approx(kv)


@pytest.mark.parametrize(
    ("given", "bytes_per_parameter"),
    [
        pytest.param({}, 2, id="default-bfloat16-2-bytes"),
        pytest.param({"dtype": "fp8"}, 1, id="fp8-1-byte"),
        pytest.param({"bytesPerParameter": 0.5}, 0.5, id="4-bit-given-0.5"),
    ],
)
def test_model_facts_setting_takes_bytes_from_dtype_unless_given(given, bytes_per_parameter):
    from components.settings.vllm import VllmSettings

    shape = {"parameters": 10**9, "layers": 2, "attentionHeads": 8, "kvHeads": 2, "headDim": 64, "maxContext": 8192}
    settings = VllmSettings.model_validate({"model": "acme/x", "modelFacts": {**shape, **given}})

    facts = settings.model_facts.facts()
    assert facts.bytes_per_parameter == bytes_per_parameter
    assert (facts.layers, facts.kv_heads, facts.max_context) == (2, 2, 8192)


def test_pipeline_stages_hold_only_their_layers_weights_and_cache():
    facts = model_catalog.lookup("Qwen/Qwen2.5-14B-Instruct")
    staged = ServedModel("Qwen/Qwen2.5-14B-Instruct", "gpu", 1, 8192, 0.9, facts, pipeline_parallel_size=2)

    result = fit(staged, "g5.12xlarge")

    # 48 layers over 2 stages: 24 each, so 14.7e9 x 2 / 2^30 / 2 = 13.69 GiB and KV 2x24x8x128x2 x 8192 = 0.75 GiB.
    assert result.fits is True
    assert result.weights_gib_per_gpu == pytest.approx(13.69, abs=0.01)
    assert result.kv_gib_per_sequence_per_gpu == pytest.approx(0.75)
    assert result.reserve_gib_per_gpu == RUNTIME_RESERVE_GIB + NCCL_RESERVE_GIB
    assert result.reason.startswith("Qwen/Qwen2.5-14B-Instruct on g5.12xlarge (TP 1, PP 2): ")


def test_model_facts_settings_accept_exactly_the_dtypes_the_catalog_sizes():
    import typing

    from components.facts.model_catalog import DTYPE_BYTES
    from components.settings.vllm import ModelFactsSettings

    assert set(typing.get_args(ModelFactsSettings.model_fields["dtype"].annotation)) == set(DTYPE_BYTES)


def test_model_facts_settings_accept_exactly_the_methods_the_catalog_sizes_that_vllm_knows():
    """The methods `vllm.modelFacts.quantization` allows are the ones the arithmetic has bytes for
    (facts/model_facts.py `QUANTIZATION_BYTES`) less those vLLM 0.32.0 does not know (`UNKNOWN_METHODS`:
    bitsandbytes), so a method added to one list and not the other fails here."""
    import typing

    from components.facts.model_facts import QUANTIZATION_BYTES
    from components.facts.vllm_capability import UNKNOWN_METHODS
    from components.settings.vllm import Quantization

    assert set(typing.get_args(Quantization)) == set(QUANTIZATION_BYTES) - UNKNOWN_METHODS


def test_a_type_whose_gpus_compute_capability_is_unknown_is_sized_with_no_capability_problem_or_note():
    """An instance type the GPU catalog knows without a compute capability: no method or dtype rule can be checked,
    so the row is the sizing alone. Qwen2.5-7B on an A10G's memory holds 9 sequences of 8192 tokens (the first
    row of FITS, worked there), and its reason ends with the KV figures, no capability note after them."""
    a10g = dataclasses.replace(gpu_catalog.lookup("g5.xlarge"), gpu_compute_capability=None)

    result = model_fit(served("Qwen/Qwen2.5-7B-Instruct"), a10g, "g5.xlarge")

    assert (result.fits, result.sequences_at_max_model_len) == (True, 9)
    assert "capability" not in result.reason
    assert not result.reason.endswith("; ")
