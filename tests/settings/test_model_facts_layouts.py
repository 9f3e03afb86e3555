"""`vllm.modelFacts` for a quantized, mixture-of-experts, sliding-window or multi-latent model outside the catalog:
the fits gate sizes it as it sizes the catalog's rows, and contradictory facts are refused all at once.

The gpt-oss-120b figures (65,250,502,400 bytes of weights = 60.77 GiB) are worked in
tests/placement/test_model_fit_layouts.py from its `config.json` and vLLM v0.32.0's MXFP4 tensors.
"""

from __future__ import annotations

from typing import get_args

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.model_memory import model_fit
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
            "compressed-tensors/w8a16-fp8, mxfp4, "
            "bitsandbytes",
        ),
        (
            "vllm.modelFacts.slidingLayers",
            "0 with slidingWindow 128; allowed: 1 to layers (36) with a slidingWindow, 0 without",
        ),
    ]


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
