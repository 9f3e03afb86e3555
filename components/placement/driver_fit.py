"""Verdict `gpu-driver-knows-the-gpu`: every GPU pool's AMI installs a driver that brings its GPUs up, a driver new
enough for the CUDA of the vLLM image that runs there, and an image whose kernels run on those GPUs.

Each pool's AMI (a node group's AMI type and `releaseVersion`, EKS's latest when it has none; a Karpenter or Auto
Mode NodeClass's alias) leads to the driver branch and module it loads for each of the pool's instance types and
whether that module initialises the GPU (facts/nvidia_driver.py). A pool whose driver does not know its GPU fails:
its nodes join with 0 GPUs and every GPU pod stays Pending. The vLLM image's CUDA needs a minimum driver branch, and
its compiled kernels a compute capability (facts/vllm_image.py): a driver too old fails, kernels the image's release
does not carry for the GPU, or a CPU architecture it is not published for, are warned about.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..facts import gpu_catalog, vllm_image
from ..facts.nvidia_driver import DriverChoice, driver_for
from .verdict import Verdict, _summary

VERDICT_NAME = "gpu-driver-knows-the-gpu"


@dataclass(frozen=True)
class GpuPoolAmi:
    """One pool's AMI and what runs on it, as the plan reads it from the registered resources."""

    pool: str
    ami: str
    """`AL2023`, `Bottlerocket` or `autoMode`; `none` for an AMI type without an NVIDIA driver; `custom` for an AMI
    the stack names by id or tags."""
    release: str | None
    """The AMI release the pool pins (`v20260917`, `1.36.0-20260917`, `v1.64.0`); None for EKS's latest."""
    source: str
    """Where the AMI and release are set, in words (`EC2NodeClass gpu: alias al2023@v20260917`)."""
    instance_types: tuple[str, ...]
    images: tuple[str, ...] = ()
    """The images of the GPU-requesting containers that land on the pool."""


def _choice(pool: GpuPoolAmi, entry: gpu_catalog.InstanceType) -> DriverChoice:
    if pool.ami == "none":
        return DriverChoice(None, "none", False, f"{entry.name}: the AMI type installs no NVIDIA driver")
    if pool.ami == "custom":
        return DriverChoice(None, "custom", None, f"{entry.name}: a custom AMI, whose driver the plan cannot know")
    return driver_for(entry, pool.ami, pool.release)


def _image_lines(
    pool: GpuPoolAmi, entry: gpu_catalog.InstanceType, choice: DriverChoice, image: str
) -> tuple[list[str], list[str], list[str]]:
    """(failures, warnings, details) of one image on one instance type of the pool."""
    build = vllm_image.image_build(image)
    where = f"pool {pool.pool}: {image} on {entry.name}"
    if build is None:
        return [], [], [f"not checked: {where}: the image's CUDA and kernels are not in facts/vllm_image.py"]
    need = vllm_image.CUDA_MIN_DRIVER_BRANCH[build.cuda_major]
    failures, warnings, details = [], [], []
    if choice.branch is not None and choice.branch < need:
        failures.append(
            f"{where}: the image is built on CUDA {build.cuda_major}, which needs driver R{need} or later; the AMI "
            f"loads {choice.branch}"
        )
    elif choice.branch is not None:
        details.append(f"{where}: CUDA {build.cuda_major} needs R{need}, the AMI loads {choice.branch}")
    capability = ".".join(map(str, entry.gpu_compute_capability or ()))
    if entry.gpu_compute_capability and not vllm_image.runs_on(build, entry.architecture, entry.gpu_compute_capability):
        warnings.append(
            f"{where}: the {entry.architecture} build of vLLM {build.version} carries no kernels for compute "
            f'capability {capability} ({entry.gpu_model}; {build.source}): expect "no kernel image is available"'
        )
    elif entry.architecture not in build.platforms:
        warnings.append(
            f"{where}: the image is not published for linux/{entry.kubernetes_arch} ({build.source}); expect "
            '"exec format error"'
        )
    return failures, warnings, details


def driver_verdict(pools: Sequence[GpuPoolAmi]) -> tuple[Verdict, list[str]]:
    """The verdict over every GPU instance type of every pool, and the warnings about the images' kernels."""
    failed: list[str] = []
    warnings: list[str] = []
    details: list[str] = []
    checked = 0
    for pool in pools:
        for name in dict.fromkeys(pool.instance_types):
            entry = gpu_catalog.gpu_instance_type(name)
            if entry is None:
                continue
            choice = _choice(pool, entry)
            line = f"pool {pool.pool} ({pool.source}): {choice.why}"
            if choice.works is False:
                failed.append(f"{line}: its nodes join with 0 GPUs and the GPU pods stay Pending")
            elif choice.works is None:
                details.append(f"not checked: {line}")
            else:
                checked += 1
                details.append(line)
            for image in dict.fromkeys(pool.images):
                image_failures, image_warnings, image_details = _image_lines(pool, entry, choice, image)
                failed += image_failures
                warnings += image_warnings
                details += image_details
    if failed:
        return Verdict(VERDICT_NAME, False, _summary(failed), [*failed, *details]), warnings
    if not pools:
        return Verdict(VERDICT_NAME, True, "no GPU pool"), warnings
    message = f"{checked} GPU instance type(s) of {len(pools)} pool(s) get a driver that brings their GPUs up"
    unchecked = sum(1 for line in details if line.startswith("not checked"))
    if unchecked:
        message += f"; {unchecked} not checked"
    return Verdict(VERDICT_NAME, True, message, details), warnings
