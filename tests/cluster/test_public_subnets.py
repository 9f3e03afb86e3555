"""Nodes in a VPC of your own with only public subnets: each subnet is read at preview to assign public IPv4
addresses, since nodes there without one never join; offline the plan says it could not read them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from conftest import PROGRAM, dev_stack_config, merge

from components.facts.identity import PROJECT
from components.facts.resource_types import GET_SUBNET, NODE_GROUP
from components.stackcheck import runtime
from components.stackcheck.runtime import ProgramRun, run_program

ROOT = Path(__file__).resolve().parents[2]
SUBNETS = ["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"]
PUBLIC_ONLY = {"network": None, "cluster": {"vpcId": "vpc-0123456789abcdef0", "publicSubnetIds": SUBNETS}}


def run_public_only(
    monkeypatch, assigning: dict[str, bool | None], overrides: dict | None = None, run: ProgramRun | None = None
) -> ProgramRun:
    """Run the dev stack in `PUBLIC_ONLY`'s VPC, with DescribeSubnets answering `MapPublicIpOnLaunch` per subnet;
    `run` keeps what was registered when the program raises."""
    original = runtime.RecordingMocks.call

    def call(self, args):
        if args.token == GET_SUBNET:
            self.run.calls.append((args.token, dict(args.args)))
            answer = {"id": args.args["id"]}
            if assigning.get(args.args["id"]) is not None:
                answer["mapPublicIpOnLaunch"] = assigning[args.args["id"]]
            return answer
        return original(self, args)

    monkeypatch.setattr(runtime.RecordingMocks, "call", call)
    config = merge(dev_stack_config(), merge(PUBLIC_ONLY, overrides or {}))
    run = run if run is not None else ProgramRun()
    run_program(
        PROGRAM, {f"{PROJECT}:{key}": value for key, value in config.items()}, project=PROJECT, stack="t", run=run
    )
    return run


def test_public_subnets_that_assign_public_ips_carry_the_nodes(monkeypatch):
    run = run_public_only(monkeypatch, dict.fromkeys(SUBNETS, True))
    assert [args["id"] for token, args in run.calls if token == GET_SUBNET] == SUBNETS
    groups = run.of_type(NODE_GROUP)
    assert len(groups) == 2 and all(group.inputs["subnetIds"] == SUBNETS for group in groups)


def test_a_public_subnet_without_public_ips_fails_naming_it_and_no_node_group_is_registered(monkeypatch):
    run = ProgramRun()
    with pytest.raises(Exception) as error:  # the SDK wraps the component's ValueError
        run_public_only(monkeypatch, {SUBNETS[0]: True, SUBNETS[1]: False}, run=run)
    message = str(error.value)
    assert type(error.value).__name__ == "PublicSubnetsError"  # not rewrapped: printed without a traceback
    assert f"eks-gpu-inference:cluster.publicSubnetIds: [{SUBNETS[1]!r}] do not assign public IPv4" in message
    assert SUBNETS[0] not in message
    assert "allowed: subnets with MapPublicIpOnLaunch true" in message and "privateSubnetIds" in message
    # The cluster's other resources were registered; the node groups, which take the checked subnets, were not.
    assert run.of_type("eks:index:Cluster") and run.of_type(NODE_GROUP) == []


def test_every_public_subnet_without_public_ips_is_named_at_once(monkeypatch):
    with pytest.raises(Exception) as error:  # the SDK wraps the component's ValueError
        run_public_only(monkeypatch, dict.fromkeys(SUBNETS, False))
    assert f"publicSubnetIds: {SUBNETS!r} do not assign public IPv4" in str(error.value)


def test_with_private_subnets_the_public_ones_are_not_read(monkeypatch):
    private = ["subnet-0aaaaaaaaaaaaaaa1", "subnet-0aaaaaaaaaaaaaaa2"]
    run = run_public_only(monkeypatch, dict.fromkeys(SUBNETS, False), {"cluster": {"privateSubnetIds": private}})
    assert not [call for call in run.calls if call[0] == GET_SUBNET]
    # Both node groups are registered, so the check below is not vacuous.
    assert [group.inputs["subnetIds"] for group in run.of_type(NODE_GROUP)] == [private, private]


def test_offline_the_plan_says_it_could_not_check_the_public_subnets(capsys, tmp_path):
    from components.stackcheck.__main__ import main

    stack_file = tmp_path / "Pulumi.public.yaml"
    config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), PUBLIC_ONLY).items()}
    stack_file.write_text(yaml.safe_dump({"config": {"aws:region": "us-west-2", **config}}))
    code = main(
        ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "out")]
        + ["--format", "json"]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 0, document["failures"]
    assert [line for line in document["notChecked"] if line.startswith("subnet ")] == [
        f"subnet {subnet}: whether it assigns public IPv4 addresses to nodes (MapPublicIpOnLaunch) is read from AWS "
        "at preview; not checked offline"
        for subnet in SUBNETS
    ]
    severities = {entry["id"]: entry["severity"] for entry in document["sections"]}
    assert severities["control-plane"] == "warning"


def test_the_dev_plan_lists_the_log_group_and_nothing_it_could_not_check_but_the_quota(capsys, tmp_path):
    from components.stackcheck.__main__ import main

    code = main(["plan", "--project-dir", str(ROOT), "--out", str(tmp_path), "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    assert code == 0
    assert document["logGroups"] == [
        {
            "name": "/aws/eks/gpu-inference-dev/cluster",
            "retentionDays": 90,
            "resource": "gpu-inference-dev-control-plane-logs",
        }
    ]
    # Only the GPU pool's vCPU quota, which needs Service Quotas' answer (tests/pools/test_gpu_quota.py).
    assert [line.split(":")[0] for line in document["notChecked"]] == ["EC2 vCPU quota L-DB2E81BA"]
    severities = {entry["id"]: entry["severity"] for entry in document["sections"]}
    assert severities["control-plane"] == "warning"
