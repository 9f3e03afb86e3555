"""The plan's cost estimate: each registered node group priced at its sizes, the fixed costs, the totals, and
verdict 16 against `cost.maxMonthlyUsd`; text and markdown open with the summary line."""

from __future__ import annotations

import dataclasses
import json
from datetime import date
from pathlib import Path

import pytest
import yaml

from components.facts.resource_types import EKS_CONTROL_PLANE, LAUNCH_TEMPLATE, NODE_GROUP, S3_BUCKET, VPC_ENDPOINT
from components.placement.budget import budget_verdict
from components.settings import ConfigError
from components.settings.stack import parse_settings
from components.stackcheck.__main__ import main
from components.stackcheck.plan import cost
from components.stackcheck.runtime import RegisteredResource

ROOT = Path(__file__).resolve().parents[2]
LINE = (
    "$1,009.04 a month at desiredSize; billed by use, not counted: NAT gateway data processed ($0.045/GB), log "
    "ingestion (/aws/eks/gpu-inference-dev/cluster) ($0.5/GB)"
)
"""The dev stack's cost in its summary line: m6i.large 2 x 0.096 x 730 = 140.16 with 2 x 100 GB of gp3 at $0.08
(the us-west-2 Price List) = 16.00, g5.xlarge 1.006 x 730 = 734.38 with 100 GB = 8.00, control plane 73, NAT
gateway 0.045 x 730 = 32.85, its address 3.65, KMS key 1.00: 1,009.04; log ingestion beside it at $0.50 a GB, the
rate of the us-west-2 charge "$0.50 per GB custom log data ingested in Standard log class - US West (Oregon)" in the
FOCUS sample's month of AWS billing (September 2024)."""


def plan(capsys, tmp_path: Path, overrides: dict, *args: str) -> tuple[int, str]:
    """Plan the dev stack with `overrides` (config keys with the project prefix); exit code and stdout."""
    document = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())
    document["config"].update(overrides)
    stack_file = tmp_path / "Pulumi.dev.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    code = main(
        ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "out"), *args]
    )
    return code, capsys.readouterr().out


def test_dev_plan_json_prices_the_g5_pool_for_us_west_2(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, {}, "--format", "json")
    document = json.loads(out)
    estimate = document["cost"]

    assert code == 0, document["failures"]
    assert estimate["region"] == "us-west-2"
    gpu = next(pool for pool in estimate["pools"] if pool["instanceType"] == "g5.xlarge")
    assert gpu["usdPerNodeHour"] == 1.006 and gpu["nodes"] == {"min": 0, "desired": 1, "max": 2}
    # 1.006 x 730 = 734.38 and its 100 GB gp3 root volume at $0.08 = 8.00, a node
    assert gpu["volumesPerNodeMonth"] == 8.0
    assert gpu["monthlyUsd"] == {"min": 0.0, "desired": 742.38, "max": 1484.76}
    system = next(pool for pool in estimate["pools"] if pool["instanceType"] == "m6i.large")
    # m6i.large in us-west-2 from the 2024 regional dataset: 2 x 0.096 x 730 = 140.16, and 2 x 100 GB x 0.08 = 16
    assert system["usdPerNodeHour"] == 0.096 and system["monthlyUsd"]["desired"] == 156.16
    fixed = {item["item"]: (item["count"], item["usdPerUnitHour"]) for item in estimate["fixed"]}
    # natGateways: single, with its Elastic IP
    assert fixed == {
        "EKS control plane": (1, 0.1),
        "NAT gateway": (1, 0.045),
        "public IPv4 address (Elastic IP)": (1, 0.005),
        "KMS key": (1, 1 / 730),  # $1 a month, prorated hourly
    }
    assert estimate["monthlyUsd"]["desired"] == round(742.38 + 156.16 + 73 + 32.85 + 3.65 + 1, 2)
    assert estimate["idleFloorMonthlyUsd"] == estimate["monthlyUsd"]["min"] == round(156.16 + 73 + 32.85 + 3.65 + 1, 2)
    assert document["summary"]["monthlyUsdAtDesired"] == estimate["monthlyUsd"]["desired"]
    # Every node, volume and fixed-price resource has a dated us-west-2 price: nothing is left out of the figure.
    assert document["summary"]["costComplete"] is True
    assert document["summary"]["costNotPriced"] == []
    [budget] = [found for found in document["verdicts"] if found["id"] == 16]
    assert (budget["name"], budget["passed"]) == ("cost-within-budget", True)


def test_the_fleet_example_prices_each_of_its_gpu_pools(capsys, tmp_path):
    fleet = ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml"
    code = main(
        ["plan", "--project-dir", str(ROOT), "--stack-file", str(fleet), "--out", str(tmp_path), "--format", "json"]
    )
    estimate = json.loads(capsys.readouterr().out)["cost"]

    assert code == 0
    gpu = {
        pool["instanceType"]: pool["usdPerNodeHour"]
        for pool in estimate["pools"]
        if pool["instanceType"] != "m6i.large"
    }
    assert gpu == {"g6.xlarge": 0.8048, "g6e.xlarge": 1.861, "p5.48xlarge": 55.04}
    desired = sum(pool["monthlyUsd"]["desired"] or 0 for pool in estimate["pools"])
    fixed = sum(item["monthlyUsd"] for item in estimate["fixed"])
    assert estimate["monthlyUsd"]["desired"] == pytest.approx(desired + fixed, abs=0.02)


def test_a_budget_below_the_cost_at_max_size_fails_verdict_16_and_the_summary_says_so(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, {"eks-gpu-inference:cost": {"maxMonthlyUsd": 100}}, "--quiet")

    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("FAILED (exit 1): 1 check(s) failed, verdict(s) 16 cost-within-budget; ")
    assert lines[0].endswith("warning(s); " + LINE)
    assert lines[1:] == [
        "  - verdict 16 cost-within-budget: $1,829.50 a month at every pool's maxSize is over the budget "
        "of $100.00 (cost.maxMonthlyUsd); lower maxSize, choose cheaper instance types, or raise the budget"
    ]


def test_markdown_quiet_is_the_summary_line_and_the_failures(capsys, tmp_path):
    code, out = plan(
        capsys, tmp_path, {"eks-gpu-inference:cost": {"maxMonthlyUsd": 100}}, "--quiet", "--format", "markdown"
    )

    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("**FAILED (exit 1): 1 check(s) failed, verdict(s) 16 cost-within-budget; ")
    assert lines[1:] == [
        "",
        "- verdict 16 cost-within-budget: $1,829.50 a month at every pool's maxSize is over the budget of $100.00 (cost.maxMonthlyUsd); lower maxSize, choose cheaper instance types, or raise the budget",
    ]


def test_markdown_opens_with_the_summary_and_shows_each_pool_at_each_size(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, {}, "--format", "markdown")

    assert code == 0
    assert out.startswith("**OK (exit 0): every check holds; 3 warning(s); " + LINE + "**\n")
    assert out.index("### Warnings") < out.index("### Cost (us-west-2, 730 hours a month)") < out.index("### Resources")
    assert (
        "\n| `gpu-inference-dev-gpu` | `g5.xlarge` | ON_DEMAND | $1.006 | $8.00 | 0/1/2 | $0.00 | $742.38 | $1,484.76 |\n"
        in out
    )
    # system 2 x (70.08 + 8.00) + control plane, NAT gateway, its address and the KMS key 110.50
    assert "\n| at minSize (idle floor) | $266.66 |\n" in out


def test_text_opens_with_the_summary_and_the_warnings_and_shows_the_cost_section(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, {"eks-gpu-inference:cost": {"maxMonthlyUsd": 5000}})

    assert code == 0
    assert out.startswith("OK (exit 0): every check holds; 3 warning(s); " + LINE + "\n")
    assert out.index("\nWarnings\n") < out.index("\nResources\n") < out.index("\nCost (") < out.index("\nGPU guard\n")
    assert "the totals leave out what is not priced" not in out
    assert "\n  at minSize (idle floor)  $266.66\n" in out
    # system 3 x 78.08 + GPU 2 x 742.38 + fixed 110.50
    assert "\n  at maxSize" + " " * 15 + "$1,829.50\n" in out
    assert "PASS  16 cost-within-budget: $1,829.50 a month at every pool's maxSize is within the budget" in out


def pool_cost(stack, overrides: dict, spot_discount: float | None = None) -> cost.CostEstimate:
    return cost.estimate(stack(overrides).resources, "us-west-2", "aws", spot_discount=spot_discount)


def test_a_spot_pool_is_not_priced_without_a_discount_and_priced_with_one(stack):
    spot = {"gpuNodeGroup": {"capacityType": "SPOT"}}

    unpriced = next(pool for pool in pool_cost(stack, spot).pools if pool.instance_type == "g5.xlarge")
    priced = next(pool for pool in pool_cost(stack, spot, 0.6).pools if pool.instance_type == "g5.xlarge")

    assert unpriced.usd_per_node_hour is None and "cost.spotDiscount" in unpriced.not_priced
    assert priced.usd_per_node_hour == pytest.approx(1.006 * 0.4) and not priced.not_priced


def test_a_spot_pool_of_several_types_is_priced_at_the_dearest_and_an_on_demand_one_at_the_first():
    scaling = {"scalingConfig": {"minSize": 0, "desiredSize": 1, "maxSize": 1}}
    types = {"instanceTypes": ["g6.xlarge", "g5.xlarge"], **scaling}
    spot = resource(NODE_GROUP, {**types, "capacityType": "SPOT"}, "spot")
    on_demand = resource(NODE_GROUP, {**types, "capacityType": "ON_DEMAND"}, "on-demand")

    [spot_pool, on_demand_pool] = cost.estimate([spot, on_demand], "us-east-1", "aws", spot_discount=0.5).pools

    assert (spot_pool.instance_type, spot_pool.usd_per_node_hour) == ("g5.xlarge", pytest.approx(1.006 * 0.5))
    assert (on_demand_pool.instance_type, on_demand_pool.usd_per_node_hour) == ("g6.xlarge", 0.8048)


def test_interface_endpoints_are_counted_in_each_zone_and_nat_gateways_per_zone(stack):
    estimate = pool_cost(stack, {"network": {"interfaceEndpoints": True, "natGateways": "perAz"}})
    fixed = {item.item: item for item in estimate.fixed}

    assert fixed["NAT gateway"].count == fixed["public IPv4 address (Elastic IP)"].count == 3  # azCount 3
    endpoints = fixed["interface endpoint (per zone)"]
    assert endpoints.count % 3 == 0 and endpoints.count > 0
    assert endpoints.usd_per_unit_hour is None and endpoints.not_priced == "no price in us-west-2"


def resource(type_: str, inputs: dict, name: str = "x") -> RegisteredResource:
    return RegisteredResource(type_, name, inputs, None, f"urn:{type_}::{name}", True)


def test_an_interface_endpoint_is_priced_per_zone_hour_where_its_region_has_a_rate():
    """$0.01 per interface endpoint per Availability Zone hour in US East (N. Virginia) (facts/prices.py, AWS
    PrivateLink pricing as quoted there): two endpoints in three zones are six zone-hours each hour, $43.80 a
    month."""
    endpoint = {"vpcEndpointType": "Interface", "subnetIds": ["subnet-a", "subnet-b", "subnet-c"]}
    endpoints = [resource(VPC_ENDPOINT, endpoint, "ecr-api"), resource(VPC_ENDPOINT, endpoint, "ecr-dkr")]

    [fixed] = cost.estimate(endpoints, "us-east-1", "aws").fixed

    assert (fixed.item, fixed.count, fixed.usd_per_unit_hour, fixed.not_priced) == (
        "interface endpoint (per zone)",
        6,
        0.01,
        "",
    )
    assert fixed.monthly == pytest.approx(43.80)


def test_a_cluster_past_standard_support_is_billed_extended_unless_its_policy_is_standard():
    past = date(2030, 1, 1)
    default = cost.estimate([resource(EKS_CONTROL_PLANE, {"version": "1.33"})], "us-east-1", "aws", today=past)
    standard = cost.estimate(
        [resource(EKS_CONTROL_PLANE, {"version": "1.33", "upgradePolicy": {"supportType": "STANDARD"}})],
        "us-east-1",
        "aws",
        today=past,
    )

    assert [(item.item, item.usd_per_unit_hour) for item in default.fixed] == [
        ("EKS control plane (extended support)", 0.6)
    ]
    assert [(item.item, item.usd_per_unit_hour) for item in standard.fixed] == [("EKS control plane", 0.1)]


def test_every_node_group_is_a_pool_of_its_own_whatever_the_config_form():
    groups = [
        resource(
            NODE_GROUP, {"instanceTypes": [kind], "scalingConfig": {"minSize": 1, "desiredSize": 2, "maxSize": 4}}, kind
        )
        for kind in ("g6.xlarge", "g5.2xlarge", "t3.medium")
    ]
    gateway = resource(VPC_ENDPOINT, {"vpcEndpointType": "Gateway", "subnetIds": []})

    estimate = cost.estimate([*groups, gateway], "us-east-1", "aws")

    assert [pool.usd_per_node_hour for pool in estimate.pools] == [0.8048, 1.212, 0.0416]
    assert estimate.total("max") == pytest.approx((0.8048 + 1.212 + 0.0416) * 4 * 730)
    assert estimate.fixed == []  # a gateway endpoint costs nothing


def test_a_node_group_without_a_launch_template_prices_the_root_volume_of_its_disk_size():
    """Without a launch template EKS gives each node one gp3 root volume of `diskSize` GiB (EKS API,
    CreateNodegroup): 100 GB at us-east-1's $0.08 per GB-month (facts/prices.py, EBS pricing) is $8.00 a node a
    month; a node group that gives neither is named, its volume EKS's default and unsized."""
    scaling = {"instanceTypes": ["m6i.large"], "scalingConfig": {"minSize": 1, "desiredSize": 1, "maxSize": 1}}
    sized = resource(NODE_GROUP, {**scaling, "diskSize": 100}, "sized")
    unsized = resource(NODE_GROUP, scaling, "unsized")

    [with_disk, without] = cost.estimate([sized, unsized], "us-east-1", "aws").pools

    assert (with_disk.disk_per_node_month, with_disk.disk_not_priced) == (pytest.approx(8.0), "")
    assert without.disk_not_priced == "no volume size registered (EKS's default root volume)"


def test_a_volume_without_a_dated_price_in_its_region_says_so():
    """No gp3 price is dated for eu-central-1 (facts/prices.py `GP3` lists us-east-1, us-west-2, eu-west-1 and
    ap-northeast-1), and us-west-2's source prices storage only, not throughput above the included 125 MB/s."""
    pool = {"instanceTypes": ["m6i.large"], "scalingConfig": {"minSize": 1, "desiredSize": 1, "maxSize": 1}}

    [frankfurt] = cost.estimate([resource(NODE_GROUP, {**pool, "diskSize": 100})], "eu-central-1", "aws").pools
    [oregon] = cost.estimate(
        [
            dataclasses.replace(
                resource(LAUNCH_TEMPLATE, {"blockDeviceMappings": [{"ebs": {"volumeSize": 100, "throughput": 500}}]}),
                id="lt-0123456789abcdef0",
            ),
            resource(NODE_GROUP, {**pool, "launchTemplate": {"id": "lt-0123456789abcdef0"}}),
        ],
        "us-west-2",
        "aws",
    ).pools

    assert frankfurt.disk_not_priced == "no dated gp3 price for eu-central-1"
    assert oregon.disk_not_priced == "no dated IOPS or throughput above the free baseline price for us-west-2"


def test_an_unpriced_pool_says_why_for_its_own_region():
    """The price table names the pairs it has no price for, and why: m6a.large in eu-north-1 is not offered as of
    the source's date, and mx-central-1 opened after the sources were made (facts/price_table.py); the plan's
    reason is that region's, not a generic one."""
    pool = {"instanceTypes": ["m6a.large"], "scalingConfig": {"minSize": 1, "desiredSize": 1, "maxSize": 1}}

    [sweden] = cost.estimate([resource(NODE_GROUP, pool)], "eu-north-1", "aws").pools
    [mexico] = cost.estimate([resource(NODE_GROUP, pool)], "mx-central-1", "aws").pools

    assert sweden.not_priced == (
        "no on-demand price for m6a.large in eu-north-1: not offered there as of its price source's date (the source "
        "covers the region and lists no price)"
    )
    assert mexico.not_priced == (
        "no on-demand price for m6a.large in mx-central-1: no price source covers the region (it opened after the "
        "sources were made)"
    )


def test_budget_verdict_fails_over_the_budget_at_max_and_warns_over_it_at_desired():
    failed, warnings = budget_verdict(1000.0, at_desired=1200.0, at_max=2400.0, not_priced=[])
    held, none = budget_verdict(3000.0, at_desired=1200.0, at_max=2400.0, not_priced=[])
    unset, _ = budget_verdict(None, at_desired=1200.0, at_max=2400.0, not_priced=[])

    assert (failed.name, failed.passed) == ("cost-within-budget", False)
    assert warnings == ["$1,200.00 a month at desiredSize is over the budget of $1,000.00 (cost.maxMonthlyUsd)"]
    assert held.passed and none == []
    assert unset.passed and unset.message == "no budget set (cost.maxMonthlyUsd)"


def test_the_queue_empty_floor_counts_every_gpu_pool_at_zero_nodes():
    system = cost.PoolCost("system", "m6i.large", "ON_DEMAND", {"min": 2, "desired": 2, "max": 3}, 0.096)
    gpu = cost.PoolCost("gpu", "g5.xlarge", "ON_DEMAND", {"min": 1, "desired": 1, "max": 2}, 1.006)
    fixed = [cost.FixedCost("EKS control plane", 1, 0.10)]
    estimate = cost.CostEstimate("us-west-2", pools=[system, gpu], fixed=fixed)

    assert estimate.queue_empty_floor is None  # no queue-fed server: no such line
    estimate.queue_fed = True
    # 2 x 0.096 x 730 = 140.16 and the control plane 73; the g5.xlarge pool at zero, though its minSize is 1.
    assert estimate.queue_empty_floor == pytest.approx(140.16 + 73)
    assert estimate.total("min") == pytest.approx(140.16 + 73 + 1.006 * 730)


def test_budget_verdict_does_not_compare_yuan_with_dollars():
    # A China stack's totals are yuan: over the dollar budget by number (CN¥9,000 > $1,000) yet not failed, and
    # under it by number (CN¥900) yet not passed as within it: the verdict says it was not checked, and warns.
    over, over_warnings = budget_verdict(1000.0, at_desired=5000.0, at_max=9000.0, not_priced=[], currency="CNY")
    under, _ = budget_verdict(1000.0, at_desired=500.0, at_max=900.0, not_priced=[], currency="CNY")

    assert over.passed and under.passed
    assert over.message.startswith("not checked: the region is billed in CNY and the budget of $1,000.00")
    assert "within the budget" not in under.message and under.message == over.message
    assert over_warnings == [over.message]


def test_cost_settings_name_the_key_the_value_and_what_is_allowed():
    with pytest.raises(ConfigError) as raised:
        parse_settings({"cost": {"spotDiscount": 1.5, "maxMonthlyUsd": 0}})

    assert [str(problem) for problem in raised.value.problems] == [
        "eks-gpu-inference:cost.spotDiscount: invalid value 1.5; allowed: a fraction with 0 <= x < 1, such as 0.6 "
        "for 60% off",
        "eks-gpu-inference:cost.maxMonthlyUsd: invalid value 0.0; allowed: a number of US dollars above 0",
    ]


def test_a_pool_is_named_by_its_node_group_name_when_one_is_given_else_by_its_resource():
    """A node group given `nodeGroupName` (pulumi-aws `aws.eks.NodeGroup`, as a program importing the components
    may register one beside them) is the node group of that name in EKS, so the cost names it so; one named by
    `nodeGroupNamePrefix` alone, as the stack's are, by its resource name."""
    scaling = {"scalingConfig": {"minSize": 0, "desiredSize": 1, "maxSize": 1}, "instanceTypes": ["g6.xlarge"]}
    named = resource(NODE_GROUP, {**scaling, "nodeGroupName": "inference-gpu"}, "gpu")
    prefixed = resource(NODE_GROUP, {**scaling, "nodeGroupNamePrefix": "system-"}, "system")

    pools = cost.estimate([named, prefixed], "us-east-1", "aws").pools

    assert sorted(pool.name for pool in pools) == ["inference-gpu", "system"]


def test_the_json_document_says_why_a_pool_or_a_charge_is_not_priced():
    """What the plan cannot price it says in its JSON too, where a reader of `--format json` looks: a Spot pool
    without `cost.spotDiscount` (Spot prices move), and S3 storage in eu-west-1, whose per-GB-month rate no dated
    source here gives (facts/usage_price_table.py has S3 Standard for us-east-1 and us-west-2 only)."""
    scaling = {"scalingConfig": {"minSize": 0, "desiredSize": 1, "maxSize": 1}, "instanceTypes": ["g6.xlarge"]}
    spot = resource(NODE_GROUP, {**scaling, "capacityType": "SPOT"}, "spot")
    bucket = resource(S3_BUCKET, {}, "weights")

    document = cost.estimate([spot, bucket], "eu-west-1", "aws").to_dict()

    assert [(pool["name"], pool["notPriced"]) for pool in document["pools"]] == [
        ("spot", "Spot prices move; set cost.spotDiscount to price Spot nodes")
    ]
    assert document["usage"] == [
        {
            "item": "S3 storage (weights)",
            "rate": None,
            "unit": None,
            "note": None,
            "notPriced": "no dated per-GB-month rate of S3 Standard for eu-west-1",
        }
    ]


def test_fast_snapshot_restore_is_a_fixed_cost_per_snapshot_and_zone():
    """Fast Snapshot Restore is billed per Availability Zone it is enabled in, one DSU for each snapshot and zone,
    $0.75 a DSU-hour in us-east-1 (How AWS Pricing Works, Amazon EBS, as of 2026-12-04): three (snapshot, zone)
    pairs are 3 x $0.75 = $2.25 an hour."""
    estimate = cost.estimate([], "us-east-1", "aws", fast_snapshot_restores=3)

    [restore] = [item for item in estimate.fixed if "Fast Snapshot Restore" in item.item]
    assert (restore.item, restore.count, restore.usd_per_unit_hour) == (
        "EBS Fast Snapshot Restore (snapshot x zone)",
        3,
        0.75,
    )
