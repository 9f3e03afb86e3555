"""The verdict `model-fits-gpu`: every served model fits the GPUs of each instance type of its pool, by the
arithmetic of facts/model_memory.py (one model, one instance type, per row)."""

from __future__ import annotations

from ..facts.model_memory import ModelFit
from .verdict import Verdict, _summary

NAME = "model-fits-gpu"


def model_fits_verdict(fits: list[ModelFit]) -> Verdict:
    """`model-fits-gpu` over every (model, instance type) row: fails when any row does not fit; rows not checked
    pass but say so in the message (the plan also warns of them)."""
    if not fits:
        return Verdict(NAME, True, "no vLLM model is served from the stack config; nothing to size")
    failed = [fit.reason for fit in fits if fit.fits is False]
    unchecked = [fit.reason for fit in fits if fit.fits is None]
    details = [fit.reason for fit in fits]
    if failed:
        return Verdict(NAME, False, _summary(failed), details)
    checked = [f"{fit.name} on {fit.instance_type}" for fit in fits if fit.fits]
    parts = []
    if checked:
        parts.append("every checked model fits its GPUs: " + "; ".join(checked))
    if unchecked:
        parts.append(_summary(unchecked))
    return Verdict(NAME, True, "; ".join(parts), details)


def not_checked_warnings(fits: list[ModelFit]) -> list[str]:
    """The plan's warning for each row the gate could not check: it never passes silently."""
    return [f"{NAME} {fit.reason}" for fit in fits if fit.fits is None]
