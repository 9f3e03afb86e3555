"""The values of a Helm release against what its chart reads, for the charts whose default values are committed in
stackcheck/plan/charts/ (each file names the chart, its version and where its values.yaml was read).

A value the chart has no default for is a typo or a value of another version: Helm passes it to the templates,
which never read it, so the release installs as if it were not there. Below a default that is an empty map
(`podAnnotations: {}`) or a map of strings only (`nodeSelector: {kubernetes.io/os: linux}`: labels, annotations)
any key is the user's own.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from ...facts.resource_types import HELM_RELEASE
from .schema import SchemaResult

CHART_DIR = Path(__file__).resolve().parent / "charts"


@functools.cache
def chart_defaults() -> dict[tuple[str, str], dict[str, Any]]:
    """`(chart, version)` -> the committed document (`source`, `chart`, `version`, `values`)."""
    documents = {}
    for path in sorted(CHART_DIR.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        documents[(document["chart"], document["version"])] = document
    return documents


def unknown_values(values: Any, defaults: Any, path: str = "values") -> list[str]:
    """Every key of `values` the chart's `defaults` do not have, as a dotted path."""
    if not isinstance(values, dict) or not isinstance(defaults, dict) or not defaults:
        return []
    if all(isinstance(default, str) for default in defaults.values()):
        return []
    problems = []
    for key, value in values.items():
        if key not in defaults:
            problems.append(f"{path}.{key}")
        else:
            problems += unknown_values(value, defaults[key], f"{path}.{key}")
    return problems


def check_releases(resources: list[Any]) -> list[SchemaResult]:
    """A result per registered Helm release of a committed chart: its values against the chart's."""
    results = []
    for resource in resources:
        if resource.type != HELM_RELEASE:
            continue
        inputs = resource.inputs
        document = chart_defaults().get((inputs.get("chart"), inputs.get("version")))
        if document is None:
            continue
        release = f"Release {inputs.get('namespace') or 'default'}/{inputs.get('name') or resource.name}"
        unknown = unknown_values(inputs.get("values") or {}, document["values"])
        chart = f"{document['chart']} {document['version']}"
        if unknown:
            results.append(SchemaResult(release, False, f"invalid (chart {chart}): reads no {', '.join(unknown)}"))
        else:
            results.append(SchemaResult(release, True, f"valid (values of chart {chart})"))
    return results
