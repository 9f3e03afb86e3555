"""What the cost section lists as billed by use, beside the totals: each item with its dated rate in the Region, or
named as not priced; and the Auto Mode management fee named as not priced, with why. Rates are the sources' own
(facts/prices.py): the AWS Price List for eu-west-1 as extracted on 2026-10-02, and the charges of the FinOps
Foundation's FOCUS sample (a month of real AWS billing, September 2024) as extracted in scripts/data/usage_prices.json."""

from __future__ import annotations

from components.facts.resource_types import KARPENTER_NODE_POOL, LAUNCH_TEMPLATE, LOG_GROUP, S3_BUCKET, SQS_QUEUE
from components.stackcheck.plan import cost
from components.stackcheck.plan.usage_cost import usage_costs
from components.stackcheck.runtime import RegisteredResource


def registered(type_: str, resource_name: str, **inputs) -> RegisteredResource:
    return RegisteredResource(type_, resource_name, inputs, None, f"urn:{type_}::{resource_name}", True)


QUEUE_STACK = [
    registered(LOG_GROUP, "logs", name="/aws/eks/gpu-inference-dev/cluster"),
    registered(SQS_QUEUE, "requests"),
    registered(S3_BUCKET, "results"),
    registered(LAUNCH_TEMPLATE, "gpu", blockDeviceMappings=[{"ebs": {"snapshotId": "snap-0123456789abcdef0"}}]),
]


def rows(region: str) -> dict[str, tuple[str | None, float | None, str, str]]:
    return {
        entry.item: (
            entry.rate.unit if entry.rate else None,
            entry.rate.amount if entry.rate else None,
            entry.note,
            entry.not_priced,
        )
        for entry in usage_costs(QUEUE_STACK, region, nat_gateways=1, weights_gb=15.22)
    }


def test_ireland_rates_log_ingestion_and_sqs_requests_from_its_price_list():
    found = rows("eu-west-1")

    # NAT gateway data processed, $0.048 per GB (offer 20260925174521): 15.22 GB a cold start x 0.048 = $0.73.
    assert found["NAT gateway data processed"] == (
        "GB",
        0.048,
        "a cold start downloads 15.22 GB of weights through it: $0.73",
        "",
    )
    # AmazonCloudWatch eu-west-1: "$0.57 per GB custom log data ingested in Standard log class - EU (Ireland)".
    assert found["log ingestion (/aws/eks/gpu-inference-dev/cluster)"] == ("GB", 0.57, "", "")
    # AWSQueueService eu-west-1: "$0.40 per million Amazon SQS standard requests in Tier1", and Global-Requests:
    # "First 1,000,000 Amazon SQS Requests per month are free" (the account's, so stated rather than subtracted).
    assert found["SQS requests (requests)"] == (
        "million requests",
        0.40,
        "the first 1,000,000 requests a month of the account are free",
        "",
    )
    # Neither source bills S3 or snapshots in eu-west-1: named, not priced.
    assert found["S3 storage (results)"] == (None, None, "", "no dated per-GB-month rate of S3 Standard for eu-west-1")
    assert found["EBS snapshot storage (snap-0123456789abcdef0)"][3] == "no dated per-GB-month rate for eu-west-1"


def test_oregon_rates_every_item_from_a_month_of_its_billing():
    found = rows("us-west-2")

    # The FOCUS sample's us-west-2 charges of September 2024: "$0.50 per GB custom log data ingested", "$0.40 per
    # million Amazon SQS standard requests", "$0.023 per GB - first 50 TB / month of storage used", "$0.05 per
    # GB-Month of snapshot data stored"; the NAT gateway's $0.045 per GB (VPC pricing): 15.22 x 0.045 = $0.68.
    assert found == {
        "NAT gateway data processed": ("GB", 0.045, "a cold start downloads 15.22 GB of weights through it: $0.68", ""),
        "log ingestion (/aws/eks/gpu-inference-dev/cluster)": ("GB", 0.5, "", ""),
        "SQS requests (requests)": (
            "million requests",
            0.4,
            "the first 1,000,000 requests a month of the account are free",
            "",
        ),
        "S3 storage (results)": ("GB-month", 0.023, "", ""),
        "EBS snapshot storage (snap-0123456789abcdef0)": ("GB-month", 0.05, "", ""),
    }


def test_tokyo_names_what_no_source_bills_there():
    found = rows("ap-northeast-1")

    assert found["SQS requests (requests)"] == (None, None, "", "no dated rate for ap-northeast-1")
    assert found["S3 storage (results)"][3] == "no dated per-GB-month rate of S3 Standard for ap-northeast-1"
    # "$0.05 per GB-Month of snapshot data stored - Asia Pacific (Tokyo)" (FOCUS sample, September 2024).
    assert found["EBS snapshot storage (snap-0123456789abcdef0)"] == ("GB-month", 0.05, "", "")


def test_frankfurt_names_each_item_no_source_bills_there_with_why():
    """The FOCUS sample's only eu-central-1 row is SQS requests ("$0.40 per million Amazon SQS standard requests in
    Tier1 in EU (Frankfurt)", scripts/data/usage_prices.json); the eu-west-1 price list and the dated CloudWatch
    page (N. Virginia, Tokyo) rate no other Region: log ingestion there is named, not priced, with why."""
    found = rows("eu-central-1")

    assert found["log ingestion (/aws/eks/gpu-inference-dev/cluster)"] == (
        None,
        None,
        "",
        "no dated per-GB rate for eu-central-1",
    )
    assert found["SQS requests (requests)"][:2] == ("million requests", 0.40)
    # No dated NAT gateway rate for Frankfurt (VPC pricing is read for the US Regions, Ireland's price list, and
    # the Asia Pacific and Sao Paulo figures in facts/prices.py): named with its Region, and no cold-start figure.
    assert found["NAT gateway data processed"] == (None, None, "", "no rate in eu-central-1")


def test_an_auto_mode_pool_names_its_management_fee_as_not_priced_and_why():
    pool = registered(
        KARPENTER_NODE_POOL,
        "auto",
        metadata={"name": "auto"},
        spec={
            "template": {
                "spec": {
                    "nodeClassRef": {"group": "eks.amazonaws.com", "kind": "NodeClass", "name": "auto"},
                    "requirements": [
                        {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["g6.xlarge"]}
                    ],
                }
            }
        },
    )
    [estimated] = cost.estimate([pool], "us-west-2", "aws").pools

    [(name, why)] = [entry for entry in estimated.missing if entry[0].endswith("Auto Mode fee")]
    assert name == "auto Auto Mode fee"
    assert why.startswith("not priced for g6.xlarge: the AmazonEKS Price List prices EKS Auto Mode's management fee")
    assert "vantage-sh/ec2instances.info pull request #968" in why


def test_a_log_group_without_a_name_is_named_by_its_resource_and_only_restored_volumes_are_snapshots():
    """A log group the program names by its resource alone; a launch template's volumes that restore no snapshot (a
    blank root volume, a mapping without `ebs`) store nothing to bill. No NAT gateway: no data-processed line."""
    template = registered(
        LAUNCH_TEMPLATE,
        "mixed",
        blockDeviceMappings=[
            {"deviceName": "/dev/xvda", "ebs": {"volumeSize": 100}},
            {"deviceName": "/dev/xvdb"},
            {"deviceName": "/dev/xvdc", "ebs": {"snapshotId": "snap-0fedcba9876543210"}},
        ],
    )

    found = usage_costs([registered(LOG_GROUP, "cluster-logs"), template], "us-west-2", 0, 15.22)

    # us-west-2's FOCUS sample rates: $0.50 per GB ingested, $0.05 per GB-month of snapshot data.
    assert [(entry.item, entry.rate.amount if entry.rate else None) for entry in found] == [
        ("log ingestion (cluster-logs)", 0.5),
        ("EBS snapshot storage (snap-0fedcba9876543210)", 0.05),
    ]
