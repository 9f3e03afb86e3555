"""The vision encoder's share of vLLM's start-up profiling peak (components/facts/encoder_peak.py), worked by hand.

Sources, vllm 0.32.0 (the wheel's source, read 2026-12-05): vllm/v1/worker/gpu_model_runner.py `profile_run` encodes
`max_mm_items_per_batch` dummy images at once and keeps their outputs through the language model's dummy run;
vllm/multimodal/encoder_budget.py `_get_max_items`: items = max(1, min(max(T, tokens per item) // tokens per item,
S x max(1, min(limit, max_model_len // tokens per item)))), T `max_num_batched_tokens`, S `max_num_seqs`, the limit
999 unless `--limit-mm-per-prompt` sets it; vllm/model_executor/models/siglip.py `SiglipEncoderLayer.forward` and
`SiglipMLP.forward` (fc1, activation, fc2); vllm/platforms/cuda.py `get_vit_attn_backend` (FlashAttention from
compute capability 8.0, head sizes multiples of 8 up to 256).

Gemma 3 27B's tower (config.json, NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_gemma3.py at
commit fe6fa01d7fcc2e20f55c756ed9281d6aeabaf494, GEMMA3_27B_CONFIG): vision hidden 1152, intermediate 4304, 16 heads
(head size 72), image 896, patch 14, so 64 x 64 = 4096 patches an image; 256 tokens an image of text hidden 5376.

Per patch, b = 2: pixels 3 x 14^2 = 588, streams 3 x 1152 = 3456, widest max(4 x 1152 = 4608, 2 x 4304 = 8608) =
8608; 588 + 3456 + 8608 = 12652 elements = 25,304 bytes; an image 4096 x 25,304 = 103,645,184 bytes. Its outputs
256 x 5376 x 2 = 2,752,512 bytes. An image in all: 106,397,696 bytes.

Llama 4's tower (config.json, ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/
meta-llama--Llama-4-Scout-17B-16E-Instruct_config.json at commit 64c5ddb697dd8ad88a938f65b23d25cf5f45de12): vision
hidden 1408, intermediate 5632, 16 heads (head size 88), image 336, patch 14, pixel shuffle 0.5; text hidden 5120.
vllm/model_executor/models/mllama4.py profiles a 16:1 image of `max_patches` (16, transformers'
Llama4ImageProcessorFast default) tiles plus a global tile: 17 x (576 + 1 class token) = 9809 patches and
17 x 576 / 4 = 2448 embeddings. Per patch: 588 + 3 x 1408 + max(4 x 1408, 2 x 5632 = 11264) = 16076 elements =
32,152 bytes, 315,378,968 an image; outputs 2448 x 5120 x 2 = 25,067,520; an image in all 340,446,488 bytes.
"""

from __future__ import annotations

import dataclasses

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.activation_peak import Budget
from components.facts.encoder_peak import EncoderSettings, encoder_items, encoder_peak
from components.facts.model_memory import model_fit
from components.facts.vision_towers import GEMMA3_SIGLIP, LLAMA4_VISION
from components.settings import vllm_flags
from components.settings.fleet import served_model
from components.settings.vllm import VllmSettings

GIB = 1024**3
GEMMA3 = "google/gemma-3-27b-it"
PER_IMAGE_BYTES = 106_397_696
AMPERE = (8, 6)

ITEMS = [
    # 2048 // 256 = 8 by the encoder; 256 x min(999, 8192 // 256 = 32) by the decoder: 8.
    pytest.param(Budget(2048, 256), 8192, None, 8, id="small-gpu-default-8-images"),
    # An H100's 8192 tokens: 32 images; throughput mode's 16384: 64.
    pytest.param(Budget(8192, 1024), 8192, None, 32, id="h100-default-32-images"),
    pytest.param(Budget(16384, 2048), 8192, None, 64, id="h100-throughput-64-images"),
    # Two sequences of one image each: min(8, 2 x 1) = 2.
    pytest.param(Budget(2048, 2), 8192, 1, 2, id="sequences-times-limit-binds"),
    # A context shorter than one image still admits one per prompt: min(8, 4 x 1) = 4.
    pytest.param(Budget(2048, 4), 128, None, 4, id="short-context-one-per-prompt"),
    # A token budget below one image: the encoder budget is the image, max(128, 256) // 256 = 1.
    pytest.param(Budget(128, 256), 8192, None, 1, id="budget-below-an-image"),
    pytest.param(Budget(2048, 256), 8192, 0, 0, id="limit-0-profiles-none"),
]


@pytest.mark.parametrize(("budget", "max_model_len", "limit", "items"), ITEMS)
def test_the_dummy_images_follow_vllms_encoder_budget(budget, max_model_len, limit, items):
    assert encoder_items(GEMMA3_SIGLIP, budget, max_model_len, limit) == items


LLAMA4_ITEMS = [
    # 2048 tokens are less than an image: the budget is the image's 2448, one image.
    pytest.param(Budget(2048, 256), 131072, 1, id="small-gpu-one-image"),
    # 8192 // 2448 = 3 on an H100; 16384 // 2448 = 6 in throughput mode.
    pytest.param(Budget(8192, 1024), 131072, 3, id="h100-3-images"),
    pytest.param(Budget(16384, 2048), 131072, 6, id="h100-throughput-6-images"),
]


@pytest.mark.parametrize(("budget", "max_model_len", "items"), LLAMA4_ITEMS)
def test_llama4s_tiled_images_follow_the_same_budget(budget, max_model_len, items):
    assert encoder_items(LLAMA4_VISION, budget, max_model_len, None) == items


PEAKS = [
    # 8 x 106,397,696 = 851,181,568 bytes = 0.7927 GiB.
    pytest.param(Budget(2048, 256), 851_181_568, id="small-gpu-default"),
    # 32 x 106,397,696 = 3,404,726,272 bytes = 3.1709 GiB.
    pytest.param(Budget(8192, 1024), 3_404_726_272, id="h100-default"),
    # 64 x 106,397,696 = 6,809,452,544 bytes = 6.3418 GiB.
    pytest.param(Budget(16384, 2048), 6_809_452_544, id="h100-throughput"),
]


@pytest.mark.parametrize(("budget", "peak_bytes"), PEAKS)
def test_the_peak_is_the_encoders_widest_layer_and_its_outputs_per_image(budget, peak_bytes):
    peak = encoder_peak(model_catalog.lookup(GEMMA3), budget, 8192, EncoderSettings(), AMPERE, 2)

    assert peak.gib == pytest.approx(peak_bytes / GIB, abs=1e-9)


def test_llama4s_peak_on_an_h100_is_three_tiled_images():
    # 3 x 340,446,488 = 1,021,339,464 bytes = 0.9512 GiB.
    scout = model_catalog.lookup("meta-llama/Llama-4-Scout-17B-16E-Instruct")

    peak = encoder_peak(scout, Budget(8192, 1024), 131072, EncoderSettings(), (9, 0), 2)

    assert peak.gib == pytest.approx(1_021_339_464 / GIB, abs=1e-9)
    assert peak.words == (
        "vision encoder (Llama 4) profiling peak +0.95 GiB (3 images of 9809 patches at 8192 batched tokens)"
    )


@pytest.mark.parametrize(
    ("settings", "capability", "words"),
    [
        pytest.param(
            EncoderSettings(skip_profiling=True),
            AMPERE,
            "vision encoder (SigLIP) profiling peak not counted: --skip-mm-profiling runs no encoder batch at start",
            id="skip-mm-profiling",
        ),
        pytest.param(
            EncoderSettings(image_limit=0),
            AMPERE,
            "vision encoder (SigLIP) profiling peak none: an image limit of 0 leaves the encoder no budget",
            id="image-limit-0",
        ),
        pytest.param(
            EncoderSettings(attention_backend="TORCH_SDPA"),
            AMPERE,
            "vision encoder (SigLIP) profiling peak not counted: --mm-encoder-attn-backend TORCH_SDPA is not sized",
            id="chosen-attention-backend",
        ),
        pytest.param(
            EncoderSettings(),
            (7, 5),
            "vision encoder (SigLIP) profiling peak not counted: below compute capability 8.0 torch's SDPA picks the "
            "attention kernel",
            id="turing-gpu",
        ),
    ],
)
def test_what_is_not_profiled_or_not_sized_adds_nothing_and_says_why(settings, capability, words):
    peak = encoder_peak(model_catalog.lookup(GEMMA3), Budget(2048, 256), 8192, settings, capability, 2)

    assert (peak.gib, peak.words) == (0.0, words)


def test_float32_activations_run_tritons_attention_and_are_not_sized():
    """FlashAttention takes float16 and bfloat16 only (flash_attn.py `supported_dtypes`); from compute capability
    8.0 vLLM then picks the next ViT backend, TRITON_ATTN (platforms/cuda.py `get_supported_vit_attn_backends`)."""
    peak = encoder_peak(model_catalog.lookup(GEMMA3), Budget(2048, 256), 8192, EncoderSettings(), AMPERE, 4)

    assert (peak.gib, peak.words) == (
        0.0,
        "vision encoder (SigLIP) profiling peak not counted: float32 activations run Triton's attention kernel",
    )


def test_a_head_size_flash_attention_refuses_runs_tritons_attention_and_is_not_sized():
    """A tower of 1152 wide in 12 heads has heads of 96 (a multiple of 8, taken); in 16 heads, 72; in 32 heads, 36,
    not a multiple of 8, so FlashAttention refuses it and Triton's attention runs."""
    gemma = model_catalog.lookup(GEMMA3)
    odd = dataclasses.replace(gemma, vision_tower=dataclasses.replace(gemma.vision_tower, attention_heads=32))

    peak = encoder_peak(odd, Budget(2048, 256), 8192, EncoderSettings(), AMPERE, 2)

    assert (peak.gib, peak.words) == (
        0.0,
        "vision encoder (SigLIP) profiling peak not counted: head size 36 runs Triton's attention kernel",
    )


def test_a_model_without_a_recorded_tower_adds_nothing():
    peak = encoder_peak(
        model_catalog.lookup("meta-llama/Llama-3.1-8B-Instruct"), Budget(2048, 256), 8192, EncoderSettings(), AMPERE, 2
    )

    assert (peak.gib, peak.words) == (0.0, "")


def fit(*extra_args: str):
    settings = VllmSettings(model=GEMMA3, max_model_len=8192, extra_args=list(extra_args))
    return model_fit(served_model(settings, "gpu"), gpu_catalog.lookup("p5.4xlarge"), "p5.4xlarge")


def test_gemma3_on_an_h100_reserves_its_encoders_profiling_peak():
    result = fit()

    assert result.encoder_gib_per_gpu == pytest.approx(3_404_726_272 / GIB, abs=1e-9)
    assert result.reserve_gib_per_gpu == pytest.approx(2.0 + 3_404_726_272 / GIB, abs=1e-9)
    assert result.encoder == (
        "vision encoder (SigLIP) profiling peak +3.17 GiB (32 images of 4096 patches at 8192 batched tokens)"
    )
    assert "reserve 5.2 GiB (vision encoder (SigLIP) profiling peak +3.17 GiB" in result.reason
    assert (
        "vision encoder (SigLIP) weights counted, its start-up profiling peak as the row's encoder says"
        in result.layout
    )
    assert result.to_dict()["encoderGiBPerGpu"] == 3.17


def test_a_text_only_server_reserves_no_encoder_peak():
    result = fit("--limit-mm-per-prompt", '{"image": 0}')

    assert (result.encoder_gib_per_gpu, result.reserve_gib_per_gpu) == (0.0, 2.0)
    assert "an image limit of 0 leaves the encoder no budget" in result.encoder


def test_throughput_mode_doubles_the_images_profiled():
    # 16384 tokens and 2048 sequences on an H100: 64 images, 6,809,452,544 bytes.
    result = fit("--performance-mode", "throughput")

    assert result.encoder_gib_per_gpu == pytest.approx(6_809_452_544 / GIB, abs=1e-9)


@pytest.mark.parametrize(
    ("items", "settings"),
    [
        # `--limit-mm-per-prompt` takes a count or `{"count": n, "width": ..., "height": ...}` (vllm/config/
        # multimodal.py `ImageDummyOptions`); `--language-model-only` makes every limit 0 (`get_limit_per_prompt`).
        pytest.param(["--limit-mm-per-prompt", '{"image": 2}'], EncoderSettings(image_limit=2), id="image-count"),
        pytest.param(
            ["--limit-mm-per-prompt", '{"image": {"count": 1, "width": 512}}'],
            EncoderSettings(image_limit=1),
            id="image-options-count",
        ),
        pytest.param(["--limit-mm-per-prompt", '{"video": 0}'], EncoderSettings(), id="other-modality-only"),
        pytest.param(["--language-model-only"], EncoderSettings(image_limit=0), id="language-model-only"),
        pytest.param(["--skip-mm-profiling"], EncoderSettings(skip_profiling=True), id="skip-mm-profiling"),
        pytest.param(
            ["--mm-encoder-attn-backend", "TORCH_SDPA"],
            EncoderSettings(attention_backend="TORCH_SDPA"),
            id="attention-backend",
        ),
        pytest.param([], EncoderSettings(), id="nothing-set"),
    ],
)
def test_extra_args_carry_the_encoders_profiling_settings(items, settings):
    assert vllm_flags.check(items).encoder == settings
