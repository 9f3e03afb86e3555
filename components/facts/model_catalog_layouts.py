"""The catalog's rows beyond the dense bf16 ones: quantized checkpoints, mixtures of experts, sliding-window,
chunked-local and multi-latent attention. Each row's comment works its counts from the model's `config.json` and
names where that file was read (facts/model_catalog.py explains the columns).
"""

from __future__ import annotations

from . import vision_towers as _towers
from .model_facts import catalog_row as _row

# The Hub was not reachable when these rows were written (2026-12-04 and 2026-12-05), so each row names the public copy
# of its config.json (or of the exact fields) it was checked against: repository, path and commit, read 2026-12-05,
# with the fields that copy gave; a field no copy gave says what it rests on.
INFER_SIM = "alibaba/InferSim hf_configs/{}_config.json at commit f2293dab6d23fe2780356eb71e0ffc3b4baf61dd"
LLM_PROF = "citsjtu2020/LLM-Prof sglang/Model_Config.md at commit 8434c8d19c396b2f95d92a67845a7c0a0e0dd512 ({})"


# A row no public copy could be found for says so, and what each of its figures rests on.
NOT_PINNED = (
    "https://huggingface.co/{}/blob/main/config.json, no public copy of it found by 2026-12-05 (the Hub unreachable); "
    "the row's "
)
QWEN25_7B_SHAPE = (
    "the base Qwen2.5-7B's hidden_size 3584, intermediate_size 18944, num_hidden_layers 28, num_attention_heads 28, "
    "num_key_value_heads 4, vocab_size 152064 untied"
)
# The widths the activation peak needs (facts/activation_peak.py), from each row's copy as its citation names them.
QWEN3_8B_WIDTHS = dict(hidden_size=4096, vocab_size=151936)
QWEN25_7B_WIDTHS = dict(hidden_size=3584, vocab_size=152064)
QWEN25_5120_WIDTHS = dict(hidden_size=5120, vocab_size=152064)
QWEN25_AWQ_NOT_PINNED = (
    "max_position_embeddings 32768 (the base's copy says 131072), quantization_config (awq, bits 4, group_size 128, "
    "float16) and whether the AWQ checkpoint pads intermediate_size not pinned: from the Instruct and AWQ model cards"
)


def _copied(model: str, copy: str, fields: str, rest: str = "") -> str:
    source = f"https://huggingface.co/{model}/blob/main/config.json, checked against {copy}, read 2026-12-05: {fields}"
    return f"{source}; {rest}" if rest else source


# gpt-oss (https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json, and -20b): hidden_size 2880,
# intermediate_size 2880, num_local_experts 128 (20b: 32), num_experts_per_tok 4, num_hidden_layers 36 (20b: 24),
# num_attention_heads 64, num_key_value_heads 8, head_dim 64, sliding_window 128 on the `sliding_attention` half of
# `layer_types` (alternating with `full_attention`), max_position_embeddings 131072, quantization_config
# {quant_method: mxfp4} with attention, router, embeddings and unembedding in `modules_to_not_convert`.
# Only the experts are MXFP4: gate_up 2 x 2880 x 2880 plus down 2880 x 2880 = 24,883,200 weights per expert and
# layer, x 128 x 36 = 114,661,785,600 (20b: x 32 x 24 = 19,110,297,600). Totals from OpenAI's gpt-oss model card
# (arXiv:2508.10925, table 1): 116.83B and 20.91B parameters.
# OpenAI's reference implementation gives the 120b's shape as its ModelConfig defaults and makes the even layers the
# windowed ones (gpt_oss/torch/model.py `self.sliding_window = config.sliding_window if layer_idx % 2 == 0`), and
# reads only the MoE weights (`mlp1_weight`, `mlp2_weight`) as MXFP4 blocks and scales (gpt_oss/torch/weights.py).
GPT_OSS_REFERENCE = (
    "openai/gpt-oss gpt_oss/torch/model.py and gpt_oss/torch/weights.py at commit "
    "7b583341fe16729127f6d5b94a7b09ccae97e1a1"
)
PARAMETERS_FROM_PAPER = "parameters from arXiv:2508.10925, table 1"


_GPT_OSS_SHAPE = dict(
    attention_heads=64, kv_heads=8, head_dim=64, max_context=131072, dtype="bfloat16", quantization="mxfp4"
)
# Both sizes' widths (vocab_size 201088 in the reference's ModelConfig and in the 20b copy below).
_GPT_OSS_WIDTHS = dict(hidden_size=2880, expert_intermediate_size=2880, vocab_size=201088)

EXTRA_ROWS = [
    _row(
        "openai/gpt-oss-120b",
        _copied(
            "openai/gpt-oss-120b",
            GPT_OSS_REFERENCE,
            "num_hidden_layers 36, num_experts 128, experts_per_token 4, hidden_size and intermediate_size 2880, "
            "num_attention_heads 64, num_key_value_heads 8, head_dim 64, sliding_window 128 on the even layers, "
            "initial_context_length 4096 x rope_scaling_factor 32 = 131072 positions, vocab_size 201088, MXFP4 MoE "
            "weights only",
            PARAMETERS_FROM_PAPER,
        ),
        parameters=116_830_000_000,
        layers=36,
        quantized_parameters=114_661_785_600,
        expert_parameters=114_661_785_600,
        experts=128,
        active_experts=4,
        sliding_window=128,
        sliding_layers=18,
        **_GPT_OSS_SHAPE,
        **_GPT_OSS_WIDTHS,
    ),
    _row(
        "openai/gpt-oss-20b",
        _copied(
            "openai/gpt-oss-20b",
            "EchoCog/gpt-oss-20b config.json at commit 52971a17bf2f66dd519c8d26217b1405e425a246",
            "num_hidden_layers 24, num_local_experts 32, num_experts_per_tok 4, hidden_size and intermediate_size "
            "2880, num_attention_heads 64, num_key_value_heads 8, head_dim 64, sliding_window 128 on the "
            "sliding_attention half of layer_types, max_position_embeddings 131072, vocab_size 201088",
            # That copy's quantization_config names `gptq` over the Hub's modules_to_not_convert: altered there.
            f"mxfp4 experts from {GPT_OSS_REFERENCE} (weights.py), not that copy's quant_method; "
            + PARAMETERS_FROM_PAPER,
        ),
        parameters=20_910_000_000,
        layers=24,
        quantized_parameters=19_110_297_600,
        expert_parameters=19_110_297_600,
        experts=32,
        active_experts=4,
        sliding_window=128,
        sliding_layers=12,
        **_GPT_OSS_SHAPE,
        **_GPT_OSS_WIDTHS,
    ),
    # Qwen3 MoE (config.json): 30B-A3B has 48 layers, 32 heads, 4 KV heads, head_dim 128, num_experts 128,
    # num_experts_per_tok 8, max_position_embeddings 40960, bfloat16, 30.5B parameters on the card; 235B-A22B has
    # 94 layers, 64 heads, 4 KV heads, 128 experts, 8 per token, 235B parameters. Unquantized: every expert counts.
    # Their experts (gate, up and down of hidden_size x moe_intermediate_size): 30B-A3B 48 x 128 x 3 x 2048 x 768 =
    # 28,991,029,248; 235B-A22B 94 x 128 x 3 x 4096 x 1536 = 227,096,395,776. vocab_size 151936 for both.
    _row(
        "Qwen/Qwen3-30B-A3B",
        _copied(
            "Qwen/Qwen3-30B-A3B",
            INFER_SIM.format("qwen3-30B-A3B"),
            "num_hidden_layers 48, hidden_size 2048, num_attention_heads 32, num_key_value_heads 4, head_dim 128, "
            "num_experts 128, num_experts_per_tok 8, moe_intermediate_size 768, max_position_embeddings 40960, "
            "vocab_size 151936, torch_dtype bfloat16 (the same in " + LLM_PROF.format("Qwen3-30B-A3B") + ")",
            "30.5B parameters from the model card",
        ),
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
        _copied(
            "Qwen/Qwen3-235B-A22B",
            INFER_SIM.format("qwen3-235B-A22B"),
            "num_hidden_layers 94, hidden_size 4096, num_attention_heads 64, num_key_value_heads 4, head_dim 128, "
            "num_experts 128, num_experts_per_tok 8, moe_intermediate_size 1536, vocab_size 151936, torch_dtype "
            "bfloat16",
            # That copy is of the 2507 update (max_position_embeddings 262144, rope_theta 5000000).
            "max_position_embeddings 40960 not pinned: it is the original release's, as in every Qwen3 config of the "
            "first release copied above (Qwen3-30B-A3B, Qwen3-8B, Qwen3-32B); 235B parameters from the model card",
        ),
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
        _copied(
            "Qwen/Qwen3-8B-FP8",
            INFER_SIM.format("qwen3-8B"),
            "Qwen3-8B's hidden_size 4096, intermediate_size 12288, num_hidden_layers 36, num_attention_heads 32, "
            "num_key_value_heads 8, head_dim 128, max_position_embeddings 40960, vocab_size 151936 untied",
            "quantization_config (fp8, weight_block_size [128, 128]) not pinned: from the FP8 model card's "
            "fine-grained fp8 with a block size of 128; 8.2B parameters from the card",
        ),
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
        **QWEN3_8B_WIDTHS,
    ),
    # Qwen's AWQ Qwen2.5-7B-Instruct (quant_method awq, bits 4, group_size 128, zero_point true, float16): the
    # shape of Qwen2.5-7B (hidden 3584, intermediate 18944, 28 layers, 28 heads of 128, 4 KV heads). Its decoder
    # linears are 4-bit: q and o 3584 x 3584, k and v 3584 x 512, gate, up and down 3 x 3584 x 18944 = 233,046,016 per
    # layer, x 28 = 6,525,288,448; the untied embeddings and lm_head (2 x 152064 x 3584) stay float16.
    _row(
        "Qwen/Qwen2.5-7B-Instruct-AWQ",
        _copied(
            "Qwen/Qwen2.5-7B-Instruct-AWQ",
            LLM_PROF.format("Qwen2.5-7B"),
            QWEN25_7B_SHAPE,
            "max_position_embeddings 32768 (the base's copy says 131072) and quantization_config (awq, bits 4, "
            "group_size 128, float16) not pinned: from the Instruct and AWQ model cards",
        ),
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
        **QWEN25_7B_WIDTHS,
    ),
    # Gemma 3 27B (text_config of config.json): 62 layers, 32 heads, 16 KV heads, head_dim 128, sliding_window
    # 1024, sliding_window_pattern 6 (every sixth layer global: layers 6, 12, ..., 60, so 10 global and 52 in the
    # window), max_position_embeddings 131072, bfloat16; 27.4B parameters with the SigLIP vision tower, which vLLM
    # loads too.
    _row(
        "google/gemma-3-27b-it",
        NOT_PINNED.format("google/gemma-3-27b-it")
        + "text_config num_hidden_layers 62, num_attention_heads 32, num_key_value_heads 16, head_dim 128, "
        "sliding_window 1024, sliding_window_pattern 6 and max_position_embeddings 131072 unconfirmed by a whole "
        "copy: the copies found without a pinnable place altered some for tests (6 layers, window 4); 27.4B "
        "parameters from the model card; " + _towers.GEMMA3_SIGLIP_SOURCE,
        parameters=27_400_000_000,
        layers=62,
        attention_heads=32,
        kv_heads=16,
        head_dim=128,
        max_context=131072,
        dtype="bfloat16",
        sliding_window=1024,
        sliding_layers=52,
        vision_tower=_towers.GEMMA3_SIGLIP,
    ),
    # DeepSeek-V2-Lite-Chat (config.json): 27 layers, 16 heads, kv_lora_rank 512 and qk_rope_head_dim 64 (a
    # 576-element latent per token and layer), n_routed_experts 64, num_experts_per_tok 6, max_position_embeddings
    # 163840, bfloat16; 15.7B parameters on the card.
    _row(
        "deepseek-ai/DeepSeek-V2-Lite-Chat",
        _copied(
            "deepseek-ai/DeepSeek-V2-Lite-Chat",
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py at commit 79d603f085f50500e9509fa01785ffa7ecfaaa93 "
            "(`deepseek_v2_lite`, the base model the Chat one is tuned from)",
            "num_hidden_layers 27, hidden_size 2048, num_attention_heads 16, kv_lora_rank 512, qk_rope_head_dim 64, "
            "n_routed_experts 64, num_experts_per_tok 6, moe_intermediate_size 1408, max_position_embeddings 163840, "
            "vocab_size 102400, torch_dtype bfloat16",
            "the Chat checkpoint's own config not pinned; 15.7B parameters from the model card",
        ),
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
        hidden_size=2048,
        expert_intermediate_size=1408,
        vocab_size=102400,
    ),
]


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
    vision_tower=_towers.LLAMA4_VISION,
    hidden_size=5120,
    expert_intermediate_size=8192,
)
# Mistral Small 3.1 and 3.2 24B (config.json, mistral3): text_config hidden_size 5120, intermediate_size 32768, 40
# layers, 32 heads of head_dim 128, 8 KV heads, max_position_embeddings 131072, vocab_size 131072, sliding_window null,
# bfloat16. 3.2 is 3.1 retrained ("a minor update of Mistral-Small-3.1-24B-Instruct-2503", its card); 24B on the card.
MISTRAL_SMALL_RESTS_ON = (
    "text_config figures (40 layers, 32 heads of head_dim 128, 8 KV heads) unconfirmed by a copy; the 128k context "
    "(max_position_embeddings 131072) and 24B parameters from Mistral's model card"
)
_MISTRAL_SMALL_SHAPE = dict(
    parameters=24_000_000_000,
    layers=40,
    attention_heads=32,
    kv_heads=8,
    head_dim=128,
    max_context=131072,
    dtype="bfloat16",
    vision_encoder=_towers.PIXTRAL_NOT_PROFILED,
)

SERVED_ROWS = [
    _row(
        "meta-llama/Llama-4-Scout-17B-16E-Instruct",
        _copied(
            "meta-llama/Llama-4-Scout-17B-16E-Instruct",
            _towers.LLAMA4_VISION_COPY.format("Llama-4-Scout-17B-16E-Instruct"),
            "text_config hidden_size 5120, num_attention_heads 40, num_key_value_heads 8, head_dim 128, "
            "intermediate_size 8192, num_local_experts 16, num_experts_per_tok 1, interleave_moe_layer_step 1, "
            "attention_chunk_size 8192, num_hidden_layers 48, max_position_embeddings 10485760, bfloat16; "
            + _towers.LLAMA4_VISION_FIELDS,
            "every fourth layer NoPE (transformers' no_rope_layer_interval 4); 109B parameters from the card",
        ),
        parameters=109_000_000_000,
        max_context=10485760,
        experts=16,
        expert_parameters=96_636_764_160,
        **_LLAMA4_SHAPE,
    ),
    _row(
        "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
        _copied(
            "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
            "NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_llama_min_latency.py at commit "
            "b35ac1b64368513d215c57d2ed01d62d910df8da (LLAMA_4_MAVERICK_TWO_LAYER_CONFIG)",
            # Its text_config as Maverick's but num_hidden_layers cut to 2 ("Reduced to 2 layers from 48 layers")
            # and no_rope_layer_interval set to 2 for the test: every other figure of the row matches it.
            "text_config hidden_size 5120, num_attention_heads 40, num_key_value_heads 8, head_dim 128, "
            "intermediate_size 8192, intermediate_size_mlp 16384, num_local_experts 128, num_experts_per_tok 1, "
            "interleave_moe_layer_step 2, attention_chunk_size 8192, max_position_embeddings 1048576, vocab_size "
            "202048, bfloat16",
            '48 layers from the copy\'s own note ("Reduced to 2 layers from 48 layers"), every fourth layer NoPE '
            "(the copy set 2) from transformers' Llama4TextConfig default no_rope_layer_interval 4; 400B parameters "
            "from Meta's model card; " + _towers.MAVERICK_VISION_SOURCE,
        ),
        parameters=400_000_000_000,
        max_context=1048576,
        experts=128,
        expert_parameters=386_547_056_640,
        vocab_size=202048,
        **_LLAMA4_SHAPE,
    ),
    _row(
        "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
        NOT_PINNED.format("mistralai/Mistral-Small-3.1-24B-Instruct-2503") + MISTRAL_SMALL_RESTS_ON,
        **_MISTRAL_SMALL_SHAPE,
    ),
    _row(
        "mistralai/Mistral-Small-3.2-24B-Instruct-2506",
        NOT_PINNED.format("mistralai/Mistral-Small-3.2-24B-Instruct-2506") + MISTRAL_SMALL_RESTS_ON,
        **_MISTRAL_SMALL_SHAPE,
    ),
    # Qwen's AWQ Qwen2.5-14B-Instruct (awq, bits 4, group_size 128, float16): hidden 5120, intermediate 13824, 48
    # layers, 40 heads of 128, 8 KV heads, vocab 152064 untied. 4-bit: q and o 5120 x 5120, k and v 5120 x 1024, gate,
    # up and down 3 x 5120 x 13824 = 275,251,200 per layer, x 48 = 13,212,057,600. 14.7B parameters on the card.
    _row(
        "Qwen/Qwen2.5-14B-Instruct-AWQ",
        _copied(
            "Qwen/Qwen2.5-14B-Instruct-AWQ",
            LLM_PROF.format("Qwen2.5-14B"),
            "the base Qwen2.5-14B's hidden_size 5120, intermediate_size 13824, num_hidden_layers 48, "
            "num_attention_heads 40, num_key_value_heads 8, vocab_size 152064 untied",
            QWEN25_AWQ_NOT_PINNED + "; 14.7B parameters from the card",
        ),
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
        **QWEN25_5120_WIDTHS,
    ),
    # Qwen's AWQ Qwen2.5-32B-Instruct: hidden 5120, intermediate 27648, 64 layers, 40 heads of 128, 8 KV heads.
    # 4-bit: 2 x 5120 x 5120 + 2 x 5120 x 1024 + 3 x 5120 x 27648 = 487,587,840 per layer, x 64 = 31,205,621,760.
    # 32.5B parameters on the card.
    _row(
        "Qwen/Qwen2.5-32B-Instruct-AWQ",
        _copied(
            "Qwen/Qwen2.5-32B-Instruct-AWQ",
            LLM_PROF.format("Qwen2.5-32B"),
            "the base Qwen2.5-32B's hidden_size 5120, intermediate_size 27648, num_hidden_layers 64, "
            "num_attention_heads 40, num_key_value_heads 8, vocab_size 152064 untied",
            QWEN25_AWQ_NOT_PINNED + "; 32.5B parameters from the card",
        ),
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
        **QWEN25_5120_WIDTHS,
    ),
    # Qwen's GPTQ Qwen2.5-7B-Instruct (gptq, bits 4, group_size 128, float16): the 7B shape and 4-bit linears of
    # the AWQ row above, 6,525,288,448.
    _row(
        "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4",
        _copied(
            "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4",
            LLM_PROF.format("Qwen2.5-7B"),
            QWEN25_7B_SHAPE,
            "max_position_embeddings 32768 (the base's copy says 131072) and quantization_config (gptq, bits 4, "
            "group_size 128, float16) not pinned: from the Instruct and GPTQ model cards",
        ),
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
        **QWEN25_7B_WIDTHS,
    ),
    # Qwen's FP8 Qwen3-32B (fp8, weight_block_size [128, 128]): hidden 5120, intermediate 25600, 64 layers, 64 heads
    # of 128, 8 KV heads. FP8: q and o 5120 x 8192, k and v 5120 x 1024, gate, up and down 3 x 5120 x 25600 =
    # 487,587,840 per layer, x 64 = 31,205,621,760. 32.8B parameters on the card.
    _row(
        "Qwen/Qwen3-32B-FP8",
        _copied(
            "Qwen/Qwen3-32B-FP8",
            LLM_PROF.format("Qwen3-32B"),
            "Qwen3-32B's hidden_size 5120, intermediate_size 25600, num_hidden_layers 64, num_attention_heads 64, "
            "num_key_value_heads 8, head_dim 128, max_position_embeddings 40960, vocab_size 151936, torch_dtype "
            "bfloat16",
            "quantization_config (fp8, weight_block_size [128, 128]) not pinned: from the FP8 model card; 32.8B "
            "parameters from the card",
        ),
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
        hidden_size=5120,
        vocab_size=151936,
    ),
    # Qwen's FP8 Qwen3-30B-A3B: hidden 2048, 48 layers, 32 heads of 128, 4 KV heads, 128 experts of
    # moe_intermediate_size 768, 8 per token. FP8: attention q and o 2048 x 4096, k and v 2048 x 512 = 18,874,368
    # per layer, and the experts 128 x 3 x 2048 x 768 = 603,979,776 per layer: 48 x 622,854,144 = 29,896,998,912, of
    # which experts 28,991,029,248. The router, embeddings and lm_head stay bfloat16. 30.5B parameters on the card.
    _row(
        "Qwen/Qwen3-30B-A3B-FP8",
        _copied(
            "Qwen/Qwen3-30B-A3B-FP8",
            INFER_SIM.format("qwen3-30B-A3B"),
            "Qwen3-30B-A3B's hidden_size 2048, num_hidden_layers 48, num_attention_heads 32, num_key_value_heads 4, "
            "head_dim 128, num_experts 128, num_experts_per_tok 8, moe_intermediate_size 768, "
            "max_position_embeddings 40960, vocab_size 151936",
            "quantization_config (fp8, weight_block_size [128, 128]) not pinned: from the FP8 model card; 30.5B "
            "parameters from the card",
        ),
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
        hidden_size=2048,
        expert_intermediate_size=768,
        vocab_size=151936,
    ),
]
