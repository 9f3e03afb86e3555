"""Settings read as the programs that consume them read them: the Cluster Autoscaler's priority patterns (Go's
regexp, RE2 syntax), its durations (Go's time.ParseDuration), its expander chain, a GPU pool that nothing can
grow, and Hugging Face model ids (huggingface_hub's own validator).

Each refused row names the key, the bad value and what is allowed, in the stack config and before the program
registers anything; each accepted row reaches what the program registers.
"""

from __future__ import annotations

import textwrap

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.autoscaling.cluster_autoscaler import PRIORITY_CONFIGMAP
from components.facts.resource_types import CONFIG_MAP, DEPLOYMENT
from components.settings import PROJECT, ConfigError, parse_settings
from components.stackcheck.runtime import ProgramRun, run_program

PRIORITIES = {"10": [".*-gpu-.*"], "1": [".*"]}
_GO_DURATION = "a Go duration such as 10m, 1h30m, 1.5h or 300ms"
_CHAIN = "several joined by commas without spaces and each once"
_RE2 = "Go regular expressions (RE2 syntax"
_HF = "a Hugging Face model id such as Qwen/Qwen2.5-7B-Instruct"
_NOTHING_GROWS = "nothing ever adds a GPU node"


def _row(values: dict, key: str, shown: str, allowed: str, reason: str, why: str):
    return pytest.param(values, key, shown, allowed, reason, id=f"{key}: {why} is refused")


REFUSED = [
    # Durations, as Go's time.ParseDuration reads them.
    _row(
        {"autoscaler": {"scaleDownUnneededTime": "10"}},
        "autoscaler.scaleDownUnneededTime",
        "'10'",
        _GO_DURATION,
        "missing unit",
        "a number without a unit",
    ),
    _row(
        {"autoscaler": {"scaleDownUnneededTime": "1d"}},
        "autoscaler.scaleDownUnneededTime",
        "'1d'",
        _GO_DURATION,
        'unknown unit "d"',
        "days, a unit Go lacks",
    ),
    _row(
        {"autoscaler": {"scaleDownUnneededTime": "1h 30m"}},
        "autoscaler.scaleDownUnneededTime",
        "'1h 30m'",
        _GO_DURATION,
        'unknown unit "h "',
        "a space between the parts",
    ),
    _row(
        {"autoscaler": {"scaleDownDelayAfterAdd": "2562048h"}},
        "autoscaler.scaleDownDelayAfterAdd",
        "'2562048h'",
        _GO_DURATION,
        "invalid duration",
        "a duration past int64 nanoseconds",
    ),
    _row(
        {"autoscaler": {"scaleDownDelayAfterAdd": "9223372036854775808ns"}},
        "autoscaler.scaleDownDelayAfterAdd",
        "'9223372036854775808ns'",
        _GO_DURATION,
        "invalid duration",
        "one nanosecond past int64",
    ),
    _row(
        {"autoscaler": {"scaleDownDelayAfterAdd": "-5m"}},
        "autoscaler.scaleDownDelayAfterAdd",
        "'-5m'",
        "0s or more",
        "negative duration",
        "a negative duration",
    ),
    _row(
        {"autoscaler": {"maxNodeProvisionTime": "0"}},
        "autoscaler.maxNodeProvisionTime",
        "'0'",
        "more than 0s",
        "zero duration",
        "zero for the provision time",
    ),
    _row(
        {"autoscaler": {"maxNodeProvisionTime": "-0s"}},
        "autoscaler.maxNodeProvisionTime",
        "'-0s'",
        "more than 0s",
        "(Go reads 0s)",
        "-0s, which Go reads as zero, for the provision time",
    ),
    # Expanders, as the autoscaler builds its chain.
    _row(
        {"autoscaler": {"expander": "least_waste"}},
        "autoscaler.expander",
        "'least_waste'",
        _CHAIN,
        "did you mean 'least-waste'?",
        "a misspelt expander",
    ),
    _row(
        {"autoscaler": {"expander": "priority, least-waste"}},
        "autoscaler.expander",
        "'priority, least-waste'",
        _CHAIN,
        "unknown expander ' least-waste'",
        "a space after the comma",
    ),
    _row(
        {"autoscaler": {"expander": "priority,"}},
        "autoscaler.expander",
        "'priority,'",
        _CHAIN,
        "empty expander name",
        "a trailing comma",
    ),
    _row(
        {"autoscaler": {"expander": "most-pods,most-pods"}},
        "autoscaler.expander",
        "'most-pods,most-pods'",
        _CHAIN,
        "given twice",
        "an expander twice",
    ),
    _row(
        {"autoscaler": {"expander": "random,least-waste"}},
        "autoscaler.expander",
        "'random,least-waste'",
        "random only last",
        "never run",
        "an expander after random",
    ),
    _row(
        {"autoscaler": {"expander": "price"}},
        "autoscaler.expander",
        "'price'",
        _CHAIN,
        "AWS provider does not give",
        "the price expander, which needs prices AWS does not give",
    ),
    _row(
        {"autoscaler": {"expander": "least-waste,grpc"}},
        "autoscaler.expander",
        "'least-waste,grpc'",
        _CHAIN,
        "gRPC server",
        "the grpc expander, which needs a server",
    ),
    _row(
        {"autoscaler": {"expander": "least-waste,priority"}},
        "autoscaler.expanderPriorities",
        "'least-waste,priority'",
        "at least one priority",
        "empty with expander",
        "a chain with priority and no priorities",
    ),
    # Priority patterns, as Go's regexp compiles them.
    _row(
        {"autoscaler": {"expander": "priority", "expanderPriorities": {"10": ["^(?!cpu).*"]}}},
        "autoscaler.expanderPriorities",
        "'^(?!cpu).*'",
        _RE2,
        "invalid perl operator",
        "a lookahead",
    ),
    _row(
        {"autoscaler": {"expander": "priority", "expanderPriorities": {"10": ["(gpu)-\\1"]}}},
        "autoscaler.expanderPriorities",
        "'(gpu)-\\\\1'",
        _RE2,
        "invalid escape sequence",
        "a backreference",
    ),
    _row(
        {"autoscaler": {"expander": "priority", "expanderPriorities": {"10": ["(?<=x)gpu"]}}},
        "autoscaler.expanderPriorities",
        "'(?<=x)gpu'",
        _RE2,
        "Go's regexp refuses",
        "a lookbehind",
    ),
    _row(
        {"autoscaler": {"expander": "priority", "expanderPriorities": {"10": ["gpu.*+"]}}},
        "autoscaler.expanderPriorities",
        "'gpu.*+'",
        _RE2,
        "bad repetition operator",
        "a possessive quantifier",
    ),
    _row(
        {"autoscaler": {"expander": "priority", "expanderPriorities": {"10": ["gpu\\Z"]}}},
        "autoscaler.expanderPriorities",
        "'gpu\\\\Z'",
        _RE2,
        "invalid escape sequence",
        "Python's \\Z",
    ),
    _row(
        {"autoscaler": {"expander": "priority", "expanderPriorities": {"10": ["gpu\\C"]}}},
        "autoscaler.expanderPriorities",
        "'gpu\\\\C'",
        _RE2,
        "\\C",
        "\\C, which RE2 has and Go lacks",
    ),
    _row(
        {"autoscaler": {"expander": "priority", "expanderPriorities": {"10": ["g{1001}"]}}},
        "autoscaler.expanderPriorities",
        "'g{1001}'",
        _RE2,
        "invalid repetition size",
        "a repeat above 1000",
    ),
    _row(
        {"autoscaler": {"expander": "priority", "expanderPriorities": {"10": ["a", "(?=b)"], "1": ["(c)\\1"]}}},
        "autoscaler.expanderPriorities",
        "'(?=b)' (invalid perl operator: (?=) and '(c)\\\\1'",
        _RE2,
        "Go's regexp refuses",
        "every bad pattern at once",
    ),
    _row(
        {"autoscaler": {"expander": "priority", "expanderPriorities": {"9223372036854775808": ["a"]}}},
        "autoscaler.expanderPriorities",
        "'9223372036854775808'",
        "9223372036854775807",
        "invalid priority",
        "a priority past Go's int",
    ),
    _row(
        {"autoscaler": {"expander": "priority", "expanderPriorities": {"1": ["a"], "01": ["b"]}}},
        "autoscaler.expanderPriorities",
        "'01'",
        "each priority once",
        "given twice",
        "one priority spelt twice",
    ),
    # A GPU pool nothing can grow.
    _row(
        {"autoscaler": {"enabled": False}, "gpuNodeGroup": {"minSize": 0, "desiredSize": 0}},
        "gpuNodeGroup.desiredSize",
        "autoscaler.enabled false and vllm.replicas 1",
        "autoscaler.enabled true, or vllm.replicas 0",
        _NOTHING_GROWS,
        "0 with the autoscaler off and a replica",
    ),
    # Model ids, as huggingface_hub validates them.
    _row({"vllm": {"model": "m" * 97}}, "vllm.model", "'mmm", _HF, "maximum length is 96", "a name of 97 characters"),
    _row(
        {"vllm": {"model": "n" * 97 + "/model"}},
        "vllm.model",
        "'nnn",
        _HF,
        "maximum length is 96",
        "a namespace of 97 characters",
    ),
    _row(
        {"vllm": {"model": "Qwen/Qwen2.5/7B"}},
        "vllm.model",
        "'Qwen/Qwen2.5/7B'",
        _HF,
        "'namespace/repo_name'",
        "two slashes",
    ),
    _row(
        {"vllm": {"model": "Qwen/Qwen2.5--7B"}},
        "vllm.model",
        "'Qwen/Qwen2.5--7B'",
        _HF,
        "Cannot have --",
        "a double dash",
    ),
    _row(
        {"vllm": {"model": "Qwen/Qwen2.5-7B.git"}},
        "vllm.model",
        "'Qwen/Qwen2.5-7B.git'",
        _HF,
        ".git",
        "a name ending .git",
    ),
    _row(
        {"vllm": {"model": "Qwen/-Qwen"}},
        "vllm.model",
        "'Qwen/-Qwen'",
        _HF,
        "cannot start or end",
        "a name starting with a dash",
    ),
    _row({"vllm": {"model": "café/model"}}, "vllm.model", "'café/model'", _HF, "alphanumeric", "a non-ASCII letter"),
    _row({"vllm": {"model": "Qwen/Qwen 7B"}}, "vllm.model", "'Qwen/Qwen 7B'", _HF, "alphanumeric", "a space"),
]


@pytest.mark.parametrize(("values", "key", "shown", "allowed", "reason"), REFUSED)
def test_a_value_its_consumer_refuses_is_refused_with_key_value_and_what_is_allowed(
    values, key, shown, allowed, reason
):
    with pytest.raises(ConfigError) as error:
        parse_settings(values)
    messages = [problem.message for problem in error.value.problems if problem.key == key]
    assert messages, [str(problem) for problem in error.value.problems]
    (message,) = messages
    assert shown in message and reason in message
    assert allowed in message.split("; allowed: ", 1)[1]


@pytest.mark.parametrize(("values", "key", "shown", "allowed", "reason"), REFUSED)
def test_the_program_registers_nothing_for_a_refused_value(values, key, shown, allowed, reason):
    run = ProgramRun()
    with pytest.raises(ConfigError) as error:
        run_stack(merge(dev_stack_config(), values), run=run)
    assert key in [problem.key for problem in error.value.problems]
    assert run.resources == []


def _autoscaler_command(run: ProgramRun) -> list[str]:
    (deployment,) = [d for d in run.of_type(DEPLOYMENT) if d.inputs["metadata"]["name"] == "cluster-autoscaler"]
    return deployment.inputs["spec"]["template"]["spec"]["containers"][0]["command"]


GO_DURATIONS_ACCEPTED = [
    pytest.param("1h30m", id="hours and minutes"),
    pytest.param("1.5h", id="a fraction of an hour"),
    pytest.param("300ms", id="milliseconds"),
    pytest.param(".5h", id="a fraction without a leading digit"),
    pytest.param("+45m", id="a plus sign"),
    pytest.param("0", id="a bare zero"),
    pytest.param("-0s", id="minus zero, which Go reads as 0s"),
    pytest.param("90µs", id="microseconds written with the micro sign"),
    pytest.param("2562047h", id="the most whole hours an int64 of nanoseconds holds"),
    pytest.param("9223372036854775807ns", id="the largest int64 of nanoseconds"),
]


@pytest.mark.parametrize("duration", GO_DURATIONS_ACCEPTED)
def test_a_go_duration_is_accepted_and_reaches_the_autoscaler_flag_as_written(duration):
    settings = parse_settings({"autoscaler": {"scaleDownUnneededTime": duration, "scaleDownDelayAfterAdd": duration}})
    assert settings.autoscaler.scale_down_unneeded_time == duration


def test_go_durations_reach_the_registered_autoscaler_command():
    run = run_stack(
        merge(
            dev_stack_config(),
            {
                "autoscaler": {
                    "scaleDownUnneededTime": "1.5h",
                    "scaleDownDelayAfterAdd": "-0s",
                    "maxNodeProvisionTime": "1h2m3.5s",
                }
            },
        )
    )
    command = _autoscaler_command(run)
    assert "--scale-down-unneeded-time=1.5h" in command
    assert "--scale-down-delay-after-add=-0s" in command
    assert "--max-node-provision-time=1h2m3.5s" in command


@pytest.mark.parametrize(
    ("expander", "configmap"),
    [
        pytest.param("priority,least-waste", True, id="priority first, least-waste breaking its ties"),
        pytest.param("most-pods,priority,random", True, id="priority in the middle, random last"),
        pytest.param("least-nodes,random", False, id="a chain without priority"),
    ],
)
def test_an_expander_chain_is_passed_whole_with_the_priority_configmap_when_priority_is_in_it(expander, configmap):
    overrides = {"autoscaler": {"expander": expander, "expanderPriorities": PRIORITIES if configmap else {}}}
    run = run_stack(merge(dev_stack_config(), overrides))
    assert f"--expander={expander}" in _autoscaler_command(run)
    maps = [c for c in run.of_type(CONFIG_MAP) if c.inputs["metadata"]["name"] == PRIORITY_CONFIGMAP]
    assert len(maps) == (1 if configmap else 0)
    if configmap:
        assert maps[0].inputs["data"]["priorities"] == '10:\n  - ".*-gpu-.*"\n1:\n  - ".*"\n'


@pytest.mark.parametrize(
    "pattern",
    [
        pytest.param(".*-gpu-.*", id="the usual wildcard"),
        pytest.param("^eks-gpu-[a-z0-9]+$", id="anchors and a class"),
        pytest.param("(?i)GPU", id="a case-insensitive flag"),
        pytest.param("(?P<pool>gpu)-\\d+", id="a named group in Python's spelling"),
        pytest.param("(?<pool>gpu)-\\d+", id="a named group in Go 1.22's spelling"),
        pytest.param("\\Qg5.xlarge\\E", id="a quoted literal"),
        pytest.param("\\Q\\C\\E", id="\\C inside a quoted literal"),
        pytest.param("[[:alpha:]]+-\\pL", id="ASCII and Unicode classes"),
        pytest.param("(?U)gpu.*", id="the ungreedy flag Go has and Python lacks"),
    ],
)
def test_a_pattern_go_compiles_is_accepted(pattern):
    settings = parse_settings({"autoscaler": {"expander": "priority", "expanderPriorities": {"5": [pattern]}}})
    assert settings.autoscaler.expander_priorities == {"5": [pattern]}


@pytest.mark.parametrize(
    "priority", ["-9223372036854775808", "9223372036854775807", "0", "-3"], ids=lambda p: f"priority {p}"
)
def test_every_priority_a_go_int_holds_is_accepted(priority):
    settings = parse_settings({"autoscaler": {"expander": "priority", "expanderPriorities": {priority: ["a"]}}})
    assert list(settings.autoscaler.expander_priorities) == [priority]


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param(
            {"autoscaler": {"enabled": True}, "gpuNodeGroup": {"desiredSize": 0}}, id="the autoscaler grows it"
        ),
        pytest.param(
            {"autoscaler": {"enabled": False}, "gpuNodeGroup": {"desiredSize": 1}}, id="it starts with a node"
        ),
        pytest.param(
            {"autoscaler": {"enabled": False}, "gpuNodeGroup": {"desiredSize": 0}, "vllm": {"replicas": 0}},
            id="no replica waits for it",
        ),
        pytest.param(
            {"autoscaler": {"enabled": False}, "gpuNodeGroup": {"desiredSize": 0}, "vllm": {"enabled": False}},
            id="no server",
        ),
    ],
)
def test_a_gpu_pool_at_zero_is_accepted_when_something_grows_it_or_nothing_waits_for_it(overrides):
    settings = parse_settings(merge(dev_stack_config(), overrides))
    assert settings.gpu_node_group.min_size == 0


@pytest.mark.parametrize(
    "model",
    [
        pytest.param("Qwen/Qwen2.5-7B-Instruct", id="namespace and name"),
        pytest.param("gpt2", id="a name without a namespace"),
        pytest.param("m" * 96, id="a name of 96 characters"),
        pytest.param("n" * 96 + "/" + "m" * 96, id="a namespace and a name of 96 characters each"),
        pytest.param("meta-llama/Llama-3.1-8B-Instruct", id="dots and dashes"),
        pytest.param("org_name/model_v2.1", id="underscores"),
    ],
)
def test_a_model_id_huggingface_hub_accepts_is_accepted(model):
    assert parse_settings({"vllm": {"model": model}}).vllm.model == model


def test_a_model_id_without_a_namespace_reaches_the_registered_server():
    run = run_stack(merge(dev_stack_config(), {"vllm": {"model": "gpt2"}}))
    (server,) = [d for d in run.of_type(DEPLOYMENT) if d.inputs["metadata"]["namespace"] == "vllm"]
    args = server.inputs["spec"]["template"]["spec"]["containers"][0]["args"]
    # The model is `vllm serve`'s positional first argument; `--served-model-name gpt2` alone would not load it.
    assert args[0] == "gpt2"


def test_component_args_get_the_same_rules_naming_the_argument(tmp_path):
    program = tmp_path / "__main__.py"
    program.write_text(
        textwrap.dedent(
            """
            from components.autoscaling.cluster_autoscaler import ClusterAutoscaler, ClusterAutoscalerArgs

            ClusterAutoscaler("scaler", ClusterAutoscalerArgs(
                cluster_name="ml", expander="priority,random,least-waste",
                expander_priorities={"10": ["(?!cpu)"]}, scale_down_unneeded_time="1d",
            ))
            """
        )
    )
    run = ProgramRun()
    with pytest.raises(ConfigError) as error:
        run_program(program, {}, project=PROJECT, stack="test", run=run)
    messages = {problem.key: problem.message for problem in error.value.problems}
    assert "never run" in messages["expander"]
    assert "invalid perl operator" in messages["expander_priorities"]
    assert 'unknown unit "d"' in messages["scale_down_unneeded_time"]
    assert run.resources == []
