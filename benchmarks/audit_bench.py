"""Speed and memory of `python -m components.stackcheck audit` on a large cluster snapshot, against reading it with json.load.

Run from the repository root: `nice .venv/bin/python benchmarks/audit_bench.py --nodes 5000 --pods 100000`.

It writes the snapshot twice into a temporary directory (benchmarks/audit_snapshot.py says what the cluster
holds: GPU and CPU pools, node agents, vLLM pods idle, pending and leaking, app pods): indented as kubectl
prints it, and compact on one line as `jq -c` and the API server write it.

Then, alternately in one run, for each layout it times as separate processes:
  (a) `json.load` of the file in a bare Python process (the floor for any tool that parses it), and
  (b) the full audit (`--format json`, output discarded),
five runs each by default, and the peak RSS of each process (os.wait4). It prints medians side by side
and the ratios b/a per layout. The files are deleted at the end.
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
# (name, compact): kubectl indents by four spaces; `jq -c` and the API server write one line.
LAYOUTS = (("indented", False), ("compact", True))


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
        files = {}
        for layout, compact in LAYOUTS:
            files[layout] = snapshot = Path(tmp) / f"snapshot-{layout}.json"
            start = time.perf_counter()
            write_snapshot(snapshot, args.nodes, args.pods, compact=compact)
            size = snapshot.stat().st_size
            print(
                f"snapshot, {layout}: {args.nodes} nodes, {args.pods} pods, {size / 2**20:.0f} MiB "
                f"({size / max(args.pods, 1) / 1024:.1f} KiB per pod on average), written in "
                f"{time.perf_counter() - start:.0f} s"
            )
        results: dict[tuple[str, str], list[tuple[float, float, int]]] = {}
        for _ in range(args.runs):
            for layout, snapshot in files.items():
                load = [python, "-c", "import json, sys\nwith open(sys.argv[1]) as f: json.load(f)", str(snapshot)]
                audit = [
                    python,
                    "-m",
                    "components.stackcheck",
                    "audit",
                    "--snapshot",
                    str(snapshot),
                    "--format",
                    "json",
                ]
                results.setdefault((layout, "load"), []).append(timed(load))
                results.setdefault((layout, "audit"), []).append(timed(audit))
        codes = {code for (_, what), runs in results.items() if what == "audit" for _, _, code in runs}
        if not codes <= {0, 1}:
            print(f"audit failed with exit codes {sorted(codes)}", file=sys.stderr)
            return 1
    times = {key: statistics.median(r[0] for r in runs) for key, runs in results.items()}
    peaks = {key: statistics.median(r[1] for r in runs) for key, runs in results.items()}
    print(f"{'':36}{'time (median s)':>18}{'peak RSS (MiB)':>18}")
    for layout, _ in LAYOUTS:
        load, audit = (layout, "load"), (layout, "audit")
        print(f"{f'{layout}: (a) json.load, bare process':36}{times[load]:>18.2f}{peaks[load]:>18.0f}")
        print(f"{f'{layout}: (b) audit, whole process':36}{times[audit]:>18.2f}{peaks[audit]:>18.0f}")
        print(f"{f'{layout}: ratio b/a':36}{times[audit] / times[load]:>18.2f}{peaks[audit] / peaks[load]:>18.2f}")
        print(
            f"{layout} runs (s): a "
            + " ".join(f"{r[0]:.2f}" for r in results[load])
            + " | b "
            + " ".join(f"{r[0]:.2f}" for r in results[audit])
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
