"""Audit texts that join several reasons or items, each pinned whole with two of them: a toleration off a taint in
two ways, a device plugin kept off by two filters, an agent missing on two pools, two waiting reasons, a pool of
two instance types, two other untolerated taints, a kubeconfig of two clusters and two users, several snapshot
files, and the severities a bad fail_on is told. Other tests give one item, where every separator reads the same.
"""

from __future__ import annotations

import json

import pytest

from components.stackcheck.__main__ import main
from components.stackcheck.audit.advice import near_miss
from components.stackcheck.audit.kubeconfig import check_kubeconfig
from components.stackcheck.audit.run import AuditOptions, audit, load
from components.stackcheck.audit.snapshot import SnapshotError
from tests.support.audit_objects import (
    GPU_LABELS,
    GPU_TAINT,
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

_PLUGIN_IMAGE = "nvcr.io/nvidia/k8s-device-plugin:v0.18.0"
_UNPRICED = "not priced (Spot or reserved, or no price for its type and region)"
_PENDING_RULE = (
    "the scheduler's filters (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit) on each GPU pool"
)
_MISSING_RULE = "TaintToleration: the DaemonSet's pod does not tolerate the GPU nodes' taint"
_CASES = (
    "key 'gpu' differs from 'GPU' in case only (keys are case sensitive); "
    "value 'True' differs from 'true' in case only (values are case sensitive)"
)


def _waiting(made: dict, *containers: tuple[str, str]) -> dict:
    made["status"]["containerStatuses"] = [
        {"name": name, "ready": False, "restartCount": 3, "state": {"waiting": {"reason": reason}}}
        for name, reason in containers
    ]
    return made


def _near_miss_agent() -> list[dict]:
    plugin = device_plugin()
    agent = daemonset(
        "agent", tolerations=[{"key": "gpu", "operator": "Equal", "value": "True", "effect": "NoSchedule"}]
    )
    return [
        node("sys-1"),
        gpu_node("gpu-1"),
        plugin,
        daemon_pod(plugin, "gpu-1"),
        agent,
        pod("v1", "gpu-1", gpus=1, **VLLM),
    ]


def _plugin_off_by_two_filters() -> list[dict]:
    plugin = daemonset("nvidia-device-plugin", node_selector={"GPU": "yes"}, image=_PLUGIN_IMAGE)
    return [node("sys-1"), gpu_node("gpu-1", gpus=None), plugin, pod("web", "sys-1")]


def _agent_off_two_pools() -> list[dict]:
    plugin, agent = device_plugin(), daemonset("aws-node")
    return [
        node("sys-1"),
        gpu_node("a-1", pool="a"),
        gpu_node("b-1", pool="b"),
        plugin,
        daemon_pod(plugin, "a-1"),
        daemon_pod(plugin, "b-1"),
        agent,
        daemon_pod(agent, "sys-1"),
        pod("v1", "a-1", gpus=1, **VLLM),
        pod("v2", "b-1", gpus=1, owner=("ReplicaSet", "app2"), **VLLM),
    ]


def _plugin_waiting_twice() -> list[dict]:
    plugin = device_plugin()
    looping = _waiting(daemon_pod(plugin, "gpu-1"), ("ctr", "CrashLoopBackOff"), ("init", "ImagePullBackOff"))
    return [node("sys-1"), gpu_node("gpu-1"), plugin, looping, pod("v1", "gpu-1", gpus=1, **VLLM)]


def _too_big_for_two_types() -> list[dict]:
    plugin = device_plugin()
    other = node("gpu-2", "g5.2xlarge", pool="gpu", labels=GPU_LABELS, taints=[GPU_TAINT], gpus=1)
    return [
        node("sys-1"),
        gpu_node("gpu-1"),
        other,
        plugin,
        daemon_pod(plugin, "gpu-1"),
        daemon_pod(plugin, "gpu-2"),
        pod("big", gpus=2, **VLLM),
    ]


def _short_of_two_resources() -> list[dict]:
    plugin = device_plugin()
    return [
        node("sys-1"),
        gpu_node("gpu-1"),
        plugin,
        daemon_pod(plugin, "gpu-1"),
        pod("v1", "gpu-1", gpus=1, **VLLM),
        pod("big", gpus=1, cpu="8", owner=("ReplicaSet", "big"), **VLLM),
    ]


def _two_other_taints() -> list[dict]:
    maintenance = {"key": "maintenance", "value": "true", "effect": "NoSchedule"}
    dedicated = {"key": "dedicated", "value": "ml", "effect": "NoExecute"}
    return [
        node("sys-1"),
        gpu_node("gpu-1", taints=[GPU_TAINT, maintenance, dedicated]),
        device_plugin(),
        pod("big", gpus=1, **VLLM),
    ]


def _pending(title_reason: str, fix: str) -> list[dict]:
    return [
        {
            "kind": "pending-gpu-pods",
            "severity": "error",
            "title": f"1 GPU pod(s) pending: pool gpu: {title_reason}",
            "rule": _PENDING_RULE,
            "fix": fix,
            "objects": ["default/big"],
            "details": [f"pool gpu: {title_reason}"],
        }
    ]


_TWO_TYPES = (
    "requests 2 GPU(s) and the pool's instance types have at most 1 (g5.2xlarge (1x NVIDIA A10G), g5.xlarge "
    "(1x NVIDIA A10G)); a pod runs on one node, so more nodes cannot hold it"
)

# (id, the snapshot's items, the finding kind, every finding of that kind)
FINDINGS = [
    pytest.param(
        _near_miss_agent,
        "node-agent-missing",
        [
            {
                "kind": "node-agent-missing",
                "severity": "warning",
                "title": "DaemonSet kube-system/agent selects 1 GPU node(s) but cannot run there: untolerated taint "
                "GPU=true:NoSchedule",
                "rule": _MISSING_RULE,
                "fix": f"correct the toleration the details name ({_CASES})",
                "objects": ["kube-system/agent", "gpu-1"],
                "details": [
                    f"toleration gpu=True:NoSchedule nearly matches taint GPU=true:NoSchedule: {_CASES}",
                    "pools: gpu",
                ],
            }
        ],
        id="near-miss-in-key-case-and-value-case",
    ),
    pytest.param(
        _plugin_off_by_two_filters,
        "gpu-not-advertised",
        [
            {
                "kind": "gpu-not-advertised",
                "severity": "error",
                "title": "1 GPU node(s) of pool gpu advertise no nvidia.com/gpu",
                "rule": "a GPU instance type or GPU label without nvidia.com/gpu in status.allocatable",
                "fix": "let the device plugin DaemonSet select and tolerate GPU nodes (its nodeSelector and tolerations)",
                "objects": ["gpu-1"],
                "details": [
                    "DaemonSet kube-system/nvidia-device-plugin does not land there: untolerated taint "
                    "GPU=true:NoSchedule; node affinity/selector mismatch: nodeSelector GPU=yes (node has GPU=true)",
                    "gpu-1: g5.xlarge (1x NVIDIA A10G), allocatable nvidia.com/gpu missing",
                ],
            }
        ],
        id="device-plugin-off-by-taint-and-selector",
    ),
    pytest.param(
        _agent_off_two_pools,
        "node-agent-missing",
        [
            {
                "kind": "node-agent-missing",
                "severity": "warning",
                "title": "DaemonSet kube-system/aws-node selects 2 GPU node(s) but cannot run there: untolerated taint "
                "GPU=true:NoSchedule",
                "rule": _MISSING_RULE,
                "fix": "add a toleration of GPU=true:NoSchedule to the DaemonSet's pod template",
                "objects": ["kube-system/aws-node", "a-1", "b-1"],
                "details": ["pools: a, b"],
            }
        ],
        id="agent-missing-on-two-pools",
    ),
    pytest.param(
        _plugin_waiting_twice,
        "node-agent-failing",
        [
            {
                "kind": "node-agent-failing",
                "severity": "error",
                "title": "1 device plugin pod(s) of DaemonSet kube-system/nvidia-device-plugin on GPU nodes wait: "
                "CrashLoopBackOff, ImagePullBackOff",
                "rule": "status.containerStatuses[].state.waiting.reason of the pods on GPU nodes (their phase stays "
                "Running while a container restarts)",
                "fix": "fix what the details say and let the pods restart; until then the node advertises no new GPU "
                "and one that fails stays allocatable",
                "objects": ["kube-system/nvidia-device-plugin-gpu-1"],
                "details": [
                    "CrashLoopBackOff: the container exits soon after it starts; read `kubectl logs --previous` of the pod",
                    "ImagePullBackOff: the image cannot be pulled (name, tag, registry credentials or the node's egress)",
                    "kube-system/nvidia-device-plugin-gpu-1 on gpu-1: Running; ctr: CrashLoopBackOff; init: ImagePullBackOff",
                ],
            }
        ],
        id="plugin-waiting-for-two-reasons",
    ),
    pytest.param(
        _too_big_for_two_types,
        "pending-gpu-pods",
        _pending(
            _TWO_TYPES,
            # The A10G types first, then the catalog's by fewest GPUs and vCPUs: g7.12xlarge and g7e.12xlarge have
            # 2 GPUs and 48 vCPUs, g5g.16xlarge 2 and 64.
            "run the pod on a GPU pool of an instance type with at least 2 GPUs, such as g5.12xlarge (4x NVIDIA A10G), "
            "g5.24xlarge (4x NVIDIA A10G), g5.48xlarge (8x NVIDIA A10G), g7.12xlarge (2x NVIDIA RTX PRO 4500), "
            "g7e.12xlarge (2x NVIDIA RTX PRO 6000), g5g.16xlarge (2x NVIDIA T4G), or request fewer GPUs; raising the "
            "pool's size cannot help",
        ),
        id="pending-on-a-pool-of-two-instance-types",
    ),
    pytest.param(
        _short_of_two_resources,
        "pending-gpu-pods",
        _pending(
            "no node with room; emptiest gpu-1: Insufficient cpu: requests 8000m, free 3720m; "
            "Insufficient nvidia.com/gpu: requests 1, free 0",
            "free or add GPUs: raise the pool's desired/maximum size (see idle GPUs for nodes to reclaim)",
        ),
        id="pending-on-a-node-short-of-cpu-and-gpu",
    ),
    pytest.param(
        _two_other_taints,
        "pending-gpu-pods",
        _pending(
            "1 node(s), e.g. gpu-1: untolerated taint maintenance=true:NoSchedule",
            "the GPU nodes carry maintenance=true:NoSchedule, dedicated=ml:NoExecute, which the pod does not "
            "tolerate: remove the taints from the nodes that carry them, or tolerate them if the pod should run there",
        ),
        id="pending-off-two-other-taints",
    ),
]


@pytest.mark.parametrize(("items", "kind", "expected"), FINDINGS)
def test_a_finding_joins_its_two_reasons(capsys, tmp_path, items, kind, expected):
    _, document = audit_json(capsys, tmp_path, *items())

    assert of_kind(document, kind) == expected


def test_a_near_miss_in_two_fields_names_both():
    toleration = {"key": "gpu", "operator": "Equal", "value": "True", "effect": "NoSchedule"}

    assert near_miss(toleration, GPU_TAINT) == (
        f"toleration gpu=True:NoSchedule nearly matches taint GPU=true:NoSchedule: {_CASES}"
    )


_KUBECONFIG = """\
apiVersion: v1
kind: Config
current-context: test
contexts:
- name: test
  context: {{cluster: {cluster}, user: {user}}}
clusters:
- name: east
  cluster: {{server: https://east.example}}
- name: west
  cluster: {{server: https://west.example}}
users:
- name: alice
  user: {{token: a}}
- name: bob
  user: {{token: b}}
"""


@pytest.mark.parametrize(
    ("cluster", "user", "message"),
    [
        pytest.param(
            "north",
            "alice",
            "context 'test' names cluster 'north', which the kubeconfig does not define; clusters: east, west",
            id="unknown-cluster-of-two",
        ),
        pytest.param(
            "east",
            "carol",
            "context 'test' names user 'carol', which the kubeconfig does not define; users: alice, bob",
            id="unknown-user-of-two",
        ),
    ],
)
def test_a_context_naming_an_undefined_entry_lists_both_defined(tmp_path, cluster, user, message):
    path = tmp_path / "kubeconfig"
    path.write_text(_KUBECONFIG.format(cluster=cluster, user=user))

    with pytest.raises(SnapshotError) as raised:
        check_kubeconfig(path, None)

    assert str(raised.value) == f"{path}: {message}"


def test_a_kubeconfig_of_two_clusters_gives_its_context(tmp_path):
    path = tmp_path / "kubeconfig"
    path.write_text(_KUBECONFIG.format(cluster="west", user="bob"))

    assert check_kubeconfig(path, None) == "test"


def test_several_snapshot_files_without_pods_are_named_in_the_error(capsys, monkeypatch, tmp_path):
    (tmp_path / "snap").mkdir()
    write(tmp_path / "snap" / "a.json", snapshot(node("sys-1")))
    write(tmp_path / "snap" / "b.json", snapshot(gpu_node("gpu-1")))
    monkeypatch.chdir(tmp_path)

    code = main(["audit", "--snapshot", "snap"])

    assert code == 2
    assert capsys.readouterr().err == (
        "stackcheck audit: error: snap/a.json, snap/b.json: no Pod objects; the audit needs nodes, pods and "
        "DaemonSets, as written by: kubectl get nodes,pods,daemonsets -A -o json\n"
    )


def test_load_gives_the_sources_of_every_file(tmp_path):
    (tmp_path / "snap").mkdir()
    write(tmp_path / "snap" / "nodes.json", snapshot(node("sys-1")))
    write(tmp_path / "snap" / "pods.json", snapshot(pod("web", "sys-1")))

    loaded = load(AuditOptions(project_dir=tmp_path, snapshot=str(tmp_path / "snap")))

    assert loaded.sources == [str(tmp_path / "snap" / "nodes.json"), str(tmp_path / "snap" / "pods.json")]


@pytest.mark.parametrize(
    "fail_on",
    [pytest.param("fatal", id="unknown"), pytest.param("Error", id="wrong-case"), pytest.param("", id="empty")],
)
def test_an_invalid_fail_on_lists_every_severity(tmp_path, fail_on):
    write(tmp_path / "s.json", snapshot(node("sys-1"), pod("web", "sys-1")))
    options = AuditOptions(project_dir=tmp_path, snapshot=str(tmp_path / "s.json"), fail_on=fail_on)
    loaded = load(options)

    with pytest.raises(ValueError) as raised:
        audit(loaded, options)

    assert str(raised.value) == f"fail_on {fail_on!r}; allowed: error, warning, info"


def test_an_item_without_kind_in_a_plain_list_lists_every_allowed_kind(capsys, tmp_path):
    item = node("sys-1")
    del item["kind"]
    file = write(tmp_path / "s.json", snapshot(item, pod("web", "sys-1")))

    code = main(["audit", "--snapshot", str(file)])

    assert code == 2
    assert capsys.readouterr().err == (
        f"stackcheck audit: error: {file}: an item has no `kind` and the List does not say what it holds; "
        "allowed kinds: Node, Pod, DaemonSet\n"
    )


def test_a_typed_list_gives_its_kind_to_items_without_one(capsys, tmp_path):
    item = node("sys-1")
    del item["kind"]
    write(tmp_path / "nodes.json", {**snapshot(item), "kind": "NodeList"})
    write(tmp_path / "pods.json", snapshot(pod("web", "sys-1")))

    code = main(["audit", "--snapshot", str(tmp_path), "--format", "json"])
    summary = json.loads(capsys.readouterr().out)["summary"]

    assert code == 0
    assert (summary["nodes"], summary["pods"], summary["boundPods"]) == (1, 1, 1)
