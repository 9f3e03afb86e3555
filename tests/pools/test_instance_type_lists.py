"""A pool of several instance types: which one each rule reads, at the cases where the choice decides the answer.

vCPUs, memory and GPUs per type from facts/gpu_catalog.py (the AWS EC2 accelerated-computing instance specifications):
g6.xlarge 4 vCPUs 16 GiB, g6e.xlarge 4 vCPUs 32 GiB, g6.2xlarge 8 vCPUs, g6.4xlarge 16 vCPUs, p5.4xlarge 16 vCPUs
256 GiB, g6.8xlarge 32 vCPUs 128 GiB; one GPU each (a pool has one GPU count).
"""

from __future__ import annotations

import pytest

from components.pools.karpenter import manifests
from components.settings import GpuNodeGroupSettings


def pool(*instance_types: str, **values) -> GpuNodeGroupSettings:
    return GpuNodeGroupSettings(provisioner="karpenter", instance_types=list(instance_types), **values)


@pytest.mark.parametrize(
    ("instance_types", "expected"),
    [
        # The fewest vCPUs first, though the other has less memory: 16 vCPUs and 256 GiB against 32 and 128.
        (("g6.8xlarge", "p5.4xlarge"), "p5.4xlarge"),
        # The same 4 vCPUs: the least memory, 16 GiB against 32, wherever it is listed.
        (("g6e.xlarge", "g6.xlarge"), "g6.xlarge"),
        (("g6.xlarge", "g6e.xlarge"), "g6.xlarge"),
    ],
    ids=["fewest-vcpus-before-least-memory", "a-vcpu-tie-to-less-memory-listed-last", "listed-first"],
)
def test_workloads_are_sized_to_the_pools_smallest_type_by_vcpus_then_memory(instance_types, expected):
    assert pool(*instance_types).smallest_instance.name == expected


@pytest.mark.parametrize(
    "instance_types",
    [("g6.2xlarge", "g6.4xlarge"), ("g6.4xlarge", "g6.2xlarge")],
    ids=["largest-listed-last", "largest-listed-first"],
)
def test_a_karpenter_pools_limits_are_max_size_nodes_of_its_largest_type_wherever_it_is_listed(instance_types):
    """maxSize 3 of g6.4xlarge, the larger (16 vCPUs against 8): 3 GPUs and 48 vCPUs, so that three nodes of any
    of its types fit under the limits."""
    assert manifests.node_pool_limits(pool(*instance_types, max_size=3)) == {"nvidia.com/gpu": "3", "cpu": "48"}
