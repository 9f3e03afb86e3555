"""The `karpenter.sh/do-not-disrupt` window of a vLLM server's pods: its whole cold start from the pod's start time
(the image on the node, the wait for the weights copy, the startup allowance), as Karpenter counts it from
`startTime`."""

from __future__ import annotations

import pytest

from components.facts import versions
from components.settings import GpuNodeGroupSettings, VllmSettings
from components.vllm import weights_copy
from components.vllm.disruption import do_not_disrupt, do_not_disrupt_seconds, image_seconds

# The pinned vLLM image: about 12 GB compressed (vllm-project/vllm#27154) and 28.6 GB unpacked (vllm-project/vllm
# #22377). On a g5.xlarge (the default pool's type) the volume writes both at the instance's EBS baseline, 700 Mbps
# = 87.5 MB/s (instances.vantage.sh's ebs_baseline_bandwidth): 40.6 GB / 87.5 MB/s = 464 s, longer than the network
# pull at the AWS Machine Learning Blog's slowest rate (12 GB at 15 GB per 6 minutes: 288 s) or SOCI's twice that
# (144 s), so both caches take 464 s. A Bottlerocket data volume restored with Fast Snapshot Restore holds it: 0 s.
DISK_BOUND_PULL = 464
SNAPSHOT = {"ami_family": "Bottlerocket", "image_cache": "snapshot", "snapshot_id": "snap-0123456789abcdef0"}


def karpenter_pool(**fields: object) -> GpuNodeGroupSettings:
    return GpuNodeGroupSettings(provisioner="karpenter", **fields)


@pytest.mark.parametrize(
    ("pool", "image"),
    [
        ({}, DISK_BOUND_PULL),
        ({"image_cache": "soci"}, DISK_BOUND_PULL),
        ({**SNAPSHOT, "fast_snapshot_restore": True}, 0),
    ],
    ids=["plain-pull", "soci", "fast-snapshot-restore"],
)
def test_the_window_is_the_image_and_the_startup_allowance(pool, image):
    settings = VllmSettings(image=versions.VLLM_IMAGE, startup_timeout_seconds=1800)

    assert image_seconds(settings, karpenter_pool(**pool)) == image
    assert do_not_disrupt(settings, karpenter_pool(**pool)) == {"karpenter.sh/do-not-disrupt": f"{image + 1800}s"}


@pytest.mark.parametrize(
    ("image", "pool"),
    [("vllm/vllm-openai:v0.33.0", {}), (versions.VLLM_IMAGE, SNAPSHOT)],
    ids=["unsized-image", "lazily-restored-snapshot"],
)
def test_an_image_the_model_cannot_time_takes_the_progress_deadlines_scheduling_and_pull_allowance(image, pool):
    # 900 s: the allowance the Deployment's progressDeadlineSeconds gives a node and the image before the budget.
    settings = VllmSettings(image=image, startup_timeout_seconds=600)

    assert do_not_disrupt_seconds(settings, karpenter_pool(**pool)) == 900 + 600


def test_a_seeded_server_also_waits_for_the_copy_in_its_window():
    settings = VllmSettings(
        image=versions.VLLM_IMAGE,
        revision="a" * 40,
        source={"type": "s3"},
        startup_timeout_seconds=1800,
    )
    pool = karpenter_pool()

    assert settings.seeds
    # Qwen2.5 7B's copy gets the half-hour floor on any recorded node: 1800 s and 300 s to be scheduled.
    assert weights_copy.wait_seconds(settings, ["m6i.large"]) == 2100
    assert do_not_disrupt_seconds(settings, pool, ["m6i.large"]) == DISK_BOUND_PULL + 2100 + 1800


def test_the_volumes_provisioned_throughput_bounds_the_image_write():
    """On a g5.4xlarge (EBS baseline 4,750 Mbps, 593.75 MB/s: instances.vantage.sh) gp3's included 125 MiB/s writes
    the 40.6 GB in 310 s; at 1,000 MiB/s the volume is bounded by the instance's 593.75 MB/s (68 s), below the
    network pull's 288 s, which is then the image's time."""
    settings = VllmSettings(image=versions.VLLM_IMAGE, startup_timeout_seconds=600)

    assert image_seconds(settings, karpenter_pool(instance_types=["g5.4xlarge"])) == 310
    assert image_seconds(settings, karpenter_pool(instance_types=["g5.4xlarge"], volume_throughput=1000)) == 288


def test_the_window_waits_for_the_copy_on_the_system_nodes_it_is_given():
    """Llama-3.3-70B's 141 GB copied on a t3.medium (burstable network) waits longer than on the default m6i.large
    (vllm/weights_copy.py `wait_seconds`): the window takes the wait of the node types it is told of."""
    settings = VllmSettings(
        model="meta-llama/Llama-3.3-70B-Instruct",
        image=versions.VLLM_IMAGE,
        revision="a" * 40,
        source={"type": "s3"},
        startup_timeout_seconds=1800,
    )
    slow = weights_copy.wait_seconds(settings, ["t3.medium"])

    assert slow > weights_copy.wait_seconds(settings, weights_copy.DEFAULT_NODE_TYPES)
    assert do_not_disrupt(settings, karpenter_pool(), ["t3.medium"]) == {
        "karpenter.sh/do-not-disrupt": f"{DISK_BOUND_PULL + slow + 1800}s"
    }
