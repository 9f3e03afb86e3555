"""Keys and values of a stack config as the Pulumi CLI hands them over: this project's keys under other
namespaces, dotted keys, and `secure:` values (their ciphertext's shape, and where they cannot be checked)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from components.facts.identity import PROJECT
from components.settings import ConfigError, namespace_warnings, parse_stack_config
from components.stackcheck.__main__ import main
from components.stackcheck.stack_config import ciphertext_problem

ROOT = Path(__file__).resolve().parents[2]
NONCE = base64.b64encode(b"twelve-bytes").decode()
SEALED = base64.b64encode(b"sixteen or more bytes").decode()
CIPHERTEXT = f"v1:{NONCE}:{SEALED}"


def problems_of(config: dict, secret_keys: tuple[str, ...] = ()) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        parse_stack_config(config, secret_keys)
    return [str(problem) for problem in raised.value.problems]


@pytest.mark.parametrize("key", ["vllmApiKey", "hfToken"])
@pytest.mark.parametrize("namespace", ["otherproject", "aws"])
def test_a_secret_key_under_another_namespace_is_an_error_naming_it(namespace, key):
    (problem,) = problems_of({f"{namespace}:{key}": "[secret]"}, (f"{namespace}:{key}",))

    assert problem.startswith(f"{namespace}:{key}: this project's secret {key} under namespace {namespace!r}")
    assert f"allowed: {PROJECT}:{key}" in problem


@pytest.mark.parametrize(
    ("key", "warning"),
    [
        pytest.param(
            "otherproject:vllm",
            "otherproject:vllm: 'vllm' is a key of this project under namespace 'otherproject', which this program "
            f"does not read; it reads {PROJECT}:vllm (pulumi config set vllm <value>)",
            id="section",
        ),
        pytest.param(
            "team:network.cidr",
            "team:network.cidr: 'network' is a key of this project under namespace 'team', which this program "
            f"does not read; it reads {PROJECT}:network.cidr (pulumi config set --path 'network.cidr' <value>)",
            id="dotted: set as a path, since the dotted key itself is refused",
        ),
        pytest.param(
            "aws:gpuNodeGroup",
            "aws:gpuNodeGroup: 'gpuNodeGroup' is a key of this project under namespace 'aws', which this program "
            f"does not read; it reads {PROJECT}:gpuNodeGroup (pulumi config set gpuNodeGroup <value>)",
            id="provider namespace",
        ),
    ],
)
def test_a_key_of_this_project_under_another_namespace_is_a_warning_naming_it(key, warning):
    config = {key: {"model": "x"}, "aws:region": "us-west-2"}

    assert namespace_warnings(config) == [warning]
    settings = parse_stack_config(config)  # not an error: the key may be another program's own
    assert settings.vllm.model != "x"


def test_the_command_a_dotted_key_warning_suggests_writes_a_key_the_settings_accept():
    (warning,) = namespace_warnings({"team:network.cidr": "10.1.0.0/16"})
    suggested = warning.rsplit("(", 1)[1].rstrip(")")

    assert suggested == "pulumi config set --path 'network.cidr' <value>"
    # What that command stores: the value inside the network object, which parses; the dotted key itself is refused.
    assert parse_stack_config({f"{PROJECT}:network": {"cidr": "10.1.0.0/16"}}).network.cidr == "10.1.0.0/16"
    with pytest.raises(ConfigError, match="Pulumi takes a dotted key as one name"):
        parse_stack_config({f"{PROJECT}:network.cidr": "10.1.0.0/16"})


@pytest.mark.parametrize(
    "key",
    [
        pytest.param("aws:region", id="provider key"),
        pytest.param("kubernetes:cluster", id="pulumi-kubernetes' own cluster key"),
        pytest.param(f"{PROJECT}:vllm", id="this project"),
        pytest.param("eks-gpu-infrence:vllm", id="misspelt project: an error instead"),
    ],
)
def test_keys_that_are_not_misplaced_get_no_namespace_warning(key):
    assert namespace_warnings({key: "x"}) == []


@pytest.mark.parametrize(
    ("key", "head", "rest"),
    [
        pytest.param("network.cidr", "network", "cidr", id="section field"),
        pytest.param("vllm.extraArgs.0", "vllm", "extraArgs.0", id="list position"),
        pytest.param("gpuNodeGroup.extraLabels.team", "gpuNodeGroup", "extraLabels.team", id="map key"),
    ],
)
def test_a_dotted_key_gets_the_path_form_of_pulumi_config_set(key, head, rest):
    (problem,) = problems_of({f"{PROJECT}:{key}": "10.1.0.0/16"})

    assert problem == (
        f"{PROJECT}:{key}: unknown key {key!r}: Pulumi takes a dotted key as one name, not a path; allowed: {rest} "
        f"inside {head}, as pulumi config set --path '{key}' <value> writes it"
    )


def test_a_dotted_key_of_no_section_stays_an_unknown_key():
    (problem,) = problems_of({f"{PROJECT}:netwrk.cidr": "10.1.0.0/16"})

    assert problem.startswith(f"{PROJECT}:netwrk.cidr: unknown key") and "--path" not in problem


@pytest.mark.parametrize(
    ("ciphertext", "reason"),
    [
        pytest.param(CIPHERTEXT, None, id="passphrase or cloud provider"),
        pytest.param(SEALED, None, id="Pulumi Cloud base64"),
        pytest.param("", "it is empty", id="empty"),
        pytest.param("[secret]", "neither v1:<nonce>:<ciphertext> nor standard base64", id="placeholder text"),
        pytest.param("v1:abc", "it has 2 parts", id="v1 with two parts"),
        pytest.param(f"v1:{NONCE}:not base64!", "not standard base64", id="v1 ciphertext not base64"),
        pytest.param(f"v1:{SEALED}:{SEALED}", "its nonce is 21 bytes", id="v1 nonce of the wrong size"),
        pytest.param(f"v1:{NONCE}:{NONCE}", "its ciphertext is 12 bytes", id="v1 ciphertext shorter than the tag"),
    ],
)
def test_ciphertext_shape_is_the_one_pulumi_writes(ciphertext, reason):
    found = ciphertext_problem(ciphertext)

    assert found == reason if reason is None else reason in found


def plan_json(capsys, tmp_path: Path, config_yaml: str) -> tuple[int, dict]:
    stack_file = tmp_path / "Pulumi.case.yaml"
    stack_file.write_text("config:\n" + config_yaml)
    code = main(
        ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "o")]
        + ["--format", "json"]
    )
    return code, json.loads(capsys.readouterr().out)


def test_secure_value_in_a_key_that_holds_no_secret_is_explained_not_judged(capsys, tmp_path):
    code, document = plan_json(
        capsys,
        tmp_path,
        f"  {PROJECT}:network:\n    cidr:\n      secure: {CIPHERTEXT}\n  {PROJECT}:vllm:\n    replicas: -1\n",
    )

    assert code == 2
    problems = {problem["key"]: problem["message"] for problem in document["configProblems"]}
    assert set(problems) == {f"{PROJECT}:network.cidr", "vllm.replicas"}
    assert "cannot be checked offline" in problems[f"{PROJECT}:network.cidr"]
    assert "pulumi config set --path 'network.cidr' <value>" in problems[f"{PROJECT}:network.cidr"]
    assert "[secret" not in json.dumps(document["configProblems"])  # the placeholder is never judged


def test_secure_value_that_is_not_ciphertext_is_refused_without_showing_it(capsys, tmp_path):
    code, document = plan_json(capsys, tmp_path, f"  {PROJECT}:hfToken:\n    secure: hf_plaintexttoken\n")

    assert code == 2
    (problem,) = document["configProblems"]
    assert problem["key"] == f"{PROJECT}:hfToken" and "is not Pulumi ciphertext" in problem["message"]
    assert "hf_plaintexttoken" not in json.dumps(document)


def test_secure_value_of_another_project_is_checked_for_shape(capsys, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "Pulumi.yaml").write_text("name: other-project\nruntime: python\n")
    (project / "__main__.py").write_text("")
    (project / "Pulumi.dev.yaml").write_text("config:\n  other-project:password:\n    secure: plain words\n")

    code = main(["plan", "--project-dir", str(project), "--out", str(tmp_path / "o"), "--format", "json"])
    document = json.loads(capsys.readouterr().out)

    assert code == 2
    assert [problem["key"] for problem in document["configProblems"]] == ["other-project:password"]


def test_a_key_under_another_namespace_is_warned_about_by_the_plan(capsys, tmp_path):
    code, document = plan_json(capsys, tmp_path, "  otherproject:vllm:\n    model: Qwen/Qwen2.5-0.5B\n")

    assert code == 0
    assert any(
        warning.startswith("otherproject:vllm: 'vllm' is a key of this project") for warning in document["warnings"]
    )


def test_each_config_problem_is_printed_once_on_a_terminal(capsys, tmp_path):
    stack_file = ROOT / "tests" / "stacks" / "Pulumi.bad-several.yaml"
    code = main(["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path)])
    out = capsys.readouterr().out

    assert code == 2
    for problem in ("cluster.version: unsupported version", "systemNodeGroup.minSize: 0", "taintEffect: PreferNo"):
        assert out.count(problem) == 1
