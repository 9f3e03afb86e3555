"""Each part of the activation peak (components/facts/activation_peak.py) on a toy model with round widths, so every
term of the formula shows in the bytes: the forward's residual streams and its widest of MLP, experts and attention,
the sampler's logits and kept hidden states, the activation's bytes, the facts a peak needs, and what
`activation_extra` passes on.

The formula, as activation_peak.py's docstring derives it from the vllm 0.32.0 wheel's source (vllm/v1/worker/
gpu_model_runner.py `profile_run`, vllm/v1/sample/sampler.py `Sampler.forward`, vllm/model_executor/models/llama.py
`LlamaMLP.forward`, vllm/model_executor/layers/fused_moe/experts/triton_moe.py `workspace_shapes`), b the activation's
bytes (2 in 16 bits, 4 in float32):
    forward(T) = T x b x (3H + max(MLP, attention)), MLP = 3I/tp (dense) or top_k x (max(N/2, H) + max(N, H)),
    N = 2 I_e / tp (2 I_e with expert parallelism); attention = (2 x heads/tp + 2 x max(1, KV heads/tp)) x head_dim,
    none with multi-latent attention;
    sampler(T, S) = s x V x (b + 12) + (T + s) x H x b, s = min(S, T);  peak = max(forward, sampler).

The toy model: H = 1000, I = 4000, V = 10000, 16 heads and 4 KV heads of 100.
"""

from __future__ import annotations

import dataclasses

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.activation_peak import (
    GIB,
    ActivationExtra,
    Budget,
    activation_bytes,
    activation_extra,
    forward_peak_bytes,
    missing_facts,
    peak_bytes,
    sampler_peak_bytes,
)
from components.facts.model_facts import ModelFacts
from components.facts.model_memory import ServedModel, model_fit

DENSE = ModelFacts(
    parameters=1_000_000,
    layers=2,
    attention_heads=16,
    kv_heads=4,
    head_dim=100,
    max_context=4096,
    dtype="bfloat16",
    bytes_per_parameter=2,
    hidden_size=1000,
    intermediate_size=4000,
    vocab_size=10000,
)
# 8 experts, 2 a token, each 1500 wide; no dense MLP width recorded.
EXPERTS = dataclasses.replace(
    DENSE, intermediate_size=0, experts=8, active_experts=2, expert_intermediate_size=1500, expert_parameters=800_000
)
# A dense MLP narrower than attention: 3 x 1000 = 3000 < (32 + 8) x 100 = 4000 at TP 1.
NARROW_MLP = dataclasses.replace(DENSE, intermediate_size=1000)

FORWARDS = [
    # MLP 3 x 4000 = 12000 > attention 4000: 10 x 2 x (3000 + 12000).
    pytest.param(DENSE, 1, False, 2, 300_000, id="dense-mlp-widest"),
    # The same in float32: 10 x 4 x 15000.
    pytest.param(DENSE, 1, False, 4, 600_000, id="dense-float32"),
    # TP 4: MLP 12000 / 4 = 3000 > attention (2 x 4 + 2 x 1) x 100 = 1000: 10 x 2 x (3000 + 3000).
    pytest.param(DENSE, 4, False, 2, 120_000, id="dense-tensor-parallel-4"),
    # Attention 4000 > MLP 3000: 10 x 2 x (3000 + 4000).
    pytest.param(NARROW_MLP, 1, False, 2, 140_000, id="attention-widest"),
    # TP 8: MLP 3000 // 8 = 375; attention (2 x 2 + 2 x max(1, 4 // 8 = 0)) x 100 = 600: each GPU holds one KV head.
    pytest.param(NARROW_MLP, 8, False, 2, 72_000, id="one-kv-head-at-least"),
    # Multi-latent attention has no attention term: MLP 3000 alone, 10 x 2 x (3000 + 3000).
    pytest.param(dataclasses.replace(NARROW_MLP, latent_attention=True), 1, False, 2, 120_000, id="latent-attention"),
    # Experts, TP 2: N = 2 x 1500 / 2 = 1500, 2 x (max(750, 1000) + max(1500, 1000)) = 5000 > attention
    # (16 + 4) x 100 = 2000: 10 x 2 x (3000 + 5000).
    pytest.param(EXPERTS, 2, False, 2, 160_000, id="experts-tensor-parallel-2"),
    # Expert parallelism keeps each expert whole: N = 3000, 2 x (max(1500, 1000) + max(3000, 1000)) = 9000:
    # 10 x 2 x (3000 + 9000).
    pytest.param(EXPERTS, 2, True, 2, 240_000, id="experts-expert-parallel"),
    # Tensor parallelism gives each GPU whole heads and whole columns: a width tp does not divide counts its floor.
    # 3 x 4001 // 2 = 6001 > attention 2000; 10 x 2 x (3000 + 6001).
    pytest.param(dataclasses.replace(DENSE, intermediate_size=4001), 2, False, 2, 180_020, id="mlp-split-whole"),
    # TP 3: 16 // 3 = 5 query heads and 4 // 3 = 1 KV head, (10 + 2) x 100 = 1200 > MLP 3000 // 3 = 1000.
    pytest.param(NARROW_MLP, 3, False, 2, 84_000, id="heads-split-whole"),
    # Experts 3500 wide, TP 3: N = 7000 // 3 = 2333, 2 x (2333 // 2 = 1166 + 2333) = 6998 > attention 1200:
    # 10 x 2 x (3000 + 6998).
    pytest.param(
        dataclasses.replace(EXPERTS, expert_intermediate_size=3500), 3, False, 2, 199_960, id="experts-split-whole"
    ),
]


@pytest.mark.parametrize(("facts", "tp", "expert_parallel", "width", "expected"), FORWARDS)
def test_forward_peak_bytes_at_10_tokens(facts, tp, expert_parallel, width, expected):
    assert forward_peak_bytes(facts, 10, tp, expert_parallel, width) == expected


SAMPLERS = [
    # s = 4: 4 x 10000 x 14 = 560,000 + (10 + 4) x 1000 x 2 = 28,000.
    pytest.param(Budget(10, 4), 2, 588_000, id="sequences-under-tokens"),
    # s = min(10, 4) = 4 requests, not 10: 560,000 + (4 + 4) x 2000.
    pytest.param(Budget(4, 10), 2, 576_000, id="no-more-requests-than-tokens"),
    # float32: 4 x 10000 x 16 = 640,000 + 14 x 1000 x 4 = 56,000.
    pytest.param(Budget(10, 4), 4, 696_000, id="float32"),
]


@pytest.mark.parametrize(("budget", "width", "expected"), SAMPLERS)
def test_sampler_peak_bytes(budget, width, expected):
    assert sampler_peak_bytes(DENSE, budget, width) == expected


def test_the_peak_is_the_larger_of_forward_and_sampler():
    # 10 tokens: forward 300,000 < sampler 588,000. 100 tokens: forward 3,000,000 > sampler 560,000 + 104 x 2000.
    assert peak_bytes(DENSE, Budget(10, 4), 1, False, 2) == 588_000
    assert peak_bytes(DENSE, Budget(100, 4), 1, False, 2) == 3_000_000


@pytest.mark.parametrize(
    ("dtype", "facts_dtype", "expected"),
    [
        (None, "bfloat16", 2),
        (None, "float16", 2),
        (None, "float32", 4),
        (None, "float", 4),
        ("float", "bfloat16", 4),
        ("float32", "bfloat16", 4),
        ("bfloat16", "float32", 2),
        ("half", "float32", 2),
        ("auto", "bfloat16", 2),
    ],
)
def test_an_activation_takes_4_bytes_in_float32_else_2(dtype, facts_dtype, expected):
    """`--dtype` wins over the weights' dtype; 16-bit types (and quantized weights) compute in 2 bytes."""
    assert activation_bytes(dtype, dataclasses.replace(DENSE, dtype=facts_dtype)) == expected


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        pytest.param(DENSE, "", id="dense-complete"),
        pytest.param(EXPERTS, "", id="experts-complete-without-a-dense-width"),
        pytest.param(dataclasses.replace(DENSE, hidden_size=0), "hidden size", id="hidden"),
        pytest.param(dataclasses.replace(DENSE, vocab_size=0), "vocabulary", id="vocabulary"),
        pytest.param(dataclasses.replace(DENSE, intermediate_size=0), "MLP width", id="dense-width"),
        pytest.param(
            dataclasses.replace(EXPERTS, intermediate_size=4000, expert_intermediate_size=0),
            "MLP width",
            id="experts-width-not-the-dense-one",
        ),
        pytest.param(
            dataclasses.replace(DENSE, hidden_size=0, vocab_size=0, intermediate_size=0),
            "hidden size, vocabulary, MLP width",
            id="all-three",
        ),
    ],
)
def test_missing_facts_names_what_the_peak_needs(facts, expected):
    assert missing_facts(facts) == expected


def test_activation_extra_counts_with_expert_parallelism_when_asked():
    # EP: forward(100) = 100 x 2 x (3000 + 9000) = 2,400,000 > sampler 768,000; default forward(10) 240,000 < sampler
    # 588,000. Without EP: forward(100) = 100 x 2 x 8000 = 1,600,000, less 588,000.
    budget, default = Budget(100, 4), Budget(10, 4)

    assert activation_extra(EXPERTS, budget, default, 2, expert_parallel=True) == ActivationExtra(
        1_812_000 / GIB, budget, default
    )
    assert activation_extra(EXPERTS, budget, default, 2) == ActivationExtra(1_012_000 / GIB, budget, default)


def test_the_default_budgets_peak_is_counted_with_expert_parallelism_too():
    # EP at 100 and 200 tokens: forward 2,400,000 and 4,800,000, above the sampler's 768,000 and 968,000.
    budget, default = Budget(200, 4), Budget(100, 4)

    assert activation_extra(EXPERTS, budget, default, 2, expert_parallel=True).gib == 2_400_000 / GIB


def test_activation_extra_counts_in_the_servers_dtype():
    # float32: forward(100) = 100 x 4 x 15000 = 6,000,000; default: sampler 696,000 > forward 600,000. In 16 bits:
    # 3,000,000 - 588,000.
    budget, default = Budget(100, 4), Budget(10, 4)

    assert activation_extra(DENSE, budget, default, 1, dtype="float32").gib == 5_304_000 / GIB
    assert activation_extra(dataclasses.replace(DENSE, dtype="float32"), budget, default, 1).gib == 5_304_000 / GIB
    assert activation_extra(DENSE, budget, default, 1).gib == 2_412_000 / GIB


def test_the_default_budget_adds_nothing_and_describes_nothing_even_without_the_facts():
    default = Budget(10, 4)
    lacking = dataclasses.replace(DENSE, vocab_size=0)

    assert activation_extra(DENSE, default, default, 1) == ActivationExtra(0.0, default, default)
    assert activation_extra(lacking, default, default, 1) == ActivationExtra(0.0, default, default, "vocabulary")
    assert activation_extra(lacking, default, default, 1).describe() == ""


def test_a_smaller_budget_adds_nothing_but_says_so_against_the_default():
    # Budget (10, 2): sampler 2 x 140,000 + 12 x 2000 = 304,000 < the default's 588,000.
    extra = activation_extra(DENSE, Budget(10, 2), Budget(10, 4), 1)

    assert extra == ActivationExtra(0.0, Budget(10, 2), Budget(10, 4))
    assert extra.describe() == (
        "activation peak at 10 batched tokens, 2 sequences +0.00 GiB over vLLM's default budget (10 tokens, "
        "4 sequences)"
    )


def test_the_fit_counts_the_activation_peak_with_the_servers_expert_parallelism():
    """gpt-oss-120b (hidden 2880, 2880-wide experts, 4 a token, vocabulary 201088, 64 heads and 8 KV heads of 64) at
    TP 2 on H100s (default 8192 tokens, 1024 sequences): with expert parallelism N = 5760, 4 x (2880 + 5760) =
    34560 a token, forward(T) = T x 2 x (8640 + 34560) = 86400 T; without it N = 2880, 4 x (2880 + 2880) = 23040,
    63360 T. Sampler(T, 1024) = 1024 x 201088 x 14 + (T + 1024) x 5760. At the default: sampler 2,935,881,728 is the
    peak. At 65536 tokens: 5,662,310,400 with EP (sampler 3,266,183,168), 4,152,360,960 without."""
    facts = model_catalog.lookup("openai/gpt-oss-120b")
    extras = []
    for expert_parallel in (True, False):
        served = ServedModel(
            "openai/gpt-oss-120b",
            "gpu",
            2,
            8192,
            0.9,
            facts,
            max_num_batched_tokens=65536,
            expert_parallel=expert_parallel,
        )
        extras.append(model_fit(served, gpu_catalog.lookup("p5.48xlarge"), "p5.48xlarge").activation_gib_per_gpu)

    assert extras == [2_726_428_672 / GIB, 1_216_479_232 / GIB]


def test_the_fit_counts_the_activation_peak_in_the_servers_dtype():
    """Llama-3.1-8B in float32 (b = 4) on an L40S (default 2048 tokens, 256 sequences): forward(T) = T x 4 x (12288 +
    43008); sampler(T, 256) = 256 x 128256 x 16 + (T + 256) x 4096 x 4. Default: sampler 563,085,312 > forward
    452,984,832. At 32768 tokens: forward 7,247,757,312; extra 6,684,672,000 bytes (3,145,334,784 in bfloat16)."""
    llama = model_catalog.lookup("meta-llama/Llama-3.1-8B-Instruct")
    served = ServedModel(
        "meta-llama/Llama-3.1-8B-Instruct", "gpu", 1, 16384, 0.9, llama, max_num_batched_tokens=32768, dtype="float32"
    )

    assert (
        model_fit(served, gpu_catalog.lookup("g6e.xlarge"), "g6e.xlarge").activation_gib_per_gpu == 6_684_672_000 / GIB
    )
