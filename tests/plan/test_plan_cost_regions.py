"""The dev stack's summary line outside us-west-2: a monthly figure with every node, node volume and fixed-price
resource priced in the region, and what is billed by use listed beside it by name, with its rate where one is known.
Expected figures are worked from the sources' prices (facts/prices.py, scripts/data/instance_prices.json) x 730 hours."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from components.stackcheck.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
USAGE = "billed by use, not counted: NAT gateway data processed (${nat}/GB), log ingestion (/aws/eks/gpu-inference-dev/cluster) ({logs})"


def summary(capsys, tmp_path: Path, region: str, **config) -> dict:
    document = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())
    document["config"]["aws:region"] = region
    document["config"].update({f"eks-gpu-inference:{key}": value for key, value in config.items()})
    stack_file = tmp_path / "Pulumi.dev.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    main(
        [
            "plan",
            "--project-dir",
            str(ROOT),
            "--stack-file",
            str(stack_file),
            "--out",
            str(tmp_path / "out"),
            "--format",
            "json",
        ]
    )
    return json.loads(capsys.readouterr().out)


def test_us_east_1_states_the_whole_cost_with_the_nodes_volumes(capsys, tmp_path):
    document = summary(capsys, tmp_path, "us-east-1")

    # m6i.large 2 x 0.096 x 730 = 140.16 with 2 x 100 GB gp3 x 0.08 = 16.00; g5.xlarge 1.006 x 730 = 734.38 with
    # 100 GB x 0.08 = 8.00; control plane 73, NAT gateway 0.045 x 730 = 32.85, its address 3.65, KMS key 1.00.
    assert document["summary"]["monthlyUsdAtDesired"] == round(140.16 + 16 + 734.38 + 8 + 73 + 32.85 + 3.65 + 1, 2)
    assert document["summary"]["costComplete"] is True
    assert document["summary"]["line"].endswith(
        "$1,009.04 a month at desiredSize; " + USAGE.format(nat="0.045", logs="$0.5/GB")
    )


def test_eu_west_1_states_the_whole_cost_at_ireland_rates(capsys, tmp_path):
    document = summary(capsys, tmp_path, "eu-west-1")

    # m6i.large 2 x 0.107 x 730 = 156.22; g5.xlarge 1.123 x 730 = 819.79; 3 x 100 GB gp3 x 0.088 (Price List,
    # eu-west-1) = 26.40; NAT gateway 0.048 x 730 = 35.04 (Price List offer 20260925174521); control plane 73,
    # address 3.65, KMS 1.00. Log ingestion beside it at $0.57 per GB (AmazonCloudWatch offer of 2026-09-22).
    assert document["summary"]["monthlyUsdAtDesired"] == round(156.22 + 819.79 + 26.40 + 35.04 + 73 + 3.65 + 1, 2)
    assert document["summary"]["costComplete"] is True
    assert document["summary"]["line"].endswith(
        "$1,115.10 a month at desiredSize; " + USAGE.format(nat="0.048", logs="$0.57/GB")
    )


def test_ap_northeast_1_states_the_whole_cost_at_tokyo_rates(capsys, tmp_path):
    document = summary(capsys, tmp_path, "ap-northeast-1")

    # m6i.large 2 x 0.124 x 730 = 181.04; g5.xlarge 1.459 x 730 = 1,065.07; 3 x 100 GB gp3 x 0.096 (Price List,
    # ap-northeast-1) = 28.80; NAT gateway 0.062 x 730 = 45.26; control plane 73, address 3.65, KMS 1.00.
    assert document["summary"]["monthlyUsdAtDesired"] == round(181.04 + 1065.07 + 28.80 + 73 + 45.26 + 3.65 + 1, 2)
    assert document["summary"]["costComplete"] is True
    assert document["summary"]["line"].endswith(
        "$1,397.82 a month at desiredSize; " + USAGE.format(nat="0.062", logs="$0.76/GB")
    )
    [nat] = [entry for entry in document["cost"]["usage"] if entry["item"] == "NAT gateway data processed"]
    # The model's weights, 15.22 GB, through the gateway at $0.062 per GB: $0.94 a cold start.
    assert nat["note"] == "a cold start downloads 15.22 GB of weights through it: $0.94"


def test_a_china_region_prices_the_nodes_in_yuan_and_says_so(capsys, tmp_path):
    """With a compile cache, so the one China plan also shows its grant in the partition's ARNs: S3 ARNs in the
    China Regions begin `arn:aws-cn:s3:::` (AWS docs, "Identify AWS resources with Amazon Resource Names")."""
    vllm = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())["config"]["eks-gpu-inference:vllm"]
    vllm["compileCache"] = {"enabled": True}
    document = summary(capsys, tmp_path, "cn-northwest-1", cost={"maxMonthlyUsd": 1000}, vllm=vllm)

    cost = document["cost"]
    assert cost["currency"] == document["summary"]["currency"] == "CNY"
    # m6i.large 2 x CN¥0.67775 x 730 = 989.52; g5.xlarge CN¥6.70086 x 730 = 4,891.63 (the China dataset).
    assert document["summary"]["monthlyUsdAtDesired"] == round(2 * 0.67775 * 730 + 6.70086 * 730, 2)
    assert document["summary"]["line"].split("; ")[2].startswith("at least CN¥5,881.14 a month at desiredSize")
    # The fixed prices are US dollar ones of the aws partition: named, not converted.
    assert {"EKS control plane", "NAT gateway", "KMS key"} <= set(document["summary"]["costNotPriced"])
    # The budget is in dollars: CN¥5,881.14 at desiredSize is not compared with $1,000 either way.
    [budget] = [found for found in document["verdicts"] if found["name"] == "cost-within-budget"]
    assert budget["passed"] and budget["message"].startswith("not checked: the region is billed in CNY")
    [grant] = [item for item in document["resources"] if item["name"].endswith("-compile-cache-access")]
    arns = [arn for statement in json.loads(grant["inputs"]["policy"])["Statement"] for arn in statement["Resource"]]
    assert len(arns) == 2 and all(arn.startswith("arn:aws-cn:s3:::") for arn in arns)
