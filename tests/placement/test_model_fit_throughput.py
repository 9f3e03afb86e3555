"""`--performance-mode throughput` in the fits gate: vLLM doubles the batch defaults it picks for the GPU, and the
gate sizes the activation peak and the window layers' tokens in flight at the doubled budget.

Source, vllm 0.32.0 (the wheel's vllm/engine/arg_utils.py): `get_batch_defaults` gives the OpenAI server 2048
batched tokens and 256 sequences below 70 GiB (an A10G, an L4) and 8192 and 1024 on an H100; then
`_set_default_max_num_seqs_and_batched_tokens_args`: "If throughput mode is set, double max_num_batched_tokens and
max_num_seqs", each only `if orig_max_num_batched_tokens is None` / `if orig_max_num_seqs is None`, that is only
where the server left it unset. `balanced` (the default) and `interactivity` leave the budget as it is.

The activation peak's formula is facts/activation_peak.py's (its module docstring cites vllm/v1/worker/
gpu_model_runner.py `profile_run` and the sampler), b = 2 bytes (bfloat16):
    forward(T) = T x b x (3H + max(MLP, attention)); sampler(T, S) = S x V x (b + 12) + (T + S) x H x b;
    extra = max(forward, sampler) at the budget - the same at vLLM's default budget (the reserve holds that one).

Llama-3.1-8B (config.json: hidden 4096, intermediate 14336, vocab 128256, 32 heads, 8 KV heads of 128), TP 1:
MLP 3 x 14336 = 43008 > attention (64 + 16) x 128 = 10240, so forward(T) = T x 2 x (12288 + 43008) = T x 110592;
sampler = S x 128256 x 14 (= S x 1,795,584) + (T + S) x 8192.
- default on an A10G (2048, 256): forward 226,492,416 < sampler 459,669,504 + 2304 x 8192 = 478,543,872.
- throughput (4096, 512): forward 4096 x 110592 = 452,984,832 < sampler 512 x 1,795,584 + 4608 x 8192 =
  919,339,008 + 37,748,736 = 957,087,744; extra 957,087,744 - 478,543,872 = 478,543,872 bytes = 0.4457 GiB.
- throughput with `--max-num-batched-tokens 2048` (only the sequences doubled, (2048, 512)): forward 226,492,416 <
  sampler 919,339,008 + 2560 x 8192 = 940,310,528; extra 940,310,528 - 478,543,872 = 461,766,656 bytes.

gpt-oss-20b (config.json: hidden 2880, vocab 201088, 32 experts, 4 per token, moe intermediate 2880, 64 heads,
8 KV heads of 64, 12 of 24 layers sliding with a window of 128), TP 1 on an L4:
- experts 4 x (max(5760 / 2, 2880) + max(5760, 2880)) = 34560 > attention (128 + 16) x 64 = 9216, forward(T) =
  T x 2 x (8640 + 34560) = T x 86400; sampler = S x 201088 x 14 (= S x 2,815,232) + (T + S) x 5760.
  Default (2048, 256): forward 176,947,200 < sampler 720,699,392 + 2304 x 5760 = 733,970,432. Throughput (4096,
  512): forward 353,894,400 < sampler 1,441,398,784 + 4608 x 5760 = 1,467,940,864; extra 733,970,432 bytes.
- KV (facts/model_memory.py `kv_tokens_per_sequence`, from vllm/v1/kv_cache_interface.py): a sliding layer keeps
  cdiv(min(127 + 2 x T, max_model_len), 16) + 1 pages of 16 tokens, a full layer cdiv(max_model_len, 16). At
  131072: full 12 x 131072 = 1,572,864 slots; sliding at T = 2048, 127 + 4096 = 4223 -> 264 + 1 pages = 4240 x 12 =
  50,880; at T = 4096, 127 + 8192 = 8319 -> 520 + 1 pages = 8336 x 12 = 100,032. A slot is 2 x 8 x 64 x 2 = 2048
  bytes: 1,623,744 x 2048 = 3,325,427,712 bytes by default, 1,672,896 x 2048 = 3,426,091,008 in throughput mode.
"""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog
from components.facts.activation_peak import Budget
from components.facts.model_memory import model_fit, served_budget
from components.settings.fleet import served_model
from components.settings.vllm import VllmSettings

GIB = 1024**3
LLAMA_8B = "meta-llama/Llama-3.1-8B-Instruct"
GPT_OSS_20B = "openai/gpt-oss-20b"
SMALL_GPU_DEFAULT = Budget(2048, 256)
H100_DEFAULT = Budget(8192, 1024)

BUDGETS = [
    pytest.param(SMALL_GPU_DEFAULT, None, None, "throughput", Budget(4096, 512), id="throughput-doubles-both"),
    pytest.param(H100_DEFAULT, None, None, "throughput", Budget(16384, 2048), id="throughput-doubles-h100-defaults"),
    pytest.param(SMALL_GPU_DEFAULT, 8192, None, "throughput", Budget(8192, 512), id="set-tokens-kept-seqs-doubled"),
    pytest.param(H100_DEFAULT, None, 64, "throughput", Budget(16384, 64), id="set-seqs-kept-tokens-doubled"),
    pytest.param(H100_DEFAULT, 4096, 64, "throughput", Budget(4096, 64), id="both-set-nothing-doubled"),
    pytest.param(H100_DEFAULT, None, None, "balanced", H100_DEFAULT, id="balanced-keeps-defaults"),
    pytest.param(H100_DEFAULT, None, None, "interactivity", H100_DEFAULT, id="interactivity-keeps-defaults"),
    pytest.param(SMALL_GPU_DEFAULT, None, None, None, SMALL_GPU_DEFAULT, id="unset-keeps-defaults"),
]


@pytest.mark.parametrize(("default", "tokens", "seqs", "mode", "expected"), BUDGETS)
def test_throughput_mode_doubles_only_the_defaults_the_server_left_unset(default, tokens, seqs, mode, expected):
    assert served_budget(default, tokens, seqs, mode) == expected


def fit(model: str, instance_type: str, max_model_len: int, *extra_args: str):
    settings = VllmSettings(model=model, max_model_len=max_model_len, extra_args=list(extra_args))
    return model_fit(served_model(settings, "gpu"), gpu_catalog.lookup(instance_type), instance_type)


def test_throughput_mode_adds_the_doubled_budgets_activation_peak_on_an_a10g():
    result = fit(LLAMA_8B, "g5.xlarge", 16384, "--performance-mode", "throughput")

    assert result.activation_gib_per_gpu == pytest.approx(478_543_872 / GIB, abs=1e-9)
    assert result.reserve_gib_per_gpu == pytest.approx(2.0 + 478_543_872 / GIB, abs=1e-9)
    assert result.activation == (
        "activation peak at 4096 batched tokens, 512 sequences (--performance-mode throughput doubles vLLM's "
        "defaults) +0.45 GiB over vLLM's default budget (2048 tokens, 256 sequences)"
    )
    # A10G: 22.49 x 0.9 = 20.24 GiB usable, weights 14.96 GiB, KV of 16384 tokens 2.00 GiB: 20.24 - 14.96 - 2.45 =
    # 2.83 GiB left, one sequence with 0.83 GiB to spare.
    assert (result.fits, result.sequences_at_max_model_len) == (True, 1)
    assert "reserve 2.4 GiB (activation peak at 4096 batched tokens, 512 sequences (--performance-mode" in result.reason


def test_throughput_mode_with_set_tokens_doubles_only_the_sequences():
    result = fit(LLAMA_8B, "g5.xlarge", 16384, "--performance-mode", "throughput", "--max-num-batched-tokens", "2048")

    assert result.activation_gib_per_gpu == pytest.approx(461_766_656 / GIB, abs=1e-9)
    assert result.activation.startswith("activation peak at 2048 batched tokens, 512 sequences (--performance-mode")


def test_balanced_mode_keeps_the_reserve_at_vllms_defaults():
    result = fit(LLAMA_8B, "g5.xlarge", 16384, "--performance-mode", "balanced")

    assert (result.activation_gib_per_gpu, result.reserve_gib_per_gpu, result.activation) == (0.0, 2.0, "")


def test_throughput_mode_widens_the_window_layers_tokens_in_flight():
    balanced = fit(GPT_OSS_20B, "g6.xlarge", 131072)
    throughput = fit(GPT_OSS_20B, "g6.xlarge", 131072, "--performance-mode", "throughput")

    assert balanced.kv_gib_per_sequence_per_gpu == pytest.approx(3_325_427_712 / GIB, abs=1e-9)
    assert throughput.kv_gib_per_sequence_per_gpu == pytest.approx(3_426_091_008 / GIB, abs=1e-9)
    assert throughput.activation_gib_per_gpu == pytest.approx(733_970_432 / GIB, abs=1e-9)
    assert "12 window layer(s) keep 127 + 2 x 4096 tokens in flight at most" in throughput.kv_cache
