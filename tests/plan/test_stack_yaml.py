"""Stack files read as the Pulumi CLI reads them (yaml.v3): what each scalar becomes, duplicate keys, aliases
and nesting, and what the plan answers with such a file."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from components.stackcheck.__main__ import main
from components.stackcheck.stack_config import InvalidFileError, load_stack_config
from components.stackcheck.stack_yaml import MAX_DEPTH, StackYamlError, load

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("written", "read"),
    [
        pytest.param("1:30", "1:30", id="no base-60 numbers"),
        pytest.param("NO", "NO", id="NO is text"),
        pytest.param("yes", "yes", id="yes is text"),
        pytest.param("on", "on", id="on is text"),
        # Not dates to Go's time.Parse (yaml.v3's parseTimestamp): no 30 February, no time without a zone after T.
        pytest.param("2024-02-30", "2024-02-30", id="a day February lacks is text"),
        pytest.param("2024-01-02T10:00:00", "2024-01-02T10:00:00", id="T and no zone is text"),
        pytest.param("'2024-01-02'", "2024-01-02", id="a quoted date is text"),
        pytest.param("True", True, id="True is a boolean"),
        pytest.param("FALSE", False, id="FALSE is a boolean"),
        pytest.param("~", None, id="tilde is null"),
        pytest.param("Null", None, id="Null is null"),
        pytest.param("0x1F", 31, id="hex"),
        pytest.param("0o17", 15, id="YAML 1.2 octal"),
        pytest.param("017", 15, id="leading-zero octal as Go reads it"),
        pytest.param("0b101", 5, id="binary"),
        pytest.param("1_000", 1000, id="underscores dropped"),
        pytest.param("+12", 12, id="plus sign"),
        pytest.param("18446744073709551615", 2**64 - 1, id="uint64 range"),
        pytest.param("99999999999999999999", 1e20, id="beyond uint64 is a float"),
        pytest.param("1e3", 1000.0, id="exponent without a dot is a float"),
        pytest.param(".5", 0.5, id="leading dot"),
        pytest.param("1.", 1.0, id="trailing dot"),
        pytest.param("08", 8.0, id="08 is no octal, so a float"),
        pytest.param("1e400", "1e400", id="overflowing float stays text"),
        pytest.param("'1:30'", "1:30", id="quoted stays text"),
        pytest.param("!!str 12", "12", id="str tag"),
        pytest.param("!!int 0x10", 16, id="int tag"),
        pytest.param("!!float 2", 2.0, id="float tag on an integer"),
        pytest.param("!custom text", "text", id="unknown tag keeps the value"),
        pytest.param("!!binary aGVsbG8=", "hello", id="binary decoded"),
    ],
)
def test_scalars_read_as_yaml_v3_reads_them(written, read):
    value = load(f"key: {written}\n")["key"]

    assert value == read and type(value) is type(read)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("key: !!int 1.5\n", "cannot read '1.5' as an integer", id="int tag on a float"),
        pytest.param("key: !!bool yes\n", "cannot read 'yes' as true or false", id="bool tag on yes"),
    ],
)
def test_scalars_the_cli_refuses_are_refused(text, message):
    with pytest.raises(yaml.YAMLError, match=message):
        load(text)


def test_merge_keys_and_aliases_expand_as_values():
    assert load("base: &b {a: 1}\nother:\n  <<: *b\n  c: 2\ncopy: *b\n") == {
        "base": {"a": 1},
        "other": {"a": 1, "c": 2},
        "copy": {"a": 1},
    }


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        pytest.param(
            "a: 1\nb: 2\na: 3\n",
            ["line 3: key 'a' is already defined at line 1"],
            id="top level",
        ),
        pytest.param(
            "outer:\n  x: 1\n  x: 2\nlast: {y: 1, y: 2}\n",
            ["line 3: key 'x' is already defined at line 2", "line 4: key 'y' is already defined at line 4"],
            id="nested and flow, in file order",
        ),
        pytest.param("a: 1\n'a': 2\n", ["line 2: key 'a' is already defined at line 1"], id="quoted is the same key"),
    ],
)
def test_duplicate_keys_are_refused_naming_the_key_and_both_lines(text, problems):
    with pytest.raises(StackYamlError) as raised:
        load(text)

    assert [problem.split(";")[0] for problem in raised.value.problems] == problems
    assert all("allowed: each key once in a mapping" in problem for problem in raised.value.problems)


def billion_laughs(levels: int) -> str:
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 10)}]" for n in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_refused_at_once():
    started = time.perf_counter()
    with pytest.raises(StackYamlError, match="excessive aliasing"):
        load(billion_laughs(9))

    assert time.perf_counter() - started < 1


def test_a_few_aliases_expand_within_the_limit():
    document = load(billion_laughs(2))

    assert document["l1"] == [["lol"] * 10] * 10


@pytest.mark.parametrize(
    ("text", "match"),
    [
        pytest.param("a: &a [*a]\n", "contains an alias to itself", id="self alias"),
        pytest.param("a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n", "nested more than", id="deep flow"),
        pytest.param("a: " + "[" * 200_000 + "\n", "nested more than", id="deep and unclosed"),
    ],
)
def test_recursive_and_deep_documents_are_refused(text, match):
    with pytest.raises(StackYamlError, match=match):
        load(text)


def test_nesting_up_to_the_limit_reads():
    depth = MAX_DEPTH - 1
    assert load("a: " + "[" * depth + "]" * depth + "\n") is not None


def plan(capsys, stack_file: Path, tmp_path: Path, *extra: str) -> tuple[int, str, str]:
    code = main(
        ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "o"), *extra]
    )
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_duration_written_like_base_60_is_judged_as_written(capsys, tmp_path):
    stack_file = tmp_path / "Pulumi.clock.yaml"
    stack_file.write_text("config:\n  eks-gpu-inference:autoscaler:\n    scaleDownUnneededTime: 1:30\n")

    code, out, err = plan(capsys, stack_file, tmp_path, "--format", "json")

    assert code == 2 and "Traceback" not in err
    # Read as YAML 1.1's base 60 the value would be the integer 90; the problem must quote the text as written.
    problems = {p["key"]: p["message"] for p in json.loads(out)["configProblems"]}
    assert "in duration '1:30'" in problems["autoscaler.scaleDownUnneededTime"]
    assert " 90" not in out


def test_a_boolean_written_no_is_refused_as_text(capsys, tmp_path):
    stack_file = tmp_path / "Pulumi.no.yaml"
    stack_file.write_text("config:\n  eks-gpu-inference:devicePlugin:\n    enabled: NO\n")

    code, out, _ = plan(capsys, stack_file, tmp_path)

    assert code == 2
    assert "eks-gpu-inference:devicePlugin.enabled" in out and "'NO'" in out


def test_duplicate_keys_in_a_stack_file_exit_2_one_line_each(capsys, tmp_path):
    stack_file = tmp_path / "Pulumi.twice.yaml"
    stack_file.write_text(
        "config:\n  eks-gpu-inference:vllm:\n    model: a\n    model: b\n  eks-gpu-inference:vllm: {}\n"
    )

    code, out, err = plan(capsys, stack_file, tmp_path)

    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"stackcheck plan: error: {stack_file}: line 4: key 'model' is already defined at line 3; allowed: each key "
        "once in a mapping (the Pulumi CLI refuses the file)",
        f"stackcheck plan: error: {stack_file}: line 5: key 'eks-gpu-inference:vllm' is already defined at line 2; "
        "allowed: each key once in a mapping (the Pulumi CLI refuses the file)",
    ]


def test_billion_laughs_stack_file_exits_2_without_hanging(capsys, tmp_path):
    stack_file = tmp_path / "Pulumi.laughs.yaml"
    stack_file.write_text(billion_laughs(9) + "config:\n  eks-gpu-inference:vllm:\n    extraArgs: *l8\n")

    started = time.perf_counter()
    code, out, err = plan(capsys, stack_file, tmp_path)

    assert code == 2 and out == "" and "excessive aliasing" in err and "Traceback" not in err
    assert time.perf_counter() - started < 5


def test_a_byte_order_mark_is_skipped_as_the_cli_does(tmp_path):
    stack_file = tmp_path / "Pulumi.bom.yaml"
    stack_file.write_bytes("\ufeffconfig:\n  eks-gpu-inference:vllm:\n    replicas: 2\n".encode())

    config = load_stack_config(ROOT, stack_file=stack_file)

    assert config.values["eks-gpu-inference:vllm"] == {"replicas": 2}


def test_yaml_syntax_errors_are_one_line(tmp_path):
    stack_file = tmp_path / "Pulumi.broken.yaml"
    stack_file.write_text("config:\n  a: [1, 2\n")

    with pytest.raises(InvalidFileError) as raised:
        load_stack_config(ROOT, stack_file=stack_file)

    assert len(str(raised.value).splitlines()) == 1 and "is not valid YAML" in str(raised.value)
