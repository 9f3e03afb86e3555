"""Values YAML reads that the Pulumi CLI cannot hand to the program, refused naming the key the user wrote and
what is allowed; and `--format json` answers with a JSON document whatever stage refused.

The CLI passes the config to the program as JSON (`PULUMI_CONFIG`), and JSON has no infinity or NaN (RFC 8259,
section 6: "Numeric values that cannot be represented ... (such as Infinity and NaN) are not permitted"); YAML 1.2's
core schema reads `.inf`, `-.Inf` and `.NaN` as those numbers (YAML 1.2.2, 10.3.2 "Tag Resolution").

An unquoted date or time is a Go time to yaml.v3 (go-yaml/yaml v3.0.1 resolve.go, `parseTimestamp` with the layouts
`2006-1-2T15:4:5.999999999Z07:00`, `2006-1-2 15:4:5.999999999` and `2006-1-2`), and the CLI turns a `time.Time`
into `v.String()` (pulumi/pulumi sdk/go/common/resource/config/object.go, `unmarshalObject`), Go's layout
"2006-01-02 15:04:05.999999999 -0700 MST" (Go's time package, `Time.String`): `2026-01-01` reaches the program as
`2026-01-01 00:00:00 +0000 UTC`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from components.settings import ConfigError, parse_settings
from components.settings.reader import parse_stack_config
from components.stackcheck.__main__ import main
from components.stackcheck.stack_yaml import StackYamlError, load

ROOT = Path(__file__).resolve().parents[2]
_ALLOWED = "allowed: a finite number, or '{0}' in quotes where the key takes text"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param(
            "config:\n  eks-gpu-inference:vllm:\n    gpuMemoryUtilization: .inf\n",
            "line 3, eks-gpu-inference:vllm.gpuMemoryUtilization: .inf is infinity",
            id="infinity in a section",
        ),
        pytest.param(
            "config:\n  eks-gpu-inference:cost:\n    monthlyBudgetUsd: -.Inf\n",
            "line 3, eks-gpu-inference:cost.monthlyBudgetUsd: -.Inf is infinity",
            id="minus infinity",
        ),
        pytest.param(
            "config:\n  eks-gpu-inference:vllm:\n    extraArgs: [--x, .NaN]\n",
            "line 3, eks-gpu-inference:vllm.extraArgs[1]: .NaN is not a number (NaN)",
            id="NaN in a list",
        ),
        pytest.param(
            "config:\n  eks-gpu-inference:vllm:\n    replicas: !!float .inf\n",
            "line 3, eks-gpu-inference:vllm.replicas: .inf is infinity",
            id="tagged as a float",
        ),
    ],
)
def test_a_number_json_cannot_hold_is_refused_naming_its_key(text, problem):
    with pytest.raises(StackYamlError) as raised:
        load(text)
    (said,) = raised.value.problems
    written = problem.split(": ")[1].split()[0]
    assert said == (
        f"{problem}, which the Pulumi CLI cannot hand to the program, since it passes the config as JSON and JSON "
        f"has no such number; {_ALLOWED.format(written)}"
    )


_QUOTE_IT = "not as written; allowed: '{0}' in quotes, which keeps it text (no setting takes a date or time)"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param(
            "config:\n  eks-gpu-inference:vllm:\n    revision: 2026-01-01\n",
            "line 3, eks-gpu-inference:vllm.revision: YAML reads 2026-01-01 as a date, and the Pulumi CLI hands it to "
            "the program as the text '2026-01-01 00:00:00 +0000 UTC'",
            id="a revision that is a date",
        ),
        pytest.param(
            "config:\n  eks-gpu-inference:models:\n    - name: a\n      revision: 2026-1-2\n",
            "line 4, eks-gpu-inference:models[0].revision: YAML reads 2026-1-2 as a date, and the Pulumi CLI hands it "
            "to the program as the text '2026-01-02 00:00:00 +0000 UTC'",
            id="one-digit month and day, in a list",
        ),
        pytest.param(
            "config:\n  eks-gpu-inference:cost:\n    monthlyBudgetUsd: 2026-01-01T10:00:00.50Z\n",
            "line 3, eks-gpu-inference:cost.monthlyBudgetUsd: YAML reads 2026-01-01T10:00:00.50Z as a date and time, "
            "and the Pulumi CLI hands it to the program as the text '2026-01-01 10:00:00.5 +0000 UTC'",
            id="a date and time where a number is expected",
        ),
        pytest.param(
            "config:\n  eks-gpu-inference:vllm:\n    revision: 2026-01-01T10:00:00+02:00\n",
            "line 3, eks-gpu-inference:vllm.revision: YAML reads 2026-01-01T10:00:00+02:00 as a date and time, and the "
            "Pulumi CLI hands it to the program as Go's text of that time, in the CLI's zone",
            id="an offset: the CLI's own zone decides the text",
        ),
        pytest.param(
            "config:\n  eks-gpu-inference:vllm:\n    revision: !!timestamp 2026-01-01\n",
            "line 3, eks-gpu-inference:vllm.revision: YAML reads 2026-01-01 as a date, and the Pulumi CLI hands it to "
            "the program as the text '2026-01-01 00:00:00 +0000 UTC'",
            id="tagged as a timestamp",
        ),
    ],
)
def test_an_unquoted_date_is_refused_naming_its_key_and_the_quotes(text, problem):
    with pytest.raises(StackYamlError) as raised:
        load(text)
    (said,) = raised.value.problems
    written = problem.split("YAML reads ")[1].split()[0]
    assert said == f"{problem}, {_QUOTE_IT.format(written)}"


@pytest.mark.parametrize(
    ("go_text", "written"),
    [
        pytest.param("2026-01-01 00:00:00 +0000 UTC", "'2026-01-01'", id="a date"),
        pytest.param("2026-01-01 10:00:00 +0200 +0200", "the value as written", id="a time at an offset"),
    ],
)
def test_the_programs_own_reading_refuses_the_clis_text_of_a_date_once(go_text, written):
    # What `pulumi up` hands the program for `revision: 2026-01-01`: one problem on the key, not also the git-ref
    # rule's answer to the space and ':' of Go's text.
    with pytest.raises(ConfigError) as error:
        parse_stack_config({"eks-gpu-inference:vllm": {"revision": go_text}})
    [problem] = error.value.problems
    assert (problem.key, problem.message) == (
        "vllm.revision",
        f"{go_text!r} is the Pulumi CLI's text of a date: the stack file has it unquoted, so YAML read it as a date, "
        f"not as text; allowed: {written} in quotes in the stack file (no setting takes a date or time)",
    )


def test_a_secret_that_looks_like_a_date_is_never_quoted_back():
    with pytest.raises(ConfigError) as error:
        parse_stack_config({"eks-gpu-inference:hfToken": "2026-01-01 00:00:00 +0000 UTC"})
    assert "2026-01-01" not in str(error.value)


def test_the_same_text_in_quotes_is_text():
    assert load("key: '.inf'\n") == {"key": ".inf"}


def test_every_such_number_is_refused_at_once_in_file_order():
    with pytest.raises(StackYamlError) as raised:
        load("config:\n  a: .nan\n  b:\n    c: .inf\n  d: 1\n  d: 2\n")
    assert [problem.split(":")[0] for problem in raised.value.problems] == ["line 2, a", "line 4, b.c", "line 6"]


def _plan_json(capsys, tmp_path: Path, *args: str) -> tuple[int, dict, str]:
    code = main(["plan", "--project-dir", str(ROOT), "--out", str(tmp_path / "out"), "--format", "json", *args])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def test_json_format_prints_a_document_when_the_stack_file_is_refused(capsys, tmp_path):
    stack_file = tmp_path / "Pulumi.inf.yaml"
    stack_file.write_text("config:\n  eks-gpu-inference:vllm:\n    gpuMemoryUtilization: .inf\n")

    code, document, err = _plan_json(capsys, tmp_path, "--stack-file", str(stack_file))

    assert code == 2 and document["exitCode"] == 2 and document["stage"] == "input"
    assert document["failures"] == [line.removeprefix("stackcheck plan: error: ") for line in err.splitlines()]
    assert "eks-gpu-inference:vllm.gpuMemoryUtilization: .inf is infinity" in document["failures"][0]
    assert document["summary"] == {
        "line": "FAILED (exit 2): 1 problem(s) before the plan ran",
        "exitCode": 2,
        "failedChecks": 1,
    }


def test_json_format_prints_a_document_when_a_path_is_refused(capsys, tmp_path):
    code, document, _ = _plan_json(capsys, tmp_path, "--stack-file", str(tmp_path / "absent.yaml"))
    assert code == 2 and document["failures"] == [
        f"stack file {tmp_path / 'absent.yaml'} does not exist; allowed: a Pulumi.<stack>.yaml file"
    ]


def test_json_format_prints_a_document_on_an_internal_error(capsys, monkeypatch, tmp_path):
    from components.stackcheck.plan import run as plan_module

    def broken(options):
        raise RuntimeError("placement table is corrupt")

    monkeypatch.setattr(plan_module, "run_plan", broken)
    code, document, _ = _plan_json(capsys, tmp_path)
    assert code == 3 and document["stage"] == "internal"
    assert document["failures"] == ["internal error: RuntimeError: placement table is corrupt"]


def test_json_format_of_an_invalid_setting_is_the_whole_report(capsys, tmp_path):
    stack_file = tmp_path / "Pulumi.big.yaml"
    # 2**70 is past Go's int64 and uint64, so yaml.v3 reads it as a float; the setting takes an integer.
    stack_file.write_text(f"config:\n  eks-gpu-inference:vllm:\n    replicas: {2**70}\n")
    code, document, _ = _plan_json(capsys, tmp_path, "--stack-file", str(stack_file))
    assert code == 2
    assert [problem["key"] for problem in document["configProblems"]] == ["vllm.replicas"]


@pytest.mark.parametrize(
    ("written", "read"),
    [
        # Past int64 (9223372036854775807) and uint64 (18446744073709551615), yaml.v3's resolve falls back to
        # strconv.ParseFloat: the setting receives a float.
        pytest.param("100000000000000000000000", "1e+23", id="10**23"),
        pytest.param("-9223372036854775809", "-9.223372036854776e+18", id="one below int64"),
    ],
)
def test_a_whole_number_past_64_bits_is_refused_saying_why_it_is_no_integer(written, read):
    value = load(f"x: {written}\n")["x"]
    assert isinstance(value, float)
    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"replicas": value}})
    [problem] = error.value.problems
    assert (problem.key, problem.message) == (
        "vllm.replicas",
        f"{read} is a whole number past 64 bits, which YAML reads as a floating-point number; allowed: an integer",
    )
