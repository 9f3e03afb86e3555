"""`vllm.extraArgs` judged as `vllm serve` v0.32.0 reads them: each misuse refused with its item, value and what is
allowed, in the stack config and in `VllmServerArgs.extra_args`; valid items passed through; GPU multipliers folded
into the pod's request."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components.facts import vllm_parser
from components.facts.resource_types import DAEMONSET, DEPLOYMENT
from components.facts.vllm_cli import OPTIONS
from components.placement import gpu_guard
from components.settings import PROJECT, ConfigError, parse_settings, vllm_flags
from components.stackcheck.plan.node_agents import cluster_agents
from components.stackcheck.plan.pools import build_pools, node_group_specs
from components.stackcheck.runtime import ProgramRun
from tests.support.component_args import run_components

# (extraArgs, position of the refused item, fragments its message holds: the value and what is allowed).
MISUSES = [
    pytest.param(
        ["--max-nm-seqs", "8"],
        0,
        ["'--max-nm-seqs'", "did you mean '--max-num-seqs'?", "allowed: the flags of vllm serve v0.32.0"],
        id="unknown flag",
    ),
    pytest.param(
        ["--enable-prefix-caching", "org/other"],
        1,
        ["positional argument 'org/other'", "allowed: flags"],
        id="positional",
    ),
    pytest.param(
        ["--max-num-seqs 8"],
        0,
        ["flag and value in one item '--max-num-seqs 8'", "'--max-num-seqs' and its value as two items"],
        id="space inside an item",
    ),
    pytest.param(
        ["--enable-prefix-caching\n"],
        0,
        ["'--enable-prefix-caching\\n'", "did you mean '--enable-prefix-caching'?"],
        id="newline inside an item",
    ),
    pytest.param(
        ["\u2013\u2013max-num-seqs", "8"],
        0,
        ["dash that is not ASCII '-'", "did you mean '--max-num-seqs'?"],
        id="non-ASCII dash",
    ),
    pytest.param(["--enable-prefix-caching", ""], 1, ["empty argument ''", "remove the empty item"], id="empty item"),
    pytest.param(
        ["--Max-Num-Seqs", "8"], 0, ["unknown flag '--Max-Num-Seqs'", "did you mean '--max-num-seqs'?"], id="wrong case"
    ),
    pytest.param(["-pp2"], 0, ["unknown flag '-pp2'", "did you mean '-pp 2'?"], id="glued short flag"),
    pytest.param(
        ["--max-num-seqs"], 0, ["flag '--max-num-seqs' expects a value", "--max-num-seqs=<value>"], id="missing value"
    ),
    pytest.param(
        ["--max-num-seqs", "eight"],
        0,
        ["invalid value 'eight' for --max-num-seqs", "allowed: an integer"],
        id="bad integer",
    ),
    pytest.param(
        ["--kv-cache-dtype", "fp9"],
        0,
        ["invalid choice 'fp9' for --kv-cache-dtype", "allowed: auto, bfloat16"],
        id="bad choice",
    ),
    pytest.param(
        ["--enable-prefix-caching=yes"],
        0,
        ["takes no value", "--enable-prefix-caching or --no-enable-prefix-caching"],
        id="value on a boolean",
    ),
    pytest.param(
        ["--enable", "x"],
        0,
        ["ambiguous flag '--enable': a prefix of", "one flag written in full"],
        id="ambiguous prefix",
    ),
    pytest.param(["--", "x"], 0, ["'--' ends the options: argparse refuses it and every later item"], id="double dash"),
    pytest.param(
        ["--max_model_len=4096"],
        0,
        ["flag set by settings (read by vLLM as --max-model-len)", "vllm.maxModelLen"],
        id="managed flag",
    ),
    pytest.param(
        ["--device-memory-utilization", "0.5"],
        0,
        ["read by vLLM as --gpu-memory-utilization", "vllm.gpuMemoryUtilization"],
        id="managed alias",
    ),
    pytest.param(
        ["--api-key", "k"], 0, ["secret flag in '--api-key'", "pulumi config set --secret vllmApiKey"], id="secret flag"
    ),
    pytest.param(["--host", "127.0.0.1"], 0, ["value '127.0.0.1' of --host", "0.0.0.0 or ::"], id="host on loopback"),
    pytest.param(
        ["--download-dir=/data"],
        0,
        ["flag breaks the pod: '--download-dir'", "root filesystem is read-only"],
        id="download dir on the read-only root",
    ),
    pytest.param(
        ["--config", "/etc/vllm.yaml"],
        0,
        ["flag breaks the pod: '--config'", "no volume mounts a config file"],
        id="config file nothing mounts",
    ),
    pytest.param(["--uds", "/tmp/v.sock"], 0, ["'--uds'", "plain HTTP on the container port"], id="unix socket"),
    pytest.param(["--ssl_keyfile", "/k"], 0, ["(read by vLLM as --ssl-keyfile)", "plain HTTP"], id="tls"),
    pytest.param(["--headless"], 0, ["'--headless'", "starts no API server"], id="headless"),
    pytest.param(["-h"], 0, ["'-h'", "prints the options and exits"], id="help"),
    pytest.param(["--nnodes", "2"], 0, ["'--nnodes'", "single-node pods"], id="multi node"),
    pytest.param(
        ["-dpl", "2"],
        0,
        ["(read by vLLM as --data-parallel-size-local)", "--data-parallel-size alone"],
        id="data parallel size local",
    ),
    pytest.param(
        ["--device-ids", "0,1"], 0, ["'--device-ids'", "the device plugin assigns the pod its GPUs"], id="device ids"
    ),
    pytest.param(
        ["--distributed-executor-backend", "ray"],
        0,
        ["value 'ray' of --distributed-executor-backend", "mp or uni"],
        id="ray executor",
    ),
    pytest.param(
        ["-pp", "0"],
        0,
        ["value '0' of --pipeline-parallel-size (read by vLLM as", "an integer >= 1"],
        id="pipeline parallel 0",
    ),
]
# Items `vllm serve` accepts and the pod can hold, in the spellings its parser reads.
VALID = [
    ["--enable-prefix-caching"],
    ["--no-enable-prefix-caching"],
    ["--max-num-seqs=8"],
    ["--max_num_seqs", "8"],
    ["--max-num-se", "8"],
    ["--kv-cache-dtype", "fp8"],
    ["--host", "0.0.0.0"],
    ["--host=::"],
    ["--seed", "-1"],
    ["-O3"],
    ["--compilation-config.mode", "3"],
    ["--compilation-config", '{"mode": 3}'],
    ["--chat-template", "{% for m in messages %}{{ m.content }}\n{% endfor %}"],
    ["--max-num-batched-tokens", "16k"],
    ["--distributed-executor-backend", "mp"],
    ["-dcp", "1"],
]


def problem_at(error: ConfigError, key: str) -> str:
    [problem] = [str(p) for p in error.problems if str(p).split(": ", 1)[0].endswith(key)]
    return problem


@pytest.mark.parametrize(("args", "index", "fragments"), MISUSES)
def test_a_misused_item_is_refused_at_its_position_with_value_and_what_is_allowed(args, index, fragments):
    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"extraArgs": args}})
    problem = problem_at(error.value, f"vllm.extraArgs[{index}]")
    assert problem.startswith(f"{PROJECT}:vllm.extraArgs[{index}]: ")
    assert "allowed: " in problem
    for fragment in fragments:
        assert fragment in problem


@pytest.mark.parametrize("args", VALID, ids=[" ".join(a) for a in VALID])
def test_a_valid_item_passes_unchanged_and_vllms_parser_agrees(args):
    assert parse_settings({"vllm": {"extraArgs": args}}).vllm.extra_args == args
    assert vllm_parser.argparse_error("org/model", args) is None


def test_every_misused_item_is_reported_at_once():
    args = ["--host", "localhost", "--max-nm-seqs", "8", "--config", "c.yaml", "-pp2", "--max-num-seqs 8"]
    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"extraArgs": args}})
    keys = [str(p).split(": ", 1)[0] for p in error.value.problems]
    assert keys == [f"{PROJECT}:vllm.extraArgs[{i}]" for i in (0, 2, 4, 6, 7)]


@pytest.mark.parametrize(
    ("args", "index"),
    [
        pytest.param(["--max-nm-seqs", "8"], 0, id="unknown flag"),
        pytest.param(["--enable-prefix-caching", "--host", "127.0.0.1"], 1, id="host on loopback"),
        pytest.param(["-pp2"], 0, id="glued short flag"),
    ],
)
def test_component_args_get_the_same_message_for_the_same_item(tmp_path, args, index):
    with pytest.raises(ConfigError) as from_stack:
        parse_settings({"vllm": {"extraArgs": args}})
    run = ProgramRun()
    with pytest.raises(ConfigError) as from_args:
        run_components(
            tmp_path,
            f"""
            from components.vllm.server import VllmServer, VllmServerArgs

            VllmServer("chat", VllmServerArgs(instance_types=["g5.xlarge"], extra_args={args!r}))
            """,
            run,
        )
    stack_problem = problem_at(from_stack.value, f"extraArgs[{index}]")
    args_problem = problem_at(from_args.value, f"extra_args[{index}]")  # Python callers see Python names
    assert args_problem.startswith(f"VllmServer(chat).args.extra_args[{index}]: ")
    assert args_problem.split(": ", 1)[1] == stack_problem.split(": ", 1)[1]
    assert run.resources == []


def server_container(run: ProgramRun) -> dict:
    [deployment] = [d for d in run.of_type(DEPLOYMENT) if d.inputs["metadata"]["name"] == "vllm-server"]
    [container] = deployment.inputs["spec"]["template"]["spec"]["containers"]
    return container


@pytest.mark.parametrize(
    ("extra", "gpus"),
    [
        (["-pp", "2"], "2"),
        (["--pipeline_parallel_size=2", "-dp", "2"], "4"),
        (["--data-parallel-size", "4"], "4"),
        (["-pcp", "2"], "2"),
        (["-dcp", "1", "-pp", "1"], "1"),
    ],
    ids=["pp 2", "pp 2 x dp 2", "dp 4", "pcp 2", "dcp adds none"],
)
def test_pipeline_and_data_parallel_sizes_multiply_the_gpus_the_pod_requests_and_the_guard_checks(stack, extra, gpus):
    run = stack({"gpuNodeGroup": {"instanceTypes": ["g5.12xlarge"]}, "vllm": {"extraArgs": extra}})
    container = server_container(run)
    assert container["resources"]["limits"]["nvidia.com/gpu"] == gpus
    [deployment] = [d.inputs for d in run.of_type(DEPLOYMENT) if d.inputs["metadata"]["name"] == "vllm-server"]
    [shm] = [v for v in deployment["spec"]["template"]["spec"]["volumes"] if v["name"] == "dshm"]
    assert shm["emptyDir"]["sizeLimit"] == f"{gpus}Gi"
    workloads = [r.inputs for r in run.resources if r.type in (DEPLOYMENT, DAEMONSET)]
    host_engines = cluster_agents(run.resources).dcgm_host_engines()
    verdicts = gpu_guard(workloads, build_pools(node_group_specs(run.resources)), host_engines=host_engines)
    assert [(v.id, v.message) for v in verdicts if not v.passed] == []


def test_more_gpus_than_an_instance_has_are_refused_naming_the_parallel_sizes(stack):
    run = ProgramRun()
    with pytest.raises(ConfigError) as error:
        stack({"vllm": {"tensorParallelSize": 1, "extraArgs": ["-pp", "2"]}}, run=run)
    problem = problem_at(error.value, "vllm.extraArgs")
    assert "2 GPUs per server (tensorParallelSize 1 x 2 from --pipeline-parallel-size" in problem
    assert "more than the 1 GPU(s) per g5.xlarge; allowed: at most 1 in all" in problem
    assert run.resources == []


def test_the_last_parallel_size_given_counts_as_argparse_stores_it():
    assert vllm_flags.check(["-pp", "4", "--pipeline-parallel-size", "2"]).gpu_factor == 2


# Items drawn from the table's own flags, their spellings and values, and stray text; often a flag and a value.
_FLAGS = sorted({flag for option in OPTIONS for flag in option.flags})
_VALUES = st.sampled_from(
    ["1", "-1", "-0.5", "0.5", "auto", "fp8", "", "x y", "{}", '{"a": 1}', "None", "-", "--", "a,b"]
)
_ITEM = st.one_of(
    st.sampled_from(_FLAGS),
    st.sampled_from(_FLAGS).map(lambda flag: flag.replace("-", "_").replace("__", "--", 1)),
    st.sampled_from(_FLAGS).map(lambda flag: flag[: max(3, len(flag) - 3)]),
    st.tuples(st.sampled_from(_FLAGS), _VALUES).map("=".join),
    _VALUES,
    st.text(max_size=6),
)
_ITEMS = st.lists(st.one_of(_ITEM.map(lambda item: [item]), st.tuples(_ITEM, _VALUES).map(list)), max_size=4).map(
    lambda groups: [item for group in groups for item in group]
)


@settings(max_examples=400, deadline=None)
@given(_ITEMS)
def test_the_item_walk_refuses_exactly_what_argparse_built_from_the_table_refuses(items):
    reading = vllm_parser.read(items)
    walked = bool(reading.problems) or any(setting.problem for setting in reading.settings)
    assert walked == (vllm_parser.argparse_error("org/model", items) is not None), items
