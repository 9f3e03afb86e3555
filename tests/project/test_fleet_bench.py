"""The pieces of benchmarks/fleet_bench.py: the two fleets it plans are stacks of the fleet form the settings
accept, and the 64-model one plans with every check holding and no warning but its single replicas' (the timing
is a benchmark, not a test)."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import plan_stack_file

from benchmarks import fleet_bench
from components.settings import parse_stack_config
from components.stackcheck.stack_config import load_stack_config

# The benchmark's target (docs/development.md, "Speed"): a fleet of 64 models against one of 1.
SIZES = [(1, 1), (64, 4)]


@pytest.mark.parametrize(("models", "pools"), SIZES, ids=["1 model", "64 models"])
def test_the_written_fleet_is_a_stack_the_settings_accept_each_model_its_own_and_a_node_each(tmp_path, models, pools):
    stack_file = fleet_bench.write_stack_file(tmp_path, models, pools)

    config = load_stack_config(fleet_bench.ROOT, stack_file=stack_file)  # read as the plan reads it
    settings = parse_stack_config(config.values)

    assert config.stack == f"fleet-{models}"
    assert len(settings.pools) == pools and len(settings.servers) == models
    assert len({server.name for server in settings.servers}) == models
    assert len({server.settings.namespace for server in settings.servers}) == models
    served = Counter(server.pool.key for server in settings.servers)
    assert set(served.values()) == {models // pools}  # spread evenly
    for pool in settings.pools:
        # A g6.xlarge has one NVIDIA L4 (aws.amazon.com/ec2/instance-types/g6/): a node per model's replica.
        assert pool.settings.instance_types == ["g6.xlarge"]
        assert pool.settings.min_size == pool.settings.desired_size == pool.settings.max_size == served[pool.key]


def test_the_64_model_fleet_plans_with_every_check_holding_and_no_warning_but_its_single_replicas(tmp_path):
    stack_file = fleet_bench.write_stack_file(tmp_path, 64, 4)

    code, report = plan_stack_file(stack_file, tmp_path / "out")

    # Each model serves from one replica, so each node replacement takes it down: the program says so, once a model
    # (settings/stack_warnings.py); nothing else is warned of.
    single = [warning for warning in report["warnings"] if "replicas is 1 on" in str(warning)]
    assert len(single) == 64
    assert (code, [w for w in report["warnings"] if w not in single], report["configProblems"]) == (0, [], [])
    assert report["counts"]["byType"]["eks-gpu-inference:index:VllmServer"] == 64
