"""Remove each ordering the program registers, one at a time, and run the ordering tests against each mutant.

    .venv/bin/python scripts/mutation_orderings.py [--json RESULTS.json]

The mutants: every `depends_on=` option of a resource (set to None), every element of a `depends_on` list, and every
`once_created(value, resources)` (replaced by `value`), in components/ (the offline tools of components/stackcheck/
left out) and __main__.py. Each runs in a copy of the checkout (a temporary folder; the checkout is never edited)
against tests/program/test_orderings.py, without its check that every `depends_on` is in the table: the mutant is
killed only by a test that names the ordering. Prints one line per mutant and the score; exit 1 when one survives.
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = "tests/program/test_orderings.py"
TABLE_CHECK = f"{TESTS}::test_every_depends_on_the_program_registers_is_an_ordering_of_the_table"
COPIED = ("components", "tests", "examples", "__main__.py", "Pulumi.yaml", "Pulumi.dev.yaml", "pytest.ini")


@dataclass
class Mutant:
    path: str
    line: int
    change: str
    killed_by: str = ""


def mutants(source: str, path: str) -> list[tuple[Mutant, str]]:
    """Each mutant of `source` (the file at `path`) with its mutated text."""
    tree = ast.parse(source)
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def span(node: ast.AST) -> tuple[int, int]:
        return (
            starts[node.lineno - 1] + node.col_offset,
            starts[node.end_lineno - 1] + node.end_col_offset,
        )

    found = []

    def replace(node: ast.AST, start: int, end: int, text: str, change: str) -> None:
        mutant = Mutant(path, node.lineno, " ".join(change.split()))
        found.append((mutant, source[:start] + text + source[end:]))

    # A lookup's `depends_on` (`pulumi.InvokeOutputOptions`) registers nothing: the resources' order is not its.
    invokes = {
        id(keyword)
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and getattr(call.func, "attr", None) in ("InvokeOutputOptions", "InvokeOptions")
        for keyword in call.keywords
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "depends_on" and id(node) not in invokes:
            start, end = span(node.value)
            replace(node.value, start, end, "None", f"depends_on={source[start:end][:60]} removed")
            if isinstance(node.value, ast.List) and len(node.value.elts) > 1:
                items = node.value.elts
                for index, item in enumerate(items):
                    item_start, item_end = span(item)
                    # The element with the comma before it, or the first with the comma after it.
                    cut = (span(items[index - 1])[1], item_end) if index else (item_start, span(items[1])[0])
                    replace(item, *cut, "", f"{source[item_start:item_end][:60]} left out of depends_on")
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "once_created":
            start, end = span(node)
            value_start, value_end = span(node.args[0])
            replace(
                node,
                start,
                end,
                source[value_start:value_end],
                f"once_created({source[value_start:value_end][:40]}, ...) removed",
            )
    return found


def run(copy: Path) -> str:
    """The first failing test of the ordering tests in `copy`, or "" when they pass."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-x",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            TESTS,
            "--deselect",
            TABLE_CHECK,
        ],
        cwd=copy,
        capture_output=True,
        text=True,
    )
    failed = [line.split(" ", 1)[1].split(" - ")[0] for line in done.stdout.splitlines() if line.startswith("FAILED ")]
    if done.returncode == 0:
        return ""
    return failed[0] if failed else f"pytest exit {done.returncode}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write every mutant and what killed it here")
    args = parser.parse_args(argv)
    files = sorted(path for path in (ROOT / "components").rglob("*.py") if "stackcheck" not in path.parts)
    files.append(ROOT / "__main__.py")
    results = []
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder)
        for name in COPIED:
            source = ROOT / name
            (shutil.copytree if source.is_dir() else shutil.copy)(source, copy / name)
        for path in files:
            relative = str(path.relative_to(ROOT))
            original = path.read_text()
            for mutant, text in mutants(original, relative):
                (copy / relative).write_text(text)
                try:
                    mutant.killed_by = run(copy)
                finally:
                    (copy / relative).write_text(original)
                results.append(mutant)
                verdict = f"killed by {mutant.killed_by}" if mutant.killed_by else "SURVIVED"
                print(f"{mutant.path}:{mutant.line}: {mutant.change}: {verdict}", flush=True)
    killed = sum(1 for mutant in results if mutant.killed_by)
    print(f"{killed} of {len(results)} killed")
    if args.json:
        args.json.write_text(json.dumps([asdict(mutant) for mutant in results], indent=1) + "\n")
    return 0 if killed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
