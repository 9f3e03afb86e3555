"""EKS node agents in the guard: where the pods EKS and its add-ons run land, and verdict 6 on them."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from components.facts import auto_mode, node_agents, versions
from components.facts.node_agents import A_NON_GPU_POOL, EVERY_NODE, EVERY_NVIDIA_NODE
from components.placement.agents import Agent, node_agents_verdict
from components.placement.pools import NodeGroupSpec
from components.stackcheck.__main__ import main
from components.stackcheck.plan.node_agents import cluster_agents
from tests.support.node_agents import GPU, GPU_TAINT, SYSTEM, addon, pools

ROOT = Path(__file__).resolve().parents[2]


def plan_json(capsys, tmp_path, *args: str) -> tuple[int, dict]:
    code = main(["plan", "--project-dir", str(ROOT), "--out", str(tmp_path), "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def verdict(document: dict, verdict_id: int) -> dict:
    [found] = [v for v in document["verdicts"] if v["id"] == verdict_id]
    return found


ARM_GPU = NodeGroupSpec("arm-gpu", "g5g.xlarge", 1, labels={"GPU": "true"}, taints=[GPU_TAINT])


def test_dev_plan_lists_the_eks_agents_per_pool_and_verdict_6_passes(capsys, tmp_path):
    code, document = plan_json(capsys, tmp_path)

    assert code == 0
    lands = {(row["workload"], row["pool"]): row["lands"] for row in document["matrix"]}
    assert lands[("kube-system/aws-node [EKS]", "gpu-inference-dev-gpu")] is True
    assert lands[("kube-system/aws-node [EKS]", "gpu-inference-dev-system")] is True
    assert lands[("kube-system/eks-node-monitoring-agent [EKS]", "gpu-inference-dev-gpu")] is True
    assert lands[("kube-system/dcgm-server [EKS]", "gpu-inference-dev-gpu")] is True
    assert lands[("kube-system/coredns [EKS]", "gpu-inference-dev-system")] is True
    assert lands[("kube-system/coredns [EKS]", "gpu-inference-dev-gpu")] is False
    node_agents_verdict_6 = verdict(document, 6)
    assert node_agents_verdict_6["name"] == "node-agents-cover-their-pools"
    assert node_agents_verdict_6["passed"] is True
    assert "dcgm-server on gpu-inference-dev-gpu" in node_agents_verdict_6["message"]
    assert "kube-proxy" in node_agents_verdict_6["message"] and "not checked" in node_agents_verdict_6["message"]


def test_without_tolerations_in_the_addon_configuration_verdict_6_fails_naming_dcgm_server(
    capsys, tmp_path, monkeypatch
):
    import components.cluster.node_monitoring

    monkeypatch.setattr(components.cluster.node_monitoring, "configuration_values", lambda contract: {})
    code, document = plan_json(capsys, tmp_path)

    assert code == 1
    failed = verdict(document, 6)
    assert failed["passed"] is False
    assert failed["message"].startswith(
        "node agent dcgm-server does not land on pool gpu-inference-dev-gpu: untolerated taint GPU=true:NoSchedule"
    )
    assert any("verdict 6 node-agents-cover-their-pools: node agent dcgm-server" in f for f in document["failures"])


def test_disabled_node_repair_says_the_monitoring_agents_do_not_run(capsys, tmp_path):
    stack_file = tmp_path / "Pulumi.no-repair.yaml"
    dev = (ROOT / "Pulumi.dev.yaml").read_text()
    gpu_group = "  eks-gpu-inference:gpuNodeGroup:\n"
    stack_file.write_text(dev.replace(gpu_group, f"{gpu_group}    nodeRepair: false\n", 1))
    code, document = plan_json(capsys, tmp_path / "out", "--stack-file", str(stack_file))

    assert code == 0
    passed = verdict(document, 6)
    assert (
        "add-on eks-node-monitoring-agent is not installed by the stack: eks-node-monitoring-agent, "
        "dcgm-server do not run" in passed["message"]
    )
    assert not [row for row in document["matrix"] if row["workload"].startswith("kube-system/dcgm-server")]


def test_unknown_addon_and_unpinned_version_are_reported_not_guessed():
    found = cluster_agents([addon("aws-ebs-csi-driver"), addon(versions.NODE_MONITORING_AGENT_ADDON)])
    assert "add-on aws-ebs-csi-driver: not modelled, so the plan does not know where its pods run" in found.notes
    assert any(
        note.startswith(
            "dcgm-server: add-on eks-node-monitoring-agent version unset (EKS default); the "
            f"placement facts are those of {versions.NODE_MONITORING_AGENT_VERSION}"
        )
        for note in found.notes
    )
    assert {agent.name for agent in found.agents} == {"aws-node", "coredns", "eks-node-monitoring-agent", "dcgm-server"}


def test_addon_configuration_tolerations_replace_the_chart_default():
    tolerations = [{"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}]
    found = cluster_agents(
        [
            addon(
                versions.NODE_MONITORING_AGENT_ADDON,
                addonVersion=versions.NODE_MONITORING_AGENT_VERSION,
                configurationValues=json.dumps({"dcgmAgent": {"tolerations": tolerations}}),
            )
        ]
    )
    [dcgm] = [agent for agent in found.agents if agent.name == "dcgm-server"]
    assert dcgm.workload["spec"]["template"]["spec"]["tolerations"] == tolerations
    assert node_agents_verdict(found.agents, pools(SYSTEM, GPU), found.notes).passed
    unconfigured = cluster_agents([addon(versions.NODE_MONITORING_AGENT_ADDON)])
    failed = node_agents_verdict(unconfigured.agents, pools(SYSTEM, GPU), unconfigured.notes)
    assert not failed.passed and "dcgm-server" in failed.message


def test_dcgm_outside_its_own_affinity_is_a_note_but_an_untolerated_taint_fails():
    tolerant = node_agents.workload(node_agents.DCGM_SERVER, {"dcgmAgent": {"tolerations": [{"operator": "Exists"}]}})
    arm = node_agents_verdict([Agent("dcgm-server", EVERY_NVIDIA_NODE, tolerant)], pools(SYSTEM, ARM_GPU))
    assert arm.passed
    assert any(
        "dcgm-server does not run on GPU pool arm-gpu: outside the add-on's own node affinity" in d for d in arm.details
    )
    default = node_agents.workload(node_agents.DCGM_SERVER)
    blocked = node_agents_verdict([Agent("dcgm-server", EVERY_NVIDIA_NODE, default)], pools(SYSTEM, GPU))
    assert not blocked.passed and "untolerated taint GPU=true:NoSchedule" in blocked.message


@pytest.mark.parametrize("agent", [node_agents.VPC_CNI, node_agents.NODE_MONITORING_AGENT], ids=lambda a: a.name)
def test_every_node_agents_tolerate_any_taint(agent):
    tainted = NodeGroupSpec("odd", "m6i.large", 1, taints=[{"key": "x", "value": "y", "effect": "NoExecute"}])
    assert node_agents_verdict(
        [Agent(agent.name, EVERY_NODE, node_agents.workload(agent))], pools(SYSTEM, GPU, tainted)
    ).passed


def test_every_node_agent_blocked_by_a_taint_fails_naming_agent_and_pool():
    picky = node_agents.workload(node_agents.COREDNS)  # tolerates CriticalAddonsOnly and control-plane only
    result = node_agents_verdict([Agent("picky", EVERY_NODE, picky)], pools(SYSTEM, GPU))
    assert not result.passed
    assert (
        result.message == "node agent picky does not land on pool gpu: untolerated taint GPU=true:NoSchedule "
        "(give the add-on the pool's tolerations)"
    )


def test_coredns_needs_a_non_gpu_pool_with_nodes():
    coredns = Agent("coredns", A_NON_GPU_POOL, node_agents.workload(node_agents.COREDNS))
    assert node_agents_verdict([coredns], pools(SYSTEM, GPU)).passed
    only_gpu = node_agents_verdict([coredns], pools(GPU))
    assert not only_gpu.passed
    assert only_gpu.message == "node agent coredns lands on no non-GPU pool with nodes (there is no non-GPU pool)"
    empty = node_agents_verdict([coredns], pools(NodeGroupSpec("system", "m6i.large", 0), GPU))
    assert "count 0, no node to land on" in empty.message


def test_agents_without_cited_facts_are_not_placed():
    assert node_agents.KUBE_PROXY.pod_spec is None
    with pytest.raises(ValueError, match="kube-proxy: no placement facts"):
        node_agents.workload(node_agents.KUBE_PROXY)
    assert "kube-proxy" not in {agent.name for agent in cluster_agents([]).agents}


def test_an_agent_kept_off_every_non_gpu_pool_by_a_taint_names_the_pool_and_the_taint():
    coredns = Agent("coredns", A_NON_GPU_POOL, node_agents.workload(node_agents.COREDNS))
    dedicated = NodeGroupSpec("batch", "m6i.large", 2, taints=[{"key": "batch", "value": "x", "effect": "NoSchedule"}])
    result = node_agents_verdict([coredns], pools(dedicated, GPU))
    assert not result.passed
    assert result.message.startswith(
        "node agent coredns lands on no non-GPU pool with nodes (batch: untolerated taint batch=x:NoSchedule"
    )


def test_an_agent_kept_off_a_non_gpu_pool_two_ways_names_both_reasons():
    coredns = Agent("coredns", A_NON_GPU_POOL, node_agents.workload(node_agents.COREDNS))
    taint = {"key": "batch", "value": "x", "effect": "NoSchedule"}
    batch = NodeGroupSpec("batch", "t3.nano", 2, taints=[taint], labels={"kubernetes.io/arch": "arm64"})
    result = node_agents_verdict([coredns], pools(batch, GPU))
    assert not result.passed
    assert result.message == (
        "node agent coredns lands on no non-GPU pool with nodes (batch: untolerated taint batch=x:NoSchedule; instance "
        "type t3.nano is not in the catalog: allocatable unknown, cannot check resource fit)"
    )


def test_an_agent_of_unknown_coverage_is_refused_naming_every_known_one():
    stray = Agent("stray", "sometimes", node_agents.workload(node_agents.COREDNS))
    with pytest.raises(ValueError) as raised:
        node_agents_verdict([stray], pools(SYSTEM, GPU))
    assert (
        str(raised.value) == "agent stray: coverage 'sometimes'; known: every-node, every-nvidia-node, a-non-gpu-pool"
    )


_BATCH_TAINT = {"key": "batch", "value": "x", "effect": "NoSchedule"}


def test_two_of_each_in_the_agents_verdict_are_all_named():
    coredns = Agent("coredns", A_NON_GPU_POOL, node_agents.workload(node_agents.COREDNS))
    second = NodeGroupSpec("system-b", "m6i.large", 1)
    assert node_agents_verdict([coredns], pools(SYSTEM, second, GPU)).message == (
        "every node agent lands on every pool it must cover: coredns on non-GPU pool(s) system, system-b"
    )
    batch = [NodeGroupSpec(name, "m6i.large", 1, taints=[_BATCH_TAINT]) for name in ("batch-a", "batch-b")]
    assert node_agents_verdict([coredns], pools(*batch, GPU)).message == (
        "node agent coredns lands on no non-GPU pool with nodes (batch-a: untolerated taint batch=x:NoSchedule | "
        "batch-b: untolerated taint batch=x:NoSchedule)"
    )
    picky = copy.deepcopy(node_agents.workload(node_agents.COREDNS))
    picky["spec"]["template"]["spec"]["nodeSelector"] = {"role": "infra"}
    odd = NodeGroupSpec("odd", "m6i.large", 1, taints=[_BATCH_TAINT])
    assert node_agents_verdict([Agent("picky", EVERY_NODE, picky)], pools(odd)).message == (
        "node agent picky does not land on pool odd: untolerated taint batch=x:NoSchedule; node affinity/selector "
        "mismatch: nodeSelector role=infra (node has no label role) (give the add-on the pool's tolerations and a "
        "node selector and affinity that the pool's labels match)"
    )


def test_with_no_agent_modelled_the_verdict_still_carries_its_notes():
    result = node_agents_verdict([], pools(SYSTEM, GPU), notes=["kube-proxy: not installed by the stack"])
    assert (result.name, result.passed) == ("node-agents-cover-their-pools", True)
    assert result.message == "no node agent modelled; noted: kube-proxy: not installed by the stack"
    assert result.details == ["kube-proxy: not installed by the stack"]
    notes = ["kube-proxy: not installed by the stack", "eks-pod-identity-agent: not installed by the stack"]
    assert node_agents_verdict([], pools(SYSTEM, GPU), notes=notes).message == (
        "no node agent modelled; noted: kube-proxy: not installed by the stack | eks-pod-identity-agent: not installed "
        "by the stack"
    )


def test_a_passing_verdict_without_notes_says_so_and_notes_nothing():
    coredns = Agent("coredns", A_NON_GPU_POOL, node_agents.workload(node_agents.COREDNS))

    assert node_agents_verdict([coredns], pools(SYSTEM, GPU)).message == (
        "every node agent lands on every pool it must cover: coredns on non-GPU pool(s) system"
    )
    assert node_agents_verdict([], pools(SYSTEM, GPU)).message == "no node agent modelled"
    cni = Agent("aws-node", EVERY_NODE, node_agents.workload(node_agents.VPC_CNI))
    assert node_agents_verdict([coredns, cni], pools(SYSTEM, GPU)).message == (
        "every node agent lands on every pool it must cover: coredns on non-GPU pool(s) system; aws-node on system, gpu"
    )


def test_an_add_on_kept_off_an_auto_mode_pool_by_its_own_affinity_passes_with_the_reason_noted():
    system, gpu = pools(SYSTEM, GPU)
    auto = {**gpu, "name": "auto-gpu", "provisioner": auto_mode.PROVISIONER, "node": copy.deepcopy(gpu["node"])}
    auto["node"]["metadata"]["labels"][auto_mode.COMPUTE_TYPE_LABEL] = auto_mode.COMPUTE_TYPE
    aws_node = Agent("aws-node", EVERY_NODE, node_agents.workload(node_agents.EKS_DEFAULT_AGENTS[0]))

    result = node_agents_verdict([aws_node], [system, auto])

    assert (result.passed, result.message) == (
        True,
        "every node agent lands on every pool it must cover: aws-node on system; noted: aws-node does not run on EKS "
        "Auto Mode pool auto-gpu: outside its own node affinity, and Auto Mode's nodes do its work themselves",
    )


def test_an_agent_kept_off_by_its_own_selector_is_told_to_match_the_pools_labels_not_to_tolerate():
    picky = copy.deepcopy(node_agents.workload(node_agents.EKS_DEFAULT_AGENTS[0]))
    picky["spec"]["template"]["spec"]["nodeSelector"] = {"team": "x"}

    result = node_agents_verdict([Agent("picky", EVERY_NODE, picky)], pools(SYSTEM, GPU))

    assert (result.passed, result.details) == (
        False,
        [
            f"node agent picky does not land on pool {pool}: node affinity/selector mismatch: nodeSelector team=x "
            "(node has no label team) (give the add-on a node selector and affinity that the pool's labels match)"
            for pool in ("system", "gpu")
        ],
    )
