"""The plan's report as data: a list of sections, each a title, a severity and blocks (tables, lists, verdicts).

`stackcheck.plan.report` builds the sections once from a `PlanResult`; `report_text`, `report_markdown` and
`report_json` render the same sections, so a section added to the report reaches every format. A renderer
knows the block types below and nothing of the plan; what one format shows and another does not is said
here, with `only`, rather than decided by the renderers.

Orders: both formats open with the report's summary line (`Summary`) and the warnings (a `lead` section).
The other sections are listed in the order the plan ran the steps behind them. The terminal prints them in
that order, so that its last lines, the ones left on the screen, are the verdicts and the outcome; markdown,
read from the top in a pull request, gives the alerts first, then the other sections the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning", "ok", "info"]
"""How a section came out: `error` a check failed, `warning` something to look at, `ok` its checks hold,
`info` it lists what the stack has and judges nothing."""
Status = Literal["pass", "fail", "skip"]
"""The verdict of one row or cell."""
TEXT, MARKDOWN = "text", "markdown"
"""The formats a block or a column can be limited to (`only`); JSON carries each section's `data` instead."""


@dataclass(frozen=True)
class Mark:
    """A table cell that states a verdict.

    The terminal shows `text` in the status's colour. Markdown shows `detail` (else `text`), after the status's
    icon unless the row's mark column already shows it.
    """

    status: Status
    text: str
    detail: str = ""


Cell = str | Mark


@dataclass(frozen=True)
class Column:
    """One column of a `Table`."""

    header: str
    code: bool = False
    """Markdown shows the cells as code (names a reader may copy)."""
    code_header: bool = False
    """Markdown shows the header as code (a column per pool, named by the pool)."""


@dataclass(frozen=True)
class Row:
    """One row of a `Table`: a cell per column, and the row's verdict when it has one."""

    cells: tuple[Cell, ...]
    status: Status | None = None


@dataclass(frozen=True)
class Table:
    """Rows under headers: aligned columns on a terminal, a table in markdown."""

    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    marked: bool = False
    """Markdown leads each row with its status icon, in a column of its own."""
    only: str | None = None


@dataclass(frozen=True)
class Items:
    """A list of lines: problems (`severity` error), warnings, or plain entries under an optional `label`."""

    lines: tuple[str, ...]
    severity: Severity | None = None
    label: str = ""
    only: str | None = None


@dataclass(frozen=True)
class Paragraph:
    """A sentence under the heading."""

    text: str
    only: str | None = None


@dataclass(frozen=True)
class Message:
    """What went wrong, in the words of the step that failed; `preformatted` keeps its lines as they are."""

    text: str
    preformatted: bool = False
    only: str | None = None


@dataclass(frozen=True)
class VerdictLine:
    """One verdict of the GPU guard."""

    id: int
    name: str
    passed: bool
    message: str
    details: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdicts:
    """The GPU guard's verdicts, in the order of their ids."""

    verdicts: tuple[VerdictLine, ...]
    only: str | None = None


@dataclass(frozen=True)
class TreeRow:
    """One resource in the tree: its `├─ ` / `└─ ` prefix, type token and name."""

    prefix: str
    type: str
    name: str


@dataclass(frozen=True)
class ResourceTree:
    """Every resource, children under their parents, as `pulumi preview` lists them."""

    rows: tuple[TreeRow, ...]
    only: str | None = None


@dataclass(frozen=True)
class ResourceCounts:
    """How many resources the plan creates: in total, per provider package and per type."""

    total: int
    by_package: tuple[tuple[str, int], ...]
    by_type: tuple[tuple[str, int], ...]
    only: str | None = None


Block = Table | Items | Paragraph | Message | Verdicts | ResourceTree | ResourceCounts
BLOCK_TYPES: tuple[type, ...] = (Table, Items, Paragraph, Message, Verdicts, ResourceTree, ResourceCounts)
"""Every kind of block; each renderer handles each of them (its `match` over `Block` is exhaustive, which mypy
checks, and tests/plan/test_plan_report.py renders a sample of each)."""


def has_content(block: Block) -> bool:
    """Whether `block` has anything to show; an empty one is left out."""
    if isinstance(block, Table | ResourceTree):
        return bool(block.rows)
    if isinstance(block, Items):
        return bool(block.lines)
    if isinstance(block, Paragraph | Message):
        return bool(block.text)
    if isinstance(block, Verdicts):
        return bool(block.verdicts)
    return block.total > 0


@dataclass(frozen=True)
class Section:
    """One part of the report, as every format shows it."""

    key: str
    """Stable identifier, for tools (the JSON document's `sections[].id`)."""
    title: str
    """The heading, unless a format words its own below."""
    severity: Severity
    blocks: tuple[Block, ...] = ()
    alert: bool = False
    """A failure that left the rest undone or unreadable: it stands out on a terminal and comes first in markdown."""
    text_heading: str = ""
    """The terminal's heading, when it says more than `title`."""
    markdown_heading: str = ""
    """Markdown's heading, when it differs from `title`."""
    lead: bool = False
    """Shown right after the summary in every format, before the alerts' details and the resource tree (the
    warnings)."""
    data: Mapping[str, Any] = field(default_factory=dict)
    """The section's fields of the JSON document, kept even when the section shows nothing."""

    def blocks_for(self, output_format: str) -> list[Block]:
        """The blocks `output_format` shows: those with content, not limited to another format."""
        return [block for block in self.blocks if block.only in (None, output_format) and has_content(block)]

    def shown_in(self, output_format: str) -> bool:
        """Whether `output_format` shows the section at all: a section with nothing to show is left out."""
        return bool(self.blocks_for(output_format))


@dataclass(frozen=True)
class Summary:
    """The answer in one line: the exit status, the failed verdicts, the warnings and the monthly cost."""

    exit_code: int
    failed_checks: int
    failed_verdicts: tuple[str, ...]
    """Each failed verdict's number and slug, as the report prints them (`<number> cost-within-budget`)."""
    warnings: int
    monthly_usd_at_desired: float | None
    """None when the plan did not get as far as the cost estimate."""
    cost_complete: bool = True
    """False when something is not priced, so the cost is a lower bound."""
    cost_currency: str = "USD"
    """The currency the figure is in: the one the stack's region is billed in."""
    cost_missing: tuple[str, ...] = ()
    """What the figure leaves out for want of a price, by name."""
    cost_usage: tuple[str, ...] = ()
    """What is billed by use beside the figure, by name and rate."""

    @property
    def ok(self) -> bool:
        return self.failed_checks == 0 and self.exit_code == 0

    @property
    def line(self) -> str:
        """`OK (exit 0): every check holds; 1 warning(s); $840.23 a month at desiredSize`."""
        if self.ok:
            outcome = "every check holds"
        else:
            outcome = f"{self.failed_checks} check(s) failed"
            if self.failed_verdicts:
                outcome += f", verdict(s) {', '.join(self.failed_verdicts)}"
        if self.monthly_usd_at_desired is None:
            cost = "cost not estimated"
        else:
            bound = "" if self.cost_complete else "at least "
            sign = {"USD": "$", "CNY": "CN¥"}.get(self.cost_currency, self.cost_currency + " ")
            cost = f"{bound}{sign}{self.monthly_usd_at_desired:,.2f} a month at desiredSize"
            if self.cost_missing:
                cost += f", not priced: {', '.join(self.cost_missing)}"
            if self.cost_usage:
                cost += f"; billed by use, not counted: {', '.join(self.cost_usage)}"
        return f"{'OK' if self.ok else 'FAILED'} (exit {self.exit_code}): {outcome}; {self.warnings} warning(s); {cost}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON document's `summary`."""
        return {
            "line": self.line,
            "exitCode": self.exit_code,
            "failedChecks": self.failed_checks,
            "failedVerdicts": list(self.failed_verdicts),
            "warnings": self.warnings,
            "monthlyUsdAtDesired": None
            if self.monthly_usd_at_desired is None
            else round(self.monthly_usd_at_desired, 2),
            "costComplete": self.cost_complete,
            "currency": self.cost_currency,
            "costNotPriced": list(self.cost_missing),
            "costUsage": list(self.cost_usage),
        }


@dataclass(frozen=True)
class Report:
    """The whole report: what was planned, the sections, and the outcome every check adds up to."""

    project: str
    stack: str
    stack_file: str
    """The stack file as shown: relative to the working directory when inside it."""
    exit_code: int
    failures: tuple[str, ...]
    """Every failed check, one line each."""
    sections: tuple[Section, ...]
    summary: Summary | None = None
    """The line text and markdown open with; None for a report built without one."""
    leading: tuple[Section, ...] = ()
    """Sections every format shows before the others, in this order: what the reader came for, such as the
    comparison with an earlier plan (`plan --compare`)."""


def markdown_order(sections: tuple[Section, ...]) -> list[Section]:
    """The order markdown shows `sections` in: alerts first, then the lead sections (the warnings), then the
    others from the last to the first."""
    return (
        [section for section in sections if section.alert]
        + [section for section in sections if section.lead and not section.alert]
        + [section for section in reversed(sections) if not section.alert and not section.lead]
    )
