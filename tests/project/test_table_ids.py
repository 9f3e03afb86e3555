"""Parametrized cases carry ids that say what each case is about, not pytest's generated ``<argname><index>``.

pytest names a case by its values when they are strings or numbers, and otherwise by the argument's name and
the row's index (``test_each_operator[requirement12-True]``), which tells a reader of a failure nothing. Tables
give each row ``pytest.param(..., id="...")`` or an id derived from the row; this test keeps it so.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A child pytest collects a directory and prints each parametrized case's node id, id and argument names.
# strict_parametrization_ids turns ids that repeat within a test into a collection error, instead of pytest
# telling them apart by appending counters. The child collects in its own process (-n 0: the probe reads
# the collection there, not in xdist workers) and leaves asserts unrewritten, which ids do not depend on
# and which would double the cost of collecting the suite.
PROBE = """
import json, sys
import pytest

class Probe:
    def pytest_collection_finish(self, session):
        cases = [
            {"nodeid": item.nodeid, "id": item.callspec.id, "argnames": sorted(item.callspec.params)}
            for item in session.items
            if hasattr(item, "callspec")
        ]
        print("CASES " + json.dumps(cases))

args = ["--collect-only", "-q", "-p", "no:cacheprovider", "-n", "0", "--assert=plain"]
args += ["-o", "strict_parametrization_ids=true", sys.argv[1]]
sys.exit(pytest.main(args, plugins=[Probe()]))
"""


def collect(path: Path, cwd: Path) -> list[dict]:
    """The parametrized cases pytest collects under path; fails on a collection error such as a repeated id."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    [line] = [line for line in done.stdout.splitlines() if line.startswith("CASES ")]
    return json.loads(line.removeprefix("CASES "))


def generated(cases: list[dict]) -> list[str]:
    """Node ids whose id holds a part pytest made up: an argument name plus an index, or a lambda's name."""
    return [
        case["nodeid"]
        for case in cases
        if "<lambda>" in case["id"]
        or any(re.search(rf"(?:^|-){re.escape(name)}\d+(?:-|$)", case["id"]) for name in case["argnames"])
    ]


def whole_suite_cases(session: pytest.Session) -> list[dict] | None:
    """The parametrized cases of `session` itself when it collected what the probe would: all of tests/, with
    repeated ids refused (pytest.ini) and nothing deselected or ignored; else None. A full run of the suite
    then checks its own collection instead of collecting the suite a second time."""
    config, option = session.config, session.config.option
    whole = (
        config.getini("strict_parametrization_ids")
        and [Path(arg).resolve() for arg in config.args] == [ROOT / "tests"]
        and not any(
            getattr(option, name, None) for name in ("keyword", "markexpr", "deselect", "ignore", "ignore_glob")
        )
    )
    if not whole:
        return None
    return [
        {"nodeid": item.nodeid, "id": item.callspec.id, "argnames": sorted(item.callspec.params)}
        for item in session.items
        if hasattr(item, "callspec")
    ]


def test_every_case_in_the_suite_has_a_readable_unique_id(request):
    cases = whole_suite_cases(request.session) or collect(ROOT / "tests", ROOT)
    assert len(cases) > 1000  # the suite's tables were collected
    assert generated(cases) == []


def test_the_check_catches_generated_and_repeated_ids(tmp_path):
    (tmp_path / "test_table.py").write_text(
        "import pytest\n"
        "@pytest.mark.parametrize(('pod', 'fits'), [({'a': 1}, True), pytest.param({}, False, id='empty pod')])\n"
        "def test_fit(pod, fits):\n"
        "    pass\n"
    )
    cases = collect(tmp_path, tmp_path)
    assert [case["id"] for case in cases] == ["pod0-True", "empty pod"]
    assert generated(cases) == ["test_table.py::test_fit[pod0-True]"]

    (tmp_path / "test_table.py").write_text(
        "import pytest\n"
        "@pytest.mark.parametrize('n', [pytest.param(1, id='one'), pytest.param(2, id='one')])\n"
        "def test_n(n):\n"
        "    pass\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode != 0 and "Duplicate parametrization IDs detected" in done.stdout
