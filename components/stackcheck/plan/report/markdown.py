"""The plan's report for a pull-request comment or `$GITHUB_STEP_SUMMARY`: headings, tables, a folded tree
(stackcheck/plan/sections.py)."""

from __future__ import annotations

from typing import assert_never

from .sections import (
    MARKDOWN,
    Block,
    Column,
    Items,
    Mark,
    Message,
    Paragraph,
    Report,
    ResourceCounts,
    ResourceTree,
    Row,
    Section,
    Table,
    Verdicts,
    markdown_order,
)

_ICONS = {"pass": "✅", "fail": "❌", "skip": "⏭️"}
_SEVERITY_ICONS = {"error": "❌", "warning": "⚠️", "ok": "✅", "info": "ℹ️"}


def render_markdown(report: Report, *, quiet: bool = False) -> str:
    """`report` as markdown, opening with the summary line; `quiet` gives only that line and the failures."""
    lines = [f"**{escape(report.summary.line)}**", ""] if report.summary else []
    if quiet:
        return "\n".join(lines + [f"- {escape(failure)}" for failure in report.failures]).rstrip("\n") + "\n"
    lines += [f"## Offline plan of stack `{report.stack}` ({report.project})", "", *_outcome(report), ""]
    for section in (*report.leading, *markdown_order(report.sections)):
        if section.shown_in(MARKDOWN):
            lines += _section(section)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def _section(section: Section) -> list[str]:
    # The tree is as long as the stack: folded, and after what a reviewer reads first.
    blocks = sorted(section.blocks_for(MARKDOWN), key=lambda block: isinstance(block, ResourceTree))
    lines = [f"### {section.markdown_heading or section.title}", ""]
    for index, block in enumerate(blocks):
        # A list of problems leads into the table after it; other blocks stand apart.
        if index and not isinstance(blocks[index - 1], Items):
            lines.append("")
        lines += _block(block, section)
    return [*lines, ""]


def _table(table: Table) -> list[str]:
    headers = [f"`{column.header}`" if column.code_header else column.header for column in table.columns]
    lines = [
        ("| | " if table.marked else "| ") + " | ".join(headers) + " |",
        "|" + "---|" * (len(table.columns) + table.marked),
    ]
    for row in table.rows:
        cells = [_cell(cell, column, table.marked) for cell, column in zip(row.cells, table.columns, strict=True)]
        if table.marked:
            cells.insert(0, _ICONS.get(row.status or "", ""))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _cell(cell: str | Mark, column: Column, marked: bool) -> str:
    if isinstance(cell, Mark):
        text = escape(cell.detail or cell.text)
        return text if marked else f"{_ICONS[cell.status]} {text}"
    return f"`{escape(cell)}`" if column.code else escape(cell)


def _items(items: Items) -> list[str]:
    # Problems are marked; warnings already stand under their own heading.
    icon = f"{_SEVERITY_ICONS['error']} " if items.severity == "error" else ""
    lines = [f"{items.label}:", ""] if items.label else []
    return lines + [f"- {icon}{escape(line)}" for line in items.lines]


def _paragraph(paragraph: Paragraph) -> list[str]:
    return [escape(paragraph.text)]


def _message(message: Message, section: Section) -> list[str]:
    if message.preformatted:
        return ["```", message.text, "```"]
    return [f"{_SEVERITY_ICONS[section.severity]} {escape(message.text)}"]


def _verdicts(block: Verdicts) -> list[str]:
    columns = (Column("#"), Column("Check"), Column("Verdict"))
    rows = tuple(
        Row((str(verdict.id), verdict.name, verdict.message), "pass" if verdict.passed else "fail")
        for verdict in block.verdicts
    )
    return _table(Table(columns, rows, marked=True))


def _tree(tree: ResourceTree) -> list[str]:
    width = max((len(row.prefix + row.type) for row in tree.rows), default=0)
    return [
        "<details><summary>Resource tree (as <code>pulumi preview</code> shows it)</summary>",
        "",
        "```",
        *(f"+   {(row.prefix + row.type).ljust(width)}  {row.name}" for row in tree.rows),
        "```",
        "",
        "</details>",
    ]


def _counts(counts: ResourceCounts) -> list[str]:
    rows = tuple(Row((package, str(n))) for package, n in counts.by_package)
    return _table(Table((Column("Package"), Column("Count")), rows))


def _block(block: Block, section: Section) -> list[str]:
    # Exhaustive over `Block`: mypy rejects a block type added to sections.py without a case here.
    match block:
        case Table():
            return _table(block)
        case Items():
            return _items(block)
        case Paragraph():
            return _paragraph(block)
        case Message():
            return _message(block, section)
        case Verdicts():
            return _verdicts(block)
        case ResourceTree():
            return _tree(block)
        case ResourceCounts():
            return _counts(block)
        case _:
            assert_never(block)


def _outcome(report: Report) -> list[str]:
    if not report.failures:
        return [f"**✅ Every check holds** (exit {report.exit_code})"]
    return [
        f"**❌ {len(report.failures)} check(s) failed** (exit {report.exit_code})",
        "",
        *(f"- {escape(failure)}" for failure in report.failures),
    ]


def escape(text: str) -> str:
    """`text` safe inside a table cell or a list item: pipes escaped, line breaks as `<br>`."""
    return text.replace("|", "\\|").replace("\n", "<br>")
