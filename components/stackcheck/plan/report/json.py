"""The plan's report as one JSON document for tools (stackcheck/plan/report/sections.py; fields in docs/plan.md)."""

from __future__ import annotations

import json
from typing import Any

from ..run import JSON_SCHEMA_VERSION
from .sections import MARKDOWN, TEXT, Report


def document(report: Report) -> dict[str, Any]:
    """The JSON document: what was planned, the outcome, every section's fields, and the sections shown."""
    fields: dict[str, Any] = {
        "schemaVersion": JSON_SCHEMA_VERSION,
        "project": report.project,
        "stack": report.stack,
        "stackFile": report.stack_file,
        "exitCode": report.exit_code,
        "failures": list(report.failures),
        "summary": report.summary.to_dict() if report.summary else None,
    }
    sections = (*report.leading, *report.sections)
    for section in sections:
        fields.update(section.data)
    fields["sections"] = [
        {"id": section.key, "title": section.title, "severity": section.severity}
        for section in sections
        if section.shown_in(TEXT) or section.shown_in(MARKDOWN)
    ]
    return fields


def render_json(report: Report) -> str:
    """`report` as one JSON document."""
    return json.dumps(document(report), indent=2, ensure_ascii=False) + "\n"
