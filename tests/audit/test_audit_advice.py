"""The audit's advice: instance types that could hold a GPU request no pool can, container states of the GPU
node agents, and tolerations that nearly match a taint."""

from __future__ import annotations

import pytest

from components.stackcheck.audit.advice import edit_distance, near_miss
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
    of_kind,
    pod,
)


def cluster() -> list[dict]:
    plugin = device_plugin()
    return [node("sys-1"), gpu_node("gpu-1"), plugin, daemon_pod(plugin, "gpu-1")]


# (case, GPUs requested, text in the details, text in the fix, text the fix must not hold)
TOO_LARGE = [
    (
        "4 GPUs on a pool of 1-GPU nodes",
        4,
        "pool gpu: requests 4 GPU(s) and the pool's instance types have at most 1 (g5.xlarge (1x NVIDIA A10G)); "
        "a pod runs on one node, so more nodes cannot hold it",
        "run the pod on a GPU pool of an instance type with at least 4 GPUs, such as g5.12xlarge (4x NVIDIA A10G), "
        "g5.24xlarge (4x NVIDIA A10G), g5.48xlarge (8x NVIDIA A10G), g4dn.12xlarge (4x NVIDIA T4)",
        "raise the pool's desired/maximum size",
    ),
    (
        "3 GPUs: the next size up that has as many",
        3,
        "requests 3 GPU(s) and the pool's instance types have at most 1",
        "at least 3 GPUs, such as g5.12xlarge (4x NVIDIA A10G)",
        "raise the pool's desired/maximum size",
    ),
    (
        "more GPUs than any instance type has",
        32,
        "requests 32 GPU(s) and the pool's instance types have at most 1",
        "no instance type has 32 GPUs (at most 8): split the work over several pods",
        "such as",
    ),
    (
        "1 GPU on a full pool: more nodes do help",
        1,
        "pool gpu: no node with room; emptiest gpu-1: Insufficient nvidia.com/gpu: requests 1, free 0",
        "free or add GPUs: raise the pool's desired/maximum size",
        "instance type with at least",
    ),
]


@pytest.mark.parametrize(("case", "gpus", "detail", "fix", "not_in_fix"), TOO_LARGE, ids=[c[0] for c in TOO_LARGE])
def test_a_request_no_instance_type_of_the_pool_holds_names_the_types_that_would(
    capsys, tmp_path, case, gpus, detail, fix, not_in_fix
):
    serving = pod("vllm-1", "gpu-1", gpus=1, **VLLM)
    _, document = audit_json(capsys, tmp_path, *cluster(), serving, pod("big", gpus=gpus, **VLLM))

    [pending] = of_kind(document, "pending-gpu-pods")
    assert pending["objects"] == ["default/big"]
    assert detail in pending["details"][0]
    assert fix in pending["fix"] and not_in_fix not in pending["fix"]


def test_a_pool_too_small_and_a_pool_without_room_get_both_fixes(capsys, tmp_path):
    big = node(
        "big-1",
        "g5.12xlarge",
        pool="big",
        labels={"GPU": "true", "nvidia.com/gpu.present": "true"},
        taints=[GPU_TAINT],
        gpus=4,
    )
    items = [*cluster(), big, pod("held", "big-1", gpus=4, **VLLM), pod("vllm-1", "gpu-1", gpus=1, **VLLM)]
    _, document = audit_json(capsys, tmp_path, *items, pod("two", gpus=2, **VLLM))

    [pending] = of_kind(document, "pending-gpu-pods")
    assert pending["details"][0].startswith("pool big: no node with room; emptiest big-1")
    assert pending["details"][1].startswith("pool gpu: requests 2 GPU(s) and the pool's instance types have at most 1")
    assert "raise the pool's desired/maximum size" in pending["fix"]
    assert "at least 2 GPUs, such as g5.12xlarge (4x NVIDIA A10G)" in pending["fix"]


def waiting(made: dict, container: str, reason: str) -> dict:
    made["status"]["containerStatuses"] = [
        {"name": container, "ready": False, "restartCount": 7, "state": {"waiting": {"reason": reason}}}
    ]
    return made


EXPORTER = daemonset(
    "dcgm-exporter",
    tolerations=[GPU_TOLERATION],
    node_selector={"GPU": "true"},
    image="nvcr.io/nvidia/k8s/dcgm-exporter:4.2.3-4.1.3-ubuntu22.04",
)


# (case, the agent DaemonSet, container, waiting reason, severity, title, advice line)
FAILING = [
    (
        "device plugin crash-looping",
        device_plugin(),
        "nvidia-device-plugin-ctr",
        "CrashLoopBackOff",
        "error",
        "1 device plugin pod(s) of DaemonSet kube-system/nvidia-device-plugin on GPU nodes wait: CrashLoopBackOff",
        "CrashLoopBackOff: the container exits soon after it starts; read `kubectl logs --previous` of the pod",
    ),
    (
        "exporter image not pulled",
        EXPORTER,
        "exporter",
        "ImagePullBackOff",
        "warning",
        "1 DCGM exporter pod(s) of DaemonSet kube-system/dcgm-exporter on GPU nodes wait: ImagePullBackOff",
        "ImagePullBackOff: the image cannot be pulled (name, tag, registry credentials or the node's egress)",
    ),
]


@pytest.mark.parametrize(
    ("case", "agent", "container", "reason", "severity", "title", "advice"), FAILING, ids=[c[0] for c in FAILING]
)
def test_waiting_agent_containers_are_shown_not_their_running_phase(
    capsys, tmp_path, case, agent, container, reason, severity, title, advice
):
    items = [node("sys-1"), gpu_node("gpu-1"), agent, waiting(daemon_pod(agent, "gpu-1"), container, reason)]
    if agent is EXPORTER:
        plugin = device_plugin()
        items += [plugin, daemon_pod(plugin, "gpu-1")]
    items.append(pod("vllm-1", "gpu-1", gpus=1, **VLLM))
    _, document = audit_json(capsys, tmp_path, *items)

    [failing] = of_kind(document, "node-agent-failing")
    assert (failing["severity"], failing["title"]) == (severity, title)
    assert failing["details"] == [
        advice,
        f"kube-system/{agent['metadata']['name']}-gpu-1 on gpu-1: Running; {container}: {reason}",
    ]


def test_a_running_agent_without_waiting_containers_is_no_finding(capsys, tmp_path):
    healthy = daemon_pod(EXPORTER, "gpu-1")
    healthy["status"]["containerStatuses"] = [{"name": "exporter", "ready": True, "state": {"running": {}}}]
    _, document = audit_json(capsys, tmp_path, *cluster(), EXPORTER, healthy, pod("v", "gpu-1", gpus=1, **VLLM))

    assert of_kind(document, "node-agent-failing") == []


def test_a_crash_looping_plugin_on_a_node_without_gpus_says_so(capsys, tmp_path):
    plugin = device_plugin()
    looping = waiting(daemon_pod(plugin, "gpu-1"), "nvidia-device-plugin-ctr", "CrashLoopBackOff")
    _, document = audit_json(capsys, tmp_path, node("sys-1"), gpu_node("gpu-1", gpus=None), plugin, looping)

    [missing] = of_kind(document, "gpu-not-advertised")
    assert missing["details"][0] == (
        "device-plugin pod kube-system/nvidia-device-plugin-gpu-1 is on the node "
        "(Running; nvidia-device-plugin-ctr: CrashLoopBackOff) but advertises no GPU"
    )
    assert missing["fix"] == "make the device plugin's containers run (see node-agent-failing)"


# (case, toleration, the difference named, or None when it is no near miss)
NEAR_MISSES = [
    (
        "value typo",
        {"key": "GPU", "operator": "Equal", "value": "ture", "effect": "NoSchedule"},
        "value 'ture' is 1 edit(s) from 'true'",
    ),
    (
        "value case",
        {"key": "GPU", "value": "True", "effect": "NoSchedule"},
        "value 'True' differs from 'true' in case only (values are case sensitive)",
    ),
    ("key typo", {"key": "GUP", "operator": "Exists", "effect": "NoSchedule"}, "key 'GUP' is 1 edit(s) from 'GPU'"),
    (
        "key case",
        {"key": "gpu", "operator": "Equal", "value": "true"},
        "key 'gpu' differs from 'GPU' in case only (keys are case sensitive)",
    ),
    (
        "effect case",
        {"key": "GPU", "value": "true", "effect": "Noschedule"},
        "effect 'Noschedule' differs from 'NoSchedule' in case only (effects are case sensitive)",
    ),
    (
        "operator case",
        {"key": "GPU", "operator": "equal", "value": "true"},
        "operator 'equal' is not Equal or Exists (operators are case sensitive)",
    ),
    ("another value", {"key": "GPU", "value": "false", "effect": "NoSchedule"}, None),
    ("another key", {"key": "dedicated", "operator": "Exists"}, None),
    ("two typos in two fields", {"key": "GUP", "value": "ture", "effect": "NoSchedule"}, None),
    ("tolerated", GPU_TOLERATION, None),
    ("tolerated by Exists", {"key": "GPU", "operator": "Exists"}, None),
    ("a short value three edits away", {"key": "GPU", "value": "yes"}, None),
    # Two edits of four letters is half the word: any word, not a typo of it.
    ("a four-letter value two edits away", {"key": "GPU", "value": "trak", "effect": "NoSchedule"}, None),
]


@pytest.mark.parametrize(("case", "toleration", "difference"), NEAR_MISSES, ids=[c[0] for c in NEAR_MISSES])
def test_a_toleration_that_nearly_matches_is_named_with_the_difference(case, toleration, difference):
    found = near_miss(toleration, GPU_TAINT)

    if difference is None:
        assert found is None
    else:
        assert found is not None and found.endswith(f"nearly matches taint GPU=true:NoSchedule: {difference}")


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("true", "true", 0),
        ("ture", "true", 1),
        ("tru", "true", 1),
        ("trrue", "true", 1),
        ("false", "true", 4),
        ("", "ab", 2),
    ],
)
def test_edit_distance_counts_a_swap_as_one_edit(a, b, distance):
    assert edit_distance(a, b) == distance == edit_distance(b, a)


def test_a_pending_pod_with_a_typo_in_its_toleration_is_told_the_difference(capsys, tmp_path):
    typo = {"key": "GPU", "operator": "Equal", "value": "ture", "effect": "NoSchedule"}
    items = [*cluster(), pod("vllm-1", gpus=1, tolerations=[typo], node_selector={"GPU": "true"})]
    _, document = audit_json(capsys, tmp_path, *items)

    [pending] = of_kind(document, "pending-gpu-pods")
    assert pending["details"][-1] == (
        "toleration GPU=ture:NoSchedule nearly matches taint GPU=true:NoSchedule: value 'ture' is 1 edit(s) from 'true'"
    )
    assert pending["fix"].startswith("correct the toleration the details name (value 'ture' is 1 edit(s) from 'true')")


def test_a_daemonset_with_a_case_slip_in_its_toleration_is_told_the_difference(capsys, tmp_path):
    agent = daemonset("node-exporter", tolerations=[{"key": "GPU", "operator": "Equal", "value": "True"}])
    _, document = audit_json(capsys, tmp_path, *cluster(), agent, daemon_pod(agent, "sys-1"))

    [missing] = of_kind(document, "node-agent-missing")
    assert missing["details"][0] == (
        "toleration GPU=True nearly matches taint GPU=true:NoSchedule: value 'True' differs from 'true' in case only "
        "(values are case sensitive)"
    )
    assert missing["fix"] == (
        "correct the toleration the details name (value 'True' differs from 'true' in case only "
        "(values are case sensitive))"
    )


def test_a_long_key_three_edits_away_is_no_typo_however_long_it_is():
    # At most two edits make a typo, whatever share of a long word three would be.
    taint = {"key": "example.com/dedicated-inference", "value": "true", "effect": "NoSchedule"}
    three_edits = {"key": "example.com/dedicated-interface", "value": "true", "effect": "NoSchedule"}
    two_edits = {"key": "example.com/dedicated-inferenXX", "value": "true", "effect": "NoSchedule"}

    assert near_miss(three_edits, taint) is None
    assert near_miss(two_edits, taint) == (
        "toleration example.com/dedicated-inferenXX=true:NoSchedule nearly matches taint "
        "example.com/dedicated-inference=true:NoSchedule: key 'example.com/dedicated-inferenXX' is 2 edit(s) from "
        "'example.com/dedicated-inference'"
    )


def test_an_agent_pod_whose_init_container_waits_is_shown_with_it(capsys, tmp_path):
    # The pod stays Pending while an init container (the device plugin's, say) cannot be pulled.
    plugin = device_plugin()
    stuck = daemon_pod(plugin, "gpu-1")
    stuck["status"]["initContainerStatuses"] = [
        {"name": "init", "ready": False, "restartCount": 0, "state": {"waiting": {"reason": "ErrImagePull"}}}
    ]
    _, document = audit_json(capsys, tmp_path, node("sys-1"), gpu_node("gpu-1"), plugin, stuck)

    [failing] = of_kind(document, "node-agent-failing")
    assert failing["details"][-1] == "kube-system/nvidia-device-plugin-gpu-1 on gpu-1: Running; init: ErrImagePull"


_MAINTENANCE = {"key": "maintenance", "value": "true", "effect": "NoSchedule"}

# (case, the pod's tolerations, the whole fix)
TAINT_FIXES = [
    (
        "no toleration at all",
        [],
        "add the toleration GPU=true:NoSchedule; the GPU nodes carry maintenance=true:NoSchedule, "
        "which the pod does not tolerate: remove the taint from the nodes that carry it, or tolerate it if the pod should "
        "run there",
    ),
    (
        "the contract's toleration only",
        [GPU_TOLERATION],
        "the GPU nodes carry maintenance=true:NoSchedule, which the pod "
        "does not tolerate: remove the taint from the nodes that carry it, or tolerate it if the pod should run there",
    ),
    (
        "the other taint's toleration only",
        [{**_MAINTENANCE, "operator": "Equal"}],
        "add the toleration GPU=true:NoSchedule",
    ),
]


@pytest.mark.parametrize(("case", "tolerations", "fix"), TAINT_FIXES, ids=[c[0] for c in TAINT_FIXES])
def test_a_pod_kept_off_by_taints_is_told_only_the_tolerations_it_lacks(capsys, tmp_path, case, tolerations, fix):
    plugin = daemonset(
        "nvidia-device-plugin",
        tolerations=[GPU_TOLERATION, {**_MAINTENANCE, "operator": "Equal"}],
        node_selector={"GPU": "true"},
        image="nvcr.io/nvidia/k8s-device-plugin:v0.18.0",
    )
    items = [
        node("sys-1"),
        gpu_node("gpu-1", taints=[GPU_TAINT, _MAINTENANCE]),
        plugin,
        daemon_pod(plugin, "gpu-1"),
        pod("embed", gpus=1, tolerations=tolerations),
    ]
    _, document = audit_json(capsys, tmp_path, *items)

    [pending] = of_kind(document, "pending-gpu-pods")
    assert pending["fix"] == fix
