"""No Python file of the project runs past 500 lines, tests and benchmarks included: a file that long holds
more than one subject, and a reader cannot keep it in view."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 500
FOLDERS = ("components", "tests", "benchmarks", "scripts", "plugin", "examples")
"""Where the project's Python lives, besides the files at the top (the program, setup.py)."""


def python_files(root: Path) -> list[Path]:
    """Every .py file at the top of `root` and under its project folders, caches left out."""
    found = sorted(root.glob("*.py"))
    for folder in FOLDERS:
        found += sorted(path for path in (root / folder).rglob("*.py") if "__pycache__" not in path.parts)
    return found


def too_long(root: Path, limit: int = MAX_LINES) -> list[str]:
    """`path: lines` for each file of `root` over `limit` lines."""
    counts = {path: len(path.read_text(encoding="utf-8").splitlines()) for path in python_files(root)}
    return [f"{path.relative_to(root)}: {lines}" for path, lines in counts.items() if lines > limit]


def test_no_python_file_is_over_500_lines():
    assert too_long(ROOT) == []


def test_the_cap_names_each_long_file_wherever_it_is(tmp_path):
    for relative, lines in {
        "__main__.py": 501,
        "tests/test_x.py": 500,
        "benchmarks/b.py": 502,
        "docs/d.py": 900,
    }.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text("x = 1\n" * lines)
    (tmp_path / "components" / "__pycache__").mkdir(parents=True)
    (tmp_path / "components" / "__pycache__" / "m.py").write_text("x = 1\n" * 600)
    assert too_long(tmp_path) == ["__main__.py: 501", "benchmarks/b.py: 502"]
