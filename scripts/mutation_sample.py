"""Draw a stratified random sample of mutant names from mutmut's generated mutants (mutants/**/*.meta).

    nice -n 19 .venv/bin/python scripts/mutmut_generate.py
    .venv/bin/python scripts/mutation_sample.py SEED PER_GROUP [EARLIER.json ...] > docs/mutation/sample-DATE-seedSEED.json

Groups: the modules the newest wave of work added or changed (those of 2026-12-05: day-two disruption, warm
nodes, the compile cache, Hub facts, compressed-tensors schemes, usage prices; the groups of the earlier samples
are in each sample's record), each with the test files that exercise them, in the order they are to run
(cheap unit tests first). Within each group the names are sorted, the names an earlier sample drew (its record,
EARLIER.json) are left out, then `random.Random(SEED).sample` draws PER_GROUP of them; a run that stops early takes
each group's first names, which keeps the strata. The output is the sample's record: commit it before writing
any test that answers it, then run it with scripts/mutation_sample_run.py.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

MUTANTS = Path("mutants")


@dataclass(frozen=True)
class Group:
    """A stratum of the sample: its modules and the test files its mutants run against."""

    modules: list[str]
    tests: list[str]


GROUPS = {
    "disruption": Group(
        modules=[
            "components/placement/disruption.py",
            "components/stackcheck/plan/disruption.py",
            "components/vllm/disruption.py",
        ],
        tests=[
            "tests/vllm/test_disruption_window.py",
            "tests/placement/test_node_replacement.py",
            "tests/plan/test_compare_drift.py",
            "tests/pools/test_karpenter_stack.py",
        ],
    ),
    "warm": Group(
        modules=[
            "components/pools/warm_manifests.py",
            "components/pools/warm.py",
            "components/stackcheck/plan/warm_cost.py",
            "components/pools/fast_snapshot_restore.py",
        ],
        tests=[
            "tests/pools/test_warm_nodes.py",
            "tests/pools/test_image_cache.py",
            "tests/program/test_orderings.py",
            "tests/plan/test_plan_fast_start.py",
            "tests/plan/test_plan_cost.py",
        ],
    ),
    "compile_cache": Group(
        modules=[
            "components/vllm/compile_cache_manifests.py",
            "components/vllm/compile_cache.py",
            "components/settings/compile_cache.py",
        ],
        tests=[
            "tests/vllm/test_compile_cache.py",
            "tests/vllm/test_compile_cache_script.py",
            "tests/plan/test_cold_start_profile.py",
            "tests/plan/test_plan_cold_start.py",
            "tests/program/test_iam_policies.py",
        ],
    ),
    "hub": Group(
        modules=[
            "components/vllm/hub_facts.py",
            "components/facts/vllm_capability.py",
        ],
        tests=[
            "tests/placement/test_model_capability.py",
            "tests/vllm/test_hub_facts.py",
            "tests/vllm/test_hub_compressed_tensors.py",
            "tests/vllm/test_hub_preview.py",
        ],
    ),
    "model_facts": Group(
        modules=[
            "components/facts/model_config.py",
            "components/facts/model_facts.py",
        ],
        tests=[
            "tests/facts/test_model_config.py",
            "tests/placement/test_quantization_groups.py",
            "tests/settings/test_model_facts_layouts.py",
            "tests/placement/test_model_fit.py",
            "tests/vllm/test_hub_compressed_tensors.py",
            "tests/plan/test_plan_models.py",
        ],
    ),
    "usage_prices": Group(
        modules=[
            "components/stackcheck/plan/usage_cost.py",
            "components/facts/usage_price_table.py",
            "components/facts/prices.py",
        ],
        tests=[
            "tests/facts/test_usage_price_table.py",
            "tests/facts/test_prices.py",
            "tests/facts/test_price_table.py",
            "tests/plan/test_usage_cost.py",
            "tests/plan/test_plan_cost.py",
            "tests/plan/test_plan_cost_regions.py",
        ],
    ),
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
    groups = {}
    for name, group in GROUPS.items():
        names: list[str] = []
        for module in group.modules:
            meta = MUTANTS / (module + ".meta")
            if meta.exists():
                names += json.loads(meta.read_text())["exit_code_by_key"]
        left = sorted(set(names) - earlier)
        groups[name] = {
            "modules": group.modules,
            "population": len(names),
            "drawn_before": len(names) - len(left),
            "test_files": group.tests,
            "drawn": random.Random(seed).sample(left, per_group),
        }
    record = {"seed": seed, "per_group_drawn": per_group, "excluded": sys.argv[3:], "groups": groups}
    json.dump(record, sys.stdout, indent=1, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
