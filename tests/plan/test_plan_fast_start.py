"""The fast path as settings and its price: a Karpenter Bottlerocket pool whose data volume is restored from a
snapshot with Fast Snapshot Restore, weights streamed from S3, probes every second; the volume's provisioned
throughput in the node's launch template and EC2NodeClass; Fast Snapshot Restore priced per snapshot and zone-hour.

Figures worked from their sources: Fast Snapshot Restore is $0.75 per DSU-hour per zone in us-east-1 (How AWS
Pricing Works, Amazon EBS), so one snapshot in the 3 zones of the stack's network is 3 x 0.75 x 730 = $1,642.50 a
month; one g5.xlarge on demand in us-east-1 is $1.006 an hour, $734.38 a month: the fast path's restore costs more
than a warm node. The cold start on a g5.xlarge: 1 (Karpenter's idle batch) + 60 (launch) + 60 (device plugin) + 0
(the image restored initialized) + 19 (vLLM's start) + 15.22 GB / 312.5 MB/s (48.7, the 2.5 Gbps baseline) + 1.46
(profiling) + 45 (torch.compile, no cache) + 20 (CUDA graphs) + 1 + 1 (probe periods) = 257.2 s.
"""

from __future__ import annotations

import pytest
import yaml

from components.facts import image_cache, prices
from components.facts.resource_types import GET_SUBNET
from components.pools.karpenter.manifests import block_device_mappings
from components.pools.node_group import ManagedNodeGroupSpec, launch_template_args
from components.settings import GpuNodeGroupSettings
from components.settings.errors import ConfigError
from components.settings.stack import parse_settings
from tests.conftest import dev_stack_config, plan_stack_file, run_stack

FAST = {
    "gpuNodeGroup": {
        "instanceTypes": ["g5.xlarge"],
        "provisioner": "karpenter",
        "amiFamily": "Bottlerocket",
        "imageCache": "snapshot",
        "snapshotId": "snap-0123456789abcdef0",
        "fastSnapshotRestore": True,
    },
    "vllm": {
        "model": "Qwen/Qwen2.5-7B-Instruct",
        "revision": "a09a35458c702b33eeacc393d103063234e8bc28",
        "probePeriodSeconds": 1,
        "source": {"type": "s3"},
    },
}


def plan_fast(tmp_path, config: dict) -> dict:
    stack = tmp_path / "Pulumi.fast.yaml"
    values = {f"eks-gpu-inference:{key}": value for key, value in config.items()}
    stack.write_text(yaml.safe_dump({"config": {"aws:region": "us-east-1", **values}}))
    code, document = plan_stack_file(stack, tmp_path / "out")
    assert code == 0, document["failures"]
    return document


def test_the_fast_stack_estimates_its_cold_start_and_prices_fast_snapshot_restore_per_zone(tmp_path):
    document = plan_fast(tmp_path, FAST)

    [start] = document["coldStart"]
    assert start["coldStartSeconds"] == pytest.approx(257.2, abs=0.1)
    assert start["notEstimated"] == []
    [restore] = [item for item in document["cost"]["fixed"] if item["item"].startswith("EBS Fast Snapshot Restore")]
    assert (restore["count"], restore["usdPerUnitHour"], restore["monthlyUsd"]) == (3, 0.75, 1642.5)
    assert restore["monthlyUsd"] > 1.006 * prices.HOURS_PER_MONTH


def test_in_a_given_vpc_fast_snapshot_restore_asks_each_private_subnet_for_its_zone():
    """In a VPC the config names, the zones the GPU nodes launch in are those of its private subnets, which only
    AWS knows: the program asks EC2 for each subnet by its id (aws.ec2.get_subnet), and one restore per zone
    follows. Every subnet asked for is one the config gave, and each of them is asked."""
    private = ["subnet-0aaaaaaaaaaaaaaa1", "subnet-0aaaaaaaaaaaaaaa2"]
    config = dev_stack_config()
    config.pop("network")
    config["cluster"] = {**config["cluster"], "vpcId": "vpc-0123456789abcdef0", "privateSubnetIds": private}
    config["gpuNodeGroup"] = {**config["gpuNodeGroup"], **FAST["gpuNodeGroup"]}

    run = run_stack(config)

    asked = [args.get("id") for token, args in run.calls if token == GET_SUBNET]
    assert set(asked) == set(private)


def test_fast_snapshot_restore_needs_zones_known_before_deploy():
    with pytest.raises(ConfigError) as error:
        parse_settings({"gpuNodeGroup": FAST["gpuNodeGroup"], "network": {"mode": "defaultVpc"}})
    assert "gpuNodeGroup.fastSnapshotRestore: true without the zones the GPU nodes launch in" in str(error.value)


def test_without_fast_snapshot_restore_the_restored_image_is_left_out_and_nothing_is_priced(tmp_path):
    slow = {**FAST, "gpuNodeGroup": {**FAST["gpuNodeGroup"], "fastSnapshotRestore": False}}
    document = plan_fast(tmp_path, slow)

    [start] = document["coldStart"]
    assert len(start["notEstimated"]) == 1 and "first access" in start["notEstimated"][0]
    assert not [item for item in document["cost"]["fixed"] if "Fast Snapshot Restore" in item["item"]]


def test_fast_snapshot_restore_needs_the_snapshot_cache():
    with pytest.raises(ConfigError) as error:
        parse_settings({"gpuNodeGroup": {"fastSnapshotRestore": True}})
    assert "gpuNodeGroup.fastSnapshotRestore: true with imageCache 'none'" in str(error.value)


def test_the_probes_run_at_the_configured_period_and_the_startup_allowance_keeps_its_length(tmp_path):
    document = plan_fast(tmp_path, FAST)

    [start] = document["coldStart"]
    # 1800 s at 1 s a period: 1800 failures.
    assert start["budget"]["startupProbeAllowanceSeconds"] == 1800.0
    assert start["steps"][-1]["arithmetic"] == "startup probe period 1 s + readiness probe period 1 s"


@pytest.mark.parametrize(("throughput", "iops"), [(250, 3000), (750, 3000), (1000, 4000)])
def test_a_provisioned_throughput_reaches_the_volume_with_the_iops_it_needs(throughput, iops):
    # gp3 allows 0.25 MiB/s per IOPS: 1000 MiB/s needs 4000 IOPS, 750 the included 3000.
    settings = GpuNodeGroupSettings(volume_throughput=throughput)
    spec = ManagedNodeGroupSpec(["g5.xlarge"], "AL2023_x86_64_NVIDIA", 0, 1, 2, 100, volume_throughput=throughput)
    [mapping] = launch_template_args(spec)["block_device_mappings"]
    [nodeclass] = block_device_mappings(settings)

    assert (mapping["ebs"]["throughput"], mapping["ebs"]["iops"]) == (throughput, iops)
    assert (nodeclass["ebs"]["throughput"], nodeclass["ebs"]["iops"]) == (throughput, iops)
    assert image_cache.gp3_iops(throughput) == iops


def test_soci_keeps_its_600_mib_s_unless_more_is_asked_and_refuses_less():
    assert GpuNodeGroupSettings(image_cache="soci").volume_throughput_mibps == 600
    assert GpuNodeGroupSettings(image_cache="soci", volume_throughput=900).volume_throughput_mibps == 900
    with pytest.raises(ConfigError) as error:
        parse_settings({"gpuNodeGroup": {"imageCache": "soci", "volumeThroughput": 300}})
    assert "volumeThroughput: 300 with imageCache 'soci'; allowed: at least 600 MiB/s" in str(error.value)
    with pytest.raises(ConfigError):
        parse_settings({"gpuNodeGroup": {"volumeThroughput": 1001}})


def test_a_provisioned_throughput_is_priced_above_the_included_125(tmp_path):
    # gp3 in us-east-1: 100 GB x $0.08 + (500 - 125) MB/s x $0.04 = $8.00 + $15.00 = $23.00 a month.
    config = {"gpuNodeGroup": {"volumeThroughput": 500, "minSize": 1}}
    document = plan_fast(tmp_path, config)

    [pool] = [pool for pool in document["cost"]["pools"] if pool["name"].endswith("-gpu")]
    assert pool["volumesPerNodeMonth"] == 23.0
    [start] = document["coldStart"]
    [image] = [step for step in start["steps"] if step["step"] == "image on the node"]
    # 500 MiB/s = 524.3 MB/s, over g5.xlarge's 87.5 MB/s EBS baseline: the writes still take 464 s.
    assert image["seconds"] == 464.0


def test_one_warm_node_registers_its_placeholders_starts_without_a_node_and_is_priced_monthly(tmp_path):
    """On a g5.4xlarge (10 Gbps baseline, 1,250 MB/s; 15 streamer connections x 85 MB/s = 1,275 MB/s) the warm start
    is 1 (the placeholder's grace period) + 0 (the placeholder pulled the pinned image) + 19 + 15.22 GB / 1,250 MB/s
    (12.18) + 1.46 + 8 (torch.compile from the compile cache) + 20 + 1 + 1 = 63.64 s; the warm node is g5.4xlarge's
    $1.624 an hour (the AWS price list row of facts/price_table.py): $1,185.52 a month, beside Fast Snapshot
    Restore's $1,642.50: $2,828.02."""
    warm = {
        "gpuNodeGroup": {**FAST["gpuNodeGroup"], "instanceTypes": ["g5.4xlarge"], "warmNodes": 1},
        "vllm": {**FAST["vllm"], "source": {"type": "s3", "concurrency": 15}, "compileCache": {"enabled": True}},
    }
    document = plan_fast(tmp_path, warm)

    kinds = {(item["kind"], item["namespace"]) for item in document["objects"] if "-warm" in item["name"]}
    assert kinds == {("PriorityClass", None), ("Deployment", "default")}
    [start] = document["coldStart"]
    assert start["coldStartSeconds"] == pytest.approx(63.6, abs=0.05)
    assert [step["step"] for step in start["steps"][:2]] == ["placeholder preempted", "image on the node"]
    # The placeholders' grace period (pools/warm_manifests.py, 1 s) is the most the server waits for its node.
    assert start["steps"][0]["arithmetic"] == (
        "the scheduler preempts the warm node's placeholder, whose grace period is 1 s"
    )
    assert start["scalesFromZero"] is False
    [node] = [item for item in document["cost"]["fixed"] if item["item"].startswith("warm GPU nodes")]
    assert (node["count"], node["usdPerUnitHour"], node["monthlyUsd"]) == (1, 1.624, 1185.52)
    [restore] = [item for item in document["cost"]["fixed"] if item["item"].startswith("EBS Fast Snapshot Restore")]
    assert restore["monthlyUsd"] + node["monthlyUsd"] == 2828.02
