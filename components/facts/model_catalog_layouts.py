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
# Qwen's own guides, read 2026-12-05. The AWQ guide quantizes with {"zero_point": True, "q_group_size": 128,
# "w_bit": 4, "version": "GEMM"}; the GPTQ guide pads Qwen2.5-72B's intermediate_size 29568 (231 groups of 128) with
# zeros to 29696 so its official quantized checkpoints split over 8 GPUs, "this size is Qwen2.5-72B only": the 7B, 14B
# and 32B sizes (18944, 13824, 27648) are whole numbers of 128-wide groups and keep them. The vLLM guide calls the
# Qwen3 FP8 checkpoints "block-wise quant" and quotes vLLM's "weight quantization block_n = 128".
QWEN_GUIDE = "QwenLM/Qwen3 docs/source/{} at commit 7a2f61ffc7a20d47efcd2bf97f6f2bf52729042e"
QWEN25_AWQ_RESTS_ON = (
    "quantization_config (awq, bits 4, group_size 128, zero point) as "
    + QWEN_GUIDE.format("quantization/awq.md")
    + " quantizes, the checkpoint's own quantization_config not pinned and its float16 from the AWQ model card; "
    "intermediate_size unpadded, " + QWEN_GUIDE.format("quantization/gptq.md") + " padding Qwen2.5-72B's alone"
)
QWEN3_FP8_RESTS_ON = (
    "quantization block 128 from "
    + QWEN_GUIDE.format("deployment/vllm.md")
    + " (block-wise quant, vLLM's weight quantization block_n = 128), the checkpoint's own quantization_config "
    "(fp8, weight_block_size [128, 128]) not pinned"
)
QWEN25_AWQ_NOT_PINNED = "max_position_embeddings 32768 from the Instruct model card (the base's copy says 131072); "
# The Instruct model's own config.json, whose max_position_embeddings 32768 the quantized 7B checkpoints keep.
QWEN25_7B_INSTRUCT_COPY = (
    "kevinstephano/thunder_model_blocks hf_qwen2/qwen2_rope.py at commit e00c756df29796b34d425a9f8364ec72778d5d66 "
    "(`qwen_cfg_str`, Qwen/Qwen2.5-7B-Instruct)"
)


def copied(model: str, copy: str, fields: str, rest: str = "") -> str:
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
        copied(
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
        copied(
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
        copied(
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
        copied(
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
        copied(
            "Qwen/Qwen3-8B-FP8",
            INFER_SIM.format("qwen3-8B"),
            "Qwen3-8B's hidden_size 4096, intermediate_size 12288, num_hidden_layers 36, num_attention_heads 32, "
            "num_key_value_heads 8, head_dim 128, max_position_embeddings 40960, vocab_size 151936 untied",
            QWEN3_FP8_RESTS_ON + "; 8.2B parameters from the card",
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
        copied(
            "Qwen/Qwen2.5-7B-Instruct-AWQ",
            LLM_PROF.format("Qwen2.5-7B"),
            QWEN25_7B_SHAPE,
            f"max_position_embeddings 32768 from {QWEN25_7B_INSTRUCT_COPY} (the base's copy says 131072); "
            + QWEN25_AWQ_RESTS_ON,
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
        copied(
            "google/gemma-3-27b-it",
            "google/gemma_pytorch gemma/config.py at commit 014acb7ac4563a5f77c76d7ff98f31b568c16508 "
            "(`get_config_for_27b_v3`, Google's reference implementation)",
            "num_hidden_layers 62, num_attention_heads 32, num_key_value_heads 16, head_dim 128, hidden_size 5376, "
            "sliding_window_size 1024 on attn_types of five LOCAL_SLIDING then one GLOBAL, max_position_embeddings "
            "131072, vocab_size 262144",
            # The same text_config (but layers cut to 6 and the window to 4 for the test) in the Hub file's form.
            "torch_dtype bfloat16 and the Gemma3ForConditionalGeneration layout with a SigLIP vision_config from "
            "NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_gemma3.py at commit "
            "fe6fa01d7fcc2e20f55c756ed9281d6aeabaf494 (`GEMMA3_27B_CONFIG`); 27.4B parameters from the model card; "
            + _towers.GEMMA3_SIGLIP_SOURCE,
        ),
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
        copied(
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
