"""Run a held-out sample of mutants (a record written by scripts/mutation_sample.py) and count its results.

    nice -n 19 .venv/bin/python scripts/mutation_sample_run.py [--tests-at COMMIT] RECORD.json RESULTS.jsonl [GROUP ...]
    .venv/bin/python scripts/mutation_sample_run.py --count RECORD.json RESULTS.jsonl

Runs the groups (all, or those named) from mutants/ with scripts/mutmut_forkrun.py: their test files are
collected once, then each drawn mutant runs in a child of its own against its group's named files and the files
that cover its function (`covering_test_files`, when the record has them), in the order the record names them,
stopping at the first failure; a clean run (`none.clean`) over every collected file comes first and must survive,
and its seconds set the mutants' time limit. Mutants already in
RESULTS.jsonl are not run again, so a run that stopped goes on where it was. One process, so run it under `nice`.

Before the first run, mutants/tests/conftest.py is made to share the program runs across tests (session scope,
as in an ordinary run) and to keep the test files in the order named: under mutmut's own runner each test runs
the program itself, because mutmut credits a function only to the test during which it ran; here each mutant is
switched on for the whole child, so sharing cannot credit the wrong test, and the cheap unit tests go first.

`--count` prints, per group, the mutants tried, killed (a timeout counts as killed, as mutmut counts it) and
survived, and the surviving names.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

MUTANTS = Path("mutants")
CONFTEST = MUTANTS / "tests" / "conftest.py"
# (what the checkout's conftest says, what the sample's copy says instead)
CONFTEST_EDITS = (
    ('if "mutmut" in sys.modules or Path(program)', "if Path(program)"),
    ('return "function" if "mutmut" in sys.modules else "session"', 'return "session"'),
    (
        "items.sort(key=lambda item: rank.get(item.path.name, len(rank)))",
        "del rank  # a held-out sample runs its test files in the order named",
    ),
)

# A test that compares a generated file with what its generator makes of its source fails in mutants/, where the
# file is mutmut's mutated copy (as tests/project/test_generated.py, which [tool.mutmut] leaves out).
LEFT_OUT = (
    "tests/facts/test_price_table.py::test_the_committed_table_is_what_the_script_makes_of_the_extract",
    "tests/facts/test_usage_price_table.py::test_the_committed_table_is_what_the_script_makes_of_the_extract",
)


def prepare_conftest(tests_at: str | None) -> None:
    """Bring the tests into mutants/ as they are in the working tree, or at commit `tests_at` (the tests of the
    sources the mutants were generated from, when the tree has moved on since), and this runner's plugin; then
    edit the copy's conftest as the module docstring says."""
    marker = MUTANTS / "tests" / ".tests-at"
    if tests_at is None:
        shutil.copytree("tests", MUTANTS / "tests", dirs_exist_ok=True)
    elif not marker.exists() or marker.read_text() != tests_at:
        # Once per commit: a second run beside the first (other groups) must not replace the files under it.
        shutil.rmtree(MUTANTS / "tests")
        archive = subprocess.run(["git", "archive", tests_at, "tests"], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(MUTANTS)], input=archive, check=True)
        marker.write_text(tests_at)
    shutil.copy2("scripts/mutmut_forkrun.py", MUTANTS / "scripts" / "mutmut_forkrun.py")
    # The tools the tests run (promtool in .tools/, checkov's own environment), where the tests look for them.
    for tools in (".tools", ".venv-checkov"):
        if Path(tools).exists() and not (MUTANTS / tools).exists():
            (MUTANTS / tools).symlink_to(Path(tools).resolve())
    text = CONFTEST.read_text()
    for before, after in CONFTEST_EDITS:
        if after in text:
            continue
        if before not in text:
            raise SystemExit(f"{CONFTEST}: cannot find {before!r}; update CONFTEST_EDITS to the conftest")
        text = text.replace(before, after)
    CONFTEST.write_text(text)


CLEAN_TIMEOUT = 3600
"""The clean run's limit: the whole suite in one process, on a shared machine."""


def results_of(path: Path) -> dict[str, dict]:
    """Each mutant's result line in RESULTS.jsonl, by name (the last line of a name wins)."""
    if not path.exists():
        return {}
    lines = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {line["mutant"]: line for line in lines}


def _run(names: list[str], test_files: list[str], results: Path, timeout: float, only: dict) -> None:
    with tempfile.TemporaryDirectory() as work:
        names_file = Path(work) / "names"
        names_file.write_text("\n".join(names) + "\n")
        tests_file = Path(work) / "tests.json"
        tests_file.write_text(json.dumps(only))
        environment = dict(
            os.environ,
            MUTANTS_FILE=str(names_file),
            RESULTS_FILE=str(results.resolve()),
            MUTANT_TESTS=str(tests_file),
        )
        environment["MUTANT_TIMEOUT"] = str(round(timeout))
        left_out = [argument for test in LEFT_OUT for argument in ("--deselect", test)]
        command = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "scripts.mutmut_forkrun", *left_out]
        subprocess.run(command + test_files, cwd=MUTANTS, env=environment, check=False, stdout=subprocess.DEVNULL)


def tests_of(record: dict, groups: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """The test files to collect (each group's named files in order, then the files covering its drawn mutants,
    fastest first, as the record lists them) and, per mutant, the files it runs: its group's and its own."""
    named = list(dict.fromkeys(path for name in groups for path in record["groups"][name]["test_files"]))
    covering: dict[str, None] = {}
    only: dict[str, list[str]] = {}
    for name in groups:
        group = record["groups"][name]
        for mutant in group["drawn"]:
            own = group.get("covering_test_files", {}).get(mutant, [])
            covering.update(dict.fromkeys(path for path in own if path not in named))
            only[mutant] = group["test_files"] + own
    return named + list(covering), only


def run_sample(record: dict, groups: list[str], results: Path) -> None:
    """The clean run over every test file the chosen groups collect, then their mutants not yet in RESULTS.jsonl,
    each against its own files and stopped after three times the clean run's seconds and a minute (a timeout
    counts as killed, so the limit is far above what a survivor takes)."""
    done = results_of(results)
    # Round robin over the groups: a run stopped early has tried each group's first names, which keeps the strata.
    drawn = [record["groups"][name]["drawn"] for name in groups]
    rounds = itertools.zip_longest(*drawn)
    names = [mutant for row in rounds for mutant in row if mutant is not None and mutant not in done]
    test_files, only = tests_of(record, groups)
    print(f"{', '.join(groups)}: {len(names)} mutants, {len(test_files)} test files", flush=True)
    if not names:
        return
    # One clean run over these files (or over more, by an earlier run of this sample) is enough.
    if results_of(results).get("none.clean", {}).get("verdict") != "survived":
        _run(["none.clean"], test_files, results, CLEAN_TIMEOUT, {})
    clean = results_of(results).get("none.clean", {})
    if clean.get("verdict") != "survived":
        raise SystemExit(f"the clean run failed ({clean.get('by')}): fix the tests before counting mutants")
    _run(names, test_files, results, 3 * clean["seconds"] + 60, only)


def count(record: dict, results: dict[str, dict]) -> None:
    for name, group in record["groups"].items():
        verdicts = Counter(results[mutant]["verdict"] for mutant in group["drawn"] if mutant in results)
        killed = verdicts["killed"] + verdicts["timeout"]
        print(
            f"{name}: tried {sum(verdicts.values())} of {len(group['drawn'])}, killed {killed}, survived {verdicts['survived']}"
        )
        for mutant in group["drawn"]:
            if results.get(mutant, {}).get("verdict") == "survived":
                print(f"    {mutant}")


def main() -> None:
    arguments = sys.argv[1:]
    tests_at = None
    if "--tests-at" in arguments:
        at = arguments.index("--tests-at")
        tests_at = arguments[at + 1]
        del arguments[at : at + 2]
    counting = arguments[:1] == ["--count"]
    if counting:
        arguments = arguments[1:]
    record = json.loads(Path(arguments[0]).read_text())
    results = Path(arguments[1])
    if counting:
        count(record, results_of(results))
        return
    prepare_conftest(tests_at)
    run_sample(record, arguments[2:] or list(record["groups"]), results)


if __name__ == "__main__":
    main()
