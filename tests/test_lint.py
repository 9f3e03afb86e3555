"""The tree stays lint-clean and formatted: ruff's configuration lives in pyproject.toml ([tool.ruff])."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


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
