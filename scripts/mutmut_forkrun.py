"""pytest plugin for a sample of mutants run by name, without mutmut's statistics step.

Collects the given tests once, then for each mutant of MUTANTS_FILE (names separated by whitespace) forks a
child that switches the mutant on (MUTANT_UNDER_TEST, which mutmut's trampolines read at each call) and runs
the collected tests in order, stopping at the first failure. Each child starts from a process that has only
collected, so no Pulumi gRPC thread is forked. One JSON line a mutant goes to RESULTS_FILE: the verdict
(killed, survived or timeout after MUTANT_TIMEOUT seconds), the test that failed, the seconds taken. Run it
from mutants/ with `-n 0 -p scripts.mutmut_forkrun`; give a name of no module (`none.clean`) first to check
that the tests pass unmutated. MUTANT_TESTS names, per mutant, the collected test files it runs.
"""

from __future__ import annotations

import json
import os
import signal
import time


def _run_child(session, name: str, write_end: int, only: set[str] | None) -> None:
    os.environ["MUTANT_UNDER_TEST"] = name
    failed = ""
    items = session.items
    if only is not None:
        items = [item for item in items if item.nodeid.split("::", 1)[0] in only]
    for index, item in enumerate(items):
        following = items[index + 1] if index + 1 < len(items) else None
        before = session.testsfailed
        item.config.hook.pytest_runtest_protocol(item=item, nextitem=following)
        if session.testsfailed > before:
            failed = item.nodeid
            break
    os.write(write_end, failed.encode())
    os._exit(1 if failed else 0)


def _wait(pid: int, limit: float, start: float) -> int | None:
    while time.time() - start < limit:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.2)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


def pytest_runtestloop(session):
    with open(os.environ["MUTANTS_FILE"]) as names_file:
        names = names_file.read().split()
    limit = float(os.environ.get("MUTANT_TIMEOUT", "300"))
    # MUTANT_TESTS: a JSON map from a mutant's name to the test files it runs (the others collected are skipped
    # for it); a name it does not hold runs every collected test.
    tests_by_mutant = {}
    if os.environ.get("MUTANT_TESTS"):
        with open(os.environ["MUTANT_TESTS"]) as tests_file:
            tests_by_mutant = json.load(tests_file)
    with open(os.environ["RESULTS_FILE"], "a") as results:
        for name in names:
            start = time.time()
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(read_end)
                only = set(tests_by_mutant[name]) if name in tests_by_mutant else None
                _run_child(session, name, write_end, only)
            os.close(write_end)
            code = _wait(pid, limit, start)
            by = os.read(read_end, 10000).decode() if code is not None else ""
            os.close(read_end)
            verdict = "timeout" if code is None else "killed" if code else "survived"
            seconds = round(time.time() - start, 1)
            results.write(json.dumps({"mutant": name, "verdict": verdict, "by": by, "seconds": seconds}) + "\n")
            results.flush()
    return True
