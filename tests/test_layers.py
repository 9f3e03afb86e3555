"""The layers of docs/architecture.md hold: facts < placement < components < stackcheck.

The facts and the scheduling model load neither Pulumi nor pydantic, the settings load no Pulumi, the pure
builders load no Pulumi SDK, so offline tools and other projects can use them cheaply; and no module of a
lower layer imports one of a higher layer, so the packages stand on each other without cycles.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("pulumi", "pulumi_aws", "pulumi_eks", "pulumi_kubernetes", "pydantic", "kubernetes_validate", "yaml")
LAYERS = ("facts", "placement", "components", "stackcheck")
"""The project's packages from the floor up: each may import those before it, never one after it."""


def loaded_after_import(module: str) -> list[str]:
    """The heavy packages present in `sys.modules` after importing `module` in a fresh interpreter."""
    code = f"import json, sys; import {module}; print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    completed = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def modules_of(package: str) -> list[str]:
    """Dotted names of every module of `package` in the tree."""
    names = []
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


FACTS = modules_of("facts")
PLACEMENT = modules_of("placement")
PURE_BUILDERS = [
    "components.vllm_manifests",
    "components.vllm_sizing",
    "components.vllm_args",
    "components.labels",
    "components.security_context",
]


def test_the_floor_holds_the_fact_modules():
    assert {
        "facts.contract",
        "facts.gpu_catalog",
        "facts.versions",
        "facts.eks_model",
        "facts.eks_node",
        "facts.identity",
        "facts.markers",
        "facts.quantity",
        "facts.node_agents",
    } <= set(FACTS)


@pytest.mark.parametrize("module", FACTS + PLACEMENT)
def test_facts_and_the_scheduling_model_load_no_sdk_and_no_pydantic(module):
    assert loaded_after_import(module) == []


@pytest.mark.parametrize("module", PURE_BUILDERS)
def test_pure_builders_load_no_pulumi(module):
    assert not {"pulumi", "pulumi_aws", "pulumi_eks", "pulumi_kubernetes"} & set(loaded_after_import(module))


@pytest.mark.parametrize(
    "module",
    [
        "components.settings",
        "components.settings.reader",
        "components.settings.section",
        "components.settings.vllm",
    ],
)
def test_settings_load_pydantic_but_no_pulumi(module):
    assert loaded_after_import(module) == ["pydantic"]


def imported_packages(path: Path, package: str) -> set[str]:
    """The top-level names every import statement of the file at `path` (in `package`) names, lazy ones too."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add(package if node.level else (node.module or "").split(".")[0])
    return found


def layer_violations(root: Path) -> list[str]:
    """`importer -> imported` for each import of a project package from a lower layer, under `root`."""
    violations = []
    for rank, package in enumerate(LAYERS):
        for path in sorted((root / package).rglob("*.py")):
            higher = imported_packages(path, package) & set(LAYERS[rank + 1 :])
            violations += [f"{path.relative_to(root)} -> {name}" for name in sorted(higher)]
    return violations


def test_no_module_imports_a_higher_layer():
    assert layer_violations(ROOT) == []


def test_the_layer_check_finds_an_import_that_runs_back_up(tmp_path):
    for package in LAYERS:
        (tmp_path / package).mkdir()
    (tmp_path / "facts" / "fact.py").write_text("def f():\n    from placement.pools import eks_allocatable\n")
    (tmp_path / "placement" / "pools.py").write_text("from . import taints\nfrom facts import contract\n")
    (tmp_path / "components" / "shell.py").write_text("import stackcheck.plan\nimport placement\n")
    assert layer_violations(tmp_path) == ["facts/fact.py -> placement", "components/shell.py -> stackcheck"]
