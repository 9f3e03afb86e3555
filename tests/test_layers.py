"""The layers of docs/architecture.md hold: fact modules and the scheduling model load neither Pulumi nor
pydantic, the settings load no Pulumi, so offline tools and other projects can use them cheaply."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("pulumi", "pulumi_aws", "pulumi_eks", "pulumi_kubernetes", "pydantic", "kubernetes_validate", "yaml")


def loaded_after_import(module: str) -> list[str]:
    """The heavy packages present in `sys.modules` after importing `module` in a fresh interpreter."""
    code = f"import json, sys; import {module}; print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    completed = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


@pytest.mark.parametrize(
    "module",
    [
        "facts.contract",
        "facts.gpu_catalog",
        "facts.versions",
        "facts.eks_model",
        "facts.naming",
        "facts.zones",
        "facts.node_agents",
        "placement",
    ],
)
def test_facts_and_the_scheduling_model_load_no_sdk_and_no_pydantic(module):
    assert loaded_after_import(module) == []


def test_settings_load_pydantic_but_no_pulumi():
    assert loaded_after_import("components.settings") == ["pydantic"]
