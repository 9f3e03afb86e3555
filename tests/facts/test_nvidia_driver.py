"""The driver each EKS AMI release loads for each GPU (facts/nvidia_driver.py), against the sources it names.

Expected values, read 2026-12-04 from awslabs/amazon-eks-ami: at v20260714 one 580 branch, `nvidia-kmod-load.sh`
loading the open module for a device in nvidia-open-supported-devices-580.txt, the proprietary one otherwise, and
always for g4dn, g5 and g5g; from v20260917 (#2819, named on #2768) a 580 and a 595 tree, `resolve-nvidia-driver.sh`
trying the 580 list, then the 595 list, then 580 proprietary. The 580 list names 0x2BB5 (g7e) and not 0x2C3A (g7)
nor 0x1DB5 (the V100); the 595 list of 595.71.05 names 0x2C3A and not 0x1DB5. The proprietary module does not drive
Blackwell (#2769's kernel message).
"""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog, nvidia_driver, versions
from components.facts.nvidia_driver import al2023_era, driver_for, release_date


@pytest.mark.parametrize(
    ("instance", "release", "branch", "flavor", "works"),
    [
        # awslabs/amazon-eks-ami#2768: g7's 10de:2c3a is not in the 580 list, the proprietary module refuses it.
        ("g7.2xlarge", "v20260714", 580, "proprietary", False),
        ("g7.2xlarge", "v20260917", 595, "open", True),
        ("g7.48xlarge", "1.36.0-20260917", 595, "open", True),
        ("g7e.2xlarge", "v20260714", 580, "open", True),
        ("p6-b200.48xlarge", "v20260714", 580, "open", True),
        ("p6-b300.48xlarge", "v20260917", 580, "open", True),
        ("g6.xlarge", "v20260917", 580, "open", True),
        ("p5.48xlarge", "v20260714", 580, "open", True),
        # Neither list names the V100: 580 proprietary, the last branch that drives Volta.
        ("p3dn.24xlarge", "v20260714", 580, "proprietary", True),
        ("p3dn.24xlarge", "v20260917", 580, "proprietary", True),
        # The GSP is disabled on these families, which only the proprietary module allows.
        ("g4dn.xlarge", "v20260917", 580, "proprietary", True),
        ("g5.xlarge", "v20260714", 580, "proprietary", True),
        ("g5g.xlarge", "v20260917", 580, "proprietary", True),
    ],
)
def test_the_al2023_release_loads_this_driver_for_the_gpu(instance, release, branch, flavor, works):
    choice = driver_for(gpu_catalog.lookup(instance), "AL2023", release)

    assert (choice.branch, choice.flavor, choice.works) == (branch, flavor, works)


def test_g7_on_v20260714_names_the_release_the_device_and_the_list_it_is_missing_from():
    choice = driver_for(gpu_catalog.lookup("g7.2xlarge"), "AL2023", "v20260714")

    assert "AL2023 v20260714" in choice.why
    assert "PCI 10de:2c3a" in choice.why
    assert "nvidia-open-supported-devices-580.txt" in choice.why
    assert "does not drive Blackwell GPUs" in choice.why


def test_every_catalog_gpu_has_a_driver_in_the_release_karpenter_pools_boot():
    """Fails the day a GPU joins the catalog that the pinned AL2023 release cannot bring up: add its device id to
    the release's lists here if they name it, or move the pin to a release that does."""
    release = versions.KARPENTER_AL2023_AMI_RELEASE
    missing = [
        choice.why
        for entry in gpu_catalog.GPU_INSTANCE_TYPES.values()
        if (choice := driver_for(entry, "AL2023", release)).works is not True
    ]

    assert missing == []


def test_every_catalog_gpu_has_the_facts_the_driver_and_kernel_checks_read():
    for entry in gpu_catalog.GPU_INSTANCE_TYPES.values():
        assert entry.gpu_compute_capability is not None, entry.name
        assert entry.gpu_architecture is not None, entry.name
        # Only g5g's T4G has no device id; its family always loads the proprietary module, which needs none.
        assert entry.gpu_device_id is not None or entry.family in nvidia_driver.GSP_DISABLED_FAMILIES, entry.name


def test_the_latest_release_and_an_unpinned_node_group_stand_for_the_newest_era():
    assert al2023_era(None) is al2023_era("latest") is nvidia_driver.AL2023_ERAS[-1]
    assert nvidia_driver.AL2023_LATEST == "v20260917"


@pytest.mark.parametrize(
    ("release", "day", "first"),
    [
        ("v20260714", "20260714", "v20251120"),
        ("1.36.0-20260714", "20260714", "v20251120"),
        ("v20260916", "20260916", "v20251120"),
        ("v20260917", "20260917", "v20260917"),
        ("1.33.5-20261101", "20261101", "v20260917"),
    ],
)
def test_a_release_falls_in_the_era_of_its_date(release, day, first):
    assert release_date(release) == day
    assert al2023_era(release).first == first


@pytest.mark.parametrize("release", ["v20251023", "1.31.0-20250101", "nonsense"])
def test_a_release_before_the_table_or_in_no_known_spelling_is_not_judged(release):
    choice = driver_for(gpu_catalog.lookup("g6.xlarge"), "AL2023", release)

    assert choice.works is None
    assert choice.branch is None


@pytest.mark.parametrize(
    ("instance", "works"),
    [
        # bottlerocket-os/bottlerocket#4889: the variant picks the tesla driver for g7's GPU and never joins.
        ("g7.2xlarge", False),
        # The EKS user guide's table of the families the Bottlerocket NVIDIA variants serve.
        ("g7e.2xlarge", True),
        ("p6-b300.48xlarge", True),
        ("g5g.xlarge", True),
    ],
)
def test_bottlerocket_serves_the_families_of_the_user_guide_and_not_g7(instance, works):
    choice = driver_for(gpu_catalog.lookup(instance), "Bottlerocket", "v1.64.0")

    assert choice.works is works
    assert choice.branch == 580


def test_auto_mode_brings_up_the_families_it_launches_and_no_other():
    assert driver_for(gpu_catalog.lookup("g7e.2xlarge"), "autoMode", None).works is True
    # automode-learn-instances lists g7e, not g7.
    assert driver_for(gpu_catalog.lookup("g7.2xlarge"), "autoMode", None).works is False
