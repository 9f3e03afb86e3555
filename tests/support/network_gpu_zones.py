"""From tests/cluster/test_network_gpu_zones.py, what other test modules use too: `offered_in`, `run_pinned` and what they
need."""

from __future__ import annotations

from conftest import PROGRAM, dev_stack_config, merge

from components.facts.resource_types import GET_AVAILABILITY_ZONES, GET_INSTANCE_TYPE_OFFERINGS
from components.stackcheck.runtime import ProgramRun, run_program

ZONES = {
    "id": "us-east-1",
    "names": ["us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d"],
    "zoneIds": ["use1-az1", "use1-az2", "use1-az4", "use1-az5"],
}


def offered_in(*zone_ids: str) -> dict:
    return {
        "id": "us-east-1",
        "instanceTypes": ["g5.xlarge"] * len(zone_ids),
        "locations": list(zone_ids),
        "locationTypes": ["availability-zone-id"] * len(zone_ids),
    }


def run_pinned(pinned: list[str], offerings: dict, run: ProgramRun | None = None) -> ProgramRun:
    config = merge(dev_stack_config(), {"network": {"availabilityZones": pinned, "azCount": None}})
    return run_program(
        PROGRAM,
        {"aws:region": "us-east-1", **{f"eks-gpu-inference:{key}": value for key, value in config.items()}},
        project="eks-gpu-inference",
        stack="test",
        run=run,
        call_answers={GET_AVAILABILITY_ZONES: ZONES, GET_INSTANCE_TYPE_OFFERINGS: offerings},
    )
