"""The fits gate on the catalog's Llama 4, Mistral Small 3.x and official quantized rows.

Every expected figure is worked by hand from the shapes each row's comment quotes from the model's `config.json`
(facts/model_catalog_layouts.py) and from vLLM v0.32.0's source, read in the v0.32.0 wheel:

- Bytes per quantized weight (vllm/model_executor/layers/quantization/): AWQ and GPTQ 0.5 + 0.5/128 + 2/128 =
  0.51953125 (int32 `qweight` of 8 values, int32 `qzeros` of 8 per group of 128, float16 `scales` per group); block
  FP8 1 + 4/16384 (a float32 scale per 128 x 128 block).
- A chunked local attention layer (Llama 4's RoPE layers) keeps `cdiv(min(attention_chunk_size + 2 x
  max_num_batched_tokens, max_model_len), 16)` pages of 16 tokens (vllm/v1/kv_cache_interface.py
  `ChunkedLocalAttentionSpec.max_admission_blocks_per_request`), a full-attention layer `cdiv(max_model_len, 16)`;
  the hybrid KV cache manager stays on for it (vllm/envs.py: `VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE`
  defaults to 1). `max_num_batched_tokens` defaults to 8192 on an H100 or H200 (vllm/engine/arg_utils.py
  `get_batch_defaults`: from 70 GiB, below 160), 2048 on an L4 or L40S.
- A token of a layer takes 2 x KV heads per GPU x head dim x 2 bytes; with fewer KV heads than GPUs each GPU keeps
  one (vllm/config/model.py `get_num_kv_heads`).
- Usable memory = what CUDA reports x 0.9: H100 81559 MiB -> 71.68 GiB, L40S 46068 MiB -> 40.49 GiB, L4 23034 MiB ->
  20.24 GiB; the H200 has no reported figure in facts/gpu_catalog.py, so 141 x 0.9 = 126.9 GiB. Reserve 2 GiB, 2.5
  GiB with tensor parallelism.
- Llama 4's vision encoder adds its profiling peak to the reserve (facts/encoder_peak.py, worked in
  tests/facts/test_encoder_peak.py's way): on an H100 or H200 (8192 batched tokens) 8192 // 2448 = 3 images of 17
  tiles x 577 = 9809 patches; per patch 3 x 196 + 3 x 1408 + max(4 x 1408, 2 x 5632) = 16076 elements x 2 = 32,152
  bytes, 315,378,968 an image, with 2448 x 5120 x 2 = 25,067,520 of outputs: 3 x 340,446,488 = 1,021,339,464 bytes
  = 0.9512 GiB, so a reserve of 2.5 + 0.95 = 3.45 GiB with tensor parallelism.
"""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.model_memory import ServedModel, model_fit


def fit(model: str, instance_type: str, max_model_len: int, tp: int = 1):
    served = ServedModel(model, "gpu", tp, max_model_len, 0.9, model_catalog.lookup(model))
    return model_fit(served, gpu_catalog.lookup(instance_type), instance_type)


FITS = [
    # Llama 4 Scout over 8 H100 at 131072: 109e9 x 2 / 8 = 25.38 GiB; 8 KV heads over TP 8 keep one each; 12 global
    # layers x 131072 + 36 chunked layers x (cdiv(min(8192 + 16384, 131072), 16) = 1536 pages = 24576) = 2,457,600
    # slots x 2 x 1 x 128 x 2 = 1.1719 GiB (3.0 GiB if every layer were global); (71.68 - 25.38 - 3.45) / 1.1719 =
    # 36.6, so 36.
    pytest.param(
        "meta-llama/Llama-4-Scout-17B-16E-Instruct", "p5.48xlarge", 131072, 8, 25.379, 1.1719, 36, id="scout-8xh100"
    ),
    # At 8192 tokens the chunk holds the whole sequence: 48 x 8192 = 393,216 slots x 512 = 0.1875 GiB;
    # (71.68 - 25.38 - 3.45) / 0.1875 = 228.5, so 228.
    pytest.param(
        "meta-llama/Llama-4-Scout-17B-16E-Instruct", "p5.48xlarge", 8192, 8, 25.379, 0.1875, 228, id="scout-8k"
    ),
    # Maverick over 8 H200: 400e9 x 2 / 8 = 93.13 GiB; KV as Scout's, 1.1719 GiB; (126.9 - 93.13 - 3.45) / 1.1719 =
    # 25.9, so 25.
    pytest.param(
        "meta-llama/Llama-4-Maverick-17B-128E-Instruct", "p5e.48xlarge", 131072, 8, 93.132, 1.1719, 25, id="mav-h200"
    ),
    # Mistral Small 3.1 on one H100 at 32768: 24e9 x 2 = 44.70 GiB; 40 x 32768 x 2 x 8 x 128 x 2 = 5.0 GiB;
    # (71.68 - 44.70 - 2) / 5 = 4.996, so 4.
    pytest.param(
        "mistralai/Mistral-Small-3.1-24B-Instruct-2503", "p5.4xlarge", 32768, 1, 44.703, 5.0, 4, id="mistral-small"
    ),
    # Qwen2.5-14B-AWQ on an L4 at 8192: 13,212,057,600 x 0.51953125 + (14.7e9 - 13,212,057,600) x 2 = 9,839,961,600
    # bytes = 9.16 GiB; 48 x 8192 x 2 x 8 x 128 x 2 = 1.5 GiB; (20.24 - 9.16 - 2) / 1.5 = 6.
    pytest.param("Qwen/Qwen2.5-14B-Instruct-AWQ", "g6.xlarge", 8192, 1, 9.164, 1.5, 6, id="awq-14b-l4"),
    # Qwen2.5-32B-AWQ on an L40S at 32768: 31,205,621,760 x 0.51953125 + (32.5e9 - 31,205,621,760) x 2 =
    # 18,801,052,160 bytes = 17.51 GiB; 64 x 32768 x 4096 bytes = 8 GiB; (40.49 - 17.51 - 2) / 8 = 2.
    pytest.param("Qwen/Qwen2.5-32B-Instruct-AWQ", "g6e.xlarge", 32768, 1, 17.510, 8.0, 2, id="awq-32b-l40s"),
    # Qwen2.5-7B-GPTQ-Int4 counts as the AWQ row: 5.18 GiB; 28 x 32768 x 2 x 4 x 128 x 2 = 1.75 GiB;
    # (20.24 - 5.18 - 2) / 1.75 = 7.
    pytest.param("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "g6.xlarge", 32768, 1, 5.178, 1.75, 7, id="gptq-7b-l4"),
    # Qwen3-32B-FP8 on an L40S at 16384: 31,205,621,760 x 1.000244140625 + (32.8e9 - 31,205,621,760) x 2 =
    # 34,401,996,800 bytes = 32.04 GiB; 64 x 16384 x 4096 bytes = 4 GiB; (40.49 - 32.04 - 2) / 4 = 1.
    pytest.param("Qwen/Qwen3-32B-FP8", "g6e.xlarge", 16384, 1, 32.039, 4.0, 1, id="fp8-32b-l40s"),
    # Qwen3-30B-A3B-FP8 on an L40S at 32768, every expert resident in FP8: 29,896,998,912 x 1.000244140625 +
    # (30.5e9 - 29,896,998,912) x 2 = 31,110,300,160 bytes = 28.97 GiB (the bf16 row's 56.81 GiB does not fit);
    # 48 x 32768 x 2 x 4 x 128 x 2 = 3 GiB; (40.49 - 28.97 - 2) / 3 = 3.
    pytest.param("Qwen/Qwen3-30B-A3B-FP8", "g6e.xlarge", 32768, 1, 28.974, 3.0, 3, id="fp8-moe-l40s"),
]


@pytest.mark.parametrize(("model", "instance", "length", "tp", "weights", "kv", "sequences"), FITS)
def test_served_rows_fit_with_their_numbers(model, instance, length, tp, weights, kv, sequences):
    result = fit(model, instance, length, tp)

    assert result.fits is True, result.reason
    assert result.weights_gib_per_gpu == pytest.approx(weights, abs=0.001)
    assert result.kv_gib_per_sequence_per_gpu == pytest.approx(kv, abs=0.0001)
    assert result.sequences_at_max_model_len == sequences


def test_maverick_in_bf16_does_not_fit_eight_h100s():
    """400e9 x 2 / 8 = 93.13 GiB of weights per GPU > 71.68 GiB usable."""
    result = fit("meta-llama/Llama-4-Maverick-17B-128E-Instruct", "p5.48xlarge", 131072, 8)

    assert result.fits is False
    assert (
        "weights 93.1 GiB + reserve 3.5 GiB (vision encoder (Llama 4) profiling peak +0.95 GiB (3 images of 9809 "
        "patches at 8192 batched tokens)) per GPU > 71.7 GiB usable per H100"
    ) in result.reason


def test_awq_14b_over_eight_gpus_splits_its_down_projection_into_half_groups():
    """intermediate_size 13824 / 8 = 1728 inputs per GPU = 13.5 groups of 128: vLLM's AWQ refuses the shard
    (quantization/auto_awq.py `create_weights`); 40 heads and the 5120 attention outputs split whole (640 = 5 groups)."""
    result = fit("Qwen/Qwen2.5-14B-Instruct-AWQ", "g6e.48xlarge", 8192, 8)

    assert result.fits is False
    assert "splits the 13824 down projection's inputs into 1728 per GPU, not whole awq groups of 128" in result.reason


def test_the_chunked_layers_and_the_vision_encoder_are_named_in_the_row():
    result = fit("meta-llama/Llama-4-Scout-17B-16E-Instruct", "p5.48xlarge", 131072, 8)

    assert result.layout == (
        "bfloat16 weights, 16 experts (1 per token), all resident, 36 of 48 layers in 8192-token chunks, "
        "vision encoder (Llama 4) weights counted, its start-up profiling peak as the row's encoder says"
    )
    assert "36 chunked layer(s) keep 8192 + 2 x 8192 tokens in flight at most" in result.kv_cache


@pytest.mark.parametrize(
    ("model", "encoder"),
    [
        ("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "Pixtral"),
    ],
)
def test_a_multimodal_row_says_its_encoders_profiling_is_not_counted(model, encoder):
    layout = fit(model, "p5e.48xlarge", 8192, 8).layout

    assert f"vision encoder ({encoder}) weights counted but not its start-up profiling peak" in layout
