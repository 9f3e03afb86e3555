"""Karpenter's objects and documents as pure functions of the pool settings and the placement contract, checked
against the CRD schemas of the pinned release; the settings rules of `provisioner`."""

from __future__ import annotations

import json

import pytest

from components.facts import versions
from components.facts.contract import PlacementContract, Taint
from components.pools.karpenter import manifests as manifests
from components.settings import ConfigError, GpuNodeGroupSettings, parse_settings
from components.stackcheck.plan import crd_schema


def pool_settings(**values) -> GpuNodeGroupSettings:
    return GpuNodeGroupSettings(provisioner="karpenter", **values)


@pytest.mark.parametrize(
    "values",
    [
        {},
        {"instance_types": ["g6e.xlarge", "g6e.2xlarge"], "capacity_type": "SPOT", "max_size": 5, "disk_size": 300},
        {"instance_types": ["g5g.xlarge"]},
        {"ami_family": "Bottlerocket", "instance_types": ["g5g.xlarge"]},
    ],
    ids=["defaults", "spot-two-types", "arm64", "bottlerocket-arm64"],
)
def test_the_node_pool_and_node_class_are_valid_against_the_pinned_crds(values):
    settings = pool_settings(**values)
    contract = PlacementContract(
        extra_taints=(Taint("dedicated", "inference", "NoExecute"),), extra_labels={"team": "ml"}
    )

    pool = manifests.node_pool("gpu", settings, contract)
    node_class = manifests.ec2_node_class("gpu", settings, "node-role", "cluster", {"team": "ml"})

    assert crd_schema.validation_errors(pool) == []
    assert crd_schema.validation_errors(node_class) == []


def test_the_crds_are_those_of_the_pinned_release():
    documents = crd_schema.crd_schemas()

    for kind in (("karpenter.sh/v1", "NodePool"), ("karpenter.k8s.aws/v1", "EC2NodeClass")):
        assert f"aws/karpenter-provider-aws v{versions.KARPENTER_VERSION} " in documents[kind]["source"]
        assert documents[kind]["scope"] == "Cluster"


def test_a_node_pool_field_the_crd_does_not_know_fails_validation_naming_it():
    pool = manifests.node_pool("gpu", pool_settings(), PlacementContract())
    pool["spec"]["disruption"]["consolidationPolicy"] = "Never"
    pool["spec"]["template"]["spec"]["taint"] = []

    errors = crd_schema.validation_errors(pool)

    assert any(error.startswith("spec.disruption.consolidationPolicy: 'Never' is not one of") for error in errors)
    assert any("'taint' was unexpected" in error for error in errors)


def test_every_taint_of_the_contract_is_on_the_node_pool_in_kubernetes_spelling():
    contract = PlacementContract(extra_taints=(Taint("dedicated", "inference", "NoExecute"),))

    pool = manifests.node_pool("gpu", pool_settings(), contract)

    assert pool["spec"]["template"]["spec"]["taints"] == [
        {"key": "GPU", "value": "true", "effect": "NoSchedule"},
        {"key": "dedicated", "value": "inference", "effect": "NoExecute"},
    ]


def test_requirements_follow_the_instance_types_capacity_type_and_architecture():
    pool = manifests.node_pool(
        "gpu", pool_settings(instance_types=["g5g.xlarge", "g5g.2xlarge"], capacity_type="SPOT"), PlacementContract()
    )
    requirements = {item["key"]: item["values"] for item in pool["spec"]["template"]["spec"]["requirements"]}

    assert requirements == {
        "node.kubernetes.io/instance-type": ["g5g.xlarge", "g5g.2xlarge"],
        "karpenter.sh/capacity-type": ["spot"],
        "kubernetes.io/arch": ["arm64"],
    }


def test_the_gpu_limit_is_max_size_times_the_gpus_of_the_largest_instance_type():
    # p4d.24xlarge: 8 A100, 96 vCPUs.
    limits = manifests.node_pool_limits(pool_settings(instance_types=["p4d.24xlarge"], max_size=3))

    assert limits == {"nvidia.com/gpu": "24", "cpu": "288"}


def test_consolidation_removes_only_empty_nodes_one_at_a_time_and_expiry_is_bounded():
    pool = manifests.node_pool("gpu", pool_settings(), PlacementContract())

    assert pool["spec"]["disruption"] == {
        "consolidationPolicy": "WhenEmpty",
        "consolidateAfter": manifests.CONSOLIDATE_AFTER,
        "budgets": [{"nodes": "1"}],
    }
    # With do-not-disrupt pods, a drain that nothing bounds could wait for ever (docs/concepts/disruption.md).
    assert pool["spec"]["template"]["spec"]["terminationGracePeriod"] == "2h"
    # Expiry is forceful; nodes are replaced by drift, which the budget above paces.
    assert pool["spec"]["template"]["spec"]["expireAfter"] == "Never"


def test_the_controller_policy_names_only_this_clusters_resources():
    policy = manifests.controller_policy("c1", "aws-cn", "cn-north-1", "111122223333", "arn:role", "arn:queue")
    text = json.dumps(policy)

    assert "kubernetes.io/cluster/c1" in text and "arn:aws-cn:eks:cn-north-1:111122223333:cluster/c1" in text
    assert "arn:aws:" not in text
    passing = [statement for statement in policy["Statement"] if statement["Action"] == "iam:PassRole"]
    assert [statement["Resource"] for statement in passing] == ["arn:role"]


def test_the_provisioner_is_node_group_karpenter_or_auto_mode():
    with pytest.raises(ConfigError) as error:
        parse_settings({"gpuNodeGroup": {"provisioner": "fargate"}})

    assert "gpuNodeGroup.provisioner" in str(error.value)
    assert "'nodeGroup', 'karpenter' or 'autoMode'" in str(error.value)


def test_the_pinned_release_supports_every_kubernetes_version_the_stack_offers():
    oldest, newest = (tuple(map(int, version.split("."))) for version in versions.KARPENTER_KUBERNETES_VERSIONS)

    assert versions.SUPPORTED_KUBERNETES_VERSIONS
    for version in versions.SUPPORTED_KUBERNETES_VERSIONS:
        assert oldest <= tuple(map(int, version.split("."))) <= newest


def test_the_controllers_helm_values_are_values_the_pinned_chart_reads():
    from components.stackcheck.plan.helm_values import chart_defaults, unknown_values

    document = chart_defaults()[(versions.KARPENTER_CHART, versions.KARPENTER_VERSION)]
    values = manifests.helm_values("c1", "q1", {"eks-gpu-inference/node-pool": "system"}, "eu-west-1")

    assert unknown_values(values, document["values"]) == []


def test_a_helm_value_the_chart_does_not_read_is_named_by_its_path():
    from components.stackcheck.plan.helm_values import chart_defaults, unknown_values

    document = chart_defaults()[(versions.KARPENTER_CHART, versions.KARPENTER_VERSION)]
    values = {"settings": {"clusterNmae": "c1"}, "nodeSelector": {"any-label": "x"}, "podAnnotations": {"a": "b"}}

    assert unknown_values(values, document["values"]) == ["values.settings.clusterNmae"]


@pytest.mark.parametrize(
    ("family", "release"),
    [("AL2023", versions.KARPENTER_AL2023_AMI_RELEASE), ("Bottlerocket", versions.KARPENTER_BOTTLEROCKET_RELEASE)],
)
def test_every_supported_kubernetes_version_has_an_nvidia_ami_in_the_pinned_alias_release(family, release):
    # A new pin needs its row in KARPENTER_ALIAS_KUBERNETES_VERSIONS (the release notes' NVIDIA images), and a new
    # supported Kubernetes version needs an alias release that ships it: either gap fails here, not in a cluster.
    shipped = versions.KARPENTER_ALIAS_KUBERNETES_VERSIONS.get((family, release))

    assert shipped is not None, f"{family} {release}: no record of the Kubernetes versions it has NVIDIA AMIs for"
    assert [v for v in versions.SUPPORTED_KUBERNETES_VERSIONS if v not in shipped] == []


def test_a_bottlerocket_node_class_encrypts_both_its_volumes():
    """Bottlerocket boots from an OS volume and keeps images, containers and the kubelet on a data volume
    (/dev/xvda and /dev/xvdb); Karpenter's own default for Bottlerocket's OS volume is 4Gi gp3, encrypted
    (karpenter-provider-aws, website/content/en/docs/concepts/nodeclasses.md, blockDeviceMappings). Both are
    encrypted gp3 volumes deleted with the node, the data volume at the pool's disk size."""
    volumes = manifests.block_device_mappings(pool_settings(ami_family="Bottlerocket", disk_size=200))

    assert volumes == [
        {
            "deviceName": "/dev/xvda",
            "ebs": {"volumeSize": "4Gi", "volumeType": "gp3", "encrypted": True, "deleteOnTermination": True},
        },
        {
            "deviceName": "/dev/xvdb",
            "rootVolume": True,
            "ebs": {"volumeSize": "200Gi", "volumeType": "gp3", "deleteOnTermination": True, "encrypted": True},
        },
    ]
