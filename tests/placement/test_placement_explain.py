"""explain, daemonset_pod and pod_of: a pod against a node, filter by filter."""

from __future__ import annotations

import copy

import pytest

from components.placement import (
    DAEMONSET_DEFAULT_TOLERATIONS,
    can_schedule,
    daemonset_pod,
    explain,
    filter_failures,
    pod_of,
    workload_id,
)
from tests.support.placement_explain import CPU_NODE, GPU_NODE, GPU_TAINT, daemonset, pod, with_taints

VLLM = pod(
    [{"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}],
    {"GPU": "true"},
    {"cpu": "2", "memory": "8Gi"},
    {"nvidia.com/gpu": "1"},
)


@pytest.mark.parametrize(
    ("the_pod", "node", "lines"),
    [
        pytest.param(VLLM, GPU_NODE, [], id="vLLM pod fits the GPU node"),
        pytest.param(pod(requests={"cpu": "100m"}), CPU_NODE, [], id="plain pod fits the CPU node"),
        pytest.param(
            pod(requests={"cpu": "100m"}),
            GPU_NODE,
            ["untolerated taint GPU=true:NoSchedule"],
            id="plain pod is kept off the GPU node by its taint",
        ),
        pytest.param(
            pod(),
            with_taints(CPU_NODE, {"key": "evict", "effect": "NoExecute"}),
            ["untolerated taint evict:NoExecute"],
            id="an untolerated NoExecute taint blocks",
        ),
        # PreferNoSchedule never blocks.
        pytest.param(
            pod(),
            with_taints(CPU_NODE, {"key": "soft", "value": "1", "effect": "PreferNoSchedule"}),
            [],
            id="a PreferNoSchedule taint never blocks",
        ),
        # The first untolerated blocking taint is named.
        pytest.param(
            pod([{"key": "a", "operator": "Exists"}]),
            with_taints(
                CPU_NODE,
                {"key": "soft", "effect": "PreferNoSchedule"},
                {"key": "a", "effect": "NoSchedule"},
                {"key": "b", "value": "2", "effect": "NoSchedule"},
                {"key": "c", "effect": "NoExecute"},
            ),
            ["untolerated taint b=2:NoSchedule"],
            id="the first untolerated blocking taint is named",
        ),
        pytest.param(
            pod(node_selector={"GPU": "true"}),
            CPU_NODE,
            ["node affinity/selector mismatch: nodeSelector GPU=true (node has no label GPU)"],
            id="a GPU nodeSelector does not fit an unlabelled node",
        ),
        pytest.param(
            pod(limits={"nvidia.com/gpu": "2"}, tolerations=VLLM["spec"]["tolerations"]),
            GPU_NODE,
            ["Insufficient nvidia.com/gpu: requests 2, free 1"],
            id="two GPUs do not fit a one-GPU node",
        ),
        # One line per failed filter, in the scheduler's order.
        pytest.param(
            pod(node_selector={"GPU": "false"}, requests={"cpu": "4", "memory": "9Gi"}),
            GPU_NODE,
            [
                "untolerated taint GPU=true:NoSchedule",
                "node affinity/selector mismatch: nodeSelector GPU=false (node has GPU=true)",
                "Insufficient cpu: requests 4000m, free 3920m",
            ],
            id="one line per failed filter in the scheduler's order",
        ),
        # NodeUnschedulable: a cordoned node takes only pods tolerating the unschedulable taint.
        pytest.param(
            pod(),
            with_taints(CPU_NODE, unschedulable=True),
            [
                "node is unschedulable (cordoned) and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule"
            ],
            id="a cordoned node refuses a pod without the unschedulable toleration",
        ),
        pytest.param(
            pod([{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}]),
            with_taints(CPU_NODE, unschedulable=True),
            [],
            id="a cordoned node takes a pod tolerating unschedulable",
        ),
        pytest.param(
            pod([{"operator": "Exists"}]),
            with_taints(CPU_NODE, unschedulable=True),
            [],
            id="a cordoned node takes a pod tolerating every taint",
        ),
        pytest.param(
            pod(), with_taints(CPU_NODE, unschedulable=False), [], id="a node with unschedulable false is not cordoned"
        ),
    ],
)
def test_explain(the_pod, node, lines):
    assert explain(the_pod, node) == lines
    assert can_schedule(the_pod, node) is (not lines)


def test_explain_names_every_failed_filter():
    lines = explain(
        pod(node_selector={"GPU": "false"}, requests={"cpu": "3", "memory": "9Gi"}),
        with_taints(CPU_NODE, GPU_TAINT, unschedulable=True),
    )
    assert lines == [
        "node is unschedulable (cordoned) and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule",
        "untolerated taint GPU=true:NoSchedule",
        "node affinity/selector mismatch: nodeSelector GPU=false (node has no label GPU)",
        "Insufficient cpu: requests 3000m, free 1930m; Insufficient memory: requests 9Gi, free 7518Mi",
    ]


def test_explain_counts_existing_pods():
    assert explain(VLLM, GPU_NODE, [VLLM]) == [
        "Insufficient cpu: requests 2000m, free 1920m; Insufficient memory: requests 8Gi, free 7199Mi; "
        "Insufficient nvidia.com/gpu: requests 1, free 0"
    ]
    gpu_only = pod(VLLM["spec"]["tolerations"], {"GPU": "true"}, limits={"nvidia.com/gpu": "1"})
    assert explain(gpu_only, GPU_NODE, [gpu_only]) == ["Insufficient nvidia.com/gpu: requests 1, free 0"]
    assert explain(gpu_only, GPU_NODE, []) == []


def test_explain_comparison_operators_flag():
    node = with_taints(CPU_NODE, {"key": "sla", "value": "990", "effect": "NoSchedule"})
    the_pod = pod([{"key": "sla", "operator": "Gt", "value": "950", "effect": "NoSchedule"}])
    assert explain(the_pod, node) == ["untolerated taint sla=990:NoSchedule"]
    assert explain(the_pod, node, comparison_operators=True) == []


def test_filter_failures_by_name_and_subset():
    the_pod = pod(node_selector={"GPU": "false"}, requests={"cpu": "4"})
    assert set(filter_failures(the_pod, GPU_NODE)) == {"TaintToleration", "NodeAffinity", "NodeResourcesFit"}
    assert set(filter_failures(the_pod, GPU_NODE, filters=["NodeAffinity"])) == {"NodeAffinity"}
    with pytest.raises(ValueError, match="unknown filter 'Bogus'"):
        filter_failures(the_pod, GPU_NODE, filters=["Bogus"])


DEFAULT_KEYS = [
    ("node.kubernetes.io/not-ready", "NoExecute"),
    ("node.kubernetes.io/unreachable", "NoExecute"),
    ("node.kubernetes.io/disk-pressure", "NoSchedule"),
    ("node.kubernetes.io/memory-pressure", "NoSchedule"),
    ("node.kubernetes.io/pid-pressure", "NoSchedule"),
    ("node.kubernetes.io/unschedulable", "NoSchedule"),
]


def test_daemonset_pod_adds_default_tolerations():
    own = {"key": "GPU", "operator": "Exists", "effect": "NoSchedule"}
    the_pod = daemonset_pod(daemonset([own]))
    tolerations = the_pod["spec"]["tolerations"]
    assert tolerations[0] == own
    assert [(t["key"], t["effect"], t["operator"]) for t in tolerations[1:]] == [
        (k, e, "Exists") for k, e in DEFAULT_KEYS
    ]
    assert the_pod["kind"] == "Pod"
    assert the_pod["metadata"] == {"labels": {"app": "plugin"}, "name": "plugin", "namespace": "kube-system"}
    assert len(DAEMONSET_DEFAULT_TOLERATIONS) == 6


def test_daemonset_pod_adds_network_unavailable_only_with_host_network():
    plain = [t["key"] for t in daemonset_pod(daemonset())["spec"]["tolerations"]]
    host = daemonset_pod(daemonset(host_network=True))["spec"]["tolerations"]
    assert "node.kubernetes.io/network-unavailable" not in plain
    assert host[-1] == {"key": "node.kubernetes.io/network-unavailable", "operator": "Exists", "effect": "NoSchedule"}


def test_daemonset_pod_replaces_a_matching_toleration_in_place():
    mine = {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30}
    tolerations = daemonset_pod(daemonset([mine]))["spec"]["tolerations"]
    assert tolerations[0] == {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"}
    assert len(tolerations) == 6


def test_daemonset_pod_does_not_modify_the_daemonset():
    original = daemonset([{"key": "GPU", "operator": "Exists"}], host_network=True)
    before = copy.deepcopy(original)
    the_pod = daemonset_pod(original)
    the_pod["spec"]["tolerations"].clear()
    the_pod["metadata"]["labels"]["x"] = "y"
    assert original == before


def test_daemonset_pod_lands_on_cordoned_and_pressured_nodes_but_not_custom_taints():
    the_pod = daemonset_pod(daemonset())
    pressured = with_taints(
        CPU_NODE,
        {"key": "node.kubernetes.io/memory-pressure", "effect": "NoSchedule"},
        {"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"},
        unschedulable=True,
    )
    assert explain(the_pod, pressured) == []
    assert explain(the_pod, GPU_NODE) == ["untolerated taint GPU=true:NoSchedule"]


TEMPLATE = {"metadata": {"labels": {"app": "w"}}, "spec": {"containers": [{"name": "c", "image": "x"}]}}


@pytest.mark.parametrize(
    "workload",
    [
        pytest.param(
            {"kind": "Deployment", "metadata": {"name": "w", "namespace": "ns"}, "spec": {"template": TEMPLATE}},
            id="Deployment's pod template",
        ),
        pytest.param(
            {"kind": "StatefulSet", "metadata": {"name": "w", "namespace": "ns"}, "spec": {"template": TEMPLATE}},
            id="StatefulSet's pod template",
        ),
        pytest.param(
            {"kind": "ReplicaSet", "metadata": {"name": "w", "namespace": "ns"}, "spec": {"template": TEMPLATE}},
            id="ReplicaSet's pod template",
        ),
        pytest.param(
            {"kind": "Job", "metadata": {"name": "w", "namespace": "ns"}, "spec": {"template": TEMPLATE}},
            id="Job's pod template",
        ),
        pytest.param(
            {
                "kind": "CronJob",
                "metadata": {"name": "w", "namespace": "ns"},
                "spec": {"jobTemplate": {"spec": {"template": TEMPLATE}}},
            },
            id="CronJob's job template's pod template",
        ),
    ],
)
def test_pod_of_takes_the_template(workload):
    the_pod = pod_of(workload)
    assert the_pod["kind"] == "Pod"
    assert the_pod["metadata"] == {"labels": {"app": "w"}, "name": "w", "namespace": "ns"}
    assert the_pod["spec"] == TEMPLATE["spec"]
    assert the_pod["spec"] is not TEMPLATE["spec"]


def test_pod_of_a_pod_is_the_pod_and_of_a_daemonset_has_defaults():
    the_pod = {"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": []}}
    assert pod_of(the_pod) is the_pod
    assert len(pod_of(daemonset())["spec"]["tolerations"]) == 6


def test_pod_of_defaults_the_namespace():
    assert (
        pod_of({"kind": "Job", "metadata": {"name": "j"}, "spec": {"template": TEMPLATE}})["metadata"]["namespace"]
        == "default"
    )
    assert workload_id({"kind": "Job", "metadata": {"name": "j"}}) == "default/j"


def test_pod_of_rejects_unknown_kinds_and_missing_templates():
    with pytest.raises(ValueError, match=r"unsupported workload kind 'Service' for ns/s; supported: Pod, Deployment"):
        pod_of({"kind": "Service", "metadata": {"name": "s", "namespace": "ns"}})
    with pytest.raises(ValueError, match=r"Deployment ns/d has no pod template at spec.template"):
        pod_of({"kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"}, "spec": {}})
