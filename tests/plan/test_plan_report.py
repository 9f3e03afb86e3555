"""The plan's report is one list of sections rendered three ways: text, markdown and JSON show the same sections
and verdicts, each format orders them for its reader, and a section of a new kind reaches every format."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from components.facts.resource_types import STACK
from components.stackcheck.plan.report.build import plan_report, render
from components.stackcheck.plan.report.json import render_json
from components.stackcheck.plan.report.markdown import render_markdown
from components.stackcheck.plan.report.sections import (
    BLOCK_TYPES,
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
    Table,
    TreeRow,
    VerdictLine,
    Verdicts,
)
from components.stackcheck.plan.report.text import render_text
from components.stackcheck.plan.run import PlanOptions, PlanResult, ResourceRow, run_plan

ROOT = Path(__file__).resolve().parents[2]
STACKS = Path(__file__).resolve().parents[1] / "stacks"


@pytest.fixture(scope="module")
def planned(tmp_path_factory) -> PlanResult:
    """The plan of a stack with a failing verdict: every section but the alerts has something to show."""
    options = PlanOptions(
        project_dir=ROOT,
        stack_file=STACKS / "Pulumi.no-device-plugin.yaml",
        out_dir=tmp_path_factory.mktemp("plan"),
    )
    result = run_plan(options)
    # Every test here reads the guard's verdicts: a plan that stopped before them says why here.
    assert result.verdicts, (result.failures, result.program_traceback)
    return result


def rendered(report: Report) -> tuple[list[str], list[str], dict]:
    """The report as text lines, markdown lines and the JSON document."""
    return render_text(report).splitlines(), render_markdown(report).splitlines(), json.loads(render_json(report))


def failed_program() -> PlanResult:
    """A plan whose program logged a warning and then raised: resources, a warning and the program's error."""
    stack_urn = f"urn:pulumi:dev::demo::{STACK}::demo-dev"
    return PlanResult(
        project="demo",
        stack="dev",
        stack_file="Pulumi.dev.yaml",
        out_dir="out/dev",
        program_error="RuntimeError: the program broke",
        warnings=["a value is deprecated"],
        resources=[ResourceRow(STACK, "demo-dev", stack_urn, None)],
    )


def headings(report: Report) -> tuple[list[str], list[str]]:
    """Each shown section's heading as the terminal prints it and as markdown writes it, in the report's order."""
    text = [section.text_heading or section.title for section in report.sections if section.shown_in(TEXT)]
    markdown = [
        f"### {section.markdown_heading or section.title}" for section in report.sections if section.shown_in(MARKDOWN)
    ]
    return text, markdown


def test_every_section_is_shown_in_all_three_formats_with_its_title_and_severity(planned):
    report = plan_report(planned)
    text, markdown, document = rendered(report)

    shown = [section for section in report.sections if section.shown_in(TEXT)]
    # The warnings lead, right after the summary line; the cost comes after the step that priced it.
    assert [section.key for section in shown] == [
        "warnings",
        "resources",
        "control-plane",
        "kubernetes-objects",
        "aws-requests",
        "addons",
        "node-pools",
        "placement",
        "models",
        "cold-start",
        "cost",
        "gpu-guard",
    ]
    assert [section for section in report.sections if section.shown_in(MARKDOWN)] == shown
    text_headings, markdown_headings = headings(report)
    assert all(heading in text for heading in text_headings)
    assert all(heading in markdown for heading in markdown_headings)
    assert document["sections"] == [
        {"id": section.key, "title": section.title, "severity": section.severity} for section in shown
    ]
    severities = {entry["id"]: entry["severity"] for entry in document["sections"]}
    assert severities["gpu-guard"] == "error" and severities["aws-requests"] == "ok"
    assert severities["warnings"] == "warning" and severities["resources"] == "info"
    assert severities["control-plane"] == "warning"  # the log group listed, the GPU quota left unchecked offline
    assert severities["addons"] == "ok"


def test_each_verdict_reads_the_same_in_every_format(planned):
    text, markdown, document = rendered(plan_report(planned))

    for verdict in document["verdicts"]:
        word, icon = ("PASS", "✅") if verdict["passed"] else ("FAIL", "❌")
        assert f"  {word}  {verdict['id']} {verdict['name']}: {verdict['message']}" in text
        assert any(line.startswith(f"| {icon} | {verdict['id']} | {verdict['name']} |") for line in markdown)
    assert not document["verdicts"][2]["passed"]  # verdict 3: no device plugin on the AL2023 GPU pool


def test_json_document_takes_every_field_from_the_sections_even_when_they_show_nothing():
    document = json.loads(render(failed_program(), "json"))

    assert document["programError"] == "RuntimeError: the program broke"
    assert document["verdicts"] == [] and document["awsRequests"] == [] and document["configProblems"] == []
    assert document["placementError"] is None and document["outputs"] == {}
    assert [entry["id"] for entry in document["sections"]] == ["warnings", "resources", "program-error"]
    assert document["cost"] is None  # the program failed before anything was priced
    assert document["summary"]["line"] == "FAILED (exit 1): 1 check(s) failed; 1 warning(s); cost not estimated"


def test_terminal_ends_on_the_alert_and_markdown_opens_with_it_then_reverses_the_order():
    result = failed_program()
    text = render(result, "text")
    markdown = render(result, "markdown")

    summary = "FAILED (exit 1): 1 check(s) failed; 1 warning(s); cost not estimated"
    assert text.startswith(f"{summary}\nPlan of stack dev") and markdown.startswith(f"**{summary}**\n")
    assert text.index("\nWarnings\n") < text.index("\nResources\n") < text.index("The program failed: RuntimeError")
    assert text.endswith("FAILED: 1 check(s) (exit 1)\n  - program: RuntimeError: the program broke\n")
    assert markdown.index("**❌ 1 check(s) failed**") < markdown.index("### The program failed")
    assert markdown.index("### The program failed") < markdown.index("### Warnings") < markdown.index("### Resources")
    assert "```\nRuntimeError: the program broke\n```" in markdown


def test_a_section_of_a_new_kind_reaches_every_format(planned):
    quota = Section(
        "gpu-quota",
        "GPU quota",
        "warning",
        (
            Items(("the G instance quota is 0 vCPUs in us-west-2",), severity="warning"),
            Table((Column("Region", code=True), Column("vCPUs")), (Row(("us-west-2", "0"), "fail"),), marked=True),
        ),
        data={"gpuQuota": {"us-west-2": 0}},
    )
    report = plan_report(planned)
    report = dataclasses.replace(report, sections=(*report.sections, quota))
    text, markdown, document = rendered(report)

    assert text[text.index("GPU quota") + 1 :][:3] == [
        "  warning: the G instance quota is 0 vCPUs in us-west-2",
        "  Region     vCPUs",
        "  us-west-2  0",
    ]
    # Markdown lists it first of the sections: it is the last one the plan produced.
    first = markdown.index("### GPU quota")
    assert first < markdown.index("### GPU guard")
    assert markdown[first + 2 :][:4] == [
        "- the G instance quota is 0 vCPUs in us-west-2",
        "| | Region | vCPUs |",
        "|---|---|---|",
        "| ❌ | `us-west-2` | 0 |",
    ]
    assert document["gpuQuota"] == {"us-west-2": 0}
    assert document["sections"][-1] == {"id": "gpu-quota", "title": "GPU quota", "severity": "warning"}


SAMPLE_BLOCKS = {
    # kind: (a block of it, a line the terminal shows, a line markdown shows); markdown escapes the pipe but in code.
    Table: (Table((Column("Word"),), (Row(("alpha|beta",)),)), "  alpha|beta", "| alpha\\|beta |"),
    Items: (Items(("alpha|beta",)), "  - alpha|beta", "- alpha\\|beta"),
    Paragraph: (Paragraph("alpha|beta"), "  alpha|beta", "alpha\\|beta"),
    Message: (Message("alpha|beta"), "  alpha|beta", "❌ alpha\\|beta"),
    Verdicts: (
        Verdicts((VerdictLine(11, "alpha|beta", False, "why not", ("why not", "a detail")),)),
        "  FAIL  11 alpha|beta: why not",
        "| ❌ | 11 | alpha\\|beta | why not |",
    ),
    ResourceTree: (
        ResourceTree((TreeRow("", "alpha|beta", "root"),)),
        "  +  alpha|beta  root  create",
        "+   alpha|beta  root",
    ),
    ResourceCounts: (
        ResourceCounts(2, (("alpha|beta", 2),), (("alpha|beta:Type", 2),)),
        "  by package: alpha|beta 2",
        "| alpha\\|beta | 2 |",
    ),
}


def test_every_kind_of_block_has_a_sample_here():
    assert set(SAMPLE_BLOCKS) == set(BLOCK_TYPES)


@pytest.mark.parametrize("kind", list(SAMPLE_BLOCKS), ids=lambda kind: kind.__name__)
def test_every_kind_of_block_renders_in_every_format(kind):
    block, text_line, markdown_line = SAMPLE_BLOCKS[kind]
    section = Section("sample", "Sample", "error", (block,), data={"sample": True})
    report = Report("demo", "dev", "Pulumi.dev.yaml", 1, ("sample: failed",), (section,))
    text, markdown, document = rendered(report)

    assert "Sample" in text and text_line in text
    assert "### Sample" in markdown and markdown_line in markdown
    assert document["sample"] is True
    assert document["sections"] == [{"id": "sample", "title": "Sample", "severity": "error"}]


def test_a_block_limited_to_one_format_stays_out_of_the_other():
    section = Section(
        "sample",
        "Sample",
        "info",
        (Items(("terminal only",), only=TEXT), Paragraph("markdown only", only=MARKDOWN)),
    )
    only_markdown = Section("hidden", "Hidden from the terminal", "info", (Paragraph("hidden", only=MARKDOWN),))
    report = Report("demo", "dev", "Pulumi.dev.yaml", 0, (), (section, only_markdown))
    text = render_text(report)
    markdown = render_markdown(report)

    assert "terminal only" in text and "markdown only" not in text and "Hidden from the terminal" not in text
    assert (
        "markdown only" in markdown and "terminal only" not in markdown and "### Hidden from the terminal" in markdown
    )


def test_a_section_with_nothing_to_show_is_left_out_of_text_and_markdown():
    result = failed_program()
    result.warnings = []
    report = plan_report(result)

    assert not next(section for section in report.sections if section.key == "warnings").shown_in(TEXT)
    assert "Warnings" not in render_text(report) and "### Warnings" not in render_markdown(report)
    assert json.loads(render_json(report))["warnings"] == []


def test_marks_read_as_words_on_a_terminal_and_as_icons_in_markdown():
    table = Table(
        (Column("Pool", code_header=True), Column("Check")),
        (Row((Mark("pass", "lands"), Mark("fail", "FAIL: too big", "too big"))),),
    )
    report = Report("demo", "dev", "Pulumi.dev.yaml", 0, (), (Section("marks", "Marks", "info", (table,)),))

    assert "  lands  FAIL: too big" in render_text(report).splitlines()
    assert "| `Pool` | Check |" in render_markdown(report) and "| ✅ lands | ❌ too big |" in render_markdown(report)


def test_render_names_the_formats_it_knows():
    with pytest.raises(ValueError, match="unknown format 'yaml'; allowed: text, markdown, json"):
        render(failed_program(), "yaml")
