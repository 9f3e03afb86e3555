"""The weights copy's deadline from the model's size and the system node's network and volume: the copy moves
several files at once, so it takes as long as its slowest leg (the Hub download, the S3 upload, or the node's
volume writing and reading every byte), and the Job may run twice that."""

from __future__ import annotations

import math

import pytest

from components.facts import system_nodes
from components.settings import VllmSettings
from components.vllm import weights_copy

# Llama 3.3 70B: 70,562,938,880 parameters in bf16 (facts/model_catalog.py), 141.12 GB.
WEIGHTS_70B = 70.56e9 * 2
# The copy image's pull: about 12 GB (vllm-project/vllm#27154) at 15 GB in 6 minutes (AWS Machine Learning Blog), 288 s.
PULL = 12e9 / (15e9 / 360)
# gp3's included 125 MiB/s (Amazon EBS User Guide), for every byte written and read back.
VOLUME = 2 * WEIGHTS_70B / (125 * 2**20)


def test_a_70b_copy_on_the_default_system_node_is_bound_by_its_volume():
    # m6i.large: 781 Mbps baseline (karpenter-provider-aws zz_generated.bandwidth.go at v1.14.1), 97.6 MB/s each way:
    # download and upload 1446 s each, the volume 2153 s; 288 + 2153 = 2441 s.
    step = system_nodes.weights_copy_step(WEIGHTS_70B, ["m6i.large"])

    assert step.seconds == pytest.approx(PULL + VOLUME)
    assert round(step.seconds) == 2441
    assert ": volume, 3 files at once" in step.arithmetic
    assert "m6i.large baseline 781 Mbps" in step.source


def test_a_slow_system_node_is_bound_by_its_network():
    # t3.medium: 256 Mbps baseline, 32 MB/s: 141.12 GB in 4410 s, longer than the volume's 2153 s.
    step = system_nodes.weights_copy_step(WEIGHTS_70B, ["t3.medium"])

    assert step.seconds == pytest.approx(PULL + WEIGHTS_70B / (256e6 / 8))
    assert ": download, 3 files at once" in step.arithmetic


def test_of_several_system_instance_types_the_slowest_counts():
    both = system_nodes.weights_copy_step(WEIGHTS_70B, ["m6i.4xlarge", "t3.medium"])

    assert both.seconds == system_nodes.weights_copy_step(WEIGHTS_70B, ["t3.medium"]).seconds


def test_an_unrecorded_node_type_is_bound_by_the_hub_s3_and_the_volume_and_says_so():
    step = system_nodes.weights_copy_step(WEIGHTS_70B, ["x9.large"])

    assert step.seconds == pytest.approx(PULL + VOLUME)
    assert "the node's network baseline not recorded" in step.arithmetic


def test_the_jobs_deadline_is_twice_the_estimate_and_the_servers_wait_adds_its_scheduling():
    settings = VllmSettings(model="meta-llama/Llama-3.3-70B-Instruct", revision="a" * 40, source={"type": "s3"})

    deadline = weights_copy.active_deadline(settings, ["m6i.large"])

    assert deadline == math.ceil(2 * (PULL + VOLUME)) == 4883
    assert weights_copy.wait_seconds(settings, ["m6i.large"]) == deadline + 300
    # One file after the other on the same node, the download (97.6 MB/s, the node's baseline) and then the upload
    # over one S3 connection (85 MB/s, AWS's S3 performance whitepaper) would take 288 + 1446 + 1660 = 3394 s: past
    # the parallel copy's 2441 s, the volume's bound, which the deadline doubles.
    sequential = PULL + WEIGHTS_70B / (781e6 / 8) + WEIGHTS_70B / 85e6
    assert round(sequential) == 3394
    assert sequential > PULL + VOLUME


def test_a_small_model_keeps_the_half_hour_floor():
    settings = VllmSettings(revision="a" * 40, source={"type": "s3"})  # Qwen2.5 7B, 15.2 GB

    assert weights_copy.active_deadline(settings, ["m6i.large"]) == weights_copy.MIN_DEADLINE_SECONDS == 1800
