"""What the cost section takes from the settings rather than from the registered resources: the Region, the Spot
discount and budget of `cost`, the largest model's weights a cold start pulls through a NAT gateway, the (snapshot,
zone) pairs under Fast Snapshot Restore, and the warm nodes each pool keeps; from parsed settings and hand-made
resources, without a program run. Prices are the price table's rows (facts/price_table.py): g5.xlarge $1.006 an hour
in us-east-1 and us-west-2, g6.xlarge $0.8048 and g6e.xlarge $1.861 in us-west-2 (the GPU dataset, tsaol/aws-gpu
7412fd25), g5.xlarge CN¥6.70086 in cn-northwest-1 (the China dataset); NAT gateway data $0.045 a GB in the US
Regions (Amazon VPC pricing, facts/prices.py)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import yaml

from components.facts import prices
from components.facts.resource_types import NAT_GATEWAY
from components.settings.stack import parse_settings
from components.stackcheck.plan import cost
from components.stackcheck.plan.warm_cost import node_hour, warm_node_costs
from components.stackcheck.runtime import RegisteredResource
from tests.conftest import dev_stack_config, merge

ROOT = Path(__file__).resolve().parents[2]
NAT = RegisteredResource(NAT_GATEWAY, "nat", {}, None, f"urn:{NAT_GATEWAY}::nat", True)
SNAPSHOT_POOL = {
    "instanceTypes": ["g5.xlarge"],
    "provisioner": "karpenter",
    "amiFamily": "Bottlerocket",
    "imageCache": "snapshot",
    "snapshotId": "snap-0123456789abcdef0",
    "fastSnapshotRestore": True,
}


def dev(overrides: dict):
    return parse_settings(merge(dev_stack_config(), overrides))


def fleet(overrides: dict | None = None):
    config = yaml.safe_load((ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml").read_text())["config"]
    values = {key.split(":", 1)[1]: value for key, value in config.items() if key.startswith("eks-gpu-inference:")}
    return parse_settings(merge(values, overrides or {}))


def fixed_rows(estimate: cost.CostEstimate) -> list[tuple[str, int, float | None, str]]:
    return [(item.item, item.count, item.usd_per_unit_hour, item.not_priced) for item in estimate.fixed]


def test_the_stack_is_priced_in_its_config_region_with_its_cost_settings_and_warm_nodes():
    """Qwen2.5-7B-Instruct's 15.22 GB of weights (the model catalog) through a NAT gateway at $0.045 a GB: $0.68 a
    cold start; the dev pool's one warm g5.xlarge at $1.006 an hour."""
    settings = dev({"cost": {"spotDiscount": 0.5, "maxMonthlyUsd": 2000}, "gpuNodeGroup": {"warmNodes": 1}})

    estimate = cost.stack_cost([NAT], {"aws:region": "us-east-1"}, settings)

    assert (estimate.region, estimate.currency, estimate.spot_discount, estimate.budget) == (
        "us-east-1",
        "USD",
        0.5,
        2000,
    )
    assert fixed_rows(estimate) == [
        ("NAT gateway", 1, 0.045, ""),
        ("warm GPU nodes of gpu-inference-dev-gpu (g5.xlarge)", 1, 1.006, ""),
    ]
    [nat] = estimate.usage
    assert nat.note == "a cold start downloads 15.22 GB of weights through it: $0.68"


def test_without_settings_nothing_is_taken_from_them():
    estimate = cost.stack_cost([NAT], {"aws:region": "us-east-1"}, None)

    assert (estimate.spot_discount, estimate.budget) == (None, None)
    assert fixed_rows(estimate) == [("NAT gateway", 1, 0.045, "")]
    assert estimate.usage[0].note == ""


def test_the_cold_start_through_a_nat_gateway_is_the_largest_models():
    """The fleet example's largest model is Llama-3.3-70B-Instruct: 70.56 B parameters at 2 bytes, 141.12 GB
    (the model catalog), x $0.045 = $6.35; its smallest, Qwen2.5-1.5B's 3.08 GB, would be $0.14."""
    estimate = cost.stack_cost([NAT], {"aws:region": "us-west-2"}, fleet())

    assert estimate.usage[0].note == "a cold start downloads 141.12 GB of weights through it: $6.35"


def test_each_pool_keeping_warm_nodes_is_a_fixed_cost_of_its_own_at_the_stacks_spot_discount():
    """The l40s pool on Spot: g6e.xlarge's $1.861 less a `cost.spotDiscount` of 0.5 is $0.9305 an hour; p5.48xlarge
    $55.04 On-Demand (us-west-2, the GPU dataset)."""
    settings = fleet({"gpuPools": {"l40s": {"warmNodes": 2, "capacityType": "SPOT"}, "h100": {"warmNodes": 1}}})

    items = warm_node_costs(settings, "us-west-2", 0.5)

    # The l4 pool, first, keeps none: no line for it, and the pools after it are still read.
    assert items == [
        cost.FixedCost("warm GPU nodes of gpu-fleet-gpu-l40s (g6e.xlarge)", 2, 0.9305, ""),
        cost.FixedCost("warm GPU nodes of gpu-fleet-gpu-h100 (p5.48xlarge)", 1, 55.04, ""),
    ]


def test_a_warm_node_in_a_china_region_is_priced_in_yuan_as_its_pool_is():
    """The warm node is the pool's node: priced in the currency its Region is billed in (CN¥6.70086 an hour for a
    g5.xlarge in cn-northwest-1), and named as not priced only where its price is in another currency."""
    settings = dev({"gpuNodeGroup": {"warmNodes": 1}})

    china = cost.stack_cost([], {"aws:region": "cn-northwest-1"}, settings)
    asked_in_dollars = warm_node_costs(settings, "cn-northwest-1", None, "USD")

    assert fixed_rows(china) == [("warm GPU nodes of gpu-inference-dev-gpu (g5.xlarge)", 1, 6.70086, "")]
    assert asked_in_dollars == [
        cost.FixedCost(
            "warm GPU nodes of gpu-inference-dev-gpu (g5.xlarge)",
            1,
            None,
            "its price is in CNY, the region is billed in USD",
        )
    ]


def pool(kinds: list[str], capacity: str = "ON_DEMAND", karpenter: bool = False) -> SimpleNamespace:
    """What `node_hour` reads of a pool's settings."""
    return SimpleNamespace(instance_types=kinds, capacity_type=capacity, karpenter=karpenter)


def test_a_warm_node_without_a_price_says_which_type_and_where():
    """p5e.48xlarge has no on-demand price in us-east-1 (sold as capacity blocks only, facts/price_table.py)."""
    assert node_hour(pool(["p5e.48xlarge", "g5.xlarge"]), "us-east-1", None) == (
        "p5e.48xlarge",
        None,
        "no on-demand price for p5e.48xlarge in us-east-1",
    )
    assert node_hour(pool(["g5.xlarge", "p5e.48xlarge"], "SPOT"), "us-east-1", 0.5) == (
        "g5.xlarge",
        None,
        "no on-demand price for every type of ['g5.xlarge', 'p5e.48xlarge'] in us-east-1",
    )
    assert node_hour(pool(["g5.xlarge"], "SPOT"), "us-east-1", None) == (
        "g5.xlarge",
        None,
        "Spot prices move; set cost.spotDiscount to price Spot nodes",
    )
    # A Karpenter pool none of whose types is priced falls back to its first type, named.
    assert node_hour(pool(["p5e.48xlarge"], karpenter=True), "us-east-1", None)[2] == (
        "no on-demand price for p5e.48xlarge in us-east-1"
    )


def test_a_warm_node_of_a_karpenter_pool_is_its_cheapest_priced_type():
    # g5.xlarge's $1.006 below g5.2xlarge's $1.212 (us-east-1); a type with no price is passed over.
    kind, price, why = node_hour(pool(["g5.2xlarge", "p5e.48xlarge", "g5.xlarge"], karpenter=True), "us-east-1", None)

    assert (kind, price, why) == ("g5.xlarge", prices.Price(1.006, prices.GPU_SOURCE), "")


def test_fast_snapshot_restore_counts_each_snapshot_once_in_every_zone_the_nodes_may_launch_in():
    """One restore per (snapshot, zone): the network the stack creates spans `azCount` zones; in a VPC the config
    names, the GPU nodes launch in the zones of its private subnets, one each at most."""
    created = dev({"gpuNodeGroup": SNAPSHOT_POOL, "network": {"azCount": 2}})
    given = parse_settings(
        merge(
            {key: value for key, value in dev_stack_config().items() if key != "network"},
            {
                "gpuNodeGroup": SNAPSHOT_POOL,
                "cluster": {
                    "vpcId": "vpc-0123456789abcdef0",
                    "privateSubnetIds": ["subnet-0aaaaaaaaaaaaaaa1", "subnet-0aaaaaaaaaaaaaaa2"],
                },
            },
        )
    )
    two_snapshots = fleet(
        {
            "gpuPools": {
                "l4": {**SNAPSHOT_POOL, "instanceTypes": ["g6.xlarge"]},
                "l40s": {**SNAPSHOT_POOL, "instanceTypes": ["g6e.xlarge"], "snapshotId": "snap-0fedcba9876543210"},
                "h100": {**SNAPSHOT_POOL, "instanceTypes": ["p5.48xlarge"]},
            }
        }
    )

    assert cost.fast_snapshot_restores(created) == 2
    assert cost.fast_snapshot_restores(given) == 2
    # Three pools restoring two snapshots across the fleet network's three zones.
    assert cost.fast_snapshot_restores(two_snapshots) == 6
    assert cost.fast_snapshot_restores(dev({})) == 0
