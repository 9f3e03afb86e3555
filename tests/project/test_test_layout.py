"""The tests follow the folders of what the stack deploys: a test module lives in the folder of its concern
(`tests/vllm/`, `tests/pools/`, ...), and what several modules share lives in `tests/support/`, never imported from
another test module, so moving or deleting a test module cannot break another."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def imports_of_test_modules(tests: Path) -> list[str]:
    """`file: module` for each import, anywhere under `tests`, of a module named `test_*`."""
    found = []
    for path in sorted(tests.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            found += [
                f"{path.relative_to(tests).as_posix()}: {name}"
                for name in names
                if name.split(".")[-1].startswith("test_")
            ]
    return found


def test_no_test_module_imports_another():
    assert imports_of_test_modules(TESTS) == []


def test_every_test_module_sits_in_a_concerns_folder():
    assert sorted(path.name for path in TESTS.glob("test_*.py")) == []
    assert {path.parent.name for path in TESTS.rglob("test_*.py")} >= {"vllm", "pools", "placement", "plan", "project"}


def test_the_check_finds_an_import_of_a_test_module(tmp_path):
    (tmp_path / "vllm").mkdir()
    (tmp_path / "vllm" / "test_a.py").write_text("from test_b import helper\nimport tests.pools.test_c\n")
    (tmp_path / "vllm" / "test_d.py").write_text("from tests.support.vllm_server import node\n")
    assert imports_of_test_modules(tmp_path) == [
        "vllm/test_a.py: test_b",
        "vllm/test_a.py: tests.pools.test_c",
    ]
