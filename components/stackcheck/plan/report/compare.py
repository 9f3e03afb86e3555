"""The comparison with an earlier plan as a report section (stackcheck/plan/sections.py), which every format shows
before the rest of the plan: for plans of two stacks a sentence saying so, then replacements first, then changed
inputs (a node group's rolling update with its nodes and the workloads it evicts), added and removed resources,
what follows from the stack name alone, verdicts that changed, and the cost delta."""

from __future__ import annotations

import json
from typing import Any

from ....facts.resource_types import LAUNCH_TEMPLATE
from ..compare import COST_KEYS, Comparison, CostDelta, InputChange, ResourceChange, not_known_reason, rule_source
from ..drift import drift_data, drift_words
from ..rolling import RollingUpdate
from .sections import Column, Items, Paragraph, Row, Section, Table

_ACTION_WORDS = {"replace": "replace", "may-replace": "may replace (rules not known)", "update": "update in place"}
_VERSIONED = {LAUNCH_TEMPLATE: "update in place (a new version)"}
"""Types whose in-place update makes a new version beside the old (terraform-provider-aws's launch template update
is `CreateLaunchTemplateVersion`: facts/replace_rules.py)."""
_SHOWN_CHANGES = 6
"""Changed inputs listed per resource; the rest are counted."""
_VALUE_WIDTH = 48


def comparison_section(comparison: Comparison) -> Section:
    """The section of `comparison`: a summary sentence, the changed resources, what was added and removed, the
    verdicts that changed and the cost delta; its JSON field is `comparison`."""
    drifting = tuple(change for change in comparison.changed if change.drift is not None)
    replacing = comparison.of_action("replace") + comparison.of_action("may-replace") + comparison.rolling + drifting
    blocks = (
        Paragraph(stacks_sentence(comparison)),
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
        Items(
            tuple(
                f"{change.type} {change.name}: {', '.join(item.path for item in change.changes)}"
                for change in comparison.by_stack_name
            ),
            label="Follows from the stack name",
        ),
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


def stacks_sentence(comparison: Comparison) -> str:
    """For plans of two stacks, that they are, and that what follows from the name is set apart; else empty."""
    if comparison.stacks is None:
        return ""
    earlier, later = comparison.stacks
    return (
        f"The earlier plan is of stack `{earlier}`, this one of stack `{later}`: two stacks, not one stack's next "
        f"update. {len(comparison.by_stack_name)} resource(s) differ only by what follows from the stack name (the "
        "`pulumi:stack` tag, names that hold it) and are listed apart; such differences in the other resources are "
        "marked, and no action is taken for them."
    )


def summary(comparison: Comparison) -> str:
    """One sentence: how many resources are replaced, may be replaced, updated, added and removed, and the cost."""
    rolling = len(comparison.rolling)
    drifting = sum(1 for change in comparison.changed if change.drift is not None)
    counts = (
        [
            f"{len(comparison.of_action('replace'))} to replace",
            f"{len(comparison.of_action('may-replace'))} that may replace (rules not known)",
            f"{len(comparison.of_action('update'))} to update in place"
            + (f" ({rolling} rolling every node of its group)" if rolling else "")
            + (f" ({drifting} drifting every node of its pools)" if drifting else ""),
        ]
        if comparison.inputs_compared
        else ["changed inputs not compared"]
    )
    if comparison.stacks is not None:
        counts.append(f"{len(comparison.by_stack_name)} differing only by the stack name")
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
        "stacks": None
        if comparison.stacks is None
        else {"earlier": comparison.stacks[0], "later": comparison.stacks[1]},
        "changed": [_change_data(change) for change in comparison.changed],
        "byStackName": [_change_data(change) for change in comparison.by_stack_name],
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


def _change_data(change: ResourceChange) -> dict[str, Any]:
    return {
        "type": change.type,
        "name": change.name,
        "urn": change.urn,
        "action": change.action,
        "deleteFirst": change.delete_first,
        "rulesFrom": rule_source(change.type),
        "notKnown": not_known_reason(change.type) if change.action == "may-replace" else None,
        "rolling": None if change.rolling is None else _rolling_data(change.rolling),
        "drift": None if change.drift is None else drift_data(change.drift),
        "inputs": [
            {
                "path": item.path,
                "before": item.before,
                "after": item.after,
                "replaces": item.replaces,
                "follows": item.follows or None,
                "fromStackName": item.from_stack_name,
            }
            for item in change.changes
        ],
    }


def _rolling_data(rolling: RollingUpdate) -> dict[str, Any]:
    return {
        "nodes": rolling.nodes,
        "maxUnavailable": rolling.max_unavailable,
        "workloads": [
            {"workload": item.workload, "replicas": item.replicas, "model": item.model, "goesDown": item.goes_down}
            for item in rolling.workloads
        ],
    }


def _action_words(change: ResourceChange) -> str:
    if change.rolling is not None:
        return "update in place, rolling every node"
    if change.drift is not None:
        return "update in place, drifting every node of its pools"
    if change.action == "update" and change.type in _VERSIONED:
        return _VERSIONED[change.type]
    if change.action != "replace":
        return _ACTION_WORDS[change.action]
    return "replace (delete first)" if change.delete_first else "replace (create first)"


def _changes(change: ResourceChange) -> str:
    # What replaces the resource leads: it is the reason a reviewer stops.
    ordered = sorted(change.changes, key=lambda item: (item.from_stack_name, not item.replaces))
    shown = [_change(item) for item in ordered[:_SHOWN_CHANGES]]
    if len(ordered) > _SHOWN_CHANGES:
        shown.append(f"and {len(ordered) - _SHOWN_CHANGES} more")
    lead = [rolling_words(change.rolling)] if change.rolling is not None else []
    if change.drift is not None:
        lead.append(drift_words(change.drift))
    if change.action == "may-replace":
        lead.append(f"rules not known: {not_known_reason(change.type)}")
    return "; ".join([*lead, *shown])


def rolling_words(rolling: RollingUpdate) -> str:
    """The rolling update in words: the nodes replaced, how many at once, and what each workload on them loses."""
    nodes = f"its {rolling.nodes} node(s) (desiredSize)" if rolling.nodes is not None else "every node"
    pace = f", {rolling.max_unavailable} at a time (maxUnavailable)" if rolling.max_unavailable is not None else ""
    evicted = [
        f"{item.workload}{f' ({item.model})' if item.model else ''}, {item.replicas} replica(s): "
        + (
            "down until its pod runs on a new node"
            if item.goes_down
            else "serves on fewer replicas while its pods move"
        )
        for item in rolling.workloads
    ]
    return f"replaces {nodes}{pace}" + (f", evicting {'; '.join(evicted)}" if evicted else "")


def _change(item: InputChange) -> str:
    marker = " (replaces)" if item.replaces and not item.from_stack_name else ""
    marker += " (the stack name)" if item.from_stack_name else ""
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
