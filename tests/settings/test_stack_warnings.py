"""Warnings of valid settings about the months after: pool keys a provisioner never reads, and models that one
replacement of their pool's nodes takes offline; both given by the program, so the plan lists them."""

from __future__ import annotations

import logging

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.settings import parse_settings
from components.settings.stack_warnings import ignored_key_warnings, one_replica_warnings

PROJECT = "eks-gpu-inference"


def pools_of(config: dict) -> list:
    return parse_settings(merge(dev_stack_config(), config)).pools


def servers_of(config: dict) -> list:
    return parse_settings(merge(dev_stack_config(), config)).servers


@pytest.mark.parametrize("provisioner", ["karpenter", "autoMode"])
def test_min_and_desired_size_set_on_a_pool_whose_provisioner_ignores_them_are_named(provisioner):
    # Pulumi.dev.yaml sets minSize 0 and desiredSize 1 on gpuNodeGroup; only maxSize means something to these pools.
    [warning] = ignored_key_warnings(pools_of({"gpuNodeGroup": {"provisioner": provisioner}}))

    assert warning.startswith(
        f"{PROJECT}:gpuNodeGroup.minSize, {PROJECT}:gpuNodeGroup.desiredSize are set, but provisioner "
        f"{provisioner!r} never reads them"
    )
    assert warning.endswith("remove them, or use provisioner 'nodeGroup'")


def test_a_karpenter_pools_node_repair_and_update_pace_are_named_too():
    # `None` removes the dev stack's minSize and desiredSize (conftest.merge).
    pools = pools_of(
        {
            "gpuNodeGroup": {
                "provisioner": "karpenter",
                "minSize": None,
                "desiredSize": None,
                "updateMaxUnavailable": 2,
                "nodeRepair": True,
            }
        }
    )

    [warning] = ignored_key_warnings(pools)

    assert warning.startswith(
        f"{PROJECT}:gpuNodeGroup.updateMaxUnavailable, {PROJECT}:gpuNodeGroup.nodeRepair are set, but provisioner"
    )


def test_a_node_group_and_a_pool_that_sets_none_of_them_give_no_warning():
    assert ignored_key_warnings(pools_of({})) == []
    unset = {"provisioner": "karpenter", "minSize": None, "desiredSize": None}
    assert ignored_key_warnings(pools_of({"gpuNodeGroup": unset})) == []


def test_a_fleet_pool_is_named_by_its_key():
    config = merge(
        dev_stack_config(),
        {
            "gpuNodeGroup": None,
            "vllm": None,
            "gpuPools": {"a10g": {"instanceTypes": ["g5.xlarge"], "provisioner": "karpenter", "desiredSize": 1}},
            "models": [{"name": "chat", "model": "Qwen/Qwen2.5-7B-Instruct", "pool": "a10g", "replicas": 2}],
        },
    )
    settings = parse_settings(config)

    [warning] = ignored_key_warnings(settings.pools)
    assert warning.startswith(f"{PROJECT}:gpuPools.a10g.desiredSize is set, but provisioner 'karpenter'")
    assert one_replica_warnings(settings.servers) == []


@pytest.mark.parametrize(
    ("provisioner", "means"),
    [
        ("nodeGroup", "EKS replaces every node of the group when its AMI release"),
        ("karpenter", "Karpenter replaces a node that drifts from its NodePool or EC2NodeClass"),
        ("autoMode", "EKS Auto Mode replaces every node within 14 days"),
    ],
)
def test_a_one_replica_model_is_warned_with_how_its_pool_replaces_nodes_and_the_fix(provisioner, means):
    [warning] = one_replica_warnings(servers_of({"gpuNodeGroup": {"provisioner": provisioner}}))

    assert warning.startswith(f"{PROJECT}:vllm.replicas is 1 on gpuNodeGroup (provisioner {provisioner}): {means}")
    assert "its PodDisruptionBudget lets the one replica go, so Qwen/Qwen2.5-7B-Instruct is down" in warning
    assert warning.endswith(
        "set it to 2, with maxSize room for both, and the budget keeps one replica serving while the other moves"
    )


def test_an_autoscaled_model_is_warned_by_its_minimum_replicas():
    [warning] = one_replica_warnings(servers_of({"vllm": {"autoscaling": {"enabled": True, "maxReplicas": 2}}}))

    assert warning.startswith(f"{PROJECT}:vllm.autoscaling.minReplicas is 1 on gpuNodeGroup")
    assert one_replica_warnings(servers_of({"vllm": {"autoscaling": {"enabled": True, "minReplicas": 2}}})) == []


@pytest.mark.parametrize("replicas", [0, 2])
def test_no_warning_without_exactly_one_replica(replicas):
    assert one_replica_warnings(servers_of({"vllm": {"replicas": replicas}})) == []


def test_the_program_gives_both_warnings(caplog):
    with caplog.at_level(logging.WARNING):
        run_stack(merge(dev_stack_config(), {"gpuNodeGroup": {"provisioner": "karpenter"}}))

    messages = [record.getMessage() for record in caplog.records]
    assert any(message.startswith(f"{PROJECT}:gpuNodeGroup.minSize, ") for message in messages)
    assert any(message.startswith(f"{PROJECT}:vllm.replicas is 1 on gpuNodeGroup") for message in messages)
