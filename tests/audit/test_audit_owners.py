"""Findings grouped by the pods' controller, and the inputs real clusters produce: the controller anywhere among
the owner references, Failed and Succeeded pods, label values that differ only in case."""

from __future__ import annotations

import pytest

from components.stackcheck.audit.model import Snapshot
from tests.support.audit_objects import (
    ALL_TAINTS,
    VLLM,
    audit_json,
    daemon_pod,
    daemonset,
    device_plugin,
    gpu_node,
    node,
    of_kind,
    pod,
)

RS = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d4b9c", "controller": True}


def base() -> list[dict]:
    plugin = device_plugin()
    return [node("sys-1"), gpu_node("gpu-1"), plugin, daemon_pod(plugin, "gpu-1")]


def owned(name: str, references: list[dict], labels: dict | None = None) -> dict:
    made = pod(name, "gpu-1", tolerations=ALL_TAINTS, owner=None, labels=labels)
    made["metadata"]["ownerReferences"] = references
    return made


# (case, ownerReferences, pod labels, the owner findings name)
OWNERS = [
    ("controller first", [RS], {}, "of ReplicaSet default/web-7d4b9c"),
    (
        "controller after a plain owner",
        [{"kind": "ConfigMap", "name": "holder"}, {**RS, "name": "web-x"}],
        {},
        "of ReplicaSet default/web-x",
    ),
    (
        "controller: false is no controller",
        [{"kind": "StatefulSet", "name": "db", "controller": False}],
        {},
        "without a controller in namespace default",
    ),
    ("no controller field", [{"kind": "Job", "name": "batch"}], {}, "without a controller in namespace default"),
    ("a Deployment's ReplicaSet", [RS], {"pod-template-hash": "7d4b9c"}, "of Deployment default/web"),
    ("a hash the name does not end in", [RS], {"pod-template-hash": "0000"}, "of ReplicaSet default/web-7d4b9c"),
    ("a StatefulSet", [{"kind": "StatefulSet", "name": "db", "controller": True}], {}, "of StatefulSet default/db"),
    ("a Job", [{"kind": "Job", "name": "embed-29", "controller": True}], {}, "of Job default/embed-29"),
    ("no owner", [], {}, "without a controller in namespace default"),
]


@pytest.mark.parametrize(("case", "references", "labels", "owner"), OWNERS, ids=[c[0] for c in OWNERS])
def test_findings_name_the_controller_reference(capsys, tmp_path, case, references, labels, owner):
    _, document = audit_json(capsys, tmp_path, *base(), owned("p", references, labels))

    [leak] = of_kind(document, "gpu-leak")
    assert leak["title"] == f"1 pod(s) {owner} request no GPU but run on GPU pool gpu"


def test_a_daemonset_controller_after_another_owner_makes_a_node_agent_not_a_leak(capsys, tmp_path):
    agent = daemonset("logs", tolerations=ALL_TAINTS)
    agent_pod = daemon_pod(agent, "gpu-1")
    agent_pod["metadata"]["ownerReferences"] = [
        {"kind": "Node", "name": "gpu-1"},
        {"kind": "DaemonSet", "name": "logs", "controller": True},
    ]
    _, document = audit_json(capsys, tmp_path, *base(), agent, agent_pod)

    assert of_kind(document, "gpu-leak") == []


def test_pods_of_one_deployment_on_several_pools_and_replicasets_are_one_finding(capsys, tmp_path):
    other = [{"key": "GPU", "value": "true", "effect": "NoSchedule"}, {"key": "big", "effect": "NoExecute"}]
    items = [*base(), gpu_node("gpu-2", pool="big", taints=other)]
    for index in range(300):
        rs = "web-aaa" if index % 2 else "web-bbb"
        labels = {"pod-template-hash": rs.split("-")[1]}
        made = owned(f"web-{index}", [{**RS, "name": rs}], labels)
        made["spec"]["nodeName"] = "gpu-1" if index % 3 else "gpu-2"
        items.append(made)
    items.append(owned("other", [{"kind": "StatefulSet", "name": "db", "controller": True}]))
    _, document = audit_json(capsys, tmp_path, *items)

    leaks = of_kind(document, "gpu-leak")
    assert sorted(leak["title"] for leak in leaks) == [
        "1 pod(s) of StatefulSet default/db request no GPU but run on GPU pool gpu",
        "300 pod(s) of Deployment default/web request no GPU but run on GPU pools big, gpu",
    ]
    [web] = [leak for leak in leaks if "Deployment" in leak["title"]]
    assert sorted(web["objects"]) == sorted(f"default/web-{i}" for i in range(300))
    assert web["details"][:2] == [
        "toleration operator Exists without key tolerates GPU=true:NoSchedule",
        "toleration operator Exists without key tolerates big:NoExecute (100 of 300 pods)",
    ]
    samples = web["details"][2:]
    assert len(samples) == 8
    for line in samples:
        name, node_name = line.removeprefix("default/web-").split(" on ")
        assert node_name == ("gpu-1" if int(name) % 3 else "gpu-2")


def test_daemonset_pods_failing_with_per_node_reasons_are_one_finding(capsys, tmp_path):
    # Each node's zone label differs, so each pod's NodeAffinity text differs: still one finding per owner.
    zoned = daemonset("zonal", tolerations=ALL_TAINTS, node_selector={"topology.kubernetes.io/zone": "z0"})
    items = [zoned]
    for index in range(12):
        items.append(node(f"n{index}", labels={"topology.kubernetes.io/zone": f"z{index + 1}"}))
        items.append(daemon_pod(zoned, f"n{index}"))
    items.append(pod("web-1", "n0"))
    _, document = audit_json(capsys, tmp_path, *items)

    [mismatch] = of_kind(document, "model-mismatch")
    assert (
        mismatch["title"]
        == "12 running pod(s) of DaemonSet kube-system/zonal could not be scheduled on their node today"
    )
    reasons = mismatch["details"][:9]
    assert (
        reasons[0]
        == "node affinity/selector mismatch: nodeSelector topology.kubernetes.io/zone=z0 (node has topology.kubernetes.io/zone=z1) (1 of 12 pods)"
    )
    assert reasons[8] == "and 4 more distinct reason(s)"
    assert mismatch["details"][9:] == [f"kube-system/zonal-n{i} on n{i}" for i in range(8)]


# (case, the extra items, kind that must not appear for them, the pods each finding of that kind lists)
FINISHED = [
    (
        "Failed pod without GPUs on a GPU node is no leak",
        [pod("web-f", "gpu-1", phase="Failed", tolerations=ALL_TAINTS)],
        "gpu-leak",
    ),
    (
        "Succeeded pod without GPUs on a GPU node is no leak",
        [pod("web-s", "gpu-1", phase="Succeeded", tolerations=ALL_TAINTS)],
        "gpu-leak",
    ),
    (
        "Failed GPU pod that never bound is not pending",
        [pod("vllm-f", phase="Failed", gpus=1, **VLLM)],
        "pending-gpu-pods",
    ),
    (
        "Failed pod under a taint it does not tolerate is no mismatch",
        [pod("old", "gpu-1", phase="Failed")],
        "model-mismatch",
    ),
]


@pytest.mark.parametrize(("case", "extra", "kind"), FINISHED, ids=[c[0] for c in FINISHED])
def test_finished_pods_hold_nothing_and_are_no_finding(capsys, tmp_path, case, extra, kind):
    serving = pod("vllm-1", "gpu-1", gpus=1, **VLLM)
    _, document = audit_json(capsys, tmp_path, *base(), serving, *extra)

    assert of_kind(document, kind) == []
    assert document["summary"]["pods"] == 3


def test_a_failed_gpu_pod_leaves_its_gpus_idle(capsys, tmp_path):
    _, document = audit_json(capsys, tmp_path, *base(), pod("vllm-1", "gpu-1", phase="Failed", gpus=1, **VLLM))

    [idle] = of_kind(document, "idle-gpus")
    assert idle["objects"] == ["gpu-1"] and document["pools"][0]["gpusRequested"] == 0


# (case, the GPU node's label value, whether the vLLM pod selecting GPU=true is pending)
LABEL_CASES = [
    ("exact value", "true", False),
    ("capitalised value", "True", True),
    ("upper-case value", "TRUE", True),
]


@pytest.mark.parametrize(("case", "value", "pending"), LABEL_CASES, ids=[c[0] for c in LABEL_CASES])
def test_label_values_are_matched_case_sensitively(capsys, tmp_path, case, value, pending):
    gpu = gpu_node("gpu-1")
    gpu["metadata"]["labels"]["GPU"] = value
    plugin = device_plugin()
    plugin["spec"]["template"]["spec"]["nodeSelector"] = {"GPU": value}
    vllm = pod("vllm-1", gpus=1, **VLLM)
    _, document = audit_json(capsys, tmp_path, node("sys-1"), gpu, plugin, daemon_pod(plugin, "gpu-1"), vllm)

    found = of_kind(document, "pending-gpu-pods")
    if not pending:
        assert found[0]["details"] == [
            "pool gpu: fits on gpu-1 now: not yet bound, or held by something this audit does not model (volumes, pod affinity, topology spread, scheduling gates)"
        ]
        return
    assert f"nodeSelector GPU=true (node has GPU={value})" in found[0]["details"][0]


def test_controller_is_read_from_any_position_in_the_snapshot_model():
    built = Snapshot()
    item = owned("p", [{"kind": "Node", "name": "n"}, {"kind": "DaemonSet", "name": "agent", "controller": True}])
    built.add("Pod", item)
    [read] = built.pods
    assert (read.owner_kind, read.owner_name, read.owner) == ("DaemonSet", "agent", "DaemonSet default/agent")


def test_pods_without_a_controller_are_grouped_per_namespace(capsys, tmp_path):
    bare = [owned(f"p{i}", []) for i in range(40)]
    other = pod("q", "gpu-1", namespace="batch", tolerations=ALL_TAINTS, owner=None)
    _, document = audit_json(capsys, tmp_path, *base(), *bare, other)

    titles = sorted(leak["title"] for leak in of_kind(document, "gpu-leak"))
    assert titles == [
        "1 pod(s) without a controller in namespace batch request no GPU but run on GPU pool gpu",
        "40 pod(s) without a controller in namespace default request no GPU but run on GPU pool gpu",
    ]
