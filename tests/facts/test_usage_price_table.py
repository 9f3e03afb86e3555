"""The usage price table is what scripts/usage_prices.py makes of the committed extract; the script takes an item's
rows by its service and AWS's own wording, and refuses a row whose description states another price."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from components.facts import usage_price_table
from scripts import usage_prices as script

HEADER = "ProviderName,ServiceName,RegionId,ChargeDescription,ListUnitPrice,PricingUnit,SkuPriceId,BillingPeriodStart\n"


def test_the_committed_table_is_what_the_script_makes_of_the_extract():
    rendered = script.render(script.load())

    assert script.load()["extracted"] == usage_price_table.EXTRACTED
    assert script.TABLE.read_text() == rendered, f"usage_price_table.py is out of date; run `{script.COMMAND}`"


def test_the_script_cuts_each_item_once_per_region_by_its_service_and_wording(tmp_path: Path):
    sample = tmp_path / "focus.csv"
    sample.write_text(
        HEADER
        + "AWS,Amazon Simple Queue Service,us-west-2,$0.40 per million Amazon SQS standard requests in Tier1 in US "
        "West (Oregon),0.0000004,Requests,A.B.C,2024-09-01 00:00:00\n"
        # The same item and region again: kept once.
         + "AWS,Amazon Simple Queue Service,us-west-2,$0.40 per million Amazon SQS standard requests in Tier1 in US "
        "West (Oregon),0.0000004,Requests,A.B.C,2024-09-01 00:00:00\n"
        # FIFO requests are another price: not the standard queue's.
         + "AWS,Amazon Simple Queue Service,us-west-2,$0.50 per million Amazon SQS FIFO requests in Tier1 in US West "
        "(Oregon),0.0000005,Requests,D.E.F,2024-09-01 00:00:00\n"
        # CloudWatch's ingestion is an item of its own; rows come out in the order of the items.
         + "AWS,AmazonCloudWatch,us-west-2,$0.50 per GB custom log data ingested in Standard log class - US West "
        "(Oregon),0.5,GB,G.H.I,2024-09-01 00:00:00\n"
    )

    rows = script.cut(sample)

    assert [(row["item"], row["region"]) for row in rows] == [
        ("log_ingestion", "us-west-2"),
        ("sqs_requests", "us-west-2"),
    ]
    # Priced per request, stated per million: 0.0000004 x 1,000,000.
    assert script.amount(rows[1]) == Decimal("0.4")


def test_a_row_whose_description_states_another_price_is_refused(tmp_path: Path):
    extract = json.loads(script.EXTRACT.read_text())
    extract["rows"][0] = {**extract["rows"][0], "listUnitPrice": "0.6"}
    path = tmp_path / "usage_prices.json"
    path.write_text(json.dumps(extract))

    with pytest.raises(
        ValueError, match=r"log_ingestion us-east-1: '\$0\.50 per GB custom log data ingested .* is not 0\.6"
    ):
        script.load(path)
