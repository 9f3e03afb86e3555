"""Go durations read as Go's `time.ParseDuration` reads them, checked against Go's own tables.

The accepted and refused inputs are `parseDurationTests` and `parseDurationErrorTests` of golang/go
`src/time/time_test.go` (the inputs with invalid UTF-8 bytes left out: a Python string cannot hold them),
with the values Go expects; a few cases of the same function's edges follow them.
"""

from __future__ import annotations

import pytest

from components.facts.go_duration import (
    HOUR,
    MAX_DURATION,
    MICROSECOND,
    MILLISECOND,
    MIN_DURATION,
    MINUTE,
    NANOSECOND,
    SECOND,
    GoDurationError,
    format_go_duration,
    parse_go_duration,
)

GO_ACCEPTS = [
    # simple
    ("0", 0),
    ("5s", 5 * SECOND),
    ("30s", 30 * SECOND),
    ("1478s", 1478 * SECOND),
    # sign
    ("-5s", -5 * SECOND),
    ("+5s", 5 * SECOND),
    ("-0", 0),
    ("+0", 0),
    # decimal
    ("5.0s", 5 * SECOND),
    ("5.6s", 5 * SECOND + 600 * MILLISECOND),
    ("5.s", 5 * SECOND),
    (".5s", 500 * MILLISECOND),
    ("1.0s", 1 * SECOND),
    ("1.00s", 1 * SECOND),
    ("1.004s", 1 * SECOND + 4 * MILLISECOND),
    ("1.0040s", 1 * SECOND + 4 * MILLISECOND),
    ("100.00100s", 100 * SECOND + 1 * MILLISECOND),
    # different units
    ("10ns", 10 * NANOSECOND),
    ("11us", 11 * MICROSECOND),
    ("12µs", 12 * MICROSECOND),  # U+00B5
    ("12μs", 12 * MICROSECOND),  # U+03BC
    ("13ms", 13 * MILLISECOND),
    ("14s", 14 * SECOND),
    ("15m", 15 * MINUTE),
    ("16h", 16 * HOUR),
    # composite durations
    ("3h30m", 3 * HOUR + 30 * MINUTE),
    ("10.5s4m", 4 * MINUTE + 10 * SECOND + 500 * MILLISECOND),
    ("-2m3.4s", -(2 * MINUTE + 3 * SECOND + 400 * MILLISECOND)),
    ("1h2m3s4ms5us6ns", HOUR + 2 * MINUTE + 3 * SECOND + 4 * MILLISECOND + 5 * MICROSECOND + 6),
    ("39h9m14.425s", 39 * HOUR + 9 * MINUTE + 14 * SECOND + 425 * MILLISECOND),
    # large value
    ("52763797000ns", 52763797000),
    # more than 9 digits after the point (golang.org/issue/6617)
    ("0.3333333333333333333h", 20 * MINUTE),
    # 2**53 + 1 cannot be held exactly by a float64
    ("9007199254740993ns", (1 << 53) + 1),
    # the largest and smallest int64 counts of nanoseconds
    ("9223372036854775807ns", MAX_DURATION),
    ("9223372036854775.807us", MAX_DURATION),
    ("9223372036s854ms775us807ns", MAX_DURATION),
    ("-9223372036854775808ns", MIN_DURATION),
    ("-9223372036854775.808us", MIN_DURATION),
    ("-9223372036s854ms775us808ns", MIN_DURATION),
    ("-2562047h47m16.854775808s", MIN_DURATION),  # golang.org/issue/48629
    # huge string (golang.org/issue/15011)
    ("0.100000000000000000000h", 6 * MINUTE),
    # the first overflow check of leadingFraction
    ("0.830103483285477580700h", 49 * MINUTE + 48 * SECOND + 372539827),
]

GO_REFUSES = [
    "",
    "3",
    "-",
    "s",
    ".",
    "-.",
    ".s",
    "+.s",
    "1d",
    "\ufffd",
    "\ufffd hello \ufffd world",
    "9223372036854775810ns",
    "9223372036854775808ns",
    "-9223372036854775809ns",
    "9223372036854776us",
    "3000000h",
    "9223372036854775.808us",
    "9223372036854ms775us808ns",
]


@pytest.mark.parametrize(("text", "nanoseconds"), GO_ACCEPTS, ids=[f"{text!r} is accepted" for text, _ in GO_ACCEPTS])
def test_go_accepts_and_so_does_the_parser(text, nanoseconds):
    assert parse_go_duration(text) == nanoseconds


@pytest.mark.parametrize("text", GO_REFUSES, ids=[f"{text!r} is refused" for text in GO_REFUSES])
def test_go_refuses_and_so_does_the_parser(text):
    with pytest.raises(GoDurationError):
        parse_go_duration(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("3", "missing unit in duration"),
        ("10", "missing unit in duration"),
        ("1d", 'unknown unit "d" in duration'),
        ("1h 30m", 'unknown unit "h " in duration'),
        ("1e3s", 'unknown unit "e" in duration'),
        ("2562048h", "invalid duration"),
        ("1s.", "invalid duration"),
        ("++1s", "invalid duration"),
    ],
)
def test_each_refusal_gives_gos_reason(text, reason):
    with pytest.raises(GoDurationError) as error:
        parse_go_duration(text)
    assert str(error.value) == reason


@pytest.mark.parametrize(
    ("text", "nanoseconds"),
    [
        ("1h30m", 90 * MINUTE),
        ("1.5h", 90 * MINUTE),
        ("300ms", 300 * MILLISECOND),
        ("-0s", 0),
        ("+0s", 0),
        ("2562047h", 2562047 * HOUR),
        # The total is an unsigned 64-bit integer: 2**63 + 2**63 wraps to 0 without an overflow check failing.
        ("9223372036854775808ns9223372036854775808ns", 0),
    ],
)
def test_edges_of_the_same_algorithm(text, nanoseconds):
    assert parse_go_duration(text) == nanoseconds


@pytest.mark.parametrize(
    ("nanoseconds", "text"),
    [
        (0, "0s"),
        (1, "1ns"),
        (1100, "1.1µs"),
        (2200 * MICROSECOND, "2.2ms"),
        (3300 * MILLISECOND, "3.3s"),
        (-(4 * MINUTE + 5 * SECOND), "-4m5s"),
        (-(5 * HOUR + 6 * MINUTE + 7001 * MILLISECOND), "-5h6m7.001s"),
        (8 * HOUR + 8 * NANOSECOND, "8h0m0.000000008s"),
        (MAX_DURATION, "2562047h47m16.854775807s"),
        (MIN_DURATION, "-2562047h47m16.854775808s"),
    ],
)
def test_format_writes_what_gos_duration_string_writes(nanoseconds, text):
    # The shapes of Go's durationTests (time_test.go) for Duration.String, each read back to the same value.
    assert format_go_duration(nanoseconds) == text
    assert parse_go_duration(text) == nanoseconds
