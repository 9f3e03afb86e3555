"""pytest plugin for mutation runs (pyproject.toml, [tool.mutmut]): fastest test modules first.

mutmut stops a mutant's run at the first failing test (-x), so running the selected tests' modules in
order of their mean test duration (recorded by mutmut in mutants/mutmut-stats.json) lets most mutants
die on a unit test in milliseconds instead of after the whole-stack tests. Tests stay grouped by
module, in their own order, so module-scoped fixtures are built once. The order changes speed only,
never the verdict.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path


def pytest_collection_modifyitems(session, config, items) -> None:
    stats = Path("mutmut-stats.json")
    if not stats.exists():
        return
    durations = json.loads(stats.read_text()).get("duration_by_test", {})
    by_module: dict[str, list[float]] = defaultdict(list)
    for item in items:
        by_module[item.nodeid.split("::", 1)[0]].append(durations.get(item.nodeid, 1.0))
    mean = {module: sum(values) / len(values) for module, values in by_module.items()}
    items.sort(key=lambda item: mean[item.nodeid.split("::", 1)[0]])
