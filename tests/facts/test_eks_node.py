"""Behaviour of the EKS node facts (facts/eks_node.py): they agree with the EKS API model, the settings and the
node groups the program registers."""

from __future__ import annotations

import pytest

from components.facts import eks_model
from components.facts.eks_node import (
    CAPACITY_TYPES,
    DEFAULT_CAPACITY_TYPE,
    allocatable_cpu_millicores,
    allocatable_ephemeral_bytes,
    allocatable_memory_mebibytes,
    ami_family_runs_device_plugin,
    ami_type_runs_device_plugin,
)
from components.facts.gpu_catalog import lookup
from components.placement import eks_allocatable, parse_quantity
from components.pools.node_group import ami_type
from components.settings import parse_settings


def test_capacity_types_are_the_eks_api_enum():
    assert eks_model.capacity_types() == CAPACITY_TYPES
    assert DEFAULT_CAPACITY_TYPE in CAPACITY_TYPES


def test_only_bottlerocket_nvidia_ami_types_run_the_device_plugin_on_the_host():
    host = {name for name in eks_model.ami_types() if ami_type_runs_device_plugin(name)}
    assert host == {"BOTTLEROCKET_x86_64_NVIDIA", "BOTTLEROCKET_ARM_64_NVIDIA"}


@pytest.mark.parametrize(
    "family, arch",
    [("AL2023", "x86_64"), ("AL2023", "arm64"), ("Bottlerocket", "x86_64"), ("Bottlerocket", "arm64")],
    ids=lambda value: str(value),
)
def test_the_family_rule_and_the_ami_type_rule_agree_on_the_gpu_ami_each_family_gets(family, arch):
    assert ami_family_runs_device_plugin(family) == ami_type_runs_device_plugin(
        ami_type(family, arch, accelerated=True)
    )


@pytest.mark.parametrize("family", ["AL2023", "Bottlerocket"])
def test_settings_turn_the_device_plugin_off_exactly_where_the_ami_runs_it(family):
    settings = parse_settings({"gpuNodeGroup": {"amiFamily": family}})
    assert settings.device_plugin_enabled is not ami_family_runs_device_plugin(family)


# Worked from the EKS AMI's reservations (facts/eks_node.py, amazon-eks-ami bootstrap.sh and nodeadm): CPU 60m for the
# first core, 10m for the second, 5m each for the third and fourth, 2.5m each above; memory 11Mi per max pod + 255Mi
# and the 100Mi hard eviction; ephemeral storage the 100 GiB volume less its 10% eviction and 1Gi: 89Gi. vCPUs, memory
# and max pods from facts/gpu_catalog.py.
ALLOCATABLE = [
    # 4 vCPUs: 4000 - (60 + 10 + 5 + 5); 16 GiB = 16384Mi - (11 x 58 + 255) - 100.
    ("g5.xlarge", "3920m", "15391Mi"),
    # 48 vCPUs: 48000 - (80 + 44 x 2.5); 192 GiB = 196608Mi - (11 x 737 + 255) - 100.
    ("g5.12xlarge", "47810m", "188146Mi"),
    # 96 vCPUs: 96000 - (80 + 92 x 2.5); 1152 GiB = 1179648Mi - 8362 - 100.
    ("p4d.24xlarge", "95690m", "1171186Mi"),
    # 2 vCPUs: 2000 - (60 + 10); 8 GiB = 8192Mi - (11 x 29 + 255) - 100.
    ("m6i.large", "1930m", "7518Mi"),
]


@pytest.mark.parametrize(("name", "cpu", "memory"), ALLOCATABLE)
def test_the_node_allocatable_the_placement_model_prints_is_the_numbers(name, cpu, memory):
    instance = lookup(name)
    allocatable = eks_allocatable(instance, 100)

    assert (allocatable["cpu"], allocatable["memory"], allocatable["ephemeral-storage"]) == (cpu, memory, "89Gi")
    assert parse_quantity(allocatable["cpu"]) * 1000 == allocatable_cpu_millicores(instance.vcpus)
    assert (
        parse_quantity(allocatable["memory"])
        == allocatable_memory_mebibytes(instance.memory_gib, instance.max_pods) * 2**20
    )
    assert parse_quantity(allocatable["ephemeral-storage"]) == allocatable_ephemeral_bytes(100)
