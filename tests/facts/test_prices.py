"""The price facts: node prices come from the generated table with their source, every other price with its own,
and what no source prices is None (not priced), never 0. Expected values are the sources' own figures (the extract
scripts/data/instance_prices.json and the pages named in facts/prices.py)."""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog, prices


def test_every_gpu_and_system_type_but_p5e_has_an_on_demand_price_somewhere():
    # p5e.48xlarge is sold as capacity blocks only: no source lists an on-demand price for it.
    accepted = set(gpu_catalog.GPU_INSTANCE_TYPES) | set(gpu_catalog.CPU_INSTANCE_TYPES)
    assert prices.priced_instance_types() == accepted - {"p5e.48xlarge"}


def test_the_dev_stacks_gpu_type_is_priced_in_us_west_2_from_the_gpu_source():
    price = prices.on_demand("g5.xlarge", "us-west-2")

    assert price == prices.Price(1.006, prices.GPU_SOURCE)
    assert round(price.usd_per_month, 2) == 734.38  # 1.006 x 730 hours


@pytest.mark.parametrize(
    ("region", "usd", "two_nodes_a_month"),
    [
        # The 2024 regional dataset (vantage-sh/ec2instances.info opszero-app/instances.json, a19cd859):
        ("us-west-2", 0.096, 140.16),  # 2 x 0.096 x 730
        ("eu-west-1", 0.107, 156.22),  # 2 x 0.107 x 730
        ("ap-northeast-1", 0.124, 181.04),  # 2 x 0.124 x 730
    ],
)
def test_the_dev_stacks_system_type_is_priced_outside_us_east_1(region, usd, two_nodes_a_month):
    price = prices.on_demand("m6i.large", region)

    assert price == prices.Price(usd, prices.REGIONAL_SOURCE)
    assert round(2 * price.usd_per_month, 2) == two_nodes_a_month


def test_us_east_1_and_govcloud_system_prices_come_from_karpenters_2026_table():
    assert prices.on_demand("m6i.large", "us-east-1") == prices.Price(0.096, prices.CPU_SOURCE)
    assert prices.on_demand("m7g.xlarge", "us-gov-west-1") == prices.Price(0.2057, prices.CPU_SOURCE)


def test_the_china_regions_are_priced_in_yuan_and_have_no_us_dollar_price():
    price = prices.list_price("m6i.large", "cn-northwest-1")

    assert price == prices.Price(0.67775, prices.CHINA_SOURCE)
    assert price.currency == "CNY"
    assert prices.on_demand("m6i.large", "cn-northwest-1") is None
    with pytest.raises(ValueError, match="CNY"):
        _ = price.usd_per_hour


def test_a_type_without_a_price_in_a_region_is_not_priced_rather_than_free():
    assert prices.on_demand("p5e.48xlarge", "us-east-1") is None
    assert prices.not_priced_reason("p5e.48xlarge", "us-east-1") == prices.NOT_OFFERED
    assert prices.on_demand("x9.unknown", "us-east-1") is None
    assert prices.not_priced_reason("x9.unknown", "us-east-1") is None


def test_spot_is_priced_only_from_a_discount_the_stack_gives():
    assert prices.spot("g5.xlarge", "us-west-2", None) is None
    assert prices.spot("g5.xlarge", "us-west-2", 0.6).usd_per_hour == 1.006 * 0.4


def test_the_control_plane_costs_six_times_as_much_in_extended_support_and_is_priced_in_the_aws_partition_only():
    assert prices.control_plane("aws", extended=False).usd_per_hour == 0.10
    assert prices.control_plane("aws", extended=True).usd_per_hour == 0.60
    assert prices.control_plane("aws-cn", extended=False) is None


def test_nat_gateways_and_interface_endpoints_are_priced_where_the_sources_name_a_price():
    assert prices.nat_gateway("us-west-2") == prices.Price(0.045, prices.NAT_SOURCE)
    assert prices.nat_gateway("ap-northeast-1") == prices.Price(0.062, prices.NAT_APAC_SOURCE)
    assert prices.nat_gateway("eu-west-1") == prices.Price(0.048, prices.NAT_IRELAND_SOURCE)
    assert prices.nat_gateway("eu-central-1") is None
    assert prices.nat_processing("ap-northeast-1") == prices.Rate(0.062, "GB", prices.NAT_APAC_SOURCE)
    assert prices.interface_endpoint("us-east-1") == prices.Price(0.01, prices.ENDPOINT_SOURCE)
    assert prices.interface_endpoint("us-west-2") is None


def test_a_public_ipv4_address_is_priced_in_the_aws_partition_only():
    assert prices.public_ipv4("aws") == prices.Price(0.005, prices.IPV4_SOURCE)
    assert prices.public_ipv4("aws-us-gov") is None


def test_a_gp3_volume_is_priced_by_size_and_the_throughput_and_iops_above_the_free_baseline():
    assert prices.gp3_volume_month("us-east-1", 100, None, None) == pytest.approx(8.0)  # 100 GB x $0.08
    # 500 GB, 250 MB/s, 6,000 IOPS: 500 x 0.08 + (250 - 125) x 0.04 + (6000 - 3000) x 0.005 = 40 + 5 + 15
    assert prices.gp3_volume_month("us-east-1", 500, 250, 6000) == pytest.approx(60.0)
    # Outside us-east-1, at each region's Price List rate: 100 GB x $0.08 (Oregon), x $0.088 (Ireland), x $0.096
    # (Tokyo), and Tokyo's 250 MB/s, 6,000 IOPS: (250 - 125) x 0.048 + (6000 - 3000) x 0.006 = 6 + 18.
    assert prices.gp3_volume_month("us-west-2", 100, None, None) == pytest.approx(8.0)
    assert prices.gp3_volume_month("eu-west-1", 100, None, None) == pytest.approx(8.8)
    assert prices.gp3_volume_month("ap-northeast-1", 100, 250, 6000) == pytest.approx(9.6 + 6 + 18)
    # The Oregon and Ireland sources give the storage price alone: more than the free baseline is not priced.
    assert prices.gp3_volume_month("us-west-2", 100, 250, None) is None
    assert prices.gp3_volume_month("eu-west-1", 100, None, 4000) is None
    assert prices.gp3_volume_month("eu-central-1", 100, None, None) is None


def test_a_kms_key_costs_a_dollar_a_month_in_the_aws_partition():
    assert prices.kms_key("aws").usd_per_month == pytest.approx(1.0)
    assert prices.kms_key("aws-cn") is None


def test_usage_rates_carry_their_unit_and_source():
    assert prices.log_ingestion("us-east-1") == prices.Rate(0.50, "GB", prices.LOGS_SOURCE)
    assert prices.sqs_requests("us-east-1") == prices.Rate(0.40, "million requests", prices.SQS_SOURCE)
    # Ireland from its Price List offers (AmazonCloudWatch of 2026-09-22, AWSQueueService of 2026-09-11): $0.57 per
    # GB ingested, $0.40 per million standard-queue requests.
    assert prices.log_ingestion("eu-west-1") == prices.Rate(0.57, "GB", prices.LOGS_IRELAND_SOURCE)
    assert prices.sqs_requests("eu-west-1") == prices.Rate(0.40, "million requests", prices.SQS_IRELAND_SOURCE)
    # Where no newer source gives a rate, the FOCUS sample's September 2024 charges do: Oregon's "$0.50 per GB
    # custom log data ingested", "$0.40 per million Amazon SQS standard requests", "$0.05 per GB-Month of snapshot
    # data stored", "$0.023 per GB - first 50 TB / month of storage used"; the snapshot rate differs by region
    # (Sao Paulo's $0.068).
    assert prices.log_ingestion("us-west-2") == prices.Rate(0.5, "GB", prices.USAGE_SOURCE)
    assert prices.sqs_requests("us-west-2") == prices.Rate(0.4, "million requests", prices.USAGE_SOURCE)
    assert prices.snapshot_storage("us-west-2") == prices.Rate(0.05, "GB-month", prices.USAGE_SOURCE)
    assert prices.snapshot_storage("sa-east-1") == prices.Rate(0.068, "GB-month", prices.USAGE_SOURCE)
    assert prices.s3_standard_storage("us-west-2") == prices.Rate(0.023, "GB-month", prices.USAGE_SOURCE)
    assert prices.USAGE_SOURCE.as_of == "2024-09-01"
    # What neither gives stays unknown, never 0.
    assert prices.sqs_requests("ap-northeast-1") is None
    assert prices.s3_standard_storage("eu-west-1") is None
    assert prices.snapshot_storage("eu-west-1") is None


def test_fast_snapshot_restore_and_nat_processing_are_priced_only_where_a_source_dates_them():
    """$0.75 per DSU-hour per zone in us-east-1 (How AWS Pricing Works, Amazon EBS); no dated figure for us-west-2.
    NAT gateway data has no rate in eu-central-1 (facts/prices.py `NAT_GATEWAY_USD_PER_HOUR`)."""
    assert prices.fast_snapshot_restore("us-east-1") == prices.Price(0.75, prices.FSR_SOURCE)
    assert prices.fast_snapshot_restore("us-west-2") is None
    assert prices.nat_processing("eu-central-1") is None


def test_a_type_without_a_price_has_no_spot_price_whatever_the_discount():
    assert prices.spot("x9.unknown", "us-east-1", 0.5) is None


def test_a_yuan_price_says_it_has_no_dollar_amount_and_where_it_comes_from():
    price = prices.list_price("m6i.large", "cn-northwest-1")

    assert price.per_month == pytest.approx(0.67775 * 730)
    with pytest.raises(ValueError) as raised:
        _ = price.usd_per_hour
    assert str(raised.value) == f"a price in CNY has no US dollar amount ({prices.CHINA_SOURCE.name})"
