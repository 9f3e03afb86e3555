"""Which quantization methods and dtypes vLLM v0.32.0 runs on a GPU of a given CUDA compute capability, as its
source decides at start-up (read in the v0.32.0 wheel, vllm-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl, 2026-12-05).
Standard library only.

- A checkpoint's method below its `get_min_capability()` is refused: vllm/config/vllm.py
  `_get_quantization_config` raises "The quantization method ... is not supported for the current GPU. Minimum
  capability: ...". The minimums, from each config class under vllm/model_executor/layers/quantization/: fp8.py
  `Fp8Config` 75, mxfp4.py `Mxfp4Config` 80, auto_awq.py `AutoAWQConfig` 75 (also `awq_marlin`), auto_gptq.py
  `AutoGPTQConfig` 60 (also `gptq_marlin`), compressed_tensors/compressed_tensors.py 70, experts_int8.py 80,
  fbgemm_fp8.py 80, modelopt.py 80, moe_wna16.py 70, torchao.py 75, humming.py 75.
- compressed-tensors then refuses a layer whose scheme asks more (compressed_tensors.py `get_scheme`:
  `_check_scheme_supported(scheme.get_min_capability())`), each scheme's minimum from
  compressed_tensors/schemes/: `CompressedTensorsWNA16` 75 (w4a16, w8a16), `CompressedTensorsW8A8Int8` 75,
  `CompressedTensorsW8A16Fp8` 75, `CompressedTensorsW8A8Fp8` 89. Below 8.9 an FP8 w8a8 checkpoint is not refused:
  `_get_scheme_from_parts` picks `CompressedTensorsW8A16Fp8` instead (weights-only FP8 through Marlin, "input_quant
  will be present for converted models; will be ignored during inference"), so its minimum is that scheme's 75.
  A scheme not sized here (plain `compressed-tensors`) is held to the config's 70.
- The activations' dtype must be one the method supports (`get_supported_act_dtypes`, checked in the same
  function): MXFP4 takes bfloat16 only, so `--dtype float16` is refused.
- A method outside `QUANTIZATION_METHODS` (quantization/__init__.py) is refused whatever the GPU
  (vllm/config/model.py `_verify_quantization`: "Unknown quantization method"): bitsandbytes is not among them at
  v0.32.0.
- FP8 weights run on FP8 tensor cores from capability 8.9 (platforms/cuda.py `supports_fp8`:
  `has_device_capability(89)`, which the CUTLASS and torch scaled-mm kernels ask); from 7.5 below that vLLM falls
  back to the Marlin kernel, weight-only FP8 (kernels/linear/scaled_mm/marlin.py, "FP8 Marlin kernel for GPUs
  that lack FP8 hardware support"; quantization/utils/marlin_utils_fp8.py `is_fp8_marlin_supported`: 75).
- bfloat16 needs capability 8.0 (platforms/cuda.py `supported_dtypes`: "Pascal, Volta and Turing NVIDIA GPUs,
  BF16 is not supported"): with `--dtype auto` a bfloat16 model is served in float16 instead
  (config/model.py `_resolve_auto_dtype`, a warning), while `--dtype bfloat16` is refused at start-up
  (platforms/cuda.py `check_if_supports_dtype`: "Bfloat16 is only supported on GPUs with compute capability of at
  least 8.0").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

VLLM_VERSION = "0.32.0"
MIN_CAPABILITY: Mapping[str, int] = MappingProxyType(
    {
        "fp8": 75,
        "mxfp4": 80,
        "awq": 75,
        "awq_marlin": 75,
        "gptq": 60,
        "gptq_marlin": 60,
        "compressed-tensors": 70,
        "compressed-tensors/w4a16": 75,
        "compressed-tensors/w8a16": 75,
        "compressed-tensors/w8a8-int8": 75,
        "compressed-tensors/w8a16-fp8": 75,
        "compressed-tensors/w8a8-fp8": 75,
        "experts_int8": 80,
        "fbgemm_fp8": 80,
        "modelopt": 80,
        "moe_wna16": 70,
        "torchao": 75,
        "humming": 75,
    }
)
"""The lowest compute capability (major x 10 + minor) each checkpoint method runs on."""
UNKNOWN_METHODS = frozenset({"bitsandbytes"})
"""Methods checkpoints use that vLLM v0.32.0 does not know."""
BFLOAT16_ONLY = frozenset({"mxfp4"})
"""Methods whose activations must be bfloat16."""
FP8_ACTIVATIONS = frozenset({"fp8", "compressed-tensors/w8a8-fp8"})
"""Methods that run FP8 activations from `NATIVE_FP8` and fall back to weight-only Marlin below it."""
NATIVE_FP8 = 89
BFLOAT16 = 80
# `--dtype` spellings of 16-bit float (vllm/config/model.py `_STR_DTYPE_TO_TORCH_DTYPE`).
_FLOAT16 = {"half", "float16"}


@dataclass(frozen=True)
class CapabilityFindings:
    problems: list[str]
    """What vLLM refuses at start-up on this GPU."""
    notes: list[str]
    """What it runs differently: a fallback kernel or dtype."""


def capability_findings(
    quantization: str | None, model_dtype: str, dtype_flag: str | None, capability: tuple[int, int], gpu: str
) -> CapabilityFindings:
    """How vLLM runs a model of `quantization` and `model_dtype` with `--dtype dtype_flag` (None: `auto`) on `gpu`
    of compute `capability`."""
    level = capability[0] * 10 + capability[1]
    shown = f"{capability[0]}.{capability[1]}"
    problems, notes = [], []
    if quantization in UNKNOWN_METHODS:
        problems.append(f"vLLM {VLLM_VERSION} knows no quantization method {quantization} (on any GPU)")
    minimum = MIN_CAPABILITY.get(quantization or "")
    if minimum is not None and level < minimum:
        problems.append(
            f"vLLM {VLLM_VERSION} runs {quantization} from compute capability {minimum // 10}.{minimum % 10}; "
            f"the {gpu} is {shown}"
        )
    if quantization in BFLOAT16_ONLY and dtype_flag in _FLOAT16:
        problems.append(f"{quantization} takes bfloat16 activations only, not --dtype {dtype_flag}")
    if quantization in FP8_ACTIVATIONS and minimum is not None and minimum <= level < NATIVE_FP8:
        notes.append(f"FP8 weights through the Marlin weight-only kernel: the {gpu} ({shown}) has no FP8 tensor cores")
    if level < BFLOAT16:
        if dtype_flag == "bfloat16":
            problems.append(f"--dtype bfloat16 needs compute capability 8.0; the {gpu} is {shown}")
        elif model_dtype == "bfloat16" and dtype_flag in (None, "auto"):
            notes.append(f"served in float16: the {gpu} ({shown}) has no bfloat16")
    return CapabilityFindings(problems, notes)
