"""Go's `time.ParseDuration`, for the settings a Go program reads as a duration flag.

The Cluster Autoscaler declares `--scale-down-unneeded-time`, `--scale-down-delay-after-add` and
`--max-node-provision-time` with `flag.Duration` (kubernetes/autoscaler, tag cluster-autoscaler-1.36.1,
`cluster-autoscaler/config/flags/flags.go`), and Go's `flag` package parses such a value with
`time.ParseDuration`. A value is good exactly when that function accepts it, so the settings use this
parser rather than a pattern of their own.
"""

from __future__ import annotations

NANOSECOND = 1
MICROSECOND = 1000 * NANOSECOND
MILLISECOND = 1000 * MICROSECOND
SECOND = 1000 * MILLISECOND
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE

# Go's `time.Duration` is an int64 count of nanoseconds.
MIN_DURATION = -(1 << 63)
MAX_DURATION = (1 << 63) - 1

# Go's `unitMap`, keyed by the units' UTF-8 bytes as Go compares them: `µs` is written with the micro sign
# (U+00B5) or the Greek letter mu (U+03BC).
UNITS = {
    b"ns": NANOSECOND,
    b"us": MICROSECOND,
    "µs".encode(): MICROSECOND,
    "μs".encode(): MICROSECOND,
    b"ms": MILLISECOND,
    b"s": SECOND,
    b"m": MINUTE,
    b"h": HOUR,
}
UNIT_NAMES = "ns, us (or µs), ms, s, m, h"
"""The units Go accepts, as its documentation of `ParseDuration` lists them."""

_UINT64 = (1 << 64) - 1
_DIGITS = b"0123456789"


class GoDurationError(ValueError):
    """A string `time.ParseDuration` refuses. The message is Go's reason without its `time: ` prefix and the
    quoted input (`invalid duration`, `missing unit in duration`, `unknown unit "d" in duration`), so a
    caller names the value in its own words."""


def _leading_int(s: bytes) -> tuple[int, bytes] | None:
    """Go's `leadingInt`: the leading digits as an unsigned integer, or None past 1<<63."""
    x = 0
    i = 0
    while i < len(s) and s[i] in _DIGITS:
        if x > (1 << 63) // 10:
            return None
        x = x * 10 + s[i] - ord("0")
        if x > 1 << 63:
            return None
        i += 1
    return x, s[i:]


def _leading_fraction(s: bytes) -> tuple[int, float, bytes]:
    """Go's `leadingFraction`: the digits after the point and their scale; past 63 bits it stops adding
    precision instead of failing."""
    x = 0
    scale = 1.0
    overflow = False
    i = 0
    while i < len(s) and s[i] in _DIGITS:
        if not overflow:
            if x > ((1 << 63) - 1) // 10:
                overflow = True
            else:
                y = x * 10 + s[i] - ord("0")
                if y > 1 << 63:
                    overflow = True
                else:
                    x = y
                    scale *= 10
        i += 1
    return x, scale, s[i:]


def parse_go_duration(text: str) -> int:
    """Nanoseconds of `text` exactly as Go's `time.ParseDuration` reads it, or `GoDurationError`.

    Follows `ParseDuration`, `leadingInt` and `leadingFraction` of golang/go `src/time/format.go` (Go 1.26,
    the version cluster-autoscaler 1.36.1's go.mod names) step by step, on the string's UTF-8 bytes as Go
    sees a string: an optional sign, then one or more decimal numbers, each with an optional fraction and a
    unit (`1h30m`, `1.5h`, `.5s`, `300ms`, `-2m`); a bare `0` (signed or not) is zero; the sum must fit an
    int64 count of nanoseconds (at most 2562047h47m16.854775807s either way). A fraction is converted
    through a float64, as in Go, and the running total is an unsigned 64-bit integer that wraps as Go's
    does.
    """
    s = text.encode("utf-8", "surrogatepass")
    invalid = GoDurationError("invalid duration")
    negative = False
    if s[:1] in (b"-", b"+"):
        negative = s[:1] == b"-"
        s = s[1:]
    if s == b"0":
        return 0
    if not s:
        raise invalid
    total = 0
    while s:
        if not (s[0] == ord(".") or s[0] in _DIGITS):
            raise invalid
        before = len(s)
        leading = _leading_int(s)
        if leading is None:
            raise invalid
        whole, s = leading
        digits_before = before != len(s)
        fraction, scale, digits_after = 0, 1.0, False
        if s[:1] == b".":
            s = s[1:]
            before = len(s)
            fraction, scale, s = _leading_fraction(s)
            digits_after = before != len(s)
        if not digits_before and not digits_after:
            raise invalid
        end = 0
        while end < len(s) and not (s[end] == ord(".") or s[end] in _DIGITS):
            end += 1
        if end == 0:
            raise GoDurationError("missing unit in duration")
        name, s = s[:end], s[end:]
        unit = UNITS.get(name)
        if unit is None:
            raise GoDurationError(f'unknown unit "{name.decode("utf-8", "replace")}" in duration')
        if whole > (1 << 63) // unit:
            raise invalid
        value = whole * unit
        if fraction > 0:
            value += int(float(fraction) * (float(unit) / scale))
            if value > 1 << 63:
                raise invalid
        total = (total + value) & _UINT64
        if total > 1 << 63:
            raise invalid
    if negative:
        # -Duration(d) on an int64: 1<<63 stays the smallest duration.
        return -total if total < 1 << 63 else MIN_DURATION
    if total > MAX_DURATION:
        raise invalid
    return total


def _decimal(value: int, unit: int) -> str:
    """`value` in `unit`s with the fraction Go prints: no trailing zeros, no point when whole."""
    whole, rest = divmod(value, unit)
    if not rest:
        return str(whole)
    return f"{whole}.{rest:0{len(str(unit)) - 1}d}".rstrip("0")


def format_go_duration(nanoseconds: int) -> str:
    """A duration as Go's `Duration.String` writes it: `1h30m0s`, `1.5s`, `300ms`, `0s` (for messages)."""
    sign = "-" if nanoseconds < 0 else ""
    rest = abs(nanoseconds)
    if rest < SECOND:
        if rest == 0:
            return "0s"
        if rest < MICROSECOND:
            return f"{sign}{rest}ns"
        if rest < MILLISECOND:
            return f"{sign}{_decimal(rest, MICROSECOND)}µs"
        return f"{sign}{_decimal(rest, MILLISECOND)}ms"
    hours, rest = divmod(rest, HOUR)
    minutes, rest = divmod(rest, MINUTE)
    text = (f"{hours}h" if hours else "") + (f"{minutes}m" if hours or minutes else "")
    return f"{sign}{text}{_decimal(rest, SECOND)}s"
