"""The report's "Cold start" section: each served model's start, step by step, against its budgets
(stackcheck/plan/cold_start.py, `cold-start-fits-its-budget`)."""

from __future__ import annotations

from ....placement.cold_start import VERDICT_NAME as COLD_START_VERDICT
from ..run import PlanResult
from .sections import MARKDOWN, Column, Items, Paragraph, Row, Section, Table

JUDGED = (
    "The cold start is the one number per model: what a first request to a pool at zero waits. "
    "cold-start-fits-its-budget judges the two budgets below, not that number: the startup probe's allowance against "
    "the steps from vLLM's start to its CUDA graphs (a shorter allowance restarts the pod while it loads), and the "
    "Cluster Autoscaler's maxNodeProvisionTime against the instance's launch (a shorter one gives up on the node)."
)


def cold_start_section(result: PlanResult) -> Section:
    """Per model each step's seconds and how they were worked out, the total, the part the startup probe must
    allow, and the budgets; the sources of the figures in markdown."""
    entries = result.cold_start
    failed = any(verdict.name == COLD_START_VERDICT and not verdict.passed for verdict in result.verdicts)
    steps = Table(
        (
            Column("Model", code=True),
            Column("Step"),
            Column("Seconds"),
            Column("Arithmetic"),
            Column("In startup probe"),
        ),
        tuple(
            Row((entry.name, step.name, f"{step.seconds:.0f}", step.arithmetic, "yes" if step.in_probe else "no"))
            for entry in entries
            for step in entry.steps
        )
        + tuple(
            Row(
                (
                    entry.name,
                    entry.weights_copy.name,
                    f"{entry.weights_copy.seconds:.0f}",
                    entry.weights_copy.arithmetic,
                    f"no: the init container waits up to {_seconds(entry.weights_wait)} s",
                )
            )
            for entry in entries
            if entry.weights_copy is not None
        ),
    )
    starts = Table(
        (Column("Model", code=True), Column("Pool", code=True), Column("Cold start s"), Column("Not estimated")),
        tuple(
            Row((entry.name, entry.pool, f"{entry.total:.0f}", "; ".join(entry.not_estimated) or "-"))
            for entry in entries
        ),
    )
    budgets = Table(
        (
            Column("Model", code=True),
            Column("Startup probe must allow s"),
            Column("Startup probe allows s"),
            Column("Instance launch s"),
            Column("maxNodeProvisionTime s"),
        ),
        tuple(
            Row(
                (
                    entry.name,
                    f"{entry.in_probe:.0f}",
                    _seconds(entry.startup_allowance),
                    f"{entry.node_launch:.0f}",
                    _seconds(entry.max_node_provision),
                )
            )
            for entry in entries
        ),
    )
    trades = result.cold_start_trade
    trade = Table(
        (
            Column("Model", code=True),
            Column("Option"),
            Column("Cold start s"),
            Column("Monthly $"),
            Column("Chose"),
            Column("Could not"),
        ),
        tuple(
            Row(
                (
                    item.model,
                    option.name,
                    f"{option.seconds:.0f}" + (" or more" if option.not_estimated else ""),
                    "not priced" if option.monthly_usd is None else f"{option.monthly_usd:,.2f}",
                    "; ".join(option.chose) or "-",
                    "; ".join(option.could_not) or "-",
                )
            )
            for item in trades
            for option in item.options
        ),
    )
    dearer = [item.model for item in trades if item.fast_costs_more_than_a_warm_node]
    trade_note = Paragraph(
        "The trade: today's settings, the fast profile its pool allows and one warm node, each with what it keeps "
        "running a month for a faster start (Fast Snapshot Restore per zone, warm nodes)."
        + (f" The fast profile costs more than a warm node for {', '.join(dearer)}." if dearer else "")
    )
    copies = [entry.weights_copy for entry in entries if entry.weights_copy is not None]
    sources = sorted({step.source for entry in entries for step in (*entry.steps, *copies)})
    blocks = (
        starts,
        Paragraph(JUDGED),
        budgets,
        *((trade_note, trade) if trades else ()),
        steps,
        Paragraph(
            "Published figures, not measured in this account: docs/autoscaling.md says how to measure a real cold start. "
            "The startup probe counts from the container's start, once the image is on the node."
        ),
        Items(tuple(sources), label="Sources", only=MARKDOWN),
    )
    return Section(
        "cold-start",
        "Cold start (from a pending pod to a server that answers, verdict cold-start-fits-its-budget)",
        "error" if failed else "warning" if any(entry.scales_from_zero for entry in entries) else "ok",
        blocks if entries else (),
        data={
            "coldStart": [entry.to_dict() for entry in entries],
            "coldStartTrade": [item.to_dict() for item in trades],
        },
    )


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"
