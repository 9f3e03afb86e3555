"""The catalog's rows beyond the dense bf16 ones: quantized checkpoints, mixtures of experts, sliding-window,
chunked-local and multi-latent attention. Each row's comment works its counts from the model's `config.json` and
names where that file was read (facts/model_catalog.py explains the columns).
"""

from __future__ import annotations

from .model_facts import ENCODER_NOT_PROFILED as _ENCODER_NOT_PROFILED
from .model_facts import catalog_row as _row

SIGLIP_NOT_PROFILED = _ENCODER_NOT_PROFILED.format("SigLIP")


def _config(model: str, corroborated: str) -> str:
    # The Hub was not reachable on 2026-12-04 either: the shapes are the config's as quoted elsewhere.
    return f"https://huggingface.co/{model}/blob/main/config.json as quoted in {corroborated}, 2026-12-04"


# gpt-oss (https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json, and -20b): hidden_size 2880,
# intermediate_size 2880, num_local_experts 128 (20b: 32), num_experts_per_tok 4, num_hidden_layers 36 (20b: 24),
# num_attention_heads 64, num_key_value_heads 8, head_dim 64, sliding_window 128 on the `sliding_attention` half of
# `layer_types` (alternating with `full_attention`), max_position_embeddings 131072, quantization_config
# {quant_method: mxfp4} with attention, router, embeddings and unembedding in `modules_to_not_convert`.
# Only the experts are MXFP4: gate_up 2 x 2880 x 2880 plus down 2880 x 2880 = 24,883,200 weights per expert and
# layer, x 128 x 36 = 114,661,785,600 (20b: x 32 x 24 = 19,110,297,600). Totals from OpenAI's gpt-oss model card
# (arXiv:2508.10925, table 1): 116.83B and 20.91B parameters.
def _gpt_oss(model: str) -> str:
    return _config(model, "public inference repositories") + "; parameters from arXiv:2508.10925, table 1"


_GPT_OSS_SHAPE = dict(
    attention_heads=64, kv_heads=8, head_dim=64, max_context=131072, dtype="bfloat16", quantization="mxfp4"
)

EXTRA_ROWS = [
    _row(
        "openai/gpt-oss-120b",
        _gpt_oss("openai/gpt-oss-120b"),
        parameters=116_830_000_000,
        layers=36,
        quantized_parameters=114_661_785_600,
        expert_parameters=114_661_785_600,
        experts=128,
        active_experts=4,
        sliding_window=128,
        sliding_layers=18,
        **_GPT_OSS_SHAPE,
    ),
    _row(
        "openai/gpt-oss-20b",
        _gpt_oss("openai/gpt-oss-20b"),
        parameters=20_910_000_000,
        layers=24,
        quantized_parameters=19_110_297_600,
        expert_parameters=19_110_297_600,
        experts=32,
        active_experts=4,
        sliding_window=128,
        sliding_layers=12,
        **_GPT_OSS_SHAPE,
    ),
    # Qwen3 MoE (config.json): 30B-A3B has 48 layers, 32 heads, 4 KV heads, head_dim 128, num_experts 128,
    # num_experts_per_tok 8, max_position_embeddings 40960, bfloat16, 30.5B parameters on the card; 235B-A22B has
    # 94 layers, 64 heads, 4 KV heads, 128 experts, 8 per token, 235B parameters. Unquantized: every expert counts.
    # Their experts (gate, up and down of hidden_size x moe_intermediate_size): 30B-A3B 48 x 128 x 3 x 2048 x 768 =
    # 28,991,029,248; 235B-A22B 94 x 128 x 3 x 4096 x 1536 = 227,096,395,776. vocab_size 151936 for both.
    _row(
        "Qwen/Qwen3-30B-A3B",
        _config("Qwen/Qwen3-30B-A3B", "the qwen3_moe configs of public inference repositories"),
        parameters=30_500_000_000,
        layers=48,
        attention_heads=32,
        kv_heads=4,
        head_dim=128,
        max_context=40960,
        dtype="bfloat16",
        experts=128,
        active_experts=8,
        expert_parameters=28_991_029_248,
        hidden_size=2048,
        expert_intermediate_size=768,
        vocab_size=151936,
    ),
    _row(
        "Qwen/Qwen3-235B-A22B",
        _config("Qwen/Qwen3-235B-A22B", "the qwen3_moe configs of public inference repositories"),
        parameters=235_000_000_000,
        layers=94,
        attention_heads=64,
        kv_heads=4,
        head_dim=128,
        max_context=40960,
        dtype="bfloat16",
        experts=128,
        active_experts=8,
        expert_parameters=227_096_395_776,
        hidden_size=4096,
        expert_intermediate_size=1536,
        vocab_size=151936,
    ),
    # Qwen's FP8 Qwen3-8B (quant_method fp8, weight_block_size [128, 128]): the shape of Qwen3-8B (hidden 4096,
    # intermediate 12288, 36 layers, 32 heads of 128, 8 KV heads). Its decoder linears are FP8: q and o 4096 x 4096,
    # k and v 4096 x 1024, gate, up and down 3 x 4096 x 12288 = 192,937,984 per layer, x 36 = 6,945,767,424; the
    # untied embeddings and lm_head (2 x 151936 x 4096) and the norms stay bfloat16.
    _row(
        "Qwen/Qwen3-8B-FP8",
        _config("Qwen/Qwen3-8B-FP8", "Qwen3-8B's config.json"),
        parameters=8_200_000_000,
        layers=36,
        attention_heads=32,
        kv_heads=8,
        head_dim=128,
        max_context=40960,
        dtype="bfloat16",
        quantization="fp8",
        quantized_parameters=6_945_767_424,
        intermediate_size=12288,
        quantization_group=128,
    ),
    # Qwen's AWQ Qwen2.5-7B-Instruct (quant_method awq, bits 4, group_size 128, zero_point true, float16): the
    # shape of Qwen2.5-7B (hidden 3584, intermediate 18944, 28 layers, 28 heads of 128, 4 KV heads). Its decoder
    # linears are 4-bit: q and o 3584 x 3584, k and v 3584 x 512, gate, up and down 3 x 3584 x 18944 = 233,046,016 per
    # layer, x 28 = 6,525,288,448; the untied embeddings and lm_head (2 x 152064 x 3584) stay float16.
    _row(
        "Qwen/Qwen2.5-7B-Instruct-AWQ",
        _config("Qwen/Qwen2.5-7B-Instruct-AWQ", "Qwen2.5-7B-Instruct's config.json"),
        parameters=7_610_000_000,
        layers=28,
        attention_heads=28,
        kv_heads=4,
        head_dim=128,
        max_context=32768,
        dtype="float16",
        quantization="awq",
        quantized_parameters=6_525_288_448,
        intermediate_size=18944,
        quantization_group=128,
    ),
    # Gemma 3 27B (text_config of config.json): 62 layers, 32 heads, 16 KV heads, head_dim 128, sliding_window
    # 1024, sliding_window_pattern 6 (every sixth layer global: layers 6, 12, ..., 60, so 10 global and 52 in the
    # window), max_position_embeddings 131072, bfloat16; 27.4B parameters with the SigLIP vision tower, which vLLM
    # loads too.
    _row(
        "google/gemma-3-27b-it",
        _config("google/gemma-3-27b-it", "the gemma3 configs of public inference repositories"),
        parameters=27_400_000_000,
        layers=62,
        attention_heads=32,
        kv_heads=16,
        head_dim=128,
        max_context=131072,
        dtype="bfloat16",
        sliding_window=1024,
        sliding_layers=52,
        vision_encoder=SIGLIP_NOT_PROFILED,
    ),
    # DeepSeek-V2-Lite-Chat (config.json): 27 layers, 16 heads, kv_lora_rank 512 and qk_rope_head_dim 64 (a
    # 576-element latent per token and layer), n_routed_experts 64, num_experts_per_tok 6, max_position_embeddings
    # 163840, bfloat16; 15.7B parameters on the card.
    _row(
        "deepseek-ai/DeepSeek-V2-Lite-Chat",
        _config("deepseek-ai/DeepSeek-V2-Lite-Chat", "the deepseek_v2 configs of public inference repositories"),
        parameters=15_700_000_000,
        layers=27,
        attention_heads=16,
        kv_heads=1,
        head_dim=576,
        max_context=163840,
        dtype="bfloat16",
        experts=64,
        active_experts=6,
        latent_attention=True,
    ),
]


def _served(model: str, corroborated: str) -> str:
    # The Hub was not reachable on 2026-12-05 either.
    return f"https://huggingface.co/{model}/blob/main/config.json as quoted in {corroborated}, 2026-12-05"


# Llama 4 (text_config of config.json): hidden_size 5120, 48 layers, 40 heads, 8 KV heads, head_dim 128,
# intermediate_size 8192 per expert (and the shared expert), intermediate_size_mlp 16384 for a dense layer,
# vocab_size 202048, bfloat16, attention_chunk_size 8192; no_rope_layers marks every fourth layer (3, 7, ..., 47) NoPE,
# as transformers' Llama4TextConfig fills it from no_rope_layer_interval 4: vLLM gives those 12 global attention and
# the 36 RoPE layers chunked local attention (vllm/model_executor/models/llama4.py `use_chunked_local_attn`).
# Scout: 16 experts in every layer (interleave_moe_layer_step 1), max_position_embeddings 10485760; Maverick: 128
# experts in every second layer (interleave_moe_layer_step 2, layers 1, 3, ..., 47), max_position_embeddings 1048576.
# One expert is gate, up and down of 5120 x 8192 = 125,829,120 weights: Scout's routed experts 48 x 16 x that =
# 96,636,764,160, Maverick's 24 x 128 x that = 386,547,056,640. Totals from Meta's model card (the vision encoder
# included): 109B and 400B. Cross-check of Maverick's: attention 48 x 62,914,560, routed 386,547,056,640, shared 24 x
# 125,829,120, dense MLP 24 x 3 x 5120 x 16384, embeddings 2 x 202048 x 5120 = 400.70B of text weights.
_LLAMA4_SHAPE = dict(
    layers=48,
    attention_heads=40,
    kv_heads=8,
    head_dim=128,
    dtype="bfloat16",
    active_experts=1,
    attention_chunk=8192,
    chunked_layers=36,
    vision_encoder=_ENCODER_NOT_PROFILED.format("Llama 4"),
)
# Mistral Small 3.1 and 3.2 24B (config.json, mistral3): text_config hidden_size 5120, intermediate_size 32768, 40
# layers, 32 heads of head_dim 128, 8 KV heads, max_position_embeddings 131072, vocab_size 131072, sliding_window null,
# bfloat16; vision_config Pixtral, 24 layers of hidden_size 1024. 3.2 is 3.1's shape retrained (Mistral's 3.2 card:
# "a minor update of Mistral-Small-3.1-24B-Instruct-2503"). 24B parameters on the card, the Pixtral encoder included.
_MISTRAL_SMALL_SHAPE = dict(
    parameters=24_000_000_000,
    layers=40,
    attention_heads=32,
    kv_heads=8,
    head_dim=128,
    max_context=131072,
    dtype="bfloat16",
    vision_encoder=_ENCODER_NOT_PROFILED.format("Pixtral"),
)

SERVED_ROWS = [
    _row(
        "meta-llama/Llama-4-Scout-17B-16E-Instruct",
        _served("meta-llama/Llama-4-Scout-17B-16E-Instruct", "the llama4 configs of public inference repositories")
        + "; 109B parameters from Meta's model card",
        parameters=109_000_000_000,
        max_context=10485760,
        experts=16,
        expert_parameters=96_636_764_160,
        **_LLAMA4_SHAPE,
    ),
    _row(
        "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
        _served(
            "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
            # Its text_config as Maverick's but num_hidden_layers cut to 2 ("Reduced to 2 layers from 48 layers")
            # and no_rope_layer_interval set to 2 for the test: every other figure of the row above matches it.
            "NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_llama_min_latency.py at commit "
            "b35ac1b64368513d215c57d2ed01d62d910df8da (LLAMA_4_MAVERICK_TWO_LAYER_CONFIG, read 2026-12-05)",
        )
        + "; 400B parameters from Meta's model card",
        parameters=400_000_000_000,
        max_context=1048576,
        experts=128,
        expert_parameters=386_547_056_640,
        **_LLAMA4_SHAPE,
    ),
    _row(
        "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
        _served("mistralai/Mistral-Small-3.1-24B-Instruct-2503", "the mistral3 configs of public repositories"),
        **_MISTRAL_SMALL_SHAPE,
    ),
    _row(
        "mistralai/Mistral-Small-3.2-24B-Instruct-2506",
        _served("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "the mistral3 configs of public repositories"),
        **_MISTRAL_SMALL_SHAPE,
    ),
    # Qwen's AWQ Qwen2.5-14B-Instruct (awq, bits 4, group_size 128, float16): hidden 5120, intermediate 13824, 48
    # layers, 40 heads of 128, 8 KV heads, vocab 152064 untied. 4-bit: q and o 5120 x 5120, k and v 5120 x 1024, gate,
    # up and down 3 x 5120 x 13824 = 275,251,200 per layer, x 48 = 13,212,057,600. 14.7B parameters on the card.
    _row(
        "Qwen/Qwen2.5-14B-Instruct-AWQ",
        _served("Qwen/Qwen2.5-14B-Instruct-AWQ", "the qwen2 configs of public inference repositories"),
        parameters=14_700_000_000,
        layers=48,
        attention_heads=40,
        kv_heads=8,
        head_dim=128,
        max_context=32768,
        dtype="float16",
        quantization="awq",
        quantized_parameters=13_212_057_600,
        intermediate_size=13824,
        quantization_group=128,
    ),
    # Qwen's AWQ Qwen2.5-32B-Instruct: hidden 5120, intermediate 27648, 64 layers, 40 heads of 128, 8 KV heads.
    # 4-bit: 2 x 5120 x 5120 + 2 x 5120 x 1024 + 3 x 5120 x 27648 = 487,587,840 per layer, x 64 = 31,205,621,760.
    # 32.5B parameters on the card.
    _row(
        "Qwen/Qwen2.5-32B-Instruct-AWQ",
        _served("Qwen/Qwen2.5-32B-Instruct-AWQ", "the qwen2 configs of public inference repositories"),
        parameters=32_500_000_000,
        layers=64,
        attention_heads=40,
        kv_heads=8,
        head_dim=128,
        max_context=32768,
        dtype="float16",
        quantization="awq",
        quantized_parameters=31_205_621_760,
        intermediate_size=27648,
        quantization_group=128,
    ),
    # Qwen's GPTQ Qwen2.5-7B-Instruct (gptq, bits 4, group_size 128, float16): the 7B shape and 4-bit linears of
    # the AWQ row above, 6,525,288,448.
    _row(
        "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4",
        _served("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "Qwen2.5-7B-Instruct's config.json"),
        parameters=7_610_000_000,
        layers=28,
        attention_heads=28,
        kv_heads=4,
        head_dim=128,
        max_context=32768,
        dtype="float16",
        quantization="gptq",
        quantized_parameters=6_525_288_448,
        intermediate_size=18944,
        quantization_group=128,
    ),
    # Qwen's FP8 Qwen3-32B (fp8, weight_block_size [128, 128]): hidden 5120, intermediate 25600, 64 layers, 64 heads
    # of 128, 8 KV heads. FP8: q and o 5120 x 8192, k and v 5120 x 1024, gate, up and down 3 x 5120 x 25600 =
    # 487,587,840 per layer, x 64 = 31,205,621,760. 32.8B parameters on the card.
    _row(
        "Qwen/Qwen3-32B-FP8",
        _served("Qwen/Qwen3-32B-FP8", "the qwen3 configs of public inference repositories"),
        parameters=32_800_000_000,
        layers=64,
        attention_heads=64,
        kv_heads=8,
        head_dim=128,
        max_context=40960,
        dtype="bfloat16",
        quantization="fp8",
        quantized_parameters=31_205_621_760,
        intermediate_size=25600,
        quantization_group=128,
    ),
    # Qwen's FP8 Qwen3-30B-A3B: hidden 2048, 48 layers, 32 heads of 128, 4 KV heads, 128 experts of
    # moe_intermediate_size 768, 8 per token. FP8: attention q and o 2048 x 4096, k and v 2048 x 512 = 18,874,368
    # per layer, and the experts 128 x 3 x 2048 x 768 = 603,979,776 per layer: 48 x 622,854,144 = 29,896,998,912, of
    # which experts 28,991,029,248. The router, embeddings and lm_head stay bfloat16. 30.5B parameters on the card.
    _row(
        "Qwen/Qwen3-30B-A3B-FP8",
        _served("Qwen/Qwen3-30B-A3B-FP8", "the qwen3_moe configs of public training repositories"),
        parameters=30_500_000_000,
        layers=48,
        attention_heads=32,
        kv_heads=4,
        head_dim=128,
        max_context=40960,
        dtype="bfloat16",
        quantization="fp8",
        quantized_parameters=29_896_998_912,
        experts=128,
        active_experts=8,
        expert_parameters=28_991_029_248,
        quantization_group=128,
    ),
]
