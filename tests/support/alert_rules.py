"""From tests/observability/test_alert_rules.py, what other test modules use too: `OPERATOR`, `registered_groups`, `rule` and what they
need."""

from __future__ import annotations

from components.facts.resource_types import PROMETHEUS_RULE

OPERATOR = {"observability": {"prometheusOperator": True}}


def registered_groups(run) -> list[dict]:
    [rule] = [r.inputs for r in run.of_type(PROMETHEUS_RULE)]
    return rule["spec"]["groups"]


def rule(groups: list[dict], alertname: str) -> dict | None:
    found = [r for g in groups for r in g["rules"] if r["alert"] == alertname]
    return found[0] if found else None
