"""The fits gate on quantized, mixture-of-experts, sliding-window and multi-latent models.

Every expected figure below is worked by hand from the model's `config.json` (the shapes the catalog row's
comment quotes, facts/model_catalog.py) and from vLLM v0.32.0's source, read in the v0.32.0 wheel:

- Bytes per quantized weight, from the tensors each method's `create_weights` allocates
  (vllm/model_executor/layers/quantization/): MXFP4 keeps two 4-bit values per uint8 and a uint8 scale per 32
  (mxfp4.py), 0.5 + 1/32 = 0.53125; AWQ and GPTQ keep int32 `qweight` of 8 values, int32 `qzeros` of 8 per group
  of 128 and float16 `scales` per group (auto_awq.py, auto_gptq.py), 0.5 + 0.5/128 + 2/128 = 0.51953125;
  compressed-tensors' wNa16 scheme drops the zero points and keeps a 16-bit scale per group of 128
  (compressed_tensors/schemes/compressed_tensors_wNa16.py): w4a16 0.5 + 2/128 = 0.515625, w8a16 1 + 2/128 =
  1.015625; its w8a8-fp8, w8a16-fp8 and w8a8-int8 schemes keep one byte and a float32 scale per tensor or output
  channel (compressed_tensors_w8a8_fp8.py, compressed_tensors_w8a16_fp8.py, compressed_tensors_w8a8_int8.py),
  counted as 1; FP8 keeps one byte and a float32 scale per 128 x 128 block (fp8.py), 1 + 4/16384 =
  1.000244140625.
- KV cache of one sequence (vllm/v1/kv_cache_interface.py `max_memory_usage_bytes`): a full-attention layer keeps
  `cdiv(max_model_len, 16)` pages of 16 tokens, a sliding-window layer `cdiv(min(window - 1 + 2 x
  max_num_batched_tokens, max_model_len), 16) + 1` pages (2 batches in flight with async scheduling,
  vllm/config/vllm.py `max_in_flight_tokens`); `max_num_batched_tokens` defaults to 8192 on an H100 and 2048 on an
  L4 or L40S (vllm/engine/arg_utils.py `get_batch_defaults`). A token of a layer takes 2 x KV heads x head dim x 2
  bytes, or one latent of `kv_lora_rank + qk_rope_head_dim` x 2 bytes under MLA (`MLAAttentionSpec`).
- Usable memory = what CUDA reports x 0.9: L40S 46068 MiB -> 40.49 GiB, H100 81559 MiB -> 71.68 GiB, L4 23034 MiB
  -> 20.24 GiB (facts/gpu_catalog.py); reserve 2 GiB, 2.5 GiB with tensor parallelism.
"""

from __future__ import annotations

import dataclasses

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.model_catalog import ModelFacts
from components.facts.model_memory import ServedModel, facts_origin, kv_tokens_per_sequence, model_fit


def fit(model: str, instance_type: str, max_model_len: int, tp: int = 1, kv_cache_dtype: str | None = None):
    served = ServedModel(model, "gpu", tp, max_model_len, 0.9, model_catalog.lookup(model), kv_cache_dtype)
    return model_fit(served, gpu_catalog.lookup(instance_type), instance_type)


def test_gpt_oss_120b_does_not_fit_one_l40s_with_its_mxfp4_weights():
    """Experts 3 x 2880 x 2880 x 128 x 36 = 114,661,785,600 weights x 0.53125 = 60,914,073,600 bytes; the other
    116.83e9 - 114,661,785,600 = 2,168,214,400 parameters in bf16 = 4,336,428,800 bytes; 65,250,502,400 bytes =
    60.77 GiB (the checkpoint on the Hub is 65.3 GB) > 40.49 GiB usable."""
    result = fit("openai/gpt-oss-120b", "g6e.xlarge", 131072)

    assert result.fits is False
    assert result.weights_gib_per_gpu == pytest.approx(60.769, abs=0.001)
    assert "weights 60.8 GiB + reserve 2.0 GiB per GPU > 40.5 GiB usable per L40S" in result.reason


FITS = [
    # gpt-oss-120b on one H100 at its full 131072 tokens: 18 full layers x 131072 + 18 window layers x
    # (cdiv(min(127 + 16384, 131072), 16) + 1 = 1033 pages = 16528 tokens) = 2,656,800 token slots x 2 x 8 x 64 x 2
    # = 5,441,126,400 bytes = 5.0674 GiB; 71.68 - 60.77 - 2 = 8.91 GiB holds 1.
    pytest.param("openai/gpt-oss-120b", "p5.4xlarge", 131072, 1, None, 60.769, 5.0674, 1, id="gpt-oss-120b-h100"),
    # gpt-oss-20b: experts 3 x 2880 x 2880 x 32 x 24 = 19,110,297,600 x 0.53125 + (20.91e9 - that) x 2 =
    # 13,751,750,400 bytes = 12.81 GiB. On an L4 at 131072: 12 x 131072 + 12 x (cdiv(127 + 4096, 16) + 1 = 265
    # pages = 4240) = 1,623,744 slots x 2048 bytes = 3.0970 GiB; 20.24 - 12.81 - 2 = 5.44 GiB holds 1.
    pytest.param("openai/gpt-oss-20b", "g6.xlarge", 131072, 1, None, 12.807, 3.0970, 1, id="gpt-oss-20b-l4-131k"),
    # At 8192 the window layers still keep 4240 slots, the full ones 8192: 12 x 8192 + 12 x 4240 = 149,184 x 2048 =
    # 0.2845 GiB; 5.44 / 0.2845 = 19 sequences (counting every layer as full, 0.375 GiB, would give 14).
    pytest.param("openai/gpt-oss-20b", "g6.xlarge", 8192, 1, None, 12.807, 0.2845, 19, id="gpt-oss-20b-l4-8k-window"),
    # Gemma 3 27B at 32768 on an H100: 27.4e9 x 2 = 51.04 GiB; 10 global layers x 32768 + 52 window layers x
    # (cdiv(1023 + 16384, 16) + 1 = 1089 pages = 17424) = 1,233,728 slots x 2 x 16 x 128 x 2 = 9.4126 GiB
    # (15.5 GiB if every layer were global); 71.68 - 51.04 - 2 = 18.65 holds 1.
    pytest.param("google/gemma-3-27b-it", "p5.4xlarge", 32768, 1, None, 51.036, 9.4126, 1, id="gemma3-27b-h100"),
    # DeepSeek-V2-Lite under MLA: 27 layers x 32768 x (512 + 64) x 2 bytes = 0.9492 GiB; 15.7e9 x 2 = 29.24 GiB;
    # (40.49 - 29.24 - 2) / 0.9492 = 9.
    pytest.param("deepseek-ai/DeepSeek-V2-Lite-Chat", "g6e.xlarge", 32768, 1, None, 29.244, 0.9492, 9, id="mla-l40s"),
    # With TP 2 each rank keeps the whole latent: KV stays 0.9492 GiB; weights halve to 14.62 GiB;
    # (40.49 - 14.62 - 2.5) / 0.9492 = 24.
    pytest.param(
        "deepseek-ai/DeepSeek-V2-Lite-Chat",
        "g6e.12xlarge",
        32768,
        2,
        None,
        14.622,
        0.9492,
        24,
        id="mla-two-ranks-keep-the-whole-latent",
    ),
    # Qwen3-30B-A3B: all 128 experts resident, 30.5e9 x 2 = 56.81 GiB (not the 3B active); KV 48 x 32768 x 2 x 4 x
    # 128 x 2 = 3 GiB; (71.68 - 56.81 - 2) / 3 = 4.
    pytest.param("Qwen/Qwen3-30B-A3B", "p5.4xlarge", 32768, 1, None, 56.811, 3.0, 4, id="moe-30b-a3b-h100"),
    # Qwen3-235B-A22B over 8 H100: 235e9 x 2 / 8 = 54.72 GiB; 4 KV heads over TP 8 keep one each: 94 x 32768 x 2 x
    # 1 x 128 x 2 = 1.4688 GiB; (71.68 - 54.72 - 2.5) / 1.4688 = 9.
    pytest.param("Qwen/Qwen3-235B-A22B", "p5.48xlarge", 32768, 8, None, 54.715, 1.4688, 9, id="moe-235b-8xh100"),
    # Qwen3-8B-FP8: 6,945,767,424 x 1.000244140625 + (8.2e9 - 6,945,767,424) x 2 = 9,455,928,320 bytes = 8.81 GiB;
    # KV 36 x 32768 x 2 x 8 x 128 x 2 = 4.5 GiB; (20.24 - 8.81 - 2) / 4.5 = 2.
    pytest.param("Qwen/Qwen3-8B-FP8", "g6.xlarge", 32768, 1, None, 8.807, 4.5, 2, id="fp8-l4"),
    # The same with --kv-cache-dtype fp8: one byte per element, 2.25 GiB; 9.44 / 2.25 = 4.
    pytest.param("Qwen/Qwen3-8B-FP8", "g6.xlarge", 32768, 1, "fp8", 8.807, 2.25, 4, id="fp8-kv-cache-fp8-l4"),
    # Qwen2.5-7B-Instruct-AWQ: 6,525,288,448 x 0.51953125 + (7.61e9 - 6,525,288,448) x 2 = 5,559,514,368 bytes =
    # 5.18 GiB; KV 28 x 32768 x 2 x 4 x 128 x 2 = 1.75 GiB; (20.24 - 5.18 - 2) / 1.75 = 7.
    pytest.param("Qwen/Qwen2.5-7B-Instruct-AWQ", "g6.xlarge", 32768, 1, None, 5.178, 1.75, 7, id="awq-l4"),
]


@pytest.mark.parametrize(("model", "instance", "length", "tp", "kv_dtype", "weights", "kv", "sequences"), FITS)
def test_layouts_fit_with_their_numbers(model, instance, length, tp, kv_dtype, weights, kv, sequences):
    result = fit(model, instance, length, tp, kv_dtype)

    assert result.fits is True, result.reason
    assert result.weights_gib_per_gpu == pytest.approx(weights, abs=0.001)
    assert result.kv_gib_per_sequence_per_gpu == pytest.approx(kv, abs=0.0001)
    assert result.sequences_at_max_model_len == sequences


def test_a_mixture_of_experts_counts_every_expert_and_does_not_fit_one_l40s():
    """Qwen3-30B-A3B activates 3.3B parameters per token but keeps 30.5e9 x 2 bytes = 56.81 GiB resident."""
    result = fit("Qwen/Qwen3-30B-A3B", "g6e.xlarge", 32768)

    assert result.fits is False
    assert "weights 56.8 GiB + reserve 2.0 GiB per GPU > 40.5 GiB usable per L40S" in result.reason


def test_the_row_names_the_layout_and_source_it_assumed():
    result = fit("openai/gpt-oss-120b", "p5.4xlarge", 8192)

    assert result.layout == (
        "mxfp4 weights, 128 experts (4 per token), all resident, 18 of 36 layers in a 128-token window"
    )
    assert result.to_dict()["layout"] == result.layout
    assert "openai/gpt-oss-120b" in result.to_dict()["source"]


KV_LAYOUTS = [
    # gpt-oss: 8 KV heads of 64 for 64 query heads; half the 36 layers in a 128-token window, sized for the
    # H100's default 8192 batched tokens, two batches in flight.
    pytest.param(
        "openai/gpt-oss-120b",
        None,
        "bfloat16, 2 byte(s) an element; 8 KV head(s) x 64 per GPU (grouped-query, 8 of 64 heads); 18 window "
        "layer(s) keep 127 + 2 x 8192 tokens in flight at most",
        id="gpt-oss-window",
    ),
    # DeepSeek-V2-Lite: kv_lora_rank 512 + qk_rope_head_dim 64, in fp8 with --kv-cache-dtype fp8.
    pytest.param(
        "deepseek-ai/DeepSeek-V2-Lite-Chat",
        "fp8",
        "fp8, 1 byte(s) an element; one 576-element latent per token and layer, whole on every GPU",
        id="mla-fp8",
    ),
    # Phi-3-mini: 32 KV heads for 32 query heads, no grouping.
    pytest.param(
        "microsoft/Phi-3-mini-4k-instruct",
        None,
        "bfloat16, 2 byte(s) an element; 32 KV head(s) x 96 per GPU (multi-head, 32 of 32 heads)",
        id="multi-head",
    ),
]


@pytest.mark.parametrize(("model", "kv_cache_dtype", "expected"), KV_LAYOUTS)
def test_the_row_says_how_it_counted_the_kv_cache(model, kv_cache_dtype, expected):
    result = fit(model, "p5.4xlarge", 4096, kv_cache_dtype=kv_cache_dtype)

    assert (result.kv_cache, result.facts_from) == (expected, "catalog")
    assert result.to_dict()["kvCache"] == expected


def test_the_row_names_where_its_facts_came_from():
    catalog = model_catalog.lookup("Qwen/Qwen3-8B")
    given = dataclasses.replace(catalog, source=model_catalog.MODEL_FACTS_KEY)
    read = dataclasses.replace(catalog, source="https://huggingface.co/Qwen/Qwen3-8B", stored_weight_bytes=16.4e9)

    assert [facts_origin(facts) for facts in (catalog, given, read)] == ["catalog", "vllm.modelFacts", "Hub at preview"]


QUANTIZED_BYTES = [
    # One billion quantized weights and one billion bf16 ones (2e9 bytes), per the module docstring's sizes.
    pytest.param("mxfp4", 0.53125e9 + 2e9, id="mxfp4"),
    pytest.param("awq", 0.51953125e9 + 2e9, id="awq-group-128"),
    pytest.param("gptq", 0.51953125e9 + 2e9, id="gptq-group-128"),
    pytest.param("compressed-tensors/w4a16", 0.515625e9 + 2e9, id="compressed-tensors-w4a16"),
    pytest.param("compressed-tensors/w8a16", 1.015625e9 + 2e9, id="compressed-tensors-w8a16"),
    pytest.param("compressed-tensors/w8a8-fp8", 1e9 + 2e9, id="compressed-tensors-w8a8-fp8"),
    pytest.param("compressed-tensors/w8a16-fp8", 1e9 + 2e9, id="compressed-tensors-w8a16-fp8"),
    pytest.param("compressed-tensors/w8a8-int8", 1e9 + 2e9, id="compressed-tensors-w8a8-int8"),
    pytest.param("fp8", 1.000244140625e9 + 2e9, id="fp8-block-128"),
    pytest.param("int8", 1e9 + 2e9, id="int8"),
    # bitsandbytes 4-bit: two values per byte and a float32 absmax per 64 (no double quantization): 0.5625.
    pytest.param("bitsandbytes", 0.5625e9 + 2e9, id="bitsandbytes-4bit"),
]


@pytest.mark.parametrize(("method", "expected_bytes"), QUANTIZED_BYTES)
def test_weight_bytes_per_quantization_method(method, expected_bytes):
    facts = ModelFacts(
        2_000_000_000, 4, 8, 8, 64, 4096, "bfloat16", 2, quantization=method, quantized_parameters=1_000_000_000
    )

    assert facts.weight_bytes == pytest.approx(expected_bytes, rel=1e-12)


def test_max_num_batched_tokens_widens_what_a_window_layer_keeps():
    """gpt-oss-20b on an L4 at 131072 with --max-num-batched-tokens 8192: each window layer keeps
    cdiv(127 + 16384, 16) + 1 = 1033 pages = 16528 slots instead of 4240; 12 x 131072 + 12 x 16528 = 1,771,200 x
    2048 bytes = 3.3783 GiB."""
    served = ServedModel(
        "openai/gpt-oss-20b",
        "gpu",
        1,
        131072,
        0.9,
        model_catalog.lookup("openai/gpt-oss-20b"),
        max_num_batched_tokens=8192,
    )

    result = model_fit(served, gpu_catalog.lookup("g6.xlarge"), "g6.xlarge")

    assert result.kv_gib_per_sequence_per_gpu == pytest.approx(3.3783, abs=0.0001)


def test_facts_refuse_an_unknown_quantization_and_a_window_without_layers():
    with pytest.raises(ValueError, match="quantization must be one of fp8, int8, awq"):
        ModelFacts(10, 2, 2, 2, 8, 64, "bfloat16", 2, quantization="q9")
    with pytest.raises(ValueError, match="sliding_layers needs a sliding_window"):
        ModelFacts(10, 2, 2, 2, 8, 64, "bfloat16", 2, sliding_window=128)
    # One window layer is a window layer: it needs its window, and with one it is accepted.
    with pytest.raises(ValueError, match="sliding_layers needs a sliding_window"):
        ModelFacts(10, 2, 2, 2, 8, 64, "bfloat16", 2, sliding_layers=1)
    assert ModelFacts(10, 2, 2, 2, 8, 64, "bfloat16", 2, sliding_window=128, sliding_layers=1).sliding_layers == 1


def test_a_window_layer_keeps_whole_pages_of_the_window_less_one_token_and_the_tokens_in_flight():
    """vLLM's sliding-window spec admits cdiv(window - 1 + 2 x batched tokens, 16) + 1 pages (16-token pages, two
    batches in flight, as the gpt-oss-20b cases above work it). A window of 18 at 16 batched tokens:
    cdiv(17 + 32 = 49, 16) = 4 pages + 1 = 80 slots; the full layer holds cdiv(1024, 16) = 64 pages = 1024 slots.
    One token fewer (48) would fill exactly 3 pages."""
    facts = ModelFacts(10, 2, 2, 2, 8, 4096, "bfloat16", 2, sliding_window=18, sliding_layers=1)

    assert kv_tokens_per_sequence(facts, 1024, 16) == 1024 + 80
