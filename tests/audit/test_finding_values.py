"""Findings and problems pinned whole (field, value, text), where earlier tests checked only that they fire or
held a fragment: the survivors of the held-out mutation sample of 2026-12-02 (docs/mutation-testing.md)."""

from __future__ import annotations

import json

import pytest

from components import placement
from components.cluster.node_monitoring import configuration_json, configuration_values
from components.facts.contract import PlacementContract
from components.placement.scale_from_zero import (
    cpu_workloads_verdict,
    scale_from_zero_verdict,
)
from components.stackcheck.aws.network_rules import permission_descriptions
from components.stackcheck.aws.rules import nodegroup_with_launch_template
from tests.support.finding_values import problems_of
from tests.support.placement_guard import GPU_TOLERATION, gpu_pool, system_pool


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        pytest.param(
            {"gpuNodeGroup": {"extraTaints": [{"key": "a", "value": "x", "effect": "Sometimes"}]}},
            (
                "gpuNodeGroup.extraTaints.0.effect",
                "unknown taint effect 'Sometimes'; allowed: NoSchedule, NoExecute, PreferNoSchedule",
            ),
            id="an unknown taint effect is named",
        ),
        pytest.param(
            {"autoscaler": {"scaleDownUnneededTime": "-1m"}},
            (
                "autoscaler.scaleDownUnneededTime",
                "negative duration '-1m' (Go reads -1m0s); allowed: 0s or more, a Go duration such as 10m, 1h30m, "
                "1.5h or 300ms (units ns, us (or µs), ms, s, m, h)",
            ),
            id="a negative duration where zero is allowed",
        ),
        pytest.param(
            {"gpuNodeGroup": {"provisioner": "karpenter", "imageCache": "snapshot", "snapshotId": "snap-0123abcd"}},
            (
                "gpuNodeGroup.imageCache",
                "'snapshot' with amiFamily 'AL2023'; allowed: 'none', or 'snapshot' with amiFamily 'Bottlerocket'",
            ),
            id="a Karpenter pool's snapshot image cache on an AMI family other than Bottlerocket",
        ),
    ],
)
def test_a_refused_setting_is_reported_with_its_key_and_whole_message(values, problem):
    assert problems_of(values) == [problem]


def test_a_bad_rule_description_is_reported_with_its_text():
    params = {"IpPermissions": [{"IpRanges": [{"CidrIp": "10.0.0.0/16", "Description": "from the VPC's nodes"}]}]}
    [violation] = permission_descriptions(params, None)  # type: ignore[arg-type]
    assert (violation.path, violation.value) == ("IpPermissions[0].IpRanges[0].Description", "from the VPC's nodes")


def test_instance_types_in_both_the_request_and_its_launch_template_are_reported_on_the_request():
    request = {"launchTemplate": {"id": "lt-1", "version": "1"}, "instanceTypes": ["g6.xlarge"]}
    [violation] = nodegroup_with_launch_template(request, {"InstanceType": "g6.2xlarge"})
    assert (violation.path, violation.value) == ("instanceTypes", ["g6.xlarge"])
    assert violation.rule.startswith("the launch template sets InstanceType g6.2xlarge; give instance types in one")


def test_a_stack_without_gpu_pools_passes_the_scale_from_zero_check_as_verdict_8():
    verdict = scale_from_zero_verdict([], [{"name": "system", "gpusPerNode": 0}], {}, [])
    assert (verdict.name, verdict.passed, verdict.message) == (
        "gpu-pools-scale-from-zero",
        True,
        "no GPU pool to scale",
    )


def test_the_node_monitoring_configuration_text_has_its_keys_sorted():
    # The add-on's configuration is compared as text: the same values in another key order would be a change.
    text = configuration_json(PlacementContract())
    assert json.loads(text) == configuration_values(PlacementContract())
    assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
    assert text.index('"effect"') < text.index('"key"')


def test_a_cpu_workload_tolerating_the_gpu_taint_fails_naming_it_and_both_ways_out():
    web = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"template": {"spec": {"tolerations": [GPU_TOLERATION], "containers": [{"name": "web"}]}}},
    }
    pools = [system_pool(), gpu_pool()]
    verdict = cpu_workloads_verdict([web], pools, placement.placement_matrix([web], pools))
    assert not verdict.passed
    assert verdict.message == (
        "workloads that request no GPU can land on GPU pools: default/web on gpu; remove their toleration of the "
        "GPU taint, or give them a nodeSelector for the system pool"
    )


def test_cpu_workloads_kept_off_gpu_pools_pass_naming_where_they_land_or_none():
    web = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"template": {"spec": {"containers": [{"name": "web"}]}}},
    }
    pools = [system_pool(), gpu_pool()]
    verdict = cpu_workloads_verdict([web], pools, placement.placement_matrix([web], pools))
    assert (verdict.name, verdict.passed, verdict.message) == (
        "cpu-workloads-stay-off-gpu-pools",
        True,
        "workloads that request no GPU land only on non-GPU pools: default/web on system",
    )
    assert (
        cpu_workloads_verdict([], pools, []).message == "workloads that request no GPU land only on non-GPU pools: none"
    )


def test_nodepool_pools_pass_the_scale_from_zero_check_as_launched_from_their_templates():
    pools = [
        {"name": "system", "gpusPerNode": 0},
        {"name": "kp", "gpusPerNode": 1, "provisioner": "karpenter"},
        {"name": "am", "gpusPerNode": 1, "provisioner": "autoMode"},
    ]
    verdict = scale_from_zero_verdict([], pools, {}, [])
    checked = [
        "kp: Karpenter NodePool, launched from its template",
        "am: EKS Auto Mode NodePool, launched from its template",
    ]
    assert (verdict.name, verdict.passed, verdict.details) == ("gpu-pools-scale-from-zero", True, checked)
    assert verdict.message == (
        f"every GPU workload fits the node the autoscaler imagines for its pool at zero: {', '.join(checked)}"
    )
