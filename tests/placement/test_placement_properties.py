"""Properties of the placement model, checked with hypothesis on small generated pods and nodes."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components.placement import (
    explain,
    find_untolerated_taint,
    fits_resources,
    format_quantity,
    matches_node_selector_terms,
    node_matches,
    parse_quantity,
    tolerates,
)
from components.placement.explain import FILTERS, NODE_UNSCHEDULABLE, filter_failures

# Deterministic: the same examples on every run, no example database, no deadline.
DETERMINISTIC = settings(
    derandomize=True, database=None, deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow]
)

KEYS = st.sampled_from(["GPU", "dedicated", "nvidia.com/gpu", "node.kubernetes.io/unschedulable", "sla"])
VALUES = st.sampled_from(["", "true", "false", "1", "950", "007"])
EFFECTS = st.sampled_from(["NoSchedule", "PreferNoSchedule", "NoExecute"])
OPERATORS = st.sampled_from(["", "Equal", "Exists", "Gt", "Lt", "Bogus"])


@st.composite
def taints(draw):
    taint = {"key": draw(KEYS), "effect": draw(EFFECTS)}
    value = draw(VALUES)
    if value:
        taint["value"] = value
    return taint


@st.composite
def tolerations(draw):
    toleration = {}
    for name, strategy in (
        ("key", st.one_of(st.just(""), KEYS)),
        ("operator", OPERATORS),
        ("value", VALUES),
        ("effect", st.one_of(st.just(""), EFFECTS)),
    ):
        value = draw(strategy)
        if value or draw(st.booleans()):
            toleration[name] = value
    return toleration


@st.composite
def label_maps(draw):
    return draw(
        st.dictionaries(
            st.sampled_from(["GPU", "zone", "gpus", "tier"]), st.sampled_from(["true", "a", "b", "4", "x"]), max_size=4
        )
    )


@st.composite
def requirements(draw):
    operator = draw(st.sampled_from(["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"]))
    requirement = {"key": draw(st.sampled_from(["GPU", "zone", "gpus", "tier"])), "operator": operator}
    if operator in ("In", "NotIn"):
        requirement["values"] = draw(st.lists(st.sampled_from(["true", "a", "b", "4"]), min_size=1, max_size=2))
    elif operator in ("Gt", "Lt"):
        requirement["values"] = [draw(st.sampled_from(["0", "3", "4", "9", "x"]))]
    return requirement


@st.composite
def term_lists(draw):
    return draw(st.lists(st.fixed_dictionaries({"matchExpressions": st.lists(requirements(), max_size=3)}), max_size=3))


QUANTITIES = {
    "cpu": ["100m", "500m", "1", "2", "4"],
    "memory": ["64Mi", "1Gi", "8Gi", "16Gi"],
    "nvidia.com/gpu": ["1", "2"],
}


@st.composite
def resource_maps(draw, allow_gpu=True):
    names = ["cpu", "memory"] + (["nvidia.com/gpu"] if allow_gpu else [])
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names)))
    return {name: draw(st.sampled_from(QUANTITIES[name])) for name in chosen}


@st.composite
def pods(draw):
    spec = {
        "containers": [{"name": "c", "resources": {"requests": draw(resource_maps())}}],
        "tolerations": draw(st.lists(tolerations(), max_size=3)),
    }
    if draw(st.booleans()):
        spec["nodeSelector"] = draw(label_maps())
    if draw(st.booleans()):
        spec["affinity"] = {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": draw(term_lists())}
            }
        }
    return {"spec": spec}


@st.composite
def nodes(draw):
    # Mostly roomy nodes, so that a fair share of examples land.
    allocatable = {
        "cpu": draw(st.sampled_from(["1", "4", "4"])),
        "memory": draw(st.sampled_from(["8Gi", "16Gi"])),
        "pods": draw(st.sampled_from(["1", "2", "110", "110"])),
    }
    if draw(st.booleans()):
        allocatable["nvidia.com/gpu"] = draw(st.sampled_from(QUANTITIES["nvidia.com/gpu"]))
    return {
        "metadata": {"name": "n", "labels": draw(label_maps())},
        "spec": {
            "taints": draw(st.lists(taints(), max_size=2)),
            "unschedulable": draw(st.sampled_from([False, False, True])),
        },
        "status": {"allocatable": allocatable},
    }


@DETERMINISTIC
@given(pods(), nodes(), tolerations())
def test_adding_a_toleration_never_makes_a_pod_less_schedulable(pod, node, extra):
    wider = copy.deepcopy(pod)
    wider["spec"]["tolerations"].append(extra)
    before, after = filter_failures(pod, node), filter_failures(wider, node)
    assert set(after) <= set(before)
    if find_untolerated_taint(node["spec"]["taints"], pod["spec"]["tolerations"]) is None:
        assert find_untolerated_taint(node["spec"]["taints"], wider["spec"]["tolerations"]) is None


@DETERMINISTIC
@given(taints(), st.booleans())
def test_exists_toleration_without_key_tolerates_every_taint(taint, comparison_operators):
    assert tolerates({"operator": "Exists"}, taint, comparison_operators=comparison_operators)
    assert tolerates({"operator": "Exists", "effect": taint["effect"]}, taint)
    assert find_untolerated_taint([taint], [{"operator": "Exists"}]) is None


@DETERMINISTIC
@given(pods(), nodes(), st.data())
def test_removing_a_node_selector_entry_never_makes_a_pod_less_schedulable(pod, node, data):
    selector = pod["spec"].get("nodeSelector") or {}
    if not selector:
        pod["spec"]["nodeSelector"] = selector = data.draw(label_maps().filter(bool))
    key = data.draw(st.sampled_from(sorted(selector)))
    narrower = copy.deepcopy(pod)
    del narrower["spec"]["nodeSelector"][key]
    if node_matches(pod, node):
        assert node_matches(narrower, node)
    assert set(filter_failures(narrower, node)) <= set(filter_failures(pod, node))


@DETERMINISTIC
@given(pods(), nodes(), st.lists(pods(), max_size=2))
def test_explain_is_empty_exactly_when_every_filter_passes(pod, node, existing):
    taints_ok = (
        find_untolerated_taint(node["spec"]["taints"], pod["spec"]["tolerations"], ["NoSchedule", "NoExecute"]) is None
    )
    affinity_ok = node_matches(pod, node)
    resources_ok = fits_resources(pod, node, existing)
    unschedulable_ok = NODE_UNSCHEDULABLE not in filter_failures(pod, node, filters=[NODE_UNSCHEDULABLE])
    assert (explain(pod, node, existing) == []) is (taints_ok and affinity_ok and resources_ok and unschedulable_ok)
    # On a node that is not cordoned, exactly the three filters decide.
    node["spec"]["unschedulable"] = False
    assert (explain(pod, node, existing) == []) is (taints_ok and affinity_ok and resources_ok)
    assert len(explain(pod, node, existing)) == [taints_ok, affinity_ok, resources_ok].count(False)


@DETERMINISTIC
@given(term_lists(), label_maps(), requirements())
def test_adding_a_term_never_narrows_and_adding_an_expression_never_widens(terms, labels, requirement):
    node = {"metadata": {"name": "n", "labels": labels}}
    matched = matches_node_selector_terms(terms, node)
    assert matches_node_selector_terms(terms + [{"matchExpressions": [requirement]}], node) >= matched
    # An empty term matches nothing, so only a non-empty term can be narrowed.
    if terms and terms[0]["matchExpressions"]:
        narrowed = copy.deepcopy(terms)
        narrowed[0]["matchExpressions"].append(requirement)
        assert matches_node_selector_terms(narrowed, node) <= matched


@DETERMINISTIC
@given(st.integers(min_value=0, max_value=2**62), st.sampled_from(["cpu", "memory", "nvidia.com/gpu"]))
def test_formatted_quantities_parse_back(number, resource):
    value = parse_quantity(number) / (1000 if resource == "cpu" else 1)
    assert parse_quantity(format_quantity(resource, value)) == value


def test_every_filter_has_a_name():
    assert FILTERS == ("NodeUnschedulable", "TaintToleration", "NodeAffinity", "NodeResourcesFit")
