"""Does a model, at its context length and tensor parallel size, fit the GPUs of an instance type, before a node
is bought and the weights downloaded: the arithmetic of the fits gate (`model-fits-gpu`, placement/model_fit.py) and of
`pool: auto` (settings/fleet.py), standard library only.

Pure functions of plain values and the facts' catalogs, so a stack with several models and pools can call
them per model and per instance type. The arithmetic follows how vLLM v0.32.0 sizes its memory:

- vLLM may use `gpu_memory_utilization` x the GPU's total memory as the device reports it (`request_memory` in
  vllm/v1/worker/utils.py, from `MemorySnapshot.total_memory`; facts/gpu_catalog.py's visible totals, below the
  nominal ones: 22.5 GiB on a 24 GB A10G); what the weights, the profiled activation peak,
  non-torch memory and the CUDA graphs leave of it becomes the KV cache.
- Tensor parallelism splits the weights over the GPUs, and the KV heads as `max(1, kv_heads // tp)` per GPU:
  with fewer KV heads than GPUs each GPU keeps a replica of one (vllm/config/model.py `get_num_kv_heads`).
- The attention heads must divide by the tensor parallel size (vllm/config/model.py
  `verify_with_parallel_config`: "Total number of attention heads ... must be divisible by tensor parallel
  size"), and `max_model_len` may not exceed the model's `max_position_embeddings` without rope scaling
  (`_get_and_verify_max_len` there).
- vLLM refuses to start when the KV cache cannot hold one sequence of `max_model_len` (vllm/v1/core/
  kv_cache_utils.py `check_enough_kv_cache_memory`), which sums each layer's `max_memory_usage_bytes`
  (vllm/v1/kv_cache_interface.py): a full-attention layer keeps `cdiv(max_model_len, block_size)` pages, a
  sliding-window layer `cdiv(min(sliding_window - 1 + max_in_flight_tokens, max_model_len), block_size) + 1`, a
  chunked local attention layer (Llama 4) `cdiv(min(attention_chunk_size + max_in_flight_tokens, max_model_len),
  block_size)` (`ChunkedLocalAttentionSpec`; the hybrid KV cache manager that frees pages outside the chunk stays on,
  as `VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE` defaults to 1 in vllm/envs.py),
  where `max_in_flight_tokens` is `max_concurrent_batches` (2 with the default async scheduling) x
  `max_num_batched_tokens` (vllm/config/vllm.py). A page holds `block_size` (16) tokens of `2 x kv_heads x
  head_dim` elements, or for multi-latent attention one latent of `kv_lora_rank + qk_rope_head_dim` elements
  (`MLAAttentionSpec`, `head_size_v = 0`), which every tensor parallel rank keeps whole.
- Quantized weights take their method's bytes per weight with scales and zero points (facts/model_catalog.py
  QUANTIZATION_BYTES), or the bytes the checkpoint's safetensors files store where the Hub was read; a mixture of
  experts keeps every expert resident, so its total parameters count, sliced over the tensor parallel ranks or,
  with expert parallelism, whole experts per GPU (`weights_per_gpu`).
- The GPU's compute capability must run the checkpoint's method and dtype (facts/vllm_capability.py), and a
  grouped quantization must split into whole groups per GPU (facts/model_catalog.py `group_problems`).

- The reserve holds the profiling run's activation peak at vLLM's default batch budget on the GPU; a server's
  larger `--max-num-batched-tokens` or `--max-num-seqs`, or `--performance-mode throughput` (which doubles the
  defaults the server leaves unset, `served_budget`), adds the growth of that peak, worked from the profiling run's
  tensors (facts/activation_peak.py), and the row names it; the window layers' tokens in flight follow the same
  budget.

- A multimodal model whose vision tower the facts record adds its encoder's profiling run and the outputs the encoder
  cache keeps (facts/encoder_peak.py); the row names it.

Not counted beyond the reserve: the vision encoder's profiling for a row that records no tower (its weights are
counted; the row's layout says so, facts/model_facts.py ENCODER_NOT_PROFILED), and the terms facts/activation_peak.py
and facts/encoder_peak.py list as not counted.
"""

from __future__ import annotations

from dataclasses import dataclass

from .activation_peak import GIB, ActivationExtra, Budget, activation_bytes, activation_extra
from .encoder_peak import EncoderPeak, EncoderSettings, encoder_peak
from .gpu_catalog import InstanceType
from .model_catalog import MODEL_FACTS_KEY, ModelFacts, shape_problems
from .vllm_capability import CapabilityFindings, capability_findings

# Memory per GPU set aside beyond weights and KV cache: the activation peak of the profiling run at vLLM's
# default batch budget, the CUDA graphs, the CUDA context and allocator slack. An estimate on the safe side of
# what vLLM's start-up log reports for 7B-70B dense models on 24-80 GiB GPUs (the activation peak, "CUDA graph
# memory" and "non-torch memory" lines of gpu_worker.py's memory profile at v0.32.0), not a measurement.
RUNTIME_RESERVE_GIB = 2.0
# With tensor parallelism NCCL keeps communication buffers on each GPU (NCCL_BUFFSIZE defaults to 4 MiB per
# channel and peer; NVIDIA NCCL docs, Environment Variables), plus vLLM's custom all-reduce buffers; 0.5 GiB
# covers them with room to spare on one node.
NCCL_RESERVE_GIB = 0.5
# vLLM's page of KV cache holds 16 tokens (`CacheConfig.block_size` default, vllm/config/cache.py at v0.32.0).
KV_BLOCK_TOKENS = 16
# Batches in flight at once: async scheduling, on by default, overlaps two (`VllmConfig.max_concurrent_batches`).
CONCURRENT_BATCHES = 2
# What `--performance-mode throughput` multiplies vLLM's default batch budget by (`served_budget`).
THROUGHPUT_FACTOR = 2


def default_max_num_batched_tokens(gpu_memory_gib: float, gpu_model: str) -> int:
    """The OpenAI server's default `--max-num-batched-tokens` on a GPU (vllm/engine/arg_utils.py
    `get_batch_defaults` at v0.32.0): 16384 from 160 GiB, 8192 from 70 GiB except on an A100, else 2048."""
    if gpu_memory_gib >= 160:
        return 16384
    if gpu_memory_gib >= 70 and "a100" not in gpu_model.lower():
        return 8192
    return 2048


def default_max_num_seqs(gpu_memory_gib: float, gpu_model: str) -> int:
    """The OpenAI server's default `--max-num-seqs` on a GPU (`get_batch_defaults` at v0.32.0): 1024 from 160 GiB,
    and from 70 GiB except on an A100, else 256."""
    return 1024 if default_max_num_batched_tokens(gpu_memory_gib, gpu_model) > 2048 else 256


def served_budget(
    default: Budget,
    max_num_batched_tokens: int | None,
    max_num_seqs: int | None,
    performance_mode: str | None,
    max_model_len: int | None = None,
    chunked_prefill: bool = True,
) -> Budget:
    """The batch budget a server runs with: what its arguments set, and vLLM's `default` for the rest, as
    vllm/engine/arg_utils.py `_set_default_max_num_seqs_and_batched_tokens_args` at v0.32.0 resolves it: doubled by
    `--performance-mode throughput` ("If throughput mode is set, double max_num_batched_tokens and max_num_seqs",
    each only when the server left it unset); then a defaulted token budget is raised to `max_model_len` when
    chunked prefill is off (`--no-enable-chunked-prefill`: a whole prompt is one batch) and capped at
    `max_num_seqs x max_model_len` ("Ensure max_num_batched_tokens does not exceed model limit"). A token budget
    the server sets is kept as set."""
    factor = THROUGHPUT_FACTOR if performance_mode == "throughput" else 1
    sequences = max_num_seqs or default.sequences * factor
    if max_num_batched_tokens:
        return Budget(max_num_batched_tokens, sequences)
    tokens = default.tokens * factor
    if max_model_len:
        tokens = min(sequences * max_model_len, tokens if chunked_prefill else max(max_model_len, tokens))
    return Budget(tokens, sequences)


def _pages(tokens: int) -> int:
    return -(-tokens // KV_BLOCK_TOKENS)


def kv_tokens_per_sequence(facts: ModelFacts, max_model_len: int, max_num_batched_tokens: int) -> int:
    """Token slots one sequence of `max_model_len` holds, summed over the layers: whole pages of the sequence in
    each full-attention layer, the window and the tokens in flight plus one page in each sliding-window layer."""
    full_layers = facts.layers - facts.sliding_layers - facts.chunked_layers
    slots = full_layers * _pages(max_model_len) * KV_BLOCK_TOKENS
    if facts.sliding_layers and facts.sliding_window:
        in_window = min(facts.sliding_window - 1 + CONCURRENT_BATCHES * max_num_batched_tokens, max_model_len)
        slots += facts.sliding_layers * (_pages(in_window) + 1) * KV_BLOCK_TOKENS
    if facts.chunked_layers and facts.attention_chunk:
        # `ChunkedLocalAttentionSpec.max_admission_blocks_per_request`: the chunk and the tokens in flight, without
        # the sliding window's extra page.
        in_chunk = min(facts.attention_chunk + CONCURRENT_BATCHES * max_num_batched_tokens, max_model_len)
        slots += facts.chunked_layers * _pages(in_chunk) * KV_BLOCK_TOKENS
    return slots


@dataclass(frozen=True)
class ServedModel:
    """A model as one vLLM server runs it, on one GPU pool."""

    name: str
    """The model id (`vllm.model`)."""
    pool: str
    """The GPU pool it runs on."""
    tensor_parallel_size: int
    max_model_len: int
    gpu_memory_utilization: float
    facts: ModelFacts | None
    """None when neither the catalog nor the config knows the model: the gate does not check it."""
    kv_cache_dtype: str | None = None
    """`--kv-cache-dtype` of the server's extra arguments; None for vLLM's default, the model's dtype."""
    context_overridden: bool = False
    """Whether the server's extra arguments set `--hf-overrides` (rope scaling may lengthen the context)."""
    pipeline_parallel_size: int = 1
    """`--pipeline-parallel-size` of the server's extra arguments: each stage's GPUs hold only its layers."""
    max_num_batched_tokens: int | None = None
    """`--max-num-batched-tokens`; None for vLLM's default on the GPU (`default_max_num_batched_tokens`)."""
    dtype: str | None = None
    """`--dtype` of the server's extra arguments; None for `auto`."""
    data_parallel_size: int = 1
    """`--data-parallel-size`: replicas of the model inside the server, each on `tensor_parallel_size` GPUs."""
    expert_parallel: bool = False
    """`--enable-expert-parallel`: the experts are spread whole over every GPU of the server."""
    max_num_seqs: int | None = None
    """`--max-num-seqs`; None for vLLM's default on the GPU (`default_max_num_seqs`)."""
    performance_mode: str | None = None
    """`--performance-mode`; `throughput` doubles the defaults of the two above (`served_budget`)."""
    chunked_prefill: bool = True
    """False with `--no-enable-chunked-prefill`: a defaulted token budget grows to `max_model_len` (`served_budget`)."""
    encoder: EncoderSettings = EncoderSettings()
    """What the server's arguments set that shapes a vision encoder's start-up profiling (facts/encoder_peak.py)."""


@dataclass(frozen=True)
class ModelFit:
    """Whether one model fits the GPUs of one instance type, and by how much."""

    name: str
    pool: str
    instance_type: str
    fits: bool | None
    """None when not checked (no facts of the model or of the instance type)."""
    usable_gib_per_gpu: float | None = None
    weights_gib_per_gpu: float | None = None
    kv_gib_per_sequence_per_gpu: float | None = None
    reserve_gib_per_gpu: float | None = None
    margin_gib: float | None = None
    """What is left per GPU after weights, reserve and one sequence of `max_model_len`; negative when short."""
    sequences_at_max_model_len: int | None = None
    """How many full-length sequences the KV cache holds at once."""
    reason: str = ""
    layout: str = ""
    """The quantization and attention layout the arithmetic assumed."""
    source: str = ""
    """Where the model's facts came from (the catalog row's source, or `vllm.modelFacts`)."""
    kv_cache: str = ""
    """How the KV cache was counted: its dtype, the heads each GPU keeps, the window layers' tokens."""
    facts_from: str = ""
    """`catalog`, `vllm.modelFacts` or `Hub at preview`."""
    activation_gib_per_gpu: float | None = None
    """What the server's batch budget adds to the reserve's activation peak (counted in `reserve_gib_per_gpu`)."""
    activation: str = ""
    """The batch budget's activation peak in a few words, "" at vLLM's defaults."""
    encoder_gib_per_gpu: float | None = None
    """What a vision encoder's start-up profiling adds to the reserve (counted in `reserve_gib_per_gpu`)."""
    encoder: str = ""
    """The vision encoder's profiling peak in a few words, "" for a model without a recorded encoder."""

    def to_dict(self) -> dict:
        """The row as the plan's JSON document writes it (`models`)."""
        return {
            "name": self.name,
            "pool": self.pool,
            "instanceType": self.instance_type,
            "fits": self.fits,
            "usableGiBPerGpu": _round(self.usable_gib_per_gpu),
            "weightsGiBPerGpu": _round(self.weights_gib_per_gpu),
            "kvGiBPerSequencePerGpu": _round(self.kv_gib_per_sequence_per_gpu, 4),
            "reserveGiBPerGpu": _round(self.reserve_gib_per_gpu),
            "activationGiBPerGpu": _round(self.activation_gib_per_gpu),
            "marginGiB": _round(self.margin_gib),
            "sequencesAtMaxModelLen": self.sequences_at_max_model_len,
            "layout": self.layout,
            "kvCache": self.kv_cache,
            "activation": self.activation,
            "encoderGiBPerGpu": _round(self.encoder_gib_per_gpu),
            "encoder": self.encoder,
            "factsFrom": self.facts_from,
            "source": self.source,
            "reason": self.reason,
        }


def kv_heads_per_gpu(kv_heads: int, tensor_parallel_size: int) -> int:
    """KV heads each GPU keeps: split over the GPUs, at least one (replicated when fewer heads than GPUs)."""
    return max(1, kv_heads // tensor_parallel_size)


def model_fit(model: ServedModel, instance: InstanceType | None, instance_type: str) -> ModelFit:
    """Whether `model` fits one GPU of `instance` (the catalog's entry of `instance_type`, None if unknown)."""
    facts, tp = model.facts, model.tensor_parallel_size
    if facts is None:
        reason = (
            f"not checked: model {model.name} is not in the catalog; give its facts in {MODEL_FACTS_KEY} (`pulumi "
            "preview` reads them from the Hub for a pool the config names)"
        )
        return ModelFit(model.name, model.pool, instance_type, None, reason=reason)
    if instance is None or not instance.gpus or instance.gpu_memory_gib is None:
        reason = f"not checked: instance type {instance_type} is not a GPU type of the catalog"
        return ModelFit(model.name, model.pool, instance_type, None, reason=reason)
    gpu = (instance.gpu_model or "GPU").removeprefix("NVIDIA ")
    # What CUDA reports where the catalog has it (vLLM multiplies that), else the nominal memory.
    usable = (instance.gpu_memory_visible_gib or instance.gpu_memory_gib) * model.gpu_memory_utilization
    # With pipeline parallelism the busiest stage holds ceil(layers / stages) layers (vllm/distributed/utils.py
    # `get_pp_indices` at v0.32.0 spreads them evenly), with their weights and their share of the cache.
    stage_layers = -(-facts.layers // model.pipeline_parallel_size)
    parallel = f"TP {tp}" + (f", PP {model.pipeline_parallel_size}" if model.pipeline_parallel_size > 1 else "")
    parallel += f", DP {model.data_parallel_size}" if model.data_parallel_size > 1 else ""
    ep = expert_parallel_size(facts, model)
    parallel += f", EP {ep} ({-(-facts.experts // ep)} of {facts.experts} experts per GPU)" if ep > 1 else ""
    weights = weights_per_gpu(facts, model) * stage_layers / facts.layers / GIB
    heads = kv_heads_per_gpu(facts.kv_heads, tp)
    # A latent is one tensor per token and layer; keys and values are two.
    tensors = 1 if facts.latent_attention else 2
    kv_slot = tensors * heads * facts.head_dim * facts.kv_cache_bytes(model.kv_cache_dtype)
    memory = instance.gpu_memory_visible_gib or instance.gpu_memory_gib
    default = Budget(default_max_num_batched_tokens(memory, gpu), default_max_num_seqs(memory, gpu))
    budget = served_budget(
        default,
        model.max_num_batched_tokens,
        model.max_num_seqs,
        model.performance_mode,
        model.max_model_len,
        model.chunked_prefill,
    )
    batched = budget.tokens
    doubled = model.performance_mode == "throughput" and budget != Budget(
        model.max_num_batched_tokens or default.tokens, model.max_num_seqs or default.sequences
    )
    set_by = "--performance-mode throughput doubles vLLM's defaults" if doubled else ""
    activation = activation_extra(facts, budget, default, tp, ep > 1, model.dtype, set_by)
    width = activation_bytes(model.dtype, facts)
    compute_capability = instance.gpu_compute_capability
    encoder = encoder_peak(facts, budget, model.max_model_len, model.encoder, compute_capability, width)
    slots = kv_tokens_per_sequence(facts, model.max_model_len, batched)
    kv_sequence = kv_slot * slots * stage_layers / facts.layers / GIB
    # Expert parallelism exchanges tokens between the GPUs of all replicas: communication buffers as with TP.
    communicates = tp * model.pipeline_parallel_size > 1 or ep > 1
    reserve = RUNTIME_RESERVE_GIB + (NCCL_RESERVE_GIB if communicates else 0.0) + activation.gib + encoder.gib
    reserve_words = _reserve_words(reserve, activation, encoder)
    cache = usable - weights - reserve
    sequences = max(0, int(cache // kv_sequence)) if kv_sequence else 0

    def row(fits: bool, reason: str) -> ModelFit:
        return ModelFit(
            model.name,
            model.pool,
            instance_type,
            fits,
            usable_gib_per_gpu=usable,
            weights_gib_per_gpu=weights,
            kv_gib_per_sequence_per_gpu=kv_sequence,
            reserve_gib_per_gpu=reserve,
            margin_gib=cache - kv_sequence,
            sequences_at_max_model_len=sequences,
            reason=f"{model.name} on {instance_type} ({parallel}): {reason}",
            layout=facts.layout,
            source=facts.source,
            kv_cache=kv_layout(facts, heads, model.kv_cache_dtype, batched),
            facts_from=facts_origin(facts),
            activation_gib_per_gpu=activation.gib,
            activation=activation.describe(),
            encoder_gib_per_gpu=encoder.gib if facts.vision_tower else None,
            encoder=encoder.words,
        )

    problems = []
    if tp > instance.gpus:
        problems.append(f"tensorParallelSize {tp} > {instance.gpus} GPU(s) per {instance_type}")
    problems += [
        problem
        for _, problem in shape_problems(facts, tp, model.max_model_len, context_overridden=model.context_overridden)
    ]
    capability = (
        capability_findings(facts.quantization, facts.dtype, model.dtype, instance.gpu_compute_capability, gpu)
        if instance.gpu_compute_capability
        else CapabilityFindings([], [])
    )
    problems += capability.problems
    if weights + reserve > usable:
        problems.append(f"weights {weights:.1f} GiB + {reserve_words} per GPU > {usable:.1f} GiB usable per {gpu}")
    elif sequences < 1:
        problems.append(
            f"KV cache of one {model.max_model_len}-token sequence {kv_sequence:.2f} GiB per GPU > "
            f"{cache:.2f} GiB left per {gpu} after weights {weights:.1f} GiB and {reserve_words}"
        )
    if problems:
        return row(False, "; ".join(problems))
    return row(
        True,
        f"weights {weights:.1f} GiB + {reserve_words} + KV {kv_sequence:.2f} GiB per "
        f"{model.max_model_len}-token sequence within {usable:.1f} GiB usable per {gpu}; margin "
        f"{cache - kv_sequence:.1f} GiB, {sequences} full-length sequence(s)"
        + "".join(f"; {note}" for note in capability.notes),
    )


def _reserve_words(reserve: float, activation: ActivationExtra, encoder: EncoderPeak) -> str:
    """The reserve in the fit's message, with the batch budget's growth and the vision encoder's peak named where
    they add one or are not counted."""
    parts = []
    if activation.missing and activation.describe():
        parts.append(activation.describe())
    elif activation.gib:
        parts.append(f"activation peak at {activation.at} +{activation.gib:.2f} GiB")
    if encoder.words:
        parts.append(encoder.words)
    return f"reserve {reserve:.1f} GiB" + (f" ({'; '.join(parts)})" if parts else "")


def expert_parallel_size(facts: ModelFacts, model: ServedModel) -> int:
    """The GPUs the experts are spread over whole, 1 without expert parallelism: vLLM 0.32.0 flattens the tensor
    and data parallel ranks into one expert parallel group when `--enable-expert-parallel` is set and they number
    more than one (vllm/model_executor/layers/fused_moe/config.py `FusedMoEParallelConfig.make`: "In EP, each device
    owns a set of experts fully", `ep_size = tp_size` of the flattened group)."""
    ranks = model.tensor_parallel_size * model.data_parallel_size
    return ranks if model.expert_parallel and facts.experts and ranks > 1 and facts.expert_bytes else 1


def weights_per_gpu(facts: ModelFacts, model: ServedModel) -> float:
    """Bytes of weights the busiest GPU keeps: all split over the tensor parallel ranks (each data parallel
    replica keeps its own copy); with expert parallelism the experts whole instead, `global // ep` each and one more
    on the first `global % ep` ranks (fused_moe/expert_map_manager.py `determine_expert_map`)."""
    tp, ep = model.tensor_parallel_size, expert_parallel_size(facts, model)
    experts = (facts.expert_bytes or 0.0) if ep > 1 else 0.0
    busiest = -(-facts.experts // ep) if ep > 1 else 0
    return (facts.weight_bytes - experts) / tp + experts * busiest / max(facts.experts, 1)


def kv_layout(facts: ModelFacts, heads_per_gpu: int, kv_cache_dtype: str | None, batched_tokens: int) -> str:
    """The KV cache as the arithmetic counted it, in a few words for the plan's rows."""
    size = facts.kv_cache_bytes(kv_cache_dtype)
    words = [f"{kv_cache_dtype or facts.dtype}, {size:g} byte(s) an element"]
    if facts.latent_attention:
        words.append(f"one {facts.head_dim}-element latent per token and layer, whole on every GPU")
    else:
        kind = "grouped-query" if facts.kv_heads < facts.attention_heads else "multi-head"
        words.append(
            f"{heads_per_gpu} KV head(s) x {facts.head_dim} per GPU ({kind}, {facts.kv_heads} of "
            f"{facts.attention_heads} heads)"
        )
    if facts.sliding_layers and facts.sliding_window:
        words.append(
            f"{facts.sliding_layers} window layer(s) keep {facts.sliding_window - 1} + {CONCURRENT_BATCHES} x "
            f"{batched_tokens} tokens in flight at most"
        )
    if facts.chunked_layers and facts.attention_chunk:
        words.append(
            f"{facts.chunked_layers} chunked layer(s) keep {facts.attention_chunk} + {CONCURRENT_BATCHES} x "
            f"{batched_tokens} tokens in flight at most"
        )
    return "; ".join(words)


def facts_origin(facts: ModelFacts) -> str:
    """Where `facts` came from: the Hub's files read at preview, the config's `vllm.modelFacts`, or the catalog."""
    if facts.stored_weight_bytes is not None:
        return "Hub at preview"
    return MODEL_FACTS_KEY if facts.source == MODEL_FACTS_KEY else "catalog"


def _round(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)
