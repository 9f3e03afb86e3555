"""The verdict `cost-within-budget`: the stack at every pool's maximum size costs no more a month than the
budget it sets (`cost.maxMonthlyUsd`); above it at the desired size is a warning.

Pure: the costs come in as numbers (the offline plan prices the registered resources from `facts/prices.py`),
so the verdict is the same whatever priced them.
"""

from __future__ import annotations

from .verdict import Verdict

VERDICT_NAME = "cost-within-budget"


def budget_verdict(
    budget: float | None, at_desired: float, at_max: float, not_priced: list[str]
) -> tuple[Verdict, list[str]]:
    """The verdict and the plan's warnings: a cost at maximum size over `budget` fails; over it at the desired
    size, or items left out of the totals (`not_priced`), warn. Without a budget the verdict holds."""
    if budget is None:
        return Verdict(VERDICT_NAME, True, "no budget set (cost.maxMonthlyUsd)"), []
    bound = "at least " if not_priced else ""
    at_max_text = f"{bound}${at_max:,.2f} a month at every pool's maxSize"
    warnings = []
    if at_desired > budget:
        warnings.append(
            f"{bound}${at_desired:,.2f} a month at desiredSize is over the budget of ${budget:,.2f} "
            "(cost.maxMonthlyUsd)"
        )
    if not_priced:
        warnings.append(
            f"the totals leave out what is not priced ({'; '.join(not_priced)}), so the budget is checked "
            "against a lower bound"
        )
    if at_max > budget:
        message = (
            f"{at_max_text} is over the budget of ${budget:,.2f} (cost.maxMonthlyUsd); lower maxSize, choose "
            "cheaper instance types, or raise the budget"
        )
        return Verdict(VERDICT_NAME, False, message, [message, *warnings]), warnings
    message = f"{at_max_text} is within the budget of ${budget:,.2f} (cost.maxMonthlyUsd)"
    return Verdict(VERDICT_NAME, True, message, warnings), warnings
