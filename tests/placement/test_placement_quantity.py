"""Kubernetes quantity notation: parse_quantity, round_up and format_quantity."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from components.facts.quantity import round_up
from components.placement import format_quantity, parse_quantity

F = Fraction


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("500m", F(1, 2), id="500m is one half"),
        pytest.param("2Gi", 2 * 2**30, id="2Gi is 2 times 2^30"),
        pytest.param("1e3", 1000, id="1e3 is 1000"),
        pytest.param("1E3", 1000, id="1E3 with a capital exponent is 1000"),
        pytest.param("1e-3", F(1, 1000), id="1e-3 is one thousandth"),
        pytest.param("1.5e2", 150, id="1.5e2 is 150"),
        pytest.param("1.5", F(3, 2), id="1.5 is three halves"),
        pytest.param("100M", 10**8, id="100M is 10^8"),
        pytest.param("1Ki", 1024, id="1Ki is 1024"),
        pytest.param("1Mi", 2**20, id="1Mi is 2^20"),
        pytest.param("1Ti", 2**40, id="1Ti is 2^40"),
        pytest.param("1Pi", 2**50, id="1Pi is 2^50"),
        pytest.param("1Ei", 2**60, id="1Ei is 2^60"),
        pytest.param("1.5Gi", 3 * 2**29, id="1.5Gi is 3 times 2^29"),
        pytest.param("2E", 2 * 10**18, id="2E is 2 times 10^18"),
        pytest.param("1k", 1000, id="1k is 1000"),
        pytest.param("3G", 3 * 10**9, id="3G is 3 times 10^9"),
        pytest.param("12T", 12 * 10**12, id="12T is 12 times 10^12"),
        pytest.param("3P", 3 * 10**15, id="3P is 3 times 10^15"),
        pytest.param("100n", F(1, 10**7), id="100n is 10^-7"),
        pytest.param("10u", F(1, 10**5), id="10u is 10^-5"),
        pytest.param("0", 0, id="0 is 0"),
        pytest.param("1", 1, id="1 is 1"),
        pytest.param("-1", -1, id="-1 is minus 1"),
        pytest.param("+1", 1, id="+1 is 1"),
        pytest.param("1.", 1, id="1. with a trailing dot is 1"),
        pytest.param(".5", F(1, 2), id=".5 with a leading dot is one half"),
        pytest.param("0.1m", F(1, 10**4), id="0.1m is 10^-4"),
        pytest.param("007", 7, id="007 with leading zeros is 7"),
    ],
)
def test_parses_string_quantities_exactly(text, expected):
    assert parse_quantity(text) == expected


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        pytest.param(2, 2, id="integer 2 is 2"),
        pytest.param(0, 0, id="integer 0 is 0"),
        pytest.param(0.5, F(1, 2), id="float 0.5 is one half exactly"),
        pytest.param(0.1, F(1, 10), id="float 0.1 is one tenth exactly"),
        pytest.param(1e3, 1000, id="float 1e3 is 1000"),
        pytest.param(Decimal("1.25"), F(5, 4), id="Decimal 1.25 is five quarters"),
        pytest.param(F(1, 3), F(1, 3), id="Fraction one third stays one third"),
    ],
)
def test_parses_json_numbers(number, expected):
    assert parse_quantity(number) == expected


@pytest.mark.parametrize(
    "malformed",
    [
        pytest.param("", id="empty string is malformed"),
        pytest.param(" 1", id="leading space is malformed"),
        pytest.param("1 ", id="trailing space is malformed"),
        pytest.param("abc", id="letters are malformed"),
        pytest.param("1KiB", id="suffix KiB is malformed"),
        pytest.param("1K", id="suffix K is malformed"),
        pytest.param("1mi", id="suffix mi is malformed"),
        pytest.param("1k1", id="digits after a suffix are malformed"),
        pytest.param("1e", id="exponent without digits is malformed"),
        pytest.param("1e1.5", id="fractional exponent is malformed"),
        pytest.param("1.2.3", id="two decimal points are malformed"),
        pytest.param("Mi", id="suffix without a number is malformed"),
        pytest.param(".", id="lone dot is malformed"),
        pytest.param("-", id="lone minus sign is malformed"),
        pytest.param("+", id="lone plus sign is malformed"),
        pytest.param("0x10", id="hexadecimal is malformed"),
        pytest.param("1_000", id="underscore separator is malformed"),
        pytest.param("1,5", id="comma decimal separator is malformed"),
        pytest.param("1e1000", id="overflowing exponent is malformed"),
        pytest.param("∞", id="infinity sign is malformed"),
        pytest.param(True, id="boolean True is malformed"),
        pytest.param(False, id="boolean False is malformed"),
        pytest.param(None, id="None is malformed"),
        pytest.param([], id="list is malformed"),
        pytest.param({}, id="dict is malformed"),
        pytest.param(float("nan"), id="float NaN is malformed"),
        pytest.param(float("inf"), id="float infinity is malformed"),
        pytest.param(Decimal("NaN"), id="Decimal NaN is malformed"),
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
        pytest.param("cpu", F(1, 10**4), F(1, 1000), id="cpu rounds up to the next millicore"),
        pytest.param("cpu", F(1, 2), F(1, 2), id="cpu of whole millicores stays as is"),
        pytest.param("cpu", F(1001, 10**6), F(2, 1000), id="cpu a little above 1m rounds up to 2m"),
        pytest.param("memory", F(1, 2), 1, id="memory rounds a fraction up to one byte"),
        pytest.param("memory", F(1024), 1024, id="memory of whole bytes stays as is"),
        pytest.param("nvidia.com/gpu", F(3, 2), 2, id="GPUs round up to the next whole device"),
    ],
)
def test_round_up_to_the_schedulers_unit(resource, value, expected):
    assert round_up(resource, value) == expected


@pytest.mark.parametrize(
    ("resource", "value", "expected"),
    [
        pytest.param("cpu", F(2), "2", id="two cpus format as 2"),
        pytest.param("cpu", F(1, 2), "500m", id="half a cpu formats as 500m"),
        pytest.param("cpu", F(3920, 1000), "3920m", id="3.92 cpus format as 3920m"),
        pytest.param("cpu", F(1, 20000), "0.05m", id="a fraction of a millicore keeps its decimals"),
        pytest.param("memory", 70 * 2**20, "70Mi", id="70Mi of memory formats as 70Mi"),
        pytest.param("memory", 2 * 2**30, "2Gi", id="2Gi of memory formats as 2Gi"),
        pytest.param("memory", 1536 * 2**20, "1536Mi", id="1536Mi of memory stays in Mi"),
        pytest.param("memory", 1000, "1000", id="1000 bytes stay plain"),
        pytest.param("memory", 0, "0", id="zero memory formats as 0"),
        pytest.param("memory", -(2**30), "-1Gi", id="negative memory keeps its sign"),
        pytest.param("ephemeral-storage", 17 * 2**30, "17Gi", id="ephemeral storage formats in Gi"),
        pytest.param("hugepages-2Mi", 2**21, "2Mi", id="hugepages format in Mi"),
        pytest.param("nvidia.com/gpu", F(2), "2", id="GPUs format as a whole number"),
        pytest.param("pods", F(58), "58", id="pods format as a whole number"),
    ],
)
def test_format_quantity(resource, value, expected):
    assert format_quantity(resource, value) == expected


@pytest.mark.parametrize("text", ["500m", "2Gi", "3920m", "70Mi", "17Gi", "58"])
def test_format_then_parse_round_trips(text):
    resource = "cpu" if text.endswith("m") else "memory"
    assert parse_quantity(format_quantity(resource, parse_quantity(text))) == parse_quantity(text)
