"""The report's cost section (stackcheck/plan/cost.py): each pool and fixed cost, the totals, the idle floor."""

from __future__ import annotations

from ....facts import prices
from ..cost import CURRENCY_SIGNS, SIZES, CostEstimate, usd
from ..run import PlanResult
from .sections import MARKDOWN, Column, Items, Paragraph, Row, Section, Table


def cost_section(result: PlanResult) -> Section:
    """Per pool the node price and the monthly cost at each size, the fixed costs, the totals and the idle
    floor; what is not priced is listed, never counted as 0."""
    cost = result.cost
    return Section(
        "cost",
        "Cost",
        "warning" if cost and cost.not_priced else "info",
        _blocks(cost) if cost else (),
        text_heading=f"Cost (on-demand list prices, {cost.region}, {cost.currency}, a month of {prices.HOURS_PER_MONTH} hours)"
        if cost
        else "",
        markdown_heading=f"Cost ({cost.region}, {prices.HOURS_PER_MONTH} hours a month)" if cost else "",
        data={"cost": cost.to_dict() if cost else None},
    )


def _blocks(cost: CostEstimate) -> tuple[Table | Items | Paragraph, ...]:
    pools = Table(
        (
            Column("Pool", code=True),
            Column("Instance", code=True),
            Column("Capacity"),
            Column("Price/node/hour"),
            Column("Volumes/node/month"),
            Column("Nodes min/desired/max"),
            *(Column(f"Month at {size}") for size in SIZES),
        ),
        tuple(
            Row(
                (
                    pool.name,
                    pool.instance_type,
                    pool.capacity_type,
                    _hourly(pool.usd_per_node_hour, cost.currency),
                    usd(pool.disk_per_node_month, cost.currency),
                    "/".join(str(pool.sizes[size]) for size in SIZES),
                    *(usd(pool.monthly(size), cost.currency) for size in SIZES),
                )
            )
            for pool in cost.pools
        ),
    )
    fixed = Table(
        (Column("Fixed cost"), Column("Count"), Column("Price/hour each"), Column("Month")),
        tuple(
            Row((item.item, str(item.count), _hourly(item.usd_per_unit_hour), usd(item.monthly, cost.currency)))
            for item in cost.fixed
        ),
    )
    bound = "at least " if cost.not_priced else ""
    totals = Table(
        (Column("Total"), Column("Month")),
        tuple(
            Row(
                (
                    f"at {size}Size" if size != "min" else "at minSize (idle floor)",
                    bound + usd(cost.total(size), cost.currency),
                )
            )
            for size in SIZES
        )
        + (
            (Row(("queue empty (GPU pools at zero)", bound + usd(cost.queue_empty_floor, cost.currency))),)
            if cost.queue_empty_floor is not None
            else ()
        ),
    )
    spot = (
        f"Spot nodes at {cost.spot_discount:.0%} off on-demand (cost.spotDiscount)."
        if cost.spot_discount is not None
        else "Spot nodes are not priced: their price moves (set cost.spotDiscount to price them)."
    )
    budget = (
        f" Budget: {usd(cost.budget)} a month (cost.maxMonthlyUsd, verdict cost-within-budget)." if cost.budget else ""
    )
    sources = "; ".join(f"{source.name} ({source.where}, {source.as_of})" for source in prices.SOURCES)
    usage = Table(
        (Column("Billed by use (not counted)"), Column("Rate"), Column("What the stack's figures make of it")),
        tuple(
            Row(
                (
                    entry.item,
                    f"${entry.rate.amount:g} per {entry.rate.unit}"
                    if entry.rate
                    else f"not priced: {entry.not_priced}",
                    entry.note,
                )
            )
            for entry in cost.usage
        ),
    )
    # The list comes last: markdown reads a block right after a list item as part of that item.
    return (
        pools,
        fixed,
        totals,
        usage,
        Paragraph(
            "The idle floor is the fixed costs and every pool at minSize: the stack with no traffic."
            + (
                " Queue empty is the stack while no request waits and every queue-fed model is at zero replicas: "
                "the fixed costs, the pools without GPUs at minSize and every GPU pool at zero nodes."
                if cost.queue_empty_floor is not None
                else ""
            )
            + " What is billed "
            "by use is listed with its rate and not counted; load balancers the cluster creates are not registered "
            "by the program and not listed. " + spot + budget
        ),
        Paragraph(f"Prices from: {sources}.", only=MARKDOWN),
        Items(tuple(cost.not_priced), severity="warning", label="Not priced (left out of the totals)"),
    )


def _hourly(value: float | None, currency: str = "USD") -> str:
    return "not priced" if value is None else f"{CURRENCY_SIGNS.get(currency, currency + ' ')}{value:g}"
