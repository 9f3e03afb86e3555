"""The cost section's readers, one value at a time: what each reads of a registered resource or of the settings
(each key, each default) and what it writes (each field, each message's whole text), on small hand-made resources,
without a program run. Prices are the price table's rows (facts/price_table.py, us-east-1 from the GPU dataset
tsaol/aws-gpu 7412fd25 and Karpenter's generated table 6fc13b52): g5.xlarge $1.006, g5.2xlarge $1.212, g5.4xlarge
$1.624, g6.xlarge $0.8048, t3.medium $0.0416 an hour; gp3 $0.08 a GB-month (EBS pricing, us-east-1); a month is 730
hours (the AWS Pricing Calculator's)."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from components.facts import prices
from components.facts.resource_types import (
    EIP,
    EKS_CLUSTER,
    EKS_CONTROL_PLANE,
    KARPENTER_NODE_POOL,
    KMS_KEY,
    LAUNCH_TEMPLATE,
    NAT_GATEWAY,
    NODE_GROUP,
    SQS_QUEUE,
    VPC_ENDPOINT,
)
from components.stackcheck.plan import cost
from components.stackcheck.runtime import RegisteredResource

ONE_NODE = {"minSize": 1, "desiredSize": 1, "maxSize": 1}


def resource(type_: str, inputs: dict, name: str = "x", parent: str | None = None) -> RegisteredResource:
    return RegisteredResource(type_, name, inputs, parent, f"urn:{type_}::{name}", True)


def group(name: str = "gpu", **inputs) -> RegisteredResource:
    return resource(NODE_GROUP, {"scalingConfig": ONE_NODE, **inputs}, name)


def test_a_node_group_reads_each_size_of_its_scaling_config():
    [pool] = cost.estimate(
        [group(instanceTypes=["t3.medium"], scalingConfig={"minSize": 1, "desiredSize": 2, "maxSize": 5})],
        "us-east-1",
        "aws",
    ).pools

    assert pool.sizes == {"min": 1, "desired": 2, "max": 5}
    # 0.0416 x 730 = 30.368 a node a month, at 1, 2 and 5 nodes
    assert [pool.monthly(size) for size in cost.SIZES] == pytest.approx([30.368, 60.736, 151.84])


def test_a_node_group_without_types_or_capacity_type_is_what_eks_defaults_to():
    """EKS gives a node group without `instanceTypes` t3.medium and without `capacityType` On-Demand (EKS API,
    CreateNodegroup): $0.0416 an hour in us-east-1; a node group without `scalingConfig` has no nodes."""
    [pool, empty] = cost.estimate([group(), resource(NODE_GROUP, {}, "empty")], "us-east-1", "aws").pools

    assert (pool.name, pool.instance_type, pool.capacity_type, pool.usd_per_node_hour, pool.not_priced) == (
        "gpu",
        "t3.medium",
        "ON_DEMAND",
        0.0416,
        "",
    )
    assert empty.sizes == {"min": 0, "desired": 0, "max": 0}


def test_capacity_blocks_are_named_as_paid_up_front():
    [pool] = cost.estimate(
        [group(instanceTypes=["p5.48xlarge"], capacityType="CAPACITY_BLOCK")], "us-east-1", "aws"
    ).pools

    assert (pool.usd_per_node_hour, pool.not_priced) == (
        None,
        "CAPACITY_BLOCK capacity is reserved and paid up front, not by the hour",
    )


def test_a_spot_group_with_a_type_the_table_does_not_price_names_that_type_and_why():
    """p5e.48xlarge is sold as capacity blocks only: the table names it not offered in us-east-1
    (facts/price_table.py), so a Spot group that allows it has no dearest type to price."""
    [pool] = cost.estimate(
        [group(instanceTypes=["g5.xlarge", "p5e.48xlarge"], capacityType="SPOT")], "us-east-1", "aws", spot_discount=0.5
    ).pools

    assert (pool.instance_type, pool.usd_per_node_hour, pool.not_priced) == (
        "p5e.48xlarge",
        None,
        "no on-demand price for p5e.48xlarge in us-east-1: " + prices.NOT_OFFERED,
    )


def test_a_type_the_table_does_not_name_is_said_to_be_outside_the_table():
    [pool] = cost.estimate([group(instanceTypes=["x9.unknown"])], "us-east-1", "aws").pools

    assert pool.not_priced == (
        "no on-demand price for x9.unknown in us-east-1: not in the price table (facts/price_table.py)"
    )


def test_a_price_in_another_currency_than_the_regions_is_not_priced():
    """g5.xlarge in cn-northwest-1 is CN¥6.70086 an hour (the China dataset, tsaol/aws-gpu
    data/instances_full_cn.json): priced in yuan in the aws-cn partition, and not priced where the estimate is in
    US dollars."""
    kind = {"instanceTypes": ["g5.xlarge"]}
    [in_yuan] = cost.estimate([group(**kind)], "cn-northwest-1", "aws-cn").pools
    [in_dollars] = cost.estimate([group(**kind)], "cn-northwest-1", "aws").pools

    assert (in_yuan.usd_per_node_hour, in_yuan.not_priced) == (6.70086, "")
    assert (in_dollars.usd_per_node_hour, in_dollars.not_priced) == (
        None,
        "its price is in CNY, the region is billed in USD",
    )


def lt(inputs: dict, name: str = "lt", id_: str = "") -> RegisteredResource:
    return dataclasses.replace(resource(LAUNCH_TEMPLATE, inputs, name), id=id_)


def test_a_launch_template_is_found_by_its_id_its_mocked_id_or_its_name():
    """A node group names its launch template by the id AWS gave it; under the mocks that id is the resource's name
    with `-id`, or the name itself. 100 + 50 GB of gp3 at $0.08 = $12.00 a node a month."""
    volumes = {"blockDeviceMappings": [{"ebs": {"volumeSize": 100}}, {"ebs": {"volumeSize": 50, "volumeType": "gp3"}}]}
    for template, reference in (
        (lt(volumes, "a", "lt-0123456789abcdef0"), "lt-0123456789abcdef0"),
        (lt(volumes, "b"), "b-id"),
        (lt(volumes, "c"), "c"),
    ):
        [pool] = cost.estimate(
            [template, group(instanceTypes=["t3.medium"], launchTemplate={"id": reference})], "us-east-1", "aws"
        ).pools

        assert (pool.disk_per_node_month, pool.disk_not_priced) == (pytest.approx(12.0), ""), reference


def test_volumes_not_priced_name_the_volume_type_or_the_currency():
    io2 = lt({"blockDeviceMappings": [{"ebs": {"volumeSize": 100, "volumeType": "io2"}}]}, "io2")
    uses_io2 = group(instanceTypes=["t3.medium"], launchTemplate={"id": "io2"})
    sized = group(instanceTypes=["g5.xlarge"], diskSize=100)

    [io2_pool] = cost.estimate([io2, uses_io2], "us-east-1", "aws").pools
    [china] = cost.estimate([sized], "cn-northwest-1", "aws-cn").pools

    assert io2_pool.disk_not_priced == "no dated io2 price for us-east-1"
    assert (china.disk_per_node_month, china.disk_not_priced) == (
        None,
        "EBS prices are in US dollars, the region is billed in CNY",
    )


def test_a_template_without_volumes_leaves_the_root_volume_unsized():
    bare = lt({}, "bare")
    [pool] = cost.estimate(
        [bare, group(instanceTypes=["t3.medium"], launchTemplate={"id": "bare"}, diskSize=100)], "us-east-1", "aws"
    ).pools

    # The template rules the volumes: its none, not the node group's diskSize.
    assert pool.disk_not_priced == "no volume size registered (EKS's default root volume)"


def karpenter_pool(capacity: list[str] | None = None, gpu_limit: int | None = 4) -> RegisteredResource:
    requirements = [
        {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["g5.2xlarge", "g5.xlarge"]}
    ]
    if capacity is not None:
        requirements.append({"key": "karpenter.sh/capacity-type", "operator": "In", "values": capacity})
    spec = {
        "template": {
            "spec": {"requirements": requirements, "nodeClassRef": {"group": "karpenter.k8s.aws", "name": "gpu"}},
        },
        **({"limits": {"nvidia.com/gpu": gpu_limit}} if gpu_limit is not None else {}),
    }
    return resource(KARPENTER_NODE_POOL, {"metadata": {"name": "gpu"}, "spec": spec}, "gpu-pool")


def test_a_karpenter_pool_is_priced_at_its_cheapest_type_up_to_its_gpu_limit():
    """EC2 Fleet fills On-Demand capacity at the lowest price (Karpenter FAQ): g5.xlarge's $1.006 below
    g5.2xlarge's $1.212; a limit of 4 GPUs over one GPU a node is at most 4 nodes, none until a pod needs one."""
    [pool] = cost.estimate([karpenter_pool()], "us-east-1", "aws").pools

    assert (pool.name, pool.instance_type, pool.capacity_type, pool.usd_per_node_hour) == (
        "gpu",
        "g5.xlarge",
        "ON_DEMAND",
        1.006,
    )
    assert pool.sizes == {"min": 0, "desired": 0, "max": 4}
    assert (pool.disk_not_priced, pool.extra_not_priced) == ("the node class sizes the volumes; not priced", ())
    assert pool.missing == [("gpu node volumes", "the node class sizes the volumes; not priced")]


def test_a_spot_karpenter_pool_is_priced_at_its_dearest_type_less_the_discount():
    # g5.2xlarge's $1.212 x (1 - 0.5) = $0.606; without a limit the pool has no maximum to price.
    [pool] = cost.estimate([karpenter_pool(["spot"], gpu_limit=None)], "us-east-1", "aws", spot_discount=0.5).pools

    assert (pool.instance_type, pool.capacity_type, pool.usd_per_node_hour) == ("g5.2xlarge", "SPOT", 0.606)
    assert pool.sizes == {"min": 0, "desired": 0, "max": 0}


def test_a_karpenter_pool_without_an_instance_type_requirement_is_not_priced():
    bare = resource(KARPENTER_NODE_POOL, {"metadata": {"name": "any"}, "spec": {}}, "any")

    [pool] = cost.estimate([bare], "us-east-1", "aws").pools

    assert pool == cost.PoolCost(
        "any", "", "", {"min": 0, "desired": 0, "max": 0}, None, "no instance-type requirement"
    )


def test_a_control_plane_past_standard_support_is_extended_from_the_day_after():
    """Kubernetes 1.33 leaves EKS standard support on 2026-07-29 (EKS release calendar, facts/versions.py): that
    day it is still standard, the next day extended; a version the calendar does not know is not extended."""
    plane = resource(EKS_CONTROL_PLANE, {"version": "1.33"})

    def label(today: date, inputs: dict | None = None) -> list[tuple[str, int, float | None]]:
        found = cost.estimate(
            [dataclasses.replace(plane, inputs=inputs or plane.inputs)], "us-east-1", "aws", today=today
        )
        return [(item.item, item.count, item.usd_per_unit_hour) for item in found.fixed]

    assert label(date(2026, 7, 29)) == [("EKS control plane", 1, 0.1)]
    assert label(date(2026, 7, 30)) == [("EKS control plane (extended support)", 1, 0.6)]
    assert label(date(2030, 1, 1), {"version": "9.99"}) == [("EKS control plane", 1, 0.1)]


def test_a_control_plane_inside_a_pulumi_eks_cluster_is_that_cluster():
    outer = resource(EKS_CLUSTER, {}, "cluster")
    inner = resource(EKS_CONTROL_PLANE, {}, "cluster-eksCluster", parent=outer.urn)
    other = resource(EKS_CONTROL_PLANE, {}, "other", parent="urn:elsewhere")

    [plane] = cost.estimate([outer, inner, other], "us-east-1", "aws").fixed

    assert (plane.item, plane.count) == ("EKS control plane", 2)


def test_every_fixed_charge_outside_its_priced_partition_or_region_says_why():
    every = [
        resource(EKS_CONTROL_PLANE, {"version": "1.36"}),
        resource(NAT_GATEWAY, {}),
        resource(EIP, {}),
        resource(VPC_ENDPOINT, {"vpcEndpointType": "Interface", "subnetIds": ["subnet-a"]}),
        resource(VPC_ENDPOINT, {"vpcEndpointType": "Interface"}),
        resource(KMS_KEY, {}),
    ]

    china = cost.estimate(every, "cn-northwest-1", "aws-cn", fast_snapshot_restores=2, today=date(2026, 12, 1))

    assert china.currency == "CNY"
    assert [(item.item, item.count, item.usd_per_unit_hour, item.not_priced) for item in china.fixed] == [
        ("EKS control plane", 1, None, "no EKS price for the aws-cn partition"),
        ("NAT gateway", 1, None, "no price in cn-northwest-1"),
        ("public IPv4 address (Elastic IP)", 1, None, "no price for the aws-cn partition"),
        ("interface endpoint (per zone)", 1, None, "no price in cn-northwest-1"),
        ("KMS key", 1, None, "no price for the aws-cn partition"),
        ("EBS Fast Snapshot Restore (snapshot x zone)", 2, None, "no dated price in cn-northwest-1"),
    ]


def test_dollar_prices_in_a_region_billed_in_yuan_are_named_not_converted():
    # The aws partition's prices asked for in a China region's currency: each names the currency.
    found = cost.estimate([resource(EIP, {}), resource(KMS_KEY, {})], "cn-northwest-1", "aws-cn").fixed
    plain = cost._in_currency(cost.FixedCost("KMS key", 1, 1 / 730), "CNY")

    assert [item.usd_per_unit_hour for item in found] == [None, None]
    assert plain == cost.FixedCost("KMS key", 1, None, "its price is in US dollars, the region is billed in CNY")


def test_the_pools_and_charges_left_out_are_listed_by_name_and_why():
    pool = cost.PoolCost(
        "gpu",
        "g6.xlarge",
        "ON_DEMAND",
        {"min": 0, "desired": 1, "max": 2},
        None,
        "no price",
        disk_not_priced="no disk price",
        extra_not_priced=("Auto Mode fee: not priced: a: b",),
    )
    estimate = cost.CostEstimate(
        "us-east-1", pools=[pool], fixed=[cost.FixedCost("NAT gateway", 1, None, "no price in us-east-1")]
    )

    assert estimate.not_priced == [
        "gpu nodes: no price",
        "gpu node volumes: no disk price",
        "gpu Auto Mode fee: not priced: a: b",
        "NAT gateway: no price in us-east-1",
    ]
    assert estimate.total("max") == 0 and pool.monthly("max") is None


def test_the_json_document_writes_every_field_of_the_estimate():
    """One g5.xlarge On-Demand pool with a 100 GB gp3 root volume in us-east-1: 1.006 x 730 = 734.38 and 8.00 for
    the volume, 742.38 a node a month, at 0, 1 and 2 nodes; the KMS key's $1 a month."""
    sized = group(
        instanceTypes=["g5.xlarge"], diskSize=100, scalingConfig={"minSize": 0, "desiredSize": 1, "maxSize": 2}
    )
    queue = resource(SQS_QUEUE, {}, "requests")
    estimate = cost.estimate([sized, resource(KMS_KEY, {}), queue], "us-east-1", "aws", spot_discount=0.3, budget=900)

    document = estimate.to_dict()

    assert {key: value for key, value in document.items() if key not in ("usage", "sources")} == {
        "region": "us-east-1",
        "currency": "USD",
        "hoursPerMonth": 730,
        "spotDiscount": 0.3,
        "maxMonthlyUsd": 900,
        "pools": [
            {
                "name": "gpu",
                "instanceType": "g5.xlarge",
                "capacityType": "ON_DEMAND",
                "nodes": {"min": 0, "desired": 1, "max": 2},
                "usdPerNodeHour": 1.006,
                "volumesPerNodeMonth": 8.0,
                "monthlyUsd": {"min": 0.0, "desired": 742.38, "max": 1484.76},
                "notPriced": None,
                "volumesNotPriced": None,
            }
        ],
        "fixed": [
            {"item": "KMS key", "count": 1, "usdPerUnitHour": 1 / 730, "monthlyUsd": 1.0, "notPriced": None},
        ],
        "monthlyUsd": {"min": 1.0, "desired": 743.38, "max": 1485.76},
        "idleFloorMonthlyUsd": 1.0,
        # The queue feeds a server, so its GPU pool may stand at zero: the KMS key alone.
        "queueEmptyMonthlyUsd": 1.0,
        "notPriced": [],
    }
    # us-east-1 bills SQS requests at $0.40 per million beyond the account's free million (SQS pricing).
    assert document["usage"] == [
        {
            "item": "SQS requests (requests)",
            "rate": 0.4,
            "unit": "million requests",
            "note": "the first 1,000,000 requests a month of the account are free",
            "notPriced": None,
        }
    ]
    assert document["sources"][0] == {
        "name": "instances.vantage.sh (the AWS Price List's on-demand Linux prices), as committed in tsaol/aws-gpu",
        "where": "github.com/tsaol/aws-gpu data/all_gpu_instances.js, commit 7412fd256c5eda04a70a17742a68e8e44824b2cb",
        "asOf": "2026-01-21",
    }
    assert len(document["sources"]) == len(prices.SOURCES)


@pytest.mark.parametrize(
    ("value", "currency", "text"),
    [
        (1234.561, "USD", "$1,234.56"),
        (1234.561, "CNY", "CN¥1,234.56"),
        (0.5, "EUR", "EUR 0.50"),
        (None, "USD", "not priced"),
    ],
)
def test_amounts_are_written_with_the_currencys_sign(value, currency, text):
    assert cost.usd(value, currency) == text
