"""The pull-request workflow: valid for GitHub Actions, and running what the README and docs/plan.md promise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
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


def test_workflow_plans_the_base_branch_and_compares_the_head_with_it_first_in_the_summary():
    workflow = yaml.safe_load(WORKFLOW.read_text())
    steps = workflow["jobs"]["offline-plan"]["steps"]
    names = [step.get("name", "") for step in steps]
    base = steps[names.index("Offline plan of the base branch, to compare with")]
    head = steps[names.index("Offline plan of the dev stack")]

    assert names.index(base["name"]) < names.index(head["name"])
    assert base["env"]["BASE_REF"] == "${{ github.base_ref }}"
    assert 'git worktree add --detach "$RUNNER_TEMP/base" FETCH_HEAD' in base["run"]
    assert "-m components.stackcheck plan --stack dev" in base["run"] and "--format json" in base["run"]
    assert 'echo "BASE_PLAN=$plan" >> "$GITHUB_ENV"' in base["run"]
    assert '${BASE_PLAN:+--compare "$BASE_PLAN"}' in head["run"] and '>> "$GITHUB_STEP_SUMMARY"' in head["run"]


def test_the_head_step_passes_compare_only_when_the_base_was_planned(tmp_path):
    workflow = yaml.safe_load(WORKFLOW.read_text())
    [head] = [
        step
        for step in workflow["jobs"]["offline-plan"]["steps"]
        if step.get("name") == "Offline plan of the dev stack"
    ]
    # The step's command with the plan replaced by one that prints its arguments, one a line.
    command = head["run"].replace(".venv/bin/eks-gpu-plan", "printf '%s\\n'")
    for base_plan, expected in (("out/main.plan.json", ["--compare", "out/main.plan.json"]), ("", [])):
        summary = tmp_path / f"summary-{len(expected)}.md"
        env = {"PATH": "/usr/bin:/bin", "GITHUB_STEP_SUMMARY": str(summary), "BASE_PLAN": base_plan}
        subprocess.run(["bash", "-c", command], env=env, check=True, timeout=30)
        assert summary.read_text().splitlines() == ["--stack", "dev", "--format", "markdown", *expected]
