"""The reference pages written from the package's registries: docs/reference/verdicts.md, the plan's verdicts as
components/placement/verdicts.py lists them."""

from __future__ import annotations

from pathlib import Path

from components.placement.verdicts import VERDICTS

VERDICTS_PAGE = Path("docs/reference/verdicts.md")
VERDICTS_SOURCE = "components/placement/verdicts.py"


def verdicts_page() -> str:
    """The verdict reference: number, slug and what each verdict proves, in the registry's order."""
    rows = [f"| {entry.id} | `{entry.slug}` | {_cell(entry.proves)} |" for entry in VERDICTS]
    return "\n".join(
        [
            "# Verdicts",
            "",
            f"<!-- Written by `python scripts/generate.py` from {VERDICTS_SOURCE}; edit the registry, not this page. -->",
            "",
            "The offline plan (`python -m components.stackcheck plan`) judges these verdicts in this order. The report",
            "prints each with its number and slug (`PASS  1 gpu-workloads-land-on-gpu-pools`), the JSON document",
            "carries both, and the plan exits 1 when one fails. A verdict whose inputs the plan could not gather (node",
            "pools or workloads it cannot read, a stack config of another project) is left out of the report.",
            "",
            "| # | Verdict | What it proves |",
            "|---:|---|---|",
            *rows,
            "",
        ]
    )


def _cell(text: str) -> str:
    """`text` as one cell of a markdown table."""
    return text.replace("|", "\\|")
