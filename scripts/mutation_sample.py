"""Draw a stratified random sample of mutant names from mutmut's generated mutants (mutants/**/*.meta).

    nice -n 19 .venv/bin/python scripts/mutmut_generate.py
    .venv/bin/python scripts/mutation_sample.py SEED PER_GROUP [EARLIER.json ...] > docs/mutation/sample-DATE-seedSEED.json

Groups: the modules the newest wave of work added or changed (those of 2026-12-04; the groups of the earlier
samples are in each sample's record), each with the test files that exercise them, in the order they are to run
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
    "verdicts": Group(
        modules=[
            "components/placement/verdicts.py",
            "components/placement/ownership.py",
            "components/placement/memory_fit.py",
            "components/placement/disk_fit.py",
            "components/placement/driver_fit.py",
        ],
        tests=[
            "tests/placement/test_verdicts.py",
            "tests/placement/test_ownership_verdict.py",
            "tests/placement/test_container_memory.py",
            "tests/placement/test_weights_on_disk.py",
            "tests/placement/test_driver_verdict.py",
            "tests/pools/test_driver_stack.py",
            "tests/plan/test_plan_robustness.py",
            "tests/plan/test_plan_report.py",
        ],
    ),
    # The consumer (vllm/queue/consumer_script.py) is left out: its tests start it as a process against moto's
    # server and wait on visibility timeouts, minutes a mutant.
    "queue": Group(
        modules=[
            "components/placement/queue.py",
            "components/vllm/queue/manifests.py",
            "components/vllm/queue/serving_queue.py",
            "components/vllm/queue/batch.py",
            "components/settings/queue.py",
        ],
        tests=[
            "tests/queue/test_batch_messages.py",
            "tests/placement/test_queue_verdicts.py",
            "tests/settings/test_queue_settings.py",
            "tests/queue/test_queue_component.py",
            "tests/queue/test_batch_command.py",
            "tests/queue/test_queue_stack.py",
            "tests/program/test_iam_policies.py",
            "tests/autoscaling/test_keda.py",
            "tests/placement/test_verdicts.py",
        ],
    ),
    "compare": Group(
        modules=[
            "components/stackcheck/plan/compare.py",
            "components/stackcheck/plan/rolling.py",
            "components/stackcheck/plan/stack_names.py",
        ],
        tests=[
            "tests/plan/test_compare_edges.py",
            "tests/plan/test_compare_rules.py",
            "tests/plan/test_plan_compare.py",
        ],
    ),
    "cold_start": Group(
        modules=[
            "components/facts/cold_start.py",
            "components/stackcheck/plan/cold_start.py",
            "components/placement/cold_start.py",
        ],
        tests=[
            "tests/facts/test_cold_start_steps.py",
            "tests/facts/test_instance_bandwidth.py",
            "tests/plan/test_plan_cold_start.py",
            "tests/plan/test_plan_fast_start.py",
            "tests/placement/test_verdicts.py",
            "tests/vllm/test_weights_copy.py",
            "tests/plan/test_plan_report.py",
        ],
    ),
    "memory": Group(
        modules=[
            "components/facts/model_memory.py",
            "components/facts/serving_memory.py",
            "components/placement/model_fit.py",
        ],
        tests=[
            "tests/facts/test_model_memory_defaults.py",
            "tests/placement/test_model_fit.py",
            "tests/placement/test_model_fit_layouts.py",
            "tests/settings/test_model_facts_layouts.py",
            "tests/placement/test_container_memory.py",
            "tests/settings/test_startup_memory.py",
            "tests/plan/test_plan_models.py",
            "tests/plan/test_plan_models_served_today.py",
            "tests/settings/test_pool_auto_edges.py",
        ],
    ),
    "prices": Group(
        modules=[
            "components/facts/price_table.py",
            "components/facts/prices.py",
            "components/stackcheck/plan/cost.py",
            "components/settings/cost.py",
        ],
        tests=[
            "tests/facts/test_prices.py",
            "tests/facts/test_price_table.py",
            "tests/plan/test_plan_cost.py",
            "tests/plan/test_plan_cost_regions.py",
            "tests/settings/test_pool_auto_edges.py",
            "tests/audit/test_audit_idle_cost.py",
        ],
    ),
    "settings": Group(
        modules=[
            "components/settings/vllm.py",
            "components/settings/model_source.py",
            "components/settings/fleet.py",
            "components/settings/startup.py",
        ],
        tests=[
            "tests/settings/test_settings.py",
            "tests/settings/test_settings_messages.py",
            "tests/settings/test_settings_whole_messages.py",
            "tests/settings/test_settings_whole_texts_vllm.py",
            "tests/settings/test_settings_whole_texts_servers.py",
            "tests/settings/test_settings_whole_texts_cross_section.py",
            "tests/settings/test_settings_whole_texts_limits.py",
            "tests/settings/test_settings_whole_texts_errors.py",
            "tests/settings/test_fleet_settings.py",
            "tests/settings/test_pool_auto_edges.py",
            "tests/settings/test_pool_auto_filters.py",
            "tests/settings/test_model_facts_layouts.py",
            "tests/settings/test_startup_memory.py",
            "tests/settings/test_consumer_semantics.py",
            "tests/settings/test_inputs_consumers_read.py",
            "tests/vllm/test_model_source.py",
            "tests/vllm/test_vllm_extra_args.py",
            "tests/vllm/test_vllm_flags.py",
        ],
    ),
    "karpenter": Group(
        modules=[
            "components/pools/karpenter/controller.py",
            "components/pools/karpenter/manifests.py",
            "components/pools/karpenter/pool.py",
        ],
        tests=[
            "tests/pools/test_karpenter_tags.py",
            "tests/pools/test_karpenter_manifests.py",
            "tests/pools/test_karpenter_real_accounts.py",
            "tests/pools/test_karpenter_stack.py",
            "tests/pools/test_karpenter_fleet.py",
            "tests/pools/test_instance_type_lists.py",
            "tests/program/test_iam_policies.py",
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
