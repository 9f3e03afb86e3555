"""Node selectors and required node affinity: the scheduler's NodeAffinity filter."""

from __future__ import annotations

import re

from .quantity import parse_int64

# upstream (labels.Requirement): Gt/Lt parse with strconv.ParseInt, which takes
# an optional sign and decimal digits within int64.
_GO_INT = re.compile(r"[+-]?[0-9]+")

NODE_NAME_FIELD = "metadata.name"
# Values of one requirement printed in a mismatch message (an add-on lists dozens of instance types).
_SHOWN_VALUES = 8


def matches_node_selector_terms(terms: list[dict] | None, node: dict) -> bool:
    """Whether `node` satisfies required node-affinity `terms` (a NodeSelector's nodeSelectorTerms).

    Terms are ORed; inside a term `matchExpressions` (on labels) and
    `matchFields` (only `metadata.name`) are ANDed. Operators: In, NotIn (true
    when the label is absent), Exists, DoesNotExist, Gt and Lt (one integer
    value against the label parsed as an integer). A term with no expressions
    and no fields, or with a malformed expression, matches nothing, and so
    does an empty list of terms (upstream: nodeaffinity.NodeSelector.Match).
    """
    labels, name = _labels(node), _name(node)
    return any(_term_mismatch(term, labels, name) is None for term in terms or ())


def node_matches(pod: dict, node: dict) -> bool:
    """Whether `node` passes the NodeAffinity filter for `pod`.

    Both `spec.nodeSelector` (every pair equals a node label) and
    `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`
    must hold; an absent selector or affinity matches every node.
    """
    return node_affinity_mismatch(pod, node) is None


def node_affinity_mismatch(pod: dict, node: dict) -> str | None:
    """Why `node` fails the NodeAffinity filter for `pod`, naming keys and the node's labels; None when it passes."""
    spec = pod.get("spec") or {}
    labels = _labels(node)
    problems = []
    selector = spec.get("nodeSelector") or {}
    misses = [f"{key}={value} ({_has(labels, key)})" for key, value in selector.items() if labels.get(key) != value]
    if misses:
        problems.append("nodeSelector " + ", ".join(misses))
    required = _required_selector(spec)
    if required is not None:
        terms = required.get("nodeSelectorTerms") or []
        why = _terms_mismatch(terms, labels, _name(node))
        if why is not None:
            problems.append("required node affinity: " + why)
    if not problems:
        return None
    return "node affinity/selector mismatch: " + "; ".join(problems)


def _required_selector(spec: dict) -> dict | None:
    node_affinity = (spec.get("affinity") or {}).get("nodeAffinity") or {}
    return node_affinity.get("requiredDuringSchedulingIgnoredDuringExecution")


def _terms_mismatch(terms: list[dict], labels: dict, name: str) -> str | None:
    if not terms:
        return "no nodeSelectorTerms (matches no node)"
    reasons = []
    for index, term in enumerate(terms, start=1):
        why = _term_mismatch(term, labels, name)
        if why is None:
            return None
        reasons.append(why if len(terms) == 1 else f"term {index}: {why}")
    return "; ".join(reasons)


def _term_mismatch(term: dict, labels: dict, name: str) -> str | None:
    expressions = term.get("matchExpressions") or []
    fields = term.get("matchFields") or []
    if not expressions and not fields:
        return "empty term (matches no node)"
    # A malformed requirement voids its whole term, whatever the others say
    # (upstream: the term fails to parse and is skipped).
    failures = []
    for expression in expressions:
        invalid = _invalid_label_requirement(expression)
        if invalid:
            return invalid
        if not _label_requirement_matches(expression, labels):
            failures.append(f"{_format_requirement(expression)} ({_has(labels, expression['key'])})")
    for field in fields:
        invalid = _invalid_field_requirement(field)
        if invalid:
            return invalid
        matched = (name == field["values"][0]) == (field["operator"] == "In")
        if not matched:
            failures.append(f"{_format_requirement(field)} (node is named {name or '<unnamed>'})")
    return ", ".join(failures) if failures else None


def _invalid_label_requirement(expression: dict) -> str | None:
    key = expression.get("key") or ""
    operator = expression.get("operator") or ""
    values = expression.get("values") or []
    label = f"invalid requirement {_format_requirement(expression)}"
    if not key:
        return f"{label}: empty key"
    if operator in ("In", "NotIn"):
        return None if values else f"{label}: {operator} needs at least one value"
    if operator in ("Exists", "DoesNotExist"):
        return None if not values else f"{label}: {operator} takes no values"
    if operator in ("Gt", "Lt"):
        if len(values) != 1 or _go_int(values[0]) is None:
            return f"{label}: {operator} needs exactly one integer value"
        return None
    return f"{label}: unknown operator {operator!r} (In, NotIn, Exists, DoesNotExist, Gt, Lt)"


def _invalid_field_requirement(field: dict) -> str | None:
    key = field.get("key") or ""
    operator = field.get("operator") or ""
    values = field.get("values") or []
    label = f"invalid matchFields requirement {_format_requirement(field)}"
    if key != NODE_NAME_FIELD:
        return f"{label}: only {NODE_NAME_FIELD} is supported"
    if operator not in ("In", "NotIn"):
        return f"{label}: only In and NotIn are supported"
    if len(values) != 1:
        return f"{label}: {operator} needs exactly one value"
    return None


def _label_requirement_matches(expression: dict, labels: dict) -> bool:
    key = expression["key"]
    operator = expression["operator"]
    present = key in labels
    if operator == "In":
        return present and labels[key] in expression["values"]
    if operator == "NotIn":
        return not present or labels[key] not in expression["values"]
    if operator == "Exists":
        return present
    if operator == "DoesNotExist":
        return not present
    # Gt / Lt: an absent or non-integer label matches neither.
    actual = _go_int(labels[key]) if present else None
    if actual is None:
        return False
    bound = _go_int(expression["values"][0])
    return actual > bound if operator == "Gt" else actual < bound


def _go_int(text) -> int | None:
    return parse_int64(text, _GO_INT) if isinstance(text, str) else None


def _format_requirement(requirement: dict) -> str:
    key = requirement.get("key") or ""
    operator = requirement.get("operator") or ""
    values = requirement.get("values") or []
    if operator in ("Exists", "DoesNotExist") and not values:
        return f"{key} {operator}"
    shown = [str(v) for v in values[:_SHOWN_VALUES]]
    if len(values) > _SHOWN_VALUES:
        shown.append(f"... {len(values) - _SHOWN_VALUES} more")
    return f"{key} {operator} [{', '.join(shown)}]"


def _has(labels: dict, key: str) -> str:
    return f"node has {key}={labels[key]}" if key in labels else f"node has no label {key}"


def _labels(node: dict) -> dict:
    return (node.get("metadata") or {}).get("labels") or {}


def _name(node: dict) -> str:
    return (node.get("metadata") or {}).get("name") or ""
