"""Tolerations against taints: tolerates, find_untolerated_taint and format_taint."""

from __future__ import annotations

import pytest

from components.placement import find_untolerated_taint, format_taint, tolerates

GPU_NS = {"key": "GPU", "value": "true", "effect": "NoSchedule"}
GPU_NE = {"key": "GPU", "value": "true", "effect": "NoExecute"}
BARE = {"key": "dedicated", "effect": "NoSchedule"}  # no value


@pytest.mark.parametrize(
    ("toleration", "taint", "expected"),
    [
        # Equal: key, value and effect.
        pytest.param(
            {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"},
            GPU_NS,
            True,
            id="Equal toleration with the taint's key, value and effect tolerates it",
        ),
        pytest.param(
            {"key": "GPU", "operator": "Equal", "value": "false", "effect": "NoSchedule"},
            GPU_NS,
            False,
            id="Equal toleration with another value does not tolerate",
        ),
        pytest.param(
            {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"},
            GPU_NE,
            False,
            id="Equal toleration for NoSchedule does not tolerate a NoExecute taint",
        ),
        pytest.param(
            {"key": "CPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"},
            GPU_NS,
            False,
            id="Equal toleration for another key does not tolerate",
        ),
        pytest.param(
            {"key": "GPU", "operator": "Equal", "value": "true"},
            GPU_NE,
            True,
            id="Equal toleration without an effect tolerates every effect",
        ),  # empty effect: every effect
        pytest.param(
            {"key": "GPU", "operator": "Equal", "value": "true", "effect": ""},
            GPU_NS,
            True,
            id="Equal toleration with an empty effect tolerates every effect",
        ),
        pytest.param(
            {"key": "GPU", "operator": "Equal", "effect": "NoSchedule"},
            GPU_NS,
            False,
            id="Equal toleration without a value does not tolerate a valued taint",
        ),  # value "" != "true"
        pytest.param(
            {"key": "dedicated", "operator": "Equal", "effect": "NoSchedule"},
            BARE,
            True,
            id="Equal toleration without a value tolerates a taint without a value",
        ),  # both values empty
        pytest.param(
            {"key": "dedicated", "operator": "Equal", "value": "", "effect": "NoSchedule"},
            BARE,
            True,
            id="Equal toleration with an empty value tolerates a taint without a value",
        ),
        pytest.param(
            {"key": "dedicated", "operator": "Equal", "value": "x", "effect": "NoSchedule"},
            BARE,
            False,
            id="Equal toleration with a value does not tolerate a taint without a value",
        ),
        # An empty operator means Equal.
        pytest.param(
            {"key": "GPU", "value": "true", "effect": "NoSchedule"},
            GPU_NS,
            True,
            id="toleration without an operator means Equal and tolerates",
        ),
        pytest.param(
            {"key": "GPU", "operator": "", "value": "true"}, GPU_NS, True, id="empty operator means Equal and tolerates"
        ),
        pytest.param(
            {"key": "GPU", "value": "yes"},
            GPU_NS,
            False,
            id="toleration without an operator and another value does not tolerate",
        ),
        # Exists: any value of the key.
        pytest.param(
            {"key": "GPU", "operator": "Exists", "effect": "NoSchedule"},
            GPU_NS,
            True,
            id="Exists toleration for the key and effect tolerates any value",
        ),
        pytest.param(
            {"key": "GPU", "operator": "Exists"},
            GPU_NE,
            True,
            id="Exists toleration without an effect tolerates NoExecute",
        ),
        pytest.param(
            {"key": "dedicated", "operator": "Exists"},
            BARE,
            True,
            id="Exists toleration tolerates a taint without a value",
        ),
        pytest.param(
            {"key": "GPU", "operator": "Exists", "effect": "NoExecute"},
            GPU_NS,
            False,
            id="Exists toleration for NoExecute does not tolerate NoSchedule",
        ),
        pytest.param(
            {"key": "CPU", "operator": "Exists"},
            GPU_NS,
            False,
            id="Exists toleration for another key does not tolerate",
        ),
        pytest.param(
            {"key": "GPU", "operator": "Exists", "value": "ignored"},
            GPU_NS,
            True,
            id="Exists toleration ignores its value",
        ),
        # An empty key with Exists: every key.
        pytest.param({"operator": "Exists"}, GPU_NS, True, id="Exists without a key tolerates every taint"),
        pytest.param(
            {"key": "", "operator": "Exists"}, BARE, True, id="Exists with an empty key tolerates every taint"
        ),
        pytest.param(
            {"operator": "Exists", "effect": "NoSchedule"},
            GPU_NS,
            True,
            id="Exists without a key for NoSchedule tolerates NoSchedule taints",
        ),
        pytest.param(
            {"operator": "Exists", "effect": "NoSchedule"},
            GPU_NE,
            False,
            id="Exists without a key for NoSchedule does not tolerate NoExecute taints",
        ),
        # An empty key without Exists is rejected by the API server: it tolerates nothing here.
        pytest.param({"operator": "Equal", "value": "true"}, GPU_NS, False, id="Equal without a key tolerates nothing"),
        pytest.param(
            {"effect": "NoSchedule"}, BARE, False, id="toleration without a key or operator tolerates nothing"
        ),
        pytest.param({}, BARE, False, id="empty toleration tolerates nothing"),
        # Unknown operators tolerate nothing.
        pytest.param(
            {"key": "GPU", "operator": "In", "value": "true"}, GPU_NS, False, id="unknown operator In tolerates nothing"
        ),
        pytest.param(
            {"key": "GPU", "operator": "equal", "value": "true"},
            GPU_NS,
            False,
            id="lowercase operator equal tolerates nothing",
        ),
        # Gt/Lt are off by default, as upstream's feature gate.
        pytest.param(
            {"key": "sla", "operator": "Gt", "value": "1"},
            {"key": "sla", "value": "5", "effect": "NoSchedule"},
            False,
            id="Gt tolerates nothing while comparison operators are off",
        ),
        pytest.param(
            {"key": "sla", "operator": "Lt", "value": "9"},
            {"key": "sla", "value": "5", "effect": "NoSchedule"},
            False,
            id="Lt tolerates nothing while comparison operators are off",
        ),
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
        pytest.param([], None, TAINTS[0], id="without tolerations the first taint of any effect is untolerated"),
        pytest.param(
            [],
            ["NoSchedule", "NoExecute"],
            GPU_NS,
            id="without tolerations the first NoSchedule or NoExecute taint is untolerated",
        ),
        pytest.param([], ["NoExecute"], TAINTS[2], id="only NoExecute taints counted finds the NoExecute taint"),
        pytest.param(
            [],
            ["PreferNoSchedule"],
            TAINTS[0],
            id="only PreferNoSchedule taints counted finds the PreferNoSchedule taint",
        ),
        pytest.param([], [], None, id="no effects counted finds nothing"),
        pytest.param(
            [{"key": "GPU", "operator": "Exists"}],
            ["NoSchedule", "NoExecute"],
            TAINTS[2],
            id="tolerating GPU leaves the NoExecute taint untolerated",
        ),
        pytest.param(
            [{"key": "GPU", "operator": "Exists"}, {"key": "evict", "operator": "Exists"}],
            ["NoSchedule", "NoExecute"],
            None,
            id="tolerating GPU and evict leaves no NoSchedule or NoExecute taint",
        ),
        pytest.param(
            [{"key": "GPU", "operator": "Exists"}, {"key": "evict", "operator": "Exists"}],
            None,
            TAINTS[0],
            id="tolerating GPU and evict still leaves the PreferNoSchedule taint",
        ),
        pytest.param([{"operator": "Exists"}], None, None, id="tolerating every key leaves nothing untolerated"),
        pytest.param(
            [{"operator": "Exists", "effect": "NoSchedule"}],
            None,
            TAINTS[0],
            id="tolerating every NoSchedule taint leaves the PreferNoSchedule taint",
        ),
        pytest.param(None, ["NoSchedule"], GPU_NS, id="tolerations None are read as no tolerations"),
    ],
)
def test_find_untolerated_taint(tolerations, effects, expected):
    assert find_untolerated_taint(TAINTS, tolerations, effects) == expected


@pytest.mark.parametrize(
    "taints", [pytest.param([], id="no taints finds nothing"), pytest.param(None, id="taints None finds nothing")]
)
def test_find_untolerated_taint_without_taints(taints):
    assert find_untolerated_taint(taints, [], None) is None


def test_find_untolerated_taint_passes_the_comparison_flag():
    tolerations = [{"key": "sla", "operator": "Gt", "value": "100"}]
    assert find_untolerated_taint([sla("500")], tolerations) == sla("500")
    assert find_untolerated_taint([sla("500")], tolerations, comparison_operators=True) is None


@pytest.mark.parametrize(
    ("taint", "text"),
    [
        pytest.param(GPU_NS, "GPU=true:NoSchedule", id="taint with key value and effect"),
        pytest.param(BARE, "dedicated:NoSchedule", id="taint without a value omits the equals sign"),
        pytest.param(
            {"key": "k", "value": "", "effect": "NoExecute"},
            "k:NoExecute",
            id="taint with an empty value omits the equals sign",
        ),
    ],
)
def test_format_taint(taint, text):
    assert format_taint(taint) == text
