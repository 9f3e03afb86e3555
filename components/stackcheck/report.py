"""A plan as text for terminals, markdown for pull requests, or one JSON document for tools."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .plan import JSON_SCHEMA_VERSION, PlanResult, ResourceRow

_GREEN, _RED, _YELLOW, _BOLD, _DIM, _RESET = "\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[1m", "\x1b[2m", "\x1b[0m"


def render(result: PlanResult, output_format: str, *, colour: bool = False) -> str:
    """`result` in `output_format` (`text`, `markdown` or `json`); `colour` adds ANSI colour to text."""
    if output_format == "json":
        return to_json(result)
    if output_format == "markdown":
        return to_markdown(result)
    if output_format == "text":
        return to_text(result, colour=colour)
    raise ValueError(f"unknown format {output_format!r}; allowed: text, markdown, json")


def to_dict(result: PlanResult) -> dict[str, Any]:
    """The plan as plain data: the JSON document."""
    return {
        "schemaVersion": JSON_SCHEMA_VERSION,
        "project": result.project,
        "stack": result.stack,
        "stackFile": _shown_path(result.stack_file),
        "exitCode": result.exit_code,
        "failures": result.failures,
        "configProblems": [{"key": problem.key, "message": problem.message} for problem in result.config_problems],
        "programError": result.program_error,
        "warnings": result.warnings,
        "resources": [
            {"type": row.type, "name": row.name, "parent": row.parent, "urn": row.urn} for row in result.resources
        ],
        "counts": result.counts,
        "outputs": result.outputs,
        "networkProblems": result.network_problems,
        "duplicateObjects": result.duplicate_objects,
        "outDir": _shown_path(result.out_dir),
        "objects": [
            {
                "path": written.path,
                "apiVersion": written.object.api_version,
                "kind": written.object.kind,
                "name": written.object.name,
                "namespace": written.object.namespace,
            }
            for written in result.written
        ],
        "kubernetesVersion": result.kubernetes_version,
        "schema": [
            {
                "object": item.object_id,
                "file": item.file,
                "passed": item.passed,
                "checked": item.checked,
                "message": item.message,
            }
            for item in result.schema
        ],
        "nodeGroupProblems": result.node_group_problems,
        "placementError": result.placement_error,
        "pools": result.pools,
        "matrix": [row.to_dict() for row in result.matrix],
        "verdicts": [verdict.to_dict() for verdict in result.verdicts],
        "awsRequests": [check.to_dict() for check in result.aws_requests],
    }


def to_json(result: PlanResult) -> str:
    """The plan as one JSON document."""
    return json.dumps(to_dict(result), indent=2, ensure_ascii=False) + "\n"


def to_text(result: PlanResult, *, colour: bool = False) -> str:
    """The plan for a terminal: aligned tables, ANSI colour when `colour`."""
    paint = _painter(colour)
    lines = [paint(f"Plan of stack {result.stack} (project {result.project}, {_shown_path(result.stack_file)})", _BOLD)]
    if result.config_problems:
        lines += [
            "",
            paint(f"Invalid stack config ({len(result.config_problems)} problem(s)); nothing was rendered:", _RED),
        ]
        lines += [f"  - {problem.message}" for problem in result.config_problems]
        lines += ["", _text_outcome(result, paint)]
        return "\n".join(lines) + "\n"

    lines += ["", paint("Resources", _BOLD)]
    tree = resource_tree(result.resources)
    lines += _text_table(
        ["", "Type", "Name", "Plan"],
        [["+", f"{prefix}{row.type}", row.name, "create"] for prefix, row in tree],
        paint,
        colours={0: _GREEN},
    )
    counts = result.counts
    total = f"+ {counts['total']} to create"
    lines += [
        "",
        f"Resources: {paint(total, _GREEN)}",
        "  by package: " + ", ".join(f"{package} {n}" for package, n in counts["byPackage"].items()),
        "  by type:",
    ]
    lines += [
        f"  {line}"
        for line in _text_table(
            ["Type", "Count"], [[t, str(n)] for t, n in counts["byType"].items()], paint, header=False
        )
    ]
    if result.warnings:
        lines += ["", paint("Warnings", _BOLD)] + [f"  {paint('warning:', _YELLOW)} {w}" for w in result.warnings]
    if result.program_error:
        lines += ["", paint(f"The program failed: {result.program_error}", _RED), "", _text_outcome(result, paint)]
        return "\n".join(lines) + "\n"

    schema = {item.file: item for item in result.schema}
    lines += [
        "",
        paint(
            f"Kubernetes objects ({len(result.written)} written to {_shown_path(result.out_dir)}, "
            f"schema of Kubernetes {result.kubernetes_version}, strict)",
            _BOLD,
        ),
    ]
    lines += _text_table(
        ["File", "Kind", "Namespace", "Name", "Schema"],
        [
            [
                w.path,
                w.object.kind,
                w.object.namespace or "-",
                w.object.name,
                _mark(schema[w.path]) if w.path in schema else "-",
            ]
            for w in result.written
        ],
        paint,
        status_column=4,
    )

    if result.aws_requests:
        lines += ["", paint("AWS requests (checked against botocore's API models and the documented rules)", _BOLD)]
        lines += _text_table(
            ["Type", "Name", "Request", "Check"],
            [[c.resource_type, c.resource_name, c.request_label, _aws_mark(c)] for c in result.aws_requests],
            paint,
            status_column=3,
        )

    lines += ["", paint("Node pools", _BOLD)]
    lines += [f"  {paint('problem:', _RED)} {problem}" for problem in result.node_group_problems]
    lines += _text_table(
        ["Pool", "Instance", "Nodes", "GPUs/node", "GPUs advertised", "Taints", "Labels"],
        [
            [
                p["name"],
                p["instanceType"],
                str(p["count"]),
                str(p["gpusPerNode"]),
                _advertised(p),
                ", ".join(p["taints"]) or "-",
                ", ".join(f"{k}={v}" for k, v in p["labels"].items()) or "-",
            ]
            for p in result.pools
        ],
        paint,
    )

    if result.matrix:
        pools, grid = _matrix(result)
        lines += ["", paint("Placement (workload x pool, on an empty node)", _BOLD)]
        lines += _text_table(
            ["Workload", "Kind", *pools],
            [
                [workload, kind, *(("lands" if row.lands else "no") for row in cells)]
                for (workload, kind), cells in grid.items()
            ],
            paint,
            cell_colour=lambda text: _GREEN if text == "lands" else _RED if text == "no" else None,
        )
        reasons = [
            f"  {row.workload} on {row.pool}: {'; '.join(row.reasons)}" for row in result.matrix if not row.lands
        ]
        if reasons:
            lines += ["", "  Why not:"] + [f"  {reason}" for reason in reasons]

    if result.placement_error:
        lines += ["", paint(f"Placement: {result.placement_error}", _RED)]
    lines += ["", paint("GPU guard", _BOLD)]
    for verdict in result.verdicts:
        status = paint("PASS", _GREEN) if verdict.passed else paint("FAIL", _RED)
        lines.append(f"  {status}  {verdict.id} {verdict.name}: {verdict.message}")
        if not verdict.passed:
            lines += [f"          - {detail}" for detail in verdict.details if detail != verdict.message]
    lines += ["", _text_outcome(result, paint)]
    return "\n".join(lines) + "\n"


def to_markdown(result: PlanResult) -> str:
    """The plan for a pull-request comment or `$GITHUB_STEP_SUMMARY`: headings, tables, a folded tree."""
    lines = [f"## Offline plan of stack `{result.stack}` ({result.project})", "", _markdown_outcome(result), ""]
    if result.config_problems:
        lines += [
            f"### Invalid stack config (`{_shown_path(result.stack_file)}`)",
            "",
            "Nothing was rendered.",
            "",
            "| Key | Problem |",
            "|---|---|",
        ]
        lines += [f"| `{_cell(problem.key)}` | {_cell(problem.message)} |" for problem in result.config_problems]
        return "\n".join(lines) + "\n"
    if result.program_error:
        lines += ["### The program failed", "", "```", result.program_error, "```", ""]
    if result.placement_error:
        lines += ["### Placement", "", f"❌ {_cell(result.placement_error)}", ""]
    if result.verdicts:
        lines += ["### GPU guard", "", "| | # | Check | Verdict |", "|---|---|---|---|"]
        lines += [f"| {'✅' if v.passed else '❌'} | {v.id} | {v.name} | {_cell(v.message)} |" for v in result.verdicts]
        lines.append("")
    if result.matrix:
        pools, grid = _matrix(result)
        lines += [
            "### Placement (workload x pool, on an empty node)",
            "",
            "| Workload | Kind | " + " | ".join(f"`{pool}`" for pool in pools) + " |",
            "|---|---|" + "---|" * len(pools),
        ]
        for (workload, kind), cells in grid.items():
            shown = ["✅ lands" if row.lands else "❌ " + _cell("; ".join(row.reasons)) for row in cells]
            lines.append(f"| `{workload}` | {kind} | " + " | ".join(shown) + " |")
        lines.append("")
    if result.pools or result.node_group_problems:
        lines += ["### Node pools", ""]
        lines += [f"- ❌ {_cell(problem)}" for problem in result.node_group_problems]
        lines += [
            "| Pool | Instance | Nodes | GPUs/node | GPUs advertised | Taints | Labels |",
            "|---|---|---|---|---|---|---|",
        ]
        lines += [
            f"| `{p['name']}` | {p['instanceType']} | {p['count']} | {p['gpusPerNode']} | {_advertised(p)} | "
            f"{_cell(', '.join(p['taints']) or '-')} | "
            f"{_cell(', '.join(f'{k}={v}' for k, v in p['labels'].items()) or '-')} |"
            for p in result.pools
        ]
        lines.append("")
    if result.aws_requests:
        lines += [
            "### AWS requests (botocore API models and documented rules)",
            "",
            "| | Type | Name | Request | Check |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| {'⏭️' if not c.checked else '✅' if c.passed else '❌'} | {c.resource_type} | {c.resource_name} | "
            f"{c.request_label} | {_cell(_aws_mark(c))} |"
            for c in result.aws_requests
        ]
        lines.append("")
    if result.written:
        schema = {item.file: item for item in result.schema}
        lines += [
            f"### Kubernetes objects ({len(result.written)}, schema of Kubernetes {result.kubernetes_version})",
            "",
            "| | File | Kind | Namespace | Name | Schema |",
            "|---|---|---|---|---|---|",
        ]
        for written in result.written:
            item = schema.get(written.path)
            mark = "" if not item else "⏭️" if not item.checked else "✅" if item.passed else "❌"
            lines.append(
                f"| {mark} | `{written.path}` | {written.object.kind} | {written.object.namespace or '-'} | "
                f"{written.object.name} | {_cell(item.message) if item else '-'} |"
            )
        lines.append("")
    if result.warnings:
        lines += ["### Warnings", ""] + [f"- {_cell(warning)}" for warning in result.warnings] + [""]
    counts = result.counts
    lines += [f"### Resources: {counts['total']} to create", "", "| Package | Count |", "|---|---|"]
    lines += [f"| {package} | {n} |" for package, n in counts["byPackage"].items()]
    lines += ["", "<details><summary>Resource tree (as <code>pulumi preview</code> shows it)</summary>", "", "```"]
    width = max((len(prefix + row.type) for prefix, row in resource_tree(result.resources)), default=0)
    lines += [f"+   {(prefix + row.type).ljust(width)}  {row.name}" for prefix, row in resource_tree(result.resources)]
    lines += ["```", "", "</details>"]
    return "\n".join(lines) + "\n"


def resource_tree(resources: list[ResourceRow]) -> list[tuple[str, ResourceRow]]:
    """Rows in tree order with their `├─ ` / `└─ ` prefixes, children under their parent in registration order."""
    by_urn = {row.urn: row for row in resources}
    children: dict[str | None, list[ResourceRow]] = {}
    for row in resources:
        parent = row.parent if row.parent in by_urn else None
        children.setdefault(parent, []).append(row)
    ordered: list[tuple[str, ResourceRow]] = []

    def walk(row: ResourceRow, lead: str, branch: str, depth: int) -> None:
        ordered.append((lead + branch if depth else "", row))
        kids = children.get(row.urn, [])
        for index, kid in enumerate(kids):
            last = index == len(kids) - 1
            next_lead = lead + (("   " if branch == "└─ " else "│  ") if depth else "")
            walk(kid, next_lead, "└─ " if last else "├─ ", depth + 1)

    for root in children.get(None, []):
        walk(root, "", "", 0)
    return ordered


def _matrix(result: PlanResult) -> tuple[list[str], dict[tuple[str, str], list[Any]]]:
    pools = list(dict.fromkeys(row.pool for row in result.matrix))
    grid: dict[tuple[str, str], list[Any]] = {}
    for row in result.matrix:
        grid.setdefault((row.workload, row.kind), []).append(row)
    return pools, grid


def _text_outcome(result: PlanResult, paint: Callable[[str, str | None], str]) -> str:
    failures = result.failures
    if not failures:
        return paint(f"OK: every check holds (exit {result.exit_code})", _GREEN)
    lines = [paint(f"FAILED: {len(failures)} check(s) (exit {result.exit_code})", _RED)]
    lines += [f"  - {failure}" for failure in failures]
    return "\n".join(lines)


def _markdown_outcome(result: PlanResult) -> str:
    failures = result.failures
    if not failures:
        return f"**✅ Every check holds** (exit {result.exit_code})"
    lines = [f"**❌ {len(failures)} check(s) failed** (exit {result.exit_code})", ""]
    lines += [f"- {_cell(failure)}" for failure in failures]
    return "\n".join(lines)


def _text_table(
    headers: list[str],
    rows: list[list[str]],
    paint,
    *,
    colours: dict[int, str | None] | None = None,
    header: bool = True,
    status_column: int | None = None,
    cell_colour: Callable[[str], str | None] | None = None,
) -> list[str]:
    """Columns padded to their widest cell; padding is added outside the colour escapes so they do not skew widths."""
    all_rows = ([headers] if header else []) + rows
    widths = [max(len(row[i]) for row in all_rows) for i in range(len(headers))]
    lines = []
    for number, row in enumerate(all_rows):
        cells = []
        for i, cell in enumerate(row):
            padding = " " * (widths[i] - len(cell)) if i < len(row) - 1 else ""
            if header and number == 0:
                colour: str | None = _DIM
            elif i == status_column:
                colour = _GREEN if cell.startswith("ok") else _YELLOW if cell.startswith("skipped") else _RED
            elif cell_colour and i >= 2:
                colour = cell_colour(cell)
            else:
                colour = (colours or {}).get(i)
            cells.append(paint(cell, colour) + padding)
        lines.append(("  " + "  ".join(cells)).rstrip())
    return lines


def _mark(result: Any) -> str:
    if not result.checked:
        return f"skipped: {result.message}"
    return f"ok: {result.message}" if result.passed else f"FAIL: {result.message}"


def _aws_mark(check: Any) -> str:
    if not check.checked:
        return "skipped: " + "; ".join(check.notes)
    if check.passed:
        return "ok"
    return "FAIL: " + "; ".join(f"{label} {violation.describe()}" for label, violation in check.problems)


def _painter(colour: bool) -> Callable[[str, str | None], str]:
    def paint(text: str, code: str | None = None) -> str:
        return f"{code}{text}{_RESET}" if colour and code and text else text

    return paint


def _advertised(pool: dict[str, Any]) -> str:
    if not pool["gpusPerNode"]:
        return "-"
    source = "host" if pool["gpuAdvertisedByHost"] else "device plugin"
    return f"{pool['gpusAdvertised']} ({source})" if pool["gpusAdvertised"] else "0 (nothing advertises them)"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def _shown_path(path: str) -> str:
    """`path` relative to the working directory when inside it, so reports do not leak home folders."""
    try:
        return str(Path(path).resolve().relative_to(Path(os.getcwd()).resolve()))
    except ValueError:
        return path
