"""`pool: auto` filters by everything that decides whether a server can run on a pool before it ranks the pools:
the GPUs one replica needs (tensor x pipeline x data parallel, as vLLM's parser reads `--pipeline-parallel-size`
and `--data-parallel-size` in `extraArgs`: facts/vllm_parser.py) against the GPUs per node, and
`requireGpuProduct` against the pool's GPU, and the CPU and GPU the vLLM image runs on.

GPUs per node and products are the catalog's (facts/gpu_catalog.py, from EC2's instance type pages): g6.xlarge 1 L4,
g6.12xlarge 4 L4, g5.xlarge 1 A10G. vLLM's world size is tensor x pipeline parallel per data parallel rank, and a
server with `--data-parallel-size N` runs N such ranks in its pod (vLLM docs, "Data Parallel Deployment",
docs/serving/data_parallel_deployment.md: each DP rank is an engine with as many per-GPU workers as the TP size).

The image: g5g is Graviton (arm64) with an NVIDIA T4G, compute capability 7.5 (EC2 "Accelerated computing instance
types"; NVIDIA's CUDA GPUs table). vllm/vllm-openai:v0.32.0 is published for arm64 as well as x86_64 (vLLM's
.buildkite/scripts/publish-release-images.sh pushes `v<version>-aarch64` into the tag's manifest list), but its
aarch64 build carries kernels for sm_80 and newer only (the `sm_` targets of vllm/_C_stable_libtorch.abi3.so in
the vllm 0.32.0 aarch64 wheel on PyPI), so a T4G under it fails with "no kernel image is available". The T4G's
16 GiB is less memory than an L4's 24 GiB, so without the filter the g5g pool would rank first.
"""

from __future__ import annotations

import dataclasses

import pytest

from components.facts import vllm_image
from components.settings import ConfigError, parse_settings

ONE_L4 = {"instanceTypes": ["g6.xlarge"]}
FOUR_L4 = {"instanceTypes": ["g6.12xlarge"]}
ONE_A10G = {"instanceTypes": ["g5.xlarge"]}
ONE_T4G_ARM = {"instanceTypes": ["g5g.xlarge"]}
SMALL = "Qwen/Qwen2.5-1.5B-Instruct"


def _chosen(pools: dict, **model) -> tuple[str, str]:
    settings = parse_settings({"gpuPools": pools, "models": [{"name": "a", "model": SMALL, **model}]})
    [server] = settings.servers
    return server.pool.key, server.pool_reason


def test_without_a_narrowing_flag_the_one_gpu_pool_wins_on_fewer_gpus_per_node():
    # Both pools hold L4s (same usable memory): the tie goes to the fewest GPUs per node, one.
    assert _chosen({"one": ONE_L4, "four": FOUR_L4})[0] == "one"


@pytest.mark.parametrize(
    ("extra_args", "gpus"),
    [
        pytest.param(["--data-parallel-size", "2"], 2, id="data parallel 2"),
        pytest.param(["--pipeline-parallel-size", "2"], 2, id="pipeline parallel 2"),
        pytest.param(["-dp", "2", "-pp", "2"], 4, id="both, short spellings"),
    ],
)
def test_a_world_size_beyond_one_gpu_passes_over_the_one_gpu_pool(extra_args, gpus):
    pool, reason = _chosen({"one": ONE_L4, "four": FOUR_L4}, extraArgs=extra_args)
    assert pool == "four"
    assert reason.endswith("the only pool that fits")


def test_require_gpu_product_passes_over_a_pool_of_another_gpu():
    assert _chosen({"a10g": ONE_A10G, "l4": ONE_L4}, requireGpuProduct="NVIDIA-L4")[0] == "l4"
    assert _chosen({"a10g": ONE_A10G, "l4": ONE_L4}, requireGpuProduct="NVIDIA-A10G")[0] == "a10g"


def test_no_pool_left_names_each_pools_reason():
    with pytest.raises(ConfigError) as error:
        parse_settings(
            {
                "gpuPools": {"one": ONE_L4, "a10g": ONE_A10G},
                "models": [
                    {"name": "a", "model": SMALL, "requireGpuProduct": "NVIDIA-H100", "extraArgs": ["-dp", "2"]}
                ],
            }
        )
    [problem] = error.value.problems
    assert problem.key == "models.0.pool"
    world = (
        "2 GPUs per server (tensorParallelSize 1 x 2 from --pipeline-parallel-size, --prefill-context-parallel-size "
        "and --data-parallel-size) is more than the 1 GPU(s) per"
    )
    assert problem.message == (
        f"'auto' finds no pool for {SMALL}: no pool fits: pool one: {world} g6.xlarge, and 'NVIDIA-H100' is not "
        f"what one provides; pool a10g: {world} g5.xlarge, and 'NVIDIA-H100' is not what a10g provides; allowed: "
        "one of one, a10g"
    )


def test_a_gpu_the_images_arm64_build_has_no_kernels_for_is_passed_over():
    pool, reason = _chosen({"graviton": ONE_T4G_ARM, "l4": ONE_L4})
    assert pool == "l4"
    assert reason.endswith("the only pool that fits")


def test_an_image_whose_build_is_not_recorded_narrows_nothing():
    # v0.31.0 passes the image rule but has no build facts: the T4G's smaller memory ranks it first, and the
    # gpu-driver-knows-the-gpu verdict is what reports the kernels it cannot know.
    assert _chosen({"graviton": ONE_T4G_ARM, "l4": ONE_L4}, image="vllm/vllm-openai:v0.31.0")[0] == "graviton"


def test_only_the_arm64_pool_left_names_the_missing_kernels():
    with pytest.raises(ConfigError) as error:
        parse_settings({"gpuPools": {"graviton": ONE_T4G_ARM}, "models": [{"name": "a", "model": SMALL}]})
    [problem] = error.value.problems
    assert problem.message == (
        f"'auto' finds no pool for {SMALL}: no pool fits: pool graviton: the arm64 build of "
        "vllm/vllm-openai:v0.32.0 carries no kernels for the NVIDIA T4G of g5g.xlarge (compute capability 7.5); "
        "allowed: one of graviton"
    )


def test_a_cpu_architecture_the_image_is_not_published_for_is_passed_over(monkeypatch):
    # An image published for x86_64 alone (as vllm/vllm-openai was before its release job pushed an aarch64 build):
    # an arm64 pool is out whatever its GPU, even one the kernels would run on.
    pinned = vllm_image.VLLM_IMAGES["v0.32.0"]
    monkeypatch.setitem(vllm_image.VLLM_IMAGES, "v0.32.0", dataclasses.replace(pinned, platforms=("x86_64",)))
    with pytest.raises(ConfigError) as error:
        parse_settings({"gpuPools": {"graviton": ONE_T4G_ARM}, "models": [{"name": "a", "model": SMALL}]})
    [problem] = error.value.problems
    assert "pool graviton: vllm/vllm-openai:v0.32.0 is not published for arm64, the CPU of g5g.xlarge" in (
        problem.message
    )
