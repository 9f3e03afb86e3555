"""Pinned zones that offer none of the GPU instance types fail while the zones are chosen, from the region's
lookups alone (known in a preview), not once the subnets exist: `pulumi up` stops before creating the VPC."""

from __future__ import annotations

import pytest
from conftest import PROGRAM, dev_stack_config, merge

from components.cluster.network import ZoneError
from components.facts.resource_types import GET_AVAILABILITY_ZONES, GET_INSTANCE_TYPE_OFFERINGS, SUBNET
from components.stackcheck.runtime import ProgramRun, run_program
from tests.support.network_gpu_zones import ZONES, offered_in, run_pinned


def test_pinned_zones_without_the_gpu_types_fail_naming_the_zones_and_the_setting():
    run = ProgramRun()
    with pytest.raises(ZoneError) as raised:  # printed alone by `pulumi up`, without a traceback
        run_pinned(["us-east-1a", "us-east-1b"], offered_in("use1-az4"), run)
    message = str(raised.value)
    assert "none of the network's zones ['us-east-1a', 'us-east-1b'] offers" in message
    assert "pin network.availabilityZones to zones that do" in message
    # No subnet reached the engine: the zone of each comes from the failed choice.
    assert run.of_type(SUBNET) == []


def test_pinned_zones_of_which_one_offers_the_gpu_types_plan():
    run = run_pinned(["us-east-1a", "us-east-1c"], offered_in("use1-az4"))
    assert {s.inputs["availabilityZoneId"] for s in run.of_type(SUBNET)} == {"use1-az1", "use1-az4"}


def test_unpinned_zones_take_the_zones_offering_the_gpu_types_first():
    config = merge(dev_stack_config(), {"network": {"availabilityZones": None, "azCount": 2}})
    run = run_program(
        PROGRAM,
        {"aws:region": "us-east-1", **{f"eks-gpu-inference:{key}": value for key, value in config.items()}},
        project="eks-gpu-inference",
        stack="test",
        call_answers={GET_AVAILABILITY_ZONES: ZONES, GET_INSTANCE_TYPE_OFFERINGS: offered_in("use1-az5")},
    )

    # By zone ID alone the first two would be use1-az1 and use1-az2, and neither offers g5.xlarge.
    assert {s.inputs["availabilityZoneId"] for s in run.of_type(SUBNET)} == {"use1-az1", "use1-az5"}
