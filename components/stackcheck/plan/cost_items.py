"""The cost section's line items that stand apart from the node pools: a fixed charge and a charge billed by use.
Their own module so that the builders of each kind of line (plan/usage_cost.py, plan/warm_cost.py) and the estimate
that gathers them (plan/cost.py) import them from below rather than from each other."""

from __future__ import annotations

from dataclasses import dataclass

from ...facts import prices


@dataclass(frozen=True)
class FixedCost:
    """A charge that runs whatever the traffic: `count` units of one hourly price."""

    item: str
    count: int
    usd_per_unit_hour: float | None
    not_priced: str = ""

    @property
    def monthly(self) -> float | None:
        return None if self.usd_per_unit_hour is None else self.usd_per_unit_hour * self.count * prices.HOURS_PER_MONTH


@dataclass(frozen=True)
class UsageCost:
    """A charge billed by use, listed beside the totals and never counted in them: its rate, when one is known."""

    item: str
    rate: prices.Rate | None
    note: str = ""
    """What the stack's own figures make of the rate (the weights one cold start pulls through a NAT gateway)."""
    not_priced: str = ""
