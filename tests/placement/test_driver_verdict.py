"""Verdict `gpu-driver-knows-the-gpu` on plain values (placement/driver_fit.py).

Expected values from the sources of facts/nvidia_driver.py and facts/vllm_image.py: g7's GPU is missing from the
580 list of AMI release v20260714 and brought up by 595 from v20260917; vLLM 0.32.0 links CUDA 13
(`libcudart.so.13`), which needs R580; its x86_64 wheel has no sm_70 code (the V100 of p3dn), its aarch64 wheel no
sm_75 (the T4G of g5g).
"""

from __future__ import annotations

import dataclasses

from components.facts import gpu_catalog, versions, vllm_image
from components.facts.nvidia_driver import DriverChoice
from components.placement.driver_fit import GpuPoolAmi, _image_lines, driver_verdict

IMAGE = versions.VLLM_IMAGE


def pool(*types: str, ami="AL2023", release=None, images=(IMAGE,), source="test") -> GpuPoolAmi:
    return GpuPoolAmi("gpu", ami, release, source, types, images)


def test_g7_on_the_pinned_release_passes_with_the_driver_branch_it_loads():
    verdict, warnings = driver_verdict([pool("g7.2xlarge", release=versions.KARPENTER_AL2023_AMI_RELEASE)])

    assert verdict.passed, verdict.message
    assert warnings == []
    assert any("open 595 module" in line for line in verdict.details)
    assert any("CUDA 13 needs R580, the AMI loads 595" in line for line in verdict.details)


def test_g7_on_v20260714_fails_naming_the_pool_the_release_and_the_device_list():
    verdict, _ = driver_verdict(
        [pool("g7.2xlarge", release="v20260714", source="EC2NodeClass gpu: alias al2023@v20260714")]
    )

    assert not verdict.passed
    assert verdict.message.startswith("pool gpu (EC2NodeClass gpu: alias al2023@v20260714): g7.2xlarge")
    assert "AL2023 v20260714" in verdict.message
    assert "nvidia-open-supported-devices-580.txt" in verdict.message
    assert verdict.message.endswith("its nodes join with 0 GPUs and the GPU pods stay Pending")


def test_only_the_failing_type_of_a_mixed_pool_fails():
    verdict, _ = driver_verdict([pool("g7e.2xlarge", "g7.2xlarge", release="v20260714")])

    assert not verdict.passed
    assert [line for line in verdict.details if "0 GPUs" in line] == [verdict.message]
    assert "g7.2xlarge" in verdict.message


def test_an_unpinned_node_group_is_judged_on_the_newest_release():
    verdict, _ = driver_verdict([pool("g7.12xlarge", release=None)])

    assert verdict.passed
    assert "latest (v20260917 or later)" in verdict.details[0]


def test_an_ami_type_without_a_driver_fails():
    verdict, _ = driver_verdict([pool("g6.xlarge", ami="none", source="node group: amiType AL2023_x86_64_STANDARD")])

    assert not verdict.passed
    assert "installs no NVIDIA driver" in verdict.message


def test_a_custom_ami_or_an_unknown_release_is_listed_as_not_checked():
    verdict, _ = driver_verdict([pool("g6.xlarge", ami="custom"), pool("g6.xlarge", release="v20240101")])

    assert verdict.passed
    assert verdict.message.endswith("; 2 not checked")


def test_an_image_older_than_the_table_is_not_checked_and_a_cpu_type_is_no_concern():
    verdict, warnings = driver_verdict([pool("g6.xlarge", "m6i.large", images=("example.com/vllm:dev",))])

    assert verdict.passed
    assert warnings == []
    assert any(line.startswith("not checked: pool gpu: example.com/vllm:dev on g6.xlarge") for line in verdict.details)
    assert not any("m6i.large" in line for line in verdict.details)


def test_the_image_without_kernels_for_the_gpu_is_warned_about():
    verdict, warnings = driver_verdict([pool("p3dn.24xlarge", release="v20260917")])

    assert verdict.passed
    assert len(warnings) == 1
    assert "carries no kernels for compute capability 7.0 (NVIDIA V100" in warnings[0]


def test_g5g_is_warned_that_the_aarch64_build_has_no_turing_kernels():
    _, warnings = driver_verdict([pool("g5g.xlarge")])

    assert len(warnings) == 1
    assert "the arm64 build of vLLM v0.32.0 carries no kernels for compute capability 7.5 (NVIDIA T4G" in warnings[0]


def test_no_gpu_pool_passes():
    verdict, warnings = driver_verdict([])

    assert verdict.passed and verdict.message == "no GPU pool" and warnings == []


def test_a_custom_ami_is_not_checked_and_an_ami_without_a_driver_fails_each_said_whole():
    custom, _ = driver_verdict([pool("g6.xlarge", ami="custom", images=())])
    none, _ = driver_verdict([pool("g6.xlarge", ami="none", images=())])

    assert (custom.passed, custom.message, custom.details) == (
        True,
        "0 GPU instance type(s) of 1 pool(s) get a driver that brings their GPUs up; 1 not checked",
        ["not checked: pool gpu (test): g6.xlarge: a custom AMI, whose driver the plan cannot know"],
    )
    line = (
        "pool gpu (test): g6.xlarge: the AMI type installs no NVIDIA driver: its nodes join with 0 GPUs and the GPU "
        "pods stay Pending"
    )
    assert (none.passed, none.message, none.details) == (False, line, [line])


def test_a_driver_branch_older_than_the_images_cuda_needs_fails_naming_both():
    """The AL2023 AMIs for Kubernetes 1.28 pin the 570 branch (awslabs/amazon-eks-ami's 1.28 variables, as
    facts/nvidia_driver.py cites them); vLLM 0.32.0's CUDA 13 needs R580."""
    g6 = gpu_catalog.gpu_instance_type("g6.xlarge")
    assert g6 is not None

    failures, warnings, details = _image_lines(pool("g6.xlarge"), g6, DriverChoice(570, "open", True, "570"), IMAGE)

    assert failures == [
        f"pool gpu: {IMAGE} on g6.xlarge: the image is built on CUDA 13, which needs driver R580 or later; the AMI "
        "loads 570"
    ]
    assert (warnings, details) == ([], [])


def test_the_passing_message_counts_each_gpu_type_of_each_pool_and_passes_over_a_cpu_type():
    verdict, _ = driver_verdict(
        [pool("m6i.large", "g6.xlarge", "g6e.xlarge", images=()), pool("g6.xlarge", "g6.xlarge", images=())]
    )

    assert (verdict.name, verdict.passed, verdict.message) == (
        "gpu-driver-knows-the-gpu",
        True,
        "3 GPU instance type(s) of 2 pool(s) get a driver that brings their GPUs up",
    )
    assert len(verdict.details) == 3


def test_each_types_image_warning_is_kept_and_a_failing_verdict_keeps_its_name():
    """p3dn's V100 (7.0) and g5g's T4G (7.5 on arm64) each lack kernels in vLLM 0.32.0 (the module docstring)."""
    verdict, warnings = driver_verdict([pool("p3dn.24xlarge", "g5g.xlarge", release="v20260917")])
    failed, _ = driver_verdict([pool("g6.xlarge", ami="none")])

    assert [warning.split(": ", 2)[1] for warning in warnings] == [
        f"{IMAGE} on p3dn.24xlarge",
        f"{IMAGE} on g5g.xlarge",
    ]
    assert (failed.name, failed.passed) == ("gpu-driver-knows-the-gpu", False)
    assert driver_verdict([])[0].name == "gpu-driver-knows-the-gpu"


def test_an_image_not_published_for_the_nodes_architecture_is_warned_of_exec_format_errors(monkeypatch):
    """A release published for x86_64 alone, whose arm64 kernels would run on the T4G: the node cannot run it."""
    build = vllm_image.VLLM_IMAGES["v0.32.0"]
    x86_only = dataclasses.replace(build, kernels={**build.kernels, "arm64": ((7, 5),)}, platforms=("x86_64",))
    monkeypatch.setitem(vllm_image.VLLM_IMAGES, "v0.32.0", x86_only)

    _, warnings = driver_verdict([pool("g5g.xlarge")])

    assert warnings == [
        f'pool gpu: {IMAGE} on g5g.xlarge: the image is not published for linux/arm64 ({build.source}); expect "exec '
        'format error"'
    ]
