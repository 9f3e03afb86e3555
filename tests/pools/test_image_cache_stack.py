"""`imageCache` in the real program and the offline plan: the dev stack with `soci`, and with Bottlerocket and a data
volume `snapshot` on a managed node group and on a Karpenter pool; what each registers, and the plan's cold start."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
import yaml
from conftest import dev_stack_config, merge, plan_stack_file, run_stack

from components.facts import versions
from components.facts.identity import PROJECT
from components.facts.resource_types import KARPENTER_NODE_CLASS, LAUNCH_TEMPLATE, NODE_GROUP
from components.stackcheck.plan.pools import node_group_specs, node_pool_specs

SNAPSHOT = "snap-0123456789abcdef0"
# Bottlerocket runs the device plugin on the host, so the stack refuses the DaemonSet beside it.
BOTTLEROCKET = {"devicePlugin": {"enabled": False}}
STACKS = {
    "soci": {"gpuNodeGroup": {"imageCache": "soci"}},
    "snapshot": {
        **BOTTLEROCKET,
        "gpuNodeGroup": {"amiFamily": "Bottlerocket", "imageCache": "snapshot", "snapshotId": SNAPSHOT},
    },
    "karpenter-snapshot": {
        **BOTTLEROCKET,
        "gpuNodeGroup": {
            "amiFamily": "Bottlerocket",
            "imageCache": "snapshot",
            "snapshotId": SNAPSHOT,
            "provisioner": "karpenter",
        },
    },
}


def stack_file(tmp_path: Path, overrides: dict) -> Path:
    config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), overrides).items()}
    path = tmp_path / "Pulumi.cache.yaml"
    path.write_text(yaml.safe_dump({"config": {"aws:region": "us-west-2", **config}}))
    return path


def gpu_template(run) -> dict:
    [template] = [resource for resource in run.of_type(LAUNCH_TEMPLATE) if resource.name.endswith("-gpu-lt")]
    return template.inputs


def test_soci_registers_the_nodeconfig_gate_and_a_600_mibps_root_on_the_gpu_launch_template():
    run = run_stack(merge(dev_stack_config(), STACKS["soci"]))

    template = gpu_template(run)
    [volume] = template["blockDeviceMappings"]
    assert volume["deviceName"] == "/dev/xvda"
    assert (volume["ebs"]["throughput"], volume["ebs"]["iops"], volume["ebs"]["encrypted"]) == (600, 3000, "true")
    user_data = base64.b64decode(template["userData"]).decode()
    assert "application/node.eks.aws" in user_data and "FastImagePull: true" in user_data
    [system] = [resource for resource in run.of_type(LAUNCH_TEMPLATE) if resource.name.endswith("-system-lt")]
    assert "userData" not in system.inputs, "the system nodes keep the plain pull"


def test_a_bottlerocket_node_group_restores_its_data_volume_from_the_snapshot():
    run = run_stack(merge(dev_stack_config(), STACKS["snapshot"]))

    [volume] = gpu_template(run)["blockDeviceMappings"]
    assert volume["deviceName"] == "/dev/xvdb"
    assert volume["ebs"]["snapshotId"] == SNAPSHOT and "encrypted" not in volume["ebs"]
    [group] = [group for group in run.of_type(NODE_GROUP) if group.name.endswith("-gpu")]
    assert group.inputs["amiType"] == "BOTTLEROCKET_x86_64_NVIDIA"
    [spec] = [spec for spec in node_group_specs(run.resources).specs if spec.name.endswith("-gpu")]
    assert spec.gpu_advertised_by_host and spec.disk_size_gib == 100


def test_a_karpenter_bottlerocket_pool_registers_the_alias_and_the_data_volume_and_is_read_as_bottlerocket():
    run = run_stack(merge(dev_stack_config(), STACKS["karpenter-snapshot"]))

    [node_class] = run.of_type(KARPENTER_NODE_CLASS)
    spec = node_class.inputs["spec"]
    assert spec["amiSelectorTerms"] == [{"alias": f"bottlerocket@{versions.KARPENTER_BOTTLEROCKET_RELEASE}"}]
    assert [mapping["deviceName"] for mapping in spec["blockDeviceMappings"]] == ["/dev/xvda", "/dev/xvdb"]
    assert spec["blockDeviceMappings"][1]["ebs"]["snapshotID"] == SNAPSHOT
    # The placement model takes the pool's GPUs as the host's and its disk as the data volume, not the 4Gi OS one.
    [pool] = node_pool_specs(run.resources).specs
    assert pool.gpu_advertised_by_host and pool.disk_size_gib == 100


@pytest.mark.parametrize(
    ("name", "pull", "missing"),
    # The dev stack's g5.xlarge: SOCI's 600 MiB/s volume is bounded by the 87.5 MB/s EBS baseline, so writing
    # 12 + 28.6 GB takes 464 s, longer than SOCI's 144 s pull; a snapshot restored without Fast Snapshot Restore
    # reads its blocks from S3 at no published rate, so the image is left out and named.
    [("soci", 464.0, 0), ("snapshot", None, 1), ("karpenter-snapshot", None, 1)],
)
def test_the_plan_is_clean_and_its_cold_start_brings_the_image_as_the_mode_does(tmp_path, name, pull, missing):
    code, document = plan_stack_file(stack_file(tmp_path, STACKS[name]), tmp_path / "out")

    assert code == 0, document["failures"]
    assert all(verdict["passed"] for verdict in document["verdicts"])
    [start] = document["coldStart"]
    images = [step["seconds"] for step in start["steps"] if step["step"] == "image on the node"]
    assert images == ([] if pull is None else [pull]) and len(start["notEstimated"]) == missing
    # The GPU launch template's request is checked against the EC2 model and rules (a Karpenter pool has none).
    templates = [item for item in document["awsRequests"] if item["name"].endswith("-gpu-lt")]
    assert [(item["checked"], item["passed"]) for item in templates] == ([] if "karpenter" in name else [(True, True)])
    assert all(item["passed"] for item in document["awsRequests"])


def test_the_components_take_the_image_cache_as_arguments_and_refuse_a_bad_pair_naming_the_argument(tmp_path):
    from components.stackcheck.runtime import run_program

    program = tmp_path / "__main__.py"
    program.write_text(
        "from components.args.validate import PlacementArgs\n"
        "from components.pools.karpenter.pool import KarpenterNodePool, KarpenterNodePoolArgs\n"
        "KarpenterNodePool('br', KarpenterNodePoolArgs(cluster_name='ml', node_role_name='nodes',\n"
        "    placement=PlacementArgs(), ami_family='Bottlerocket', image_cache='snapshot',\n"
        f"    snapshot_id='{SNAPSHOT}'))\n"
    )
    run = run_program(program, {}, project=PROJECT, stack="test")

    [node_class] = run.of_type(KARPENTER_NODE_CLASS)
    assert node_class.inputs["spec"]["blockDeviceMappings"][1]["ebs"]["snapshotID"] == SNAPSHOT

    from components.args.validate import PlacementArgs
    from components.pools.karpenter.pool import KarpenterNodePoolArgs, validated
    from components.settings import ConfigError

    bad = KarpenterNodePoolArgs(
        cluster_name="ml",
        node_role_name="nodes",
        placement=PlacementArgs(),
        ami_family="Bottlerocket",
        image_cache="soci",
    )
    with pytest.raises(ConfigError) as error:
        validated("br", bad)
    assert (
        "KarpenterNodePool(br).args.image_cache: 'soci' with ami_family 'Bottlerocket'; allowed: 'none', or 'soci' with ami_family 'AL2023'"
        in str(error.value)
    )
