"""Which test files run each module of components/: the test files a held-out sample runs its mutants against.

    nice -n 19 .venv/bin/python scripts/mutation_test_map.py docs/mutation/test-map-DATE.json

Runs the suite once in one process under coverage, with the test file as coverage's context from the start of
each test's setup (so a program run inside a fixture counts for the file whose test set it up), leaving out the
tests `[tool.mutmut]` leaves out, and writes, per line of each module of components/, the test files during which
it ran, with each file's seconds in that run. scripts/mutation_sample.py gives each drawn mutant the files that ran
any line of its function, after its group's named files: a mutant then meets every test file that can reach it, which is what the suite
would judge it by, not only the files a group names. A file that only reaches a module through a session-scoped
fixture another file set up first is not counted; the group's named files cover those.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

PLUGIN = """
import time
import coverage

SECONDS = {}
_started = {}


def pytest_runtest_setup(item):
    current = coverage.Coverage.current()
    if current is not None:
        current.switch_context(item.nodeid.split("::", 1)[0])
    _started.setdefault(item.nodeid.split("::", 1)[0], 0.0)
    item._map_start = time.perf_counter()


def pytest_runtest_teardown(item, nextitem):
    path = item.nodeid.split("::", 1)[0]
    SECONDS[path] = SECONDS.get(path, 0.0) + time.perf_counter() - item._map_start


def pytest_sessionfinish(session):
    import json, os
    with open(os.environ["MAP_SECONDS"], "w") as out:
        json.dump(SECONDS, out)
"""


def left_out_arguments() -> list[str]:
    """`[tool.mutmut]`'s pytest arguments that leave tests out (its --ignore and --deselect pairs)."""
    arguments = tomllib.loads(Path("pyproject.toml").read_text())["tool"]["mutmut"]["pytest_add_cli_args"]
    kept = []
    for index, argument in enumerate(arguments):
        if argument in ("--ignore", "--deselect"):
            kept += [argument, arguments[index + 1]]
    return kept


def main() -> None:
    output = Path(sys.argv[1])
    with tempfile.TemporaryDirectory() as work:
        plugin = Path(work) / "coverage_map_plugin.py"
        plugin.write_text(PLUGIN)
        data = Path(work) / "coverage.data"
        seconds_file = Path(work) / "seconds.json"
        rc = Path(work) / "coveragerc"
        rc.write_text(f"[run]\nsource = components\ndata_file = {data}\nrelative_files = True\n")
        command = [sys.executable, "-m", "coverage", "run", f"--rcfile={rc}", "-m", "pytest", "-q", "-n", "0"]
        command += ["-p", "coverage_map_plugin", "-p", "no:cacheprovider", *left_out_arguments(), "tests/"]
        started = time.time()
        environment = {**__import__("os").environ, "PYTHONPATH": work, "MAP_SECONDS": str(seconds_file)}
        subprocess.run(command, env=environment, check=True)
        import coverage

        reader = coverage.CoverageData(basename=str(data))
        reader.read()
        files: list[str] = []
        by_line: dict[str, dict[int, list[int]]] = {}
        for path in reader.measured_files():
            module = str(Path(path).resolve().relative_to(Path.cwd()))
            lines: dict[int, list[int]] = {}
            for line, contexts in reader.contexts_by_lineno(path).items():
                for context in sorted(filter(None, contexts)):
                    if context not in files:
                        files.append(context)
                    lines.setdefault(line, []).append(files.index(context))
            by_line[module] = lines
        seconds = json.loads(seconds_file.read_text())
    record = {
        "made": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "commit": subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip(),
        "seconds_by_test_file": {path: round(value, 2) for path, value in sorted(seconds.items())},
        "test_files": files,
        # module -> line -> indices into test_files
        "test_files_by_line": {module: dict(sorted(lines.items())) for module, lines in sorted(by_line.items())},
    }
    output.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
