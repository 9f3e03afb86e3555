"""The fleet form with both provisioners: one pool a Karpenter NodePool, the others node groups, under the one
contract; the Cluster Autoscaler for the node groups only, and the plan clean with verdict 12 holding."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import plan_stack_file

from components.facts.resource_types import KARPENTER_NODE_POOL, NODE_GROUP
from components.stackcheck.runtime import ProgramRun, run_program
from components.stackcheck.stack_config import load_stack_config

ROOT = Path(__file__).resolve().parents[2]
FLEET = ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml"


@pytest.fixture(scope="module")
def mixed_file(tmp_path_factory) -> Path:
    document = yaml.safe_load(FLEET.read_text())
    document["config"]["eks-gpu-inference:gpuPools"]["l40s"]["provisioner"] = "karpenter"
    stack_file = tmp_path_factory.mktemp("mixed") / "Pulumi.fleet.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    return stack_file


@pytest.fixture(scope="module")
def mixed_run(mixed_file) -> ProgramRun:
    config = load_stack_config(ROOT, stack_file=mixed_file)
    return run_program(
        config.program, config.values, project=config.project, stack=config.stack, secret_keys=config.secret_keys
    )


def test_the_karpenter_pool_is_a_node_pool_labelled_with_its_pool_name_beside_the_node_groups(mixed_run):
    [pool] = mixed_run.of_type(KARPENTER_NODE_POOL)
    groups = sorted(group.name for group in mixed_run.of_type(NODE_GROUP))

    assert pool.inputs["metadata"]["name"] == "gpu-l40s"
    assert pool.inputs["spec"]["template"]["metadata"]["labels"]["eks-gpu-inference/node-pool"] == "l40s"
    assert groups == ["gpu-fleet-gpu-h100", "gpu-fleet-gpu-l4", "gpu-fleet-system"]


def test_the_cluster_autoscaler_is_installed_for_the_node_group_pools(mixed_run):
    assert [item.name for item in mixed_run.resources if item.type.endswith(":ClusterAutoscaler")]


def test_only_the_servers_on_the_karpenter_pool_carry_do_not_disrupt(mixed_run):
    protected = {
        item.inputs["metadata"]["name"]
        for item in mixed_run.of_type("kubernetes:apps/v1:Deployment")
        if "karpenter.sh/do-not-disrupt" in (item.inputs["spec"]["template"]["metadata"].get("annotations") or {})
    }

    assert protected == {"qwen-14b"}


def test_the_mixed_fleet_plans_clean_with_verdict_12(mixed_file, tmp_path):
    code, report = plan_stack_file(mixed_file, tmp_path)
    [verdict] = [item for item in report["verdicts"] if item["id"] == 12]

    assert code == 0, report["failures"]
    assert verdict["passed"] and "gpu-l40s as a node group" in verdict["message"]
    assert {pool["name"]: pool["provisioner"] for pool in report["pools"]}["gpu-l40s"] == "karpenter"
