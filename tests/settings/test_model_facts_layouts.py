"""`vllm.modelFacts` for a quantized, mixture-of-experts, sliding-window or multi-latent model outside the catalog:
the fits gate sizes it as it sizes the catalog's rows, and contradictory facts are refused all at once.

The gpt-oss-120b figures (65,250,502,400 bytes of weights = 60.77 GiB) are worked in
tests/placement/test_model_fit_layouts.py from its `config.json` and vLLM v0.32.0's MXFP4 tensors.
"""

from __future__ import annotations

from typing import get_args

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.model_memory import ServedModel, model_fit
from components.settings import ConfigError, parse_settings
from components.settings.fleet import served_model
from components.settings.vllm import ModelFactsSettings, Quantization

GPT_OSS_120B = {
    "parameters": 116_830_000_000,
    "layers": 36,
    "attentionHeads": 64,
    "kvHeads": 8,
    "headDim": 64,
    "maxContext": 131072,
    "quantization": "mxfp4",
    "quantizedParameters": 114_661_785_600,
    "experts": 128,
    "activeExperts": 4,
    "slidingWindow": 128,
    "slidingLayers": 18,
}


def test_model_facts_of_a_gpt_oss_copy_size_it_as_the_catalog_row_does():
    settings = parse_settings({"vllm": {"model": "acme/gpt-oss-120b-tuned", "modelFacts": GPT_OSS_120B}})
    facts = settings.vllm.model_facts.facts()

    assert facts.weight_bytes == 65_250_502_400
    assert facts.weight_bytes == model_catalog.lookup("openai/gpt-oss-120b").weight_bytes
    served = served_model(settings.vllm, "gpu")
    result = model_fit(served, gpu_catalog.lookup("g6e.xlarge"), "g6e.xlarge")
    assert result.fits is False
    assert "weights 60.8 GiB + reserve 2.0 GiB per GPU > 40.5 GiB usable per L40S" in result.reason
    assert result.source == "vllm.modelFacts"


def test_contradictory_layout_facts_are_refused_together_naming_each_key():
    facts = {**GPT_OSS_120B, "quantizedParameters": 2 * 10**12, "slidingLayers": 0}
    del facts["quantization"]

    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"model": "acme/x", "modelFacts": facts}})

    messages = [(problem.key, problem.message) for problem in error.value.problems]
    assert messages == [
        ("vllm.modelFacts.quantizedParameters", "2000000000000 > parameters 116830000000; allowed: at most parameters"),
        (
            "vllm.modelFacts.quantization",
            "missing with quantizedParameters set; allowed: fp8, int8, awq, gptq, compressed-tensors/w4a16, "
            "compressed-tensors/w8a16, compressed-tensors/w8a8-int8, compressed-tensors/w8a8-fp8, "
            "compressed-tensors/w8a16-fp8, mxfp4",
        ),
        (
            "vllm.modelFacts.slidingLayers",
            "0 with slidingWindow 128; allowed: 1 to layers (36) with a slidingWindow, 0 without",
        ),
    ]


def test_bitsandbytes_facts_are_refused_with_the_other_problems_as_vllm_knows_no_such_method():
    """vLLM v0.32.0's `QuantizationMethods` (vllm/model_executor/layers/quantization/__init__.py in the
    vllm-0.32.0 wheel) has no bitsandbytes: facts naming it would fail the fits gate on every GPU, so the settings
    refuse them at once, beside a problem of another section."""
    facts = {**GPT_OSS_120B, "quantization": "bitsandbytes"}

    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"model": "acme/x", "modelFacts": facts}, "cluster": {"version": "1.0"}})

    messages = [str(problem) for problem in error.value.problems]
    assert (
        "eks-gpu-inference:vllm.modelFacts.quantization: vLLM 0.32.0 knows no quantization method 'bitsandbytes'; "
        "allowed: fp8, int8, awq, gptq, compressed-tensors/w4a16, compressed-tensors/w8a16, "
        "compressed-tensors/w8a8-int8, compressed-tensors/w8a8-fp8, compressed-tensors/w8a16-fp8, mxfp4"
    ) in messages
    assert any(message.startswith("eks-gpu-inference:cluster.version") for message in messages)


@pytest.mark.parametrize("method", get_args(Quantization))
def test_every_quantization_modelfacts_accepts_is_sized(method):
    """Each value the setting allows has its bytes per weight in facts/model_facts.py's table: a billion quantized
    weights weigh at least the 0.5 byte of the smallest, 4-bit methods."""
    settings = ModelFactsSettings(
        parameters=1_000_000_000,
        layers=1,
        attention_heads=1,
        kv_heads=1,
        head_dim=64,
        max_context=4096,
        quantization=method,
        quantized_parameters=1_000_000_000,
    )

    assert settings.facts().weight_bytes >= 0.5e9


# A copy of Llama 4 Scout outside the catalog (its text_config: 48 layers, 40 heads, 8 KV heads, head_dim 128, 16
# experts, 1 per token, attention_chunk_size 8192, every fourth layer NoPE so 36 RoPE layers chunked; 109B parameters
# from Meta's model card), as facts/model_catalog_layouts.py's row quotes it.
SCOUT = {
    "parameters": 109_000_000_000,
    "layers": 48,
    "attentionHeads": 40,
    "kvHeads": 8,
    "headDim": 128,
    "maxContext": 10485760,
    "experts": 16,
    "activeExperts": 1,
    "attentionChunk": 8192,
    "chunkedLayers": 36,
}


def test_model_facts_chunked_layers_keep_a_chunk_of_cache_each():
    """Over 8 H100 at 131072 tokens (max_num_batched_tokens 8192 there): 12 global layers x 131072 + 36 chunked
    layers x cdiv(min(8192 + 2 x 8192, 131072), 16) x 16 = 24576 tokens = 2,457,600 slots x 2 x 1 KV head per GPU x
    128 x 2 bytes = 1.1719 GiB per sequence (vllm/v1/kv_cache_interface.py `ChunkedLocalAttentionSpec` at v0.32.0),
    where 48 global layers would keep 3.0 GiB."""
    settings = parse_settings({"vllm": {"model": "acme/scout-tuned", "modelFacts": SCOUT}})
    served = ServedModel("acme/scout-tuned", "gpu", 8, 131072, 0.9, settings.vllm.model_facts.facts())

    result = model_fit(served, gpu_catalog.lookup("p5.48xlarge"), "p5.48xlarge")

    assert result.kv_gib_per_sequence_per_gpu == pytest.approx(1.1719, abs=1e-4)
    assert "36 of 48 layers in 8192-token chunks" in result.layout


@pytest.mark.parametrize(
    ("chunk_facts", "message"),
    [
        pytest.param(
            {"chunkedLayers": 36},
            "36 with attentionChunk None; allowed: 1 to layers less slidingLayers (48) with an attentionChunk, 0 "
            "without",
            id="layers-without-chunk",
        ),
        pytest.param(
            {"attentionChunk": 8192},
            "0 with attentionChunk 8192; allowed: 1 to layers less slidingLayers (48) with an attentionChunk, 0 "
            "without",
            id="chunk-without-layers",
        ),
        pytest.param(
            {"attentionChunk": 8192, "chunkedLayers": 40, "slidingWindow": 4096, "slidingLayers": 12},
            "40 with attentionChunk 8192; allowed: 1 to layers less slidingLayers (36) with an attentionChunk, 0 "
            "without",
            id="more-local-layers-than-layers",
        ),
    ],
)
def test_contradictory_chunk_facts_are_refused_naming_the_key_value_and_allowed(chunk_facts, message):
    facts = {key: value for key, value in SCOUT.items() if key not in ("attentionChunk", "chunkedLayers")}

    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"model": "acme/x", "modelFacts": {**facts, **chunk_facts}}})

    assert [(problem.key, problem.message) for problem in error.value.problems] == [
        ("vllm.modelFacts.chunkedLayers", message)
    ]


def test_a_chunk_below_one_token_is_refused_naming_the_allowed_range():
    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"model": "acme/x", "modelFacts": {**SCOUT, "attentionChunk": 0}}})

    assert [problem.key for problem in error.value.problems] == ["vllm.modelFacts.attentionChunk"]
    assert "an integer >= 1" in error.value.problems[0].message
