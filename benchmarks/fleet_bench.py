"""How the offline plan's cost grows with the fleet: a 64-model fleet's plan against a 1-model fleet's.

Usage (from the repository root): `.venv/bin/python benchmarks/fleet_bench.py [--runs 5] [--check]`

Writes two stack files of the fleet form (`gpuPools` and `models`, components/settings/fleet.py) into a
temporary folder, each planned as a stack of this repository's project (`--project-dir` the repository,
`--stack-file` the file):

  (1)  one model on one pool of one node;
  (64) 64 models, each with a name of its own (and so its own namespace, Deployment and Service), spread in
       turn over 4 pools of 16 nodes.

Every model serves the same weights (Qwen2.5-1.5B-Instruct, which fits one NVIDIA L4) on one g6.xlarge (one
L4), so each model costs the plan the same and the ratio measures their number. Each pool holds a node for
each of its models at desiredSize, and no node more (minSize = desiredSize = maxSize), so the capacity and
scale-from-zero checks hold; the API endpoint is open to a documentation range (RFC 5737's 203.0.113.0/24)
rather than the whole internet, which would warn. Both plans exit 0 without warnings: the first run of
each, untimed, stops the benchmark otherwise and gives the resource and warning counts printed.

The two plans (`python -m components.stackcheck plan ... --format json`, output discarded) run as processes
started alike (benchmarks/plan_bench.py's `timed`: same interpreter, working directory and environment,
compiled code), alternately over rounds, each round in a rotated order. The ratio is the median over the
rounds of each round's CPU time (user and system, from the process's resource usage) 64/1; the target is at
most 2.5 and `--check` exits 1 above it. A plan's imports, most of the 1-model plan's CPU time, cost the
same on both sides; the rest grows with the models.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.plan_bench import Timing, rotated, round_ratios, summary, timed

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 2.5
FLEET_MODELS = 64
FLEET_POOLS = 4
PROJECT = "eks-gpu-inference"
MODEL = "Qwen/Qwen2.5-1.5B-Instruct"
INSTANCE_TYPE = "g6.xlarge"
# RFC 5737's TEST-NET-3: a range that is nobody's, so the endpoint is not open to the whole internet.
DOCUMENTATION_CIDR = "203.0.113.0/24"


def fleet_config(models: int, pools: int) -> dict[str, Any]:
    """The stack config (`namespace:key` -> value) of `models` models spread in turn over `pools` pools, each
    pool a node per model it serves."""
    served = [
        {"name": f"model-{index:02d}", "model": MODEL, "pool": f"l4-{index % pools}", "maxModelLen": 8192}
        for index in range(models)
    ]
    gpu_pools = {}
    for pool in range(pools):
        nodes = sum(1 for model in served if model["pool"] == f"l4-{pool}")
        gpu_pools[f"l4-{pool}"] = {
            "instanceTypes": [INSTANCE_TYPE],
            "minSize": nodes,
            "desiredSize": nodes,
            "maxSize": nodes,
        }
    return {
        "aws:region": "us-west-2",
        f"{PROJECT}:cluster": {"name": f"fleet-{models}", "publicAccessCidrs": [DOCUMENTATION_CIDR]},
        f"{PROJECT}:gpuPools": gpu_pools,
        f"{PROJECT}:models": served,
    }


def write_stack_file(folder: Path, models: int, pools: int) -> Path:
    """`Pulumi.fleet-<models>.yaml` in `folder`, holding `fleet_config(models, pools)`."""
    path = folder / f"Pulumi.fleet-{models}.yaml"
    path.write_text(yaml.safe_dump({"config": fleet_config(models, pools)}, sort_keys=False))
    return path


def plan_command(stack_file: Path, out: Path) -> list[str]:
    """The plan of `stack_file` as a stack of this repository's project, its objects written to `out`."""
    return [sys.executable, "-m", "components.stackcheck", "plan", "--project-dir", str(ROOT)] + [
        "--stack-file",
        str(stack_file),
        "--out",
        str(out),
        "--format",
        "json",
    ]


def checked_run(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    """The plan's JSON report from one run of `command`; stops the benchmark unless the plan exits 0."""
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{command[-5]} planned with exit {done.returncode}:\n{done.stdout[-2000:]}{done.stderr}")
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; prints medians and the ratio, returns 0 (1 with --check above the target)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--warmups", type=int, default=1, help="untimed runs of each plan first, the checked one included (default 1)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true", help=f"exit 1 when the CPU ratio is above {TARGET_RATIO}")
    args = parser.parse_args(argv)

    compileall.compile_dir(str(ROOT / "components"), quiet=1)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        commands = {
            models: plan_command(write_stack_file(Path(folder), models, pools), Path(folder) / f"out-{models}")
            for models, pools in ((1, 1), (FLEET_MODELS, FLEET_POOLS))
        }
        reports = {models: checked_run(command, env) for models, command in commands.items()}
        for _ in range(args.warmups - 1):
            for command in commands.values():
                timed(command, env)
        times: dict[int, list[Timing]] = {models: [] for models in commands}
        for round_ in range(args.runs):
            for models in rotated(list(commands), round_):
                times[models].append(timed(commands[models], env))
    load_after = os.getloadavg()
    cpu = {models: [t.cpu for t in side] for models, side in times.items()}
    wall = {models: [t.wall for t in side] for models, side in times.items()}
    rounds = round_ratios(cpu[FLEET_MODELS], cpu[1])
    ratio = statistics.median(rounds)
    figures = {
        "runs": args.runs,
        "warmups": args.warmups,
        "sides": {
            str(models): {
                **summary(times[models]),
                "resources": reports[models]["counts"]["total"],
                "warnings": len(reports[models]["warnings"]),
            }
            for models in commands
        },
        "ratio": round(ratio, 3),
        "roundRatios": rounds,
        "wallRatio": statistics.median(round_ratios(wall[FLEET_MODELS], wall[1])),
        "loadAverage": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after]},
        "target": TARGET_RATIO,
    }
    print(json.dumps(figures, indent=2) if args.json else _text(figures))
    return 1 if args.check and ratio > TARGET_RATIO else 0


def _text(figures: dict) -> str:
    rows = []
    for models, side in figures["sides"].items():
        cpu, wall = (", ".join(f"{t:.2f}" for t in side[runs]) for runs in ("cpuSeconds", "wallSeconds"))
        rows.append(
            f"{models:>2} model(s), {side['resources']} resources, {side['warnings']} warning(s): median "
            f"{side['cpuMedian']:.2f} s CPU, {side['wallMedian']:.2f} s wall  (CPU {cpu}; wall {wall})"
        )
    verdict = "within" if figures["ratio"] <= figures["target"] else "ABOVE"
    rows += [
        f"CPU ratio {FLEET_MODELS}/1: {figures['ratio']:.2f} ({verdict} the target {figures['target']}; median of "
        f"the rounds {', '.join(f'{r:.2f}' for r in figures['roundRatios'])}), wall-clock {figures['wallRatio']:.2f}",
        f"load average: {' '.join(map(str, figures['loadAverage']['before']))} before, "
        f"{' '.join(map(str, figures['loadAverage']['after']))} after",
    ]
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
