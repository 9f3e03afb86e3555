"""The vLLM image's CUDA and kernels (facts/vllm_image.py).

Expected values from the vllm 0.32.0 wheels on PyPI (read 2026-12-04): `vllm/_C_stable_libtorch.abi3.so` needs
`libcudart.so.13` and targets sm_75, 80, 86, 89, 90, 100f, 120f on x86_64 and sm_80, 87, 89, 90, 100f, 110, 120f on
aarch64; code for X.y runs on X.z, z >= y (CUDA C++ Programming Guide, "Binary Compatibility").
"""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog, versions, vllm_image

BUILD = vllm_image.image_build(versions.VLLM_IMAGE)


def test_the_pinned_image_is_built_on_cuda_13_which_needs_r580():
    assert BUILD is not None
    assert BUILD.cuda_major == 13
    assert vllm_image.CUDA_MIN_DRIVER_BRANCH[BUILD.cuda_major] == 580


@pytest.mark.parametrize(
    ("image", "known"),
    [
        ("vllm/vllm-openai:v0.32.0", True),
        ("docker.io/vllm/vllm-openai:v0.32.0", True),
        ("vllm/vllm-openai:v0.31.0", False),
        ("example.com/vllm-openai:v0.32.0", False),
    ],
)
def test_only_the_official_image_at_a_recorded_tag_is_known(image, known):
    assert (vllm_image.image_build(image) is not None) is known


@pytest.mark.parametrize(
    ("architecture", "capability", "runs"),
    [
        pytest.param("x86_64", (7, 0), False, id="V100: no sm_70, and sm_75 code does not run on 7.0"),
        pytest.param("x86_64", (7, 5), True, id="T4: sm_75"),
        pytest.param("x86_64", (8, 6), True, id="A10G: sm_86"),
        pytest.param("x86_64", (8, 9), True, id="L4 and L40S: sm_89"),
        pytest.param("x86_64", (10, 3), True, id="B300: sm_100 code runs on 10.3"),
        pytest.param("x86_64", (12, 0), True, id="RTX PRO Blackwell: sm_120"),
        pytest.param("arm64", (7, 5), False, id="T4G: the aarch64 build starts at sm_80"),
        pytest.param("arm64", (9, 0), True, id="an arm64 Hopper: sm_90"),
    ],
)
def test_kernels_run_on_the_same_major_at_or_above_their_minor(architecture, capability, runs):
    assert vllm_image.runs_on(BUILD, architecture, capability) is runs


def test_every_x86_64_gpu_of_the_catalog_but_the_v100_has_kernels_in_the_pinned_image():
    without = sorted(
        {
            entry.gpu_model
            for entry in gpu_catalog.GPU_INSTANCE_TYPES.values()
            if entry.architecture == "x86_64" and not vllm_image.runs_on(BUILD, "x86_64", entry.gpu_compute_capability)
        }
    )

    assert without == ["NVIDIA V100"]
