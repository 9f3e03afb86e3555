"""Tolerations against taints: tolerates, find_untolerated_taint and format_taint."""

from __future__ import annotations

import pytest

from placement import find_untolerated_taint, format_taint, tolerates

GPU_NS = {"key": "GPU", "value": "true", "effect": "NoSchedule"}
GPU_NE = {"key": "GPU", "value": "true", "effect": "NoExecute"}
BARE = {"key": "dedicated", "effect": "NoSchedule"}  # no value


@pytest.mark.parametrize(
    ("toleration", "taint", "expected"),
    [
        # Equal: key, value and effect.
        ({"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}, GPU_NS, True),
        ({"key": "GPU", "operator": "Equal", "value": "false", "effect": "NoSchedule"}, GPU_NS, False),
        ({"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}, GPU_NE, False),
        ({"key": "CPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}, GPU_NS, False),
        ({"key": "GPU", "operator": "Equal", "value": "true"}, GPU_NE, True),  # empty effect: every effect
        ({"key": "GPU", "operator": "Equal", "value": "true", "effect": ""}, GPU_NS, True),
        ({"key": "GPU", "operator": "Equal", "effect": "NoSchedule"}, GPU_NS, False),  # value "" != "true"
        ({"key": "dedicated", "operator": "Equal", "effect": "NoSchedule"}, BARE, True),  # both values empty
        ({"key": "dedicated", "operator": "Equal", "value": "", "effect": "NoSchedule"}, BARE, True),
        ({"key": "dedicated", "operator": "Equal", "value": "x", "effect": "NoSchedule"}, BARE, False),
        # An empty operator means Equal.
        ({"key": "GPU", "value": "true", "effect": "NoSchedule"}, GPU_NS, True),
        ({"key": "GPU", "operator": "", "value": "true"}, GPU_NS, True),
        ({"key": "GPU", "value": "yes"}, GPU_NS, False),
        # Exists: any value of the key.
        ({"key": "GPU", "operator": "Exists", "effect": "NoSchedule"}, GPU_NS, True),
        ({"key": "GPU", "operator": "Exists"}, GPU_NE, True),
        ({"key": "dedicated", "operator": "Exists"}, BARE, True),
        ({"key": "GPU", "operator": "Exists", "effect": "NoExecute"}, GPU_NS, False),
        ({"key": "CPU", "operator": "Exists"}, GPU_NS, False),
        ({"key": "GPU", "operator": "Exists", "value": "ignored"}, GPU_NS, True),
        # An empty key with Exists: every key.
        ({"operator": "Exists"}, GPU_NS, True),
        ({"key": "", "operator": "Exists"}, BARE, True),
        ({"operator": "Exists", "effect": "NoSchedule"}, GPU_NS, True),
        ({"operator": "Exists", "effect": "NoSchedule"}, GPU_NE, False),
        # An empty key without Exists is rejected by the API server: it tolerates nothing here.
        ({"operator": "Equal", "value": "true"}, GPU_NS, False),
        ({"effect": "NoSchedule"}, BARE, False),
        ({}, BARE, False),
        # Unknown operators tolerate nothing.
        ({"key": "GPU", "operator": "In", "value": "true"}, GPU_NS, False),
        ({"key": "GPU", "operator": "equal", "value": "true"}, GPU_NS, False),
        # Gt/Lt are off by default, as upstream's feature gate.
        ({"key": "sla", "operator": "Gt", "value": "1"}, {"key": "sla", "value": "5", "effect": "NoSchedule"}, False),
        ({"key": "sla", "operator": "Lt", "value": "9"}, {"key": "sla", "value": "5", "effect": "NoSchedule"}, False),
    ],
)
def test_tolerates(toleration, taint, expected):
    assert tolerates(toleration, taint) is expected


def sla(value: str) -> dict:
    return {"key": "sla", "value": value, "effect": "NoSchedule"}


@pytest.mark.parametrize(
    ("operator", "threshold", "taint_value", "expected"),
    [
        ("Gt", "750", "950", True),  # taint value above the toleration's
        ("Gt", "950", "800", False),
        ("Gt", "950", "950", False),
        ("Gt", "-100", "-50", True),
        ("Gt", "-50", "-100", False),
        ("Gt", "0", "9223372036854775807", True),
        ("Lt", "950", "800", True),  # taint value below the toleration's
        ("Lt", "800", "950", False),
        ("Lt", "0", "0", False),
        ("Lt", "0", "-9223372036854775808", True),
        # Values must be canonical int64 on both sides.
        ("Gt", "abc", "100", False),
        ("Gt", "", "100", False),
        ("Gt", "0100", "200", False),
        ("Gt", "+100", "200", False),
        ("Gt", "100.5", "200", False),
        ("Gt", "-", "200", False),
        ("Gt", "-0", "200", False),
        ("Gt", "100", "xyz", False),
        ("Gt", "100", "", False),
        ("Gt", "100", "0200", False),
        ("Lt", "100", " 20 ", False),
        ("Gt", "0", "9223372036854775808", False),  # beyond int64
    ],
)
def test_comparison_operators_behind_the_flag(operator, threshold, taint_value, expected):
    toleration = {"key": "sla", "operator": operator, "value": threshold, "effect": "NoSchedule"}
    assert tolerates(toleration, sla(taint_value), comparison_operators=True) is expected


def test_comparison_operators_still_need_the_key_and_effect():
    toleration = {"key": "sla", "operator": "Gt", "value": "1", "effect": "NoExecute"}
    assert tolerates(toleration, sla("5"), comparison_operators=True) is False
    assert tolerates({"key": "other", "operator": "Gt", "value": "1"}, sla("5"), comparison_operators=True) is False


TAINTS = [
    {"key": "soft", "value": "1", "effect": "PreferNoSchedule"},
    GPU_NS,
    {"key": "evict", "value": "now", "effect": "NoExecute"},
]


@pytest.mark.parametrize(
    ("tolerations", "effects", "expected"),
    [
        ([], None, TAINTS[0]),
        ([], ["NoSchedule", "NoExecute"], GPU_NS),
        ([], ["NoExecute"], TAINTS[2]),
        ([], ["PreferNoSchedule"], TAINTS[0]),
        ([], [], None),
        ([{"key": "GPU", "operator": "Exists"}], ["NoSchedule", "NoExecute"], TAINTS[2]),
        (
            [{"key": "GPU", "operator": "Exists"}, {"key": "evict", "operator": "Exists"}],
            ["NoSchedule", "NoExecute"],
            None,
        ),
        ([{"key": "GPU", "operator": "Exists"}, {"key": "evict", "operator": "Exists"}], None, TAINTS[0]),
        ([{"operator": "Exists"}], None, None),
        ([{"operator": "Exists", "effect": "NoSchedule"}], None, TAINTS[0]),
        (None, ["NoSchedule"], GPU_NS),
    ],
)
def test_find_untolerated_taint(tolerations, effects, expected):
    assert find_untolerated_taint(TAINTS, tolerations, effects) == expected


@pytest.mark.parametrize("taints", [[], None])
def test_find_untolerated_taint_without_taints(taints):
    assert find_untolerated_taint(taints, [], None) is None


def test_find_untolerated_taint_passes_the_comparison_flag():
    tolerations = [{"key": "sla", "operator": "Gt", "value": "100"}]
    assert find_untolerated_taint([sla("500")], tolerations) == sla("500")
    assert find_untolerated_taint([sla("500")], tolerations, comparison_operators=True) is None


@pytest.mark.parametrize(
    ("taint", "text"),
    [
        (GPU_NS, "GPU=true:NoSchedule"),
        (BARE, "dedicated:NoSchedule"),
        ({"key": "k", "value": "", "effect": "NoExecute"}, "k:NoExecute"),
    ],
)
def test_format_taint(taint, text):
    assert format_taint(taint) == text
