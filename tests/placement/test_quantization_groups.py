"""Tensor parallel shards that split a quantization group, which vLLM v0.32.0 refuses at start-up
(facts/model_catalog.py `group_problems`): AWQ's `create_weights` (quantization/auto_awq.py, "The input size is not
aligned with the quantized weight shape"), the Marlin kernel GPTQ and compressed-tensors use
(kernels/linear/mixed_precision/marlin.py, "A group straddling TP ranks cannot be fixed by padding") and block FP8
(quantization/utils/fp8_utils.py `validate_fp8_block_shape`).

Worked by hand from the configs:
- Qwen2-72B-Instruct's AWQ (intermediate_size 29568, 64 heads of 128, group_size 128; vllm-project/vllm#21695 and
  QwenLM/Qwen3-VL#231 quote it): 29568 / 2 = 14784 = 115.5 groups, so TP 2 is refused, and so are 4 (7392 = 57.75)
  and 8 (3696 = 28.875); the attention's 8192 inputs split whole (8192 / 8 = 1024 = 8 groups). Padded to 29696, as
  Qwen's own Qwen2.5-72B-Instruct-AWQ is, 29696 / 8 = 3712 = 29 groups.
- Qwen2.5-7B-Instruct-AWQ (intermediate_size 18944, 28 heads of 128, group 128, the catalog's row): 18944 / 2 =
  9472 = 74 groups, / 4 = 4736 = 37 groups, / 7 = 2706.29 (not whole): TP 1, 2, 4 pass; 7 divides the 28 heads but
  not the MLP; 14 and 28 split the 3584 attention inputs into 256 and 128, whole, but the MLP into 1353.1 and 676.6.
"""

from __future__ import annotations

import dataclasses

import pytest

from components.facts import model_catalog
from components.facts.model_catalog import ModelFacts, group_problems
from components.settings.vllm import VllmSettings

QWEN2_72B_AWQ = ModelFacts(
    72_700_000_000,
    80,
    64,
    8,
    128,
    32768,
    "float16",
    2,
    "test",
    quantization="awq",
    quantized_parameters=70_000_000_000,
    intermediate_size=29568,
    quantization_group=128,
)


@pytest.mark.parametrize(
    ("intermediate", "tp", "refused"),
    [
        pytest.param(29568, 1, False, id="29568-on-one-gpu"),
        pytest.param(29568, 2, True, id="29568-over-two-gpus"),
        pytest.param(29568, 8, True, id="29568-over-eight-gpus"),
        pytest.param(29696, 2, False, id="29696-over-two-gpus"),
        pytest.param(29696, 8, False, id="29696-over-eight-gpus"),
    ],
)
def test_an_awq_mlp_splits_into_whole_groups_or_is_refused(intermediate, tp, refused):
    facts = dataclasses.replace(QWEN2_72B_AWQ, intermediate_size=intermediate)

    problems = group_problems(facts, tp)

    assert bool(problems) is refused
    if refused:
        assert problems == [
            f"tensorParallelSize {tp} splits the {intermediate} down projection's inputs into {intermediate / tp:g} per "
            "GPU, not whole awq groups of 128"
        ]


def test_the_attention_outputs_inputs_are_held_to_whole_groups_too():
    """The attention's output projection is row-parallel as the MLP's down projection is, so its inputs (heads x
    head_dim) split over the GPUs too. Llama-3.2-1B's shape (config.json: 32 heads of 64, intermediate_size 8192)
    with AWQ groups of 128 at TP 32: the MLP splits whole (8192 / 32 = 256 = 2 groups), the attention's 2048 inputs
    into 64 per GPU, half a group."""
    facts = dataclasses.replace(QWEN2_72B_AWQ, attention_heads=32, kv_heads=8, head_dim=64, intermediate_size=8192)

    assert group_problems(facts, 32) == [
        "tensorParallelSize 32 splits the 2048 attention output's inputs into 64 per GPU, not whole awq groups of 128"
    ]


def test_methods_without_groups_and_unrecorded_shapes_are_not_held_to_them():
    mxfp4 = model_catalog.lookup("openai/gpt-oss-120b")  # MXFP4 pads its experts
    dense = model_catalog.lookup("Qwen/Qwen2.5-72B-Instruct")

    assert group_problems(mxfp4, 8) == [] and group_problems(dense, 8) == []
    assert group_problems(dataclasses.replace(QWEN2_72B_AWQ, quantization_group=0), 2) == []


def test_the_settings_refuse_a_tensor_parallel_size_that_splits_groups_naming_the_sizes_that_do_not():
    with pytest.raises(ValueError) as raised:
        VllmSettings(model="Qwen/Qwen2.5-7B-Instruct-AWQ", tensor_parallel_size=7)

    message = str(raised.value)
    assert "tensorParallelSize 7 splits the 18944 down projection's inputs into 2706.29 per GPU" in message
    assert "a divisor of the attention heads that leaves whole quantization groups per GPU: 1, 2, 4" in message


def test_model_facts_carry_the_group_and_the_settings_hold_the_tensor_parallel_size_to_it():
    """Qwen2-72B-Instruct's AWQ given as modelFacts (the figures above): TP 2 splits 29568 into 14784 = 115.5
    groups; the sizes left are the divisors of 64 heads that also split 29568 whole: 29568 / 128 = 231 = 3 x 7 x 11
    groups, odd, so only 1."""
    facts = {
        "parameters": 72_700_000_000,
        "layers": 80,
        "attentionHeads": 64,
        "kvHeads": 8,
        "headDim": 128,
        "maxContext": 32768,
        "dtype": "float16",
        "quantization": "awq",
        "quantizedParameters": 70_000_000_000,
        "intermediateSize": 29568,
        "quantizationGroup": 128,
    }

    with pytest.raises(ValueError) as raised:
        VllmSettings.model_validate({"model": "acme/qwen2-72b-awq", "tensorParallelSize": 2, "modelFacts": facts})

    message = str(raised.value)
    assert "tensorParallelSize 2 splits the 29568 down projection's inputs into 14784 per GPU" in message
    assert "allowed: a divisor of the attention heads that leaves whole quantization groups per GPU: 1 [" in message
