"""`vllm.extraArgs` read as vLLM's parser reads them, and the API key kept out of every plain input."""

from __future__ import annotations

import pytest
from conftest import plain_strings

from components import vllm_flags
from components.facts.resource_types import DEPLOYMENT, SECRET
from components.settings import VLLM_MANAGED_FLAGS, VllmSettings
from components.stackcheck.runtime import ProgramRun, Secret
from components.vllm_manifests import container_args

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
    (["--po", "9000"], "--port"),
    (["--model", "org/other"], "--model"),
    (["--model=org/other"], "--model"),
    (["--mod", "org/other"], "--model"),
    (["--shutdown_timeout", "5"], "--shutdown-timeout"),
]
# Flags that are not managed, in the spellings users write them.
FREE_ARGS = [
    ["--enable-prefix-caching"],
    ["--max-num-seqs=8"],
    ["--max_num_seqs", "8"],
    ["--model-impl", "vllm"],
    ["-pp", "2"],
    ["-O3"],
    ["--compilation-config.level", "3"],
    ["--kv-cache-dtype", "fp8"],
    ["--seed", "-1"],
]


@pytest.mark.parametrize(("args", "flag"), MANAGED_SPELLINGS, ids=[" ".join(a) for a, _ in MANAGED_SPELLINGS])
def test_every_spelling_of_a_managed_flag_is_read_as_that_flag_and_rejected(args, flag):
    assert vllm_flags.settings_flag(args[0], VLLM_MANAGED_FLAGS) == flag
    with pytest.raises(ValueError, match="flag set by settings"):
        VllmSettings(extra_args=args)


@pytest.mark.parametrize("args", FREE_ARGS, ids=[" ".join(a) for a in FREE_ARGS])
def test_flags_the_settings_do_not_own_pass_through_unchanged(args):
    assert container_args(VllmSettings(extra_args=args))[-len(args) :] == args


@pytest.mark.parametrize(
    ("arg", "canonical"),
    [
        ("--max_num_seqs=8", "--max-num-seqs"),
        ("--compilation_config.cudagraph_mode", "--compilation-config"),
        ("--compilation_config.pass_config.fuse_norm_quant", "--compilation-config"),
        ("--served_model_name=team=a", "--served-model-name"),
        ("-tp", "--tensor-parallel-size"),
        ("-asc", "--api-server-count"),
        ("-O3", "--optimization-level"),
        ("-O=3", "--optimization-level"),
        ("org/model", None),
        # A lone `-` is a value (argparse reads it as a positional argument).
        ("-", None),
        ("-1", None),
        ("0.5", None),
    ],
)
def test_canonical_flag_undoes_vllms_spellings(arg, canonical):
    assert vllm_flags.canonical_flag(arg) == canonical


@pytest.mark.parametrize(
    "arg",
    ["--compilation_conf.level", "--compilation-c.pass_config.fuse_norm_quant", "--compilation_config.a.b=1"],
)
def test_a_prefix_of_a_json_flag_with_keys_is_read_as_that_flag(arg):
    # `--flag.key value` sets one key of a JSON flag; with `_` for `-` and an abbreviated name it is still that
    # flag (vLLM v0.32.0 FlexibleArgumentParser.parse_args, argparse allow_abbrev), so a managed JSON flag
    # could not be overridden that way.
    assert vllm_flags.settings_flag(arg, ("--compilation-config", "--max-model-len")) == "--compilation-config"


@pytest.mark.parametrize("arg", ["--", "--=x", "-=1", "-"])
def test_dashes_without_a_name_set_no_flag(arg):
    # `--` ends the options for argparse; a bare dash names nothing. Neither is a prefix of a managed flag.
    assert vllm_flags.settings_flag(arg, VLLM_MANAGED_FLAGS) is None


def test_the_shortest_long_prefix_names_a_flag():
    # One letter after `--` is already a prefix argparse expands when it names one option only.
    assert vllm_flags.settings_flag("--s=1", ("--shutdown-timeout",)) == "--shutdown-timeout"


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

    root = Path(__file__).resolve().parent.parent
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
