"""Each finding of `python -m components.stackcheck audit` on small hand-built snapshots: what it reports, and what it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from components.stackcheck.__main__ import main
from tests.support.audit_findings import healthy
from tests.support.audit_objects import (
    ALL_TAINTS,
    GPU_TOLERATION,
    VLLM,
    audit_json,
    daemon_pod,
    daemonset,
    device_plugin,
    gpu_node,
    node,
    of_kind,
    pod,
    snapshot,
    write,
)

ROOT = Path(__file__).resolve().parents[2]


def test_a_healthy_cluster_has_no_findings_and_exits_0(capsys, tmp_path):
    code, document = audit_json(capsys, tmp_path, *healthy())

    assert code == 0
    assert document["findings"] == [] and document["exitCode"] == 0
    assert document["schemaVersion"] == 1 and document["command"] == "audit"
    assert document["summary"]["nodes"] == 2 and document["summary"]["gpuNodes"] == 1
    assert document["pools"] == [
        {
            "pool": "gpu",
            "instanceTypes": ["g5.xlarge"],
            "nodes": 1,
            "gpusAllocatable": 1,
            "gpusRequested": 1,
            "gpusIdle": 0,
            "nodesWithoutGpuRequests": 0,
        }
    ]
    assert document["contract"]["label"] == {"key": "GPU", "value": "true"}
    assert document["contract"]["taint"] == {"key": "GPU", "value": "true", "effect": "NoSchedule"}
    assert document["contract"]["origin"].startswith("inferred from 1 GPU node")


# (case, extra items, kind, severity, objects, text expected in title or details)
CASES = [
    (
        "idle node",
        [gpu_node("gpu-2")],
        "idle-gpus",
        "warning",
        ["gpu-2"],
        "gpu-2: g5.xlarge (1x NVIDIA A10G), 1 GPU(s) allocatable, 0 requested",
    ),
    (
        "idle GPUs beside a GPU pod",
        [
            node(
                "big-1",
                "g5.12xlarge",
                pool="big",
                labels={"GPU": "true"},
                taints=[{"key": "GPU", "value": "true", "effect": "NoSchedule"}],
                gpus=4,
            ),
            pod("vllm-big", "big-1", gpus=1, **VLLM),
        ],
        "idle-gpus",
        "info",
        ["big-1"],
        "big-1: g5.12xlarge (4x NVIDIA A10G), 4 allocatable, 1 requested",
    ),
    (
        "catch-all toleration on a GPU node",
        [pod("web-2", "gpu-1", tolerations=ALL_TAINTS, owner=("ReplicaSet", "web"))],
        "gpu-leak",
        "warning",
        ["default/web-2"],
        "toleration operator Exists without key tolerates GPU=true:NoSchedule",
    ),
    (
        "GPU node without the taint",
        [
            gpu_node("gpu-open", taints=[]),
            pod("vllm-2", "gpu-open", gpus=1, **VLLM),
            pod("web-3", "gpu-open", owner=("ReplicaSet", "web")),
        ],
        "gpu-leak",
        "warning",
        ["default/web-3"],
        "the node has no NoSchedule/NoExecute taint",
    ),
    (
        "GPU pod without the toleration",
        [pod("embed-1", gpus=1, owner=("Job", "embed"))],
        "pending-gpu-pods",
        "error",
        ["default/embed-1"],
        "pool gpu: 1 node(s), e.g. gpu-1: untolerated taint GPU=true:NoSchedule",
    ),
    (
        "GPU pod with no GPU left",
        [pod("vllm-2", gpus=1, **VLLM)],
        "pending-gpu-pods",
        "error",
        ["default/vllm-2"],
        "pool gpu: no node with room; emptiest gpu-1: Insufficient nvidia.com/gpu: requests 1, free 0",
    ),
    (
        "GPU pod selecting a missing label",
        [pod("vllm-2", gpus=1, tolerations=[GPU_TOLERATION], node_selector={"gpu-type": "h100"})],
        "pending-gpu-pods",
        "error",
        ["default/vllm-2"],
        "nodeSelector gpu-type=h100 (node has no label gpu-type)",
    ),
    (
        "GPU node whose plugin finds no GPU",
        [gpu_node("gpu-2", gpus=None), daemon_pod(device_plugin(), "gpu-2")],
        "gpu-not-advertised",
        "error",
        ["gpu-2"],
        "device-plugin pod kube-system/nvidia-device-plugin-gpu-2 is on the node (Running) but advertises no GPU",
    ),
    (
        "GPU node advertising 0",
        [gpu_node("gpu-2", gpus=0)],
        "gpu-not-advertised",
        "error",
        ["gpu-2"],
        "DaemonSet kube-system/nvidia-device-plugin selects the node but has no pod on it yet",
    ),
    (
        "agent without the toleration",
        [
            daemonset("node-exporter", namespace="monitoring"),
            daemon_pod(daemonset("node-exporter", namespace="monitoring"), "sys-1"),
        ],
        "node-agent-missing",
        "warning",
        ["monitoring/node-exporter", "gpu-1"],
        "DaemonSet monitoring/node-exporter selects 1 GPU node(s) but cannot run there: untolerated taint GPU=true:NoSchedule",
    ),
    (
        "taint added after the pod started",
        [
            node("sys-2", taints=[{"key": "dedicated", "value": "infra", "effect": "NoExecute"}]),
            pod("web-9", "sys-2", owner=("ReplicaSet", "web")),
        ],
        "model-mismatch",
        "warning",
        ["default/web-9"],
        "untolerated taint dedicated=infra:NoExecute",
    ),
    (
        "selector no longer matching",
        [
            pod(
                "report-1",
                "sys-1",
                node_selector={"eks.amazonaws.com/nodegroup": "old"},
                owner=("ReplicaSet", "report"),
            )
        ],
        "model-mismatch",
        "warning",
        ["default/report-1"],
        "nodeSelector eks.amazonaws.com/nodegroup=old (node has eks.amazonaws.com/nodegroup=m6i)",
    ),
]


@pytest.mark.parametrize(("case", "extra", "kind", "severity", "objects", "text"), CASES, ids=[c[0] for c in CASES])
def test_each_problem_gives_its_finding_and_no_other(capsys, tmp_path, case, extra, kind, severity, objects, text):
    code, document = audit_json(capsys, tmp_path, *healthy(), *extra)

    findings = document["findings"]
    assert [(f["kind"], f["severity"]) for f in findings] == [(kind, severity)], findings
    finding = findings[0]
    assert finding["objects"] == objects
    assert any(text in line for line in [finding["title"], *finding["details"]]), finding
    assert finding["fix"] and finding["rule"]
    assert code == (0 if severity == "info" else 1) == document["exitCode"]


def mirror_pod(name: str, node_name: str) -> dict:
    made = pod(name, node_name, namespace="kube-system", owner=("Node", node_name))
    made["metadata"]["annotations"] = {"kubernetes.io/config.mirror": "0123abcd"}
    return made


@pytest.mark.parametrize(
    "benign",
    [
        pytest.param(
            [pod("agent-x", "gpu-1", tolerations=ALL_TAINTS, owner=("DaemonSet", "aws-node"))], id="node agent"
        ),
        pytest.param([mirror_pod("kube-proxy-gpu-1", "gpu-1")], id="mirror pod of a static pod"),
        pytest.param([pod("done", "gpu-1", phase="Succeeded", tolerations=ALL_TAINTS)], id="finished pod"),
        pytest.param(
            [daemonset("cpu-only", node_selector={"eks.amazonaws.com/nodegroup": "m6i"})], id="agent for CPU nodes"
        ),
        pytest.param([pod("cpu-pending", cpu="100")], id="pending pod without GPUs"),
    ],
)
def test_what_is_not_a_finding(capsys, tmp_path, benign):
    code, document = audit_json(capsys, tmp_path, *healthy(), *benign)

    assert document["findings"] == [] and code == 0


def test_pod_that_predates_the_gpu_taint_is_a_leak_and_a_mismatch(capsys, tmp_path):
    _, document = audit_json(capsys, tmp_path, *healthy(), pod("old-web", "gpu-1", owner=("ReplicaSet", "old")))

    [leak] = of_kind(document, "gpu-leak")
    assert leak["details"][0] == (
        "no toleration of GPU=true:NoSchedule: the pod was placed before the taint (see model-mismatch)"
    )
    [mismatch] = of_kind(document, "model-mismatch")
    assert mismatch["objects"] == ["default/old-web"]
    assert mismatch["details"][0] == "untolerated taint GPU=true:NoSchedule"


def test_pending_pod_that_fits_now_is_said_to_fit(capsys, tmp_path):
    items = [
        *healthy(),
        gpu_node("gpu-2"),
        daemon_pod(device_plugin(), "gpu-2"),
        pod("vllm-2", "gpu-2", gpus=1, **VLLM),
        gpu_node("gpu-3"),
        pod("vllm-3", gpus=1, **VLLM),
    ]
    _, document = audit_json(capsys, tmp_path, *items)

    [pending] = of_kind(document, "pending-gpu-pods")
    assert pending["details"][0].startswith("pool gpu: fits on gpu-3 now")


def test_pending_pod_reasons_differ_per_node_of_a_pool(capsys, tmp_path):
    cordoned = gpu_node("gpu-2")
    cordoned["spec"]["unschedulable"] = True
    _, document = audit_json(capsys, tmp_path, *healthy(), cordoned, pod("embed", gpus=1))

    [pending] = of_kind(document, "pending-gpu-pods")
    assert pending["details"] == [
        "pool gpu: 1 node(s), e.g. gpu-1: untolerated taint GPU=true:NoSchedule | 1 node(s), e.g. gpu-2: node is "
        "unschedulable (cordoned) and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule; "
        "untolerated taint GPU=true:NoSchedule"
    ]


def test_pending_gpu_pods_without_gpu_nodes_say_so(capsys, tmp_path):
    _, document = audit_json(capsys, tmp_path, node("sys-1"), pod("web", "sys-1"), pod("vllm", gpus=1, **VLLM))

    [pending] = of_kind(document, "pending-gpu-pods")
    assert pending["details"] == [
        "no GPU node in the snapshot (a pool at zero nodes is not listed; its autoscaler decides whether to add one)"
    ]
    assert document["contract"]["label"] is None


def test_pending_pods_are_grouped_by_reason_across_shapes(capsys, tmp_path):
    items = [
        *healthy(),
        pod("a", gpus=1),
        pod("b", gpus=1, cpu="200m", owner=("Job", "other")),
        pod("c", gpus=1, owner=("Job", "serve"), **VLLM),
    ]
    _, document = audit_json(capsys, tmp_path, *items)

    groups = sorted(f["objects"] for f in of_kind(document, "pending-gpu-pods"))
    assert groups == [["default/a", "default/b"], ["default/c"]]


def test_pending_pods_of_one_owner_are_one_finding_whatever_their_reasons(capsys, tmp_path):
    items = [*healthy(), pod("a", gpus=1), pod("c", gpus=1, **VLLM), pod("d", gpus=1, owner=("Job", "x"), **VLLM)]
    _, document = audit_json(capsys, tmp_path, *items)

    [pending] = of_kind(document, "pending-gpu-pods")
    assert pending["objects"] == ["default/a", "default/c", "default/d"]
    assert pending["title"].startswith(
        "3 GPU pod(s) pending: 2 distinct reasons, most often pool gpu: no node with room"
    )
    assert pending["details"] == [
        "pool gpu: 1 node(s), e.g. gpu-1: untolerated taint GPU=true:NoSchedule (1 of 3 pods)",
        "pool gpu: no node with room; emptiest gpu-1: Insufficient nvidia.com/gpu: requests 1, free 0 (2 of 3 pods)",
    ]
    assert pending["fix"].startswith("add the toleration GPU=true:NoSchedule")
    assert "raise the pool's desired/maximum size" in pending["fix"]


def test_pending_daemonset_pods_pinned_to_their_nodes_are_one_finding(capsys, tmp_path):
    burn = daemonset("gpu-burn", tolerations=[GPU_TOLERATION], node_selector={"GPU": "true"})
    items = [node("sys-1"), burn]
    for index in range(6):
        items.append(gpu_node(f"gpu-{index}", gpus=0))
        pinned = daemon_pod(burn, f"gpu-{index}")
        del pinned["spec"]["nodeName"]
        pinned["status"]["phase"] = "Pending"
        pinned["spec"]["containers"][0]["resources"] = {"limits": {"nvidia.com/gpu": "1"}}
        items.append(pinned)
    _, document = audit_json(capsys, tmp_path, *items)

    [pending] = of_kind(document, "pending-gpu-pods")
    assert pending["objects"] == [f"kube-system/gpu-burn-gpu-{i}" for i in range(6)]
    assert len(pending["details"]) == 6 and all(line.endswith("(1 of 6 pods)") for line in pending["details"])


def test_device_plugin_that_does_not_tolerate_the_taint_is_named_for_nodes_without_gpus(capsys, tmp_path):
    plugin = daemonset("nvidia-device-plugin", image="nvcr.io/nvidia/k8s-device-plugin:v0.18.0")
    items = [node("sys-1"), gpu_node("gpu-1", gpus=None), plugin, daemon_pod(plugin, "sys-1")]
    _, document = audit_json(capsys, tmp_path, *items)

    [finding] = of_kind(document, "gpu-not-advertised")
    assert (
        "DaemonSet kube-system/nvidia-device-plugin does not land there: untolerated taint GPU=true:NoSchedule"
        in finding["details"]
    )


def test_fail_on_sets_the_threshold(capsys, tmp_path):
    items = [*healthy(), gpu_node("gpu-2")]  # one warning: an idle GPU
    assert audit_json(capsys, tmp_path, *items, args=("--fail-on", "error"))[0] == 0
    assert audit_json(capsys, tmp_path, *items, args=("--fail-on", "warning"))[0] == 1
    assert audit_json(capsys, tmp_path, *items, args=("--fail-on", "info"))[0] == 1


def test_contract_from_the_stack_is_used_and_stated(capsys, tmp_path):
    items = [*healthy(), pod("embed-1", gpus=1)]
    _, document = audit_json(capsys, tmp_path, *items, args=("--stack", "dev", "--project-dir", str(ROOT)))

    assert document["contract"] == {
        "label": {"key": "GPU", "value": "true"},
        "taint": {"key": "GPU", "value": "true", "effect": "NoSchedule"},
        "origin": "stack dev",
    }
    [pending] = of_kind(document, "pending-gpu-pods")
    assert "add the toleration GPU=true:NoSchedule" in pending["fix"]


def test_a_node_labelled_by_the_stack_contract_is_a_gpu_node_whatever_its_type(capsys, tmp_path):
    items = [node("sys-1"), node("odd-1", "x9z.large", labels={"GPU": "true"}), pod("w", "sys-1")]
    _, document = audit_json(capsys, tmp_path, *items, args=("--stack", "dev", "--project-dir", str(ROOT)))

    assert document["summary"]["gpuNodes"] == 1
    assert [f["objects"] for f in of_kind(document, "gpu-not-advertised")] == [["odd-1"]]


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_text_and_markdown_name_every_finding(capsys, tmp_path, fmt):
    items = [*healthy(), gpu_node("gpu-2"), pod("embed-1", gpus=1)]
    _, document = audit_json(capsys, tmp_path, *items)
    file = write(tmp_path / "snapshot.json", snapshot(*items))

    code = main(["audit", "--snapshot", str(file), "--format", fmt])
    out = capsys.readouterr().out

    assert code == 1
    for finding in document["findings"]:
        title = finding["title"].replace("|", "\\|") if fmt == "markdown" else finding["title"]
        assert title in out
    assert "2 finding(s): 1 error, 1 warning; exit 1 (--fail-on warning)." in out
    assert ("| gpu | g5.xlarge | 2 | 2 | 1 | 1 | 1 |" if fmt == "markdown" else "GPU pools") in out
