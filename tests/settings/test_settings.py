"""Stack settings: defaults, the placement contract they build, and every bad value rejected with its key."""

from __future__ import annotations

import pytest

from components.facts import eks_model
from components.facts.contract import EKS_TAINT_EFFECTS
from components.settings import ConfigError, GpuNodeGroupSettings, parse_settings
from tests.support.invalid_settings import INVALID_SETTINGS


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
    settings = parse_settings(
        {
            "gpuPlacement": {
                "labelKey": "accelerator",
                "labelValue": "nvidia",
                "taintKey": "nvidia.com/gpu",
                "taintValue": "present",
                "taintEffect": "NoExecute",
            }
        }
    )
    contract = settings.contract
    assert contract.node_selector() == {"accelerator": "nvidia"}
    assert contract.eks_taints() == [{"key": "nvidia.com/gpu", "value": "present", "effect": "NO_EXECUTE"}]
    assert contract.tolerations()[0]["effect"] == "NoExecute"
    term = contract.node_affinity()["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"][0]
    assert term["matchExpressions"] == [{"key": "accelerator", "operator": "In", "values": ["nvidia"]}]


def test_every_problem_is_reported_at_once():
    problems = problems_of(
        {
            "gpuPlacement": {"taintEffect": "NO_SCHEDULE"},
            "vllm": {"image": "vllm/vllm-openai:latest"},
            "cluster": {"version": "1.x"},
        }
    )
    assert len(problems) == 3
    assert any("gpuPlacement.taintEffect" in p and "NoSchedule" in p for p in problems)
    assert any("vllm.image" in p for p in problems)
    assert any("cluster.version" in p for p in problems)


@pytest.mark.parametrize(("values", "key", "fragment"), INVALID_SETTINGS)
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
    assert set(EKS_TAINT_EFFECTS.values()) == set(eks_model.taint_effects())
