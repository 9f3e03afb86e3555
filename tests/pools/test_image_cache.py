"""`imageCache` (none, soci, snapshot) and Bottlerocket on Karpenter pools as pure builders: the settings rules, the
launch template a node group registers, the EC2NodeClass of a Karpenter pool (against the pinned CRD), the launch
template's AWS request checks, and the cold-start image step of each mode."""

from __future__ import annotations

import base64

import pytest

from components.facts import image_cache, versions
from components.facts.cold_start import Start, cold_start_steps
from components.facts.versions import VLLM_IMAGE
from components.pools.gpu_node_group import gpu_node_group_spec
from components.pools.karpenter import manifests as manifests
from components.pools.node_group import launch_template_args
from components.settings import ConfigError, GpuNodeGroupSettings, parse_settings
from components.stackcheck.aws import rules
from components.stackcheck.plan import crd_schema

SNAPSHOT = "snap-0123456789abcdef0"
BOTTLEROCKET_SNAPSHOT = {"amiFamily": "Bottlerocket", "imageCache": "snapshot", "snapshotId": SNAPSHOT}

# Each row: the gpuNodeGroup config, then every message the settings give (key: value; allowed ...).
INVALID = [
    pytest.param(
        {"imageCache": "soci", "amiFamily": "Bottlerocket"},
        [
            "gpuNodeGroup.imageCache: 'soci' with amiFamily 'Bottlerocket'; allowed: 'none', or 'soci' with amiFamily "
            "'AL2023'"
        ],
        id="soci-on-bottlerocket",
    ),
    pytest.param(
        {"imageCache": "snapshot", "snapshotId": SNAPSHOT},
        [
            "gpuNodeGroup.imageCache: 'snapshot' with amiFamily 'AL2023'; allowed: 'none', or 'snapshot' with amiFamily "
            "'Bottlerocket'"
        ],
        id="snapshot-on-al2023",
    ),
    pytest.param(
        {"imageCache": "snapshot", "amiFamily": "Bottlerocket"},
        [
            "gpuNodeGroup.snapshotId: missing with imageCache 'snapshot'; allowed: the EBS snapshot of a Bottlerocket "
            "data volume holding the vLLM image ('snap-' and 8 or 17 hexadecimal digits)"
        ],
        id="snapshot-without-id",
    ),
    pytest.param(
        {"snapshotId": SNAPSHOT},
        [
            f"gpuNodeGroup.snapshotId: {SNAPSHOT!r} with imageCache 'none'; allowed: no snapshotId, or imageCache "
            "'snapshot'"
        ],
        id="id-without-snapshot",
    ),
    pytest.param(
        {**BOTTLEROCKET_SNAPSHOT, "snapshotId": "snap-12345"},
        [
            "gpuNodeGroup.snapshotId: invalid value 'snap-12345'; allowed: an EBS snapshot id: 'snap-' and 8 or 17 "
            "lowercase hexadecimal digits"
        ],
        id="id-too-short",
    ),
    pytest.param(
        {"imageCache": "lazy"},
        ["gpuNodeGroup.imageCache"],
        id="unknown-mode",
    ),
]


@pytest.mark.parametrize(("pool", "messages"), INVALID)
def test_an_image_cache_the_ami_family_cannot_use_is_refused_naming_the_key_value_and_what_is_allowed(pool, messages):
    with pytest.raises(ConfigError) as error:
        parse_settings({"gpuNodeGroup": pool})

    for message in messages:
        assert message in str(error.value)


def test_soci_is_refused_on_an_instance_type_below_nodeadms_threshold(monkeypatch):
    monkeypatch.setattr(image_cache, "SOCI_MIN_MEMORY_GIB", 32)  # every default g5.xlarge (16 GiB) falls below it

    with pytest.raises(ConfigError) as error:
        parse_settings({"gpuNodeGroup": {"imageCache": "soci"}})

    assert "gpuNodeGroup.imageCache: 'soci' with instance types ['g5.xlarge']; allowed: instance types of at" in str(
        error.value
    )


@pytest.mark.parametrize(
    "pool",
    [
        {"imageCache": "soci"},
        BOTTLEROCKET_SNAPSHOT,
        {**BOTTLEROCKET_SNAPSHOT, "provisioner": "karpenter", "snapshotId": "snap-0123abcd"},
        {"amiFamily": "Bottlerocket", "provisioner": "karpenter"},
    ],
    ids=["soci-al2023", "snapshot-bottlerocket", "snapshot-karpenter-short-id", "bottlerocket-karpenter"],
)
def test_each_mode_is_accepted_on_the_family_that_supports_it(pool):
    settings = parse_settings({"gpuNodeGroup": pool})

    assert settings.pools[0].settings.image_cache == pool.get("imageCache", "none")


def test_soci_turns_the_gate_on_in_user_data_and_raises_the_root_volumes_throughput():
    settings = GpuNodeGroupSettings(image_cache="soci")
    args = launch_template_args(gpu_node_group_spec(settings, parse_settings({}).contract, {}))

    [volume] = args["block_device_mappings"]
    assert volume["device_name"] == "/dev/xvda"
    assert volume["ebs"] == {
        "volume_size": 100,
        "volume_type": "gp3",
        "delete_on_termination": "true",
        "encrypted": "true",
        "throughput": 600,
        "iops": 3000,
    }
    user_data = base64.b64decode(args["user_data"]).decode()
    assert "Content-Type: application/node.eks.aws" in user_data
    assert "kind: NodeConfig" in user_data and "    FastImagePull: true" in user_data


def test_snapshot_restores_bottlerocket_data_volume_with_no_encryption_value_and_no_user_data():
    settings = GpuNodeGroupSettings(ami_family="Bottlerocket", image_cache="snapshot", snapshot_id=SNAPSHOT)
    args = launch_template_args(gpu_node_group_spec(settings, parse_settings({}).contract, {}))

    [volume] = args["block_device_mappings"]
    assert volume == {
        "device_name": "/dev/xvdb",
        "ebs": {"volume_size": 100, "volume_type": "gp3", "delete_on_termination": "true", "snapshot_id": SNAPSHOT},
    }
    assert "user_data" not in args


def test_no_cache_keeps_the_encrypted_volume_and_no_user_data():
    args = launch_template_args(gpu_node_group_spec(GpuNodeGroupSettings(), parse_settings({}).contract, {}))

    assert args["block_device_mappings"][0]["ebs"]["encrypted"] == "true"
    assert "throughput" not in args["block_device_mappings"][0]["ebs"] and "user_data" not in args


def test_a_karpenter_bottlerocket_pool_boots_the_pinned_alias_with_an_os_and_a_data_volume_from_the_snapshot():
    settings = GpuNodeGroupSettings(
        provisioner="karpenter", ami_family="Bottlerocket", image_cache="snapshot", snapshot_id=SNAPSHOT
    )

    node_class = manifests.ec2_node_class("gpu", settings, "node-role", "cluster")

    spec = node_class["spec"]
    assert spec["amiSelectorTerms"] == [{"alias": f"bottlerocket@{versions.KARPENTER_BOTTLEROCKET_RELEASE}"}]
    assert spec["blockDeviceMappings"] == [
        {
            "deviceName": "/dev/xvda",
            "ebs": {"volumeSize": "4Gi", "volumeType": "gp3", "encrypted": True, "deleteOnTermination": True},
        },
        {
            "deviceName": "/dev/xvdb",
            "rootVolume": True,
            "ebs": {"volumeSize": "100Gi", "volumeType": "gp3", "deleteOnTermination": True, "snapshotID": SNAPSHOT},
        },
    ]
    # Karpenter writes the NodePool's labels and taints into Bottlerocket's settings itself.
    assert "userData" not in spec
    assert crd_schema.validation_errors(node_class) == []


def test_a_karpenter_al2023_pool_with_soci_has_the_nodeconfig_as_user_data_and_a_faster_root():
    settings = GpuNodeGroupSettings(provisioner="karpenter", image_cache="soci")

    node_class = manifests.ec2_node_class("gpu", settings, "node-role", "cluster")

    spec = node_class["spec"]
    assert spec["amiSelectorTerms"] == [{"alias": f"al2023@{versions.KARPENTER_AL2023_AMI_RELEASE}"}]
    [root] = spec["blockDeviceMappings"]
    assert (root["deviceName"], root["ebs"]["throughput"], root["ebs"]["iops"]) == ("/dev/xvda", 600, 3000)
    # One MIME part (amazon-eks-ami nodeadm/doc/examples.md), a NodeConfig with nodeadm's SOCI gate; Karpenter appends
    # its own part with the cluster's details.
    assert spec["userData"] == (
        'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="//"\n\n--//\n'
        "Content-Type: application/node.eks.aws\n\n"
        "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  featureGates:\n    FastImagePull: true\n\n"
        "--//--\n"
    )
    assert crd_schema.validation_errors(node_class) == []


def test_the_launch_template_check_names_a_bad_snapshot_an_encryption_value_beside_it_and_a_throughput_too_high():
    data = {
        "BlockDeviceMappings": [
            {"DeviceName": "/dev/xvdb", "Ebs": {"SnapshotId": "snap-xyz", "Encrypted": True, "VolumeType": "gp3"}},
            {"DeviceName": "/dev/xvda", "Ebs": {"VolumeType": "gp3", "Throughput": 1000}},
            {"DeviceName": "/dev/xvdc", "Ebs": {"VolumeType": "gp3", "Throughput": 2500, "Iops": 16000}},
        ]
    }

    found = {(violation.path, violation.value) for violation in rules.block_devices(data)}

    assert found == {
        ("LaunchTemplateData.BlockDeviceMappings[0].Ebs.SnapshotId", "snap-xyz"),
        ("LaunchTemplateData.BlockDeviceMappings[0].Ebs.Encrypted", True),
        ("LaunchTemplateData.BlockDeviceMappings[1].Ebs.Throughput", 1000),  # 750 MiB/s at 3,000 IOPS
        ("LaunchTemplateData.BlockDeviceMappings[2].Ebs.Throughput", 2500),
    }


@pytest.mark.parametrize(
    ("ami_family", "mode", "throughput", "pull"),
    [
        # g5.4xlarge's EBS baseline 4750 Mbps = 593.75 MB/s: gp3's own 125 MiB/s (131.07 MB/s) bounds the plain
        # pull's writes, 40.6 GB in 309.8 s, longer than its 12 GB at 41.67 MB/s (288 s).
        ("AL2023", "none", None, 40.6e9 / (125 * 2**20)),
        # SOCI's 600 MiB/s volume (629.1 MB/s) is bounded by the 593.75 MB/s EBS baseline: 68.4 s of writes, under
        # the pull's 144 s (half the plain 288 s).
        ("AL2023", "soci", 600, 12e9 / (15e9 / 360) / 2),
        # Fast Snapshot Restore: the volume is initialized at creation.
        ("Bottlerocket", "snapshot", None, 0),
    ],
)
def test_the_image_step_is_the_pull_or_the_volumes_writes_whichever_is_longer(ami_family, mode, throughput, pull):
    for provisioner in ("nodeGroup", "karpenter"):
        start = Start(
            provisioner=provisioner,
            ami_family=ami_family,
            image=VLLM_IMAGE,
            weights_bytes=1e9,
            image_cache=mode,
            fast_snapshot_restore=mode == "snapshot",
            volume_throughput_mibps=throughput,
            instance="g5.4xlarge",
            network_baseline_gbps=10,
        )
        steps, missing = cold_start_steps(start)

        [image] = [step for step in steps if step.name == "image on the node"]
        assert image.seconds == pytest.approx(pull, abs=0.01)
        assert not image.in_probe and missing == []


def test_each_pool_of_the_fleet_form_has_its_own_image_cache_and_its_problems_name_the_pool():
    model = {"model": "Qwen/Qwen2.5-1.5B-Instruct", "pool": "soci"}
    pools = {"soci": {"instanceTypes": ["g6.xlarge"], "imageCache": "soci"}, "plain": {"instanceTypes": ["g6.xlarge"]}}
    settings = parse_settings({"gpuPools": pools, "models": [{"name": "chat", **model}]})

    assert {pool.key: pool.settings.image_cache for pool in settings.pools} == {"soci": "soci", "plain": "none"}
    with pytest.raises(ConfigError) as error:
        parse_settings({"gpuPools": {**pools, "plain": {"instanceTypes": ["g6.xlarge"], "snapshotId": SNAPSHOT}}})
    assert f"gpuPools.plain.snapshotId: {SNAPSHOT!r} with imageCache 'none'" in str(error.value)
