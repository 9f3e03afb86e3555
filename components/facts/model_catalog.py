"""What the fits gate needs to know of a model: the open models users deploy most, as their published
checkpoints describe them.

Standard library only: the settings and the placement model both read it. Each row gives the total
parameters (all experts of a mixture-of-experts model: vLLM loads every expert on the GPUs), the
transformer's layers, attention heads, key/value heads and head dimension, the context length vLLM accepts
without rope scaling (`max_position_embeddings` of `config.json`, which vLLM reads as the model's maximum
`max_model_len`; a tokenizer's smaller `model_max_length` would lower it further and is not recorded), the dtype
of the published weights (`torch_dtype`) and the bytes one parameter takes in it.

Sources: each model's `config.json` on the Hugging Face Hub at its `main` revision
(https://huggingface.co/<model>/blob/main/config.json) for layers, heads, key/value heads, head dimension
(`head_dim`, else `hidden_size / num_attention_heads`), context and dtype, and the model card
(https://huggingface.co/<model>) for the parameter count. The Hub itself was not reachable when the table was
written (2026-12-02); the rows were compared with copies of those files quoted in public repositories
(transformers-style configs of Llama 3.1 8B and 70B, 3.2 1B and 3B, 3.3 70B, Qwen2.5 7B/14B/32B, Qwen3 0.6B,
1.7B, 4B and 8B, Mixtral 8x7B, Gemma 2 2B/9B/27B, Phi-3-mini; Qwen's own model cards for the Qwen2.5 sizes).
The distills share the shapes of their base models (Qwen2.5-Math-1.5B, Qwen2.5-7B/14B/32B, Llama 3.1 8B and
3.3 70B) with a 131072-token context. Parameter counts of 70B rows are Meta's 70,562,938,880.

Quantized checkpoints, mixtures of experts, sliding-window and multi-latent attention (the rows after the dense
ones) carry what the arithmetic needs beyond the shape: the parameters stored in the quantized format (counted
from `config.json`'s shapes: the linear layers' in_features x out_features, the rest staying in `torch_dtype`),
the method (`quantization_config.quant_method`), the sliding window and how many layers use it (`layer_types`, or
Gemma 3's `sliding_window_pattern`), and for DeepSeek's multi-latent attention the latent each layer caches
(`kv_lora_rank + qk_rope_head_dim`). Each such row's comment works its counts from the config.
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
# - compressed-tensors (w4a16, symmetric): `weight_packed` int32 of 8 weights and a `weight_scale` per group in
#   the model's 16-bit dtype, no zero points (compressed_tensors/schemes/compressed_tensors_wNa16.py).
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
        "compressed-tensors": 0.5 + 2 / 128,
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
    """The quantization method of the checkpoint (`quantization_config.quant_method`), a key of
    QUANTIZATION_BYTES; None for unquantized weights."""
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
    block's `weight_block_size` of FP8), 0 where not grouped or not recorded."""
    expert_parameters: int = 0
    """Parameters of the routed experts (counted in `parameters`), 0 where not recorded: with expert parallelism
    each GPU keeps whole experts of them."""
    stored_expert_bytes: float | None = None
    """Bytes of the routed experts' tensors as the checkpoint stores them (read from the Hub)."""
    stored_weight_bytes: float | None = None
    """Bytes of the weights as the checkpoint's safetensors files store them, scales included (facts/model_config.py,
    read from the Hub); None for the catalog's rows and `modelFacts`, whose bytes follow from the counts above."""

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
# group straddling TP ranks cannot be fixed by padding"); block FP8 refuses inputs and outputs per shard that are
# not whole blocks (quantization/utils/fp8_utils.py `validate_fp8_block_shape`). MXFP4 pads its experts instead.
GROUPED_METHODS = ("awq", "gptq", "compressed-tensors", "fp8")


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


def _hf(model: str) -> str:
    return f"https://huggingface.co/{model}/blob/main/config.json and model card, read 2026-12-01"


def _bf16(
    model: str, parameters: float, layers: int, heads: int, kv_heads: int, head_dim: int, context: int
) -> tuple[str, ModelFacts]:
    bytes_per_parameter = DTYPE_BYTES["bfloat16"]
    facts = ModelFacts(
        round(parameters * 1e9), layers, heads, kv_heads, head_dim, context, "bfloat16", bytes_per_parameter, _hf(model)
    )
    return model, facts


def _row(model: str, source: str, **facts) -> tuple[str, ModelFacts]:
    """A row beyond the dense bf16 ones, every field named."""
    return model, ModelFacts(**facts, bytes_per_parameter=DTYPE_BYTES[facts["dtype"]], source=source)


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
    # 28,991,029,248; 235B-A22B 94 x 128 x 3 x 4096 x 1536 = 227,096,395,776.
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

# Rows: (model id, parameters in billions, layers, attention heads, KV heads, head dim, context).
MODELS: Mapping[str, ModelFacts] = MappingProxyType(
    dict(
        [
            # Qwen2.5: config.json's max_position_embeddings is 32768; the card's 131072 needs YaRN rope scaling.
            _bf16("Qwen/Qwen2.5-0.5B-Instruct", 0.49, 24, 14, 2, 64, 32768),
            _bf16("Qwen/Qwen2.5-1.5B-Instruct", 1.54, 28, 12, 2, 128, 32768),
            _bf16("Qwen/Qwen2.5-3B-Instruct", 3.09, 36, 16, 2, 128, 32768),
            _bf16("Qwen/Qwen2.5-7B-Instruct", 7.61, 28, 28, 4, 128, 32768),
            _bf16("Qwen/Qwen2.5-14B-Instruct", 14.7, 48, 40, 8, 128, 32768),
            _bf16("Qwen/Qwen2.5-32B-Instruct", 32.5, 64, 40, 8, 128, 32768),
            _bf16("Qwen/Qwen2.5-72B-Instruct", 72.7, 80, 64, 8, 128, 32768),
            # Qwen3 dense: max_position_embeddings 40960 (32768 of context plus room to generate, per the card).
            _bf16("Qwen/Qwen3-0.6B", 0.6, 28, 16, 8, 128, 40960),
            _bf16("Qwen/Qwen3-1.7B", 1.7, 28, 16, 8, 128, 40960),
            _bf16("Qwen/Qwen3-4B", 4.0, 36, 32, 8, 128, 40960),
            _bf16("Qwen/Qwen3-8B", 8.2, 36, 32, 8, 128, 40960),
            _bf16("Qwen/Qwen3-14B", 14.8, 40, 40, 8, 128, 40960),
            _bf16("Qwen/Qwen3-32B", 32.8, 64, 64, 8, 128, 40960),
            _bf16("meta-llama/Llama-3.1-8B-Instruct", 8.03, 32, 32, 8, 128, 131072),
            _bf16("meta-llama/Llama-3.1-70B-Instruct", 70.56, 80, 64, 8, 128, 131072),
            _bf16("meta-llama/Llama-3.2-1B-Instruct", 1.24, 16, 32, 8, 64, 131072),
            _bf16("meta-llama/Llama-3.2-3B-Instruct", 3.21, 28, 24, 8, 128, 131072),
            _bf16("meta-llama/Llama-3.3-70B-Instruct", 70.56, 80, 64, 8, 128, 131072),
            _bf16("mistralai/Mistral-7B-Instruct-v0.3", 7.25, 32, 32, 8, 128, 32768),
            _bf16("mistralai/Mixtral-8x7B-Instruct-v0.1", 46.7, 32, 32, 8, 128, 32768),
            # Gemma 2 alternates 4096-token sliding-window and global layers; counting every layer as global
            # at most doubles the cache of a sequence, an overestimate on the safe side.
            _bf16("google/gemma-2-2b-it", 2.61, 26, 8, 4, 256, 8192),
            _bf16("google/gemma-2-9b-it", 9.24, 42, 16, 8, 256, 8192),
            _bf16("google/gemma-2-27b-it", 27.2, 46, 32, 16, 128, 8192),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", 1.78, 28, 12, 2, 128, 131072),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", 7.62, 28, 28, 4, 128, 131072),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", 14.8, 48, 40, 8, 128, 131072),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", 32.8, 64, 40, 8, 128, 131072),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Llama-8B", 8.03, 32, 32, 8, 128, 131072),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Llama-70B", 70.56, 80, 64, 8, 128, 131072),
            _bf16("microsoft/Phi-3-mini-4k-instruct", 3.821, 32, 32, 32, 96, 4096),
            _bf16("microsoft/Phi-3-mini-128k-instruct", 3.821, 32, 32, 32, 96, 131072),
            _bf16("microsoft/Phi-4-mini-instruct", 3.84, 32, 24, 8, 128, 131072),
            _bf16("microsoft/phi-4", 14.7, 40, 40, 10, 128, 16384),
            *EXTRA_ROWS,
        ]
    )
)
"""The catalog, by Hugging Face model id."""

_BY_FOLDED = {name.casefold(): facts for name, facts in MODELS.items()}


def lookup(model: str) -> ModelFacts | None:
    """The catalog's facts of `model`; the Hub resolves ids without regard to case, and so does this."""
    return _BY_FOLDED.get(model.casefold())
