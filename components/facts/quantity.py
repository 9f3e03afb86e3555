"""Kubernetes resource quantities (`500m`, `2Gi`, `1e3`) as exact fractions."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

_BINARY_SUFFIXES = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL_SUFFIXES = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}

# upstream (apimachinery resource.Quantity): <sign><digits>[.<digits>] | <sign>.<digits>, then a suffix.
_NUMBER = re.compile(r"([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(.*)", re.DOTALL)
_EXPONENT = re.compile(r"[eE]([+-]?[0-9]+)")
# An exponent this large is no resource amount; refuse it instead of building a huge integer.
_MAX_EXPONENT = 100

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1

# Resources whose amounts are bytes: printed with binary suffixes.
_BYTE_RESOURCES = ("memory", "ephemeral-storage", "storage")


def parse_quantity(q: str | int | float | Decimal | Fraction) -> Fraction:
    """Parse a Kubernetes quantity into an exact Fraction.

    Accepts the string forms the API server accepts (a signed decimal number
    followed by a binary-SI suffix `Ki`..`Ei`, a decimal-SI suffix `n u m k M G T P E`,
    or an exponent `e3`/`E-2`; `2E` is 2 exa, `2e3` is 2000), and JSON numbers
    (int or finite float). Raises ValueError on anything else, including bools,
    whitespace and an empty string.
    """
    if isinstance(q, str):
        return _parse_string(q)
    if isinstance(q, bool):
        raise ValueError(f"malformed quantity {q!r}: a bool is not a quantity")
    if isinstance(q, Fraction):
        return q
    if isinstance(q, int):
        return Fraction(q)
    if isinstance(q, float):
        if not math.isfinite(q):
            raise ValueError(f"malformed quantity {q!r}: not a finite number")
        # repr() is the shortest decimal that round-trips, i.e. what the JSON said.
        return Fraction(Decimal(repr(q)))
    if isinstance(q, Decimal):
        if not q.is_finite():
            raise ValueError(f"malformed quantity {q!r}: not a finite number")
        return Fraction(q)
    raise ValueError(f"malformed quantity {q!r}: expected a string or a number, got {type(q).__name__}")


@lru_cache(maxsize=4096)
def _parse_string(q: str) -> Fraction:
    match = _NUMBER.fullmatch(q)
    if match is None:
        raise ValueError(f"malformed quantity {q!r}: expected a number with an optional suffix such as 500m, 2Gi, 1e3")
    sign, number, suffix = match.groups()
    value = Fraction(number if not number.endswith(".") else number[:-1])
    if sign == "-":
        value = -value
    if suffix in _BINARY_SUFFIXES:
        return value * _BINARY_SUFFIXES[suffix]
    if suffix in _DECIMAL_SUFFIXES:
        return value * Fraction(10) ** _DECIMAL_SUFFIXES[suffix]
    exponent = _EXPONENT.fullmatch(suffix)
    if exponent is not None:
        power = int(exponent.group(1))
        if abs(power) > _MAX_EXPONENT:
            raise ValueError(f"malformed quantity {q!r}: exponent {power} out of range (|e| <= {_MAX_EXPONENT})")
        return value * Fraction(10) ** power
    allowed = ", ".join(sorted(_BINARY_SUFFIXES) + sorted(s for s in _DECIMAL_SUFFIXES if s))
    raise ValueError(f"malformed quantity {q!r}: unknown suffix {suffix!r}; allowed: {allowed}, or an exponent like e3")


def round_up(resource: str, value: Fraction) -> Fraction:
    """Round an amount up to the scheduler's unit: millicores for cpu, whole units otherwise.

    upstream: the scheduler's Resource takes Quantity.MilliValue() for cpu and
    Quantity.Value() for everything else, both rounding up.
    """
    if value.denominator == 1:
        return value
    if resource == "cpu":
        return Fraction(math.ceil(value * 1000), 1000)
    return Fraction(math.ceil(value))


def format_quantity(resource: str, value: Fraction | int) -> str:
    """Render an amount of `resource` the way a person would write it in a manifest.

    cpu as cores or millicores (`2`, `500m`); byte resources (memory,
    ephemeral-storage, hugepages-*) with the largest exact binary suffix (`70Mi`,
    `2Gi`); anything else as a plain number.
    """
    value = Fraction(value)
    if resource == "cpu" and value.denominator != 1:
        milli = value * 1000
        return f"{milli.numerator}m" if milli.denominator == 1 else f"{float(milli):g}m"
    if (resource in _BYTE_RESOURCES or resource.startswith("hugepages-")) and value.denominator == 1 and value:
        for suffix, factor in sorted(_BINARY_SUFFIXES.items(), key=lambda item: -item[1]):
            if value % factor == 0:
                return f"{value // factor}{suffix}"
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"


def parse_int64(text: str, syntax: re.Pattern[str]) -> int | None:
    """`text` as an integer when it matches `syntax` whole and fits Go's int64, else None."""
    if not syntax.fullmatch(text):
        return None
    number = int(text)
    return number if _INT64_MIN <= number <= _INT64_MAX else None
