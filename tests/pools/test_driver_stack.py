"""The driver verdict (`gpu-driver-knows-the-gpu`) on whole stacks planned offline: a Karpenter pool of g7 plans OK
on the pinned AL2023 release (v20260917, whose 595 tree brings g7's RTX PRO 4500 up) and fails on v20260714, whose
one 580 driver's open-module list lacks it (awslabs/amazon-eks-ami#2768); a Bottlerocket node group of g7 fails
(bottlerocket-os/bottlerocket#4889); the dev stack's node group, with no `releaseVersion`, is judged on EKS's latest."""

from __future__ import annotations

from conftest import dev_stack_file, plan_stack_file, verdict

from components.facts import versions
from tests.support.karpenter_stack import karpenter_stack_file

NAME = "gpu-driver-knows-the-gpu"
G7 = {"gpuNodeGroup": {"instanceTypes": ["g7.2xlarge"]}}


def test_a_karpenter_pool_of_g7_plans_ok_on_the_pinned_release(tmp_path):
    code, report = plan_stack_file(karpenter_stack_file(tmp_path, G7), tmp_path / "out")

    found = verdict(report, NAME)
    assert code == 0, found
    assert found["passed"], found["message"]
    assert f"EC2NodeClass gpu: alias al2023@{versions.KARPENTER_AL2023_AMI_RELEASE}" in found["details"][0]
    assert "open 595 module" in found["details"][0]


def test_the_same_pool_on_release_v20260714_fails_naming_the_release_and_its_device_list(tmp_path, monkeypatch):
    monkeypatch.setattr(versions, "KARPENTER_AL2023_AMI_RELEASE", "v20260714")

    code, report = plan_stack_file(karpenter_stack_file(tmp_path, G7), tmp_path / "out")

    found = verdict(report, NAME)
    assert code == 1
    assert not found["passed"]
    assert found["message"].startswith("pool gpu (EC2NodeClass gpu: alias al2023@v20260714): g7.2xlarge")
    assert "on AL2023 v20260714: not named by the 580 list" in found["message"]
    assert "nvidia-open-supported-devices-580.txt" in found["message"]


def test_a_bottlerocket_node_group_of_g7_fails(tmp_path):
    stack = dev_stack_file(tmp_path, G7, {"gpuNodeGroup": {"amiFamily": "Bottlerocket"}}, name="g7br")

    code, report = plan_stack_file(stack, tmp_path / "out")

    found = verdict(report, NAME)
    assert code == 1
    assert "amiType BOTTLEROCKET_x86_64_NVIDIA, no releaseVersion" in found["message"]
    assert "bottlerocket-os/bottlerocket#4889" in found["message"]


def test_the_dev_stacks_node_group_is_judged_on_ekss_latest_release(tmp_path):
    code, report = plan_stack_file(dev_stack_file(tmp_path), tmp_path / "out")

    found = verdict(report, NAME)
    assert found["passed"]
    assert found["details"][0].startswith(
        "pool gpu-inference-dev-gpu (node group: amiType AL2023_x86_64_NVIDIA, no releaseVersion (EKS's latest for "
        "its version)): g5.xlarge (NVIDIA A10G, Ampere, PCI 10de:2237) on AL2023 latest (v20260917 or later): g5 "
        "always loads the proprietary 580 module"
    )
