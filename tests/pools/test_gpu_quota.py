"""The GPU pools' vCPUs against the account's EC2 quotas (components/pools/quota.py): the arithmetic of each case in
its id, the program failing its preview before any GPU node group exists, and the plan saying it did not check.

vCPUs per node from the GPU catalog: g5.xlarge, g6.xlarge and g6e.xlarge 4, g5.2xlarge 8, p5.48xlarge 192.
"""

from __future__ import annotations

import json

import pytest
from conftest import PROGRAM, dev_stack_config

from components.facts.identity import PROJECT
from components.facts.resource_types import GET_SERVICE_QUOTA, NODE_GROUP
from components.pools.quota import PoolDemand, quota_findings
from components.stackcheck import runtime
from components.stackcheck.runtime import ProgramRun, run_program

G = "L-DB2E81BA"
G_SPOT = "L-3819A6DF"
P = "L-417A185B"


def pool(key="gpuNodeGroup", types=("g5.xlarge",), capacity="ON_DEMAND", desired=1, maximum=2) -> PoolDemand:
    return PoolDemand(f"{PROJECT}:{key}", tuple(types), capacity, desired, maximum)


@pytest.mark.parametrize(
    ("demands", "limits", "errors", "warnings"),
    [
        pytest.param([pool()], {G: None}, 0, 0, id="quota not read: not judged"),
        pytest.param([pool()], {G: 8.0}, 0, 0, id="1 x 4 at desired, 2 x 4 = 8 at max, 4 + 4 replacing: all fit 8"),
        pytest.param([pool()], {G: 4.0}, 0, 2, id="4 fits at desired; 8 at max and 8 replacing warn"),
        pytest.param([pool()], {G: 0.0}, 1, 0, id="a new account's 0: 4 at desired fails"),
        pytest.param([pool(desired=0)], {G: 0.0}, 0, 1, id="0 at desired fits; 8 at max warns"),
        pytest.param(
            [pool("gpuPools.l4", ("g6.xlarge",), desired=2, maximum=2), pool("gpuPools.l40s", ("g6e.xlarge",))],
            {G: 10.0},
            1,
            0,
            id="two pools on one quota: 2 x 4 + 1 x 4 = 12 > 10",
        ),
        pytest.param(
            [pool("gpuPools.h100", ("p5.48xlarge",), maximum=1), pool("gpuPools.l4", ("g6.xlarge",), maximum=1)],
            {P: 192.0, G: 8.0},
            0,
            1,
            id="P and G apart: 192 of 192 fits, replacing the H100 pool needs 384",
        ),
    ],
)
def test_each_quota_is_judged_by_the_vcpus_its_pools_ask(demands, limits, errors, warnings):
    found_errors, found_warnings = quota_findings(demands, limits, "us-west-2")

    assert (len(found_errors), len(found_warnings)) == (errors, warnings), (found_errors, found_warnings)


def test_a_shortfall_names_the_pools_the_quota_and_the_request_command():
    [error], _ = quota_findings(
        [pool("gpuPools.l4", ("g6.xlarge",), desired=2), pool("gpuPools.l40s", ("g6e.xlarge",))], {G: 4.0}, "us-west-2"
    )

    assert error == (
        f"{PROJECT}:gpuPools.l4.desiredSize 2 x 4 vCPUs + {PROJECT}:gpuPools.l40s.desiredSize 1 x 4 vCPUs = 12 "
        f"vCPUs, but quota {G} (Running On-Demand G and VT instances) is 4 vCPUs in us-west-2: the node group would "
        "end CREATE_FAILED; request 12 or more: aws service-quotas request-service-quota-increase --service-code ec2 "
        f"--quota-code {G} --desired-value 12 --region us-west-2"
    )


def test_spot_pools_draw_on_the_spot_quota_and_a_pool_of_several_types_on_its_largest():
    spot = pool(types=("g5.xlarge", "g5.2xlarge"), capacity="SPOT", desired=1)

    assert spot.quota.code == G_SPOT and spot.vcpus_per_node == 8
    [error], _ = quota_findings([spot], {G_SPOT: 4.0, G: 100.0}, "us-east-1")
    assert "1 x 8 vCPUs = 8 vCPUs, but quota L-3819A6DF (All G and VT Spot Instance Requests) is 4" in error


def test_warnings_say_what_max_size_and_a_replacement_would_need():
    _, warnings = quota_findings([pool()], {G: 4.0}, "us-west-2")

    assert warnings[0].startswith(f"the pools on quota {G} reach 8 vCPUs at maxSize, and quota {G}")
    assert warnings[1].startswith(
        f"replacing {PROJECT}:gpuNodeGroup (a new instance type, subnets or disk) creates the new group before the "
        "old one is deleted: 8 vCPUs for a while"
    )


def run_with_quota(monkeypatch, value: float | None, run: ProgramRun | None = None) -> ProgramRun:
    """The dev stack with Service Quotas answering `value` for every quota (None: no answer, as offline)."""
    original = runtime.RecordingMocks.call

    def call(self, args):
        if args.token == GET_SERVICE_QUOTA:
            self.run.calls.append((args.token, dict(args.args)))
            return {} if value is None else {"value": value, "quotaCode": args.args["quotaCode"]}
        return original(self, args)

    monkeypatch.setattr(runtime.RecordingMocks, "call", call)
    run = run if run is not None else ProgramRun()
    config = {f"{PROJECT}:{key}": value for key, value in dev_stack_config().items()}
    run_program(PROGRAM, {**config, "aws:region": "us-west-2"}, project=PROJECT, stack="t", run=run)
    return run


def test_the_program_reads_the_pools_quota_from_service_quotas(monkeypatch):
    run = run_with_quota(monkeypatch, 64.0)

    assert [args for token, args in run.calls if token == GET_SERVICE_QUOTA] == [{"serviceCode": "ec2", "quotaCode": G}]
    assert len(run.of_type(NODE_GROUP)) == 2


def test_a_quota_too_small_fails_the_preview_before_any_gpu_node_group_exists(monkeypatch):
    run = ProgramRun()
    with pytest.raises(Exception) as error:
        run_with_quota(monkeypatch, 0.0, run=run)

    assert type(error.value).__name__ == "QuotaError"  # printed without a traceback
    assert f"{PROJECT}:gpuNodeGroup.desiredSize 1 x 4 vCPUs = 4 vCPUs, but quota {G}" in str(error.value)
    # The system node group was registered; the GPU node group, which waits for the check, was not.
    assert [group.name for group in run.of_type(NODE_GROUP)] == ["gpu-inference-dev-system"]


def test_offline_the_plan_says_the_quota_was_not_checked(capsys, tmp_path):
    from components.stackcheck.__main__ import main

    code = main(["plan", "--stack", "dev", "--format", "json", "--out", str(tmp_path)])
    document = json.loads(capsys.readouterr().out)

    assert code == 0
    assert [line for line in document["notChecked"] if "quota" in line] == [
        f"EC2 vCPU quota {G}: the GPU pools' vCPUs are judged against it at preview (components/pools/quota.py), the "
        "quota read from Service Quotas; not checked offline"
    ]


def test_a_karpenter_pool_is_not_judged_against_the_quota_it_launches_into_itself(monkeypatch):
    # Karpenter launches the instances itself: a shortfall leaves pods Pending, no node group CREATE_FAILED.
    original = runtime.RecordingMocks.call
    asked: list[str] = []

    def call(self, args):
        if args.token == GET_SERVICE_QUOTA:
            asked.append(args.args["quotaCode"])
            return {"value": 0.0}
        return original(self, args)

    monkeypatch.setattr(runtime.RecordingMocks, "call", call)
    config = dev_stack_config()
    config["gpuNodeGroup"] = {**config["gpuNodeGroup"], "provisioner": "karpenter"}
    run_program(
        PROGRAM,
        {f"{PROJECT}:{key}": value for key, value in config.items()},
        project=PROJECT,
        stack="t",
        run=ProgramRun(),
    )

    assert asked == []
