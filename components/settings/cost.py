"""Settings of the plan's cost estimate (`cost`): what the offline plan prices the stack at and the budget its
verdict `cost-within-budget` holds it to. No component takes them; the program registers nothing from them."""

from __future__ import annotations

from typing import Annotated

from .fields import rule
from .section import SectionModel

SpotDiscount = Annotated[float, rule(lambda x: 0 <= x < 1, "a fraction with 0 <= x < 1, such as 0.6 for 60% off")]
"""The share of the on-demand price a Spot node saves."""
MonthlyUsd = Annotated[float, rule(lambda x: x > 0, "a number of US dollars above 0")]
"""A monthly amount in US dollars."""


class CostSettings(SectionModel):
    """The plan's cost estimate and the stack's budget (`cost`)."""

    spot_discount: SpotDiscount | None = None
    """The share of the on-demand price the stack's Spot nodes save, as a fraction (0.6 prices a Spot node at 40%
    of the on-demand price). Spot prices move with demand, so the plan prices no Spot node unless this is given.
    Default none (Spot pools are shown as not priced)."""
    max_monthly_usd: MonthlyUsd | None = None
    """The stack's budget in US dollars a month (730 hours). The plan's verdict `cost-within-budget` fails when
    the stack at every pool's maximum size costs more, and warns when it costs more at the desired size. Default
    none (no budget)."""
