"""Values exactly on a boundary are accepted and reach what the program registers; defaults that no
example stack spells out (the system group's AMI architecture, the control-plane log types) are exercised."""

from __future__ import annotations

import logging

import pytest
from conftest import dev_stack_config, merge

from components.facts.identity import PROJECT
from components.facts.resource_types import EKS_CLUSTER as CLUSTER
from components.facts.resource_types import NODE_GROUP
from components.settings import DEFAULT_LOG_TYPES, parse_settings
from components.stackcheck.runtime import ProgramRun
from tests.support.valid_settings import VALID_BOUNDARY_SETTINGS

SYSTEM_GROUP = "gpu-inference-dev-system"
GPU_GROUP = "gpu-inference-dev-gpu"


def node_groups(run: ProgramRun) -> dict[str, dict]:
    return {resource.name: resource.inputs for resource in run.of_type(NODE_GROUP)}


def parsed_value(settings, dotted_key: str):
    """The parsed value of a config key such as `gpuNodeGroup.diskSize` (a list: its length)."""
    section, field = dotted_key.split(".")
    section_attr = next(name for name, info in type(settings).model_fields.items() if info.alias == section)
    model = getattr(settings, section_attr)
    field_attr = next(name for name, info in type(model).model_fields.items() if info.alias == field)
    value = getattr(model, field_attr)
    return len(value) if isinstance(value, list) else value


@pytest.mark.parametrize(("overrides", "key", "expected"), VALID_BOUNDARY_SETTINGS)
def test_value_on_the_boundary_parses_with_no_problem_and_is_kept(overrides, key, expected):
    settings = parse_settings(merge(dev_stack_config(), overrides))
    assert parsed_value(settings, key) == expected


@pytest.mark.parametrize(
    ("section", "group", "sizes"),
    [
        pytest.param("gpuNodeGroup", GPU_GROUP, (1, 1, 1), id="GPU group 1/1/1 is registered as configured"),
        pytest.param("gpuNodeGroup", GPU_GROUP, (2, 2, 2), id="GPU group 2/2/2 is registered as configured"),
        pytest.param("gpuNodeGroup", GPU_GROUP, (0, 2, 2), id="GPU group 0/2/2 is registered as configured"),
        pytest.param("systemNodeGroup", SYSTEM_GROUP, (1, 1, 1), id="system group 1/1/1 is registered as configured"),
        pytest.param("systemNodeGroup", SYSTEM_GROUP, (2, 3, 3), id="system group 2/3/3 is registered as configured"),
    ],
)
def test_node_group_sizes_on_the_boundary_are_registered_unchanged(stack, section, group, sizes):
    min_size, desired, max_size = sizes
    run = stack({section: {"minSize": min_size, "desiredSize": desired, "maxSize": max_size}})
    assert node_groups(run)[group]["scalingConfig"] == {
        "minSize": min_size,
        "desiredSize": desired,
        "maxSize": max_size,
    }


def test_update_max_unavailable_of_100_is_registered(stack):
    run = stack({"gpuNodeGroup": {"updateMaxUnavailable": 100}})
    assert node_groups(run)[GPU_GROUP]["updateConfig"] == {"maxUnavailable": 100}


# AMI types: the EKS API's AMITypes enum (botocore data/eks/2017-11-01/service-2.json, see
# facts/eks_model.py) has AL2023_x86_64_STANDARD and AL2023_ARM_64_STANDARD for non-GPU nodes.
@pytest.mark.parametrize(
    ("instance_type", "expected"),
    [
        pytest.param("m7g.large", "AL2023_ARM_64_STANDARD", id="a Graviton system group gets the arm64 AL2023 AMI"),
        pytest.param("c7g.xlarge", "AL2023_ARM_64_STANDARD", id="a Graviton compute system group gets the arm64 AMI"),
        pytest.param("m6i.large", "AL2023_x86_64_STANDARD", id="an Intel system group gets the x86_64 AL2023 AMI"),
    ],
)
def test_system_group_ami_follows_its_instance_architecture(stack, instance_type, expected):
    run = stack({"systemNodeGroup": {"instanceTypes": [instance_type]}})
    system = node_groups(run)[SYSTEM_GROUP]
    assert system["amiType"] == expected
    assert system["instanceTypes"] == [instance_type]
    # The GPU group keeps its own architecture: the two are chosen independently.
    assert node_groups(run)[GPU_GROUP]["amiType"] == "AL2023_x86_64_NVIDIA"


def test_stack_without_log_types_sends_api_audit_and_authenticator_logs_with_no_warning(stack, caplog):
    caplog.set_level(logging.WARNING)
    config = dev_stack_config()
    assert "logTypes" in config["cluster"], "the dev stack spells the log types out; this test removes them"
    run = stack({"cluster": {"logTypes": None}})
    (cluster,) = run.of_type(CLUSTER)
    assert cluster.inputs["enabledClusterLogTypes"] == ["api", "audit", "authenticator"]
    assert list(DEFAULT_LOG_TYPES) == ["api", "audit", "authenticator"]
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert not [message for message in warnings if "logTypes" in message], warnings


def test_stack_leaving_out_a_log_type_is_warned_naming_it(stack, caplog):
    caplog.set_level(logging.WARNING)
    run = stack({"cluster": {"logTypes": ["api", "audit"]}})
    assert run.of_type(CLUSTER)[0].inputs["enabledClusterLogTypes"] == ["api", "audit"]
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    (warning,) = [message for message in warnings if f"{PROJECT}:cluster.logTypes" in message]
    assert "leaves out authenticator:" in warning


def test_valid_boundary_table_covers_every_numeric_setting():
    keys = {param.values[1] for param in VALID_BOUNDARY_SETTINGS}
    numeric = {
        "gpuNodeGroup.minSize",
        "gpuNodeGroup.desiredSize",
        "gpuNodeGroup.maxSize",
        "gpuNodeGroup.diskSize",
        "gpuNodeGroup.updateMaxUnavailable",
        "systemNodeGroup.minSize",
        "systemNodeGroup.desiredSize",
        "systemNodeGroup.maxSize",
        "systemNodeGroup.diskSize",
        "vllm.shutdownTimeoutSeconds",
        "vllm.startupTimeoutSeconds",
        "vllm.maxModelLen",
        "vllm.gpuMemoryUtilization",
        "vllm.tensorParallelSize",
        "vllm.replicas",
    }
    # A size case names one key but sets all three: count the keys it sets.
    set_keys = {
        f"{section}.{key}"
        for param in VALID_BOUNDARY_SETTINGS
        for section, values in param.values[0].items()
        for key in values
    }
    assert numeric <= keys | set_keys, sorted(numeric - keys - set_keys)
