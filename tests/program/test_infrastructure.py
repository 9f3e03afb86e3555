"""The EKS cluster, system node group and guarded GPU node group, as the program registers them."""

from __future__ import annotations

import pulumi
import pytest

from components.facts.gpu_catalog import CLUSTER_AUTOSCALER_TEMPLATE_TAG
from components.facts.resource_types import ADDON, AUTOSCALING_TAG, EKS_CLUSTER, KMS_KEY, LAUNCH_TEMPLATE, NODE_GROUP
from components.settings import ConfigError
from components.stackcheck.runtime import ProgramRun
from tests.support.invalid_settings import INVALID_SETTINGS


def node_groups(run: ProgramRun) -> dict[str, dict]:
    return {resource.name: resource.inputs for resource in run.of_type(NODE_GROUP)}


def test_dev_stack_registers_cluster_without_default_node_group(dev_run):
    (cluster,) = dev_run.of_type(EKS_CLUSTER)
    assert cluster.inputs["skipDefaultNodeGroup"] is True
    assert cluster.inputs["authenticationMode"] == "API"
    assert cluster.inputs["name"] == "gpu-inference-dev"
    assert cluster.inputs["version"] == "1.36"


def test_dev_stack_gpu_node_group_is_labelled_and_tainted_in_eks_spelling(dev_run):
    gpu = node_groups(dev_run)["gpu-inference-dev-gpu"]
    assert gpu["amiType"] == "AL2023_x86_64_NVIDIA"
    assert gpu["labels"]["GPU"] == "true"
    assert gpu["labels"]["nvidia.com/gpu.present"] == "true"
    assert gpu["taints"] == [{"key": "GPU", "value": "true", "effect": "NO_SCHEDULE"}]
    assert gpu["instanceTypes"] == ["g5.xlarge"]


def test_system_node_group_is_untainted_and_not_gpu(dev_run):
    system = node_groups(dev_run)["gpu-inference-dev-system"]
    assert not system.get("taints")
    assert "GPU" not in (system.get("labels") or {})
    assert system["amiType"] == "AL2023_x86_64_STANDARD"
    assert system["scalingConfig"]["minSize"] >= 1


@pytest.mark.parametrize(
    ("instance_type", "ami_family", "expected"),
    [
        ("g5.xlarge", "AL2023", "AL2023_x86_64_NVIDIA"),
        ("g5g.xlarge", "AL2023", "AL2023_ARM_64_NVIDIA"),
        ("g6.xlarge", "Bottlerocket", "BOTTLEROCKET_x86_64_NVIDIA"),
        ("g5g.2xlarge", "Bottlerocket", "BOTTLEROCKET_ARM_64_NVIDIA"),
        ("p4d.24xlarge", "AL2023", "AL2023_x86_64_NVIDIA"),
    ],
)
def test_ami_type_follows_instance_architecture_and_family(stack, instance_type, ami_family, expected):
    run = stack(
        {"gpuNodeGroup": {"instanceTypes": [instance_type], "amiFamily": ami_family}, "vllm": {"enabled": False}}
    )
    assert node_groups(run)["gpu-inference-dev-gpu"]["amiType"] == expected


def test_custom_contract_flows_into_node_group(stack):
    run = stack(
        {
            "gpuPlacement": {
                "labelKey": "accelerator",
                "labelValue": "nvidia",
                "taintKey": "nvidia.com/gpu",
                "taintValue": "present",
                "taintEffect": "NoExecute",
            },
            "gpuNodeGroup": {"extraTaints": [{"key": "team", "value": "ml", "effect": "NoSchedule"}]},
        }
    )
    gpu = node_groups(run)["gpu-inference-dev-gpu"]
    assert gpu["labels"]["accelerator"] == "nvidia"
    assert "GPU" not in gpu["labels"]
    assert gpu["taints"] == [
        {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_EXECUTE"},
        {"key": "team", "value": "ml", "effect": "NO_SCHEDULE"},
    ]


@pytest.mark.parametrize(("overrides", "key", "fragment"), INVALID_SETTINGS)
def test_bad_setting_fails_before_any_resource_is_registered(stack, overrides, key, fragment):
    run = ProgramRun()
    with pytest.raises(ConfigError) as error:
        stack(overrides, run=run)
    assert key in [problem.key for problem in error.value.problems]
    assert run.resources == []
    # The Python language host prints a RunError by its message alone: the problems, not a traceback.
    assert isinstance(error.value, pulumi.RunError)


def test_every_node_group_requires_imdsv2_with_hop_limit_one(dev_run):
    templates = dev_run.of_type(LAUNCH_TEMPLATE)
    assert len(templates) == len(dev_run.of_type(NODE_GROUP)) == 2
    for template in templates:
        assert template.inputs["metadataOptions"] == {
            "httpEndpoint": "enabled",
            "httpTokens": "required",
            "httpPutResponseHopLimit": 1,
        }
    for group in dev_run.of_type(NODE_GROUP):
        assert group.inputs["launchTemplate"]["id"] == f"{group.name}-lt-id"
        assert "diskSize" not in group.inputs


def test_disk_size_lives_in_the_launch_template_encrypted(dev_run):
    template = dev_run.named("gpu-inference-dev-gpu-lt")
    (device,) = template.inputs["blockDeviceMappings"]
    assert device["ebs"]["volumeSize"] == 100
    assert device["ebs"]["encrypted"] == "true"
    assert "imageId" not in template.inputs


def test_cluster_encrypts_secrets_logs_audit_and_keeps_endpoint_private(dev_run):
    (cluster,) = dev_run.of_type(EKS_CLUSTER)
    (key,) = dev_run.of_type(KMS_KEY)
    assert key.inputs["enableKeyRotation"] is True
    assert cluster.inputs["encryptionConfigKeyArn"].endswith(f":key/{key.name}")
    assert {"api", "audit", "authenticator"} <= set(cluster.inputs["enabledClusterLogTypes"])
    assert cluster.inputs["endpointPrivateAccess"] is True


def test_given_kms_key_is_used_instead_of_creating_one(stack):
    arn = "arn:aws:kms:us-west-2:123456789012:key/0a1b2c3d-1111-2222-3333-444455556666"
    run = stack({"cluster": {"secretsKmsKeyArn": arn}})
    assert run.of_type(KMS_KEY) == []
    assert run.of_type(EKS_CLUSTER)[0].inputs["encryptionConfigKeyArn"] == arn


def test_admin_principals_become_cluster_admin_access_entries(stack):
    arn = "arn:aws:iam::123456789012:role/platform-admins"
    run = stack({"cluster": {"adminPrincipalArns": [arn]}})
    entries = run.of_type(EKS_CLUSTER)[0].inputs["accessEntries"]
    (entry,) = entries.values()
    assert entry["principalArn"] == arn
    (policy,) = entry["accessPolicies"].values()
    assert policy["policyArn"].endswith("AmazonEKSClusterAdminPolicy")
    assert policy["accessScope"] == {"type": "cluster"}


def test_public_endpoint_is_limited_to_configured_cidrs(stack):
    run = stack({"cluster": {"publicAccessCidrs": ["203.0.113.0/24"]}})
    assert run.of_type(EKS_CLUSTER)[0].inputs["publicAccessCidrs"] == ["203.0.113.0/24"]
    private = stack({"cluster": {"endpointPublicAccess": False}})
    inputs = private.of_type(EKS_CLUSTER)[0].inputs
    assert inputs["endpointPublicAccess"] is False
    assert "publicAccessCidrs" not in inputs


def test_nodes_run_in_private_subnets_when_given(stack):
    private = ["subnet-0aaaaaaaaaaaaaaa1", "subnet-0aaaaaaaaaaaaaaa2"]
    run = stack(
        {
            "network": None,
            "cluster": {
                "vpcId": "vpc-0123456789abcdef0",
                "privateSubnetIds": private,
                "publicSubnetIds": ["subnet-0bbbbbbbbbbbbbbb1"],
            },
        }
    )
    groups = run.of_type(NODE_GROUP)
    assert len(groups) == 2
    for group in groups:
        assert group.inputs["subnetIds"] == private


def test_gpu_node_group_repairs_itself_with_the_monitoring_agent(dev_run):
    gpu = node_groups(dev_run)["gpu-inference-dev-gpu"]
    assert gpu["nodeRepairConfig"] == {"enabled": True}
    assert gpu["updateConfig"] == {"maxUnavailable": 1}
    addons = {addon.inputs["addonName"] for addon in dev_run.of_type(ADDON)}
    assert "eks-node-monitoring-agent" in addons


GPU_GROUP_NAME = "gpu-inference-dev-gpu-" + "1".zfill(26)


def test_autoscaler_tags_describe_gpu_nodes_at_zero(dev_run):
    tags = {t.inputs["tag"]["key"]: t.inputs["tag"]["value"] for t in dev_run.of_type(AUTOSCALING_TAG)}
    prefix = CLUSTER_AUTOSCALER_TEMPLATE_TAG
    assert tags[f"{prefix}/label/GPU"] == "true"
    assert tags[f"{prefix}/taint/GPU"] == "true:NoSchedule"
    assert tags[f"{prefix}/resources/nvidia.com/gpu"] == "1"
    # On the GPU node group's own Auto Scaling group, the one the Cluster Autoscaler scales from zero.
    (asg_name,) = {t.inputs["autoscalingGroupName"] for t in dev_run.of_type(AUTOSCALING_TAG)}
    assert asg_name == f"eks-{GPU_GROUP_NAME}-asg"


def test_stack_outputs_name_the_cluster_and_contract_with_secret_kubeconfig(dev_run):
    outputs = dev_run.outputs
    assert outputs["clusterName"] == "gpu-inference-dev"
    assert "kubeconfig" in dev_run.secret_outputs
    # Node groups are named from a prefix; the mocks complete it with a 26-digit id as the provider does.
    assert outputs["gpuNodeGroup"] == GPU_GROUP_NAME
    assert outputs["systemNodeGroup"] == "gpu-inference-dev-system-" + "1".zfill(26)
    assert outputs["gpuNodeLabels"]["GPU"] == "true"
    assert outputs["gpuNodeTaints"] == [{"key": "GPU", "value": "true", "effect": "NO_SCHEDULE"}]


def test_children_are_parented_to_their_components(dev_run):
    children = [
        resource for resource in dev_run.resources if resource.type in (NODE_GROUP, LAUNCH_TEMPLATE, EKS_CLUSTER)
    ]
    assert {resource.type for resource in children} == {NODE_GROUP, LAUNCH_TEMPLATE, EKS_CLUSTER}
    for resource in children:
        assert "eks-gpu-inference:index:" in resource.parent, resource.name
