"""The plan's report for a terminal: aligned tables, ANSI colour when asked for (stackcheck/plan/sections.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from .sections import (
    TEXT,
    Block,
    Items,
    Mark,
    Message,
    Paragraph,
    Report,
    ResourceCounts,
    ResourceTree,
    Section,
    Table,
    Verdicts,
)

_GREEN, _RED, _YELLOW, _BOLD, _DIM, _RESET = "\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[1m", "\x1b[2m", "\x1b[0m"
_STATUS_COLOURS = {"pass": _GREEN, "fail": _RED, "skip": _YELLOW}
_SEVERITY_COLOURS = {"error": _RED, "warning": _YELLOW, "ok": _GREEN, "info": _BOLD}
_ITEM_MARKERS = {"error": ("problem:", _RED), "warning": ("warning:", _YELLOW)}

Paint = Callable[[str, str | None], str]
Styled = tuple[str, str | None]
"""A cell's text and its colour."""


def render_text(report: Report, *, colour: bool = False, quiet: bool = False) -> str:
    """`report` for a terminal; `colour` adds ANSI colour. It opens with the summary line; `quiet` prints only
    that line and the failures."""
    paint = _painter(colour)
    lines = []
    if report.summary:
        lines.append(paint(report.summary.line, _GREEN if report.summary.ok else _RED))
    if quiet:
        return "\n".join(lines + [f"  - {failure}" for failure in report.failures]) + "\n"
    lines.append(paint(f"Plan of stack {report.stack} (project {report.project}, {report.stack_file})", _BOLD))
    for section in (*report.leading, *report.sections):
        if section.shown_in(TEXT):
            lines += ["", *_section(section, paint)]
    lines += ["", *_outcome(report, paint)]
    return "\n".join(lines) + "\n"


def _section(section: Section, paint: Paint) -> list[str]:
    blocks = section.blocks_for(TEXT)
    heading = section.text_heading or section.title
    if section.alert and len(blocks) == 1 and isinstance(blocks[0], Message):
        # A failure in one sentence reads best as one line: "The program failed: ...".
        return [paint(f"{heading}: {blocks[0].text}", _SEVERITY_COLOURS[section.severity])]
    lines = [paint(heading, _SEVERITY_COLOURS[section.severity] if section.alert else _BOLD)]
    for index, block in enumerate(blocks):
        # A list of problems leads into the table after it; other blocks stand apart.
        if index and not isinstance(blocks[index - 1], Items):
            lines.append("")
        lines += _block(block, paint)
    return lines


def _table(table: Table, paint: Paint) -> list[str]:
    header: list[Styled] = [(column.header, _DIM) for column in table.columns]
    rows = [[_cell(cell) for cell in row.cells] for row in table.rows]
    return _aligned([header, *rows], paint)


def _cell(cell: str | Mark) -> Styled:
    if isinstance(cell, Mark):
        return cell.text, _STATUS_COLOURS[cell.status]
    return cell, None


def _items(items: Items, paint: Paint) -> list[str]:
    if items.label:
        return [f"  {items.label}:", *(f"    {line}" for line in items.lines)]
    word, code = _ITEM_MARKERS.get(items.severity or "", ("-", None))
    marker = paint(word, code)
    return [f"  {marker} {line}" for line in items.lines]


def _paragraph(block: Paragraph | Message) -> list[str]:
    return [f"  {line}" for line in block.text.splitlines()]


def _verdicts(block: Verdicts, paint: Paint) -> list[str]:
    lines = []
    for verdict in block.verdicts:
        status = paint("PASS", _GREEN) if verdict.passed else paint("FAIL", _RED)
        lines.append(f"  {status}  {verdict.id} {verdict.name}: {verdict.message}")
        if not verdict.passed:
            lines += [f"          - {detail}" for detail in verdict.details if detail != verdict.message]
    return lines


def _tree(tree: ResourceTree, paint: Paint) -> list[str]:
    header: list[Styled] = [("", _DIM), ("Type", _DIM), ("Name", _DIM), ("Plan", _DIM)]
    rows = [[("+", _GREEN), (row.prefix + row.type, None), (row.name, None), ("create", None)] for row in tree.rows]
    return _aligned([header, *rows], paint)


def _counts(counts: ResourceCounts, paint: Paint) -> list[str]:
    by_type = _aligned([[(name, None), (str(n), None)] for name, n in counts.by_type], paint)
    return [
        f"Resources: {paint(f'+ {counts.total} to create', _GREEN)}",
        "  by package: " + ", ".join(f"{package} {n}" for package, n in counts.by_package),
        "  by type:",
        *(f"  {line}" for line in by_type),
    ]


def _block(block: Block, paint: Paint) -> list[str]:
    # Exhaustive over `Block`: mypy rejects a block type added to sections.py without a case here.
    match block:
        case Table():
            return _table(block, paint)
        case Items():
            return _items(block, paint)
        case Paragraph() | Message():
            return _paragraph(block)
        case Verdicts():
            return _verdicts(block, paint)
        case ResourceTree():
            return _tree(block, paint)
        case ResourceCounts():
            return _counts(block, paint)
        case _:
            assert_never(block)


def _outcome(report: Report, paint: Paint) -> list[str]:
    if not report.failures:
        return [paint(f"OK: every check holds (exit {report.exit_code})", _GREEN)]
    return [
        paint(f"FAILED: {len(report.failures)} check(s) (exit {report.exit_code})", _RED),
        *(f"  - {failure}" for failure in report.failures),
    ]


def _aligned(rows: list[list[Styled]], paint: Paint) -> list[str]:
    """Columns padded to their widest cell; padding is added outside the colour escapes so they do not skew widths."""
    widths = [max(len(row[i][0]) for row in rows) for i in range(len(rows[0]))] if rows else []
    lines = []
    for row in rows:
        cells = [
            paint(text, code) + (" " * (widths[i] - len(text)) if i < len(row) - 1 else "")
            for i, (text, code) in enumerate(row)
        ]
        lines.append(("  " + "  ".join(cells)).rstrip())
    return lines


def _painter(colour: bool) -> Paint:
    def paint(text: str, code: str | None = None) -> str:
        return f"{code}{text}{_RESET}" if colour and code and text else text

    return paint
