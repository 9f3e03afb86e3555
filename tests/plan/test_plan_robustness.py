"""The plan's answers to bad files and misuse: a message naming the file or resources, a distinct exit
code (0 holds, 1 a check failed, 2 invalid config, files or arguments, 3 internal error), no traceback."""

from __future__ import annotations

import gc
import json
import logging
import sys
import textwrap
from pathlib import Path

import pytest

from components.stackcheck.__main__ import main
from components.stackcheck.plan import run as plan_module
from components.stackcheck.runtime import run_program

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["plan", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_stack_file_that_is_not_utf8_exits_2_naming_the_file(capsys, tmp_path):
    stack_file = tmp_path / "Pulumi.latin1.yaml"
    stack_file.write_bytes("config:\n  eks-gpu-inference:vllm:\n    model: Qwen/Qw\xe9n\n".encode("latin-1"))

    code, out, err = run(
        capsys, "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "out")
    )

    assert code == 2
    assert str(stack_file) in err and "not UTF-8" in err and "0xe9" in err
    assert "Traceback" not in err and out == ""


def test_project_file_that_is_not_yaml_exits_2_naming_the_file(capsys, tmp_path):
    (tmp_path / "Pulumi.yaml").write_text("name: [unclosed\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config: {}\n")

    code, _, err = run(capsys, "--project-dir", str(tmp_path), "--out", str(tmp_path / "out"))

    assert code == 2 and "Pulumi.yaml is not valid YAML" in err and "Traceback" not in err


def test_out_naming_an_existing_file_is_a_usage_error(capsys, tmp_path):
    existing = tmp_path / "report.txt"
    existing.write_text("keep me\n")

    code, out, err = run(capsys, "--project-dir", str(ROOT), "--stack", "dev", "--out", str(existing))

    assert code == 2
    assert f"--out {existing} is a file" in err and out == "" and "Traceback" not in err
    assert existing.read_text() == "keep me\n"


def test_unknown_option_is_a_usage_error(capsys):
    code, _, err = run(capsys, "--no-such-option")
    assert code == 2 and "unrecognized arguments: --no-such-option" in err
    assert err.count("\n") == 1 and "usage:" not in err  # one line, pointing at --help
    assert "--help" in err


def test_the_commands_repeated_exit_codes_match_stack_configs():
    # __main__ and audit/cli repeat them so that --help answers without importing stack_config.
    from components.stackcheck import __main__ as entry
    from components.stackcheck import stack_config
    from components.stackcheck.audit import cli as audit_cli

    wanted = (stack_config.EXIT_USAGE, stack_config.EXIT_INTERNAL)
    assert (entry.EXIT_USAGE, entry.EXIT_INTERNAL) == wanted == (audit_cli.EXIT_USAGE, audit_cli.EXIT_INTERNAL)


def test_help_exits_0(capsys):
    assert main(["plan", "--help"]) == 0
    assert "3 on an internal error (--debug shows its traceback)" in capsys.readouterr().out.replace("\n", " ").replace(
        "  ", " "
    )


def test_internal_error_exits_3_saying_so(capsys, monkeypatch, tmp_path):
    def broken(options):
        raise RuntimeError("placement table is corrupt")

    monkeypatch.setattr(plan_module, "run_plan", broken)
    code, out, err = run(capsys, "--project-dir", str(ROOT), "--out", str(tmp_path))

    assert code == 3
    assert err == "stackcheck plan: internal error: RuntimeError: placement table is corrupt\n" and out == ""

    code, out, err = run(capsys, "--project-dir", str(ROOT), "--out", str(tmp_path), "--debug")

    assert code == 3 and out == ""
    assert err.startswith("stackcheck plan: internal error: RuntimeError: placement table is corrupt\nTraceback")
    assert 'raise RuntimeError("placement table is corrupt")' in err


def test_two_resources_declaring_one_object_fail_naming_both(capsys, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "Pulumi.yaml").write_text("name: other-project\nruntime: python\n")
    (project / "Pulumi.dev.yaml").write_text("config: {}\n")
    (project / "__main__.py").write_text(
        textwrap.dedent("""
        import pulumi_kubernetes as k8s

        for resource_name in ("settings-a", "settings-b"):
            k8s.core.v1.ConfigMap(resource_name, metadata={"name": "settings", "namespace": "apps"},
                                  data={"mode": resource_name})
        k8s.core.v1.ConfigMap("settings-c", metadata={"name": "settings", "namespace": "other"})
    """)
    )

    code, out, err = run(capsys, "--project-dir", str(project), "--format", "json", "--out", str(tmp_path / "out"))

    document = json.loads(out)
    assert code == 1, err
    (duplicate,) = document["duplicateObjects"]
    assert duplicate.startswith("ConfigMap apps/settings is declared twice")
    assert "'settings-a'" in duplicate and "'settings-b'" in duplicate
    # The ownership verdict fails for it, naming it.
    assert any(
        failure.startswith("verdict 18 one-owner-per-attribute: ConfigMap apps/settings is declared twice")
        for failure in document["failures"]
    )


def test_json_document_has_a_schema_version_and_the_stack_outputs(capsys, tmp_path):
    code, out, _ = run(capsys, "--project-dir", str(ROOT), "--format", "json", "--out", str(tmp_path))

    document = json.loads(out)
    assert code == 0
    assert document["schemaVersion"] == plan_module.JSON_SCHEMA_VERSION == 1
    outputs = document["outputs"]
    assert outputs["clusterName"] == "gpu-inference-dev"
    assert outputs["kubeconfig"] == plan_module.SECRET_OUTPUT  # secret outputs are never printed
    assert outputs["gpuNodeTaints"] == [{"key": "GPU", "value": "true", "effect": "NO_SCHEDULE"}]
    assert document["duplicateObjects"] == []


LEAVES_A_FAILED_FUTURE = """
import asyncio
import sys
import weakref

future = asyncio.get_event_loop().create_future()
future.set_exception(RuntimeError("nobody awaits this"))
cycle = [future]
cycle.append(cycle)  # kept alive until the collector runs, as the SDK's own futures are
sys.left_future = weakref.ref(future)
del future, cycle
raise ValueError("the program fails")
"""


def test_futures_a_failed_run_leaves_behind_log_no_error_when_collected_later(tmp_path, caplog):
    """Collected during a later run in the same process, their asyncio error would be that run's program error."""
    program = tmp_path / "__main__.py"
    program.write_text(LEAVES_A_FAILED_FUTURE)
    try:
        with pytest.raises(ValueError, match="the program fails"):
            run_program(program, {}, project="p", stack="s")
        assert sys.left_future() is not None  # the run left it for the collector

        with caplog.at_level(logging.DEBUG):
            gc.collect()

        assert sys.left_future() is None
        assert [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR] == []
    finally:
        del sys.left_future


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(["--bogus"], "unrecognized arguments: --bogus", id="unknown option"),
        pytest.param(["--format", "yaml"], "invalid choice: 'yaml'", id="unknown format"),
        pytest.param(["--stack", "nope"], "no stack file Pulumi.nope.yaml", id="unknown stack"),
        pytest.param(["--stack-file", "{tmp}"], "stack file {tmp} is a folder", id="stack file is a folder"),
        pytest.param(["--stack-file", "{tmp}/absent.yaml"], "{tmp}/absent.yaml does not exist", id="no stack file"),
        pytest.param(["--project-dir", "{tmp}/absent"], "no Pulumi.yaml in {tmp}/absent", id="no project"),
        pytest.param(["--out", "/proc/version"], "--out /proc/version is a file", id="out is a file"),
        pytest.param(["--out", "/proc/plan"], "cannot write to /proc/plan", id="out cannot be written"),
    ],
)
def test_argument_problems_exit_2_in_one_line_naming_the_value(capsys, tmp_path, args, said):
    args = [arg.format(tmp=tmp_path) for arg in args]
    code, out, err = run(capsys, "--project-dir", str(ROOT), *args)

    assert code == 2 and out == ""
    assert err.count("\n") == 1 and said.format(tmp=tmp_path) in err and "Traceback" not in err
