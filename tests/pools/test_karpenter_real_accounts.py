"""What Karpenter needs of a real account and cluster beyond the getting-started guide's resources: a Spot pool's
preview looks up the Spot service-linked role and fails naming the command that creates it; the controller is told
its region and starts after CoreDNS."""

from __future__ import annotations

import json

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.facts.identity import PROJECT
from components.facts.karpenter import SPOT_SERVICE_LINKED_ROLE
from components.facts.resource_types import ADDON, GET_ROLE, HELM_RELEASE, KARPENTER_NODE_CLASS, KARPENTER_NODE_POOL
from components.stackcheck import runtime
from components.stackcheck.runtime import ProgramRun
from tests.support.karpenter_stack import KARPENTER, karpenter_stack_file

SPOT = merge(KARPENTER, {"gpuNodeGroup": {"capacityType": "SPOT"}})
# What the Karpenter guide runs once per account (website/content/en/v1.14/getting-started/getting-started-with-
# karpenter/scripts/step06-add-spot-role.sh at 1d927085), written out here rather than read from the code.
CREATE_SPOT_ROLE = "aws iam create-service-linked-role --aws-service-name spot.amazonaws.com"


@pytest.fixture(scope="module")
def spot_run() -> ProgramRun:
    return run_stack(merge(dev_stack_config(), SPOT))


def test_a_karpenter_spot_pools_preview_looks_the_spot_service_linked_role_up(spot_run):
    assert [args for token, args in spot_run.calls if token == GET_ROLE] == [{"name": "AWSServiceRoleForEC2Spot"}]
    assert SPOT_SERVICE_LINKED_ROLE == "AWSServiceRoleForEC2Spot"
    # The role was found (the mocks answer it as an account that has used Spot does): the pool is registered.
    assert len(spot_run.of_type(KARPENTER_NODE_POOL)) == 1


def test_an_on_demand_karpenter_pool_looks_no_role_up():
    run = run_stack(merge(dev_stack_config(), KARPENTER))

    assert [args for token, args in run.calls if token == GET_ROLE] == []


def test_without_the_spot_role_the_preview_fails_naming_the_command_and_registers_no_pool(monkeypatch):
    original = runtime.RecordingMocks.call

    def call(self, args):
        if args.token == GET_ROLE:
            # IAM's answer for a role the account does not have, as the provider reports a failed read.
            return {}, [("name", "NoSuchEntity: The role with name AWSServiceRoleForEC2Spot cannot be found.")]
        return original(self, args)

    monkeypatch.setattr(runtime.RecordingMocks, "call", call)
    run = ProgramRun()
    with pytest.raises(Exception) as error:
        run_stack(merge(dev_stack_config(), SPOT), run=run)

    assert type(error.value).__name__ == "SpotRoleError"  # a RunError: printed without a traceback
    message = str(error.value)
    assert message.startswith(f"{PROJECT}:gpuNodeGroup.capacityType is SPOT, but the account has no Spot")
    assert "AuthFailure.ServiceLinkedRoleCreationNotPermitted" in message
    assert CREATE_SPOT_ROLE in message
    # The EC2NodeClass waits for the lookup, and the NodePool for its EC2NodeClass: neither is registered.
    assert run.of_type(KARPENTER_NODE_CLASS) == run.of_type(KARPENTER_NODE_POOL) == []


def test_offline_the_plan_says_the_spot_role_was_answered_by_the_mocks(capsys, tmp_path):
    from components.stackcheck.__main__ import main

    stack_file = karpenter_stack_file(tmp_path, {"gpuNodeGroup": {"capacityType": "SPOT"}})
    code = main(["plan", "--stack-file", str(stack_file), "--format", "json", "--out", str(tmp_path / "out")])
    document = json.loads(capsys.readouterr().out)

    assert code == 0, document.get("failures")
    assert [line for line in document["notChecked"] if "IAM role" in line] == [
        "IAM role AWSServiceRoleForEC2Spot: looked up at preview, which fails naming the command that creates it when "
        "the account has none (components/pools/karpenter/pool.py); offline the mocks answer that it exists"
    ]


def test_the_controller_is_told_its_region_rather_than_asking_imds(spot_run):
    [release] = [item for item in spot_run.of_type(HELM_RELEASE) if item.inputs["chart"].endswith("/karpenter")]

    # The mocks' region (stackcheck/mock_answers.py MOCK_REGION, as the dev stack sets no aws:region here).
    assert release.inputs["values"]["controller"]["env"] == [{"name": "AWS_REGION", "value": "us-west-2"}]


def test_the_controller_starts_after_coredns(spot_run):
    [release] = [item for item in spot_run.of_type(HELM_RELEASE) if item.inputs["chart"].endswith("/karpenter")]
    [coredns] = [item for item in spot_run.of_type(ADDON) if item.inputs["addonName"] == "coredns"]

    assert coredns.urn in release.dependencies
