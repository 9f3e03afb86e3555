"""Speed and memory of `python -m components.stackcheck audit` on a large cluster snapshot, against reading it with json.load.

Run from the repository root: `nice .venv/bin/python benchmarks/audit_bench.py --nodes 5000 --pods 100000`.

It writes a snapshot as kubectl prints it into a temporary directory (benchmarks/audit_snapshot.py says what
the cluster holds: GPU and CPU pools, node agents, vLLM pods idle, pending and leaking, app pods).

Then, alternately in one run, it times as separate processes:
  (a) `json.load` of the file in a bare Python process (the floor for any tool that parses it), and
  (b) the full audit (`--format json`, output discarded),
five runs each by default, and the peak RSS of each process (os.wait4). It prints medians side by
side and the ratios b/a. The file is deleted at the end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.audit_snapshot import write_snapshot

ROOT = Path(__file__).resolve().parent.parent


def timed(command: list[str]) -> tuple[float, float, int]:
    """Wall seconds, peak RSS in MiB and exit code of `command` run as a child process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss / 1024, process.returncode  # ru_maxrss is in KiB on Linux


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--pods", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="audit-bench-") as tmp:
        snapshot = Path(tmp) / "snapshot.json"
        start = time.perf_counter()
        write_snapshot(snapshot, args.nodes, args.pods)
        size = snapshot.stat().st_size
        print(
            f"snapshot: {args.nodes} nodes, {args.pods} pods, {size / 2**20:.0f} MiB "
            f"({size / max(args.pods, 1) / 1024:.1f} KiB per pod on average), written in {time.perf_counter() - start:.0f} s"
        )
        load = [python, "-c", "import json, sys\nwith open(sys.argv[1]) as f: json.load(f)", str(snapshot)]
        audit = [python, "-m", "components.stackcheck", "audit", "--snapshot", str(snapshot), "--format", "json"]
        results: dict[str, list[tuple[float, float, int]]] = {"load": [], "audit": []}
        for _ in range(args.runs):
            results["load"].append(timed(load))
            results["audit"].append(timed(audit))
        codes = {code for _, _, code in results["audit"]}
        if not codes <= {0, 1}:
            print(f"audit failed with exit codes {sorted(codes)}", file=sys.stderr)
            return 1
    times = {name: statistics.median(r[0] for r in runs) for name, runs in results.items()}
    peaks = {name: statistics.median(r[1] for r in runs) for name, runs in results.items()}
    print(f"{'':28}{'time (median s)':>18}{'peak RSS (MiB)':>18}")
    print(f"{'(a) json.load, bare process':28}{times['load']:>18.2f}{peaks['load']:>18.0f}")
    print(f"{'(b) audit, whole process':28}{times['audit']:>18.2f}{peaks['audit']:>18.0f}")
    print(f"{'ratio b/a':28}{times['audit'] / times['load']:>18.2f}{peaks['audit'] / peaks['load']:>18.2f}")
    print(
        "runs (s): a "
        + " ".join(f"{r[0]:.2f}" for r in results["load"])
        + " | b "
        + " ".join(f"{r[0]:.2f}" for r in results["audit"])
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
