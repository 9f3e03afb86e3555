"""Node selectors and required node affinity: matches_node_selector_terms, node_matches, node_affinity_mismatch."""

from __future__ import annotations

import pytest

from components.placement import matches_node_selector_terms, node_affinity_mismatch, node_matches

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
        pytest.param(expr("GPU", "In", "true"), True, id="In matches a listed value"),
        pytest.param(expr("GPU", "In", "false", "true"), True, id="In matches one of several listed values"),
        pytest.param(expr("GPU", "In", "false"), False, id="In does not match an unlisted value"),
        pytest.param(expr("absent", "In", "true"), False, id="In does not match an absent key"),
        pytest.param(expr("GPU", "NotIn", "false"), True, id="NotIn matches an unlisted value"),
        pytest.param(expr("GPU", "NotIn", "true"), False, id="NotIn does not match a listed value"),
        pytest.param(
            expr("absent", "NotIn", "true"), True, id="NotIn matches an absent key"
        ),  # NotIn holds when the key is absent
        pytest.param(expr("GPU", "Exists"), True, id="Exists matches a present key"),
        pytest.param(expr("absent", "Exists"), False, id="Exists does not match an absent key"),
        pytest.param(expr("GPU", "DoesNotExist"), False, id="DoesNotExist does not match a present key"),
        pytest.param(expr("absent", "DoesNotExist"), True, id="DoesNotExist matches an absent key"),
        pytest.param(expr("gpus", "Gt", "3"), True, id="Gt matches a larger label"),
        pytest.param(expr("gpus", "Gt", "4"), False, id="Gt does not match an equal label"),
        pytest.param(expr("gpus", "Lt", "5"), True, id="Lt matches a smaller label"),
        pytest.param(expr("gpus", "Lt", "4"), False, id="Lt does not match an equal label"),
        # The bound must be an integer and a label value (labels.NewRequirement): a sign voids the term,
        # although the node's label is read with ParseInt, which takes a sign and leading zeros.
        pytest.param(expr("gpus", "Gt", "-1"), False, id="Gt with a negative bound matches nothing"),
        pytest.param(expr("gpus", "Gt", "+3"), False, id="Gt with a plus sign in the bound matches nothing"),
        pytest.param(expr("gpus", "Gt", "03"), True, id="Gt with leading zeros in the bound matches"),
        pytest.param(expr("zero", "Gt", "6"), True, id="Gt reads a label with leading zeros"),
        pytest.param(expr("plus", "Lt", "4"), True, id="Lt reads a label with a plus sign"),
        pytest.param(
            expr("absent", "Gt", "0"), False, id="Gt does not match an absent label"
        ),  # an absent label matches neither Gt nor Lt
        pytest.param(expr("absent", "Lt", "0"), False, id="Lt does not match an absent label"),
        pytest.param(
            expr("bad", "Gt", "0"), False, id="Gt does not match a non-integer label"
        ),  # a non-integer label matches neither
        pytest.param(expr("bad", "Lt", "100"), False, id="Lt does not match a non-integer label"),
        pytest.param(expr("GPU", "Lt", "100"), False, id="Lt does not match a label of true"),
        # Malformed requirements match nothing.
        pytest.param(expr("gpus", "Gt", "three"), False, id="Gt with a word bound matches nothing"),
        pytest.param(expr("gpus", "Gt", "1.5"), False, id="Gt with a decimal bound matches nothing"),
        pytest.param(expr("gpus", "Gt", "1", "2"), False, id="Gt with two bounds matches nothing"),
        pytest.param(expr("gpus", "Gt"), False, id="Gt without a bound matches nothing"),
        pytest.param(expr("gpus", "Lt", ""), False, id="Lt with an empty bound matches nothing"),
        pytest.param(
            expr("gpus", "Gt", "99999999999999999999"), False, id="Gt with a bound beyond int64 matches nothing"
        ),
        pytest.param(expr("GPU", "In"), False, id="In without values matches nothing"),
        pytest.param(expr("absent", "NotIn"), False, id="NotIn without values matches nothing"),
        pytest.param(expr("GPU", "Exists", "true"), False, id="Exists with values matches nothing"),
        pytest.param(expr("absent", "DoesNotExist", "x"), False, id="DoesNotExist with values matches nothing"),
        pytest.param(expr("GPU", "Equals", "true"), False, id="unknown operator Equals matches nothing"),
        pytest.param(expr("GPU", "", "true"), False, id="empty operator matches nothing"),
        pytest.param(expr("", "Exists"), False, id="empty key matches nothing"),
    ],
)
def test_each_operator(requirement, expected):
    assert matches_node_selector_terms([term(requirement)], NODE) is expected


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [
        pytest.param(field("In", "gpu-0"), True, id="In matches the node's name"),
        pytest.param(field("In", "gpu-1"), False, id="In does not match another name"),
        pytest.param(field("NotIn", "gpu-1"), True, id="NotIn matches another name"),
        pytest.param(field("NotIn", "gpu-0"), False, id="NotIn does not match the node's name"),
        pytest.param(field("In", "gpu-0", "gpu-1"), False, id="In with two names matches nothing"),  # exactly one value
        pytest.param(field("In"), False, id="In without a name matches nothing"),
        pytest.param(field("Exists"), False, id="Exists on a field matches nothing"),  # only In and NotIn
        pytest.param(
            field("In", "gpu-0", key="metadata.namespace"), False, id="a field other than metadata.name matches nothing"
        ),  # only metadata.name
    ],
)
def test_match_fields_on_node_name(requirement, expected):
    assert matches_node_selector_terms([term(fields=[requirement])], NODE) is expected


@pytest.mark.parametrize(
    ("terms", "expected"),
    [
        pytest.param(
            [term(expr("GPU", "In", "false")), term(expr("zone", "In", "a"))],
            True,
            id="terms are ORed so a second matching term matches",
        ),  # ORed terms
        pytest.param(
            [term(expr("GPU", "In", "false")), term(expr("zone", "In", "b"))],
            False,
            id="no matching term matches nothing",
        ),
        pytest.param(
            [term(expr("GPU", "In", "true"), expr("zone", "In", "a"))],
            True,
            id="expressions in a term are ANDed and all match",
        ),  # ANDed expressions
        pytest.param(
            [term(expr("GPU", "In", "true"), expr("zone", "In", "b"))],
            False,
            id="one failing expression fails its term",
        ),
        pytest.param(
            [term(expr("GPU", "In", "true"), fields=[field("In", "gpu-0")])],
            True,
            id="expressions and fields both matching match",
        ),  # expressions AND fields
        pytest.param(
            [term(expr("GPU", "In", "true"), fields=[field("In", "gpu-9")])], False, id="a failing field fails its term"
        ),
        pytest.param(
            [term(expr("GPU", "In", "true"), expr("gpus", "Gt", "x"))],
            False,
            id="a malformed requirement voids its term",
        ),  # a malformed requirement voids its term
        pytest.param(
            [term(expr("gpus", "Gt", "x")), term(expr("GPU", "Exists"))],
            True,
            id="a malformed requirement leaves the other terms matching",
        ),  # but not the other terms
        pytest.param([{}], False, id="an empty term matches nothing"),  # an empty term matches nothing
        pytest.param(
            [{"matchExpressions": [], "matchFields": []}], False, id="a term with empty lists matches nothing"
        ),
        pytest.param([{}, term(expr("GPU", "Exists"))], True, id="an empty term beside a matching term matches"),
        pytest.param([], False, id="an empty list of terms matches nothing"),  # no terms match nothing
        pytest.param(None, False, id="terms None match nothing"),
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
        pytest.param(pod(), True, id="pod without selector or affinity fits"),
        pytest.param(pod(node_selector={}), True, id="empty nodeSelector fits"),
        pytest.param(pod(node_selector={"GPU": "true"}), True, id="nodeSelector on a present label fits"),
        pytest.param(
            pod(node_selector={"GPU": "true", "zone": "a"}), True, id="nodeSelector on two present labels fits"
        ),
        pytest.param(pod(node_selector={"GPU": "false"}), False, id="nodeSelector with another value does not fit"),
        pytest.param(
            pod(node_selector={"GPU": "true", "zone": "b"}),
            False,
            id="nodeSelector with one wrong label of two does not fit",
        ),
        pytest.param(pod(node_selector={"absent": "x"}), False, id="nodeSelector on an absent label does not fit"),
        pytest.param(
            pod(node_selector={"absent": ""}), False, id="nodeSelector with an empty value needs the key to exist"
        ),  # the key must exist even for an empty value
        pytest.param(pod(affinity={}), True, id="empty affinity fits"),
        pytest.param(pod(affinity={"nodeAffinity": {}}), True, id="empty nodeAffinity fits"),
        pytest.param(
            pod(affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": None}}),
            True,
            id="required node affinity None fits",
        ),
        pytest.param(
            pod(affinity={"podAntiAffinity": {"x": 1}}), True, id="pod anti-affinity alone does not filter nodes"
        ),
        pytest.param(
            pod(affinity=required(term(expr("GPU", "In", "true")))), True, id="required term that matches fits"
        ),
        pytest.param(
            pod(affinity=required(term(expr("GPU", "In", "false")))),
            False,
            id="required term that does not match does not fit",
        ),
        pytest.param(
            pod(affinity=required()), False, id="required affinity without terms fits no node"
        ),  # no terms: matches nothing
        pytest.param(
            pod(affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {}}}),
            False,
            id="required affinity as an empty object fits no node",
        ),
        pytest.param(
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
            id="preferred node affinity never filters",
        ),  # preferences never filter
        pytest.param(
            pod({"GPU": "true"}, required(term(expr("zone", "In", "a")))),
            True,
            id="nodeSelector and required affinity both matching fit",
        ),  # both must hold
        pytest.param(
            pod({"GPU": "true"}, required(term(expr("zone", "In", "b")))),
            False,
            id="required affinity failing beside a matching nodeSelector does not fit",
        ),
        pytest.param(
            pod({"GPU": "false"}, required(term(expr("zone", "In", "a")))),
            False,
            id="nodeSelector failing beside a matching required affinity does not fit",
        ),
    ],
)
def test_node_matches(the_pod, expected):
    assert node_matches(the_pod, NODE) is expected


@pytest.mark.parametrize(
    ("the_pod", "message"),
    [
        pytest.param(pod(), None, id="pod that fits has no mismatch"),
        pytest.param(
            pod(node_selector={"GPU": "false", "absent": "x", "zone": "a"}),
            "node affinity/selector mismatch: nodeSelector GPU=false (node has GPU=true), absent=x (node has no label absent)",
            id="nodeSelector mismatch names each wrong and absent label",
        ),
        pytest.param(
            pod(affinity=required(term(expr("GPU", "In", "false"), expr("gpus", "Gt", "8")))),
            "node affinity/selector mismatch: required node affinity: GPU In [false] (node has GPU=true), "
            "gpus Gt [8] (node has gpus=4)",
            id="required affinity mismatch names each failing requirement",
        ),
        pytest.param(
            pod(affinity=required(term(expr("x", "Exists")), term(fields=[field("In", "other")]))),
            "node affinity/selector mismatch: required node affinity: term 1: x Exists (node has no label x); "
            "term 2: metadata.name In [other] (node is named gpu-0)",
            id="mismatch across terms numbers each term",
        ),
        pytest.param(
            pod(affinity=required({})),
            "node affinity/selector mismatch: required node affinity: empty term (matches no node)",
            id="an empty term is reported as matching no node",
        ),
        pytest.param(
            pod(affinity=required()),
            "node affinity/selector mismatch: required node affinity: no nodeSelectorTerms (matches no node)",
            id="affinity without terms is reported as matching no node",
        ),
        pytest.param(
            pod(affinity=required(term(expr("gpus", "Gt", "x")))),
            "node affinity/selector mismatch: required node affinity: invalid requirement gpus Gt [x]: "
            "Gt needs exactly one integer value",
            id="an invalid requirement is reported with the reason",
        ),
        pytest.param(
            pod({"GPU": "false"}, required(term(expr("zone", "In", "b")))),
            "node affinity/selector mismatch: nodeSelector GPU=false (node has GPU=true); "
            "required node affinity: zone In [b] (node has zone=a)",
            id="nodeSelector and required affinity mismatches are both reported",
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
    pytest.param(
        expr("GPU", "In", "true", ""), True, id="the empty string is a valid label value"
    ),  # the empty string is a label value
    pytest.param(
        expr("GPU", "In", "true", "a.b_c-d", "v" * 63),
        True,
        id="a 63-character value with dots, underscores and dashes is valid",
    ),
    pytest.param(expr("absent", "NotIn", "x"), True, id="NotIn on an absent key parses and matches"),
    pytest.param(expr("example.com/GPU", "DoesNotExist"), True, id="a DNS-prefixed key parses"),
    pytest.param(
        expr("GPU", "NotIn", "true", "false"), False, id="NotIn listing the node's value parses and does not match"
    ),  # parses, and does not match
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
)
def test_valid_values_and_keys_parse(requirement, expected):
    assert matches_node_selector_terms([term(requirement)], NODE) is expected
