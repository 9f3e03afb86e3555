"""`coldStart: fast` on a GPU pool: the fast path's pieces its provisioner and AMI family allow are deployed, not
only offered, and the plan says what was chosen and what could not be.

Worked from the sources: a Karpenter Bottlerocket pool of g5.4xlarge with its image on a snapshot and weights from
S3 starts in 1 + 60 + 60 + 0 (Fast Snapshot Restore) + 19 + 15.22 GB / 1,250 MB/s (12.18: the 10 Gbps baseline,
15 streamer connections of 85 MB/s) + 1.46 + 8 (the compile cache, ai-dynamo/dynamo#3257) + 8.84 (CUDA graphs) + 1 +
1 (1 s probes) = 172.47 s, under three minutes, with Fast Snapshot Restore's $0.75 per zone-hour in 3 zones:
$1,642.50 a month
(How AWS Pricing Works, Amazon EBS). The restores are registered one per zone of the network's private subnets,
named as the region's zone table names their zone IDs (facts/regions.py).

The CUDA graphs, from the vllm 0.32.0 wheel's source: on the g5.4xlarge's A10G (24 GiB, under 70) vLLM's defaults
are max_num_seqs 256 and max_num_batched_tokens 2048 (vllm/engine/arg_utils.py `get_batch_defaults`), so the
default cap is min(256 x 2, 512) = 512 (vllm/config/vllm.py `_set_cudagraph_sizes`): sizes 1, 2, 4 (3), 8 to 248
by 8 (31), 256 to 512 by 16 (17) = 51, each a piecewise graph, and the 35 of them at most 256 a full decode graph
too (vllm/v1/cudagraph_dispatcher.py `initialize_cudagraph_keys`, FULL_AND_PIECEWISE): 86 graphs, counted at the
20 s upper figure (`capture_model`'s "5~20 seconds"). The profile's `--max-cudagraph-capture-size 128` leaves
1, 2, 4 and 8 to 128 by 8: 19 sizes, 38 graphs, 20 x 38 / 86 = 8.84 s."""

from __future__ import annotations

import pytest
import yaml

from components.facts.regions import region_zones
from components.facts.resource_types import FAST_SNAPSHOT_RESTORE, SUBNET
from components.settings.stack import parse_settings
from tests.conftest import plan_stack_file

POOL = {
    "instanceTypes": ["g5.4xlarge"],
    "provisioner": "karpenter",
    "amiFamily": "Bottlerocket",
    "imageCache": "snapshot",
    "snapshotId": "snap-0123456789abcdef0",
    "coldStart": "fast",
}
MODEL = {
    "model": "Qwen/Qwen2.5-7B-Instruct",
    "revision": "a09a35458c702b33eeacc393d103063234e8bc28",
    "source": {"type": "s3"},
}


def test_a_fast_pool_deploys_fast_snapshot_restore_one_second_probes_and_the_compile_cache(tmp_path):
    stack = tmp_path / "Pulumi.fast.yaml"
    config = {"gpuNodeGroup": POOL, "vllm": MODEL}
    values = {f"eks-gpu-inference:{key}": value for key, value in config.items()}
    stack.write_text(yaml.safe_dump({"config": {"aws:region": "us-east-1", **values}}))
    code, document = plan_stack_file(stack, tmp_path / "out")
    assert code == 0, document["failures"]

    deployment = yaml.safe_load((tmp_path / "out" / "vllm.deployment.vllm-server.yaml").read_text())
    pod = deployment["spec"]["template"]["spec"]
    assert pod["containers"][0]["startupProbe"]["periodSeconds"] == 1
    assert pod["containers"][0]["readinessProbe"]["periodSeconds"] == 1
    args = pod["containers"][0]["args"]
    assert args[args.index("--max-cudagraph-capture-size") + 1] == "128"
    assert [container["name"] for container in pod["initContainers"]][-1] == "restore-compile-cache"
    restores = [item for item in document["resources"] if item["type"] == FAST_SNAPSHOT_RESTORE]
    names = {zone.zone_id: zone.name for zone in region_zones("us-east-1")}
    private_zones = [
        item["inputs"]["availabilityZoneId"]
        for item in document["resources"]
        if item["type"] == SUBNET and "-private-" in item["name"]
    ]
    assert [item["inputs"]["availabilityZone"] for item in restores] == [names[zone] for zone in private_zones]
    assert {item["inputs"]["snapshotId"] for item in restores} == {"snap-0123456789abcdef0"}
    [restore] = [item for item in document["cost"]["fixed"] if item["item"].startswith("EBS Fast Snapshot Restore")]
    assert len(restores) == restore["count"] == 3 and restore["monthlyUsd"] == 1642.5
    [start] = document["coldStart"]
    assert start["coldStartSeconds"] == pytest.approx(172.5, abs=0.05)
    [graphs] = [step for step in start["steps"] if step["step"] == "CUDA graph capture"]
    assert graphs["seconds"] == pytest.approx(8.8, abs=0.05)
    [trade] = document["coldStartTrade"]
    today = trade["options"][0]
    assert today["monthlyUsd"] == 1642.5
    assert any(item.startswith("Fast Snapshot Restore for snap-0123456789abcdef0") for item in today["chose"])
    assert any(item.startswith("vLLM's compile cache kept in S3") for item in today["chose"])


def test_a_fast_node_group_on_al2023_gets_soci_and_says_karpenter_and_s3_were_out_of_reach():
    settings = parse_settings(
        {"gpuNodeGroup": {"instanceTypes": ["g5.xlarge"], "coldStart": "fast"}, "vllm": {"model": MODEL["model"]}}
    )
    [pool] = settings.pools
    [server] = settings.servers

    assert (pool.settings.image_cache, pool.settings.volume_throughput_mibps) == ("soci", 600)
    assert server.settings.probe_period_seconds == 1 and server.settings.compile_cache.enabled
    assert settings.gpu_node_group.image_cache == "none", "the config as written is kept; the profile is resolved"


def test_a_default_vpc_pool_keeps_its_snapshot_without_fast_snapshot_restore():
    pool = {**POOL, "provisioner": "nodeGroup"}
    settings = parse_settings({"gpuNodeGroup": pool, "vllm": MODEL, "network": {"mode": "defaultVpc"}})
    [pool] = settings.pools
    assert pool.settings.fast_snapshot_restore is False


def test_default_leaves_the_settings_as_written():
    settings = parse_settings({"gpuNodeGroup": {**POOL, "coldStart": "default"}, "vllm": MODEL})
    assert settings.pools[0].settings.fast_snapshot_restore is False
    assert settings.servers[0].settings.probe_period_seconds == 10
