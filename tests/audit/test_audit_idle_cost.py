"""The audit prices idle GPU nodes from the same price table as the plan: per node and for the pool, an hour
and a month, on demand; a Spot node or a region without a price is said to be not priced."""

from __future__ import annotations

from tests.support.audit_objects import GPU_LABELS, GPU_TAINT, audit_json, node, of_kind, pod

OREGON = {**GPU_LABELS, "topology.kubernetes.io/region": "us-west-2"}


def idle_node(name: str, labels: dict) -> dict:
    return node(name, "g5.xlarge", pool="gpu", labels=labels, taints=[GPU_TAINT], gpus=1)


def audit(capsys, tmp_path, *nodes: dict) -> dict:
    """The audit's idle-GPU finding of `nodes` beside a system node running one plain pod."""
    _, document = audit_json(capsys, tmp_path, node("sys-1"), pod("web-1", "sys-1"), *nodes)
    [finding] = of_kind(document, "idle-gpus")
    return finding


def test_idle_gpu_nodes_are_priced_an_hour_and_a_month_from_the_price_table(capsys, tmp_path):
    finding = audit(capsys, tmp_path, idle_node("gpu-1", OREGON), idle_node("gpu-2", OREGON))

    assert finding["title"] == (
        "2 GPU node(s) of pool gpu run no pod that requests a GPU: 2 GPU(s) idle, $2.01 an hour "
        "($1,468.76 a month) on demand"
    )
    assert finding["rule"] == "GPUs allocatable vs requested by the pods bound to each node"
    assert finding["objects"] == ["gpu-1", "gpu-2"]
    assert finding["details"][0] == (
        "gpu-1: g5.xlarge (1x NVIDIA A10G), 1 GPU(s) allocatable, 0 requested, $1.006 an hour ($734.38 a month) "
        "on demand"
    )


def test_a_spot_node_is_not_priced_and_the_pool_total_is_a_lower_bound(capsys, tmp_path):
    spot = {**OREGON, "eks.amazonaws.com/capacityType": "SPOT"}
    finding = audit(capsys, tmp_path, idle_node("gpu-1", OREGON), idle_node("gpu-2", spot))

    assert finding["title"].endswith("2 GPU(s) idle, at least $1.01 an hour ($734.38 a month) on demand")
    assert finding["details"][1].endswith(
        "0 requested, not priced (Spot or reserved, or no price for its type and region)"
    )


def test_a_node_without_a_region_label_leaves_the_title_unpriced(capsys, tmp_path):
    finding = audit(capsys, tmp_path, idle_node("gpu-1", GPU_LABELS))

    assert finding["title"] == "1 GPU node(s) of pool gpu run no pod that requests a GPU: 1 GPU(s) idle"
