"""The tree stays lint-clean and formatted: ruff's configuration lives in pyproject.toml ([tool.ruff])."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "command",
    [["check", "--no-cache", "."], ["format", "--no-cache", "--check", "."]],
    ids=["ruff finds nothing to lint", "ruff finds nothing to reformat"],
)
def test_ruff(command):
    completed = subprocess.run(
        [sys.executable, "-m", "ruff", *command], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


@pytest.mark.parametrize(
    "line",
    ["x = 1  # noqa: BLE001 a rule the project does not select", "import os  # noqa: E402 nothing comes before it"],
    ids=["a noqa for a rule not selected", "a noqa for a rule that does not fire"],
)
def test_a_noqa_that_hides_nothing_is_a_finding(line):
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--no-cache",
            "--output-format",
            "concise",
            "--stdin-filename",
            "x.py",
            "-",
        ],
        cwd=ROOT,
        input=f'"""A module."""\n\n{line}\n',
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 1
    assert "RUF100" in completed.stdout, completed.stdout + completed.stderr
