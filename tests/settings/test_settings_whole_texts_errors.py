"""How a problem is written (components/settings/errors.py, section.py), pinned whole: unknown keys with the nearest
known key and the allowed keys in declaration order, nested and at list positions; type errors with `; got
<value>`; list positions as `.0` in the stack config and `[0]` in a component's arguments; Python names for a
Python caller's arguments; the text of a whole `ConfigError`."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from components.settings.errors import (
    ConfigError,
    ConfigProblem,
    join_key,
    key_path,
    python_key,
    python_text,
    suggestion,
)
from components.settings.node_groups import GpuNodeGroupSettings
from components.settings.section import validate_section
from components.settings.vllm import VllmSettings
from tests.support.finding_values import problems_of

_GPU_KEYS = (
    "instanceTypes, minSize, desiredSize, maxSize, diskSize, amiFamily, capacityType, extraLabels, extraTaints, "
    "updateMaxUnavailable, nodeRepair, provisioner, imageCache, snapshotId, fastSnapshotRestore, volumeThroughput, coldStart, warmNodes"
)
_GPU_NAMES = (
    "instance_types, min_size, desired_size, max_size, disk_size, ami_family, capacity_type, extra_labels, "
    "extra_taints, update_max_unavailable, node_repair, provisioner, image_cache, snapshot_id, fast_snapshot_restore, volume_throughput, cold_start, warm_nodes"
)
_VLLM_KEYS = (
    "enabled, model, revision, servedModelName, image, requireGpuProduct, tensorParallelSize, maxModelLen, "
    "gpuMemoryUtilization, replicas, autoscaling, queue, extraArgs, source, modelCache, compileCache, modelFacts, "
    "startupTimeoutSeconds, probePeriodSeconds, shutdownTimeoutSeconds, namespace, allowedClientNamespaces, "
    "allowedClientPodLabels"
)
_TAINT = {"key": "example.com/t", "value": "v"}
_ARGS = "GpuNodeGroup(gpu-a).args"


STACK = [
    pytest.param(
        {"gpuNodeGroup": {"minSiz": 1}},
        [("gpuNodeGroup.minSiz", f"unknown key 'minSiz'; did you mean 'minSize'?; allowed: {_GPU_KEYS}")],
        id="the nearest key named, the allowed keys in declaration order",
    ),
    pytest.param(
        {"gpuNodeGroup": {"zzz": 1}},
        [("gpuNodeGroup.zzz", f"unknown key 'zzz'; allowed: {_GPU_KEYS}")],
        id="no key near enough to name",
    ),
    pytest.param(
        {"vllm": {"MODEL": "x"}},
        [("vllm.MODEL", f"unknown key 'MODEL'; did you mean 'model'?; allowed: {_VLLM_KEYS}")],
        id="a key in capitals kept as written, the same key in lower case meant",
    ),
    pytest.param(
        {"vllm": {"modelCache": {"sise": "1Gi"}}},
        [("vllm.modelCache.sise", "unknown key 'sise'; did you mean 'size'?; allowed: type, size, storageClass")],
        id="a nested section's keys",
    ),
    pytest.param(
        {"gpuNodeGroup": {"extraTaints": [_TAINT, {**_TAINT, "key": "example.com/u", "efect": "NoSchedule"}]}},
        [
            (
                "gpuNodeGroup.extraTaints.1.efect",
                "unknown key 'efect'; did you mean 'effect'?; allowed: key, value, effect",
            )
        ],
        id="a key of a list item at its position",
    ),
    pytest.param(
        {"gpuPools": {"a": {"extraTaints": [{**_TAINT, "efect": "NoSchedule"}]}}, "models": [{"name": "m"}]},
        [
            (
                "gpuPools.a.extraTaints.0.efect",
                "unknown key 'efect'; did you mean 'effect'?; allowed: key, value, effect",
            )
        ],
        id="a key of a list item of a pool",
    ),
    pytest.param(
        {"gpuPools": {"a": {}}, "models": [{"name": "m", "pool": "a", "replcas": 1}]},
        [("models.0.replcas", f"unknown key 'replcas'; did you mean 'replicas'?; allowed: {_VLLM_KEYS}, name, pool")],
        id="a model's keys, vllm's and its own",
    ),
    pytest.param(
        {"gpuNodeGroup": {"minSize": "1"}},
        [("gpuNodeGroup.minSize", "Input should be a valid integer; got '1'")],
        id="a number given as text",
    ),
    pytest.param(
        {"gpuNodeGroup": {"instanceTypes": ["g5.xlarge", 5]}},
        [("gpuNodeGroup.instanceTypes.1", "Input should be a valid string; got 5")],
        id="a list item of another type at its position",
    ),
    pytest.param(
        {"gpuNodeGroup": {"instanceTypes": ["g5.xlarge", "g5", "g5"]}},
        [
            (
                "gpuNodeGroup.instanceTypes",
                "malformed instance type 'g5'; allowed: EC2 instance type names such as g5.xlarge",
            )
        ],
        id="two equal bad items of a plain list reported once, on the list",
    ),
    pytest.param(
        {"observability": "x"},
        [("observability", "Input should be a valid dictionary or instance of ObservabilitySettings; got 'x'")],
        id="a section given as text",
    ),
    pytest.param(
        {"gpuNodeGroup": {"extraTaints": [{**_TAINT, "effect": "NO_EXECUTE"}]}},
        [
            (
                "gpuNodeGroup.extraTaints.0.effect",
                "EKS API spelling; write 'NoExecute' instead of 'NO_EXECUTE'; allowed: NoSchedule, NoExecute, "
                "PreferNoSchedule",
            )
        ],
        id="a bad value of a list item at its position",
    ),
    pytest.param(
        {"vllm": {"modelCache": {"type": "pvc"}, "replicas": 2}, "cost": {"x": 1}},
        [
            (
                "vllm.modelCache.type",
                "'pvc' with replicas 2: a ReadWriteOnce claim attaches to one node only; allowed: 'emptyDir', or "
                "replicas 1",
            ),
            ("cost.x", "unknown key 'x'; allowed: spotDiscount, maxMonthlyUsd"),
        ],
        id="problems of two sections at once, in the config's order",
    ),
]


@pytest.mark.parametrize(("values", "problems"), STACK)
def test_each_problem_is_written_with_its_stack_key(values, problems):
    assert problems_of(values) == problems


def _argument_problems(data: dict, python_names: bool = True, model: type = GpuNodeGroupSettings) -> list[str]:
    with pytest.raises(ConfigError) as error:
        validate_section(model, data, where=_ARGS, python_names=python_names)
    assert error.value.title == f"Invalid {_ARGS}"
    return [str(problem) for problem in error.value.problems]


ARGUMENTS = [
    pytest.param(
        {"instance_typs": ["g5.xlarge"]},
        True,
        [f"{_ARGS}.instance_typs: unknown key 'instance_typs'; did you mean 'instance_types'?; allowed: {_GPU_NAMES}"],
        id="an unknown argument as the caller wrote it, the Python names suggested",
    ),
    pytest.param(
        {"instanceTyps": ["g5.xlarge"]},
        False,
        [f"{_ARGS}.instanceTyps: unknown key 'instanceTyps'; did you mean 'instanceTypes'?; allowed: {_GPU_KEYS}"],
        id="an unknown argument in config keys",
    ),
    pytest.param(
        {"instance_types": ["g5.xlarge", "g5"]},
        True,
        [
            f"{_ARGS}.instance_types[1]: malformed instance type 'g5'; allowed: EC2 instance type names such as g5.xlarge"
        ],
        id="a bad item of a plain list at its bracketed position",
    ),
    pytest.param(
        {"instanceTypes": ["g5.xlarge", "g5"]},
        False,
        [f"{_ARGS}.instanceTypes[1]: malformed instance type 'g5'; allowed: EC2 instance type names such as g5.xlarge"],
        id="a bad item at its bracketed position in config keys",
    ),
    pytest.param(
        {"extra_taints": [_TAINT, {**_TAINT, "efect": "NoSchedule"}]},
        True,
        [f"{_ARGS}.extra_taints[1].efect: unknown key 'efect'; did you mean 'effect'?; allowed: key, value, effect"],
        id="an unknown key of a list item",
    ),
    pytest.param(
        {"min_size": 3, "desired_size": 1, "max_size": 2},
        True,
        [f"{_ARGS}.min_size: 3 is greater than desired_size 1; allowed: min_size <= desired_size <= max_size"],
        id="a rule across fields in Python names",
    ),
    pytest.param(
        {"minSize": 3, "desiredSize": 1, "maxSize": 2},
        False,
        [f"{_ARGS}.minSize: 3 is greater than desiredSize 1; allowed: minSize <= desiredSize <= maxSize"],
        id="a rule across fields in config keys",
    ),
    pytest.param(
        {"min_size": "1"},
        True,
        [f"{_ARGS}.min_size: Input should be a valid integer; got '1'"],
        id="a type error in Python names",
    ),
]


@pytest.mark.parametrize(("data", "python_names", "problems"), ARGUMENTS)
def test_each_problem_is_written_with_its_argument_path(data, python_names, problems):
    assert _argument_problems(data, python_names) == problems


def test_a_nested_sections_rule_is_written_under_its_argument_path():
    assert _argument_problems({"model_cache": {"type": "pvc"}, "replicas": 2}, model=VllmSettings) == [
        f"{_ARGS}.model_cache.type: 'pvc' with replicas 2: a ReadWriteOnce claim attaches to one node only; allowed: "
        "'emptyDir', or replicas 1"
    ]


def test_a_model_built_directly_raises_its_rules_across_fields():
    with pytest.raises(ValidationError) as error:
        GpuNodeGroupSettings(min_size=3, desired_size=1, max_size=2)
    [detail] = error.value.errors()
    assert detail["msg"] == (
        "Value error, minSize: 3 is greater than desiredSize 1; allowed: minSize <= desiredSize <= maxSize"
    )


def test_a_model_built_directly_joins_its_problems():
    with pytest.raises(ValidationError) as error:
        GpuNodeGroupSettings(min_size=5, desired_size=4, max_size=2)
    [detail] = error.value.errors()
    assert detail["msg"] == (
        "Value error, minSize: 5 is greater than desiredSize 4; allowed: minSize <= desiredSize <= maxSize; "
        "desiredSize: 4 is greater than maxSize 2; allowed: minSize <= desiredSize <= maxSize"
    )


def test_a_config_error_reads_every_problem_under_its_title():
    error = ConfigError([ConfigProblem("a.b", "first"), ConfigProblem("aws:region", "second", None)])
    assert (error.title, str(error)) == (
        "Invalid stack config",
        "invalid stack config (2 problem(s)):\n  - eks-gpu-inference:a.b: first\n  - aws:region: second",
    )
    assert str(ConfigError([ConfigProblem("k", "m", "X(y).args", ".")], subject="X(y).args")) == (
        "invalid X(y).args (1 problem(s)):\n  - X(y).args.k: m"
    )


@pytest.mark.parametrize(
    ("problem", "text"),
    [
        pytest.param(ConfigProblem("k", "m"), "eks-gpu-inference:k: m", id="the project's namespace"),
        pytest.param(ConfigProblem("other:k", "m", None), "other:k: m", id="a whole key of another namespace"),
        pytest.param(ConfigProblem("k", "m", "A(x).args", "."), "A(x).args.k: m", id="an argument path"),
        pytest.param(ConfigProblem("k", "m").under("vllm"), "eks-gpu-inference:vllm.k: m", id="under a section"),
        pytest.param(ConfigProblem("[0]", "m").under("extraArgs"), "eks-gpu-inference:extraArgs[0]: m", id="position"),
        pytest.param(
            ConfigProblem("k", "m", "A(x).args", ".").under("p"), "A(x).args.p.k: m", id="under, keeping the path"
        ),
    ],
)
def test_a_problem_reads_its_scope_and_key(problem, text):
    assert str(problem) == text


@pytest.mark.parametrize(
    ("key", "known", "text"),
    [
        pytest.param("ab", ["abcdef"], " 'ab'; did you mean 'abcdef'?", id="half alike is near enough"),
        pytest.param("ab", ["abcdefg"], " 'ab'", id="less than half alike is not"),
        pytest.param(
            "CLUSTER", ["vllm", "cluster"], " 'CLUSTER'; did you mean 'cluster'?", id="the key in another case"
        ),
        pytest.param("minsize", ["minSize", "maxSize"], " 'minsize'; did you mean 'minSize'?", id="the closest of two"),
        pytest.param("x", [], " 'x'", id="nothing known"),
    ],
)
def test_the_suggestion_names_the_nearest_known_key(key, known, text):
    assert suggestion(key, known) == text


@pytest.mark.parametrize(
    ("key", "python"),
    [
        pytest.param("gpuPlacement.taintEffect", "gpu_placement.taint_effect", id="each field"),
        pytest.param("extraTaints[0].effect", "extra_taints[0].effect", id="a position kept"),
        pytest.param("extraLabels.nvidia.com/gpu.present", "extra_labels.nvidia.com/gpu.present", id="a map key kept"),
    ],
)
def test_python_key(key, python):
    assert python_key(key) == python


def test_python_text_renames_fields_outside_quotes_only():
    assert python_text("minSize 3 > desiredSize 1, not 'minSize' or \"maxSize\"") == (
        "min_size 3 > desired_size 1, not 'minSize' or \"maxSize\""
    )


@pytest.mark.parametrize(
    ("location", "brackets", "key"),
    [
        pytest.param(["extra_taints", 0, "effect"], True, "extraTaints[0].effect", id="brackets"),
        pytest.param(["extra_taints", 0, "effect"], False, "extraTaints.0.effect", id="dots"),
        pytest.param([], False, "", id="nothing"),
    ],
)
def test_key_path(location, brackets, key):
    assert key_path(location, brackets) == key


@pytest.mark.parametrize(
    ("parent", "key", "joined"),
    [
        pytest.param("a", "b", "a.b", id="a dot between"),
        pytest.param("a", "[0]", "a[0]", id="a position joins without a dot"),
        pytest.param("", "b", "b", id="no parent"),
        pytest.param("a", "", "a", id="no key"),
    ],
)
def test_join_key(parent, key, joined):
    assert join_key(parent, key) == joined


def test_component_arguments_read_in_config_keys_unless_python_names_are_asked_for():
    with pytest.raises(ConfigError) as error:
        validate_section(GpuNodeGroupSettings, {"minSize": 3, "desiredSize": 1}, where=_ARGS)
    assert [str(problem) for problem in error.value.problems] == [
        f"{_ARGS}.minSize: 3 is greater than desiredSize 1; allowed: minSize <= desiredSize <= maxSize"
    ]


def test_settings_are_frozen_once_validated():
    group = validate_section(GpuNodeGroupSettings, {"minSize": 1}, where=_ARGS)
    with pytest.raises(ValidationError) as error:
        group.min_size = 5  # type: ignore[misc]
    assert [(detail["type"], detail["loc"]) for detail in error.value.errors()] == [("frozen_instance", ("min_size",))]
    assert group.min_size == 1
