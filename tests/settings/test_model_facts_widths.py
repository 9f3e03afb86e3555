"""`vllm.modelFacts.hiddenSize`, `vocabSize` and `expertIntermediateSize`: the widths the fits gate needs to count
what a batch budget above vLLM's default adds to the activation peak (components/facts/activation_peak.py).

The facts are Qwen3-8B's and Qwen3-30B-A3B's (citsjtu2020/LLM-Prof sglang/Model_Config.md at commit
8434c8d19c396b2f95d92a67845a7c0a0e0dd512): Qwen3-8B hidden_size 4096, intermediate_size 12288, vocab_size 151936, 36
layers, 32 heads, 8 KV heads of 128; Qwen3-30B-A3B hidden_size 2048, moe_intermediate_size 768, 128 experts, 8 per
token, vocab_size 151936.
"""

from __future__ import annotations

import pytest

from components.facts.activation_peak import Budget, activation_extra
from components.settings import ConfigError, parse_settings

QWEN3_8B = {
    "parameters": 8_200_000_000,
    "layers": 36,
    "attentionHeads": 32,
    "kvHeads": 8,
    "headDim": 128,
    "maxContext": 40960,
    "intermediateSize": 12288,
}
QWEN3_30B_A3B = {
    "parameters": 30_500_000_000,
    "layers": 48,
    "attentionHeads": 32,
    "kvHeads": 4,
    "headDim": 128,
    "maxContext": 40960,
    "experts": 128,
    "activeExperts": 8,
}
SMALL_GPU_DEFAULT = Budget(2048, 256)


def facts_of(model_facts: dict):
    return parse_settings({"vllm": {"model": "acme/x", "modelFacts": model_facts}}).vllm.model_facts.facts()


def problems_of(model_facts: dict) -> list[tuple[str, str]]:
    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"model": "acme/x", "modelFacts": model_facts}})
    return [(problem.key, problem.message) for problem in error.value.problems]


def test_dense_widths_are_carried_and_a_larger_budget_is_counted():
    """Qwen3-8B at 16384 batched tokens, TP 1, bfloat16 (b = 2), activation_peak.py's formula:
    MLP 3 x 12288 = 36864 > attention (64 + 16) x 128 = 10240, forward(T) = T x 2 x (3 x 4096 + 36864) = T x 98304;
    sampler(T, 256) = 256 x 151936 x 14 + (T + 256) x 4096 x 2 = 544,538,624 + (T + 256) x 8192.
    Default (2048, 256): forward 201,326,592 < sampler 563,412,992. At 16384: forward 1,610,612,736 > sampler
    680,853,504; extra 1,610,612,736 - 563,412,992 = 1,047,199,744 bytes."""
    facts = facts_of({**QWEN3_8B, "hiddenSize": 4096, "vocabSize": 151936})

    assert (facts.hidden_size, facts.vocab_size, facts.expert_intermediate_size) == (4096, 151936, 0)
    extra = activation_extra(facts, Budget(16384, 256), SMALL_GPU_DEFAULT, 1)
    assert extra.missing == ""
    assert extra.gib == pytest.approx(1_047_199_744 / 1024**3, abs=1e-6)


def test_expert_width_is_carried_for_a_mixture_of_experts():
    facts = facts_of({**QWEN3_30B_A3B, "hiddenSize": 2048, "vocabSize": 151936, "expertIntermediateSize": 768})

    assert (facts.hidden_size, facts.vocab_size, facts.expert_intermediate_size) == (2048, 151936, 768)
    assert activation_extra(facts, Budget(16384, 256), SMALL_GPU_DEFAULT, 1).missing == ""


def test_widths_of_one_are_the_floor():
    facts = facts_of({**QWEN3_30B_A3B, "hiddenSize": 1, "vocabSize": 1, "expertIntermediateSize": 1})

    assert (facts.hidden_size, facts.vocab_size, facts.expert_intermediate_size) == (1, 1, 1)


def test_without_the_widths_the_growth_is_named_not_counted():
    facts = facts_of(QWEN3_30B_A3B)

    extra = activation_extra(facts, Budget(16384, 256), SMALL_GPU_DEFAULT, 1)
    assert (extra.gib, extra.missing) == (0, "hidden size, vocabulary, MLP width")


def test_widths_that_are_not_positive_are_refused_together_naming_each_key():
    facts = {**QWEN3_30B_A3B, "hiddenSize": 0, "vocabSize": -1, "expertIntermediateSize": 0}

    assert problems_of(facts) == [
        ("vllm.modelFacts.hiddenSize", "invalid value 0; allowed: an integer >= 1 (`hidden_size`)"),
        ("vllm.modelFacts.vocabSize", "invalid value -1; allowed: an integer >= 1 (`vocab_size`)"),
        (
            "vllm.modelFacts.expertIntermediateSize",
            "invalid value 0; allowed: an integer >= 1 (`moe_intermediate_size`)",
        ),
    ]


def test_an_expert_width_without_experts_is_refused_with_the_other_cross_field_problems():
    facts = {**QWEN3_8B, "expertIntermediateSize": 768, "kvHeads": 5}

    assert problems_of(facts) == [
        (
            "vllm.modelFacts.expertIntermediateSize",
            "768 with experts 0; allowed: only with experts >= 1 (a dense model's MLP width is intermediateSize)",
        ),
        ("vllm.modelFacts.kvHeads", "5 does not divide attentionHeads 32; allowed: a divisor of attentionHeads"),
    ]
