"""Random values for the fleet (`gpuPools`, `models`), each pool's provisioner, autoscaling, the weights' source and
observability, read as a stack config: every answer is either settings or a `ConfigError` whose every problem names
a key of the config, never another exception (hypothesis generates the inputs, a bounded and repeatable number).

The values mix what the settings take (so that the checks across fields and sections run) with what YAML can hand
them and they must refuse: infinities and NaN, integers past int32 and int64, text with IAM's wildcards and policy
variables, control characters, lists and mappings where a scalar belongs. A handful of the accepted ones are then
planned whole.
"""

from __future__ import annotations

import copy
import math
import tempfile
from pathlib import Path

import yaml
from conftest import plan_stack_file
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from components.settings import ConfigError, parse_stack_config
from components.settings.autoscaling import AutoscalingSettings
from components.settings.fleet import ModelSettings
from components.settings.model_source import ModelSourceSettings
from components.settings.node_groups import GpuNodeGroupSettings
from components.settings.observability import ObservabilitySettings, PrometheusSettings
from components.settings.stack import TOP_LEVEL_KEYS

BOUNDED = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=120,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROJECT = "eks-gpu-inference"
# Values each rule is near: ones the settings take, and ones they must refuse.
GOOD = [
    True,
    False,
    0,
    1,
    2,
    4,
    30,
    3600,
    0.9,
    "s3",
    "huggingface",
    "nodeGroup",
    "karpenter",
    "autoMode",
    "auto",
    "g6.xlarge",
    ["g6.xlarge"],
    ["g6e.xlarge"],
    ["g5.12xlarge"],
    "Qwen/Qwen2.5-1.5B-Instruct",
    "0123456789abcdef0123456789abcdef01234567",
    "v1.0",
    "main",
    "models/qwen",
    "my-bucket",
    "monitoring",
    "kube-system",
    "http://prometheus.monitoring:9090",
    "ws-0123abcd",
    "arn:aws:aps:us-west-2:123456789012:workspace/ws-1",
    "NVIDIA-L4",
    ["--data-parallel-size", "2"],
    ["-pp", "2"],
]
BAD = [
    math.inf,
    -math.inf,
    math.nan,
    2**31,
    2**63,
    2**70,
    -1,
    1e23,
    "",
    " ",
    "a..b",
    "a*b",
    "${aws:username}",
    "v$1",
    "a\x01b",
    "https://user:secret@prometheus.example.com",
    "http://prometheus:99999",
    "arn:aws:aps:us-nowhere-1:123456789012:workspace/ws-1",
    "arn:aws-cn:aps:cn-north-1:123456789012:workspace/ws-1",
    "2024-01-02",
    "2024-01-02 00:00:00 +0000 UTC",
    None,
    [],
    {},
    ["a", 1],
    {"x": 1},
]
SCALARS = st.sampled_from(GOOD + BAD)


def _section(model: type, depth: int = 0) -> st.SearchStrategy[dict]:
    """A mapping of some of `model`'s keys (and now and then one it lacks), nested sections drawn the same way."""
    values = {}
    for name, field in model.model_fields.items():
        inner = next(
            (kind for kind in (field.annotation, *getattr(field.annotation, "__args__", ())) if kind in NESTED), None
        )
        values[field.alias or name] = (
            st.one_of(_section(inner, depth + 1), SCALARS) if inner is not None and depth < 2 else SCALARS
        )
    return st.fixed_dictionaries({}, optional={**values, "unknownKey": SCALARS})


NESTED = (AutoscalingSettings, ModelSourceSettings, PrometheusSettings)
POOLS = st.dictionaries(st.sampled_from(["l4", "big", "auto", "Bad_Name"]), _section(GpuNodeGroupSettings), max_size=2)
MODELS = st.lists(
    st.fixed_dictionaries({"name": st.sampled_from(["a", "b", "a"])}).flatmap(
        lambda named: _section(ModelSettings).map(lambda values: {**values, **named})
    ),
    max_size=2,
)
OBSERVABILITY = _section(ObservabilitySettings)


@BOUNDED
@given(
    pools=st.one_of(POOLS, SCALARS),
    models=st.one_of(MODELS, SCALARS),
    observability=OBSERVABILITY,
    vllm=_section(ModelSettings),
)
def test_every_refusal_of_the_new_sections_names_a_key(pools, models, observability, vllm):
    vllm = {key: value for key, value in vllm.items() if key not in ("name", "pool")}
    config = {
        "aws:region": "us-west-2",
        f"{PROJECT}:gpuPools": pools,
        f"{PROJECT}:models": models,
        f"{PROJECT}:observability": observability,
        f"{PROJECT}:vllm": vllm,
    }
    try:
        parse_stack_config(config)
    except ConfigError as error:
        assert error.problems
        for problem in error.problems:
            assert problem.key.split(".", 1)[0] in TOP_LEVEL_KEYS, str(problem)
            assert problem.message.strip(), str(problem)


# A valid fleet with every new section in use; one key at a time is then set to a drawn value, so that the checks
# across fields and sections run on configs that are otherwise right.
BASE = {
    "gpuPools": {"l4": {"instanceTypes": ["g6.xlarge"]}, "big": {"instanceTypes": ["g6.12xlarge"]}},
    "models": [
        {
            "name": "a",
            "model": "Qwen/Qwen2.5-1.5B-Instruct",
            "revision": "0123456789abcdef0123456789abcdef01234567",
            "autoscaling": {"enabled": True, "maxReplicas": 2},
            "source": {"type": "s3", "bucket": "my-weights"},
        }
    ],
    "observability": {"prometheusOperator": True, "prometheus": {"url": "http://prometheus.monitoring:9090"}},
}
PATHS = sorted(
    {("gpuPools", "l4", alias) for alias in (f.alias for f in GpuNodeGroupSettings.model_fields.values())}
    | {("models", 0, f.alias) for f in ModelSettings.model_fields.values()}
    | {("models", 0, "autoscaling", f.alias) for f in AutoscalingSettings.model_fields.values()}
    | {("models", 0, "source", f.alias) for f in ModelSourceSettings.model_fields.values()}
    | {("observability", f.alias) for f in ObservabilitySettings.model_fields.values()}
    | {("observability", "prometheus", f.alias) for f in PrometheusSettings.model_fields.values()},
    key=str,
)


def _with(path: tuple, value) -> dict:
    config = copy.deepcopy(BASE)
    node = config
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return config


def test_the_base_fleet_is_accepted():
    settings = parse_stack_config({"aws:region": "us-west-2", **{f"{PROJECT}:{k}": v for k, v in BASE.items()}})
    assert [server.pool.key for server in settings.servers] == ["l4"]


@BOUNDED
@given(path=st.sampled_from(PATHS), value=SCALARS)
def test_one_changed_key_is_accepted_or_refused_naming_a_key(path, value):
    config = {"aws:region": "us-west-2", **{f"{PROJECT}:{k}": v for k, v in _with(path, value).items()}}
    try:
        parse_stack_config(config)
    except ConfigError as error:
        assert error.problems
        for problem in error.problems:
            assert problem.key.split(".", 1)[0] in TOP_LEVEL_KEYS, str(problem)
            assert problem.message.strip(), str(problem)


# A handful of the examples above that the settings accept, each planned whole: the real program under mocks, its
# objects against the Kubernetes and CRD schemas, its AWS requests against botocore's models. A value the settings
# take and a consumer would refuse shows here, where no check of the settings alone can see it. Few, since each
# plan runs the program (about a second).
WHOLE_PLANS = settings(
    BOUNDED, max_examples=4, suppress_health_check=[*BOUNDED.suppress_health_check, HealthCheck.filter_too_much]
)


def _accepted(config: dict) -> bool:
    try:
        parse_stack_config(config)
    except ConfigError:
        return False
    return True


@WHOLE_PLANS
@given(path=st.sampled_from(PATHS), value=SCALARS)
def test_a_handful_of_accepted_examples_plan_whole_with_every_check_run(path, value):
    config = {"aws:region": "us-west-2", **{f"{PROJECT}:{k}": v for k, v in _with(path, value).items()}}
    assume(_accepted(config))
    with tempfile.TemporaryDirectory() as folder:
        stack_file = Path(folder) / "Pulumi.example.yaml"
        stack_file.write_text(yaml.safe_dump({"config": config}))
        code, report = plan_stack_file(stack_file, Path(folder) / "out")
    # Exit 1 is a verdict the plan judges on the whole stack (startupTimeoutSeconds 3600 outlasting the autoscaler's
    # scale-down delay is one); never a refusal of the config (2) nor an internal error (3).
    assert code in (0, 1), report["failures"]
    assert report["programError"] is None
    assert [entry["object"] for entry in report["schema"] if not entry["passed"]] == []
    assert [entry["name"] for entry in report["awsRequests"] if not entry["passed"]] == []
