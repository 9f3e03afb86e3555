"""Grouping pods by scheduling shape and nodes by signature gives exactly the findings of checking every
pod-node pair on the objects as read (hypothesis generates the clusters)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components.stackcheck.audit.checks import pool_rows, run_checks
from components.stackcheck.audit.context import infer_contract
from components.stackcheck.audit.engine import Audit, PairwiseGrouping
from components.stackcheck.audit.model import Snapshot
from components.stackcheck.audit.run import AuditOptions, audit
from tests.support.audit_objects import GPU_TAINT, GPU_TOLERATION, daemonset, node, pod

NODE_NAMES = ["n0", "n1", "n2", "n3", "n4"]
TAINTS = [
    GPU_TAINT,
    {"key": "team", "value": "a", "effect": "NoExecute"},
    {"key": "spot", "effect": "PreferNoSchedule"},
    {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"},
]
TOLERATIONS = [
    GPU_TOLERATION,
    {"operator": "Exists"},
    {"key": "team", "operator": "Exists", "effect": "NoExecute"},
    {"key": "GPU", "operator": "Exists"},
    {"key": "team", "operator": "Equal", "value": "b"},
]
LABELS = [("GPU", "true"), ("zone", "a"), ("zone", "b"), ("team", "a"), ("size", "4")]
SELECTORS = [{}, {"GPU": "true"}, {"zone": "a"}, {"team": "a", "zone": "b"}]
EXPRESSIONS = [
    {"key": "zone", "operator": "In", "values": ["a", "b"]},
    {"key": "team", "operator": "NotIn", "values": ["a"]},
    {"key": "GPU", "operator": "Exists"},
    {"key": "size", "operator": "Gt", "values": ["2"]},
    {"key": "zone", "operator": "DoesNotExist"},
]


@st.composite
def nodes(draw):
    count = draw(st.integers(1, len(NODE_NAMES)))
    made = []
    for name in NODE_NAMES[:count]:
        made.append(
            node(
                name,
                draw(st.sampled_from(["m6i.large", "g5.xlarge", "g5.12xlarge", "x1z.unknown"])),
                pool=draw(st.sampled_from(["p1", "p2", "p3"])),
                labels=dict(draw(st.lists(st.sampled_from(LABELS), max_size=3))),
                taints=draw(st.lists(st.sampled_from(TAINTS), max_size=2, unique_by=lambda t: t["key"])),
                gpus=draw(st.sampled_from([None, 0, 1, 4])),
                unschedulable=draw(st.booleans()),
            )
        )
    return made


@st.composite
def affinities(draw, node_name):
    if not draw(st.booleans()):
        return None
    terms = []
    for _ in range(draw(st.integers(1, 2))):
        term = {}
        expressions = draw(st.lists(st.sampled_from(EXPRESSIONS), max_size=2))
        if expressions:
            term["matchExpressions"] = expressions
        if draw(st.booleans()):  # the DaemonSet controller's pin, to the pod's node or another one
            pinned = draw(st.sampled_from([node_name or "n0", "n1"]))
            term["matchFields"] = [{"key": "metadata.name", "operator": "In", "values": [pinned]}]
        terms.append(term)
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}


@st.composite
def pods(draw):
    made = []
    for index in range(draw(st.integers(1, 14))):
        node_name = draw(st.sampled_from([None, *NODE_NAMES, "gone"]))
        owner = draw(
            st.sampled_from(
                [
                    ("ReplicaSet", "web"),
                    ("ReplicaSet", "api"),
                    ("DaemonSet", "agent"),
                    ("DaemonSet", "nvidia-device-plugin"),
                    ("Node", "n0"),
                    ("Job", "batch"),
                    None,
                ]
            )
        )
        made.append(
            pod(
                f"p{index}",
                node_name,
                phase=draw(st.sampled_from([None, "Running", "Pending", "Succeeded"])),
                gpus=draw(st.sampled_from([0, 0, 1, 2])),
                cpu=draw(st.sampled_from(["100m", "2", "3"])),
                tolerations=draw(st.one_of(st.none(), st.lists(st.sampled_from(TOLERATIONS), max_size=2))),
                node_selector=draw(st.sampled_from([None, *SELECTORS])),
                affinity=draw(affinities(node_name)),
                owner=owner,
                image=draw(st.sampled_from(["nginx:1.29", "nvcr.io/nvidia/k8s-device-plugin:v0.18.0"])),
            )
        )
    return made


@st.composite
def daemonsets(draw):
    made = []
    for name in draw(st.lists(st.sampled_from(["agent", "nvidia-device-plugin", "exporter"]), max_size=3, unique=True)):
        image = "nvcr.io/nvidia/k8s-device-plugin:v0.18.0" if name == "nvidia-device-plugin" else "agent:1"
        made.append(
            daemonset(
                name,
                namespace="default",
                tolerations=draw(st.one_of(st.none(), st.lists(st.sampled_from(TOLERATIONS), max_size=2))),
                node_selector=draw(st.sampled_from([None, *SELECTORS])),
                image=image,
            )
        )
    return made


def build(items: list[dict], keep_raw: bool) -> Snapshot:
    snapshot = Snapshot(keep_raw=keep_raw)
    for item in items:
        snapshot.add(item["kind"], item)
    snapshot.finish()
    return snapshot


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nodes(), pods(), daemonsets())
def test_grouping_by_shape_gives_the_findings_of_every_pod_node_pair(node_items, pod_items, daemonset_items):
    items = [*node_items, *pod_items, *daemonset_items]
    grouped = build(items, keep_raw=False)
    pairwise = build(items, keep_raw=True)
    contract = infer_contract(grouped)

    grouped_state = Audit(grouped, contract)
    pairwise_state = Audit(pairwise, contract, PairwiseGrouping())
    grouped_findings = [f.to_dict() for f in run_checks(grouped_state)]
    pairwise_findings = [f.to_dict() for f in run_checks(pairwise_state)]

    assert grouped_findings == pairwise_findings
    assert pool_rows(grouped_state) == pool_rows(pairwise_state)


def test_the_property_sees_every_kind_of_finding():
    """The generators above reach every check (else the property would prove little)."""
    items = [
        node("n0", "g5.xlarge", pool="p1", labels={"GPU": "true"}, taints=[GPU_TAINT], gpus=1),
        node("n1", "g5.xlarge", pool="p1", labels={"GPU": "true"}, taints=[GPU_TAINT], gpus=None),
        node("n2", "m6i.large", pool="p2", taints=[{"key": "team", "value": "a", "effect": "NoExecute"}]),
        pod("p0", "n0", tolerations=[{"operator": "Exists"}]),
        pod("p1", None, gpus=1),
        pod("p2", "n2"),
        daemonset("exporter", namespace="default"),
    ]
    result = audit(build(items, keep_raw=False), AuditOptions(project_dir=Path(".")))
    assert {f.kind for f in result.findings} == {
        "idle-gpus",
        "gpu-leak",
        "pending-gpu-pods",
        "gpu-not-advertised",
        "node-agent-missing",
        "model-mismatch",
    }


def test_the_inferred_taint_is_the_repelling_one_on_every_gpu_node_and_on_no_other_node():
    # A soft taint every GPU node has, and a hard one the system node has too, come first: neither is the contract.
    soft = {"key": "spread", "value": "x", "effect": "PreferNoSchedule"}
    shared = {"key": "team", "value": "ml", "effect": "NoSchedule"}
    gpu_taints = [soft, shared, GPU_TAINT]
    items = [
        node("gpu-1", "g5.xlarge", taints=gpu_taints, gpus=1),
        node("gpu-2", "g5.xlarge", taints=gpu_taints, gpus=1),
        node("sys-1", taints=[shared]),
    ]
    assert infer_contract(build(items, keep_raw=False)).taint == GPU_TAINT
