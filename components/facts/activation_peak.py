"""The activation peak of vLLM's start-up profiling above what its default batch budget already reaches: what a
server's larger `--max-num-batched-tokens` or `--max-num-seqs` adds to the fits gate's reserve (facts/
model_memory.py), standard library only.

Read from the vllm 0.32.0 wheel's source (read 2026-12-05). `Worker.determine_available_memory` (vllm/v1/worker/
gpu_worker.py) takes the peak of torch's memory during `GPUModelRunner.profile_run` (vllm/v1/worker/
gpu_model_runner.py) from what the KV cache may use. That run is:

- `_dummy_run(self.max_num_tokens)`, `max_num_tokens` being `max_num_batched_tokens` (T), spread over
  `min(T, max_num_seqs)` requests (S); it returns the hidden states of all T tokens and of the last token of each
  request, both kept while the sampler runs.
- `_dummy_sampler_run`: `compute_logits` gives S rows of logits over the whole vocabulary V in the model's dtype
  (vllm/model_executor/layers/logits_processor.py `_gather_logits` all-gathers the tensor parallel shards, so every
  rank holds all V); `Sampler.forward` (vllm/v1/sample/sampler.py) converts them to float32 (S x V x 4), and its
  second call, with a generator, takes `TopKTopPSampler.forward_native` (vllm/v1/sample/ops/topk_topp_sampler.py),
  whose `softmax(dtype=float32)` probabilities and `random_sample`'s exponential noise `q` are two more S x V x 4.
  Sampler peak: S x V x (b + 12) bytes, b the activation dtype's bytes, plus the (T + S) x hidden x b kept.
- the forward, layer by layer (vllm/model_executor/models/llama.py `LlamaDecoderLayer.forward`, `LlamaMLP.forward`;
  the other decoders follow the pattern): the residual, the normed input and the layer's output, T x hidden each,
  beside the largest of
  - the dense MLP's `gate_up_proj` output (T x 2 x intermediate / tp) and `act_fn`'s (T x intermediate / tp);
  - attention's `qkv_proj` output (T x (q heads + 2 x KV heads per GPU) x head_dim) and its output (T x q heads /
    tp x head_dim);
  - a mixture of experts' workspaces (vllm/model_executor/layers/fused_moe/experts/triton_moe.py `workspace_shapes`
    and modular_kernel.py `_allocate_buffers`; fused_moe.py `fused_experts_impl` sizes the same): T x top_k x
    max(N / 2, hidden) and T x top_k x max(N, hidden), N = 2 x moe_intermediate / tp (whole with expert parallelism).
  Forward peak: T x b x (3 x hidden + the largest of those per token).

The peak is max(forward, sampler), an upper estimate: eager tensors freed at their last use; torch.compile (on by
default) may reuse buffers and peak lower. The fits gate counts only peak(T, S) - peak(default T, default S) when
positive: the reserve (model_memory.RUNTIME_RESERVE_GIB) already holds the peak at vLLM's default budget.

Not counted: the router's logits (T x experts), the top-k/top-p kernel's buffer (one vocabulary row per SM, vllm/
v1/sample/ops/topk_topp_triton.py, the same at any S above the SM count), a mixture of experts' shared experts and
dense layers (DeepSeek, Llama 4), the tokens expert parallelism gathers from other data parallel ranks, the
multi-latent attention backends' workspaces (sized by context length, `profile_seq_lens`), quantization kernels'
scratch (the activations of FP8 layers quantized per token, T x hidden x 1), and speculative decoding's draft
probabilities. Where the model's facts lack the hidden size, the vocabulary or the MLP's width the growth is not
counted and the row says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model_facts import ModelFacts

GIB = 1024**3
# Sampler tensors of float32 per logit beside the logits themselves: the float32 copy, the probabilities and the
# exponential noise (`Sampler.forward`, `forward_native`, `random_sample`).
SAMPLER_FLOAT32_COPIES = 3
# Tensors of T x hidden alive through every layer: the residual, the layer's normed input and its output.
RESIDUAL_STREAMS = 3


@dataclass(frozen=True)
class Budget:
    """A batch budget: `max_num_batched_tokens` and `max_num_seqs`."""

    tokens: int
    sequences: int


@dataclass(frozen=True)
class ActivationExtra:
    """What a server's batch budget adds per GPU to the activation peak the reserve holds at vLLM's defaults."""

    gib: float
    """The growth per GPU, 0 at or below the default budget's peak or when not counted."""
    budget: Budget
    default: Budget
    missing: str = ""
    """What the model's facts lack to count it, "" when counted."""
    set_by: str = ""
    """What chose the budget besides the server's own `--max-num-batched-tokens` and `--max-num-seqs` (such as
    `--performance-mode throughput`), "" when nothing else."""

    @property
    def at(self) -> str:
        """The budget in words, with what chose it."""
        chosen = f" ({self.set_by})" if self.set_by else ""
        return f"{self.budget.tokens} batched tokens, {self.budget.sequences} sequences{chosen}"

    def describe(self) -> str:
        """In a few words for the fit's message and the plan's rows, "" when the server keeps vLLM's defaults."""
        if self.budget == self.default:
            return ""
        at = self.at
        if self.missing:
            return f"activation peak at {at} not counted: the model's facts lack {self.missing}"
        default = f"{self.default.tokens} tokens, {self.default.sequences} sequences"
        return f"activation peak at {at} +{self.gib:.2f} GiB over vLLM's default budget ({default})"


def activation_bytes(dtype: str | None, facts: ModelFacts) -> int:
    """Bytes of one activation: 4 when served in float32 (`--dtype float`/`float32`), else 2 (bfloat16 or float16;
    quantized weights compute in 16 bits)."""
    return 4 if (dtype or facts.dtype) in ("float", "float32") else 2


def missing_facts(facts: ModelFacts) -> str:
    """The facts the peak needs that `facts` lacks, "" when none."""
    width = facts.expert_intermediate_size if facts.experts else facts.intermediate_size
    lacking = [
        name
        for name, value in (("hidden size", facts.hidden_size), ("vocabulary", facts.vocab_size), ("MLP width", width))
        if not value
    ]
    return ", ".join(lacking)


def forward_peak_bytes(facts: ModelFacts, tokens: int, tp: int, expert_parallel: bool, width: int) -> float:
    """The forward's peak per GPU at `tokens`: the residual stream and the widest of MLP, experts and attention."""
    hidden = facts.hidden_size
    if facts.experts:
        gate_up = 2 * facts.expert_intermediate_size // (1 if expert_parallel else tp)
        per_token = facts.active_experts * (max(gate_up // 2, hidden) + max(gate_up, hidden))
    else:
        per_token = 3 * facts.intermediate_size // tp
    if not facts.latent_attention:
        queries = facts.attention_heads // tp
        kv = max(1, facts.kv_heads // tp)
        per_token = max(per_token, (2 * queries + 2 * kv) * facts.head_dim)
    return tokens * width * (RESIDUAL_STREAMS * hidden + per_token)


def sampler_peak_bytes(facts: ModelFacts, budget: Budget, width: int) -> float:
    """The sampler's peak per GPU: S rows of logits in the model's dtype and three float32 copies, beside the
    hidden states the dummy run returned."""
    sequences = min(budget.sequences, budget.tokens)
    logits = sequences * facts.vocab_size * (width + 4 * SAMPLER_FLOAT32_COPIES)
    return logits + (budget.tokens + sequences) * facts.hidden_size * width


def peak_bytes(facts: ModelFacts, budget: Budget, tp: int, expert_parallel: bool, width: int) -> float:
    """The profiling run's activation peak per GPU at `budget`: its forward or its sampler, whichever is larger."""
    forward = forward_peak_bytes(facts, budget.tokens, tp, expert_parallel, width)
    return max(forward, sampler_peak_bytes(facts, budget, width))


def activation_extra(
    facts: ModelFacts,
    budget: Budget,
    default: Budget,
    tp: int,
    expert_parallel: bool = False,
    dtype: str | None = None,
    set_by: str = "",
) -> ActivationExtra:
    """The peak at `budget` (chosen with `set_by`'s help) above the peak at `default`, per GPU of tensor parallel
    size `tp`."""
    missing = missing_facts(facts)
    if missing or budget == default:
        return ActivationExtra(0.0, budget, default, missing, set_by)
    width = activation_bytes(dtype, facts)
    extra = peak_bytes(facts, budget, tp, expert_parallel, width) - peak_bytes(
        facts, default, tp, expert_parallel, width
    )
    return ActivationExtra(max(0.0, extra / GIB), budget, default, set_by=set_by)
