"""The GPU capability rules of vLLM v0.32.0 in the fits gate (facts/vllm_capability.py), and the serving flags of
`vllm.extraArgs` the gate reads (`--dtype`, `--max-num-batched-tokens`).

Expected outcomes from vLLM v0.32.0's source (the v0.32.0 wheel): the minimum compute capability of each
checkpoint method (`get_min_capability` of fp8.py 75, mxfp4.py 80, auto_awq.py 75, auto_gptq.py 60,
compressed_tensors.py 70 under vllm/model_executor/layers/quantization/), refused by vllm/config/vllm.py
`_get_quantization_config`; MXFP4's bfloat16-only activations (`get_supported_act_dtypes`); FP8 tensor cores from
8.9 (platforms/cuda.py `supports_fp8`) and the Marlin weight-only fallback from 7.5 (kernels/linear/scaled_mm/
marlin.py); bfloat16 from 8.0 (platforms/cuda.py `supported_dtypes`, `check_if_supports_dtype`); bitsandbytes
absent from `QUANTIZATION_METHODS` (quantization/__init__.py). compressed-tensors' schemes
(compressed_tensors/schemes/, `get_min_capability`): wNa16 75, w8a8 int8 75, w8a16 fp8 75, w8a8 fp8 89, which
below 8.9 `_get_scheme_from_parts` swaps for w8a16 fp8 (Marlin) rather than refusing. Compute capabilities from NVIDIA's CUDA GPUs table
(facts/gpu_catalog.py): T4 7.5, V100 7.0, A100 8.0, A10G 8.6, L4 and L40S 8.9, H100 9.0.
"""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.model_memory import GIB, ServedModel, model_fit
from components.facts.vllm_capability import capability_findings
from components.settings.fleet import served_model
from components.settings.vllm import VllmSettings

RULES = [
    # (method, model dtype, --dtype, capability, problem or None, note or None)
    pytest.param(
        "mxfp4",
        "bfloat16",
        None,
        (7, 5),
        "runs mxfp4 from compute capability 8.0; the GPU is 7.5",
        "float16",
        id="mxfp4-t4",
    ),
    pytest.param("mxfp4", "bfloat16", None, (8, 0), None, None, id="mxfp4-a100"),
    pytest.param(
        "mxfp4",
        "bfloat16",
        "half",
        (9, 0),
        "mxfp4 takes bfloat16 activations only, not --dtype half",
        None,
        id="mxfp4-half",
    ),
    pytest.param(
        "fp8",
        "bfloat16",
        None,
        (7, 0),
        "runs fp8 from compute capability 7.5; the GPU is 7.0",
        "float16",
        id="fp8-v100",
    ),
    pytest.param(
        "fp8",
        "bfloat16",
        None,
        (8, 6),
        None,
        "Marlin weight-only kernel: the GPU (8.6) has no FP8",
        id="fp8-a10g-marlin",
    ),
    pytest.param("fp8", "bfloat16", None, (8, 9), None, None, id="fp8-l4-native"),
    pytest.param(
        "awq", "float16", None, (7, 0), "runs awq from compute capability 7.5; the GPU is 7.0", None, id="awq-v100"
    ),
    pytest.param("awq", "float16", None, (7, 5), None, None, id="awq-t4"),
    pytest.param("gptq", "float16", None, (7, 0), None, None, id="gptq-v100"),
    pytest.param(
        "compressed-tensors", "bfloat16", None, (7, 0), None, "served in float16", id="compressed-tensors-v100"
    ),
    pytest.param(
        "compressed-tensors/w8a8-fp8",
        "bfloat16",
        None,
        (7, 0),
        "runs compressed-tensors/w8a8-fp8 from compute capability 7.5; the GPU is 7.0",
        "served in float16",
        id="ct-fp8-v100",
    ),
    pytest.param(
        "compressed-tensors/w8a8-fp8",
        "bfloat16",
        None,
        (8, 0),
        None,
        "Marlin weight-only kernel: the GPU (8.0) has no FP8",
        id="ct-fp8-a100-marlin",
    ),
    pytest.param("compressed-tensors/w8a8-fp8", "bfloat16", None, (8, 9), None, None, id="ct-fp8-l4-native"),
    pytest.param(
        "compressed-tensors/w4a16",
        "float16",
        None,
        (7, 0),
        "runs compressed-tensors/w4a16 from compute capability 7.5; the GPU is 7.0",
        None,
        id="ct-w4a16-v100",
    ),
    pytest.param("compressed-tensors/w8a8-int8", "float16", None, (7, 5), None, None, id="ct-int8-t4"),
    pytest.param(
        "bitsandbytes", "bfloat16", None, (9, 0), "knows no quantization method bitsandbytes", None, id="bitsandbytes"
    ),
    pytest.param(
        None, "bfloat16", None, (7, 5), None, "served in float16: the GPU (7.5) has no bfloat16", id="bf16-t4-auto"
    ),
    pytest.param(
        None, "bfloat16", "bfloat16", (7, 5), "--dtype bfloat16 needs compute capability 8.0", None, id="bf16-t4-forced"
    ),
    pytest.param(None, "float16", None, (7, 5), None, None, id="fp16-t4"),
]


@pytest.mark.parametrize(("method", "dtype", "flag", "capability", "problem", "note"), RULES)
def test_capability_rules(method, dtype, flag, capability, problem, note):
    findings = capability_findings(method, dtype, flag, capability, "GPU")

    assert [problem in found for found in findings.problems] == ([True] if problem else [])
    assert [note in found for found in findings.notes] == ([True] if note else [])


def fit(model: str, instance_type: str, dtype: str | None = None):
    served = ServedModel(model, "gpu", 1, 8192, 0.9, model_catalog.lookup(model), dtype=dtype)
    return model_fit(served, gpu_catalog.lookup(instance_type), instance_type)


def test_gpt_oss_20b_on_a_t4_fails_on_its_capability_beside_its_memory():
    result = fit("openai/gpt-oss-20b", "g4dn.xlarge")

    assert result.fits is False
    assert "vLLM 0.32.0 runs mxfp4 from compute capability 8.0; the T4 is 7.5" in result.reason


def test_an_fp8_model_on_an_a10g_fits_and_says_it_runs_weight_only():
    result = fit("Qwen/Qwen3-8B-FP8", "g5.xlarge")

    assert result.fits is True
    assert result.reason.endswith(
        "FP8 weights through the Marlin weight-only kernel: the A10G (8.6) has no FP8 tensor cores"
    )
    assert "Marlin" not in fit("Qwen/Qwen3-8B-FP8", "g6.xlarge").reason


def test_a_bf16_model_on_a_t4_is_served_in_float16_unless_bfloat16_is_forced():
    assert fit("Qwen/Qwen2.5-3B-Instruct", "g4dn.xlarge").reason.endswith(
        "served in float16: the T4 (7.5) has no bfloat16"
    )
    forced = fit("Qwen/Qwen2.5-3B-Instruct", "g4dn.xlarge", dtype="bfloat16")
    assert forced.fits is False
    assert forced.reason.endswith("--dtype bfloat16 needs compute capability 8.0; the T4 is 7.5")


def test_extra_args_set_the_dtype_and_the_batch_budget_the_gate_sizes_with():
    """gpt-oss-20b on an L4 at 131072 with `--max-num-batched-tokens 8k` (8000): each of the 12 window layers keeps
    cdiv(127 + 2 x 8000, 16) + 1 = 1008 + 1 = 1009 pages = 16144 tokens, the 12 full ones 131072: (12 x 131072 +
    12 x 16144) x 2 x 8 KV heads x 64 x 2 bytes = 1,766,592 x 2048 = 3,617,980,416 bytes = 3.3695 GiB (2048 batched
    tokens, the L4's default, give 3.0970 GiB: tests/placement/test_model_fit_layouts.py)."""
    settings = VllmSettings(
        model="openai/gpt-oss-20b",
        max_model_len=131072,
        extra_args=["--max-num-batched-tokens", "8k", "--dtype", "bfloat16"],
    )

    served = served_model(settings, "gpu")
    result = model_fit(served, gpu_catalog.lookup("g6.xlarge"), "g6.xlarge")

    assert (served.max_num_batched_tokens, served.dtype) == (8000, "bfloat16")
    assert result.kv_gib_per_sequence_per_gpu == pytest.approx(3_617_980_416 / GIB)
    assert "127 + 2 x 8000 tokens in flight" in result.kv_cache


WHOLE = [
    # (method, model dtype, --dtype, capability, problems, notes), each finding's whole text.
    pytest.param(
        "mxfp4",
        "bfloat16",
        "float16",
        (7, 5),
        [
            "vLLM 0.32.0 runs mxfp4 from compute capability 8.0; the GPU is 7.5",
            "mxfp4 takes bfloat16 activations only, not --dtype float16",
        ],
        [],
        id="mxfp4-float16-on-7.5",
    ),
    pytest.param(
        "fp8",
        "bfloat16",
        "auto",
        (7, 5),
        [],
        [
            "FP8 weights through the Marlin weight-only kernel: the GPU (7.5) has no FP8 tensor cores",
            "served in float16: the GPU (7.5) has no bfloat16",
        ],
        id="fp8-at-its-minimum-auto-dtype",
    ),
    pytest.param(
        "bitsandbytes",
        "bfloat16",
        "bfloat16",
        (7, 5),
        [
            "vLLM 0.32.0 knows no quantization method bitsandbytes (on any GPU)",
            "--dtype bfloat16 needs compute capability 8.0; the GPU is 7.5",
        ],
        [],
        id="bitsandbytes-forced-bfloat16",
    ),
    # --dtype float16 asks for what the GPU has: nothing to say.
    pytest.param(None, "bfloat16", "float16", (7, 5), [], [], id="float16-asked-on-7.5"),
    pytest.param("gptq", "float16", None, (6, 0), [], [], id="gptq-at-its-minimum"),
    pytest.param(
        "gptq",
        "float16",
        None,
        (5, 2),
        ["vLLM 0.32.0 runs gptq from compute capability 6.0; the GPU is 5.2"],
        [],
        id="gptq-below",
    ),
]


@pytest.mark.parametrize(("method", "dtype", "flag", "capability", "problems", "notes"), WHOLE)
def test_capability_findings_whole(method, dtype, flag, capability, problems, notes):
    findings = capability_findings(method, dtype, flag, capability, "GPU")

    assert (findings.problems, findings.notes) == (problems, notes)
