"""The catalog's rows of the models served most in late 2026 beyond facts/model_catalog_layouts.py's: Llama 4's
chunked-local attention, Mistral Small 3.x with its Pixtral encoder, and the publishers' own AWQ, GPTQ and FP8
checkpoints of Qwen2.5 and Qwen3. Each row's comment works its counts from the model's `config.json` and names where
that file was read (facts/model_catalog.py explains the columns).
"""

from __future__ import annotations

from . import vision_towers as _towers
from .model_catalog_layouts import (
    INFER_SIM,
    LLM_PROF,
    NOT_PINNED,
    QWEN3_FP8_RESTS_ON,
    QWEN25_7B_INSTRUCT_COPY,
    QWEN25_7B_SHAPE,
    QWEN25_7B_WIDTHS,
    QWEN25_5120_WIDTHS,
    QWEN25_AWQ_NOT_PINNED,
    QWEN25_AWQ_RESTS_ON,
    QWEN_GUIDE,
    copied,
)
from .model_facts import catalog_row as _row

# A mirror of the Instruct checkpoint's config.json, whose max_position_embeddings 32768 the AWQ checkpoint keeps.
QWEN25_14B_INSTRUCT_COPY = (
    "https://huggingface.co/osllmai-community/Qwen2.5-14B-Instruct/blob/eaddfa685697f74aa707d6cd5cf36784cdcabe05/"
    "config.json"
)

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
    hidden_size=_towers.LLAMA4_TEXT_HIDDEN_SIZE,
    expert_intermediate_size=8192,
)
# Mistral Small 3.1 and 3.2 24B (config.json, mistral3): text_config hidden_size 5120, intermediate_size 32768, 40
# layers, 32 heads of head_dim 128, 8 KV heads, max_position_embeddings 131072, vocab_size 131072, sliding_window null,
# bfloat16; vision_config Pixtral, 24 layers of hidden_size 1024. 3.2 is 3.1's shape retrained (Mistral's 3.2 card:
# "a minor update of Mistral-Small-3.1-24B-Instruct-2503"). 24B parameters on the card, the Pixtral encoder included.
MISTRAL_SMALL_3_2_RESTS_ON = (
    "text_config figures (40 layers, 32 heads of head_dim 128, 8 KV heads, max_position_embeddings 131072) those of "
    "3.1's copy pinned in the row above, which Mistral's 3.2 card calls it a minor update of; 24B parameters from the "
    "card"
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
        copied(
            "meta-llama/Llama-4-Scout-17B-16E-Instruct",
            "yuekaizhang/dynamo lib/llm/tests/data/sample-models/Llama-4-Scout-17B-16E-Instruct/config.json at commit "
            "ceaeba3e3858432fd8b5e696eb6c2c8a64ffd632",
            "text_config num_hidden_layers 48, hidden_size 5120, num_attention_heads 40, num_key_value_heads 8, "
            "head_dim 128, num_local_experts 16, num_experts_per_tok 1, interleave_moe_layer_step 1, intermediate_size "
            "8192, intermediate_size_mlp 16384, attention_chunk_size 8192, max_position_embeddings 10485760, "
            "vocab_size 202048, torch_dtype bfloat16",
            # Its no_rope_layers is empty, which transformers' Llama4TextConfig fills from no_rope_layer_interval 4.
            "every fourth layer NoPE from transformers' Llama4TextConfig default no_rope_layer_interval 4 (the copy's "
            "no_rope_layers is empty); 109B parameters from Meta's model card; the vision tower from "
            + _towers.LLAMA4_VISION_COPY.format("Llama-4-Scout-17B-16E-Instruct")
            + ": "
            + _towers.LLAMA4_VISION_FIELDS,
        ),
        parameters=109_000_000_000,
        max_context=10485760,
        experts=16,
        expert_parameters=96_636_764_160,
        vocab_size=202048,
        **_LLAMA4_SHAPE,
    ),
    _row(
        "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
        copied(
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
        copied(
            "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
            "NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_mistral.py at commit "
            "56851033051a6f9bd50e22219db64d68722a6f01 (`mistral_small_3_1_24b_config`)",
            # Its text_config as the Hub's but num_hidden_layers cut to 4 ("Reduce this from the original 40 to
            # relieve memory needs for CI"): every other figure of the row matches it.
            "mistral3 text_config hidden_size 5120, intermediate_size 32768, num_attention_heads 32, head_dim 128, "
            "num_key_value_heads 8, max_position_embeddings 131072, sliding_window null, vocab_size 131072, "
            "torch_dtype bfloat16, a pixtral vision_config of 24 layers",
            '40 layers from the copy\'s own note ("Reduce this from the original 40"); 24B parameters from '
            "Mistral's model card",
        ),
        **_MISTRAL_SMALL_SHAPE,
    ),
    _row(
        "mistralai/Mistral-Small-3.2-24B-Instruct-2506",
        NOT_PINNED.format("mistralai/Mistral-Small-3.2-24B-Instruct-2506") + MISTRAL_SMALL_3_2_RESTS_ON,
        **_MISTRAL_SMALL_SHAPE,
    ),
    # Qwen's AWQ Qwen2.5-14B-Instruct (awq, bits 4, group_size 128, float16): hidden 5120, intermediate 13824, 48
    # layers, 40 heads of 128, 8 KV heads, vocab 152064 untied. 4-bit: q and o 5120 x 5120, k and v 5120 x 1024, gate,
    # up and down 3 x 5120 x 13824 = 275,251,200 per layer, x 48 = 13,212,057,600. 14.7B parameters on the card.
    _row(
        "Qwen/Qwen2.5-14B-Instruct-AWQ",
        copied(
            "Qwen/Qwen2.5-14B-Instruct-AWQ",
            LLM_PROF.format("Qwen2.5-14B"),
            "the base Qwen2.5-14B's hidden_size 5120, intermediate_size 13824, num_hidden_layers 48, "
            "num_attention_heads 40, num_key_value_heads 8, vocab_size 152064 untied",
            f"max_position_embeddings 32768 from {QWEN25_14B_INSTRUCT_COPY} (the base's copy says 131072); "
            + QWEN25_AWQ_RESTS_ON
            + "; 14.7B parameters from the card",
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
        copied(
            "Qwen/Qwen2.5-32B-Instruct-AWQ",
            LLM_PROF.format("Qwen2.5-32B"),
            "the base Qwen2.5-32B's hidden_size 5120, intermediate_size 27648, num_hidden_layers 64, "
            "num_attention_heads 40, num_key_value_heads 8, vocab_size 152064 untied",
            QWEN25_AWQ_NOT_PINNED + QWEN25_AWQ_RESTS_ON + "; 32.5B parameters from the card",
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
        copied(
            "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4",
            LLM_PROF.format("Qwen2.5-7B"),
            QWEN25_7B_SHAPE,
            f"max_position_embeddings 32768 from {QWEN25_7B_INSTRUCT_COPY} (the base's copy says 131072); "
            + "quantization_config (gptq, group_size 128) as "
            + QWEN_GUIDE.format("quantization/gptq.md")
            + " quantizes (group_size 128, desc_act False, sym True), the checkpoint's own not pinned; bits 4 from "
            "the checkpoint's name and float16 from its model card",
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
        copied(
            "Qwen/Qwen3-32B-FP8",
            LLM_PROF.format("Qwen3-32B"),
            "Qwen3-32B's hidden_size 5120, intermediate_size 25600, num_hidden_layers 64, num_attention_heads 64, "
            "num_key_value_heads 8, head_dim 128, max_position_embeddings 40960, vocab_size 151936, torch_dtype "
            "bfloat16",
            QWEN3_FP8_RESTS_ON + "; 32.8B parameters from the card",
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
        copied(
            "Qwen/Qwen3-30B-A3B-FP8",
            INFER_SIM.format("qwen3-30B-A3B"),
            "Qwen3-30B-A3B's hidden_size 2048, num_hidden_layers 48, num_attention_heads 32, num_key_value_heads 4, "
            "head_dim 128, num_experts 128, num_experts_per_tok 8, moe_intermediate_size 768, "
            "max_position_embeddings 40960, vocab_size 151936",
            QWEN3_FP8_RESTS_ON + "; 30.5B parameters from the card",
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
