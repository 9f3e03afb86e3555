"""Write components/facts/usage_price_table.py from the dated extract scripts/data/usage_prices.json.

    python scripts/usage_prices.py                       # rewrite the table
    python scripts/usage_prices.py --check               # exit 1 when the committed table differs from the extract's
    python scripts/usage_prices.py --cut focus_sample.csv  # rewrite the extract from the FOCUS sample's CSV

The extract holds the charges of a month of real AWS billing (the FinOps Foundation's FOCUS 1.0 sample, anonymized,
September 2024) whose description is one of the usage-priced items the plan lists: CloudWatch Logs ingestion (standard
class), SQS standard-queue requests, EBS snapshot storage (standard tier) and S3 Standard storage (the first 50 TB a
month). Each row keeps the charge's description, the list unit price and its unit, and the SKU, as the sample spells
them; the description is AWS's Price List text, so the script checks that its dollar figure is the unit price (a
million of SQS's per-request price). The table gives each (item, region) its price in the unit the plan states.

The extract is an input of this script only (nothing reads it at run time), so it lives under scripts/ and stays out
of the installed package.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTRACT = ROOT / "scripts" / "data" / "usage_prices.json"
TABLE = ROOT / "components" / "facts" / "usage_price_table.py"
COMMAND = "python scripts/usage_prices.py"
ITEMS: dict[str, tuple[str, str, str, Decimal]] = {
    "log_ingestion": ("AmazonCloudWatch", r"per GB custom log data ingested in Standard log class", "GB", Decimal(1)),
    "sqs_requests": (
        "Amazon Simple Queue Service",
        r"per million Amazon SQS standard requests in Tier1",
        "million requests",
        Decimal(1_000_000),
    ),
    "snapshot_storage": (
        "Amazon Elastic Compute Cloud",
        r"per GB-Month of snapshot data stored",
        "GB-month",
        Decimal(1),
    ),
    "s3_standard_storage": (
        "Amazon Simple Storage Service",
        r"per GB - first 50 TB / month of storage used",
        "GB-month",
        Decimal(1),
    ),
}
"""Each item: the service that bills it, its description's wording, the unit the plan states it in, and how many of
the source's pricing units make one (SQS is priced per request)."""


def item_of(service: str, description: str) -> str | None:
    """The item a charge is, by its service and description, or None."""
    for item, (item_service, wording, _, _) in ITEMS.items():
        if service == item_service and re.search(wording, description):
            return item
    return None


def cut(csv_path: Path) -> list[dict[str, str]]:
    """The rows of a FOCUS CSV that are one of `ITEMS`, once per (item, region), in the order the CSV gives them."""
    rows, seen = [], set()
    with csv_path.open(newline="") as handle:
        for charge in csv.DictReader(handle):
            item = item_of(charge["ServiceName"], charge["ChargeDescription"])
            if item is None or charge["ProviderName"] != "AWS" or (item, charge["RegionId"]) in seen:
                continue
            seen.add((item, charge["RegionId"]))
            rows.append(
                {
                    "item": item,
                    "region": charge["RegionId"],
                    "description": charge["ChargeDescription"],
                    "listUnitPrice": charge["ListUnitPrice"],
                    "pricingUnit": charge["PricingUnit"],
                    "skuPriceId": charge["SkuPriceId"],
                    "billingPeriodStart": charge["BillingPeriodStart"],
                }
            )
    return sorted(rows, key=lambda row: (list(ITEMS).index(row["item"]), row["region"]))


def load(path: Path = EXTRACT) -> dict:
    """The extract, each row checked: a known item, and the description's dollar figure equal to its unit price."""
    extract = json.loads(path.read_text())
    problems = []
    for row in extract["rows"]:
        if row["item"] not in ITEMS:
            problems.append(f"{row['region']}: item {row['item']!r} is not one of {list(ITEMS)}")
            continue
        stated = re.match(r"\$([0-9.]+) ", row["description"])
        if stated is None or Decimal(stated.group(1)) != amount(row):
            problems.append(f"{row['item']} {row['region']}: {row['description']!r} is not {amount(row)}")
    if problems:
        raise ValueError(f"{path}: " + "; ".join(problems))
    return extract


def amount(row: dict[str, str]) -> Decimal:
    """The row's price in the unit the plan states it in."""
    return (Decimal(row["listUnitPrice"]) * ITEMS[row["item"]][3]).normalize()


def render(extract: dict) -> str:
    """The text of components/facts/usage_price_table.py."""
    source = extract["source"]
    out = [
        '"""The per-unit prices of what AWS bills by use that the plan lists beside its totals: generated, do not edit.',
        "",
        f"Written by `{COMMAND}` from scripts/data/usage_prices.json (extracted {extract['extracted']}); read through",
        "components/facts/prices.py. `RATES` gives each item its price in each region the source bills it in, in the",
        "unit of `UNITS`, in US dollars.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        f"EXTRACTED = {json.dumps(extract['extracted'])}",
        '"""When the extract was cut from its source."""',
        "SOURCE: dict[str, str] = {",
        *(
            f"    {json.dumps(field)}: {json.dumps(source[field])},"
            for field in ("repository", "path", "commit", "date")
        ),
        "}",
        '"""Where the rows were read, the commit, and the first day of the month the prices were billed in."""',
        "UNITS: dict[str, str] = {",
        *(f"    {json.dumps(item)}: {json.dumps(unit)}," for item, (_, _, unit, _) in ITEMS.items()),
        "}",
        "RATES: dict[str, dict[str, float]] = {",
    ]
    for item in ITEMS:
        out.append(f"    {json.dumps(item)}: {{")
        out.extend(
            f"        {json.dumps(row['region'])}: {amount(row)}," for row in extract["rows"] if row["item"] == item
        )
        out.append("    },")
    out.append("}")
    out.append('"""Each item\'s price by region."""')
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the committed table is out of date")
    parser.add_argument("--cut", type=Path, metavar="CSV", help="rewrite the extract's rows from a FOCUS CSV")
    args = parser.parse_args(argv)
    if args.cut:
        extract = json.loads(EXTRACT.read_text())
        extract["rows"] = cut(args.cut)
        EXTRACT.write_text(json.dumps(extract, indent=1) + "\n")
    text = render(load())
    if args.check:
        if TABLE.read_text() != text:
            print(f"{TABLE.relative_to(ROOT)} is out of date; run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
