"""The EKS add-ons as the plan reads them from what the stack registers: configuration values in each form the
add-on resource can carry them, add-ons left out, and how the agents are named in the placement matrix."""

from __future__ import annotations

import json

from components.facts import node_agents, versions
from components.placement.agents import node_agents_verdict
from components.stackcheck.plan.node_agents import ORIGIN_MARK, cluster_agents
from tests.support.node_agents import GPU, SYSTEM, addon, pools

MONITORING = versions.NODE_MONITORING_AGENT_ADDON
GPU_TOLERATION = [{"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}]


def dcgm_tolerations(found) -> list | None:
    [dcgm] = [agent for agent in found.agents if agent.name == node_agents.DCGM_SERVER.name]
    return dcgm.workload["spec"]["template"]["spec"].get("tolerations")


def monitoring(configuration) -> object:
    return addon(MONITORING, addonVersion=versions.NODE_MONITORING_AGENT_VERSION, configurationValues=configuration)


def test_configuration_values_given_as_an_object_are_applied_like_their_json():
    as_object = cluster_agents([monitoring({"dcgmAgent": {"tolerations": GPU_TOLERATION}})])
    as_json = cluster_agents([monitoring(json.dumps({"dcgmAgent": {"tolerations": GPU_TOLERATION}}))])
    assert dcgm_tolerations(as_object) == dcgm_tolerations(as_json) == GPU_TOLERATION
    assert as_object.notes == as_json.notes


def test_unreadable_configuration_values_are_a_note_and_the_chart_defaults_apply():
    found = cluster_agents([monitoring("{not json")])
    assert (
        f"add-on {MONITORING}: configuration values are not readable JSON (secret or unknown?); "
        "the chart defaults are assumed"
    ) in found.notes
    assert dcgm_tolerations(found) == dcgm_tolerations(cluster_agents([monitoring(None)]))
    # The chart's dcgm-server tolerates no custom taint, so the GPU pool's taint keeps it off.
    assert not node_agents_verdict(found.agents, pools(SYSTEM, GPU), found.notes).passed


def test_configuration_values_that_are_json_but_no_object_leave_the_chart_defaults_without_a_note():
    found = cluster_agents([monitoring(json.dumps([{"dcgmAgent": {"tolerations": GPU_TOLERATION}}]))])
    assert dcgm_tolerations(found) == dcgm_tolerations(cluster_agents([monitoring(None)]))
    assert not [note for note in found.notes if "configuration values" in note]


def test_add_ons_the_stack_leaves_out_are_named_with_the_setting_that_leaves_them_out():
    found = cluster_agents([])
    assert found.notes == [
        "kube-proxy (add-on kube-proxy, installed by EKS on every cluster): not checked: "
        + node_agents.EKS_DEFAULT_AGENTS[1].source,
        f"add-on {MONITORING} is not installed by the stack: eks-node-monitoring-agent, dcgm-server do not run "
        "(with nodeRepair false on every node-group and Karpenter GPU pool, their GPU health is not monitored; EKS "
        "Auto Mode pools are monitored by EKS itself)",
        f"add-on {versions.POD_IDENTITY_AGENT_ADDON} is not installed by the stack: eks-pod-identity-agent do not run "
        "(with autoscaler.enabled false, no pod needs EKS Pod Identity)",
    ]
    assert [agent.name for agent in found.agents] == ["aws-node", "coredns"]


def test_an_add_on_registered_by_eks_default_name_replaces_the_default_agent():
    found = cluster_agents([addon("coredns", addonVersion="v1.0")])
    [coredns] = [agent for agent in found.agents if agent.name == "coredns"]
    assert coredns.workload["kind"] == "Deployment"
    assert any(
        note.startswith("coredns: add-on coredns version v1.0; the placement facts are those of")
        for note in found.notes
    )
    assert [agent.name for agent in found.agents].count("coredns") == 1


def test_matrix_rows_mark_each_agent_as_coming_from_eks():
    found = cluster_agents([])
    rows = found.rows(pools(SYSTEM, GPU))
    assert {row.workload for row in rows} == {
        f"kube-system/aws-node {ORIGIN_MARK}",
        f"kube-system/coredns {ORIGIN_MARK}",
    }
    assert ORIGIN_MARK == "[EKS]"
    assert {(row.workload.split()[0], row.pool) for row in rows if row.lands} >= {("kube-system/aws-node", "gpu")}


def test_only_dcgm_server_is_a_dcgm_host_engine():
    found = cluster_agents([monitoring(None)])
    engines = found.dcgm_host_engines()
    assert [engine["metadata"]["name"] for engine in engines] == [node_agents.DCGM_SERVER.name]
    assert cluster_agents([]).dcgm_host_engines() == []


def test_the_verdict_lists_each_agent_with_the_pools_it_covers_in_order():
    found = cluster_agents([])
    verdict = node_agents_verdict(found.agents, pools(SYSTEM, GPU), found.notes)
    assert verdict.passed
    assert verdict.details[:2] == ["aws-node on system, gpu", "coredns on non-GPU pool(s) system"]
    assert verdict.details[2:] == found.notes


def test_a_registered_add_on_without_placement_facts_is_noted_as_the_add_on_it_is():
    found = cluster_agents([addon("kube-proxy", addonVersion="v1.34.0-eksbuild.1")])

    assert f"kube-proxy (add-on kube-proxy): not checked: {node_agents.KUBE_PROXY.source}" in found.notes
    assert node_agents.KUBE_PROXY.source == "no public manifest of the EKS kube-proxy DaemonSet"
    assert "kube-proxy" not in [agent.name for agent in found.agents]
