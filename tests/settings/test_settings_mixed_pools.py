"""The rules across sections on GPU pools of mixed instance types and AMI families, and the support calendar on
its boundary days: what the stack config accepts, refuses (naming key, value and what is allowed) and what the
program then registers."""

from __future__ import annotations

from datetime import date

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.facts import versions
from components.facts.resource_types import DAEMONSET, NODE_GROUP
from components.settings import ConfigError, parse_settings

GPU_GROUP = "gpu-inference-dev-gpu"
DEVICE_PLUGIN = "nvidia-device-plugin"


def problems_of(values: dict) -> list[tuple[str, str]]:
    """(key, message) of every problem the stack config gives for `values`."""
    with pytest.raises(ConfigError) as error:
        parse_settings(values)
    return [(problem.key, problem.message) for problem in error.value.problems]


# GPU products -------------------------------------------------------------------------------------------------


def test_required_product_of_a_pool_mixing_gpu_models_is_refused_saying_there_is_no_single_product():
    # g6.xlarge has an L4, g6e.xlarge an L40S: one GPU each, so only the product differs.
    values = {
        "gpuNodeGroup": {"instanceTypes": ["g6.xlarge", "g6e.xlarge"]},
        "vllm": {"requireGpuProduct": "NVIDIA-L4"},
    }
    assert problems_of(values) == [
        (
            "vllm.requireGpuProduct",
            "'NVIDIA-L4' is not what the GPU node group provides; allowed: no single product (mixed GPU models)",
        )
    ]


def test_required_product_that_every_instance_type_of_the_pool_shares_is_accepted_and_selected(stack):
    # g5.xlarge and g5.2xlarge both carry one A10G.
    overrides = {
        "gpuNodeGroup": {"instanceTypes": ["g5.xlarge", "g5.2xlarge"]},
        "vllm": {"requireGpuProduct": "NVIDIA-A10G"},
    }
    assert parse_settings(overrides).gpu_node_group.gpu_product == "NVIDIA-A10G"
    run = stack(overrides)
    (group,) = [g for g in run.of_type(NODE_GROUP) if g.name == GPU_GROUP]
    assert group.inputs["instanceTypes"] == ["g5.xlarge", "g5.2xlarge"]
    assert group.inputs["labels"]["nvidia.com/gpu.product"] == "NVIDIA-A10G"


def test_required_product_of_a_single_model_pool_names_the_product_it_provides():
    values = {"gpuNodeGroup": {"instanceTypes": ["g6.xlarge"]}, "vllm": {"requireGpuProduct": "NVIDIA-L40S"}}
    assert problems_of(values) == [
        ("vllm.requireGpuProduct", "'NVIDIA-L40S' is not what the GPU node group provides; allowed: 'NVIDIA-L4'")
    ]


# GPUs per server against mixed instance types of one GPU count ---------------------------------------------------


def test_tensor_parallel_size_up_to_the_gpus_of_a_mixed_pool_is_accepted():
    values = {"gpuNodeGroup": {"instanceTypes": ["g5.12xlarge", "g6.12xlarge"]}, "vllm": {"tensorParallelSize": 4}}
    assert parse_settings(values).vllm.tensor_parallel_size == 4


def test_tensor_parallel_size_above_the_gpus_of_a_mixed_pool_names_the_count_and_the_range():
    values = {"gpuNodeGroup": {"instanceTypes": ["g6.12xlarge", "g5.12xlarge"]}, "vllm": {"tensorParallelSize": 7}}
    # 7 divides the default model's 28 attention heads, so only the pool refuses it.
    assert problems_of(values) == [
        (
            "vllm.tensorParallelSize",
            "7 is more than the 4 GPU(s) per g6.12xlarge; allowed: 1-4, or larger GPU instance types",
        )
    ]


def test_a_disabled_server_is_not_checked_against_its_pool():
    values = {"vllm": {"enabled": False, "tensorParallelSize": 2, "requireGpuProduct": "NVIDIA-H100-80GB-HBM3"}}
    assert parse_settings(values).vllm.enabled is False


# AMI families: who runs the device plugin ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("instance_types", "ami_family", "ami_type", "plugin"),
    [
        pytest.param(["g5g.xlarge", "g5g.2xlarge"], "AL2023", "AL2023_ARM_64_NVIDIA", True, id="arm64 AL2023"),
        pytest.param(["g5g.xlarge", "g5g.2xlarge"], "Bottlerocket", "BOTTLEROCKET_ARM_64_NVIDIA", False, id="arm64 BR"),
        pytest.param(
            ["g5.xlarge", "g6.xlarge"], "Bottlerocket", "BOTTLEROCKET_x86_64_NVIDIA", False, id="x86 BR mixed"
        ),
        pytest.param(["g5.xlarge", "g6.xlarge"], "AL2023", "AL2023_x86_64_NVIDIA", True, id="x86 AL2023 mixed"),
    ],
)
def test_the_device_plugin_runs_exactly_where_the_ami_does_not_run_it(
    stack, instance_types, ami_family, ami_type, plugin
):
    overrides = {"gpuNodeGroup": {"instanceTypes": instance_types, "amiFamily": ami_family}}
    assert parse_settings(overrides).device_plugin_enabled is plugin
    run = stack(overrides)
    (group,) = [g for g in run.of_type(NODE_GROUP) if g.name == GPU_GROUP]
    assert group.inputs["amiType"] == ami_type
    assert any(d.inputs["metadata"]["name"] == DEVICE_PLUGIN for d in run.of_type(DAEMONSET)) is plugin


def test_the_device_plugin_forced_on_is_accepted_on_al2023_and_refused_on_bottlerocket():
    assert parse_settings(
        {"devicePlugin": {"enabled": True}, "gpuNodeGroup": {"amiFamily": "AL2023"}}
    ).device_plugin_enabled
    assert problems_of({"devicePlugin": {"enabled": True}, "gpuNodeGroup": {"amiFamily": "Bottlerocket"}}) == [
        (
            "devicePlugin.enabled",
            "true with gpuNodeGroup.amiFamily 'Bottlerocket', whose AMI runs the device plugin itself; "
            "allowed: false or unset",
        )
    ]
    assert parse_settings({"devicePlugin": {"enabled": False}}).device_plugin_enabled is False


# A GPU pool that starts empty -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param({"vllm": {"replicas": 0}}, id="no replicas"),
        pytest.param({"vllm": {"enabled": False}}, id="no server"),
        pytest.param({"autoscaler": {"enabled": True}}, id="an autoscaler adds the node"),
    ],
)
def test_an_empty_gpu_pool_is_accepted_when_nothing_waits_for_it_or_an_autoscaler_fills_it(overrides):
    values = merge({"gpuNodeGroup": {"minSize": 0, "desiredSize": 0}, "autoscaler": {"enabled": False}}, overrides)
    assert parse_settings(values).gpu_node_group.desired_size == 0


def test_an_empty_gpu_pool_with_replicas_and_no_autoscaler_is_refused_naming_the_replicas():
    values = {
        "gpuNodeGroup": {"minSize": 0, "desiredSize": 0},
        "autoscaler": {"enabled": False},
        "vllm": {"replicas": 2},
    }
    [(key, message)] = problems_of(values)
    assert key == "gpuNodeGroup.desiredSize"
    assert message.startswith("0 with autoscaler.enabled false and vllm.replicas 2: nothing ever adds a GPU node")


# The support calendar on its boundary days ----------------------------------------------------------------------


def test_on_the_last_day_of_standard_support_the_warning_counts_zero_days_left():
    end = versions.EKS_VERSION_BY_NAME["1.34"].end_of_standard_support
    assert end == date(2026, 12, 2)
    warning = versions.support_warning("1.34", end)
    assert warning is not None and "leaves EKS standard support on 2026-12-02 (in 0 days)" in warning


def test_the_day_after_standard_support_the_warning_says_extended_support():
    warning = versions.support_warning("1.34", date(2026, 12, 3))
    assert warning is not None and warning.startswith("Kubernetes 1.34 is in EKS extended support since 2026-12-02")


def test_on_the_last_day_of_extended_support_the_version_is_still_accepted(monkeypatch):
    monkeypatch.setattr(versions, "today", lambda: date(2027, 3, 23))
    assert parse_settings({"cluster": {"version": "1.32"}}).cluster.version == "1.32"
    monkeypatch.setattr(versions, "today", lambda: date(2027, 3, 24))
    [(key, message)] = problems_of({"cluster": {"version": "1.32"}})
    assert key == "cluster.version" and "EKS support ended on 2027-03-23" in message


def test_a_refused_version_lists_only_the_versions_still_offered_that_day(monkeypatch):
    monkeypatch.setattr(versions, "today", lambda: date(2027, 7, 30))
    [(key, message)] = problems_of({"cluster": {"version": "1.33"}})
    offered = [v for v in versions.SUPPORTED_KUBERNETES_VERSIONS if v not in ("1.32", "1.33")]
    assert key == "cluster.version"
    assert message.endswith(f"allowed: {', '.join(offered)}"), message


def test_the_program_registers_the_pools_of_a_mixed_stack():
    run = run_stack(merge(dev_stack_config(), {"gpuNodeGroup": {"instanceTypes": ["g5.12xlarge", "g6.12xlarge"]}}))
    (group,) = [g for g in run.of_type(NODE_GROUP) if g.name == GPU_GROUP]
    assert group.inputs["instanceTypes"] == ["g5.12xlarge", "g6.12xlarge"]
    # The two GPU models share no product label; the count they share is what the autoscaler is told.
    assert "nvidia.com/gpu.product" not in group.inputs["labels"]
