"""The security baseline, checked end to end: bad stack files stop the plan, checkov finds nothing."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, dev_stack_config, merge
from invalid_settings import INVALID_SETTINGS

from components.facts.identity import PROJECT
from components.stackcheck.__main__ import main

CHECKOV = Path(os.environ.get("CHECKOV_BIN", ROOT / ".venv-checkov" / "bin" / "checkov"))


def write_stack(path: Path, overrides: dict) -> Path:
    config = {"aws:region": "us-west-2"}
    config.update({f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), overrides).items()})
    path.write_text(yaml.safe_dump({"config": config}))
    return path


@pytest.mark.parametrize(("values", "key", "fragment"), INVALID_SETTINGS)
def test_plan_rejects_invalid_stack_with_exit_2_naming_the_key(tmp_path, capsys, values, key, fragment):
    stack_file = write_stack(tmp_path / "Pulumi.bad.yaml", values)
    out = tmp_path / "out"

    code = main(["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(out)])

    printed = capsys.readouterr()
    text = printed.out + printed.err
    assert code == 2, text
    assert f"{PROJECT}:{key}:" in text
    assert fragment in text
    assert not list(out.glob("*.yaml")), "nothing is rendered for an invalid stack"
    # That the program registers nothing for each of these: test_infrastructure.py runs it with the same table.


def test_invalid_stack_table_covers_thirty_cases():
    assert len(INVALID_SETTINGS) >= 30


@pytest.fixture(scope="module")
def rendered_dev_stack(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dev-objects")
    assert main(["plan", "--project-dir", str(ROOT), "--stack", "dev", "--out", str(out), "--format", "json"]) == 0
    return out


def test_rendered_objects_pass_checkov_with_no_failed_check(rendered_dev_stack):
    assert CHECKOV.exists(), f"checkov is installed by .ci/setup at {CHECKOV}"
    env = {**os.environ, "CKV_SKIP_PACKAGE_UPDATE_CHECK": "true", "BC_SKIP_MAPPING": "TRUE", "LOG_LEVEL": "ERROR"}
    result = subprocess.run(
        [
            str(CHECKOV),
            "-d",
            str(rendered_dev_stack),
            "--framework",
            "kubernetes",
            "--skip-download",
            "--output",
            "json",
            "--quiet",
            "--compact",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    report = json.loads(result.stdout)
    reports = report if isinstance(report, list) else [report]
    summary = reports[0]["summary"]
    failed = [
        f"{check['check_id']} {check['resource']}: {check['check_name']}"
        for item in reports
        for check in item.get("results", {}).get("failed_checks", [])
    ]
    assert summary["resource_count"] >= 8
    assert summary["passed"] > 0
    assert failed == []


def test_checks_that_cannot_pass_are_skipped_with_a_reason_on_the_object(rendered_dev_stack):
    daemonset = yaml.safe_load((rendered_dev_stack / "kube-system.daemonset.nvidia-device-plugin.yaml").read_text())
    annotations = daemonset["metadata"].get("annotations", {})
    skips = [value for key, value in annotations.items() if key.startswith("checkov.io/skip")]
    assert any(value.startswith("CKV_K8S_23=") and len(value) > len("CKV_K8S_23=") + 10 for value in skips)
