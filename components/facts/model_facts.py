"""A model's facts as the fits gate reads them, and the rules vLLM applies to its shape whatever the GPUs.

Standard library only: the settings, the placement model and the catalog (facts/model_catalog.py) read it. The bytes
per quantized weight and per KV cache element are vLLM v0.32.0's, cited beside each table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

MODEL_FACTS_KEY = "vllm.modelFacts"
"""The config key that gives the facts of a model outside the catalog (settings/vllm.py reads it; the fits gate
names it)."""
# Bytes per element of the dtypes published checkpoints use.
DTYPE_BYTES: Mapping[str, float] = MappingProxyType({"float32": 4, "bfloat16": 2, "float16": 2, "fp8": 1})
# Bytes one quantized weight takes on the GPU with its scales and zero points, as vLLM v0.32.0 allocates them
# (vllm/model_executor/layers/quantization/, read in the v0.32.0 wheel), for a group size of 128 where the
# method groups:
# - fp8: a float8 weight (1 byte) and, for block-quantized checkpoints (`weight_block_size` [128, 128]), one
#   float32 scale per 128 x 128 tile (fp8.py); per-tensor scales are smaller still.
# - int8 (w8a8): one byte and a float32 scale per output channel, under 0.1% for rows of 4096 and more; counted
#   as 1.
# - awq: `qweight` int32 packing 8 weights (0.5 byte each), `qzeros` int32 packing 8 zero points per group
#   (0.5/128) and float16 `scales` per group (2/128) (auto_awq.py `create_weights`).
# - gptq: the same `qweight`, `qzeros` and `scales` (auto_gptq.py); its int32 `g_idx` per input row (4 bytes
#   per row, under 0.1% of the weights for 4096 outputs) is left out.
# - compressed-tensors, keyed by the scheme vLLM picks from the checkpoint's `config_groups`
#   (compressed_tensors/compressed_tensors.py `_get_scheme_from_parts`; the names are facts/model_config.py
#   `COMPRESSED_TENSORS_SCHEMES`):
#   - w4a16 and w8a16 (`CompressedTensorsWNA16`, symmetric): `weight_packed` int32 of 32 / num_bits weights and a
#     `weight_scale` per group in the model's 16-bit dtype, no zero points (schemes/compressed_tensors_wNa16.py):
#     0.5 + 2/128 and 1 + 2/128;
#   - w8a8-int8 (`CompressedTensorsW8A8Int8`): an int8 weight and a float32 scale per output channel or per
#     tensor (schemes/compressed_tensors_w8a8_int8.py), counted as 1 like int8;
#   - w8a8-fp8 and w8a16-fp8 (`CompressedTensorsW8A8Fp8`, `CompressedTensorsW8A16Fp8`, the RedHatAI "-FP8" and
#     "-FP8-dynamic" checkpoints): a float8 weight and a float32 scale per tensor or output channel
#     (schemes/compressed_tensors_w8a8_fp8.py `create_fp8_scale_parameter`), under 0.1% for rows of 4096 and more,
#     counted as 1; block-quantized ones add a scale per 128 x 128 tile as `fp8` does, also under 0.1%.
# - mxfp4: two 4-bit values per uint8 and one uint8 scale per block of 32 (mxfp4.py `create_weights`,
#   `mxfp4_block = 32`).
# - bitsandbytes (4-bit NF4/FP4): two values per byte and a float32 absmax per block of 64 without double
#   quantization (bitsandbytes' default `blocksize` 64); double quantization stores less, so this is the safe side.
QUANTIZATION_BYTES: Mapping[str, float] = MappingProxyType(
    {
        "fp8": 1 + 4 / (128 * 128),
        "int8": 1.0,
        "awq": 0.5 + 0.5 / 128 + 2 / 128,
        "gptq": 0.5 + 0.5 / 128 + 2 / 128,
        "compressed-tensors/w4a16": 0.5 + 2 / 128,
        "compressed-tensors/w8a16": 1 + 2 / 128,
        "compressed-tensors/w8a8-int8": 1.0,
        "compressed-tensors/w8a8-fp8": 1.0,
        "compressed-tensors/w8a16-fp8": 1.0,
        "mxfp4": 0.5 + 1 / 32,
        "bitsandbytes": 0.5 + 4 / 64,
    }
)
# Bytes per element of the `--kv-cache-dtype` values whose element is one plain byte or two: vLLM stores them as
# these torch dtypes (vllm/utils/torch_utils.py `STR_DTYPE_TO_TORCH_DTYPE` at v0.32.0: fp8 variants as uint8).
# Other values (packed 4-bit, per-token-head scales) are sized as the model's dtype, an overestimate.
KV_CACHE_DTYPE_BYTES: Mapping[str, float] = MappingProxyType(
    {"bfloat16": 2, "float16": 2, "fp8": 1, "fp8_e4m3": 1, "fp8_e5m2": 1, "fp8_inc": 1}
)

# What the arithmetic leaves out of a multimodal model: at start-up vLLM runs a batch of the largest image inputs
# through the vision encoder (vllm/v1/worker/gpu_model_runner.py `profile_run` at v0.32.0: `embed_multimodal` on
# `max_mm_items_per_batch` dummy items of the modality with the most tokens, their outputs held in the encoder cache
# while the language model's dummy batch runs). The encoder's weights are in the parameter count; facts/encoder_peak.py
# sizes the peak for a row that records its `VisionTower`, and a row without one (or a model read from the Hub, whose
# tower is not read) carries this note instead.
ENCODER_NOT_PROFILED = "vision encoder ({}) weights counted but not its start-up profiling peak"
ENCODER_COUNTED = "vision encoder ({}) weights counted, its start-up profiling peak as the row's encoder says"


@dataclass(frozen=True)
class VisionTower:
    """A multimodal model's vision encoder as vLLM's start-up profiling runs it on images of the size with the
    most features (facts/encoder_peak.py sizes the peak from it)."""

    name: str
    """The encoder's name for the row (`SigLIP`)."""
    hidden_size: int
    """`vision_config.hidden_size`: the width of the encoder's residual stream (the peak is one layer's, whatever
    `num_hidden_layers`)."""
    intermediate_size: int
    """`vision_config.intermediate_size`: the width of its MLP."""
    attention_heads: int
    """`vision_config.num_attention_heads`: FlashAttention takes head sizes that are multiples of 8 up to 256."""
    mlp_tensors: int
    """Tensors of the MLP's width alive at once: 2 for fc1's output and its activation, 3 for a gated MLP."""
    patch_size: int
    """`vision_config.patch_size`: each patch is 3 x patch_size^2 pixel values."""
    patches_per_item: int
    """Patches one image gives the encoder (every crop or tile of it)."""
    tokens_per_item: int
    """Embeddings the projector gives the language model per image (vLLM's `max_tokens_per_mm_item`)."""
    output_size: int
    """Width of those embeddings: the language model's `hidden_size`."""


@dataclass(frozen=True)
class ModelFacts:
    """One model's shape, as the fits gate reads it."""

    parameters: int
    """Total parameters, every expert included."""
    layers: int
    """Transformer layers (`num_hidden_layers`); each keeps its own key/value cache."""
    attention_heads: int
    """Query heads (`num_attention_heads`); the tensor parallel size must divide them."""
    kv_heads: int
    """Key/value heads (`num_key_value_heads`; equal to `attention_heads` without grouped-query attention)."""
    head_dim: int
    """Elements per head (`head_dim`, else `hidden_size / num_attention_heads`)."""
    max_context: int
    """The longest `max_model_len` vLLM accepts without rope scaling (`max_position_embeddings`)."""
    dtype: str
    """Dtype or quantization of the published weights (`torch_dtype`)."""
    bytes_per_parameter: float
    """Bytes one parameter takes in `dtype`."""
    source: str = ""
    """Where the figures come from."""
    quantization: str | None = None
    """The quantization method of the checkpoint (`quantization_config.quant_method`; compressed-tensors with its
    scheme, `compressed-tensors/w8a8-fp8`), a key of QUANTIZATION_BYTES; plain `compressed-tensors` for a scheme
    read from the Hub and sized by its stored bytes; None for unquantized weights."""
    quantized_parameters: int = 0
    """Parameters stored in `quantization`'s format; the others stay in `dtype`."""
    experts: int = 0
    """Routed experts per layer of a mixture of experts (0 for a dense model). vLLM keeps every expert's weights
    on the GPUs (`parameters` counts them all), whatever few each token uses."""
    active_experts: int = 0
    """Experts each token is routed to (`num_experts_per_tok`)."""
    sliding_window: int | None = None
    """Tokens a sliding-window layer attends to (`sliding_window`), None without such layers."""
    sliding_layers: int = 0
    """Layers that use the sliding window; the others attend to the whole sequence."""
    latent_attention: bool = False
    """Multi-latent attention (DeepSeek's MLA): each layer caches one latent of `head_dim` elements per token
    (`kv_lora_rank + qk_rope_head_dim`) for all heads, with `kv_heads` 1, and every tensor parallel rank keeps it
    whole."""
    intermediate_size: int = 0
    """Inputs of the MLP's down projection (`intermediate_size`; a mixture of experts' `moe_intermediate_size`), 0
    where not recorded: with `quantization_group`, what a tensor parallel shard must split into whole groups."""
    quantization_group: int = 0
    """Weights per scale along a row of a grouped method (`group_size` of AWQ, GPTQ or compressed-tensors, the
    block's `weight_block_size` of FP8 or `block_structure` of compressed-tensors), 0 where not grouped or not
    recorded."""
    expert_parameters: int = 0
    """Parameters of the routed experts (counted in `parameters`), 0 where not recorded: with expert parallelism
    each GPU keeps whole experts of them."""
    stored_expert_bytes: float | None = None
    """Bytes of the routed experts' tensors as the checkpoint stores them (read from the Hub)."""
    stored_weight_bytes: float | None = None
    """Bytes of the weights as the checkpoint's safetensors files store them, scales included (facts/model_config.py,
    read from the Hub); None for the catalog's rows and `modelFacts`, whose bytes follow from the counts above."""
    attention_chunk: int | None = None
    """Tokens of a chunk of chunked local attention (Llama 4's `attention_chunk_size`), None without such layers."""
    chunked_layers: int = 0
    """Layers that attend within their chunk only (Llama 4's RoPE layers); the others attend to the whole sequence."""
    hidden_size: int = 0
    """Width of the residual stream (`hidden_size`), 0 where not recorded: with `vocab_size` and the MLP's width,
    what the activation peak of a batch budget above vLLM's default needs (facts/activation_peak.py)."""
    vocab_size: int = 0
    """Tokens of the vocabulary (`vocab_size`): the sampler's logits are one row of them per sequence; 0 where not
    recorded."""
    expert_intermediate_size: int = 0
    """Width of one routed expert's MLP (`moe_intermediate_size`, or Mixtral's and gpt-oss's `intermediate_size`),
    0 where not recorded or for a dense model."""
    vision_encoder: str = ""
    """For a multimodal model whose encoder's start-up profiling the arithmetic does not count: which encoder, and
    why not (facts/model_memory.py's reserve covers the language model's activations only)."""
    vision_tower: VisionTower | None = None
    """A multimodal model's vision encoder with the figures its start-up profiling peak needs, None where they are
    not recorded (then `vision_encoder` says the peak is not counted)."""

    def __post_init__(self) -> None:
        counts = (self.parameters, self.layers, self.attention_heads, self.kv_heads, self.head_dim, self.max_context)
        if min(counts) <= 0 or self.bytes_per_parameter <= 0:
            raise ValueError(f"{self}: every count and bytes_per_parameter must be positive")
        if self.attention_heads % self.kv_heads:
            raise ValueError(f"{self}: attention_heads must be a multiple of kv_heads")
        # Stored bytes need no table: any method vLLM loads is counted as its files store it.
        if self.quantization not in (None, *QUANTIZATION_BYTES) and self.stored_weight_bytes is None:
            raise ValueError(f"{self}: quantization must be one of {', '.join(QUANTIZATION_BYTES)}")
        if not 0 <= self.quantized_parameters <= self.parameters:
            raise ValueError(f"{self}: quantized_parameters must be between 0 and parameters")
        if not 0 <= self.sliding_layers <= self.layers or (self.sliding_layers > 0) != bool(self.sliding_window):
            raise ValueError(f"{self}: sliding_layers needs a sliding_window and at most `layers` layers")
        local_layers = self.sliding_layers + self.chunked_layers
        if local_layers > self.layers or (self.chunked_layers > 0) != bool(self.attention_chunk):
            raise ValueError(f"{self}: chunked_layers needs an attention_chunk, and local layers at most `layers`")

    @property
    def weight_bytes(self) -> float:
        """Bytes of the weights on the GPUs: the quantized parameters at their method's bytes (scales included),
        the rest at `bytes_per_parameter`; or the bytes the checkpoint's files store, where they were read."""
        if self.stored_weight_bytes is not None:
            return self.stored_weight_bytes
        quantized = self.quantized_parameters if self.quantization else 0
        packed = quantized * QUANTIZATION_BYTES[self.quantization] if self.quantization else 0.0
        return packed + (self.parameters - quantized) * self.bytes_per_parameter

    @property
    def expert_bytes(self) -> float | None:
        """Bytes of the routed experts' weights, None where not recorded: as stored, else `expert_parameters` at
        the method's bytes when the experts are the quantized parameters (gpt-oss), or at `bytes_per_parameter`."""
        if self.stored_expert_bytes is not None:
            return self.stored_expert_bytes
        if not self.expert_parameters:
            return None
        packed = QUANTIZATION_BYTES.get(self.quantization or "")
        if packed is not None and self.quantized_parameters >= self.expert_parameters:
            return self.expert_parameters * packed
        return self.expert_parameters * self.bytes_per_parameter

    @property
    def layout(self) -> str:
        """How the weights and the attention are laid out, in a few words for the plan's rows."""
        words = [f"{self.quantization} weights" if self.quantization else f"{self.dtype} weights"]
        if self.experts:
            words.append(f"{self.experts} experts ({self.active_experts} per token), all resident")
        if self.latent_attention:
            words.append(f"multi-latent attention ({self.head_dim} cached per token and layer)")
        if self.sliding_layers:
            words.append(f"{self.sliding_layers} of {self.layers} layers in a {self.sliding_window}-token window")
        if self.chunked_layers:
            words.append(f"{self.chunked_layers} of {self.layers} layers in {self.attention_chunk}-token chunks")
        if self.vision_tower:
            words.append(ENCODER_COUNTED.format(self.vision_tower.name))
        elif self.vision_encoder:
            words.append(self.vision_encoder)
        return ", ".join(words)

    def kv_cache_bytes(self, kv_cache_dtype: str | None = None) -> float:
        """Bytes per element of the key/value cache: `kv_cache_dtype` when it has a plain size, else the model's
        dtype, which is vLLM's default (`cache_dtype = "auto"`, vllm/config/cache.py at v0.32.0)."""
        if kv_cache_dtype is not None and kv_cache_dtype in KV_CACHE_DTYPE_BYTES:
            return KV_CACHE_DTYPE_BYTES[kv_cache_dtype]
        return DTYPE_BYTES.get(self.dtype, 2)


def shape_problems(
    facts: ModelFacts, tensor_parallel_size: int, max_model_len: int, *, context_overridden: bool = False
) -> list[tuple[str, str]]:
    """What vLLM refuses at start-up whatever the GPUs, as (setting, problem): a tensor parallel size that does
    not divide the attention heads (vllm/config/model.py `verify_with_parallel_config` at v0.32.0) and a
    `max_model_len` beyond the model's context (`_get_and_verify_max_len` there), unless `context_overridden`
    (`--hf-overrides` may add rope scaling, which raises it). The settings and the fits gate both ask this."""
    problems = []
    if facts.attention_heads % tensor_parallel_size:
        problems.append(
            (
                "tensorParallelSize",
                f"tensorParallelSize {tensor_parallel_size} does not divide the {facts.attention_heads} attention heads",
            )
        )
    problems += [("tensorParallelSize", problem) for problem in group_problems(facts, tensor_parallel_size)]
    if max_model_len > facts.max_context and not context_overridden:
        problems.append(("maxModelLen", f"maxModelLen {max_model_len} > the model's context {facts.max_context}"))
    return problems


# Methods whose groups may not straddle two tensor parallel shards, at vLLM v0.32.0: AWQ refuses a shard of a
# row-parallel layer that is not whole groups (quantization/auto_awq.py `create_weights`: "The input size is not
# aligned with the quantized weight shape. This can be caused by too large tensor parallel size."); GPTQ and
# compressed-tensors' wNa16 find no kernel for it (kernels/linear/mixed_precision/marlin.py `can_implement`: "A
# group straddling TP ranks cannot be fixed by padding"); block FP8, compressed-tensors' block strategy included
# (schemes/compressed_tensors_w8a8_fp8.py `create_weights`), refuses inputs and outputs per shard that are not
# whole blocks (quantization/utils/fp8_utils.py `validate_fp8_block_shape`). MXFP4 pads its experts instead.
GROUPED_METHODS = (
    "awq",
    "gptq",
    "fp8",
    "compressed-tensors/w4a16",
    "compressed-tensors/w8a16",
    "compressed-tensors/w8a8-fp8",
    "compressed-tensors/w8a16-fp8",
)


def group_problems(facts: ModelFacts, tensor_parallel_size: int) -> list[str]:
    """Shards of the quantized layers that split a group, as vLLM refuses them."""
    group, tp = facts.quantization_group, tensor_parallel_size
    if tp == 1 or not group or facts.quantization not in GROUPED_METHODS:
        return []
    # Row-parallel layers split their inputs: the attention's output projection and the MLP's down projection.
    # Block FP8 also wants whole blocks of the column-parallel outputs, the queries and gate and up, which are
    # the same sizes (for square blocks, [128, 128] in the checkpoints the catalog has).
    splits = [] if facts.latent_attention else [("attention output's inputs", facts.attention_heads * facts.head_dim)]
    if facts.intermediate_size:
        splits.append(("down projection's inputs", facts.intermediate_size))
    problems = []
    for what, size in splits:
        if size % tp or (size // tp) % group:
            problems.append(
                f"tensorParallelSize {tp} splits the {size} {what} into {size / tp:g} per GPU, not whole "
                f"{facts.quantization} groups of {group}"
            )
    return problems


def catalog_row(model: str, source: str, **facts) -> tuple[str, ModelFacts]:
    """A catalog row beyond the dense bf16 ones, every field named."""
    return model, ModelFacts(**facts, bytes_per_parameter=DTYPE_BYTES[facts["dtype"]], source=source)
