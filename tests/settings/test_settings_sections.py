"""One section validated on its own (`validate_section`, the entry point of component arguments) and the stack
config written for another project: every problem at once, each under the full path the caller gave."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from components.settings import (
    ConfigError,
    GpuNodeGroupSettings,
    NetworkSettings,
    ObservabilitySettings,
    Settings,
    VllmSettings,
    parse_settings,
    parse_stack_config,
    validate_section,
)

WHERE = "GpuNodeGroup(gpu-a).args"
SIZES = "allowed: minSize <= desiredSize <= maxSize"


def problems_of(model, data: dict, where: str = WHERE) -> list[str]:
    with pytest.raises(ConfigError) as error:
        validate_section(model, data, where=where)
    return [str(problem) for problem in error.value.problems]


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        pytest.param(
            {"instanceTypes": ["g5.xlarge", "G5"]},
            f"{WHERE}.instanceTypes[1]: malformed instance type 'G5'; allowed: EC2 instance type names such as "
            "g5.xlarge",
            id="a bad item of a list of names is named by its position",
        ),
        pytest.param(
            {"extraTaints": [{"key": "team"}, {"key": "zone", "effect": "NO_EXECUTE"}]},
            f"{WHERE}.extraTaints[1].effect: EKS API spelling; write 'NoExecute' instead of 'NO_EXECUTE'; "
            "allowed: NoSchedule, NoExecute, PreferNoSchedule",
            id="a bad field of an object in a list is named by the position and the field",
        ),
        pytest.param(
            {"extraTaints": [{"key": "team", "efect": "NoSchedule"}]},
            f"{WHERE}.extraTaints[0].efect: unknown key 'efect'; did you mean 'effect'?; allowed: key, value, effect",
            id="an unknown key of an object in a list is named with its position and the keys allowed there",
        ),
        pytest.param(
            {"desiredSize": 3, "maxSize": 2},
            f"{WHERE}.desiredSize: 3 is greater than maxSize 2; {SIZES}",
            id="a rule across fields is named by the field it blames",
        ),
    ],
)
def test_a_bad_argument_is_named_by_its_full_path(data, problem):
    assert problems_of(GpuNodeGroupSettings, data) == [problem]


def test_every_problem_of_a_section_is_reported_at_once_under_the_callers_path():
    with pytest.raises(ConfigError) as error:
        validate_section(
            GpuNodeGroupSettings,
            {"instanceTypes": ["g5.xlarge", "bad"], "diskSize": 20, "capacityType": "RESERVED", "minSize": -1},
            where=WHERE,
        )
    problems = [str(problem) for problem in error.value.problems]
    assert [problem.split(": ", 1)[0] for problem in problems] == [
        f"{WHERE}.instanceTypes[1]",
        f"{WHERE}.minSize",
        f"{WHERE}.diskSize",
        f"{WHERE}.capacityType",
    ]
    assert str(error.value).startswith(f"invalid {WHERE} (4 problem(s)):\n  - {WHERE}.instanceTypes[1]: ")


def test_rules_across_fields_are_all_reported_once_the_fields_are_valid():
    problems = problems_of(
        GpuNodeGroupSettings, {"minSize": 2, "desiredSize": 3, "maxSize": 2, "instanceTypes": ["m5.large"]}
    )
    assert len(problems) == 2
    assert problems[0] == f"{WHERE}.desiredSize: 3 is greater than maxSize 2; {SIZES}"
    assert problems[1].startswith(
        f"{WHERE}.instanceTypes: ['m5.large'] have no NVIDIA GPU (CPU types); allowed: sizes of g4dn, "
    )


def test_a_nested_rule_across_fields_names_the_nested_path():
    assert problems_of(VllmSettings, {"replicas": 2, "modelCache": {"type": "pvc"}}, where="VllmServer(chat).args") == [
        "VllmServer(chat).args.modelCache.type: 'pvc' with replicas 2: a ReadWriteOnce claim attaches to one node "
        "only; allowed: 'emptyDir', or replicas 1"
    ]


def test_a_valid_section_comes_back_typed_with_its_defaults():
    section = validate_section(GpuNodeGroupSettings, {"instanceTypes": ["g6.xlarge"], "maxSize": 4}, where=WHERE)
    assert isinstance(section, GpuNodeGroupSettings)
    assert section.instance_types == ["g6.xlarge"]
    assert section.max_size == 4
    assert section.desired_size == 1
    assert section.gpu_product == "NVIDIA-L4"


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(
            lambda: GpuNodeGroupSettings(desired_size=3, max_size=2),
            f"desiredSize: 3 is greater than maxSize 2; {SIZES}",
            id="a node group built in code",
        ),
        pytest.param(
            lambda: GpuNodeGroupSettings.model_validate({"instanceTypes": ["m5.large"]}),
            "instanceTypes: ['m5.large'] have no NVIDIA GPU (CPU types)",
            id="a node group validated from a mapping",
        ),
        pytest.param(
            lambda: NetworkSettings(az_count=3, availability_zones=["usw2-az1", "usw2-az2"]),
            "azCount: 3 but availabilityZones lists 2",
            id="a network built in code",
        ),
        pytest.param(
            lambda: Settings(vllm=VllmSettings(tensor_parallel_size=4)),
            "vllm.tensorParallelSize: 4 is more than the 1 GPU(s) per g5.xlarge",
            id="the whole stack built in code",
        ),
    ],
)
def test_a_model_built_directly_runs_its_rules_across_fields(build, message):
    with pytest.raises(ValidationError) as error:
        build()
    assert message in str(error.value)


def test_a_field_type_shared_by_two_sections_reads_the_same_in_both():
    rule = "invalid value 'Bad_NS'; allowed: a DNS label: 1-63 lowercase letters, digits or '-'"
    assert problems_of(ObservabilitySettings, {"monitoringNamespace": "Bad_NS"}, where="Monitors(m).args") == [
        f"Monitors(m).args.monitoringNamespace: {rule}"
    ]
    assert problems_of(VllmSettings, {"allowedClientNamespaces": ["ok", "Bad_NS"]}, where="VllmServer(v).args") == [
        f"VllmServer(v).args.allowedClientNamespaces[1]: {rule}"
    ]


def test_every_bad_item_of_a_stack_config_list_is_reported_on_the_lists_key():
    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"allowedClientNamespaces": ["-a", "ok", "B", "-a"]}})
    assert [str(problem) for problem in error.value.problems] == [
        "eks-gpu-inference:vllm.allowedClientNamespaces: invalid value '-a'; allowed: a DNS label: 1-63 lowercase "
        "letters, digits or '-'",
        "eks-gpu-inference:vllm.allowedClientNamespaces: invalid value 'B'; allowed: a DNS label: 1-63 lowercase "
        "letters, digits or '-'",
    ]


def test_another_projects_name_is_the_namespace_of_its_stack_config_messages():
    config = {
        "ml-platform:gpuNodeGroup": {"desiredSize": 3, "maxSize": 2},
        "ml-platform:vllm": {"replicas": -1},
        "ml-platform:hfToken": "hf_plain",
        "ml-platfrom:cluster": {},
        "ml-platform:clustr": {},
        "eks-gpu-inference:vllm": {"replicas": "ignored: another project's namespace"},
    }
    with pytest.raises(ConfigError) as error:
        parse_stack_config(config, secret_keys=(), project="ml-platform")
    problems = [str(problem) for problem in error.value.problems]
    assert problems == [
        "ml-platfrom:cluster: namespace 'ml-platfrom' is not this project's; did you mean ml-platform:cluster? "
        "allowed: keys under ml-platform: (other namespaces, such as aws:, belong to their providers)",
        "ml-platform:hfToken: is set in plain text (value not shown); allowed: a secret value, set with pulumi "
        "config set --secret hfToken <value>",
        f"ml-platform:gpuNodeGroup.desiredSize: 3 is greater than maxSize 2; {SIZES}",
        "ml-platform:vllm.replicas: invalid value -1; allowed: an integer from 0 to 2,147,483,647 (a Deployment's int32)",
        "ml-platform:clustr: unknown key 'clustr'; did you mean 'cluster'?; allowed: cluster, systemNodeGroup, "
        "gpuNodeGroup, gpuPlacement, vllm, devicePlugin, network, autoscaler, observability, cost, gpuPools, models, "
        "hfToken, vllmApiKey",
    ]
    assert not any("eks-gpu-inference" in problem for problem in problems)


def test_another_projects_settings_parse_under_its_name():
    settings = parse_stack_config({"ml-platform:vllm": {"replicas": 2}}, project="ml-platform")
    assert settings.vllm.replicas == 2
    with pytest.raises(ConfigError) as error:
        parse_settings({"network": {"azCount": 9}}, project="ml-platform")
    assert [problem.key for problem in error.value.problems] == ["network.azCount"]
    assert str(error.value.problems[0]).startswith("ml-platform:network.azCount: invalid value 9; allowed: 2-6")


def test_the_rules_of_a_section_inside_another_are_named_under_the_outer_path():
    assert problems_of(Settings, {"gpuNodeGroup": {"desiredSize": 3, "maxSize": 2}}, where="Stack(prod).args") == [
        f"Stack(prod).args.gpuNodeGroup.desiredSize: 3 is greater than maxSize 2; {SIZES}"
    ]
    assert problems_of(Settings, {"vllm": {"tensorParallelSize": 2}}, where="Stack(prod).args") == [
        "Stack(prod).args.vllm.tensorParallelSize: 2 is more than the 1 GPU(s) per g5.xlarge; allowed: 1, or "
        "larger GPU instance types"
    ]
