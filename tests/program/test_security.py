"""The security baseline, checked end to end: bad stack files stop the plan, checkov finds nothing."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, dev_stack_config, merge

from components.facts.identity import PROJECT
from components.stackcheck.__main__ import main
from tests.support.invalid_settings import INVALID_SETTINGS

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


# The stacks whose rendered objects checkov scans: the dev stack, and one with what dev leaves out
# (Bottlerocket GPU nodes, where the exporter runs privileged, and the Prometheus operator's monitors), and one whose
# weights the stack copies to S3 (the copy Job).
SCANNED_STACKS = {
    "dev": None,
    "bottlerocket": {"gpuNodeGroup": {"amiFamily": "Bottlerocket"}, "observability": {"prometheusOperator": True}},
    "seeded": {"vllm": {"revision": "a" * 40, "source": {"type": "s3"}}},
}


@pytest.fixture(scope="module")
def rendered_stacks(tmp_path_factory) -> Path:
    """Each stack of SCANNED_STACKS planned into its own folder of one parent folder."""
    parent = tmp_path_factory.mktemp("rendered")
    for name, overrides in SCANNED_STACKS.items():
        stack_file = parent / f"Pulumi.{name}.yaml"
        if overrides is None:
            args = ["--stack", name]
        else:
            config = {"aws:region": "us-west-2", **{f"{PROJECT}:{key}": value for key, value in overrides.items()}}
            stack_file.write_text(yaml.safe_dump({"config": config}))
            args = ["--stack-file", str(stack_file)]
        code = main(["plan", "--project-dir", str(ROOT), *args, "--out", str(parent / name), "--format", "json"])
        stack_file.unlink(missing_ok=True)  # only rendered objects are scanned
        assert code == 0, name
    return parent


@pytest.fixture(scope="module")
def rendered_dev_stack(rendered_stacks) -> Path:
    return rendered_stacks / "dev"


@pytest.fixture(scope="module")
def checkov_results(rendered_stacks) -> dict[str, dict[str, list[dict]]]:
    """One checkov run over every scanned stack (its start-up alone costs seconds): stack -> outcome -> checks.

    Not `--quiet`, which leaves out the skipped checks.
    """
    assert CHECKOV.exists(), f"checkov is installed by .ci/setup at {CHECKOV}"
    env = {**os.environ, "CKV_SKIP_PACKAGE_UPDATE_CHECK": "true", "BC_SKIP_MAPPING": "TRUE", "LOG_LEVEL": "ERROR"}
    command = [str(CHECKOV), "-d", str(rendered_stacks), "--framework", "kubernetes", "--skip-download"]
    result = subprocess.run(
        [*command, "--output", "json", "--compact"], capture_output=True, text=True, env=env, timeout=600, check=False
    )
    report = json.loads(result.stdout)
    results: dict[str, dict[str, list[dict]]] = {name: {} for name in SCANNED_STACKS}
    for item in report if isinstance(report, list) else [report]:
        for outcome, checks in item.get("results", {}).items():
            for check in checks:
                stack = Path(check["file_path"]).parts[1]  # "/dev/kube-system.daemonset....yaml"
                results[stack].setdefault(outcome, []).append(check)
    return results


def test_rendered_objects_pass_checkov_with_no_failed_check(checkov_results):
    dev = checkov_results["dev"]
    failed = [
        f"{check['check_id']} {check['resource']}: {check['check_name']}" for check in dev.get("failed_checks", [])
    ]
    assert len({check["resource"] for check in dev.get("passed_checks", [])}) >= 8
    assert failed == []


def test_bottlerocket_and_operator_objects_pass_checkov_with_no_failed_check(checkov_results):
    """Bottlerocket's exporter is privileged; the checks that cannot pass are skipped on it, none fails."""
    bottlerocket = checkov_results["bottlerocket"]
    failed = [f"{check['check_id']} {check['resource']}" for check in bottlerocket.get("failed_checks", [])]
    skipped = {
        check["check_id"] for check in bottlerocket.get("skipped_checks", []) if "dcgm-exporter" in check["resource"]
    }
    assert bottlerocket.get("passed_checks")
    assert failed == []
    assert {"CKV_K8S_16", "CKV_K8S_20"} <= skipped


def test_checks_that_cannot_pass_are_skipped_with_a_reason_on_the_object(rendered_dev_stack):
    daemonset = yaml.safe_load((rendered_dev_stack / "kube-system.daemonset.nvidia-device-plugin.yaml").read_text())
    annotations = daemonset["metadata"].get("annotations", {})
    skips = [value for key, value in annotations.items() if key.startswith("checkov.io/skip")]
    assert any(value.startswith("CKV_K8S_23=") and len(value) > len("CKV_K8S_23=") + 10 for value in skips)


def test_the_weights_copy_job_passes_checkov_with_no_failed_check(checkov_results):
    seeded = checkov_results["seeded"]
    failed = [f"{check['check_id']} {check['resource']}" for check in seeded.get("failed_checks", [])]
    job_checks = [check for check in seeded.get("passed_checks", []) if check["resource"].startswith("Job.")]
    assert job_checks
    assert failed == []
