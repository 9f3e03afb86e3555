"""Each kind of audit finding on a small snapshot, pinned whole: kind, severity, title, rule, fix, objects and
details, and no other finding; and the audit's options with their whole help. Other audit tests read a field or a
line of a finding; here every text a user reads is fixed."""

from __future__ import annotations

import argparse

import pytest

from components.stackcheck.__main__ import build_parser
from components.stackcheck.audit.cli import add_audit_arguments
from tests.support.audit_findings import healthy
from tests.support.audit_objects import (
    GPU_TAINT,
    GPU_TOLERATION,
    VLLM,
    audit_json,
    daemon_pod,
    daemonset,
    device_plugin,
    gpu_node,
    node,
    pod,
)

_TAINT = "untolerated taint GPU=true:NoSchedule"
_PLUGIN_IMAGE = "nvcr.io/nvidia/k8s-device-plugin:v0.18.0"


def _agent_missing(daemonset_id: str) -> dict:
    return {
        "kind": "node-agent-missing",
        "severity": "warning",
        "title": f"DaemonSet {daemonset_id} selects 1 GPU node(s) but cannot run there: {_TAINT}",
        "rule": "TaintToleration: the DaemonSet's pod does not tolerate the GPU nodes' taint",
        "fix": "add a toleration of GPU=true:NoSchedule to the DaemonSet's pod template",
        "objects": [daemonset_id, "gpu-1"],
        "details": ["pools: gpu"],
    }


def _plugin_off_the_gpu_node() -> list[dict]:
    plugin = daemonset("nvidia-device-plugin", image=_PLUGIN_IMAGE)
    return [node("sys-1"), gpu_node("gpu-1", gpus=None), plugin, daemon_pod(plugin, "sys-1")]


def _pending_on_two_pools() -> list[dict]:
    """A pod that tolerates the contract's taint, pending: one pool's nodes carry another taint or are cordoned, the
    other pool's node is full."""
    cordoned = gpu_node("big-2", pool="big")
    cordoned["spec"]["unschedulable"] = True
    maintenance = {"key": "maintenance", "value": "true", "effect": "NoSchedule"}
    return [
        *healthy(),
        gpu_node("big-1", pool="big", taints=[GPU_TAINT, maintenance]),
        cordoned,
        pod("embed", gpus=1, tolerations=[GPU_TOLERATION]),
    ]


def _agent_off_the_gpu_node() -> list[dict]:
    plugin, agent = device_plugin(), daemonset("aws-node")
    return [
        node("sys-1"),
        gpu_node("gpu-1"),
        plugin,
        daemon_pod(plugin, "gpu-1"),
        agent,
        daemon_pod(agent, "sys-1"),
        pod("vllm-1", "gpu-1", namespace="llm", gpus=1, owner=("ReplicaSet", "vllm"), **VLLM),
    ]


@pytest.mark.parametrize(
    ("items", "findings"),
    [
        pytest.param(
            [*healthy(), pod("old-web", "gpu-1", owner=("ReplicaSet", "old"))],
            [
                {
                    "kind": "gpu-leak",
                    "severity": "warning",
                    "title": "1 pod(s) of ReplicaSet default/old request no GPU but run on GPU pool gpu",
                    "rule": "a pod that requests no GPU and is no node agent runs on a GPU node; TaintToleration "
                    "names the toleration that let it past the node's taint",
                    "fix": "narrow the pod's tolerations to the taints it must tolerate (an `operator: Exists` "
                    "toleration without a key tolerates every taint), or keep it off GPU nodes with a nodeSelector; "
                    "GPU nodes should carry GPU=true:NoSchedule",
                    "objects": ["default/old-web"],
                    "details": [
                        "no toleration of GPU=true:NoSchedule: the pod was placed before the taint (see "
                        "model-mismatch)",
                        "default/old-web on gpu-1",
                    ],
                },
                {
                    "kind": "model-mismatch",
                    "severity": "warning",
                    "title": "1 running pod(s) of ReplicaSet default/old could not be scheduled on their node today",
                    "rule": "TaintToleration and NodeAffinity on the pod's own node",
                    "fix": "if the node's taints or labels changed on purpose, add the toleration or fix the "
                    "selector (a NoExecute taint evicts pods that do not tolerate it); otherwise the model misses a "
                    "rule: report it",
                    "objects": ["default/old-web"],
                    "details": [_TAINT, "default/old-web on gpu-1"],
                },
            ],
            id="a pod placed before the taint: a leak and a mismatch",
        ),
        pytest.param(
            [*healthy(), gpu_node("gpu-2")],
            [
                {
                    "kind": "idle-gpus",
                    "severity": "warning",
                    "title": "1 GPU node(s) of pool gpu run no pod that requests a GPU: 1 GPU(s) idle",
                    "rule": "GPUs allocatable vs requested by the pods bound to each node",
                    "fix": "schedule GPU work there or scale the pool down (desired and minimum size); an idle node "
                    "is billed for its whole instance type",
                    "objects": ["gpu-2"],
                    "details": [
                        "gpu-2: g5.xlarge (1x NVIDIA A10G), 1 GPU(s) allocatable, 0 requested, not priced (Spot or "
                        "reserved, or no price for its type and region)"
                    ],
                }
            ],
            id="an idle GPU node",
        ),
        pytest.param(
            [*healthy(), pod("embed", gpus=1)],
            [
                {
                    "kind": "pending-gpu-pods",
                    "severity": "error",
                    "title": f"1 GPU pod(s) pending: pool gpu: 1 node(s), e.g. gpu-1: {_TAINT}",
                    "rule": "the scheduler's filters (NodeUnschedulable, TaintToleration, NodeAffinity, "
                    "NodeResourcesFit) on each GPU pool",
                    "fix": "add the toleration GPU=true:NoSchedule",
                    "objects": ["default/embed"],
                    "details": [f"pool gpu: 1 node(s), e.g. gpu-1: {_TAINT}"],
                }
            ],
            id="a GPU pod pending on the taint",
        ),
        pytest.param(
            _pending_on_two_pools(),
            [
                {
                    "kind": "pending-gpu-pods",
                    "severity": "error",
                    "title": "1 GPU pod(s) pending: pool big: NodeUnschedulable, TaintToleration; pool gpu: "
                    "NodeResourcesFit",
                    "rule": "the scheduler's filters (NodeUnschedulable, TaintToleration, NodeAffinity, "
                    "NodeResourcesFit) on each GPU pool",
                    "fix": "the GPU nodes carry maintenance=true:NoSchedule, which the pod does not tolerate: remove "
                    "the taint from the nodes that carry it, or tolerate it if the pod should run there; free or add "
                    "GPUs: raise the pool's desired/maximum size (see idle GPUs for nodes to reclaim)",
                    "objects": ["default/embed"],
                    "details": [
                        "pool big: 1 node(s), e.g. big-1: untolerated taint maintenance=true:NoSchedule | 1 node(s), "
                        "e.g. big-2: node is unschedulable (cordoned) and the pod does not tolerate "
                        "node.kubernetes.io/unschedulable:NoSchedule",
                        "pool gpu: no node with room; emptiest gpu-1: Insufficient nvidia.com/gpu: requests 1, free 0",
                    ],
                },
                {
                    "kind": "idle-gpus",
                    "severity": "warning",
                    "title": "2 GPU node(s) of pool big run no pod that requests a GPU: 2 GPU(s) idle",
                    "rule": "GPUs allocatable vs requested by the pods bound to each node",
                    "fix": "schedule GPU work there or scale the pool down (desired and minimum size); an idle node "
                    "is billed for its whole instance type",
                    "objects": ["big-1", "big-2"],
                    "details": [
                        f"big-{i}: g5.xlarge (1x NVIDIA A10G), 1 GPU(s) allocatable, 0 requested, not priced (Spot or "
                        "reserved, or no price for its type and region)"
                        for i in (1, 2)
                    ],
                },
                {
                    "kind": "node-agent-missing",
                    "severity": "warning",
                    "title": "DaemonSet kube-system/nvidia-device-plugin selects 1 GPU node(s) but cannot run there: "
                    "untolerated taint maintenance=true:NoSchedule",
                    "rule": "TaintToleration: the DaemonSet's pod does not tolerate the GPU nodes' taint",
                    "fix": "add a toleration of maintenance=true:NoSchedule to the DaemonSet's pod template",
                    "objects": ["kube-system/nvidia-device-plugin", "big-1"],
                    "details": ["pools: big"],
                },
            ],
            id="a GPU pod that tolerates the contract's taint, pending on another taint, a cordon and a full node",
        ),
        pytest.param(
            _plugin_off_the_gpu_node(),
            [
                {
                    "kind": "gpu-not-advertised",
                    "severity": "error",
                    "title": "1 GPU node(s) of pool gpu advertise no nvidia.com/gpu",
                    "rule": "a GPU instance type or GPU label without nvidia.com/gpu in status.allocatable",
                    "fix": "let the device plugin DaemonSet select and tolerate GPU nodes (its nodeSelector and "
                    "tolerations)",
                    "objects": ["gpu-1"],
                    "details": [
                        f"DaemonSet kube-system/nvidia-device-plugin does not land there: {_TAINT}",
                        "gpu-1: g5.xlarge (1x NVIDIA A10G), allocatable nvidia.com/gpu missing",
                    ],
                },
                _agent_missing("kube-system/nvidia-device-plugin"),
            ],
            id="a device plugin kept off the GPU node",
        ),
        pytest.param(
            _agent_off_the_gpu_node(),
            [_agent_missing("kube-system/aws-node")],
            id="a node agent kept off the GPU node",
        ),
    ],
)
def test_each_finding_is_reported_whole(capsys, tmp_path, items, findings):
    _, document = audit_json(capsys, tmp_path, *items)

    assert document["findings"] == findings


def test_each_audit_option_has_its_whole_help():
    parser = argparse.ArgumentParser()
    add_audit_arguments(parser, ("text", "markdown", "json"))

    helps = {action.option_strings[0]: action.help for action in parser._actions if action.option_strings}
    assert helps == {
        "-h": "show this help message and exit",
        "--snapshot": "the snapshot: a JSON file, - for stdin, or a directory of JSON files (one per kind)",
        "--kubeconfig": "read the cluster live through this kubeconfig (paged, raw JSON)",
        "--context": "kubeconfig context (default: its current context)",
        "--stack": "take the placement contract from Pulumi.<stack>.yaml (default: inferred from the nodes)",
        "--project-dir": "directory holding Pulumi.yaml, for --stack (default: the current directory)",
        "--format": "text for terminals, markdown for tickets, json for tools (default: text)",
        "--fail-on": "lowest finding severity that makes the exit code 1 (default: warning)",
        "--debug": "on an internal error, print its traceback",
    }


def test_the_audit_command_has_its_whole_summary_and_description():
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    (summary,) = [choice.help for choice in commands._choices_actions if choice.dest == "audit"]

    assert summary == (
        "audit a running cluster: idle GPUs, pods leaking onto GPU nodes, pending GPU pods, GPU nodes without GPUs "
        "advertised, node agents missing on GPU nodes"
    )
    assert commands.choices["audit"].description == (
        "Read a cluster snapshot (kubectl get nodes,pods,daemonsets -A -o json) or the live cluster, and check it "
        "with the placement model. Exit 0 when no finding is at or above --fail-on, 1 when one is, 2 when the input "
        "or the command line is invalid, 3 on an internal error (--debug shows its traceback)."
    )
