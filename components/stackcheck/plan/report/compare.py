"""The comparison with an earlier plan as a report section (stackcheck/plan/sections.py), which every format shows
before the rest of the plan: replacements first, then changed inputs, added and removed resources, verdicts
that changed, and the cost delta."""

from __future__ import annotations

import json
from typing import Any

from ..compare import COST_KEYS, Comparison, CostDelta, InputChange, ResourceChange, rule_source
from .sections import Column, Items, Paragraph, Row, Section, Table

_ACTION_WORDS = {"replace": "replace", "may-replace": "may replace (rules not known)", "update": "update in place"}
_SHOWN_CHANGES = 6
"""Changed inputs listed per resource; the rest are counted."""
_VALUE_WIDTH = 48


def comparison_section(comparison: Comparison) -> Section:
    """The section of `comparison`: a summary sentence, the changed resources, what was added and removed, the
    verdicts that changed and the cost delta; its JSON field is `comparison`."""
    replacing = comparison.of_action("replace") + comparison.of_action("may-replace")
    blocks = (
        Paragraph(summary(comparison)),
        Paragraph(
            ""
            if comparison.inputs_compared
            else "The earlier plan's JSON carries no resource inputs (it was written before the plan recorded "
            "them), so changed resources are not listed."
        ),
        Table(
            (Column("Action"), Column("Resource", code=True), Column("Type", code=True), Column("Changed inputs")),
            tuple(
                Row((_action_words(change), change.name, change.type, _changes(change)))
                for change in comparison.changed
            ),
        ),
        Items(tuple(f"{ref.type} {ref.name}" for ref in comparison.added), label="Added"),
        Items(tuple(f"{ref.type} {ref.name}" for ref in comparison.removed), label="Removed"),
        Table(
            (Column("Verdict"), Column("Before"), Column("After"), Column("Now")),
            tuple(
                Row(
                    (f"{verdict.id} {verdict.name}", _outcome(verdict.before), _outcome(verdict.after), verdict.message)
                )
                for verdict in comparison.verdicts
            ),
        ),
    )
    return Section(
        "comparison",
        f"Changes since {comparison.previous}",
        "warning" if replacing else "info",
        blocks,
        markdown_heading=f"Changes since `{comparison.previous}`",
        data={"comparison": comparison_data(comparison)},
    )


def summary(comparison: Comparison) -> str:
    """One sentence: how many resources are replaced, may be replaced, updated, added and removed, and the cost."""
    counts = (
        [
            f"{len(comparison.of_action('replace'))} to replace",
            f"{len(comparison.of_action('may-replace'))} that may replace (rules not known)",
            f"{len(comparison.of_action('update'))} to update in place",
        ]
        if comparison.inputs_compared
        else ["changed inputs not compared"]
    )
    counts += [f"{len(comparison.added)} to add", f"{len(comparison.removed)} to remove"]
    if comparison.verdicts:
        counts.append(f"{len(comparison.verdicts)} verdict(s) changed")
    return f"{', '.join(counts)}; {cost_sentence(comparison.cost)}."


def cost_sentence(cost: CostDelta | None) -> str:
    """The cost delta in words, or why there is none."""
    if cost is None:
        return f"cost delta not known (both plans' JSON must give `{'.'.join(COST_KEYS)}`)"
    sign = "+" if cost.delta >= 0 else "-"
    return f"monthly cost at desired size ${cost.before:,.2f} -> ${cost.after:,.2f} ({sign}${abs(cost.delta):,.2f})"


def comparison_data(comparison: Comparison) -> dict[str, Any]:
    """The comparison as the JSON document's `comparison` field."""
    return {
        "previous": comparison.previous,
        "inputsCompared": comparison.inputs_compared,
        "changed": [
            {
                "type": change.type,
                "name": change.name,
                "urn": change.urn,
                "action": change.action,
                "deleteFirst": change.delete_first,
                "rulesFrom": rule_source(change.type),
                "inputs": [
                    {
                        "path": item.path,
                        "before": item.before,
                        "after": item.after,
                        "replaces": item.replaces,
                        "follows": item.follows or None,
                    }
                    for item in change.changes
                ],
            }
            for change in comparison.changed
        ],
        "added": [{"type": ref.type, "name": ref.name, "urn": ref.urn} for ref in comparison.added],
        "removed": [{"type": ref.type, "name": ref.name, "urn": ref.urn} for ref in comparison.removed],
        "verdicts": [
            {"id": v.id, "name": v.name, "before": v.before, "after": v.after, "message": v.message}
            for v in comparison.verdicts
        ],
        "cost": None
        if comparison.cost is None
        else {
            "desiredMonthlyUsdBefore": comparison.cost.before,
            "desiredMonthlyUsdAfter": comparison.cost.after,
            "desiredMonthlyUsdDelta": comparison.cost.delta,
        },
    }


def _action_words(change: ResourceChange) -> str:
    if change.action != "replace":
        return _ACTION_WORDS[change.action]
    return "replace (delete first)" if change.delete_first else "replace (create first)"


def _changes(change: ResourceChange) -> str:
    # What replaces the resource leads: it is the reason a reviewer stops.
    ordered = sorted(change.changes, key=lambda item: not item.replaces)
    shown = [_change(item) for item in ordered[:_SHOWN_CHANGES]]
    if len(ordered) > _SHOWN_CHANGES:
        shown.append(f"and {len(ordered) - _SHOWN_CHANGES} more")
    return "; ".join(shown)


def _change(item: InputChange) -> str:
    marker = " (replaces)" if item.replaces else ""
    if item.follows:
        return f"{item.path}: takes the new id of {item.follows}{marker}"
    return f"{item.path}: {_value(item.before)} -> {_value(item.after)}{marker}"


def _value(value: Any) -> str:
    if value is None:
        return "(none)"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _VALUE_WIDTH else text[: _VALUE_WIDTH - 3] + "..."


def _outcome(passed: bool | None) -> str:
    return "absent" if passed is None else "pass" if passed else "fail"
