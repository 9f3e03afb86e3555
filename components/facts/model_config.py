"""A model's facts from its own files: `config.json` and the tensors its safetensors headers list, as the
program reads them from the Hub at `pulumi preview` (vllm/hub_facts.py) for a model outside the catalog.

Standard library only: the files arrive as plain data (the parsed `config.json`, and per safetensors dtype the
elements stored in it). The keys read are the transformers config's, as vLLM v0.32.0 reads them:

- the language model's part of a multimodal config is its `text_config` (vllm/transformers_utils/config.py
  `get_hf_text_config`); the vision tower's weights are in the safetensors files, so they are counted there;
- `num_hidden_layers`, `num_attention_heads`, `num_key_value_heads` (default: the attention heads), `head_dim`
  (default: `hidden_size / num_attention_heads`), `max_position_embeddings`, and the dtype (`dtype`, or the older
  `torch_dtype`);
- `quantization_config.quant_method`, and for compressed-tensors the scheme its first `config_groups` entry
  makes vLLM pick (`compressed_tensors_scheme`); the experts (`num_local_experts`, `num_experts` or `n_routed_experts`) and
  `num_experts_per_tok`;
- sliding-window layers where the config lists them: `layer_types` (its `sliding_attention` entries) or Gemma 3's
  `sliding_window_pattern` (every n-th layer global). A `sliding_window` without either is counted as full
  attention, the larger cache: Qwen2's configs carry a `sliding_window` that `use_sliding_window: false` turns off;
- Llama 4's chunked local attention: `attention_chunk_size` on the layers `no_rope_layers` marks as RoPE layers;
- multi-latent attention (DeepSeek's MLA) where `kv_lora_rank` is set: one latent of `kv_lora_rank +
  qk_rope_head_dim` elements per token and layer.

The weights take the bytes their safetensors dtypes store, scales and packed 4-bit blocks included: what a
quantized checkpoint stores is what vLLM allocates for it. One exception: vLLM serves a float32 checkpoint in
16 bits (vllm/config/model.py `_resolve_auto_dtype` at v0.32.0: "Downcast for float32 models" to the platform's
preferred dtype, bfloat16 or float16), so its float32 tensors count 2 bytes each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .model_facts import DTYPE_BYTES, ENCODER_NOT_PROFILED, ModelFacts

# Bytes per element of the dtypes a safetensors header names: `Dtype::bitsize` / 8 (huggingface/safetensors,
# safetensors/src/tensor.rs, safetensors 0.8). Packed 4-bit formats stored as U8 hold two values an element.
SAFETENSORS_DTYPE_BYTES: Mapping[str, float] = {
    "F4": 0.5,
    "F6_E2M3": 0.75,
    "F6_E3M2": 0.75,
    **dict.fromkeys(("BOOL", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0", "F8_E4M3FNUZ", "F8_E5M2FNUZ"), 1),
    **dict.fromkeys(("I16", "U16", "F16", "BF16"), 2),
    **dict.fromkeys(("I32", "U32", "F32"), 4),
    **dict.fromkeys(("C64", "F64", "I64", "U64"), 8),
}
# A routed expert's tensor, by the names transformers' checkpoints give them (`model.layers.3.mlp.experts.7.down_proj`
# in Qwen3 MoE and DeepSeek, `mlp.experts.gate_up_proj_blocks` in gpt-oss, `block_sparse_moe.experts.0.w1` in
# Mixtral); DeepSeek's `shared_experts` run on every token and are split like the rest.
EXPERT_TENSOR = ".experts."
COMPRESSED_TENSORS = "compressed-tensors"
# compressed-tensors' `QuantizationStrategy` and `CompressionFormat` values, as the config spells them.
_ROW_STRATEGIES = ("group", "channel")
_WHOLE_STRATEGIES = ("tensor", "channel")
_ACTIVATION_FORMATS = ("naive-quantized", "int-quantized", "float-quantized")
# `config.json` dtypes as the catalog names them.
_CONFIG_DTYPES = {"bfloat16": "bfloat16", "float16": "float16", "half": "float16", "float32": "float32"}


@dataclass(frozen=True)
class HubRead:
    """What the Hub told of one model at one revision: its facts, or why there are none."""

    facts: ModelFacts | None
    problem: str = ""
    """Why the facts could not be read; empty when they were, or when offline (`offline`)."""
    offline: bool = False
    """`HF_HUB_OFFLINE` is set: nothing was requested."""


class ModelConfigError(ValueError):
    """The files do not describe a model the fits gate can size; the message says which key."""


def facts_from_files(
    config: Mapping[str, Any], stored: Mapping[str, int], source: str, experts_stored: Mapping[str, int] | None = None
) -> ModelFacts:
    """The facts of a model from its `config.json` (`config`) and the elements its safetensors files store per
    dtype (`stored`, as `SafetensorsRepoMetadata.parameter_count` counts them), of which `experts_stored` in the
    routed experts' tensors (`EXPERT_TENSOR`). Raises `ModelConfigError`."""
    text = config.get("text_config") or config
    layers = _int(text, "num_hidden_layers")
    heads = _int(text, "num_attention_heads")
    kv_heads = _int(text, "num_key_value_heads", default=heads)
    dtype_name = str(text.get("dtype") or text.get("torch_dtype") or config.get("torch_dtype") or "bfloat16")
    dtype = _CONFIG_DTYPES.get(dtype_name)
    if dtype is None:
        raise ModelConfigError(f"dtype {dtype_name!r} is not one of {', '.join(_CONFIG_DTYPES)}")
    unknown = sorted(set(stored) - set(SAFETENSORS_DTYPE_BYTES))
    if unknown or not stored:
        raise ModelConfigError(f"safetensors dtypes {unknown or 'none'}: none of {', '.join(SAFETENSORS_DTYPE_BYTES)}")
    # A float32 checkpoint is served in 16 bits; the float32 scales of a 16-bit one stay float32.
    f32 = 2 if dtype == "float32" else 4

    def stored_bytes(counts: Mapping[str, int]) -> float:
        return sum(count * (f32 if name == "F32" else SAFETENSORS_DTYPE_BYTES[name]) for name, count in counts.items())

    latent = text.get("kv_lora_rank")
    if latent:
        kv_heads, head_dim = 1, int(latent) + _int(text, "qk_rope_head_dim")
    else:
        head_dim = int(text.get("head_dim") or _int(text, "hidden_size") // heads)
    window, sliding = _sliding_layers(text, layers)
    chunk, chunked = _chunked_layers(text, layers)
    quantization_config = config.get("quantization_config") or text.get("quantization_config") or {}
    quantization = quantization_config.get("quant_method")
    if quantization == COMPRESSED_TENSORS:
        quantization = compressed_tensors_scheme(quantization_config)
    experts = text.get("num_local_experts") or text.get("num_experts") or text.get("n_routed_experts") or 0
    served_dtype = "bfloat16" if dtype == "float32" else dtype
    try:
        return ModelFacts(
            parameters=sum(stored.values()),
            layers=layers,
            attention_heads=heads,
            kv_heads=kv_heads,
            head_dim=head_dim,
            max_context=_int(text, "max_position_embeddings"),
            dtype=served_dtype,
            bytes_per_parameter=DTYPE_BYTES[served_dtype],
            source=source,
            quantization=str(quantization) if quantization else None,
            experts=int(experts),
            active_experts=int(text.get("num_experts_per_tok") or 0) if experts else 0,
            sliding_window=window if sliding else None,
            sliding_layers=sliding,
            latent_attention=bool(latent),
            # The experts' own split is the fused MoE kernels' matter: only a dense MLP is held to the groups.
            intermediate_size=0 if experts else int(text.get("intermediate_size") or 0),
            hidden_size=int(text.get("hidden_size") or 0),
            vocab_size=int(text.get("vocab_size") or 0),
            # Mixtral and gpt-oss name an expert's width `intermediate_size`; Qwen and DeepSeek `moe_intermediate_size`.
            expert_intermediate_size=int(text.get("moe_intermediate_size") or text.get("intermediate_size") or 0)
            if experts
            else 0,
            quantization_group=_group(quantization_config),
            expert_parameters=sum((experts_stored or {}).values()),
            stored_expert_bytes=stored_bytes(experts_stored) if experts and experts_stored else None,
            stored_weight_bytes=stored_bytes(stored),
            attention_chunk=chunk if chunked else None,
            chunked_layers=chunked,
            vision_encoder=_vision_encoder(config),
        )
    except ValueError as error:
        raise ModelConfigError(str(error)) from None


def compressed_tensors_scheme(quantization_config: Mapping[str, Any]) -> str:
    """The key of QUANTIZATION_BYTES for a compressed-tensors checkpoint: the scheme vLLM v0.32.0 picks from its
    first `config_groups` entry on CUDA (compressed_tensors/compressed_tensors.py `_get_scheme_from_parts`), or plain
    `compressed-tensors` for one not sized here (NVFP4, MXFP4, W4A8 and the rest), whose stored bytes still count.

    - `pack-quantized` int weights of 4 or 8 bits per group or channel, no input activations: `CompressedTensorsWNA16`,
      `w4a16` or `w8a16` (`_is_wNa16_group_channel`);
    - in an activation-quantization format (utils.py `is_activation_quantization_format`: `naive-quantized`,
      `int-quantized`, `float-quantized`), float weights of 8 bits per tensor, channel or block: `w8a8-fp8` with
      float input activations (`_is_fp8_w8a8`), else `w8a16-fp8` (`_is_fp8_w8a16`); int weights of 8 bits per tensor
      or channel with 8-bit input activations: `w8a8-int8` (`_is_static_tensor_w8a8`, `_is_dynamic_token_w8a8`).
    """
    group = _first_scheme(quantization_config)
    weights, inputs = group.get("weights") or {}, group.get("input_activations") or {}
    layout = group.get("format") or quantization_config.get("format")
    kind, bits, strategy = weights.get("type"), weights.get("num_bits"), weights.get("strategy")
    if layout == "pack-quantized" and kind == "int" and bits in (4, 8) and not inputs and strategy in _ROW_STRATEGIES:
        return f"{COMPRESSED_TENSORS}/w{bits}a16"
    if layout in _ACTIVATION_FORMATS and bits == 8:
        if kind == "float" and strategy in (*_WHOLE_STRATEGIES, "block"):
            fp8_inputs = inputs.get("type") == "float"
            return f"{COMPRESSED_TENSORS}/w8a8-fp8" if fp8_inputs else f"{COMPRESSED_TENSORS}/w8a16-fp8"
        if kind == "int" and strategy in _WHOLE_STRATEGIES and inputs.get("num_bits") == 8:
            return f"{COMPRESSED_TENSORS}/w8a8-int8"
    return COMPRESSED_TENSORS


def _first_scheme(quantization_config: Mapping[str, Any]) -> Mapping[str, Any]:
    for scheme in (quantization_config.get("config_groups") or {}).values():
        return scheme if isinstance(scheme, Mapping) else {}
    return {}


def _group(quantization_config: Mapping[str, Any]) -> int:
    """Weights per scale along a row: AWQ's and GPTQ's `group_size`, block FP8's `weight_block_size` [n, k] (k
    along the inputs), compressed-tensors' first scheme's `weights.group_size` or block `block_structure` [n, k]; 0
    for none (-1 is a whole row)."""
    weights = _first_scheme(quantization_config).get("weights") or {}
    block = quantization_config.get("weight_block_size") or weights.get("block_structure")
    if isinstance(block, list) and len(block) == 2:
        return int(block[1])
    group = quantization_config.get("group_size") or weights.get("group_size")
    return group if isinstance(group, int) and group > 0 else 0


def _sliding_layers(text: Mapping[str, Any], layers: int) -> tuple[int | None, int]:
    """(window, layers in it) where the config lists which layers slide; (None, 0) otherwise."""
    window = text.get("sliding_window")
    if not window:
        return None, 0
    layer_types = text.get("layer_types")
    if isinstance(layer_types, list):
        return int(window), sum(1 for kind in layer_types[:layers] if kind == "sliding_attention")
    pattern = text.get("sliding_window_pattern")
    if isinstance(pattern, int) and pattern > 0:
        # Gemma 3: layer i (from 0) is global when (i + 1) % pattern == 0 (transformers' Gemma3TextConfig).
        return int(window), layers - layers // pattern
    return None, 0


def _vision_encoder(config: Mapping[str, Any]) -> str:
    """The note a multimodal model's row carries (its `vision_config`'s `model_type` names the encoder)."""
    vision = config.get("vision_config")
    if not isinstance(vision, Mapping):
        return ""
    return ENCODER_NOT_PROFILED.format(vision.get("model_type") or "vision_config")


def _chunked_layers(text: Mapping[str, Any], layers: int) -> tuple[int | None, int]:
    """(chunk, layers in it) of Llama 4's chunked local attention: vLLM chunks the RoPE layers, those whose
    `no_rope_layers` entry is not 0 (vllm/model_executor/models/llama4.py `use_chunked_local_attn` at v0.32.0); a
    config without that list has transformers fill it, the NoPE layer every `no_rope_layer_interval` (default 4)
    layers (`Llama4TextConfig`: `int((i + 1) % no_rope_layer_interval != 0)`)."""
    chunk = text.get("attention_chunk_size")
    if not isinstance(chunk, int) or chunk <= 0:
        return None, 0
    rope_layers = text.get("no_rope_layers")
    if isinstance(rope_layers, list) and rope_layers:
        return chunk, sum(1 for uses_rope in rope_layers[:layers] if uses_rope)
    interval = text.get("no_rope_layer_interval") or 4
    return chunk, layers - layers // int(interval)


def _int(config: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ModelConfigError(f"{key} is {value!r}; a positive integer is needed")
    return value
