"""The verdict `cost-within-budget`: the stack at every pool's maximum size costs no more a month than the
budget it sets (`cost.maxMonthlyUsd`); above it at the desired size is a warning. A stack billed in another
currency than the budget's (the China regions, in yuan) is not compared, and says so.

Pure: the costs come in as numbers (the offline plan prices the registered resources from `facts/prices.py`),
so the verdict is the same whatever priced them.
"""

from __future__ import annotations

from .verdict import Verdict

VERDICT_NAME = "cost-within-budget"


def budget_verdict(
    budget: float | None, at_desired: float, at_max: float, not_priced: list[str], currency: str = "USD"
) -> tuple[Verdict, list[str]]:
    """The verdict and the plan's warnings: a cost at maximum size over `budget` fails; over it at the desired
    size, or items left out of the totals (`not_priced`), warn. Without a budget the verdict holds. The budget is
    in US dollars: totals in another `currency` (yuan, in the China regions) are not compared with it, and the
    verdict says so with a warning rather than comparing yuan with dollars (no exchange rate is assumed)."""
    if budget is None:
        return Verdict(VERDICT_NAME, True, "no budget set (cost.maxMonthlyUsd)"), []
    if currency != "USD":
        message = (
            f"not checked: the region is billed in {currency} and the budget of ${budget:,.2f} (cost.maxMonthlyUsd) "
            f"is in US dollars; the plan assumes no exchange rate, so compare the {currency} totals of the cost "
            "section with your budget yourself"
        )
        return Verdict(VERDICT_NAME, True, message, [message]), [message]
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
