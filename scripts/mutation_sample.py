"""Draw a stratified random sample of mutant names from mutmut's generated mutants (mutants/**/*.meta).

    nice -n 19 .venv/bin/python scripts/mutmut_generate.py
    nice -n 19 .venv/bin/python scripts/mutation_test_map.py docs/mutation/test-map-DATE.json
    .venv/bin/python scripts/mutation_sample.py SEED PER_GROUP --test-map docs/mutation/test-map-DATE.json \
        [EARLIER.json ...] > docs/mutation/sample-DATE-seedSEED.json

Groups: the modules this wave of work added or changed (the fleet's verdicts, the queue, `--compare`, cold start,
memory, prices, settings and Karpenter of 2026-12-04; day-two disruption, warm nodes, the compile cache, Hub facts,
model facts and usage prices of 2026-12-05), each with the test files named for it, cheap unit tests first. With
`--test-map` (scripts/mutation_test_map.py), each drawn mutant also runs every other test file that ran any line
of the function it changes, fastest first (`covering_test_files`): a mutant is then judged by every test that can
reach it, as the suite judges it, not only by the files its group names. Within each group the names are sorted, the names an earlier sample drew (its
record, EARLIER.json) or an earlier group of this one are left out, then `random.Random(SEED).sample` draws
PER_GROUP of them; a run that stops early takes each group's first names, which keeps the strata. The output is
the sample's record: commit it before writing any test that answers it, then run it with
scripts/mutation_sample_run.py.
"""

from __future__ import annotations

import ast
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
            "tests/placement/test_verdict_judges.py",
            "tests/placement/test_ownership_verdict.py",
            "tests/placement/test_container_memory.py",
            "tests/placement/test_weights_on_disk.py",
            "tests/placement/test_driver_verdict.py",
            "tests/pools/test_driver_stack.py",
            "tests/plan/test_plan_robustness.py",
            "tests/plan/test_plan_report.py",
        ],
    ),
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
            "tests/queue/test_queue_manifests_whole.py",
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
            "tests/plan/test_compare_drift.py",
            "tests/plan/test_plan_compare.py",
        ],
    ),
    "cold_start": Group(
        modules=[
            "components/facts/cold_start.py",
            "components/stackcheck/plan/cold_start.py",
            "components/placement/cold_start.py",
            "components/facts/cuda_graphs.py",
            "components/settings/vllm_flags.py",
        ],
        tests=[
            "tests/facts/test_cold_start_steps.py",
            "tests/placement/test_cold_start_budgets.py",
            "tests/facts/test_cuda_graphs.py",
            "tests/vllm/test_cuda_graph_cap.py",
            "tests/vllm/test_vllm_flags.py",
            "tests/vllm/test_vllm_flags_readings.py",
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
            "components/facts/activation_peak.py",
        ],
        tests=[
            "tests/facts/test_model_memory_defaults.py",
            "tests/facts/test_activation_peak.py",
            "tests/facts/test_activation_peak_parts.py",
            "tests/placement/test_expert_parallel.py",
            "tests/facts/test_activation_peak_catalog.py",
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
            "tests/plan/test_cost_readers.py",
            "tests/plan/test_stack_cost_settings.py",
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
            "tests/settings/test_fleet_contracts.py",
            "tests/settings/test_pool_auto_edges.py",
            "tests/settings/test_pool_auto_filters.py",
            "tests/settings/test_model_facts_layouts.py",
            "tests/settings/test_startup_memory.py",
            "tests/settings/test_consumer_semantics.py",
            "tests/settings/test_inputs_consumers_read.py",
            "tests/vllm/test_model_source.py",
            "tests/vllm/test_vllm_extra_args.py",
            "tests/vllm/test_vllm_flags.py",
            "tests/vllm/test_vllm_flags_readings.py",
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
    "disruption": Group(
        modules=[
            "components/placement/disruption.py",
            "components/stackcheck/plan/disruption.py",
            "components/vllm/disruption.py",
        ],
        tests=[
            "tests/vllm/test_disruption_window.py",
            "tests/placement/test_node_replacement.py",
            "tests/plan/test_pool_replacement.py",
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
            "tests/plan/test_stack_cost_settings.py",
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
            "tests/vllm/test_compile_cache_manifests.py",
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
            "components/settings/hub_models.py",
        ],
        tests=[
            "tests/settings/test_hub_models.py",
            "tests/placement/test_model_capability.py",
            "tests/vllm/test_hub_auto_pool.py",
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
            "tests/facts/test_model_facts_checks.py",
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
            "tests/plan/test_cost_readers.py",
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


def _function_lines(module: str, mutant: str) -> range:
    """The source lines of the function or method a mutant changes (mutmut names it `x_<function>` or
    `xǁ<class>ǁ<method>`, then `__mutmut_<n>`)."""
    function = mutant.rsplit(".", 1)[1].rsplit("__mutmut_", 1)[0]
    path = function.removeprefix("x_").removeprefix("xǁ").split("ǁ")
    tree = ast.parse(Path(module).read_text())
    body: list[ast.stmt] = tree.body
    for part in path:
        [node] = [
            node
            for node in body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == part
        ]
        body = node.body
    return range(node.lineno, (node.end_lineno or node.lineno) + 1)


def covering_files(test_map: dict, module: str, mutant: str, named: list[str]) -> list[str]:
    """The test files the map says ran any line of the mutant's function, other than `named`, fastest first."""
    by_line = test_map["test_files_by_line"].get(module, {})
    indices = {index for line in _function_lines(module, mutant) for index in by_line.get(str(line), [])}
    found = {test_map["test_files"][index] for index in indices} - set(named)
    seconds = test_map["seconds_by_test_file"]
    return sorted(found, key=lambda path: (seconds.get(path, 0.0), path))


def main() -> None:
    arguments = sys.argv[1:]
    test_map = None
    if "--test-map" in arguments:
        at = arguments.index("--test-map")
        test_map = json.loads(Path(arguments[at + 1]).read_text())
        del arguments[at : at + 2]
    seed, per_group = int(arguments[0]), int(arguments[1])
    earlier = _drawn_before(arguments[2:])
    groups = {}
    for name, group in GROUPS.items():
        names: list[str] = []
        module_of: dict[str, str] = {}
        for module in group.modules:
            meta = MUTANTS / (module + ".meta")
            if meta.exists():
                keys = json.loads(meta.read_text())["exit_code_by_key"]
                names += keys
                module_of.update(dict.fromkeys(keys, module))
        left = sorted(set(names) - earlier)
        drawn = random.Random(seed).sample(left, per_group)
        earlier.update(drawn)
        groups[name] = {
            "modules": group.modules,
            "population": len(names),
            "drawn_before": len(names) - len(left),
            "test_files": group.tests,
            "drawn": drawn,
        }
        if test_map is not None:
            groups[name]["covering_test_files"] = {
                mutant: covering_files(test_map, module_of[mutant], mutant, group.tests) for mutant in drawn
            }
    record = {
        "seed": seed,
        "per_group_drawn": per_group,
        "excluded": arguments[2:],
        "test_map": None if test_map is None else {key: test_map[key] for key in ("made", "commit")},
        "groups": groups,
    }
    json.dump(record, sys.stdout, indent=1, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
