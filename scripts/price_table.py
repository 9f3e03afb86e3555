"""Write components/facts/price_table.py from the dated extract scripts/data/instance_prices.json.

    python scripts/price_table.py            # rewrite the table
    python scripts/price_table.py --check    # exit 1 when the committed table differs from what the extract gives

The extract holds, for each source it names (repository, path, commit, date, currency), the on-demand Linux price
per hour of every instance type the settings accept in every region of `facts/regions.py` the source prices it in,
copied as the source spells it. The table takes each (type, region) from the first source of `SOURCE_ORDER` that
prices it: the newest dataset first, the older regional one only where the newer ones have no price. A value of 0
or less is a source's way of saying it has no on-demand price, and is not taken.

What no source prices is written out too, so that a missing price is a fact the table states rather than a gap:
`NOT_OFFERED_ROWS` where a source that covers the region lists no price for the type (the type is not offered
there as of that source's date), `UNCOVERED_ROWS` where no source covers the region at all; each row is a set of
regions and the types missing in all of them, `region ...: type ...`.

The extract is an input of this script only (nothing reads it at run time), so it lives under scripts/ and stays
out of the installed package, whose data files (components/data/) ship in the wheel.
"""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTRACT = ROOT / "scripts" / "data" / "instance_prices.json"
TABLE = ROOT / "components" / "facts" / "price_table.py"
COMMAND = "python scripts/price_table.py"
SOURCE_ORDER = ("gpu", "karpenter", "regional", "china")
"""The sources, the one a (type, region) is taken from first: the 2026 datasets before the 2024 regional one."""
LINE = 118
"""The longest line of the sources' fields before one is wrapped (ruff's line length is 120)."""


def load(path: Path = EXTRACT) -> dict:
    """The extract, checked for the shape the table is built from."""
    extract = json.loads(path.read_text())
    missing = [key for key in SOURCE_ORDER if key not in extract["sources"] or key not in extract["prices"]]
    if missing:
        raise ValueError(f"{path}: no source or prices for {missing}; expected every one of {list(SOURCE_ORDER)}")
    return extract


def _positive(value: str) -> bool:
    return Decimal(value) > 0


def cells(extract: dict) -> dict[str, dict[str, dict[str, str]]]:
    """For each source, the (type -> region -> price) cells the table takes from it."""
    taken: set[tuple[str, str]] = set()
    chosen: dict[str, dict[str, dict[str, str]]] = {}
    for key in SOURCE_ORDER:
        regions = set(extract["sources"][key]["regions"])
        chosen[key] = {}
        for instance_type, by_region in extract["prices"][key].items():
            row = {
                region: usd
                for region, usd in sorted(by_region.items())
                if region in regions and _positive(usd) and (instance_type, region) not in taken
            }
            taken.update((instance_type, region) for region in row)
            if row:
                chosen[key][instance_type] = row
    return chosen


def gaps(
    extract: dict, instance_types: list[str], regions: list[str]
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Each type's regions without a price: those a source covers and lists no price for it in (not offered), and
    those no source covers."""
    priced = {(t, r) for table in cells(extract).values() for t, row in table.items() for r in row}
    not_offered: dict[str, list[str]] = {}
    uncovered: dict[str, list[str]] = {}
    for instance_type in instance_types:
        for region in regions:
            if (instance_type, region) in priced:
                continue
            covering = [
                key
                for key in SOURCE_ORDER
                if region in extract["sources"][key]["regions"] and instance_type in extract["prices"][key]
            ]
            (not_offered if covering else uncovered).setdefault(instance_type, []).append(region)
    return not_offered, uncovered


def _rows(name: str, rows: list[str], doc: str) -> list[str]:
    """A tuple of rows, one a line however long (the table is data; E501 is not checked)."""
    return [f"{name} = (", *(f"    {json.dumps(row)}," for row in rows), ")", f'"""{doc}"""']


def _grouped(gaps: dict[str, list[str]]) -> list[str]:
    """`region region ...: type type ...`, one row for each set of regions, in the order the types come."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for instance_type, regions in gaps.items():
        groups.setdefault(tuple(regions), []).append(instance_type)
    return [f"{' '.join(regions)}: {' '.join(types)}" for regions, types in groups.items()]


def render(extract: dict, instance_types: list[str], regions: list[str]) -> str:
    """The text of components/facts/price_table.py."""
    chosen = cells(extract)
    not_offered, uncovered = gaps(extract, instance_types, regions)
    out = [
        '"""The on-demand prices the offline plan and the audit price nodes at: generated, do not edit.',
        "",
        f"Written by `{COMMAND}` from scripts/data/instance_prices.json (extracted {extract['extracted']}); read through",
        "components/facts/prices.py. Each row is an instance type and its on-demand Linux price per hour in each region",
        "`region=price`, in the currency of its source. `NOT_OFFERED_ROWS` and `UNCOVERED_ROWS` name every (type, region)",
        "of the settings and the zone table that no source prices, and why.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        f"EXTRACTED = {json.dumps(extract['extracted'])}",
        '"""When the extract was cut from its sources."""',
        "SOURCES: dict[str, dict[str, str]] = {",
    ]
    for key in SOURCE_ORDER:
        source = extract["sources"][key]
        out.append(f"    {json.dumps(key)}: {{")
        for field in ("name", "repository", "path", "commit", "date", "currency"):
            text = json.dumps(source[field])
            if len(text) + 8 + len(field) + 4 <= LINE:
                out.append(f"        {json.dumps(field)}: {text},")
            else:
                out.append(f"        {json.dumps(field)}: (")
                words = source[field].split(" ")
                chunk = ""
                for word in words:
                    candidate = f"{chunk} {word}" if chunk else word
                    if len(candidate) + 12 > LINE:
                        out.append(f"            {json.dumps(chunk + ' ')}")
                        chunk = word
                    else:
                        chunk = candidate
                out.append(f"            {json.dumps(chunk)}")
                out.append("        ),")
        out.append("    },")
    out.append("}")
    out.append('"""Each source of the rows: where it was read, the commit, the date it was made and its currency."""')
    out.append("")
    out.append("ROWS: dict[str, tuple[str, ...]] = {")
    for key in SOURCE_ORDER:
        rows = [
            " ".join([instance_type, *(f"{region}={price}" for region, price in row.items())])
            for instance_type, row in chosen[key].items()
        ]
        body = _rows("X", rows, "")[1:-2]
        out.append(f"    {json.dumps(key)}: (")
        out.extend(f"    {line}" for line in body)
        out.append("    ),")
    out.append("}")
    out.append(
        '"""The price rows of each source: `type region=price ...`, each (type, region) from one source only."""'
    )
    out.append("")
    out.extend(
        _rows(
            "NOT_OFFERED_ROWS",
            _grouped(not_offered),
            "Regions and the types a source covering them lists no price for (not offered there as of its date).",
        )
    )
    out.append("")
    out.extend(
        _rows(
            "UNCOVERED_ROWS",
            _grouped(uncovered),
            "Regions no source covers (opened after the sources were made) and the types missing in them.",
        )
    )
    return "\n".join(out) + "\n"


def _catalog() -> tuple[list[str], list[str]]:
    sys.path.insert(0, str(ROOT))
    from components.facts import gpu_catalog, regions

    return [*gpu_catalog.GPU_INSTANCE_TYPES, *gpu_catalog.CPU_INSTANCE_TYPES], sorted(regions.ZONES)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the committed table is out of date")
    args = parser.parse_args(argv)
    text = render(load(), *_catalog())
    if args.check:
        if TABLE.read_text() != text:
            print(f"{TABLE.relative_to(ROOT)} is out of date; run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
