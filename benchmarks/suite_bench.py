"""What freezing the heap saves the test suite: the README's test command with the heap frozen and without.

Usage (from the repository root): `.venv/bin/python benchmarks/suite_bench.py [--runs 3] [-- PYTEST ARGS]`

`tests/conftest.py` collects the garbage and freezes the heap (`gc.freeze`) after collection and after each test
module, so that the collector stops walking what lives for the whole session (the SDKs, the collected tests,
the shared program runs) each time a program run fills its youngest generation. `SUITE_HEAP=unfrozen` turns
that off, which is how the suite ran before. This benchmark times, alternately in one session, two processes
started the same way (same interpreter, working directory, arguments and environment but that one variable,
output discarded):

  (a) `python -m pytest [PYTEST ARGS]` with `SUITE_HEAP=unfrozen`;
  (b) the same command, the heap frozen as the suite runs by default.

Each round runs the two in a rotated order, so that neither always follows the other; the ratio is the median
over the rounds of each round's a/b (so a change in the machine's load between rounds cancels out), for the
wall-clock time and for the CPU time of the process and the workers it waited for (os.wait4). The default
arguments are none: the whole suite on every CPU, as CI runs it; `-- tests/cluster/test_network.py -n 0` times a part.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.plan_bench import rotated, round_ratios  # noqa: E402  # the same rounds as the plan benchmark

HEAP_VARIABLE = "SUITE_HEAP"
UNFROZEN = "unfrozen"


def side_environments(base: dict[str, str]) -> dict[str, dict[str, str]]:
    """The two sides' environments: `base` with the freeze off (a) and as it is by default (b)."""
    frozen = {key: value for key, value in base.items() if key != HEAP_VARIABLE}
    return {"a": {**frozen, HEAP_VARIABLE: UNFROZEN}, "b": frozen}


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of `command` from the repository root; fails loudly unless every test passed."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{' '.join(command)} exited {code} with {HEAP_VARIABLE}={env.get(HEAP_VARIABLE, '')!r}")
    return wall, usage.ru_utime + usage.ru_stime


def median_ratio(tops: list[float], bottoms: list[float]) -> float:
    """The median of each round's top/bottom."""
    return statistics.median(round_ratios(tops, bottoms))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print each side's runs and the ratios a/b."""
    argv = sys.argv[1:] if argv is None else argv
    pytest_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    own = argv[: argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="rounds, each one run of each side (default 3)")
    args = parser.parse_args(own)

    command = [sys.executable, "-m", "pytest", "-q", *pytest_args]
    environments = side_environments(dict(os.environ))
    load_before = os.getloadavg()
    walls: dict[str, list[float]] = {"a": [], "b": []}
    cpus: dict[str, list[float]] = {"a": [], "b": []}
    for round_ in range(args.runs):
        for side in rotated(["a", "b"], round_):
            wall, cpu = timed(command, environments[side])
            walls[side].append(round(wall, 2))
            cpus[side].append(round(cpu, 2))
    figures = {
        "command": command[1:],
        "unfrozenWallSeconds": walls["a"],
        "frozenWallSeconds": walls["b"],
        "unfrozenCpuSeconds": cpus["a"],
        "frozenCpuSeconds": cpus["b"],
        "wallRatio": median_ratio(walls["a"], walls["b"]),
        "cpuRatio": median_ratio(cpus["a"], cpus["b"]),
        "loadAverage": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()]},
    }
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
