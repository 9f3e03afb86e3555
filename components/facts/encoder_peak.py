"""The vision encoder's share of vLLM's start-up profiling peak for a multimodal model: what the fits gate adds to
the reserve (facts/model_memory.py) for a row whose encoder's figures are recorded (facts/model_facts.py
`VisionTower`), standard library only.

Read from the vllm 0.32.0 wheel's source (read 2026-12-05):
- `GPUModelRunner.profile_run` (vllm/v1/worker/gpu_model_runner.py), before the language model's dummy batch: when
  the encoder budget is above 0, it builds `max_mm_items_per_batch` dummy items of the modality with the most
  tokens, runs them through `embed_multimodal` at once, and keeps the outputs in the encoder cache until the
  language model's dummy run and its sampler have run (`self.encoder_cache.clear()` after them).
- the budget (vllm/multimodal/encoder_budget.py `MultiModalBudget`, vllm/v1/core/encoder_cache_manager.py
  `compute_mm_encoder_budget`, vllm/config/scheduler.py): the encoder budget is max(T, tokens per item), T being
  `max_num_batched_tokens` (both `max_num_encoder_input_tokens` and `encoder_cache_size` default to it);
  `_get_max_items` gives max(1, min(budget // tokens per item, S x per prompt)) items, S being `max_num_seqs` and
  per prompt max(1, min(limit, max_model_len // tokens per item)); the limit is `--limit-mm-per-prompt`'s image
  count, 999 when unset, 0 with `--language-model-only` (vllm/config/multimodal.py `get_limit_per_prompt`), and a
  limit of 0 leaves no encoder budget, so nothing is profiled; `--skip-mm-profiling` skips the encoder run too.
- the attention kernel (vllm/platforms/cuda.py `get_vit_attn_backend`, vllm/v1/attention/backends/flash_attn.py):
  from compute capability 8.0, for head sizes that are multiples of 8 up to 256, the encoder's `MMEncoderAttention`
  runs FlashAttention (float16 and bfloat16 only: `FlashAttentionBackend.supported_dtypes`), which keeps no score
  matrix; from 8.0 a head size or dtype FlashAttention refuses runs the next supported backend, Triton's attention
  (`get_supported_vit_attn_backends`: FLASH_ATTN, TRITON_ATTN, TORCH_SDPA), and below 8.0 torch's SDPA
  (vllm/v1/attention/ops/vit_attn_wrappers.py), whose kernel torch picks at run time: the peak is sized for
  FlashAttention only, not where another kernel runs or `--mm-encoder-attn-backend` chooses one.
- the encoder layer (vllm/model_executor/models/siglip.py `SiglipEncoderLayer.forward`, `SiglipMLP.forward`): the
  residual, the normed input and the output (3 x hidden per patch) beside the larger of attention's qkv and output
  (4 x hidden) and the MLP (fc1's output and its activation, 2 x intermediate; 3 x for a gated MLP).

The estimate, b the activation dtype's bytes, N items of P patches:
    encoder = N x P x b x (3 x patch^2 + 3 x hidden + max(4 x hidden, mlp tensors x intermediate)), the pixel values
    (3 channels) held beside the widest layer; outputs = N x tokens per item x the language model's hidden x b.
    The gate adds encoder + outputs: an upper estimate of what the profiling needs above the language model's own
    peak (max(encoder, outputs + language model) - language model <= encoder + outputs), with the widths whole on
    every GPU (tensor parallelism splits qkv and the MLP; not counted as a saving) and no buffer reused.
Not counted: the projector's transient copies (no larger than the encoder's layer), the vision embeddings' position
tables and the image processor's CPU-side work.
"""

from __future__ import annotations

from dataclasses import dataclass

from .activation_peak import GIB, Budget
from .model_facts import ModelFacts, VisionTower

DEFAULT_IMAGE_LIMIT = 999
"""Images per prompt vLLM allows when `--limit-mm-per-prompt` leaves the modality unset (`get_limit_per_prompt`)."""
FLASH_ATTENTION_CAPABILITY = (8, 0)
"""The compute capability from which the encoder's attention runs FlashAttention (`supports_compute_capability`)."""
MAX_FLASH_HEAD_SIZE = 256
"""The largest head size FlashAttention 2 takes (`FlashAttentionBackend.supports_head_size`), multiples of 8."""
FLASH_ATTENTION_BYTES = frozenset({2})
"""Bytes of the activation dtypes FlashAttention takes: float16 and bfloat16 (`supported_dtypes`)."""
PIXEL_CHANNELS = 3
# Tensors of hidden width alive through every encoder layer (the residual, the normed input, the output), and
# attention's widest moment (qkv and its output).
RESIDUAL_STREAMS = 3
ATTENTION_TENSORS = 4


@dataclass(frozen=True)
class EncoderSettings:
    """What the server's arguments set that shapes the encoder's profiling; None and False for vLLM's defaults."""

    image_limit: int | None = None
    """Images per prompt (`--limit-mm-per-prompt`'s image count, 0 with `--language-model-only`), None for 999."""
    skip_profiling: bool = False
    """`--skip-mm-profiling`: vLLM runs no encoder batch at start."""
    attention_backend: str | None = None
    """`--mm-encoder-attn-backend`, None for vLLM's choice."""


@dataclass(frozen=True)
class EncoderPeak:
    """The vision encoder's share of the profiling peak per GPU, beyond the reserve."""

    gib: float
    items: int = 0
    """The dummy images profiled at once, 0 when none."""
    words: str = ""
    """The peak in a few words for the fit's message and the plan's rows, "" for a model without an encoder."""


def encoder_items(tower: VisionTower, budget: Budget, max_model_len: int, image_limit: int | None) -> int:
    """The dummy images `profile_run` encodes at once (`_get_max_items`), 0 when the limit leaves no budget."""
    limit = DEFAULT_IMAGE_LIMIT if image_limit is None else image_limit
    if limit == 0:
        return 0
    per_item = tower.tokens_per_item
    by_encoder = max(budget.tokens, per_item) // per_item
    per_prompt = max(1, min(limit, max_model_len // per_item))
    return max(1, min(by_encoder, budget.sequences * per_prompt))


def encoder_bytes(tower: VisionTower, items: int, width: int) -> float:
    """The encoder's widest layer with the pixel values, over `items` images, at `width` bytes an activation."""
    pixels = PIXEL_CHANNELS * tower.patch_size**2
    widest = max(ATTENTION_TENSORS * tower.hidden_size, tower.mlp_tensors * tower.intermediate_size)
    per_patch = pixels + RESIDUAL_STREAMS * tower.hidden_size + widest
    return items * tower.patches_per_item * width * per_patch


def outputs_bytes(tower: VisionTower, items: int, width: int) -> float:
    """The embeddings the encoder returns and the encoder cache keeps through the language model's dummy run."""
    return items * tower.tokens_per_item * tower.output_size * width


def encoder_peak(
    facts: ModelFacts,
    budget: Budget,
    max_model_len: int,
    settings: EncoderSettings,
    capability: tuple[int, int] | None,
    width: int,
) -> EncoderPeak:
    """What the encoder's profiling adds per GPU at `budget`, or why it is not counted."""
    tower = facts.vision_tower
    if tower is None:
        return EncoderPeak(0.0)
    name = f"vision encoder ({tower.name}) profiling peak"
    if settings.skip_profiling:
        return EncoderPeak(0.0, words=f"{name} not counted: --skip-mm-profiling runs no encoder batch at start")
    items = encoder_items(tower, budget, max_model_len, settings.image_limit)
    if not items:
        return EncoderPeak(0.0, words=f"{name} none: an image limit of 0 leaves the encoder no budget")
    if settings.attention_backend not in (None, "FLASH_ATTN"):
        return EncoderPeak(
            0.0, items, f"{name} not counted: --mm-encoder-attn-backend {settings.attention_backend} is not sized"
        )
    if capability is None or capability < FLASH_ATTENTION_CAPABILITY:
        return EncoderPeak(
            0.0, items, f"{name} not counted: below compute capability 8.0 torch's SDPA picks the attention kernel"
        )
    head_size = tower.hidden_size // tower.attention_heads
    if head_size % 8 or head_size > MAX_FLASH_HEAD_SIZE:
        return EncoderPeak(0.0, items, f"{name} not counted: head size {head_size} runs Triton's attention kernel")
    if width not in FLASH_ATTENTION_BYTES:
        return EncoderPeak(0.0, items, f"{name} not counted: float32 activations run Triton's attention kernel")
    total = encoder_bytes(tower, items, width) + outputs_bytes(tower, items, width)
    return EncoderPeak(
        total / GIB,
        items,
        f"{name} +{total / GIB:.2f} GiB ({items} images of {tower.patches_per_item} "
        f"patches at {budget.tokens} batched tokens)",
    )
