"""Draw a stratified random sample of mutant names from mutmut's generated mutants (mutants/**/*.meta).

    python scripts/mutation_sample.py SEED PER_GROUP [EARLIER.json ...] > sample.json

Groups: the modules added most recently, as in docs/mutation-testing.md. Within each group the names are
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


def _modules(folder: str) -> list[str]:
    return sorted(str(path.relative_to(MUTANTS)) for path in (MUTANTS / folder).glob("*.py"))


GROUPS = {
    "network": ["components/cluster/network.py"],
    "autoscaler": ["components/autoscaling/cluster_autoscaler.py", "components/placement/scale_from_zero.py"],
    "observability": [
        "components/observability/monitoring.py",
        "components/observability/alert_rules.py",
        "components/gpu_agents/dcgm_exporter.py",
    ],
    "node_agents": [
        "components/cluster/node_monitoring.py",
        "components/stackcheck/plan/node_agents.py",
        "components/placement/agents.py",
        "components/placement/exporter.py",
    ],
    "audit": _modules("components/stackcheck/audit"),
    "aws_rules": ["components/stackcheck/aws/rules.py", "components/stackcheck/aws/network_rules.py"],
    "settings": _modules("components/settings"),
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
