"""The offline plan's AWS request section: present for the dev stack, failing the plan on a request AWS would reject."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import change_registrations

from components.facts.resource_types import (
    ADDON,
    AUTOSCALING_TAG,
    EIP,
    EKS_CLUSTER,
    INTERNET_GATEWAY,
    KMS_KEY,
    LAUNCH_TEMPLATE,
    NAT_GATEWAY,
    NODE_GROUP,
    POD_IDENTITY_ASSOCIATION,
    ROLE,
    ROLE_POLICY,
    ROLE_POLICY_ATTACHMENT,
    ROUTE,
    ROUTE_TABLE,
    ROUTE_TABLE_ASSOCIATION,
    SUBNET,
    VPC,
    VPC_ENDPOINT,
)
from components.stackcheck.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def plan(capsys, *args: str) -> tuple[int, str]:
    code = main(["plan", "--project-dir", str(ROOT), *args])
    return code, capsys.readouterr().out


def test_dev_stack_plan_has_the_aws_request_section_with_every_request_valid(capsys, tmp_path):
    code, out = plan(capsys, "--stack", "dev", "--out", str(tmp_path / "json"), "--format", "json")
    document = json.loads(out)

    assert code == document["exitCode"] == 0
    aws_resources = [(r["type"], r["name"]) for r in document["resources"] if r["type"].startswith(("aws:", "eks:"))]
    assert [(c["type"], c["name"]) for c in document["awsRequests"]] == aws_resources
    assert all(c["checked"] and c["passed"] and c["problems"] == [] for c in document["awsRequests"])
    assert {c["type"] for c in document["awsRequests"]} >= {
        NODE_GROUP,
        LAUNCH_TEMPLATE,
        ADDON,
        AUTOSCALING_TAG,
        ROLE,
        ROLE_POLICY_ATTACHMENT,
        KMS_KEY,
        EKS_CLUSTER,
        ROLE_POLICY,
        POD_IDENTITY_ASSOCIATION,
        VPC,
        SUBNET,
        INTERNET_GATEWAY,
        ROUTE_TABLE,
        ROUTE,
        ROUTE_TABLE_ASSOCIATION,
        EIP,
        NAT_GATEWAY,
        VPC_ENDPOINT,
    }

    code, text = plan(capsys, "--stack", "dev", "--out", str(tmp_path / "text"))
    section = text.split("AWS requests (checked against botocore's API models and the documented rules)", 1)[1]
    section = section.split("\n\n", 1)[0]
    assert code == 0
    for name in [name for kind, name in aws_resources if kind == NODE_GROUP]:
        assert re.search(
            rf"^  aws:eks/nodeGroup:NodeGroup\s+{re.escape(name)}\s+eks:CreateNodegroup\s+ok$", section, re.MULTILINE
        )
    assert len(section.strip().splitlines()) == len(aws_resources) + 1  # the header, then one line per resource

    code, markdown = plan(capsys, "--stack", "dev", "--out", str(tmp_path / "md"), "--format", "markdown")
    assert "### AWS requests (botocore API models and documented rules)" in markdown
    cluster = next(name for kind, name in aws_resources if kind == EKS_CLUSTER)
    assert re.search(
        rf"^\| ✅ \| eks:index:Cluster \| {re.escape(cluster)} \| "
        r"eks:CreateCluster \+ iam:CreateRole \+ iam:AttachRolePolicy \| ok \|$",
        markdown,
        re.MULTILINE,
    )


def test_request_aws_rejects_fails_the_plan_naming_resource_member_value_and_rule(capsys, tmp_path, monkeypatch):
    # A value the settings do not constrain: the GPU node group's registered maxSize pushed past the API's 32-bit range.
    def past_32_bits(args):
        if args.typ == NODE_GROUP and args.inputs.get("taints"):
            args.inputs["scalingConfig"] = {**args.inputs["scalingConfig"], "maxSize": float(2**31)}
            return True
        return False

    changed = change_registrations(monkeypatch, past_32_bits)

    code, out = plan(capsys, "--stack", "dev", "--out", str(tmp_path), "--format", "json")
    document = json.loads(out)

    assert code == document["exitCode"] == 1
    expected = (
        f"aws request: aws:eks/nodeGroup:NodeGroup {changed[0]}: eks:CreateNodegroup "
        "scalingConfig.maxSize = 2147483648: is outside the 32-bit integer range -2147483648 to 2147483647 "
        "(eks model, shape Capacity)"
    )
    assert expected in document["failures"]
    (failed,) = [c for c in document["awsRequests"] if not c["passed"]]
    assert (failed["type"], failed["name"]) == (NODE_GROUP, changed[0])
    assert failed["problems"] == [
        {
            "request": "eks:CreateNodegroup",
            "path": "scalingConfig.maxSize",
            "value": 2**31,
            "rule": expected.split(": ", 3)[3],
        }
    ]


def test_failed_request_is_shown_in_text_and_markdown(capsys, tmp_path, monkeypatch):
    def kubelet_refused_label(args):
        if args.typ == NODE_GROUP and args.inputs.get("taints"):
            args.inputs["labels"] = {**args.inputs["labels"], "kubernetes.io/role": "gpu"}
            return True
        return False

    changed = change_registrations(monkeypatch, kubelet_refused_label)

    code, text = plan(capsys, "--stack", "dev", "--out", str(tmp_path / "text"))
    _, markdown = plan(capsys, "--stack", "dev", "--out", str(tmp_path / "md"), "--format", "markdown")

    assert code == 1
    name = changed[0]
    line = next(line for line in text.splitlines() if f"{name} " in line and "CreateNodegroup" in line)
    assert (
        "FAIL: eks:CreateNodegroup labels[\"kubernetes.io/role\"] (key) = 'kubernetes.io/role': the kubelet refuses"
    ) in line
    outcome = text.split("FAILED:", 1)[1]
    assert (
        f'aws request: aws:eks/nodeGroup:NodeGroup {name}: eks:CreateNodegroup labels["kubernetes.io/role"] (key)'
    ) in outcome
    assert re.search(
        rf"^\| ❌ \| aws:eks/nodeGroup:NodeGroup \| {re.escape(name)} \| eks:CreateNodegroup "
        r"\| FAIL: ",
        markdown,
        re.MULTILINE,
    )


def test_subnet_outside_its_vpc_fails_the_plan(capsys, tmp_path, monkeypatch):
    def first_subnet_outside_the_vpc(args):
        if args.typ == SUBNET and not changed:
            args.inputs["cidrBlock"] = "10.1.0.0/24"
            return True
        return False

    changed = change_registrations(monkeypatch, first_subnet_outside_the_vpc)

    code, out = plan(capsys, "--stack", "dev", "--out", str(tmp_path), "--format", "json")
    document = json.loads(out)

    assert code == document["exitCode"] == 1
    (failed,) = [c for c in document["awsRequests"] if not c["passed"]]
    assert (failed["type"], failed["name"]) == (SUBNET, changed[0])
    assert [(p["request"], p["path"], p["value"]) for p in failed["problems"]] == [
        ("ec2:CreateSubnet", "CidrBlock", "10.1.0.0/24")
    ]
    assert failed["problems"][0]["rule"].startswith("is not inside the VPC's block 10.0.0.0/16")
