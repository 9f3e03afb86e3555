"""`vllm.extraArgs` read as vLLM's parser reads them, and the API key kept out of every plain input."""

from __future__ import annotations

import pytest
from conftest import plain_strings

from components.facts import vllm_parser
from components.facts.resource_types import DEPLOYMENT, SECRET
from components.settings import VllmSettings, vllm_flags
from components.stackcheck.runtime import ProgramRun, Secret
from components.vllm.manifests import container_args

KEY = "sk-test-0123456789abcdef"

# Spellings vLLM 0.32's FlexibleArgumentParser (and argparse prefix matching) reads as a managed flag.
MANAGED_SPELLINGS = [
    (["--tensor_parallel_size=8"], "--tensor-parallel-size"),
    (["--tensor-parallel-size", "8"], "--tensor-parallel-size"),
    (["-tp", "4"], "--tensor-parallel-size"),
    (["-tp=4"], "--tensor-parallel-size"),
    (["-t", "4"], "--tensor-parallel-size"),
    (["--tensor-parallel", "2"], "--tensor-parallel-size"),
    (["--max_model_len", "4096"], "--max-model-len"),
    (["--max-model=4096"], "--max-model-len"),
    # A value may itself hold `=`: only the first one ends the flag.
    (["--served_model=team=a"], "--served-model-name"),
    (["--served_model_name=x"], "--served-model-name"),
    (["--gpu_memory_utilization", "0.5"], "--gpu-memory-utilization"),
    (["--port=9000"], "--port"),
    (["--por", "9000"], "--port"),
    (["--model", "org/other"], "--model"),
    (["--model=org/other"], "--model"),
    (["--shutdown_timeout", "5"], "--shutdown-timeout"),
    (["--shutdown-t=5"], "--shutdown-timeout"),
]
# Flags that are not managed, in the spellings users write them.
FREE_ARGS = [
    ["--enable-prefix-caching"],
    ["--max-num-seqs=8"],
    ["--max_num_seqs", "8"],
    ["--model-impl", "vllm"],
    ["-O3"],
    ["--compilation-config.level", "3"],
    ["--kv-cache-dtype", "fp8"],
    ["--seed", "-1"],
]


@pytest.mark.parametrize(("args", "flag"), MANAGED_SPELLINGS, ids=[" ".join(a) for a, _ in MANAGED_SPELLINGS])
def test_every_spelling_of_a_managed_flag_is_read_as_that_flag_and_rejected(args, flag):
    [setting] = vllm_parser.read(args).settings
    assert flag in setting.option.flags
    [problem] = vllm_flags.check(args).problems
    assert problem.index == 0
    assert "flag set by settings" in problem.message
    with pytest.raises(ValueError, match="flag set by settings"):
        VllmSettings(extra_args=args)


@pytest.mark.parametrize(("arg", "flag"), [("--po", "--port"), ("--mod", "--model"), ("--t", "--tensor-parallel-size")])
def test_a_prefix_of_a_managed_flag_that_names_others_too_is_refused_as_ambiguous(arg, flag):
    # argparse refuses a prefix of several options ("ambiguous option"), so it cannot reach the managed one.
    [problem] = vllm_flags.check([arg, "x"]).problems
    assert f"ambiguous flag {arg!r}: a prefix of " in problem.message
    assert flag in problem.message
    assert "ambiguous option" in vllm_parser.argparse_error("org/model", [arg, "x"])


@pytest.mark.parametrize("args", FREE_ARGS, ids=[" ".join(a) for a in FREE_ARGS])
def test_flags_the_settings_do_not_own_pass_through_unchanged(args):
    assert container_args(VllmSettings(extra_args=args))[-len(args) :] == args


READINGS = [
    (["--max_num_seqs=8"], "max_num_seqs", 8),
    (["--compilation_config.cudagraph_mode", "NONE"], "compilation_config", {"cudagraph_mode": "NONE"}),
    (
        ["--compilation_config.pass_config.fuse_norm_quant", "true"],
        "compilation_config",
        {"pass_config": {"fuse_norm_quant": True}},
    ),
    (
        ["--compilation-config.mode=3", "--compilation_config.cudagraph_capture_sizes+", "1,2"],
        "compilation_config",
        {"mode": 3, "cudagraph_capture_sizes": ["1", "2"]},
    ),
    (["-asc", "2"], "api_server_count", 2),
    (["-O3"], "optimization_level", "3"),
    (["-O=3"], "optimization_level", "3"),
    (["-O", "2"], "optimization_level", "2"),
    (["--seed", "-1"], "seed", -1),
    (["--no-enable-prefix-caching"], "enable_prefix_caching", False),
    (["--enable-prefix-caching"], "enable_prefix_caching", True),
    (["--max-num-batched-tokens", "2k"], "max_num_batched_tokens", 2000),
    (["--moe-backend", "Flashinfer-Cutlass"], "moe_backend", "flashinfer_cutlass"),
    (["-qfp8"], "quantization", "fp8"),
]


@pytest.mark.parametrize(("args", "dest", "value"), READINGS, ids=[" ".join(args) for args, _, _ in READINGS])
def test_extra_args_are_read_as_vllms_parser_reads_them(args, dest, value):
    # vLLM v0.32.0 FlexibleArgumentParser.parse_args rewrites `_` to `-`, `-O3` to --optimization-level and
    # `--flag.key value` to JSON; argparse reads one-letter options glued to their value (`-qfp8`).
    reading = vllm_parser.read(args)
    assert reading.problems == ()
    assert {setting.option.dest: setting.value for setting in reading.settings} == {dest: value}
    assert vllm_parser.argparse_error("org/model", args) is None


@pytest.mark.parametrize(
    "arg",
    ["--compilation_conf.level", "--compilation-c.pass_config.fuse_norm_quant", "--compilation_config.a.b=1"],
)
def test_a_prefix_of_a_json_flag_with_keys_is_read_as_that_flag(arg):
    # `--flag.key value` sets one key of a JSON flag; with `_` for `-` and an abbreviated name it is still that
    # flag (vLLM v0.32.0 FlexibleArgumentParser.parse_args, argparse allow_abbrev).
    args = [arg] if "=" in arg else [arg, "1"]
    [setting] = vllm_parser.read(args).settings
    assert setting.option.dest == "compilation_config"
    assert isinstance(setting.value, dict)


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--api-key", "k"], id="--api-key with a separate value is rejected"),
        pytest.param(["--api_key=k"], id="--api_key with an underscore and equals sign is rejected"),
        pytest.param(["--api-k", "k"], id="--api-k abbreviated as argparse allows is rejected"),
    ],
)
def test_api_key_in_extra_args_is_rejected_pointing_at_the_secret_config(args):
    with pytest.raises(ValueError, match="secret flag in .*pulumi config set --secret vllmApiKey"):
        VllmSettings(extra_args=args)


@pytest.mark.parametrize(
    "args", [["--hf-token", "hf_abc"], ["--hf_token=hf_abc"]], ids=["flag and value", "underscores and ="]
)
def test_hf_token_in_extra_args_is_rejected_pointing_at_the_secret_config(args):
    with pytest.raises(ValueError, match="secret flag in .*pulumi config set --secret hfToken"):
        VllmSettings(extra_args=args)


def server_container(run: ProgramRun) -> dict:
    [deployment] = [d for d in run.of_type(DEPLOYMENT) if d.inputs["metadata"]["name"] == "vllm-server"]
    [container] = deployment.inputs["spec"]["template"]["spec"]["containers"]
    return container


def test_api_key_reaches_vllm_only_through_a_secret_and_no_registered_input_holds_it(stack):
    run = stack({"vllmApiKey": KEY}, secret_keys=("vllmApiKey",))
    [secret] = [r for r in run.of_type(SECRET) if r.inputs["metadata"]["name"].endswith("-api-key")]
    assert isinstance(secret.inputs["stringData"], Secret)
    assert secret.inputs["stringData"].value == {"api-key": KEY}
    container = server_container(run)
    [variable] = [v for v in container["env"] if v["name"] == "VLLM_API_KEY"]
    assert variable == {
        "name": "VLLM_API_KEY",
        "valueFrom": {"secretKeyRef": {"name": secret.inputs["metadata"]["name"], "key": "api-key"}},
    }
    assert secret.inputs["metadata"]["namespace"] == "vllm"
    assert not any(arg.startswith("--api-key") for arg in container["args"])
    leaks = [
        (resource.type, resource.name)
        for resource in run.resources
        if any(KEY in text for text in plain_strings(resource.inputs))
    ]
    assert leaks == []
    assert all(KEY not in str(value) for value in run.outputs.values())


def test_api_key_in_plain_config_is_refused_before_any_resource(stack):
    from components.settings import ConfigError
    from components.stackcheck.runtime import ProgramRun

    run = ProgramRun()
    with pytest.raises(ConfigError, match="vllmApiKey: is set in plain text") as error:
        stack({"vllmApiKey": KEY}, run=run)
    assert KEY not in str(error.value)
    assert run.resources == []


def test_no_api_key_secret_or_variable_without_the_key(dev_run):
    assert not [r for r in dev_run.of_type(SECRET) if r.inputs["metadata"]["name"].endswith("-api-key")]
    assert all(v["name"] != "VLLM_API_KEY" for v in server_container(dev_run)["env"])


def test_secure_api_key_in_a_stack_file_is_planned_redacted_and_never_printed(capsys, tmp_path):
    from pathlib import Path

    from components.stackcheck.__main__ import main
    from components.stackcheck.plan.render import REDACTED

    root = Path(__file__).resolve().parents[2]
    code = main(
        [
            "plan",
            "--project-dir",
            str(root),
            "--stack-file",
            str(root / "tests" / "stacks" / "Pulumi.secret-api-key.yaml"),
            "--out",
            str(tmp_path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    ciphertext = "c2VjcmV0LWNpcGhlcnRleHQtbmV2ZXItc2hvd24"
    assert ciphertext not in out
    secret = (tmp_path / "vllm.secret.vllm-server-api-key.yaml").read_text()
    assert f"api-key: '{REDACTED}'" in secret
    deployment = (tmp_path / "vllm.deployment.vllm-server.yaml").read_text()
    assert (
        "name: VLLM_API_KEY\n          valueFrom:\n            secretKeyRef:\n              key: api-key\n"
        "              name: vllm-server-api-key" in deployment
    )
    assert all(ciphertext not in path.read_text() for path in tmp_path.glob("*.yaml"))
