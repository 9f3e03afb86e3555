"""From tests/observability/test_dashboards.py, what other test modules use too: `DASHBOARD`, `DCGM_LIST`, `KSM_LIST`, `VLLM_LIST`, `exposed`, `metric_names` and what they
need."""

from __future__ import annotations

import re

from components.facts import versions
from components.observability.monitoring import DASHBOARDS_DIR

DASHBOARD = DASHBOARDS_DIR / "gpu-inference.json"


METRICS_DIR = DASHBOARDS_DIR / "metrics"


DCGM_LIST = METRICS_DIR / f"dcgm-exporter-{versions.DCGM_EXPORTER_VERSION}.txt"


VLLM_LIST = METRICS_DIR / f"vllm-{versions.VLLM_VERSION}.txt"


KSM_LIST = METRICS_DIR / f"kube-state-metrics-{versions.KUBE_STATE_METRICS_VERSION}.txt"


# Series a histogram exposes besides its name (Prometheus exposition format).
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")


# PromQL words that are not metric names: operators and modifiers (functions are told by their parenthesis).
PROMQL_KEYWORDS = {
    "and",
    "or",
    "unless",
    "bool",
    "offset",
    "by",
    "without",
    "on",
    "ignoring",
    "group_left",
    "group_right",
    "inf",
    "nan",
}


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')


_MATCHERS = re.compile(r"\{[^}]*\}")


_RANGE = re.compile(r"\[[^\]]*\]")


_GROUPING = re.compile(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)")


_IDENTIFIER = re.compile(r"(?<![\w:.])([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?")


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads: identifiers that are not functions, keywords or labels."""
    text = _GROUPING.sub(" ", _RANGE.sub(" ", _MATCHERS.sub(" ", _STRING.sub(" ", expr))))
    return {name for name, call in _IDENTIFIER.findall(text) if not call and name.lower() not in PROMQL_KEYWORDS}


def exposed(path) -> set[str]:
    """Series names a metric list allows: each name, and a histogram's `_bucket`, `_sum` and `_count`."""
    names = set()
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, kind = line.split()
        names.add(name)
        if kind == "histogram":
            names.update(name + suffix for suffix in HISTOGRAM_SUFFIXES)
    return names
