"""Run a held-out sample of mutants (a record written by scripts/mutation_sample.py) and count its results.

    nice -n 19 .venv/bin/python scripts/mutation_sample_run.py RECORD.json RESULTS.jsonl [GROUP ...]
    .venv/bin/python scripts/mutation_sample_run.py --count RECORD.json RESULTS.jsonl

Runs each group (all, or those named) from mutants/ with scripts/mutmut_forkrun.py: the group's test files are
collected once, then each drawn mutant runs in a child of its own against them, in the order the record names
them, stopping at the first failure; a clean run (`none.clean`) comes first and must survive. Mutants already in
RESULTS.jsonl are not run again, so a run that stopped goes on where it was. One process, so run it under `nice`.

Before the first run, mutants/tests/conftest.py is made to share the program runs across tests (session scope,
as in an ordinary run) and to keep the test files in the order named: under mutmut's own runner each test runs
the program itself, because mutmut credits a function only to the test during which it ran; here each mutant is
switched on for the whole child, so sharing cannot credit the wrong test, and the cheap unit tests go first.

`--count` prints, per group, the mutants tried, killed (a timeout counts as killed, as mutmut counts it) and
survived, and the surviving names.
"""

from __future__ import annotations

import json
import os
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


def prepare_conftest() -> None:
    """Edit the mutated copy's conftest as the module docstring says; an edit already made is left alone."""
    text = CONFTEST.read_text()
    for before, after in CONFTEST_EDITS:
        if after in text:
            continue
        if before not in text:
            raise SystemExit(f"{CONFTEST}: cannot find {before!r}; update CONFTEST_EDITS to the conftest")
        text = text.replace(before, after)
    CONFTEST.write_text(text)


def results_of(path: Path) -> dict[str, dict]:
    """Each mutant's result line in RESULTS.jsonl, by name (the last line of a name wins)."""
    if not path.exists():
        return {}
    lines = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {line["mutant"]: line for line in lines}


def run_group(name: str, group: dict, results: Path) -> None:
    done = results_of(results)
    names = ["none.clean"] + [mutant for mutant in group["drawn"] if mutant not in done]
    with tempfile.NamedTemporaryFile("w", suffix=".names", delete=False) as names_file:
        names_file.write("\n".join(names) + "\n")
    environment = dict(os.environ, MUTANTS_FILE=names_file.name, RESULTS_FILE=str(results.resolve()))
    left_out = [argument for test in LEFT_OUT for argument in ("--deselect", test)]
    command = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "scripts.mutmut_forkrun", *left_out]
    command += group["test_files"]
    print(f"{name}: {len(names) - 1} mutants", flush=True)
    subprocess.run(command, cwd=MUTANTS, env=environment, check=False, stdout=subprocess.DEVNULL)
    os.unlink(names_file.name)
    clean = results_of(results).get("none.clean", {})
    if clean.get("verdict") != "survived":
        raise SystemExit(f"{name}: the clean run failed ({clean.get('by')}): fix the tests before counting mutants")


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
    counting = arguments[:1] == ["--count"]
    if counting:
        arguments = arguments[1:]
    record = json.loads(Path(arguments[0]).read_text())
    results = Path(arguments[1])
    if counting:
        count(record, results_of(results))
        return
    prepare_conftest()
    for name in arguments[2:] or list(record["groups"]):
        run_group(name, record["groups"][name], results)


if __name__ == "__main__":
    main()
