"""The audit's result as text (terminals), markdown (tickets) or JSON (tools).

JSON document, `schemaVersion` 1:
  schemaVersion   int, raised when a field changes meaning or is removed
  command         "audit"
  sources         files read, `<stdin>`, or the cluster server of a kubeconfig
  contract        {label: {key, value} | null, taint: {key, value, effect} | null, origin}
  summary         {nodes, gpuNodes, pods, boundPods, pendingPods, daemonsets, podShapes, nodeSignatures}
  pools           per GPU pool: {pool, instanceTypes, nodes, gpusAllocatable, gpusRequested, gpusIdle,
                  nodesWithoutGpuRequests}
  findings        [{kind, severity, title, rule, fix, objects, details}], most severe first
  counts          findings per severity: {error, warning, info}
  failOn          the --fail-on severity
  exitCode        0 no finding at or above failOn, 1 otherwise
  notes           what the audit could not check, in sentences
"""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from .engine import SEVERITIES, Finding

JSON_SCHEMA_VERSION = 1
EXIT_OK = 0
EXIT_FINDINGS = 1
_SHOWN = 10


@dataclass
class AuditResult:
    """Everything one audit found."""

    sources: list[str]
    contract: dict
    contract_text: str
    summary: dict
    pools: list[dict]
    findings: list[Finding]
    fail_on: str = "warning"
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(SEVERITIES, 0)
        for finding in self.findings:
            counts[finding.severity] += 1
        return counts

    @property
    def exit_code(self) -> int:
        threshold = SEVERITIES.index(self.fail_on)
        failing = any(SEVERITIES.index(f.severity) <= threshold for f in self.findings)
        return EXIT_FINDINGS if failing else EXIT_OK


def render(result: AuditResult, fmt: str) -> str:
    """The result in `fmt`: text, markdown or json."""
    if fmt == "json":
        return orjson.dumps(to_json(result), option=orjson.OPT_INDENT_2).decode() + "\n"
    if fmt == "markdown":
        return _markdown(result)
    return _text(result)


def to_json(result: AuditResult) -> dict:
    return {
        "schemaVersion": JSON_SCHEMA_VERSION,
        "command": "audit",
        "sources": result.sources,
        "contract": result.contract,
        "summary": result.summary,
        "pools": result.pools,
        "findings": [f.to_dict() for f in result.findings],
        "counts": result.counts(),
        "failOn": result.fail_on,
        "exitCode": result.exit_code,
        "notes": result.notes,
    }


def _summary_line(result: AuditResult) -> str:
    s = result.summary
    return (
        f"{s['nodes']} nodes ({s['gpuNodes']} GPU), {s['pods']} pods ({s['boundPods']} bound, "
        f"{s['pendingPods']} pending), {s['daemonsets']} DaemonSets; {s['podShapes']} pod shapes x "
        f"{s['nodeSignatures']} node signatures"
    )


def _verdict(result: AuditResult) -> str:
    counts = result.counts()
    total = sum(counts.values())
    if not total:
        return "No findings."
    parts = ", ".join(f"{n} {severity}" for severity, n in counts.items() if n)
    return f"{total} finding(s): {parts}; exit {result.exit_code} (--fail-on {result.fail_on})."


def _names(objects: list[str]) -> str:
    shown = ", ".join(objects[:_SHOWN])
    return shown + (f", and {len(objects) - _SHOWN} more" if len(objects) > _SHOWN else "")


_POOL_COLUMNS = (
    ("pool", "pool"),
    ("instance types", "instanceTypes"),
    ("nodes", "nodes"),
    ("GPUs", "gpusAllocatable"),
    ("requested", "gpusRequested"),
    ("idle", "gpusIdle"),
    ("nodes w/o GPU pods", "nodesWithoutGpuRequests"),
)


def _pool_cells(row: dict) -> list[str]:
    return [", ".join(row[key]) if isinstance(row[key], list) else str(row[key]) for _, key in _POOL_COLUMNS]


def _text(result: AuditResult) -> str:
    lines = [
        f"Cluster audit of {', '.join(result.sources)}",
        _summary_line(result),
        f"Placement contract: {result.contract_text}",
        "",
    ]
    if result.pools:
        header = [title for title, _ in _POOL_COLUMNS]
        rows = [_pool_cells(row) for row in result.pools]
        widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]
        lines.append("GPU pools")
        for cells in (header, *rows):
            lines.append(
                "  " + "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()
            )
        lines.append("")
    for finding in result.findings:
        lines.append(f"[{finding.severity.upper()}] {finding.kind}: {finding.title}")
        lines.append(f"  objects: {_names(finding.objects)}")
        lines.extend(f"  - {detail}" for detail in finding.details)
        lines.append(f"  rule: {finding.rule}")
        lines.append(f"  fix: {finding.fix}")
        lines.append("")
    lines.extend(f"Note: {note}" for note in result.notes)
    lines.append(_verdict(result))
    return "\n".join(lines) + "\n"


def _markdown(result: AuditResult) -> str:
    lines = [
        f"## Cluster audit of {', '.join(f'`{s}`' for s in result.sources)}",
        "",
        _summary_line(result) + ".",
        "",
        f"Placement contract: {result.contract_text}.",
        "",
    ]
    if result.pools:
        lines.append("| " + " | ".join(title for title, _ in _POOL_COLUMNS) + " |")
        lines.append("|" + "---|" * len(_POOL_COLUMNS))
        lines.extend("| " + " | ".join(_md(cell) for cell in _pool_cells(row)) + " |" for row in result.pools)
        lines.append("")
    for finding in result.findings:
        lines.append(f"### {finding.severity}: {_md(finding.title)}")
        lines.append("")
        lines.append(f"- **check**: `{finding.kind}`; **rule**: {_md(finding.rule)}")
        lines.append(f"- **objects**: {_md(_names(finding.objects))}")
        lines.extend(f"- {_md(detail)}" for detail in finding.details)
        lines.append(f"- **fix**: {_md(finding.fix)}")
        lines.append("")
    lines.extend(f"> Note: {_md(note)}" for note in result.notes)
    if result.notes:
        lines.append("")
    lines.append(f"**{_verdict(result)}**")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;")
