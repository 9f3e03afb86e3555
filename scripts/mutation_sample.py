"""Draw a stratified random sample of mutant names from mutmut's generated mutants (mutants/**/*.meta).

    python scripts/mutation_sample.py SEED PER_GROUP [EARLIER.json ...] > sample.json

Groups: the modules the newest wave of work added or changed (those of 2026-12-04; the groups of the earlier
samples are named in docs/mutation-testing.md and in each sample's record). Within each group the names are
sorted, the names an earlier sample drew (its record, EARLIER.json) are left out, then
`random.Random(SEED).sample` draws PER_GROUP of them; a run that stops early takes each group's first names,
which keeps the strata.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

MUTANTS = Path("mutants")


GROUPS = {
    "verdicts": [
        "components/placement/verdicts.py",
        "components/placement/ownership.py",
        "components/placement/memory_fit.py",
        "components/placement/disk_fit.py",
        "components/placement/driver_fit.py",
    ],
    # The consumer (vllm/queue/consumer_script.py) is left out: its tests start it as a process against moto's
    # server and wait on visibility timeouts, minutes a mutant.
    "queue": [
        "components/placement/queue.py",
        "components/vllm/queue/manifests.py",
        "components/vllm/queue/serving_queue.py",
        "components/vllm/queue/batch.py",
        "components/settings/queue.py",
    ],
    "compare": [
        "components/stackcheck/plan/compare.py",
        "components/stackcheck/plan/rolling.py",
        "components/stackcheck/plan/stack_names.py",
    ],
    "cold_start": [
        "components/facts/cold_start.py",
        "components/stackcheck/plan/cold_start.py",
        "components/placement/cold_start.py",
    ],
    "memory": [
        "components/facts/model_memory.py",
        "components/facts/serving_memory.py",
        "components/placement/model_fit.py",
    ],
    "prices": [
        "components/facts/price_table.py",
        "components/facts/prices.py",
        "components/stackcheck/plan/cost.py",
        "components/settings/cost.py",
    ],
    "settings": [
        "components/settings/vllm.py",
        "components/settings/model_source.py",
        "components/settings/fleet.py",
        "components/settings/startup.py",
    ],
    "karpenter": [
        "components/pools/karpenter/controller.py",
        "components/pools/karpenter/manifests.py",
        "components/pools/karpenter/pool.py",
    ],
}


def _drawn_before(records: list[str]) -> set[str]:
    drawn: set[str] = set()
    for record in records:
        for group in json.loads(Path(record).read_text())["groups"].values():
            drawn.update(group["drawn"])
    return drawn


def main() -> None:
    seed, per_group = int(sys.argv[1]), int(sys.argv[2])
    earlier = _drawn_before(sys.argv[3:])
    sample = {}
    for group, files in GROUPS.items():
        names: list[str] = []
        for module in files:
            meta = MUTANTS / (module + ".meta")
            if meta.exists():
                names += json.loads(meta.read_text())["exit_code_by_key"]
        left = sorted(set(names) - earlier)
        sample[group] = {
            "population": len(names),
            "drawn_before": len(names) - len(left),
            "sample": random.Random(seed).sample(left, per_group),
        }
    json.dump(sample, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
