"""promtool, as .ci/install-promtool puts it into .tools/, run on rule files and rule unit tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import ROOT

from components.observability.alert_rules import rules_text

TOOLS_ENV = ROOT / ".ci" / "tools.env"
PROMTOOL = ROOT / ".tools" / "prometheus" / "usr" / "bin" / "promtool"


def pinned_version() -> str:
    """The Debian prometheus package version .ci/tools.env pins."""
    for line in TOOLS_ENV.read_text(encoding="utf-8").splitlines():
        if line.startswith("PROMETHEUS_DEB_VERSION="):
            return line.split("=", 1)[1].strip()
    raise AssertionError(f"{TOOLS_ENV} pins no PROMETHEUS_DEB_VERSION")


def promtool() -> Path:
    """The installed promtool; fails the test, naming the fix, when it is missing or not the pinned version."""
    path = Path(os.environ.get("PROMTOOL", PROMTOOL))
    if not path.is_file():
        pytest.fail(f"promtool is missing at {path}: run `bash .ci/install-promtool` (or set PROMTOOL)", pytrace=False)
    version = subprocess.run([path, "--version"], capture_output=True, text=True, check=True)
    if f"revision: {pinned_version()})" not in version.stdout + version.stderr:
        pytest.fail(
            f"{path} is not Debian's prometheus {pinned_version()} (.ci/tools.env): run `bash .ci/install-promtool`",
            pytrace=False,
        )
    return path


def run(*arguments: str | Path, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([promtool(), *arguments], cwd=cwd, capture_output=True, text=True, timeout=120)


def check_rules(tmp_path: Path, groups: list[dict[str, Any]]) -> subprocess.CompletedProcess:
    """`promtool check rules` on `groups` written as a rule file."""
    path = tmp_path / "check.yaml"
    path.write_text(rules_text(groups), encoding="utf-8")
    return run("check", "rules", path.name, cwd=tmp_path)


def run_rule_tests(tmp_path: Path, groups: list[dict[str, Any]], tests: list[dict[str, Any]]) -> str:
    """`promtool test rules` on `tests` against `groups`; the output, after asserting that every test passed."""
    (tmp_path / "rules.yaml").write_text(rules_text(groups), encoding="utf-8")
    document = {"rule_files": ["rules.yaml"], "evaluation_interval": "1m", "tests": tests}
    (tmp_path / "rules.test.yaml").write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    completed = run("test", "rules", "rules.test.yaml", cwd=tmp_path)
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    assert "SUCCESS" in output, output
    return output


def alert_test(eval_time: str, alertname: str, *alerts: dict[str, Any]) -> dict[str, Any]:
    """One `alert_rule_test`: the alerts firing at `eval_time`, each `{"exp_labels", "exp_annotations"}`."""
    return {"eval_time": eval_time, "alertname": alertname, "exp_alerts": list(alerts)}


def case(series: dict[str, str], *alert_tests: dict[str, Any]) -> dict[str, Any]:
    """One promtool test: input series (PromQL series notation, values in expanding notation, 1m apart)."""
    return {
        "interval": "1m",
        "input_series": [{"series": name, "values": values} for name, values in series.items()],
        "alert_rule_test": list(alert_tests),
    }
