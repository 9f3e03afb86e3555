"""The pull-request workflow: valid for GitHub Actions, and running what the README promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "preview.yml"


def schema_check(path: Path) -> subprocess.CompletedProcess:
    """check-jsonschema against the GitHub workflow schema it ships (no network)."""
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_workflow_is_valid_for_github_actions():
    result = schema_check(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr


def test_schema_check_rejects_a_misspelled_job_key(tmp_path):
    broken = tmp_path / "preview.yml"
    broken.write_text(WORKFLOW.read_text().replace("runs-on:", "runs_on:", 1))
    result = schema_check(broken)
    assert result.returncode != 0 and "offline-plan" in result.stdout


def test_workflow_runs_the_ci_script_and_the_readme_plan_command():
    workflow = yaml.safe_load(WORKFLOW.read_text())
    runs = [step.get("run", "") for step in workflow["jobs"]["offline-plan"]["steps"]]
    readme = (ROOT / "README.md").read_text()
    assert "bash .ci/run" in runs
    plan_step = next(run for run in runs if "eks-gpu-plan" in run)
    assert ".venv/bin/eks-gpu-plan --stack dev" in plan_step
    assert ".venv/bin/eks-gpu-plan --stack dev" in readme
