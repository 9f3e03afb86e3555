"""What the pools' warm nodes cost (`warmNodes`): each is a GPU node that runs whatever the traffic, so the cost
section counts it among the fixed costs, at the hourly price of the node its pool launches (as `cost.py` prices the
pool: an On-Demand node group's first type, a Karpenter pool's cheapest, a Spot pool's dearest at
`cost.spotDiscount`). At the pool's maxSize the warm nodes are among its nodes, so the total at maxSize counts them
twice: an upper bound there."""

from __future__ import annotations

from typing import Any

from ...facts import prices
from .cost_items import FixedCost


def node_hour(pool: Any, region: str, spot_discount: float | None) -> tuple[str, prices.Price | None, str]:
    """The instance type a warm node of `pool` (its settings) is priced as, its hourly price, and why it has none."""
    kinds = list(pool.instance_types)
    if pool.capacity_type == "SPOT":
        if spot_discount is None:
            return kinds[0], None, "Spot prices move; set cost.spotDiscount to price Spot nodes"
        spot = [(kind, price) for kind in kinds if (price := prices.spot(kind, region, spot_discount)) is not None]
        if len(spot) < len(kinds):
            return kinds[0], None, f"no on-demand price for every type of {kinds} in {region}"
        return max(spot, key=lambda pair: pair[1].per_hour) + ("",)
    priced = [(kind, price) for kind in kinds if (price := prices.list_price(kind, region)) is not None]
    if pool.karpenter and priced:
        return min(priced, key=lambda pair: pair[1].per_hour) + ("",)
    price = prices.list_price(kinds[0], region)
    return kinds[0], price, "" if price else f"no on-demand price for {kinds[0]} in {region}"


def warm_node_costs(settings: Any, region: str, spot_discount: float | None, currency: str = "USD") -> list[FixedCost]:
    """One fixed cost per pool that keeps warm nodes: `warmNodes` of its node's hourly price, in `currency`, the
    one the region is billed in (a node of a China region is priced in yuan, as its pool is)."""
    items = []
    for pool in settings.pools:
        count = pool.settings.warm_nodes
        if not count:
            continue
        kind, price, why = node_hour(pool.settings, region, spot_discount)
        if price is not None and price.currency != currency:
            why, price = f"its price is in {price.currency}, the region is billed in {currency}", None
        label = f"warm GPU nodes of {pool.resource_name(settings.cluster.name)} ({kind})"
        items.append(FixedCost(label, count, price.per_hour if price else None, why))
    return items
