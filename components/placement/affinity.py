"""Node selectors and required node affinity: the scheduler's NodeAffinity filter."""

from __future__ import annotations

import re

from ..facts.quantity import parse_int64

# upstream (labels.Requirement): Gt/Lt parse with strconv.ParseInt, which takes
# an optional sign and decimal digits within int64.
_GO_INT = re.compile(r"[+-]?[0-9]+")

NODE_NAME_FIELD = "metadata.name"
# upstream (k8s.io/apimachinery v0.34.0, pkg/util/validation/validation.go): IsQualifiedName and
# IsValidLabelValue, which labels.NewRequirement applies to every key and every value.
_QUALIFIED_NAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_DNS1123_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_NAME_MAX, _PREFIX_MAX, _VALUE_MAX = 63, 253, 63
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
    """Why the scheduler cannot parse `expression`, else None.

    upstream: nodeaffinity.nodeSelectorRequirementsAsSelector (k8s.io/component-helpers v0.34.0,
    scheduling/corev1/nodeaffinity/nodeaffinity.go) builds each requirement with labels.NewRequirement
    (k8s.io/apimachinery v0.34.0, pkg/labels/selector.go), which rejects a key that is not a qualified
    name, In/NotIn without values, Exists/DoesNotExist with values, Gt/Lt without exactly one value that
    strconv.ParseInt reads, and any value that is not a valid label value (so `-1` or `+3` for Gt/Lt too).
    A term with such a requirement matches no node (nodeSelectorTerm.match returns its parse errors).
    """
    key = expression.get("key") or ""
    operator = expression.get("operator") or ""
    values = expression.get("values") or []
    label = f"invalid requirement {_format_requirement(expression)}"
    if not key:
        return f"{label}: empty key"
    bad_key = _qualified_name_problem(key)
    if bad_key:
        return f"{label}: key {bad_key}"
    if operator in ("In", "NotIn"):
        if not values:
            return f"{label}: {operator} needs at least one value"
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            return f"{label}: {operator} takes no values"
    elif operator in ("Gt", "Lt"):
        if len(values) != 1 or _go_int(values[0]) is None:
            return f"{label}: {operator} needs exactly one integer value"
    else:
        return f"{label}: unknown operator {operator!r} (In, NotIn, Exists, DoesNotExist, Gt, Lt)"
    for value in values:
        if not _is_label_value(value):
            return (
                f"{label}: {value!r} is not a label value (at most {_VALUE_MAX} letters, digits, '-', '_' "
                "or '.', starting and ending with a letter or digit)"
            )
    return None


def _qualified_name_problem(key: str) -> str | None:
    """What makes `key` no qualified name (an optional DNS-subdomain prefix and '/', then a name), else None."""
    parts = key.split("/")
    if len(parts) > 2:
        return f"{key!r} has more than one '/'"
    prefix, name = parts if len(parts) == 2 else ("", parts[0])
    if len(parts) == 2 and (not prefix or len(prefix) > _PREFIX_MAX or not _DNS1123_SUBDOMAIN.fullmatch(prefix)):
        return f"prefix {prefix!r} is not a DNS subdomain"
    if not name or len(name) > _NAME_MAX or not _QUALIFIED_NAME.fullmatch(name):
        return f"name {name!r} is not 1-{_NAME_MAX} letters, digits, '-', '_' or '.' between letters or digits"
    return None


def _is_label_value(value) -> bool:
    return (
        isinstance(value, str)
        and len(value) <= _VALUE_MAX
        and (value == "" or _QUALIFIED_NAME.fullmatch(value) is not None)
    )


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
    assert bound is not None  # _invalid_label_requirement has rejected a bound ParseInt cannot read
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
