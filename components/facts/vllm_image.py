"""What the vLLM image needs of a GPU node: the CUDA major version it is built on, the driver branch that CUDA
needs, and the GPUs its compiled kernels run on, per CPU architecture. Standard library only.

The pinned image, vllm/vllm-openai:v0.32.0, is built by vLLM's docker/Dockerfile at the tag, which installs the wheel
the same build makes; the tag's Dockerfile could not be read here, so the facts come from the release's own wheels on
PyPI (read 2026-12-04, `pip download --no-deps vllm==0.32.0`, for x86_64 and aarch64):

- `vllm/_C_stable_libtorch.abi3.so` needs `libcudart.so.13` in both wheels: CUDA 13 (vllm-project/vllm#39878 made
  13.0 the default CUDA of the builds). CUDA 13 needs the R580 driver or later (CUDA Toolkit 13.0 release notes,
  "CUDA Toolkit and Corresponding Driver Versions"; minor version compatibility keeps every 13.x on R580).
- The same library embeds code for sm_75, sm_80, sm_86, sm_89, sm_90, sm_100f and sm_120f in the x86_64 wheel, and
  for sm_80, sm_87, sm_89, sm_90, sm_100f, sm_110 and sm_120f in the aarch64 one (the `sm_` targets in the
  library's fat binaries): no Volta (7.0) on either, no Turing (7.5) on aarch64 (vllm-project/vllm#39878 dropped
  Volta from the architecture lists).
- Code built for compute capability X.y runs on X.z for z >= y, never across majors (CUDA C++ Programming Guide,
  "Binary Compatibility").

The image is published for linux/amd64 and linux/arm64: vLLM's release job pushes `vllm/vllm-openai:v<version>`
as a manifest list of the `v<version>-x86_64` and `v<version>-aarch64` images, each built with the CUDA 13.0
default (vllm-project/vllm, .buildkite/scripts/publish-release-images.sh, commit c8246ae4a217, "CUDA (default:
13.0)", read 2026-12-04). The registry's manifest of the pinned tag itself cannot be read offline.
"""

from __future__ import annotations

from dataclasses import dataclass

from .gpu_catalog import Architecture

CUDA_MIN_DRIVER_BRANCH = {13: 580, 12: 525}
"""The oldest driver branch each CUDA major runs on (CUDA Toolkit release notes: 13.x R580, 12.x R525)."""


@dataclass(frozen=True)
class ImageBuild:
    """One vLLM release's image: its CUDA and the compute capabilities its kernels are compiled for."""

    version: str
    cuda_major: int
    kernels: dict[Architecture, tuple[tuple[int, int], ...]]
    """Per CPU architecture, the compute capabilities (major, minor) the compiled kernels target."""
    platforms: tuple[Architecture, ...]
    """The CPU architectures the image is published for (the platforms of its manifest list)."""
    source: str


VLLM_IMAGES = {
    "v0.32.0": ImageBuild(
        "v0.32.0",
        13,
        {
            "x86_64": ((7, 5), (8, 0), (8, 6), (8, 9), (9, 0), (10, 0), (12, 0)),
            "arm64": ((8, 0), (8, 7), (8, 9), (9, 0), (10, 0), (11, 0), (12, 0)),
        },
        ("x86_64", "arm64"),
        "vllm 0.32.0 wheels on PyPI, vllm/_C_stable_libtorch.abi3.so (libcudart.so.13; sm_ targets)",
    ),
}


def image_build(image: str) -> ImageBuild | None:
    """The build facts of a `vllm/vllm-openai:<tag>` image, or None for another image or an unknown tag."""
    repository, _, tag = image.rpartition(":")
    if repository.rsplit("/", 2)[-2:] != ["vllm", "vllm-openai"]:
        return None
    return VLLM_IMAGES.get(tag)


def runs_on(build: ImageBuild, architecture: Architecture, capability: tuple[int, int]) -> bool:
    """Whether the image's kernels for `architecture` include code that runs on a GPU of `capability`."""
    major, minor = capability
    return any(
        built_major == major and built_minor <= minor for built_major, built_minor in build.kernels[architecture]
    )
