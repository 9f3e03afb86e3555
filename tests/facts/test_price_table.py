"""The node price table is what scripts/price_table.py makes of the committed extract, and it leaves no accepted
instance type without either a price or a stated reason in any region the zone table lists."""

from __future__ import annotations

from decimal import Decimal

from components.facts import gpu_catalog, price_table, prices, regions
from scripts import price_table as script

ACCEPTED = [*gpu_catalog.GPU_INSTANCE_TYPES, *gpu_catalog.CPU_INSTANCE_TYPES]


def test_the_committed_table_is_what_the_script_makes_of_the_extract():
    rendered = script.render(script.load(), ACCEPTED, sorted(regions.ZONES))

    assert script.load()["extracted"] == price_table.EXTRACTED
    assert script.TABLE.read_text() == rendered, f"price_table.py is out of date; run `{script.COMMAND}`"


def test_every_accepted_type_is_priced_or_named_as_not_priced_in_every_region_of_the_zone_table():
    unexplained = [
        (instance_type, region)
        for instance_type in ACCEPTED
        for region in regions.ZONES
        if prices.list_price(instance_type, region) is None and prices.not_priced_reason(instance_type, region) is None
    ]

    assert unexplained == []


def test_a_pair_named_as_not_priced_has_no_price_in_any_source_of_the_extract():
    extract = script.load()
    named = [
        (instance_type, region)
        for rows in (price_table.NOT_OFFERED_ROWS, price_table.UNCOVERED_ROWS)
        for row in rows
        for instance_type in row.partition(": ")[2].split()
        for region in row.partition(": ")[0].split()
    ]

    assert named
    for instance_type, region in named:
        found = [
            key
            for key, table in extract["prices"].items()
            if Decimal(table.get(instance_type, {}).get(region, "0")) > 0
        ]
        assert found == [], (instance_type, region)


def test_a_region_no_source_covers_is_named_as_uncovered_rather_than_not_offered():
    # mx-central-1 opened in 2025: none of the four sources lists it (the extract's `regions`).
    assert all("mx-central-1" not in source["regions"] for source in script.load()["sources"].values())
    assert prices.not_priced_reason("m6i.large", "mx-central-1") == prices.UNCOVERED
    # The regional source covers eu-north-1 and prices no m6a there (no m6a in Stockholm on 2024-04-04).
    assert prices.not_priced_reason("m6a.large", "eu-north-1") == prices.NOT_OFFERED


def test_the_2024_regional_prices_equal_karpenters_2026_ones_wherever_both_price_a_type():
    extract = script.load()
    both = [
        (instance_type, region, usd, extract["prices"]["regional"][instance_type][region])
        for instance_type, row in extract["prices"]["karpenter"].items()
        for region, usd in row.items()
        if region in extract["prices"]["regional"].get(instance_type, {})
    ]

    assert len(both) > 100  # us-east-1 and GovCloud for most of the 55 system types
    assert [entry for entry in both if Decimal(entry[2]) != Decimal(entry[3])] == []


def test_the_script_takes_each_pair_from_the_first_source_that_prices_it():
    # p4d.24xlarge fell in price in 2025: the 2026 GPU dataset's us-east-2 price, not the 2024 one (32.7726).
    assert prices.list_price("p4d.24xlarge", "us-east-2") == prices.Price(21.95764, prices.GPU_SOURCE)
    # The 2024 dataset spells "0" for p5.48xlarge in us-east-1, which means no price, never a free node.
    assert script.load()["prices"]["regional"]["p5.48xlarge"]["us-east-1"] == "0"
    assert prices.list_price("p5.48xlarge", "us-east-1") == prices.Price(55.04, prices.GPU_SOURCE)
