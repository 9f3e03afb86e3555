"""Stack settings: defaults, the placement contract they build, and every bad value rejected with its key."""

from __future__ import annotations

import pytest

from components import eks_model
from components.settings import ConfigError, GpuNodeGroupSettings, parse_settings


def problems_of(values: dict) -> list[str]:
    with pytest.raises(ConfigError) as error:
        parse_settings(values)
    return [str(problem) for problem in error.value.problems]


def test_defaults_build_the_documented_contract():
    contract = parse_settings({}).contract
    assert contract.node_selector() == {"GPU": "true"}
    assert contract.eks_taints() == [{"key": "GPU", "value": "true", "effect": "NO_SCHEDULE"}]
    assert contract.tolerations() == [{"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}]
    assert contract.node_labels()["nvidia.com/gpu.present"] == "true"


def test_custom_contract_flows_into_every_part():
    settings = parse_settings({"gpuPlacement": {"labelKey": "accelerator", "labelValue": "nvidia",
                                                "taintKey": "nvidia.com/gpu", "taintValue": "present",
                                                "taintEffect": "NoExecute"}})
    contract = settings.contract
    assert contract.node_selector() == {"accelerator": "nvidia"}
    assert contract.eks_taints() == [{"key": "nvidia.com/gpu", "value": "present", "effect": "NO_EXECUTE"}]
    assert contract.tolerations()[0]["effect"] == "NoExecute"
    term = contract.node_affinity()["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"][0]
    assert term["matchExpressions"] == [{"key": "accelerator", "operator": "In", "values": ["nvidia"]}]


def test_every_problem_is_reported_at_once():
    problems = problems_of({
        "gpuPlacement": {"taintEffect": "NO_SCHEDULE"},
        "vllm": {"image": "vllm/vllm-openai:latest"},
        "cluster": {"version": "1.x"},
    })
    assert len(problems) == 3
    assert any("gpuPlacement.taintEffect" in p and "NoSchedule" in p for p in problems)
    assert any("vllm.image" in p for p in problems)
    assert any("cluster.version" in p for p in problems)


@pytest.mark.parametrize(("values", "key", "fragment"), [
    ({"gpuPlacement": {"taintEffect": "NO_SCHEDULE"}}, "gpuPlacement.taintEffect", "write 'NoSchedule'"),
    ({"gpuPlacement": {"taintEffect": "NoSchedul"}}, "gpuPlacement.taintEffect", "NoSchedule, NoExecute"),
    ({"gpuPlacement": {"taintEffect": "PreferNoSchedule"}}, "gpuPlacement.taintEffect", "does not keep pods off"),
    ({"gpuPlacement": {"labelValue": ""}}, "gpuPlacement.labelValue", "empty value"),
    ({"gpuPlacement": {"labelKey": "k" * 64}}, "gpuPlacement.labelKey", "1-63 characters"),
    ({"gpuPlacement": {"taintKey": "bad key!"}}, "gpuPlacement.taintKey", "invalid key"),
    ({"gpuPlacement": {"taintValue": "v" * 64}}, "gpuPlacement.taintValue", "0-63 characters"),
    ({"gpuNodeGroup": {"instanceTypes": ["m5.large"]}}, "gpuNodeGroup.instanceTypes", "not NVIDIA GPU instance types"),
    ({"gpuNodeGroup": {"instanceTypes": ["g5.xlarge", "g5g.xlarge"]}}, "gpuNodeGroup.instanceTypes", "mix architectures"),
    ({"gpuNodeGroup": {"instanceTypes": ["g5.xlarge", "g5.12xlarge"]}}, "gpuNodeGroup.instanceTypes", "mix GPU counts"),
    ({"gpuNodeGroup": {"minSize": 2, "desiredSize": 1}}, "gpuNodeGroup.minSize", "minSize <= desiredSize"),
    ({"gpuNodeGroup": {"desiredSize": 3, "maxSize": 2}}, "gpuNodeGroup.desiredSize", "desiredSize <= maxSize"),
    ({"gpuNodeGroup": {"minSize": -1}}, "gpuNodeGroup.minSize", ">= 0"),
    ({"gpuNodeGroup": {"minSize": 0, "desiredSize": 0, "maxSize": 0}}, "gpuNodeGroup.maxSize", ">= 1"),
    ({"gpuNodeGroup": {"capacityType": "RESERVED"}}, "gpuNodeGroup.capacityType", "'ON_DEMAND' or 'SPOT'"),
    ({"gpuNodeGroup": {"amiFamily": "AL2"}}, "gpuNodeGroup.amiFamily", "'AL2023' or 'Bottlerocket'"),
    ({"gpuNodeGroup": {"diskSize": 20}}, "gpuNodeGroup.diskSize", "at least 50 GiB"),
    ({"gpuNodeGroup": {"extraTaints": [{"key": "a"}, {"key": "a", "effect": "NoExecute"}]}},
     "gpuNodeGroup.extraTaints", "duplicate taint keys"),
    ({"gpuNodeGroup": {"extraTaints": [{"key": f"t{i}"} for i in range(50)]}}, "gpuNodeGroup.extraTaints", "at most 50"),
    ({"gpuNodeGroup": {"extraLabels": {"GPU": "false"}}}, "gpuNodeGroup.extraLabels.GPU", "overrides a label"),
    ({"gpuNodeGroup": {"maxSize": "2"}}, "gpuNodeGroup.maxSize", "valid integer"),
    ({"gpuNodeGroup": {"instanceTypes": "g5.xlarge"}}, "gpuNodeGroup.instanceTypes", "valid list"),
    ({"systemNodeGroup": {"instanceTypes": ["g5.xlarge"]}}, "systemNodeGroup.instanceTypes", "GPU instance types"),
    ({"systemNodeGroup": {"minSize": 0, "desiredSize": 0}}, "systemNodeGroup.minSize", "add-ons"),
    ({"cluster": {"version": "1.34.1"}}, "cluster.version", "malformed version"),
    ({"cluster": {"version": "1.20"}}, "cluster.version", "unsupported version"),
    ({"cluster": {"publicAccessCidrs": ["10.0.0.300/8"]}}, "cluster.publicAccessCidrs", "IPv4 CIDR"),
    ({"cluster": {"vpcId": "vpc-0123456789abcdef0"}}, "cluster.vpcId", "without subnets"),
    ({"cluster": {"logTypes": ["audit", "everything"]}}, "cluster.logTypes", "unknown log type"),
    ({"cluster": {"creatorAdmin": False}}, "cluster.creatorAdmin", "pulumi-eks#2373"),
    ({"vllm": {"tensorParallelSize": 2}}, "vllm.tensorParallelSize", "more than the 1 GPU(s)"),
    ({"vllm": {"tensorParallelSize": 0}}, "vllm.tensorParallelSize", ">= 1"),
    ({"vllm": {"tensorParallelSize": 1.5}}, "vllm.tensorParallelSize", "valid integer"),
    ({"vllm": {"gpuMemoryUtilization": 1.5}}, "vllm.gpuMemoryUtilization", "0 < x <= 1"),
    ({"vllm": {"gpuMemoryUtilization": 0}}, "vllm.gpuMemoryUtilization", "0 < x <= 1"),
    ({"vllm": {"image": "vllm/vllm-openai"}}, "vllm.image", "untagged image"),
    ({"vllm": {"requireGpuProduct": "NVIDIA-H100-80GB-HBM3"}}, "vllm.requireGpuProduct", "'NVIDIA-A10G'"),
    ({"vllm": {"extraArgs": ["--port=9000"]}}, "vllm.extraArgs", "flag set by settings"),
    ({"devicePlugin": {"enabled": True}, "gpuNodeGroup": {"amiFamily": "Bottlerocket"}},
     "devicePlugin.enabled", "runs the device plugin itself"),
    ({"gpuNodeGroup": {"diskSzie": 100}}, "gpuNodeGroup.diskSzie", "did you mean 'diskSize'"),
    ({"vllm": {"modelCache": {"sise": "1Gi"}}}, "vllm.modelCache.sise", "did you mean 'size'"),
    ({"gpuPlacment": {}}, "gpuPlacment", "did you mean 'gpuPlacement'"),
])
def test_rejects_bad_setting_naming_key_and_allowed_values(values, key, fragment):
    problems = problems_of(values)
    matching = [p for p in problems if p.startswith(f"eks-gpu-inference:{key}:")]
    assert matching, problems
    assert fragment in matching[0]
    assert "allowed" in matching[0] or "Input should be" in matching[0]


def test_bottlerocket_turns_the_device_plugin_off_by_default():
    assert parse_settings({}).device_plugin_enabled
    assert not parse_settings({"gpuNodeGroup": {"amiFamily": "Bottlerocket"}}).device_plugin_enabled


def test_gpu_product_is_known_only_when_instance_types_share_it():
    assert GpuNodeGroupSettings(instance_types=["g6.xlarge", "g6.2xlarge"]).gpu_product == "NVIDIA-L4"
    assert GpuNodeGroupSettings(instance_types=["g5.xlarge", "g6.xlarge"]).gpu_product is None


def test_allowed_enums_are_those_of_the_eks_api():
    capacity = GpuNodeGroupSettings.model_fields["capacity_type"].annotation.__args__
    assert set(capacity) <= set(eks_model.capacity_types())
    assert set(eks_model.taint_effects()) == {"NO_SCHEDULE", "NO_EXECUTE", "PREFER_NO_SCHEDULE"}


def test_public_endpoint_open_to_the_internet_warns():
    assert any("0.0.0.0/0" in warning for warning in parse_settings({}).warnings())
    assert not parse_settings({"cluster": {"publicAccessCidrs": ["203.0.113.0/24"]}}).warnings()
