"""Verdict 12: every workload lands on the same pools whichever provisioner each pool uses."""

from __future__ import annotations

from components.placement.pools import NodeGroupSpec
from components.placement.provisioners import provisioners_verdict

GPU_LABELS = {"GPU": "true"}
GPU_TAINT = {"key": "GPU", "value": "true", "effect": "NoSchedule"}
TOLERATION = {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}


def pool(provisioner: str) -> NodeGroupSpec:
    return NodeGroupSpec("gpu", "g5.xlarge", 0, GPU_LABELS, [GPU_TAINT], max_size=2, provisioner=provisioner)


def workload(node_selector: dict[str, str]) -> dict:
    pod = {"nodeSelector": node_selector, "tolerations": [TOLERATION], "containers": [{"name": "c", "image": "i"}]}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "server", "namespace": "vllm"},
        "spec": {"template": {"spec": pod}},
    }


def test_a_workload_on_the_contract_label_lands_alike_on_a_node_pool_and_a_node_group():
    verdict = provisioners_verdict([workload(GPU_LABELS)], [pool("karpenter")])

    assert verdict.passed and verdict.name == "provisioners-place-pods-alike"
    assert verdict.message == "every workload lands on the same pools with gpu as a node group"


def test_a_workload_selecting_a_label_only_karpenter_sets_fails_with_the_reason():
    verdict = provisioners_verdict(
        [workload({**GPU_LABELS, "karpenter.sh/capacity-type": "on-demand"})], [pool("karpenter")]
    )

    assert not verdict.passed
    assert verdict.details == [
        "vllm/server lands on gpu as provisioned, and would not as a node group: node affinity/selector mismatch: "
        "nodeSelector karpenter.sh/capacity-type=on-demand (node has no label karpenter.sh/capacity-type)"
    ]


def test_with_only_node_groups_there_is_nothing_to_compare():
    verdict = provisioners_verdict([workload({"eks.amazonaws.com/nodegroup": "gpu"})], [pool("nodeGroup")])

    assert verdict.passed and verdict.message == "every pool is a node group; nothing to compare"
