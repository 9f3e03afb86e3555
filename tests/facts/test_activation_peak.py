"""The activation peak a batch budget above vLLM's default adds to the fits gate's reserve
(components/facts/activation_peak.py), worked by hand.

Sources, vllm 0.32.0 (the wheel's source): vllm/v1/worker/gpu_model_runner.py `profile_run` runs `_dummy_run` at
`max_num_batched_tokens` (T) over min(T, `max_num_seqs`) requests (S), then `_dummy_sampler_run`; vllm/v1/sample/
sampler.py `Sampler.forward` converts the S x vocab logits to float32, and `TopKTopPSampler.forward_native`
(vllm/v1/sample/ops/topk_topp_sampler.py) adds float32 probabilities and `random_sample`'s noise; vllm/model_executor/
models/llama.py `LlamaMLP.forward` keeps gate_up (T x 2I/tp) and the activation (T x I/tp); vllm/model_executor/
layers/fused_moe/experts/triton_moe.py `workspace_shapes` sizes T x top_k x max(I_e/tp, H) and T x top_k x
max(2 I_e/tp, H). Defaults (vllm/engine/arg_utils.py `get_batch_defaults`): 2048 tokens and 256 sequences below 70
GiB (an L40S, an A10G), 8192 and 1024 on an H100.

The formula, b = 2 bytes (bfloat16):
    forward(T) = T x b x (3H + max(MLP, attention)), MLP = 3I/tp (dense) or top_k x (max(I_e/tp, H) + max(2 I_e/tp,
    H)), attention = (2 x heads/tp + 2 x max(1, KV heads/tp)) x head_dim;
    sampler(T, S) = S x V x (b + 12) + (T + S) x H x b;  peak = max(forward, sampler); extra = peak - peak(default).

Shapes from config.json (facts/model_catalog.py and model_catalog_layouts.py rows): Llama-3.1-8B hidden 4096,
intermediate 14336, vocab 128256, 32 heads, 8 KV heads of 128; Llama-3.1-70B hidden 8192, intermediate 28672,
vocab 128256, 64 heads, 8 KV heads; Qwen3-30B-A3B hidden 2048, moe_intermediate_size 768, 8 of 128 experts, vocab
151936, 32 heads, 4 KV heads.

Llama-3.1-8B, TP 1: MLP 3 x 14336 = 43008 > attention (64 + 16) x 128 = 10240, so forward(T) = T x 2 x (12288 +
43008) = T x 110592; sampler = S x 128256 x 14 (= S x 1,795,584) + (T + S) x 8192.
At the L40S default (2048, 256): forward 226,492,416 < sampler 459,669,504 + 18,874,368 = 478,543,872.
"""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.activation_peak import Budget, activation_extra
from components.facts.model_memory import ServedModel, model_fit
from components.settings.fleet import served_model
from components.settings.vllm import VllmSettings

GIB = 1024**3
LLAMA_8B = "meta-llama/Llama-3.1-8B-Instruct"
LLAMA_70B = "meta-llama/Llama-3.1-70B-Instruct"
QWEN_MOE = "Qwen/Qwen3-30B-A3B"
SMALL_GPU_DEFAULT = Budget(2048, 256)
H100_DEFAULT = Budget(8192, 1024)

EXTRAS = [
    # The default budget itself, and a smaller one: nothing beyond the reserve.
    pytest.param(LLAMA_8B, Budget(2048, 256), SMALL_GPU_DEFAULT, 1, 0, id="default-budget-adds-nothing"),
    pytest.param(LLAMA_8B, Budget(1024, 128), SMALL_GPU_DEFAULT, 1, 0, id="smaller-budget-adds-nothing"),
    # 32768 tokens: forward 32768 x 110592 = 3,623,878,656 > sampler 459,669,504 + 33024 x 8192 = 730,202,112;
    # 3,623,878,656 - 478,543,872 = 3,145,334,784 bytes = 2.9293 GiB.
    pytest.param(LLAMA_8B, Budget(32768, 256), SMALL_GPU_DEFAULT, 1, 3_145_334_784, id="dense-32768-tokens"),
    # 1024 sequences at 2048 tokens: the logits grow, sampler 1024 x 1,795,584 + 3072 x 8192 = 1,863,843,840;
    # 1,863,843,840 - 478,543,872 = 1,385,299,968 bytes = 1.2902 GiB.
    pytest.param(LLAMA_8B, Budget(2048, 1024), SMALL_GPU_DEFAULT, 1, 1_385_299_968, id="vocab-logits-1024-seqs"),
    # Llama-3.1-70B at 65536 tokens on an H100, TP 8: MLP 3 x 28672 / 8 = 10752 > attention (16 + 2) x 128, forward
    # T x 2 x (24576 + 10752) = T x 70656; sampler S x 1,795,584 + (T + S) x 16384. Default: forward 578,813,952 <
    # sampler 1,838,678,016 + 9216 x 16384 = 1,989,672,960. At 65536: forward 4,630,511,616 > sampler
    # 2,929,197,056; extra 2,640,838,656 bytes = 2.4595 GiB.
    pytest.param(LLAMA_70B, Budget(65536, 1024), H100_DEFAULT, 8, 2_640_838_656, id="tensor-parallel-8-splits-the-mlp"),
    # TP 4: MLP 21504 > attention (32 + 4) x 128, forward T x 2 x (24576 + 21504) = T x 92160 = 6,039,797,760 at
    # 65536; extra 6,039,797,760 - 1,989,672,960 = 4,050,124,800 bytes = 3.7720 GiB: half the GPUs, more each.
    pytest.param(
        LLAMA_70B, Budget(65536, 1024), H100_DEFAULT, 4, 4_050_124_800, id="tensor-parallel-4-keeps-more-per-gpu"
    ),
    # Qwen3-30B-A3B, TP 1: experts 8 x (max(768, 2048) + max(1536, 2048)) = 32768 > attention (64 + 8) x 128,
    # forward T x 2 x (6144 + 32768) = T x 77824; sampler S x 151936 x 14 (= S x 2,127,104) + (T + S) x 4096.
    # Default: forward 159,383,552 < sampler 544,538,624 + 2304 x 4096 = 553,975,808. At 16384: forward
    # 1,275,068,416 > sampler 612,696,064; extra 721,092,608 bytes = 0.6716 GiB.
    pytest.param(QWEN_MOE, Budget(16384, 256), SMALL_GPU_DEFAULT, 1, 721_092_608, id="moe-workspaces-16384"),
]


@pytest.mark.parametrize(("model", "budget", "default", "tp", "extra_bytes"), EXTRAS)
def test_activation_extra_is_the_peaks_growth_over_the_default_budget(model, budget, default, tp, extra_bytes):
    extra = activation_extra(model_catalog.lookup(model), budget, default, tp)

    assert extra.gib == pytest.approx(extra_bytes / GIB, abs=1e-6)
    assert extra.missing == ""


def test_a_model_without_recorded_widths_is_named_not_guessed():
    # Qwen2.5-7B's row records no hidden size, vocabulary or intermediate size.
    extra = activation_extra(model_catalog.lookup("Qwen/Qwen2.5-7B-Instruct"), Budget(32768, 256), SMALL_GPU_DEFAULT, 1)

    assert extra.gib == 0
    assert extra.describe() == (
        "activation peak at 32768 batched tokens, 256 sequences not counted: the model's facts lack hidden size, "
        "vocabulary, MLP width"
    )


def fit(max_num_batched_tokens: int | None, max_num_seqs: int | None = None, instance_type: str = "g5.xlarge"):
    served = ServedModel(
        LLAMA_8B,
        "gpu",
        1,
        16384,
        0.9,
        model_catalog.lookup(LLAMA_8B),
        max_num_batched_tokens=max_num_batched_tokens,
        max_num_seqs=max_num_seqs,
    )
    return model_fit(served, gpu_catalog.lookup(instance_type), instance_type)


def test_the_defaults_keep_the_reserve_and_the_message_as_they_were():
    # tests/placement/test_model_fit.py's case llama8b-a10g-16k-1-seq: reserve 2 GiB, 1 sequence.
    result = fit(None)

    assert (result.fits, result.reserve_gib_per_gpu, result.activation_gib_per_gpu) == (True, 2.0, 0.0)
    assert result.activation == ""
    assert "reserve 2.0 GiB + KV 2.00 GiB" in result.reason


def test_a_larger_batch_budget_turns_a_fit_into_a_misfit_with_its_numbers():
    # A10G: usable 22.49 x 0.9 = 20.24 GiB, weights 8.03e9 x 2 / 2^30 = 14.96 GiB, KV of 16384 tokens 2.00 GiB.
    # With 32768 batched tokens the reserve is 2 + 2.93 = 4.93 GiB: 20.24 - 14.96 - 4.93 = 0.35 GiB < 2.00 GiB.
    result = fit(32768)

    assert result.fits is False
    assert result.reserve_gib_per_gpu == pytest.approx(2.0 + 3_145_334_784 / GIB, abs=1e-6)
    assert (
        "KV cache of one 16384-token sequence 2.00 GiB per GPU > 0.35 GiB left per A10G after weights 15.0 GiB and "
        "reserve 4.9 GiB (activation peak at 32768 batched tokens, 256 sequences +2.93 GiB)"
    ) in result.reason
    assert result.activation == (
        "activation peak at 32768 batched tokens, 256 sequences +2.93 GiB over vLLM's default budget (2048 tokens, "
        "256 sequences)"
    )
    assert result.to_dict()["activationGiBPerGpu"] == 2.93


def test_an_h100_counts_from_its_own_larger_default():
    # On an H100 the default is 8192 tokens and 1024 sequences: 8192 tokens with 1024 sequences add nothing.
    assert fit(8192, 1024, "p5.4xlarge").activation_gib_per_gpu == 0


def test_extra_args_carry_max_num_seqs_to_the_fit():
    settings = VllmSettings(model=LLAMA_8B, extra_args=["--max-num-seqs", "1024", "--max-num-batched-tokens", "4096"])

    served = served_model(settings, "gpu")

    assert (served.max_num_seqs, served.max_num_batched_tokens) == (1024, 4096)
