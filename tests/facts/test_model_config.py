"""A model's facts from its own files (facts/model_config.py): the config.json keys of each layout and the bytes its
safetensors dtypes store. The configs below are the published ones' fields as facts/model_catalog.py's rows quote
them (https://huggingface.co/<model>/blob/main/config.json); the rule for Gemma 3's global layers is transformers'
(models/gemma3/configuration_gemma3.py: layer i is `sliding_attention` when `(i + 1) % sliding_window_pattern`)."""

from __future__ import annotations

import pytest

from components.facts.model_config import ModelConfigError, facts_from_files

GEMMA_3_27B = {
    "architectures": ["Gemma3ForConditionalGeneration"],
    "text_config": {
        "num_hidden_layers": 62,
        "num_attention_heads": 32,
        "num_key_value_heads": 16,
        "head_dim": 128,
        "hidden_size": 5376,
        "sliding_window": 1024,
        "sliding_window_pattern": 6,
        "max_position_embeddings": 131072,
    },
    "vision_config": {"num_hidden_layers": 27, "hidden_size": 1152},
    "torch_dtype": "bfloat16",
}
DEEPSEEK_V2_LITE = {
    "num_hidden_layers": 27,
    "num_attention_heads": 16,
    "num_key_value_heads": 16,
    "hidden_size": 2048,
    "kv_lora_rank": 512,
    "qk_rope_head_dim": 64,
    "n_routed_experts": 64,
    "num_experts_per_tok": 6,
    "max_position_embeddings": 163840,
    "torch_dtype": "bfloat16",
}
# Qwen2.5-7B-Instruct: a `sliding_window` that `use_sliding_window: false` leaves unused, no `layer_types`.
QWEN_2_5_7B = {
    "num_hidden_layers": 28,
    "num_attention_heads": 28,
    "num_key_value_heads": 4,
    "hidden_size": 3584,
    "sliding_window": 131072,
    "use_sliding_window": False,
    "max_position_embeddings": 32768,
    "torch_dtype": "bfloat16",
}


def test_a_multimodal_config_is_read_from_its_text_config_with_gemma_3s_window_pattern():
    """62 layers, every sixth global (layers 5, 11, ..., 59 from 0): 62 // 6 = 10 global, 52 in the window."""
    facts = facts_from_files(GEMMA_3_27B, {"BF16": 27_400_000_000}, "test")

    assert (facts.layers, facts.attention_heads, facts.kv_heads, facts.head_dim) == (62, 32, 16, 128)
    assert (facts.sliding_window, facts.sliding_layers, facts.max_context) == (1024, 52, 131072)
    # The vision tower's tensors are in the safetensors files, so in the stored bytes: 27.4e9 x 2.
    assert facts.weight_bytes == 54_800_000_000


def test_multi_latent_attention_caches_one_latent_of_rank_plus_rope():
    """kv_lora_rank 512 + qk_rope_head_dim 64 = 576 elements per token and layer, one 'head' (MLAAttentionSpec)."""
    facts = facts_from_files(DEEPSEEK_V2_LITE, {"BF16": 15_700_000_000}, "test")

    assert (facts.latent_attention, facts.kv_heads, facts.head_dim) == (True, 1, 576)
    assert (facts.experts, facts.active_experts) == (64, 6)


def test_a_window_the_config_turns_off_is_counted_as_full_attention():
    facts = facts_from_files(QWEN_2_5_7B, {"BF16": 7_615_616_512}, "test")

    assert (facts.sliding_window, facts.sliding_layers) == (None, 0)
    assert facts.head_dim == 3584 // 28 == 128


def test_stored_bytes_count_each_dtype_and_a_float32_checkpoint_in_16_bits():
    """An FP8 checkpoint: 1 byte per F8_E4M3 element, its F32 scales 4 bytes, bf16 2: 1000 + 4 x 10 + 2 x 100 =
    1240. A float32 one is served in 16 bits (vllm/config/model.py `_resolve_auto_dtype`): 1000 x 2 = 2000."""
    fp8 = {**QWEN_2_5_7B, "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}
    float32 = {**QWEN_2_5_7B, "torch_dtype": "float32"}

    quantized = facts_from_files(fp8, {"F8_E4M3": 1000, "F32": 10, "BF16": 100}, "test")
    served_in_16_bits = facts_from_files(float32, {"F32": 1000}, "test")

    assert (quantized.weight_bytes, quantized.quantization, quantized.layout) == (1240, "fp8", "fp8 weights")
    assert (served_in_16_bits.weight_bytes, served_in_16_bits.dtype) == (2000, "bfloat16")


@pytest.mark.parametrize(
    ("config", "stored", "message"),
    [
        pytest.param({**QWEN_2_5_7B, "num_hidden_layers": None}, {"BF16": 1}, "num_hidden_layers is None", id="layers"),
        pytest.param(
            {**QWEN_2_5_7B, "num_hidden_layers": 0},
            {"BF16": 1},
            "num_hidden_layers is 0; a positive integer is needed",
            id="no-layers",
        ),
        pytest.param({**QWEN_2_5_7B, "torch_dtype": "int4"}, {"BF16": 1}, "dtype 'int4' is not one of", id="dtype"),
        pytest.param(QWEN_2_5_7B, {"Q3": 1}, "safetensors dtypes ['Q3']: none of F4, F6_E2M3", id="stored-dtype"),
        pytest.param(QWEN_2_5_7B, {}, "safetensors dtypes none", id="no-tensors"),
    ],
)
def test_files_the_gate_cannot_size_are_refused_naming_the_key(config, stored, message):
    with pytest.raises(ModelConfigError, match="^" + message.replace("[", r"\[").replace("]", r"\]")):
        facts_from_files(config, stored, "test")


@pytest.mark.parametrize(
    ("quantization_config", "group"),
    [
        pytest.param({"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True}, 128, id="awq"),
        pytest.param({"quant_method": "gptq", "bits": 4, "group_size": -1}, 0, id="gptq-whole-rows"),
        pytest.param({"quant_method": "gptq", "bits": 4, "group_size": 1}, 1, id="gptq-a-scale-a-weight"),
        pytest.param({"quant_method": "fp8", "weight_block_size": [128, 128]}, 128, id="fp8-block"),
        pytest.param(
            {
                "quant_method": "compressed-tensors",
                "config_groups": {"group_0": {"weights": {"num_bits": 4, "group_size": 64, "type": "int"}}},
            },
            64,
            id="compressed-tensors-w4a16",
        ),
    ],
)
def test_the_quantization_group_is_read_from_each_methods_config(quantization_config, group):
    """The keys each method's `quantization_config` carries (AutoAWQ's and AutoGPTQ's `group_size`, -1 meaning a
    whole row; FP8's `weight_block_size` [n, k]; llm-compressor's `config_groups.<name>.weights.group_size`)."""
    facts = facts_from_files(
        {**QWEN_2_5_7B, "intermediate_size": 18944, "quantization_config": quantization_config}, {"BF16": 1}, "t"
    )

    assert (facts.quantization_group, facts.intermediate_size) == (group, 18944)


# Llama 4 Scout's text_config (the llama4 configs public inference repositories quote): 48 layers, 40 heads, 8 KV
# heads, head_dim 128, 16 experts, attention_chunk_size 8192.
LLAMA_4_SCOUT = {
    "architectures": ["Llama4ForConditionalGeneration"],
    "text_config": {
        "num_hidden_layers": 48,
        "num_attention_heads": 40,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "hidden_size": 5120,
        "num_local_experts": 16,
        "num_experts_per_tok": 1,
        "attention_chunk_size": 8192,
        "max_position_embeddings": 10485760,
    },
    "torch_dtype": "bfloat16",
}


def test_llama_4s_rope_layers_are_chunked_and_every_fourth_layer_global():
    """Without a `no_rope_layers` list transformers' Llama4TextConfig marks layer i NoPE when (i + 1) % 4 == 0:
    layers 3, 7, ..., 47, 12 of 48; vLLM chunks the other 36 (models/llama4.py `use_chunked_local_attn`)."""
    facts = facts_from_files(LLAMA_4_SCOUT, {"BF16": 109_000_000_000}, "test")

    assert (facts.attention_chunk, facts.chunked_layers, facts.sliding_layers) == (8192, 36, 0)
    assert (
        facts.layout == "bfloat16 weights, 16 experts (1 per token), all resident, 36 of 48 layers in 8192-token chunks"
    )


def test_an_explicit_no_rope_layers_list_decides_which_layers_are_chunked():
    """Four layers listed [1, 0, 1, 0]: the two whose entry is 1 use RoPE and so the chunk."""
    text = {**LLAMA_4_SCOUT["text_config"], "num_hidden_layers": 4, "no_rope_layers": [1, 0, 1, 0]}

    facts = facts_from_files({**LLAMA_4_SCOUT, "text_config": text}, {"BF16": 1_000_000}, "test")

    assert (facts.attention_chunk, facts.chunked_layers) == (8192, 2)


@pytest.mark.parametrize(
    ("chunk", "read"),
    [
        pytest.param(1, (1, 2), id="one-token-chunks-are-chunks"),
        pytest.param(0, (None, 0), id="zero-is-no-chunk"),
        pytest.param(None, (None, 0), id="unset-is-no-chunk"),
    ],
)
def test_any_positive_attention_chunk_is_a_chunk(chunk, read):
    """vLLM chunks the RoPE layers whenever `attention_chunk_size` is set (models/llama4.py at v0.32.0); a chunk of
    one token is a (degenerate) chunk, 0 or none is global attention. Four layers [1, 0, 1, 0]: two chunked."""
    text = {**LLAMA_4_SCOUT["text_config"], "num_hidden_layers": 4, "no_rope_layers": [1, 0, 1, 0]}
    text["attention_chunk_size"] = chunk

    facts = facts_from_files({**LLAMA_4_SCOUT, "text_config": text}, {"BF16": 1_000_000}, "test")

    assert (facts.attention_chunk, facts.chunked_layers) == read


def test_a_multimodal_config_says_its_encoders_profiling_is_not_counted():
    """Gemma 3's `vision_config` is a `siglip_vision_model`; its weights are in the stored bytes, its start-up
    profiling run (vllm/v1/worker/gpu_model_runner.py `profile_run`) is not sized."""
    config = {**GEMMA_3_27B, "vision_config": {**GEMMA_3_27B["vision_config"], "model_type": "siglip_vision_model"}}

    facts = facts_from_files(config, {"BF16": 27_400_000_000}, "test")

    assert facts.layout.endswith(
        "vision encoder (siglip_vision_model) weights counted but not its start-up profiling peak"
    )
    assert facts_from_files(QWEN_2_5_7B, {"BF16": 7_610_000_000}, "test").vision_encoder == ""


def _compressed(weights: dict, inputs: dict | None, layout: str) -> dict:
    """A compressed-tensors `quantization_config` of one scheme over the Linear layers, as llm-compressor writes it."""
    scheme = {"targets": ["Linear"], "weights": weights, "input_activations": inputs}
    return {"quant_method": "compressed-tensors", "format": layout, "config_groups": {"group_0": scheme}}


FP8_TENSOR = {"type": "float", "num_bits": 8, "strategy": "tensor", "symmetric": True, "dynamic": False}
FP8_CHANNEL = {**FP8_TENSOR, "strategy": "channel"}
INT8_CHANNEL = {**FP8_CHANNEL, "type": "int"}


@pytest.mark.parametrize(
    ("quantization_config", "key"),
    [
        # "-FP8": static per-tensor weights and inputs (`_is_fp8_w8a8`: float weights and inputs, per tensor).
        pytest.param(_compressed(FP8_TENSOR, FP8_TENSOR, "float-quantized"), "w8a8-fp8", id="fp8-static"),
        # "-FP8-dynamic": per-channel weights, inputs per token at run time (dynamic inputs always pass).
        pytest.param(
            _compressed(FP8_CHANNEL, {**FP8_TENSOR, "strategy": "token", "dynamic": True}, "naive-quantized"),
            "w8a8-fp8",
            id="fp8-dynamic",
        ),
        # FP8 weights alone (`_is_fp8_w8a16`).
        pytest.param(_compressed(FP8_CHANNEL, None, "float-quantized"), "w8a16-fp8", id="fp8-weights-only"),
        # "quantized.w8a8": int8 weights per channel, int8 inputs per token (`_is_dynamic_token_w8a8`).
        pytest.param(
            _compressed(INT8_CHANNEL, {**INT8_CHANNEL, "strategy": "token", "dynamic": True}, "int-quantized"),
            "w8a8-int8",
            id="int8-w8a8",
        ),
        # "quantized.w4a16" and "quantized.w8a16": packed int weights per group, no inputs (`_is_wNa16_group_channel`).
        pytest.param(
            _compressed(
                {**INT8_CHANNEL, "num_bits": 4, "strategy": "group", "group_size": 128}, None, "pack-quantized"
            ),
            "w4a16",
            id="w4a16",
        ),
        pytest.param(_compressed(INT8_CHANNEL, None, "pack-quantized"), "w8a16", id="w8a16"),
        # NVFP4 (float 4 bits per group of 16, `_is_nvfp4_format`): no scheme sized here, the method alone.
        pytest.param(
            _compressed(
                {**FP8_TENSOR, "num_bits": 4, "strategy": "tensor_group", "group_size": 16},
                None,
                "nvfp4-pack-quantized",
            ),
            "",
            id="nvfp4-unsized",
        ),
    ],
)
def test_compressed_tensors_is_keyed_by_the_scheme_vllm_picks(quantization_config, key):
    """The branches of vLLM v0.32.0's compressed_tensors.py `_get_scheme_from_parts`, one per scheme, from configs
    made by hand with the fields it reads (`type`, `num_bits`, `strategy`, `dynamic`, `format`)."""
    facts = facts_from_files({**QWEN_2_5_7B, "quantization_config": quantization_config}, {"F8_E4M3": 1}, "t")

    assert facts.quantization == ("compressed-tensors/" + key if key else "compressed-tensors")


def test_a_compressed_tensors_block_is_its_group():
    """A block-quantized FP8 scheme (`strategy: block`, `block_structure` [n, k]) is held to whole blocks of k."""
    weights = {**FP8_TENSOR, "strategy": "block", "block_structure": [128, 128]}
    inputs = {**FP8_TENSOR, "strategy": "group", "group_size": 128, "dynamic": True}
    config = {**QWEN_2_5_7B, "quantization_config": _compressed(weights, inputs, "float-quantized")}

    facts = facts_from_files(config, {"F8_E4M3": 1}, "t")

    assert (facts.quantization, facts.quantization_group) == ("compressed-tensors/w8a8-fp8", 128)


def test_the_routed_experts_take_the_bytes_their_tensors_store_scales_included():
    """An FP8 mixture of experts (DeepSeek-V2-Lite's shape, block-quantized as `fp8`): the experts' tensors store
    1000 F8_E4M3 elements at 1 byte and 10 F32 block scales at 4 (safetensors `Dtype::bitsize` / 8), so the experts
    take 1000 + 4 x 10 = 1040 bytes, not their 1010 elements at the method's 1 byte each (1010)."""
    fp8 = {**DEEPSEEK_V2_LITE, "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}
    experts = {"F8_E4M3": 1000, "F32": 10}

    facts = facts_from_files(fp8, {"F8_E4M3": 1200, "F32": 12, "BF16": 300}, "test", experts_stored=experts)

    assert facts.expert_parameters == 1010
    assert facts.expert_bytes == 1040


def test_the_widths_of_the_activation_peak_are_read_from_the_config():
    """Qwen3-30B-A3B's config.json (as facts/model_catalog_layouts.py's row quotes it): hidden_size 2048,
    moe_intermediate_size 768 beside a dense `intermediate_size` 6144 its layers do not use, vocab_size 151936."""
    config = {
        "num_hidden_layers": 48,
        "num_attention_heads": 32,
        "num_key_value_heads": 4,
        "head_dim": 128,
        "hidden_size": 2048,
        "intermediate_size": 6144,
        "moe_intermediate_size": 768,
        "num_experts": 128,
        "num_experts_per_tok": 8,
        "vocab_size": 151936,
        "max_position_embeddings": 40960,
        "torch_dtype": "bfloat16",
    }

    facts = facts_from_files(config, {"BF16": 30_500_000_000}, "test")

    assert (facts.hidden_size, facts.expert_intermediate_size, facts.vocab_size) == (2048, 768, 151936)
    assert facts.intermediate_size == 0


def test_an_experts_width_is_its_intermediate_size_where_the_config_has_no_moe_key():
    """Mixtral-8x7B's config.json (mistralai/Mixtral-8x7B-v0.1; as mlc-ai/mlc-llm's `model_preset.py` at 79d603f0
    quotes it): 8 local experts, 2 per token, each of `intermediate_size` 14336, and no `moe_intermediate_size`."""
    config = {
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "hidden_size": 4096,
        "intermediate_size": 14336,
        "num_local_experts": 8,
        "num_experts_per_tok": 2,
        "vocab_size": 32000,
        "max_position_embeddings": 32768,
        "torch_dtype": "bfloat16",
    }

    facts = facts_from_files(config, {"BF16": 46_700_000_000}, "test")

    assert (facts.experts, facts.expert_intermediate_size, facts.hidden_size) == (8, 14336, 4096)


@pytest.mark.parametrize(
    ("keys", "chunked"),
    [
        # Every second layer NoPE (layers 1, 3, 5, 7): 4 of 8 chunked.
        pytest.param({"no_rope_layer_interval": 2}, 4, id="an-interval-of-2"),
        # An empty list is no list: transformers fills it from the interval (configuration_llama4.py: `no_rope_layers
        # if no_rope_layers else default_no_rope_layers`), 4 by default: layers 3 and 7 NoPE.
        pytest.param({"no_rope_layers": []}, 6, id="an-empty-list-takes-the-interval"),
        pytest.param({"no_rope_layers": [], "no_rope_layer_interval": 8}, 7, id="an-empty-list-and-an-interval-of-8"),
    ],
)
def test_without_a_no_rope_layers_list_the_interval_decides(keys, chunked):
    """transformers' Llama4TextConfig, as the test above: layer i is NoPE when (i + 1) % no_rope_layer_interval == 0;
    eight layers here."""
    text = {**LLAMA_4_SCOUT["text_config"], "num_hidden_layers": 8, **keys}

    facts = facts_from_files({**LLAMA_4_SCOUT, "text_config": text}, {"BF16": 1_000_000}, "test")

    assert (facts.attention_chunk, facts.chunked_layers) == (8192, chunked)


def test_a_config_group_that_is_not_a_mapping_is_read_as_no_scheme():
    """A `config_groups` entry vLLM could not read as a scheme: plain compressed-tensors, no group, not a crash."""
    config = {"quant_method": "compressed-tensors", "config_groups": {"group_0": ["not", "a", "scheme"]}}

    facts = facts_from_files({**QWEN_2_5_7B, "quantization_config": config}, {"BF16": 1}, "t")

    assert (facts.quantization, facts.quantization_group) == ("compressed-tensors", 0)


def test_one_kv_head_is_a_count_multi_query_attention_keeps():
    """Multi-query attention shares one KV head among all query heads (`num_key_value_heads: 1`): 1 is positive."""
    facts = facts_from_files({**QWEN_2_5_7B, "num_key_value_heads": 1}, {"BF16": 1}, "t")

    assert facts.kv_heads == 1


def test_kv_heads_default_to_the_attention_heads_and_layer_types_name_the_window_layers():
    """A config without `num_key_value_heads` is multi-head attention (transformers' configs default it to
    `num_attention_heads`); `layer_types` lists each layer's attention, `sliding_attention` for a window layer
    (gpt-oss's config.json)."""
    config = {key: value for key, value in QWEN_2_5_7B.items() if key != "num_key_value_heads"}
    config |= {"sliding_window": 128, "layer_types": ["sliding_attention"] * 3 + ["full_attention"] * 25}

    facts = facts_from_files(config, {"BF16": 1}, "t")

    assert (facts.kv_heads, facts.attention_heads) == (28, 28)
    assert (facts.sliding_window, facts.sliding_layers) == (128, 3)


@pytest.mark.parametrize(
    "keys",
    [
        pytest.param({"sliding_window_pattern": 0}, id="a-pattern-of-0-is-no-pattern"),
        # Every layer global: (i + 1) % 1 == 0 for each layer (Gemma3TextConfig's rule), so no layer slides.
        pytest.param({"sliding_window_pattern": 1}, id="a-pattern-of-1-every-layer-global"),
        pytest.param({"layer_types": ["full_attention"] * 28}, id="layer-types-all-full"),
    ],
)
def test_a_window_no_layer_slides_in_is_no_window(keys):
    """Not a refusal: the model is sized as full attention, its window dropped."""
    facts = facts_from_files({**QWEN_2_5_7B, **keys}, {"BF16": 1}, "t")

    assert (facts.sliding_window, facts.sliding_layers) == (None, 0)
