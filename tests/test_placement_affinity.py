"""Node selectors and required node affinity: matches_node_selector_terms, node_matches, node_affinity_mismatch."""

from __future__ import annotations

import pytest

from placement import matches_node_selector_terms, node_affinity_mismatch, node_matches

NODE = {
    "metadata": {
        "name": "gpu-0",
        "labels": {"GPU": "true", "gpus": "4", "zone": "a", "bad": "x4", "zero": "007", "plus": "+3"},
    }
}


def expr(key, operator, *values):
    requirement = {"key": key, "operator": operator}
    if values:
        requirement["values"] = list(values)
    return requirement


def field(operator, *values, key="metadata.name"):
    return {"key": key, "operator": operator, "values": list(values)}


def term(*expressions, fields=()):
    result = {}
    if expressions:
        result["matchExpressions"] = list(expressions)
    if fields:
        result["matchFields"] = list(fields)
    return result


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [
        (expr("GPU", "In", "true"), True),
        (expr("GPU", "In", "false", "true"), True),
        (expr("GPU", "In", "false"), False),
        (expr("absent", "In", "true"), False),
        (expr("GPU", "NotIn", "false"), True),
        (expr("GPU", "NotIn", "true"), False),
        (expr("absent", "NotIn", "true"), True),  # NotIn holds when the key is absent
        (expr("GPU", "Exists"), True),
        (expr("absent", "Exists"), False),
        (expr("GPU", "DoesNotExist"), False),
        (expr("absent", "DoesNotExist"), True),
        (expr("gpus", "Gt", "3"), True),
        (expr("gpus", "Gt", "4"), False),
        (expr("gpus", "Lt", "5"), True),
        (expr("gpus", "Lt", "4"), False),
        # The bound must be an integer and a label value (labels.NewRequirement): a sign voids the term,
        # although the node's label is read with ParseInt, which takes a sign and leading zeros.
        (expr("gpus", "Gt", "-1"), False),
        (expr("gpus", "Gt", "+3"), False),
        (expr("gpus", "Gt", "03"), True),
        (expr("zero", "Gt", "6"), True),
        (expr("plus", "Lt", "4"), True),
        (expr("absent", "Gt", "0"), False),  # an absent label matches neither Gt nor Lt
        (expr("absent", "Lt", "0"), False),
        (expr("bad", "Gt", "0"), False),  # a non-integer label matches neither
        (expr("bad", "Lt", "100"), False),
        (expr("GPU", "Lt", "100"), False),
        # Malformed requirements match nothing.
        (expr("gpus", "Gt", "three"), False),
        (expr("gpus", "Gt", "1.5"), False),
        (expr("gpus", "Gt", "1", "2"), False),
        (expr("gpus", "Gt"), False),
        (expr("gpus", "Lt", ""), False),
        (expr("gpus", "Gt", "99999999999999999999"), False),
        (expr("GPU", "In"), False),
        (expr("absent", "NotIn"), False),
        (expr("GPU", "Exists", "true"), False),
        (expr("absent", "DoesNotExist", "x"), False),
        (expr("GPU", "Equals", "true"), False),
        (expr("GPU", "", "true"), False),
        (expr("", "Exists"), False),
    ],
)
def test_each_operator(requirement, expected):
    assert matches_node_selector_terms([term(requirement)], NODE) is expected


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [
        (field("In", "gpu-0"), True),
        (field("In", "gpu-1"), False),
        (field("NotIn", "gpu-1"), True),
        (field("NotIn", "gpu-0"), False),
        (field("In", "gpu-0", "gpu-1"), False),  # exactly one value
        (field("In"), False),
        (field("Exists"), False),  # only In and NotIn
        (field("In", "gpu-0", key="metadata.namespace"), False),  # only metadata.name
    ],
)
def test_match_fields_on_node_name(requirement, expected):
    assert matches_node_selector_terms([term(fields=[requirement])], NODE) is expected


@pytest.mark.parametrize(
    ("terms", "expected"),
    [
        ([term(expr("GPU", "In", "false")), term(expr("zone", "In", "a"))], True),  # ORed terms
        ([term(expr("GPU", "In", "false")), term(expr("zone", "In", "b"))], False),
        ([term(expr("GPU", "In", "true"), expr("zone", "In", "a"))], True),  # ANDed expressions
        ([term(expr("GPU", "In", "true"), expr("zone", "In", "b"))], False),
        ([term(expr("GPU", "In", "true"), fields=[field("In", "gpu-0")])], True),  # expressions AND fields
        ([term(expr("GPU", "In", "true"), fields=[field("In", "gpu-9")])], False),
        ([term(expr("GPU", "In", "true"), expr("gpus", "Gt", "x"))], False),  # a malformed requirement voids its term
        ([term(expr("gpus", "Gt", "x")), term(expr("GPU", "Exists"))], True),  # but not the other terms
        ([{}], False),  # an empty term matches nothing
        ([{"matchExpressions": [], "matchFields": []}], False),
        ([{}, term(expr("GPU", "Exists"))], True),
        ([], False),  # no terms match nothing
        (None, False),
    ],
)
def test_terms(terms, expected):
    assert matches_node_selector_terms(terms, NODE) is expected


def test_node_without_labels_or_name():
    bare = {}
    assert matches_node_selector_terms([term(expr("GPU", "DoesNotExist"))], bare) is True
    assert matches_node_selector_terms([term(expr("GPU", "NotIn", "true"))], bare) is True
    assert matches_node_selector_terms([term(expr("GPU", "Exists"))], bare) is False
    assert matches_node_selector_terms([term(fields=[field("In", "gpu-0")])], bare) is False


def pod(node_selector=None, affinity=None):
    spec = {"containers": [{"name": "c"}]}
    if node_selector is not None:
        spec["nodeSelector"] = node_selector
    if affinity is not None:
        spec["affinity"] = affinity
    return {"spec": spec}


def required(*terms):
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": list(terms)}}}


@pytest.mark.parametrize(
    ("the_pod", "expected"),
    [
        (pod(), True),
        (pod(node_selector={}), True),
        (pod(node_selector={"GPU": "true"}), True),
        (pod(node_selector={"GPU": "true", "zone": "a"}), True),
        (pod(node_selector={"GPU": "false"}), False),
        (pod(node_selector={"GPU": "true", "zone": "b"}), False),
        (pod(node_selector={"absent": "x"}), False),
        (pod(node_selector={"absent": ""}), False),  # the key must exist even for an empty value
        (pod(affinity={}), True),
        (pod(affinity={"nodeAffinity": {}}), True),
        (pod(affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": None}}), True),
        (pod(affinity={"podAntiAffinity": {"x": 1}}), True),
        (pod(affinity=required(term(expr("GPU", "In", "true")))), True),
        (pod(affinity=required(term(expr("GPU", "In", "false")))), False),
        (pod(affinity=required()), False),  # no terms: matches nothing
        (pod(affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {}}}), False),
        (
            pod(
                affinity={
                    "nodeAffinity": {
                        "preferredDuringSchedulingIgnoredDuringExecution": [
                            {"weight": 1, "preference": term(expr("GPU", "In", "false"))}
                        ]
                    }
                }
            ),
            True,
        ),  # preferences never filter
        (pod({"GPU": "true"}, required(term(expr("zone", "In", "a")))), True),  # both must hold
        (pod({"GPU": "true"}, required(term(expr("zone", "In", "b")))), False),
        (pod({"GPU": "false"}, required(term(expr("zone", "In", "a")))), False),
    ],
)
def test_node_matches(the_pod, expected):
    assert node_matches(the_pod, NODE) is expected


@pytest.mark.parametrize(
    ("the_pod", "message"),
    [
        (pod(), None),
        (
            pod(node_selector={"GPU": "false", "absent": "x", "zone": "a"}),
            "node affinity/selector mismatch: nodeSelector GPU=false (node has GPU=true), absent=x (node has no label absent)",
        ),
        (
            pod(affinity=required(term(expr("GPU", "In", "false"), expr("gpus", "Gt", "8")))),
            "node affinity/selector mismatch: required node affinity: GPU In [false] (node has GPU=true), "
            "gpus Gt [8] (node has gpus=4)",
        ),
        (
            pod(affinity=required(term(expr("x", "Exists")), term(fields=[field("In", "other")]))),
            "node affinity/selector mismatch: required node affinity: term 1: x Exists (node has no label x); "
            "term 2: metadata.name In [other] (node is named gpu-0)",
        ),
        (
            pod(affinity=required({})),
            "node affinity/selector mismatch: required node affinity: empty term (matches no node)",
        ),
        (
            pod(affinity=required()),
            "node affinity/selector mismatch: required node affinity: no nodeSelectorTerms (matches no node)",
        ),
        (
            pod(affinity=required(term(expr("gpus", "Gt", "x")))),
            "node affinity/selector mismatch: required node affinity: invalid requirement gpus Gt [x]: "
            "Gt needs exactly one integer value",
        ),
        (
            pod({"GPU": "false"}, required(term(expr("zone", "In", "b")))),
            "node affinity/selector mismatch: nodeSelector GPU=false (node has GPU=true); "
            "required node affinity: zone In [b] (node has zone=a)",
        ),
    ],
)
def test_node_affinity_mismatch_names_keys_and_node_labels(the_pod, message):
    assert node_affinity_mismatch(the_pod, NODE) == message


# Requirements the scheduler cannot parse void their term: each value must be a label value and the key a
# qualified name, whatever the operator (k8s.io/apimachinery v0.34.0 pkg/labels/selector.go NewRequirement,
# called by k8s.io/component-helpers v0.34.0 scheduling/corev1/nodeaffinity/nodeaffinity.go
# nodeSelectorRequirementsAsSelector; nodeSelectorTerm.match then reports the term as matching nothing).
UNPARSEABLE = [
    expr("GPU", "In", "true", "not valid"),  # a space
    expr("GPU", "In", "true", "-true"),  # must start with a letter or digit
    expr("GPU", "In", "true", "true-"),  # and end with one
    expr("GPU", "In", "true", "v" * 64),  # at most 63 characters
    expr("GPU", "In", "true", "a/b"),
    expr("GPU", "NotIn", "false", "x:y"),
    expr("absent", "NotIn", "bad value"),  # NotIn would hold on the absent key, but the term is void
    expr("gpus", "Lt", "-5"),
    expr("gpus", "Gt", " 3"),
    expr("bad key", "Exists"),
    expr("a/b/c", "Exists"),
    expr("Example.com/GPU", "Exists"),  # the prefix is a lowercase DNS subdomain
    expr("/GPU", "Exists"),
    expr("k" * 64, "Exists"),
]
PARSEABLE = [
    (expr("GPU", "In", "true", ""), True),  # the empty string is a label value
    (expr("GPU", "In", "true", "a.b_c-d", "v" * 63), True),
    (expr("absent", "NotIn", "x"), True),
    (expr("example.com/GPU", "DoesNotExist"), True),
    (expr("GPU", "NotIn", "true", "false"), False),  # parses, and does not match
]


@pytest.mark.parametrize("requirement", UNPARSEABLE, ids=lambda r: f"{r['key']} {r['operator']} {r.get('values')}")
def test_unparseable_requirement_voids_its_term_and_only_its_term(requirement):
    assert matches_node_selector_terms([term(requirement)], NODE) is False
    assert matches_node_selector_terms([term(expr("GPU", "Exists"), requirement)], NODE) is False
    assert matches_node_selector_terms([term(requirement), term(expr("GPU", "Exists"))], NODE) is True
    why = node_affinity_mismatch(pod(affinity=required(term(requirement))), NODE)
    assert why is not None and "invalid requirement" in why


@pytest.mark.parametrize(
    ("requirement", "expected"),
    PARSEABLE,
    ids=lambda r: str(r) if not isinstance(r, dict) else f"{r['key']} {r['operator']}",
)
def test_valid_values_and_keys_parse(requirement, expected):
    assert matches_node_selector_terms([term(requirement)], NODE) is expected
