"""The price facts: every instance type the settings accept has a row, prices come with their source, and what
the table does not have is None (not priced), never 0."""

from __future__ import annotations

from components.facts import gpu_catalog, price_table, prices, regions


def test_every_gpu_and_system_instance_type_has_a_row_of_the_table():
    assert prices.priced_instance_types() == set(gpu_catalog.GPU_INSTANCE_TYPES) | set(gpu_catalog.CPU_INSTANCE_TYPES)


def test_the_dev_stacks_gpu_type_is_priced_in_us_west_2_from_the_gpu_source():
    price = prices.on_demand("g5.xlarge", "us-west-2")

    assert price == prices.Price(1.006, prices.GPU_SOURCE)
    assert round(price.usd_per_month, 2) == 734.38  # 730 hours


def test_a_type_without_a_price_in_a_region_is_not_priced_rather_than_free():
    assert prices.on_demand("m6i.large", "us-west-2") is None  # the system types' source covers us-east-1 only
    assert prices.on_demand("m6i.large", "us-east-1") == prices.Price(0.096, prices.CPU_SOURCE)
    assert prices.on_demand("p5e.48xlarge", "us-east-1") is None
    assert prices.on_demand("x9.unknown", "us-east-1") is None


def test_every_price_is_positive_and_in_a_region_the_zone_table_knows():
    known = set(regions.ZONES)
    rows = (*price_table.GPU_ROWS, *price_table.CPU_ROWS)
    assert len(rows) == len(prices.priced_instance_types())
    for row in rows:
        name, *pairs = row.split()
        for pair in pairs:
            region, _, usd = pair.partition("=")
            assert region in known, (name, region)
            assert float(usd) > 0, (name, region)


def test_spot_is_priced_only_from_a_discount_the_stack_gives():
    assert prices.spot("g5.xlarge", "us-west-2", None) is None
    assert prices.spot("g5.xlarge", "us-west-2", 0.6).usd_per_hour == 1.006 * 0.4


def test_the_control_plane_costs_six_times_as_much_in_extended_support_and_is_priced_in_the_aws_partition_only():
    assert prices.control_plane("aws", extended=False).usd_per_hour == 0.10
    assert prices.control_plane("aws", extended=True).usd_per_hour == 0.60
    assert prices.control_plane("aws-cn", extended=False) is None


def test_nat_gateways_and_interface_endpoints_are_priced_where_the_sources_name_a_price():
    assert prices.nat_gateway("us-west-2") == prices.Price(0.045, prices.NAT_SOURCE)
    assert prices.nat_gateway("eu-west-1") is None
    assert prices.interface_endpoint("us-east-1") == prices.Price(0.01, prices.ENDPOINT_SOURCE)
    assert prices.interface_endpoint("us-west-2") is None


def test_a_public_ipv4_address_is_priced_in_the_aws_partition_only():
    assert prices.public_ipv4("aws") == prices.Price(0.005, prices.IPV4_SOURCE)
    assert prices.public_ipv4("aws-us-gov") is None
