"""Kubernetes quantity notation: parse_quantity, round_up and format_quantity."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from facts.quantity import round_up
from placement import format_quantity, parse_quantity

F = Fraction


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("500m", F(1, 2)),
        ("2Gi", 2 * 2**30),
        ("1e3", 1000),
        ("1E3", 1000),
        ("1e-3", F(1, 1000)),
        ("1.5e2", 150),
        ("1.5", F(3, 2)),
        ("100M", 10**8),
        ("1Ki", 1024),
        ("1Mi", 2**20),
        ("1Ti", 2**40),
        ("1Pi", 2**50),
        ("1Ei", 2**60),
        ("1.5Gi", 3 * 2**29),
        ("2E", 2 * 10**18),
        ("1k", 1000),
        ("3G", 3 * 10**9),
        ("12T", 12 * 10**12),
        ("3P", 3 * 10**15),
        ("100n", F(1, 10**7)),
        ("10u", F(1, 10**5)),
        ("0", 0),
        ("1", 1),
        ("-1", -1),
        ("+1", 1),
        ("1.", 1),
        (".5", F(1, 2)),
        ("0.1m", F(1, 10**4)),
        ("007", 7),
    ],
)
def test_parses_string_quantities_exactly(text, expected):
    assert parse_quantity(text) == expected


@pytest.mark.parametrize(
    ("number", "expected"),
    [(2, 2), (0, 0), (0.5, F(1, 2)), (0.1, F(1, 10)), (1e3, 1000), (Decimal("1.25"), F(5, 4)), (F(1, 3), F(1, 3))],
)
def test_parses_json_numbers(number, expected):
    assert parse_quantity(number) == expected


@pytest.mark.parametrize(
    "malformed",
    [
        "",
        " 1",
        "1 ",
        "abc",
        "1KiB",
        "1K",
        "1mi",
        "1k1",
        "1e",
        "1e1.5",
        "1.2.3",
        "Mi",
        ".",
        "-",
        "+",
        "0x10",
        "1_000",
        "1,5",
        "1e1000",
        "∞",
        True,
        False,
        None,
        [],
        {},
        float("nan"),
        float("inf"),
        Decimal("NaN"),
    ],
)
def test_rejects_malformed_quantities(malformed):
    with pytest.raises(ValueError, match="malformed quantity"):
        parse_quantity(malformed)


def test_unknown_suffix_error_lists_the_allowed_suffixes():
    with pytest.raises(ValueError, match=r"unknown suffix 'KiB'.*Gi.*Mi"):
        parse_quantity("1KiB")


@pytest.mark.parametrize(
    ("resource", "value", "expected"),
    [
        ("cpu", F(1, 10**4), F(1, 1000)),
        ("cpu", F(1, 2), F(1, 2)),
        ("cpu", F(1001, 10**6), F(2, 1000)),
        ("memory", F(1, 2), 1),
        ("memory", F(1024), 1024),
        ("nvidia.com/gpu", F(3, 2), 2),
    ],
)
def test_round_up_to_the_schedulers_unit(resource, value, expected):
    assert round_up(resource, value) == expected


@pytest.mark.parametrize(
    ("resource", "value", "expected"),
    [
        ("cpu", F(2), "2"),
        ("cpu", F(1, 2), "500m"),
        ("cpu", F(3920, 1000), "3920m"),
        ("cpu", F(1, 20000), "0.05m"),
        ("memory", 70 * 2**20, "70Mi"),
        ("memory", 2 * 2**30, "2Gi"),
        ("memory", 1536 * 2**20, "1536Mi"),
        ("memory", 1000, "1000"),
        ("memory", 0, "0"),
        ("memory", -(2**30), "-1Gi"),
        ("ephemeral-storage", 17 * 2**30, "17Gi"),
        ("hugepages-2Mi", 2**21, "2Mi"),
        ("nvidia.com/gpu", F(2), "2"),
        ("pods", F(58), "58"),
    ],
)
def test_format_quantity(resource, value, expected):
    assert format_quantity(resource, value) == expected


@pytest.mark.parametrize("text", ["500m", "2Gi", "3920m", "70Mi", "17Gi", "58"])
def test_format_then_parse_round_trips(text):
    resource = "cpu" if text.endswith("m") else "memory"
    assert parse_quantity(format_quantity(resource, parse_quantity(text))) == parse_quantity(text)
