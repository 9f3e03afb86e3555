"""Taints and tolerations: Kubernetes' ToleratesTaint and the TaintToleration filter."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..facts.contract import KUBERNETES_TAINT_EFFECTS
from ..facts.quantity import parse_int64

NO_SCHEDULE, NO_EXECUTE, PREFER_NO_SCHEDULE = KUBERNETES_TAINT_EFFECTS

UNSCHEDULABLE_TAINT_KEY = "node.kubernetes.io/unschedulable"

# upstream (toleration.go, compareNumericValues): canonical int64 only, so no
# leading zeros, no plus sign and no "-0".
_CANONICAL_INT = re.compile(r"-?(0|[1-9][0-9]*)")


def tolerates(toleration: dict, taint: dict, *, comparison_operators: bool = False) -> bool:
    """Whether `toleration` tolerates `taint` (Kubernetes' Toleration.ToleratesTaint).

    The effect must be empty or equal, the key empty (with operator `Exists`)
    or equal; then operator `Exists` tolerates any value and `Equal` (or an
    empty operator) needs equal values. `Gt`/`Lt` (alpha, feature gate TaintTolerationComparisonOperators)
    compare the taint's value with the toleration's as integers, and count only
    when `comparison_operators` is true; any other operator tolerates nothing.
    """
    effect = toleration.get("effect") or ""
    if effect and effect != (taint.get("effect") or ""):
        return False
    key = toleration.get("key") or ""
    if key and key != (taint.get("key") or ""):
        return False
    operator = toleration.get("operator") or ""
    if not key and operator != "Exists":
        # upstream's ToleratesTaint would compare values here, but API validation
        # rejects an empty key without Exists, so no pod carries such a toleration.
        return False
    if operator in ("", "Equal"):
        return (toleration.get("value") or "") == (taint.get("value") or "")
    if operator == "Exists":
        return True
    if operator in ("Gt", "Lt") and comparison_operators:
        threshold = _canonical_int(toleration.get("value") or "")
        actual = _canonical_int(taint.get("value") or "")
        if threshold is None or actual is None:
            return False
        return actual > threshold if operator == "Gt" else actual < threshold
    return False


def find_untolerated_taint(
    taints: Iterable[dict] | None,
    tolerations: Iterable[dict] | None,
    effects: Iterable[str] | None = None,
    *,
    comparison_operators: bool = False,
) -> dict | None:
    """The first taint whose effect is in `effects` (every effect when None) that no toleration tolerates.

    upstream: v1helper.FindMatchingUntoleratedTaint; None when every such taint is tolerated.
    """
    wanted = None if effects is None else set(effects)
    tolerations = list(tolerations or ())
    for taint in taints or ():
        if wanted is not None and (taint.get("effect") or "") not in wanted:
            continue
        if not any(tolerates(t, taint, comparison_operators=comparison_operators) for t in tolerations):
            return taint
    return None


def format_taint(taint: dict) -> str:
    """A taint as kubectl writes it: `key=value:Effect`, or `key:Effect` without a value."""
    key = taint.get("key") or ""
    value = taint.get("value") or ""
    effect = taint.get("effect") or ""
    return f"{key}={value}:{effect}" if value else f"{key}:{effect}"


def _canonical_int(text: str) -> int | None:
    return None if text == "-0" else parse_int64(text, _CANONICAL_INT)
