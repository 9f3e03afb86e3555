"""The facts of a model outside the catalog (`vllm.modelFacts`): its shape as the fits gate reads it
(facts/model_facts.py `ModelFacts`), validated before any resource."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BeforeValidator

from ..facts import vllm_capability
from ..facts.model_catalog import DTYPE_BYTES, MODEL_FACTS_KEY, ModelFacts
from .errors import ConfigProblem, _bad
from .fields import rule
from .section import SectionModel

# The quantizations `modelFacts` accepts: those the byte table sizes (facts/model_facts.py `QUANTIZATION_BYTES`)
# that vLLM knows; the table's bitsandbytes, which a checkpoint read from the Hub may name, vLLM v0.32.0 refuses on
# every GPU (facts/vllm_capability.py `UNKNOWN_METHODS`), so the settings refuse it at once (`_known_to_vllm`).
Quantization = Literal[
    "fp8",
    "int8",
    "awq",
    "gptq",
    "compressed-tensors/w4a16",
    "compressed-tensors/w8a16",
    "compressed-tensors/w8a8-int8",
    "compressed-tensors/w8a8-fp8",
    "compressed-tensors/w8a16-fp8",
    "mxfp4",
]


def _known_to_vllm(value: Any) -> Any:
    """A quantization method vLLM knows: one it does not would fail the fits gate on every GPU, found only by the
    plan or at preview; here it fails with the config's other problems, saying why."""
    if value in vllm_capability.UNKNOWN_METHODS:
        known = ", ".join(get_args(Quantization))
        raise _bad(value, known, f"vLLM {vllm_capability.VLLM_VERSION} knows no quantization method")
    return value


class ModelFactsSettings(SectionModel):
    """The shape of a model outside the catalog (`vllm.modelFacts`), read from its `config.json` and model card;
    the plan's fits gate (`model-fits-gpu`) sizes the model with them."""

    parameters: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1 (total parameters, every expert)")]
    """Total parameters, every expert of a mixture of experts included."""
    layers: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1")]
    """Transformer layers (`num_hidden_layers`)."""
    attention_heads: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1")]
    """Query heads (`num_attention_heads`)."""
    kv_heads: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1")]
    """Key/value heads (`num_key_value_heads`), a divisor of `attentionHeads`."""
    head_dim: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1")]
    """Elements per head (`head_dim`, else `hidden_size / num_attention_heads`)."""
    max_context: Annotated[int, rule(lambda n: n >= 16, "an integer >= 16")]
    """The longest context without rope scaling (`max_position_embeddings`)."""
    dtype: Literal["bfloat16", "float16", "float32", "fp8"] = "bfloat16"
    """Dtype of the published weights (`torch_dtype`); the KV cache keeps the same."""
    bytes_per_parameter: Annotated[float, rule(lambda x: 0 < x <= 4, "a number with 0 < x <= 4")] | None = None
    """Bytes one parameter takes, for quantized weights (0.5 for 4-bit). Default: the bytes of `dtype`."""
    quantization: Annotated[Quantization, BeforeValidator(_known_to_vllm)] | None = None
    """The checkpoint's quantization method (`quantization_config.quant_method` of `config.json`; for
    compressed-tensors its scheme, `compressed-tensors/w8a8-fp8` for the "-FP8" checkpoints); its weights take the
    method's bytes with their scales (0.53125 a weight for MXFP4, 0.5195 for AWQ or GPTQ with groups of 128).
    Default: none."""
    quantized_parameters: Annotated[int, rule(lambda n: n >= 0, "an integer >= 0")] = 0
    """Parameters stored in `quantization`'s format (the quantized linear layers: experts only for gpt-oss); the
    others take `bytesPerParameter`."""
    experts: Annotated[int, rule(lambda n: n >= 0, "an integer >= 0")] = 0
    """Routed experts per layer of a mixture of experts (`num_local_experts`, `num_experts`); every one stays on the
    GPUs, so `parameters` counts them all."""
    active_experts: Annotated[int, rule(lambda n: n >= 0, "an integer >= 0")] = 0
    """Experts per token (`num_experts_per_tok`)."""
    sliding_window: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1")] | None = None
    """Tokens a sliding-window layer attends to (`sliding_window`). Default: no such layers."""
    sliding_layers: Annotated[int, rule(lambda n: n >= 0, "an integer >= 0")] = 0
    """Layers that use the window (the `sliding_attention` entries of `layer_types`)."""
    attention_chunk: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1")] | None = None
    """Tokens of a chunk of chunked local attention (Llama 4's `attention_chunk_size`). Default: no such layers."""
    chunked_layers: Annotated[int, rule(lambda n: n >= 0, "an integer >= 0")] = 0
    """Layers that attend within their chunk only (Llama 4's RoPE layers, those whose `no_rope_layers` entry is 1);
    each keeps a chunk of KV cache per sequence rather than the whole context."""
    latent_attention: bool = False
    """Multi-latent attention (DeepSeek's MLA): give `kvHeads` 1 and `headDim` `kv_lora_rank + qk_rope_head_dim`."""
    intermediate_size: Annotated[int, rule(lambda n: n >= 0, "an integer >= 0")] = 0
    """Inputs of a dense MLP's down projection (`intermediate_size`), which a grouped `quantization` must split into
    whole groups per GPU, and the MLP's width in the activation peak of a larger batch budget; 0 leaves both
    uncounted."""
    quantization_group: Annotated[int, rule(lambda n: n >= 0, "an integer >= 0")] = 0
    """Weights per scale of a grouped `quantization` (`group_size`, or FP8's `weight_block_size`); 0 for none."""
    expert_parameters: Annotated[int, rule(lambda n: n >= 0, "an integer >= 0")] = 0
    """Parameters of the routed experts, within `parameters`: with `--enable-expert-parallel` each GPU keeps whole
    experts of them; 0 counts expert parallelism as tensor parallelism."""

    hidden_size: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1 (`hidden_size`)")] | None = None
    """Width of the residual stream (`hidden_size`): with `vocabSize` and the MLP's width (`intermediateSize`, or
    `expertIntermediateSize` with `experts`), what a `--max-num-batched-tokens` or `--max-num-seqs` above vLLM's
    default adds to the activation peak is counted by the fits gate. Default: not given, that growth not counted."""
    vocab_size: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1 (`vocab_size`)")] | None = None
    """Tokens of the vocabulary (`vocab_size`): the sampler's logits, one row of them per sequence. Default: not
    given."""
    expert_intermediate_size: (
        Annotated[int, rule(lambda n: n >= 1, "an integer >= 1 (`moe_intermediate_size`)")] | None
    ) = None
    """Width of one routed expert's MLP (`moe_intermediate_size`; Mixtral's and gpt-oss's `intermediate_size`),
    with `experts` only. Default: not given."""

    def problems(self) -> list[ConfigProblem]:
        problems = []
        if self.expert_intermediate_size is not None and not self.experts:
            problems.append(
                ConfigProblem(
                    "expertIntermediateSize",
                    f"{self.expert_intermediate_size!r} with experts 0; allowed: only with experts >= 1 (a dense "
                    "model's MLP width is intermediateSize)",
                )
            )
        if self.attention_heads % self.kv_heads:
            problems.append(
                ConfigProblem(
                    "kvHeads",
                    f"{self.kv_heads!r} does not divide attentionHeads {self.attention_heads}; allowed: a divisor "
                    "of attentionHeads",
                )
            )
        if self.expert_parameters > self.parameters:
            problems.append(
                ConfigProblem(
                    "expertParameters",
                    f"{self.expert_parameters!r} > parameters {self.parameters}; allowed: at most parameters",
                )
            )
        if self.quantized_parameters > self.parameters:
            problems.append(
                ConfigProblem(
                    "quantizedParameters",
                    f"{self.quantized_parameters!r} > parameters {self.parameters}; allowed: at most parameters",
                )
            )
        if self.quantized_parameters and self.quantization is None:
            problems.append(
                ConfigProblem(
                    "quantization",
                    f"missing with quantizedParameters set; allowed: {', '.join(get_args(Quantization))}",
                )
            )
        if self.sliding_layers > self.layers or (self.sliding_layers > 0) != (self.sliding_window is not None):
            problems.append(
                ConfigProblem(
                    "slidingLayers",
                    f"{self.sliding_layers!r} with slidingWindow {self.sliding_window}; allowed: 1 to layers "
                    f"({self.layers}) with a slidingWindow, 0 without",
                )
            )
        if self.chunked_layers > self.layers - self.sliding_layers or (self.chunked_layers > 0) != (
            self.attention_chunk is not None
        ):
            problems.append(
                ConfigProblem(
                    "chunkedLayers",
                    f"{self.chunked_layers!r} with attentionChunk {self.attention_chunk}; allowed: 1 to layers "
                    f"less slidingLayers ({self.layers - self.sliding_layers}) with an attentionChunk, 0 without",
                )
            )
        return problems

    def facts(self) -> ModelFacts:
        """These settings as the catalog's row type."""
        size = self.bytes_per_parameter or DTYPE_BYTES[self.dtype]
        return ModelFacts(
            self.parameters,
            self.layers,
            self.attention_heads,
            self.kv_heads,
            self.head_dim,
            self.max_context,
            self.dtype,
            size,
            MODEL_FACTS_KEY,
            quantization=self.quantization,
            quantized_parameters=self.quantized_parameters,
            experts=self.experts,
            active_experts=self.active_experts,
            sliding_window=self.sliding_window,
            sliding_layers=self.sliding_layers,
            latent_attention=self.latent_attention,
            intermediate_size=self.intermediate_size,
            quantization_group=self.quantization_group,
            expert_parameters=self.expert_parameters,
            attention_chunk=self.attention_chunk,
            chunked_layers=self.chunked_layers,
            hidden_size=self.hidden_size or 0,
            vocab_size=self.vocab_size or 0,
            expert_intermediate_size=self.expert_intermediate_size or 0,
        )
