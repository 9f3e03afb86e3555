"""A plan as a report: its sections built once from the `PlanResult`, then rendered as text for terminals,
markdown for pull requests, or one JSON document for tools.

Each section comes from one step of the plan, in the order the plan ran them (stackcheck/plan/sections.py
says how each format orders and shows them).
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..addons import RESOLVED
from ..compare import compare
from ..cost_items import UsageCost
from ..run import PlanResult, ResourceRow
from .cold_start import cold_start_section
from .compare import comparison_section
from .cost import cost_section
from .json import document as json_document
from .json import render_json
from .markdown import render_markdown
from .models import models_section
from .sections import (
    MARKDOWN,
    TEXT,
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
    Status,
    Summary,
    Table,
    TreeRow,
    VerdictLine,
    Verdicts,
)
from .text import render_text

FORMATS = ("text", "markdown", "json")


def render(
    result: PlanResult,
    output_format: str,
    *,
    colour: bool = False,
    quiet: bool = False,
    previous: tuple[str, Mapping[str, Any]] | None = None,
) -> str:
    """`result` in `output_format` (`text`, `markdown` or `json`); `colour` adds ANSI colour to text; `quiet`
    gives text and markdown as the summary line and the failures alone (JSON is always whole).

    `previous`, an earlier plan's JSON document and how to name it, puts the comparison with it first.
    """
    if output_format not in FORMATS:
        raise ValueError(f"unknown format {output_format!r}; allowed: {', '.join(FORMATS)}")
    report = plan_report(result)
    if previous is not None:
        label, document = previous
        comparison = compare(document, json_document(report), label)
        report = dataclasses.replace(report, leading=(comparison_section(comparison),))
    if output_format == "json":
        return render_json(report)
    if output_format == "markdown":
        return render_markdown(report, quiet=quiet)
    return render_text(report, colour=colour, quiet=quiet)


def plan_report(result: PlanResult) -> Report:
    """The report of `result`: its summary line, then every section, the config's problems and the warnings
    first and the others in the order the plan ran the steps behind them."""
    steps = (
        _config,
        _warnings,
        _resources,
        _control_plane,
        _program_error,
        _objects,
        _aws_requests,
        _addons,
        _pools,
        _placement,
        _placement_error,
        models_section,
        cold_start_section,
        cost_section,
        _guard,
    )
    return Report(
        project=result.project,
        stack=result.stack,
        stack_file=_shown_path(result.stack_file),
        exit_code=result.exit_code,
        failures=tuple(result.failures),
        sections=tuple(step(result) for step in steps),
        summary=summary(result),
    )


def summary(result: PlanResult) -> Summary:
    """The one line that answers the plan: exit status, failed checks and verdicts, warnings, monthly cost."""
    cost = result.cost
    return Summary(
        exit_code=result.exit_code,
        failed_checks=len(result.failures),
        failed_verdicts=tuple(f"{verdict.id} {verdict.name}" for verdict in result.verdicts if not verdict.passed),
        warnings=len(result.warnings),
        monthly_usd_at_desired=cost.total("desired") if cost else None,
        cost_complete=not cost.not_priced if cost else True,
        cost_currency=cost.currency if cost else "USD",
        cost_missing=tuple(name for name, _ in cost.missing) if cost else (),
        cost_usage=tuple(_usage_name(entry) for entry in cost.usage) if cost else (),
    )


def _usage_name(entry: UsageCost) -> str:
    """`NAT gateway data processed ($0.045/GB)`, or the item alone when no rate is known."""
    if entry.rate is None:
        return f"{entry.item} (not priced)"
    return f"{entry.item} (${entry.rate.amount:g}/{entry.rate.unit})"


def _config(result: PlanResult) -> Section:
    problems = result.config_problems
    blocks = (
        # A terminal lists each problem once, in the outcome its last lines show.
        Message("nothing was rendered; each problem is listed below", only=TEXT),
        Paragraph("Nothing was rendered.", only=MARKDOWN),
        Table(
            (Column("Key", code=True), Column("Problem")),
            tuple(Row((problem.key, problem.message)) for problem in problems),
            only=MARKDOWN,
        ),
    )
    title = result.config_title
    return Section(
        "config",
        title,
        "error",
        blocks if problems else (),
        alert=True,
        text_heading=f"{title} ({len(problems)} problem(s))",
        markdown_heading=f"{title} (`{_shown_path(result.stack_file)}`)",
        data={"configProblems": [{"key": problem.key, "message": problem.message} for problem in problems]},
    )


def _resources(result: PlanResult) -> Section:
    counts = result.counts
    tree = tuple(TreeRow(prefix, row.type, row.name) for prefix, row in resource_tree(result.resources))
    return Section(
        "resources",
        "Resources",
        "info",
        (
            ResourceTree(tree),
            ResourceCounts(counts["total"], tuple(counts["byPackage"].items()), tuple(counts["byType"].items())),
        ),
        markdown_heading=f"Resources: {counts['total']} to create",
        data={
            "resources": [
                {
                    "type": row.type,
                    "name": row.name,
                    "parent": row.parent,
                    "urn": row.urn,
                    "id": row.id,
                    "inputs": row.inputs,
                    "deleteBeforeReplace": row.delete_before_replace,
                    "dependsOn": list(row.depends_on),
                    "inputDependencies": {key: list(urns) for key, urns in row.input_dependencies.items()},
                }
                for row in result.resources
            ],
            "counts": counts,
            "outputs": result.outputs,
        },
    )


def _control_plane(result: PlanResult) -> Section:
    rows = tuple(
        Row((str(group["name"]), f"{group['retentionDays']} days" if group["retentionDays"] else "never expires"))
        for group in result.log_groups
    )
    return Section(
        "control-plane",
        "Control plane",
        "warning" if result.not_checked else "info",
        (
            Table((Column("Log group", code=True), Column("Retention")), rows),
            Items(tuple(result.not_checked), severity="warning", label="Not checked offline"),
        ),
        data={"logGroups": result.log_groups, "notChecked": result.not_checked},
    )


def _warnings(result: PlanResult) -> Section:
    return Section(
        "warnings",
        "Warnings",
        "warning" if result.warnings else "ok",
        (Items(tuple(result.warnings), severity="warning"),),
        lead=True,
        data={"warnings": result.warnings},
    )


def _program_error(result: PlanResult) -> Section:
    return Section(
        "program-error",
        "The program failed",
        "error",
        (Message(result.program_error or "", preformatted=True),),
        alert=True,
        data={"programError": result.program_error},
    )


def _objects(result: PlanResult) -> Section:
    schema = {item.file: item for item in result.schema}
    rows = []
    for written in result.written:
        item = schema.get(written.path)
        status: Status | None = None
        check: str | Mark = "-"
        if item:
            status = _status(item)
            check = Mark(status, _worded(status, item.message), item.message)
        obj = written.object
        rows.append(Row((written.path, obj.kind, obj.namespace or "-", obj.name, check), status))
    failed = result.duplicate_objects or any(not item.passed for item in result.schema)
    count, version = len(result.written), result.kubernetes_version
    return Section(
        "kubernetes-objects",
        "Kubernetes objects",
        "error" if failed else "ok",
        (
            Table(
                (Column("File", code=True), Column("Kind"), Column("Namespace"), Column("Name"), Column("Schema")),
                tuple(rows),
                marked=True,
            ),
        ),
        text_heading=(
            f"Kubernetes objects ({count} written to {_shown_path(result.out_dir)}, "
            f"schema of Kubernetes {version}, strict)"
        ),
        markdown_heading=f"Kubernetes objects ({count}, schema of Kubernetes {version})",
        data={
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
        },
    )


def _aws_requests(result: PlanResult) -> Section:
    rows = []
    for check in result.aws_requests:
        status = _status(check)
        if status == "skip":
            detail = "; ".join(check.notes)
        else:
            detail = "; ".join(f"{label} {violation.describe()}" for label, violation in check.problems)
        mark = Mark(status, _worded(status, detail))
        rows.append(Row((check.resource_type, check.resource_name, check.request_label, mark), status))
    return Section(
        "aws-requests",
        "AWS requests",
        "error" if any(row.status == "fail" for row in rows) else "ok",
        (Table((Column("Type"), Column("Name"), Column("Request"), Column("Check")), tuple(rows), marked=True),),
        text_heading="AWS requests (checked against botocore's API models and the documented rules)",
        markdown_heading="AWS requests (botocore API models and documented rules)",
        data={"awsRequests": [check.to_dict() for check in result.aws_requests]},
    )


def _addons(result: PlanResult) -> Section:
    rows = tuple(Row((row.addon, row.version or "EKS default", row.origin, row.detail)) for row in result.addons)
    unresolved = [row.addon for row in result.addons if row.origin != RESOLVED]
    notes = (
        (
            Paragraph(
                f"Not resolved ({', '.join(unresolved)}): offline, EKS is not asked which versions it offers for "
                f"Kubernetes {result.kubernetes_version}; `pulumi preview` asks it and installs those."
            ),
        )
        if unresolved
        else ()
    )
    return Section(
        "addons",
        "EKS add-ons",
        "ok",
        (Table((Column("Add-on", code=True), Column("Version", code=True), Column("From"), Column("Why")), rows),)
        + notes,
        data={"addons": [row.to_dict() for row in result.addons]},
    )


# What launches a pool's nodes and scales it: the Cluster Autoscaler scales node groups only (through their Auto
# Scaling groups), Karpenter its own NodePools, EKS Auto Mode its NodePools.
_LAUNCHED_BY = {
    "nodeGroup": "EKS node group",
    "karpenter": "Karpenter NodePool",
    "autoMode": "EKS Auto Mode NodePool",
}


def _pools(result: PlanResult) -> Section:
    rows = tuple(
        Row(
            (
                pool["name"],
                _LAUNCHED_BY.get(pool.get("provisioner", "nodeGroup"), pool.get("provisioner", "")),
                pool["instanceType"],
                str(pool["count"]),
                str(pool["gpusPerNode"]),
                _advertised(pool),
                ", ".join(pool["taints"]) or "-",
                ", ".join(f"{key}={value}" for key, value in pool["labels"].items()) or "-",
            )
        )
        for pool in result.pools
    )
    headers = ("Pool", "Launched by", "Instance", "Nodes", "GPUs/node", "GPUs advertised", "Taints", "Labels")
    columns = (Column(headers[0], code=True), *(Column(header) for header in headers[1:]))
    failed = result.node_group_problems or result.network_problems
    return Section(
        "node-pools",
        "Node pools",
        "error" if failed else "ok",
        (Items(tuple(result.node_group_problems), severity="error"), Table(columns, rows)),
        data={
            "nodeGroupProblems": result.node_group_problems,
            "networkProblems": result.network_problems,
            "pools": result.pools,
        },
    )


def _placement(result: PlanResult) -> Section:
    pools, grid = _matrix(result)
    rows = tuple(Row((workload, kind, *(_lands(row) for row in cells))) for (workload, kind), cells in grid.items())
    columns = (Column("Workload", code=True), Column("Kind"), *(Column(pool, code_header=True) for pool in pools))
    reasons = tuple(f"{row.workload} on {row.pool}: {'; '.join(row.reasons)}" for row in result.matrix if not row.lands)
    return Section(
        "placement",
        "Placement (workload x pool, on an empty node)",
        "info",
        # Markdown gives the reasons in the cells; a terminal's cells stay short and list them below.
        (Table(columns, rows), Items(reasons, label="Why not", only=TEXT)),
        data={"matrix": [row.to_dict() for row in result.matrix]},
    )


def _placement_error(result: PlanResult) -> Section:
    return Section(
        "placement-error",
        "Placement",
        "error",
        (Message(result.placement_error or ""),),
        alert=True,
        data={"placementError": result.placement_error},
    )


def _guard(result: PlanResult) -> Section:
    lines = tuple(
        VerdictLine(verdict.id, verdict.name, verdict.passed, verdict.message, tuple(verdict.details))
        for verdict in result.verdicts
    )
    return Section(
        "gpu-guard",
        "GPU guard",
        "error" if any(not line.passed for line in lines) else "ok",
        (Verdicts(lines),),
        data={"verdicts": [verdict.to_dict() for verdict in result.verdicts]},
    )


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
    """The pools, and each workload's row per pool under (workload, kind); a workload is its declaring resource,
    so one declared twice is two lines, each naming its resource."""
    pools = list(dict.fromkeys(row.pool for row in result.matrix))
    by_resource: dict[tuple[str, str, str], list[Any]] = {}
    for row in result.matrix:
        by_resource.setdefault((row.resource, row.workload, row.kind), []).append(row)
    shared = Counter((workload, kind) for _, workload, kind in by_resource)
    grid: dict[tuple[str, str], list[Any]] = {}
    for (resource, workload, kind), rows in by_resource.items():
        label = workload
        if shared[workload, kind] > 1 and resource:
            label = f"{workload} ({resource.rpartition('::')[2]})"
        grid[label, kind] = rows
    return pools, grid


def _lands(row: Any) -> Mark:
    return Mark("pass", "lands") if row.lands else Mark("fail", "no", "; ".join(row.reasons))


def _status(check: Any) -> Status:
    """A schema or AWS request check as a verdict: skipped when it could not be checked."""
    if not check.checked:
        return "skip"
    return "pass" if check.passed else "fail"


_WORDS: dict[Status, str] = {"pass": "ok", "fail": "FAIL", "skip": "skipped"}


def _worded(status: Status, detail: str) -> str:
    """`ok`, `FAIL: why` or `skipped: why`, as a terminal's check column reads."""
    return f"{_WORDS[status]}: {detail}" if detail else _WORDS[status]


def _advertised(pool: dict[str, Any]) -> str:
    if not pool["gpusPerNode"]:
        return "-"
    source = "host" if pool["gpuAdvertisedByHost"] else "device plugin"
    return f"{pool['gpusAdvertised']} ({source})" if pool["gpusAdvertised"] else "0 (nothing advertises them)"


def _shown_path(path: str) -> str:
    """`path` relative to the working directory when inside it, so reports do not leak home folders."""
    try:
        return str(Path(path).resolve().relative_to(Path(os.getcwd()).resolve()))
    except ValueError:
        return path
