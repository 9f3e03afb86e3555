"""Verdicts 8 and 9 of the plan, whole: the tags a node group needs to scale from zero, the node the autoscaler
imagines from them, and each verdict's passing and failing text for each provisioner."""

from __future__ import annotations

from collections import namedtuple

import pytest

from components.facts.contract import NVIDIA_GPU_RESOURCE
from components.facts.gpu_catalog import CLUSTER_AUTOSCALER_TEMPLATE_TAG as T
from components.placement.scale_from_zero import (
    cpu_workloads_verdict,
    missing_tags,
    scale_from_zero_verdict,
    template_node,
)

Row = namedtuple("Row", "workload pool lands")
GPU = NVIDIA_GPU_RESOURCE


def gpu_pool(name="gpu", labels=None, taints=(), gpus=1, provisioner=None, instance_type="g5.xlarge"):
    pool = {
        "name": name,
        "instanceType": instance_type,
        "gpusPerNode": gpus,
        "node": {"metadata": {"labels": dict(labels or {})}, "spec": {"taints": list(taints)}},
    }
    if provisioner:
        pool["provisioner"] = provisioner
    return pool


def deployment(name, gpus=0, namespace="ml", kind="Deployment"):
    resources = {"requests": {GPU: str(gpus)}, "limits": {GPU: str(gpus)}} if gpus else {}
    container = {"name": name, "image": "x", "resources": resources}
    pod_spec = {"containers": [container], "tolerations": [{"key": "GPU", "operator": "Exists"}]}
    return {
        "kind": kind,
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"template": {"metadata": {}, "spec": pod_spec}},
    }


GPU_TAINT = {"key": "GPU", "value": "true", "effect": "NoSchedule"}
FULL_TAGS = {
    f"{T}/label/GPU": "true",
    f"{T}/taint/GPU": "true:NoSchedule",
    f"{T}/resources/{GPU}": "1",
}


@pytest.mark.parametrize(
    ("labels", "taints", "gpus", "tags", "expected"),
    [
        pytest.param({}, (), 1, {}, [f"{T}/resources/{GPU}=1"], id="no-labels-gpu-tag-needed"),
        pytest.param({}, (), 1, {f"{T}/resources/{GPU}": "1"}, [], id="gpu-tag-present"),
        pytest.param({}, (), 2, {f"{T}/resources/{GPU}": "1"}, [f"{T}/resources/{GPU}=2"], id="gpu-tag-wrong-count"),
        # A kubelet-set label sorted BEFORE the pool's own labels: those after it are still asked for.
        pytest.param(
            {"beta.kubernetes.io/arch": "amd64", "cbin": "x", "kubernetes.io/os": "linux", "zeta": "z"},
            (),
            1,
            {f"{T}/resources/{GPU}": "1"},
            [f"{T}/label/cbin=x", f"{T}/label/zeta=z"],
            id="labels-after-a-kubelet-label-still-needed",
        ),
        pytest.param(
            {
                "eks.amazonaws.com/nodegroup": "g",
                "node.kubernetes.io/instance-type": "g5.xlarge",
                "kubernetes.io/arch": "amd64",
                "beta.kubernetes.io/os": "linux",
            },
            (),
            1,
            {f"{T}/resources/{GPU}": "1"},
            [],
            id="every-kubelet-and-eks-prefix-skipped",
        ),
        pytest.param(
            {"GPU": "true"},
            (),
            1,
            {f"{T}/label/GPU": "false", f"{T}/resources/{GPU}": "1"},
            [f"{T}/label/GPU=true"],
            id="label-tag-wrong-value",
        ),
        pytest.param({"GPU": "true"}, [GPU_TAINT], 1, FULL_TAGS, [], id="contract-tags-complete"),
        pytest.param(
            {"GPU": "true"},
            [GPU_TAINT, {"key": "spot", "effect": "NoExecute"}],
            1,
            FULL_TAGS,
            [f"{T}/taint/spot=:NoExecute"],
            id="second-taint-missing-without-value",
        ),
        pytest.param(
            {"GPU": "true"},
            [GPU_TAINT],
            1,
            {**FULL_TAGS, f"{T}/taint/GPU": "true:NoExecute"},
            [f"{T}/taint/GPU=true:NoSchedule"],
            id="taint-tag-wrong-effect",
        ),
        pytest.param(
            {"a": "1", "GPU": "true"},
            [GPU_TAINT],
            2,
            {},
            [f"{T}/label/GPU=true", f"{T}/label/a=1", f"{T}/taint/GPU=true:NoSchedule", f"{T}/resources/{GPU}=2"],
            id="all-missing-in-order",
        ),
    ],
)
def test_missing_tags_lists_each_tag_key_and_value_the_group_lacks(labels, taints, gpus, tags, expected):
    assert missing_tags(gpu_pool(labels=labels, taints=taints, gpus=gpus), tags) == expected


def test_template_node_of_a_known_instance_reads_the_catalog_and_every_tag_kind():
    tags = {
        f"{T}/label/GPU": "true",
        f"{T}/taint/GPU": "true:NoSchedule",
        f"{T}/taint/bare": ":NoExecute",
        f"{T}/taint/soft": "x:PreferNoSchedule",
        f"{T}/taint/bad": "true:Sometimes",
        f"{T}/resources/{GPU}": "4",
        f"{T}/resources/": "ignored",
        f"{T}/label/": "ignored",
        f"{T}/other/thing": "ignored",
    }
    capacity = {"pods": "110", "cpu": "4", "memory": "16384Mi", GPU: "4"}
    assert template_node("pool", "g5.xlarge", tags) == {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": "pool-template",
            "labels": {
                "kubernetes.io/os": "linux",
                "node.kubernetes.io/instance-type": "g5.xlarge",
                "kubernetes.io/arch": "amd64",
                "GPU": "true",
            },
        },
        "spec": {
            "taints": [
                {"key": "GPU", "effect": "NoSchedule", "value": "true"},
                {"key": "bare", "effect": "NoExecute"},
                {"key": "soft", "effect": "PreferNoSchedule", "value": "x"},
            ]
        },
        "status": {"capacity": capacity, "allocatable": capacity},
    }


def test_template_node_of_an_unknown_instance_has_only_the_pod_count_and_tags():
    node = template_node("p", "zz9.nope", {f"{T}/resources/{GPU}": "1"})
    assert node["metadata"]["labels"] == {"kubernetes.io/os": "linux", "node.kubernetes.io/instance-type": "zz9.nope"}
    assert node["status"] == {"capacity": {"pods": "110", GPU: "1"}, "allocatable": {"pods": "110", GPU: "1"}}
    assert node["spec"] == {"taints": []}


def contract_pool(name="gpu", **kwargs):
    return gpu_pool(name=name, labels={"GPU": "true"}, taints=[GPU_TAINT], **kwargs)


@pytest.mark.parametrize(
    ("pools", "tags", "workloads", "rows", "expected"),
    [
        pytest.param([], {}, [], [], (True, "no GPU pool to scale", []), id="no-gpu-pool"),
        pytest.param(
            [gpu_pool(name="cpu", gpus=0)], {}, [], [], (True, "no GPU pool to scale", []), id="cpu-pool-only"
        ),
        pytest.param(
            [contract_pool()],
            {"gpu": FULL_TAGS},
            [deployment("vllm", 1)],
            [Row("ml/vllm", "gpu", True)],
            (
                True,
                "every GPU workload fits the node the autoscaler imagines for its pool at zero: ml/vllm on gpu",
                ["ml/vllm on gpu"],
            ),
            id="node-group-fits",
        ),
        pytest.param(
            [contract_pool()],
            {"gpu": FULL_TAGS},
            [deployment("vllm", 1), deployment("web")],
            [Row("ml/vllm", "gpu", False), Row("ml/web", "gpu", True)],
            (
                True,
                "every GPU workload fits the node the autoscaler imagines for its pool at zero: no GPU workload",
                [],
            ),
            id="node-group-no-gpu-workload-lands",
        ),
        pytest.param(
            [contract_pool(provisioner="karpenter"), contract_pool(name="auto", provisioner="autoMode")],
            {},
            [],
            [],
            (
                True,
                "every GPU workload fits the node the autoscaler imagines for its pool at zero: "
                "gpu: Karpenter NodePool, launched from its template, auto: EKS Auto Mode NodePool, launched from its "
                "template",
                [
                    "gpu: Karpenter NodePool, launched from its template",
                    "auto: EKS Auto Mode NodePool, launched from its template",
                ],
            ),
            id="karpenter-and-auto-mode",
        ),
        pytest.param(
            [contract_pool()],
            {"gpu": {**FULL_TAGS, f"{T}/resources/{GPU}": "0"}},
            [deployment("vllm", 1)],
            [Row("ml/vllm", "gpu", True)],
            (
                False,
                f"the autoscaler cannot scale every GPU pool from zero: gpu: missing tag {T}/resources/{GPU}=1 "
                "(+1 more)",
                [
                    f"gpu: missing tag {T}/resources/{GPU}=1",
                    f"ml/vllm does not fit gpu at zero nodes: Insufficient {GPU}: requests 1, free 0",
                ],
            ),
            id="node-group-gpu-tag-wrong",
        ),
        pytest.param(
            [contract_pool()],
            {"gpu": {k: v for k, v in FULL_TAGS.items() if "/label/" not in k}},
            [],
            [],
            (
                False,
                f"the autoscaler cannot scale every GPU pool from zero: gpu: missing tag {T}/label/GPU=true",
                [f"gpu: missing tag {T}/label/GPU=true"],
            ),
            id="node-group-one-problem-no-count",
        ),
    ],
)
def test_scale_from_zero_verdict_whole(pools, tags, workloads, rows, expected):
    verdict = scale_from_zero_verdict(workloads, pools, tags, rows)
    assert verdict.name == "gpu-pools-scale-from-zero"
    assert (verdict.passed, verdict.message, verdict.details) == expected


@pytest.mark.parametrize(
    ("workloads", "rows", "expected"),
    [
        pytest.param(
            [deployment("web"), deployment("vllm", 1), deployment("agent", kind="DaemonSet")],
            [
                Row("ml/web", "sys", True),
                Row("ml/web", "gpu", False),
                Row("ml/vllm", "gpu", True),
                Row("ml/agent", "gpu", True),
            ],
            (True, "workloads that request no GPU land only on non-GPU pools: ml/web on sys", ["ml/web on sys"]),
            id="passes",
        ),
        pytest.param(
            [deployment("web"), deployment("api")],
            [Row("ml/web", "sys", True), Row("ml/api", "sys", True), Row("ml/api", "gpu", False)],
            (
                True,
                "workloads that request no GPU land only on non-GPU pools: ml/api on sys, ml/web on sys",
                ["ml/api on sys", "ml/web on sys"],
            ),
            id="passes-two",
        ),
        pytest.param(
            [deployment("vllm", 1)],
            [Row("ml/vllm", "gpu", True)],
            (True, "workloads that request no GPU land only on non-GPU pools: none", []),
            id="passes-none",
        ),
        pytest.param(
            [deployment("web"), deployment("api")],
            [Row("ml/web", "gpu", True), Row("ml/web", "sys", True), Row("ml/api", "gpu", True)],
            (
                False,
                "workloads that request no GPU can land on GPU pools: ml/api on gpu, ml/web on gpu; remove their "
                "toleration of the GPU taint, or give them a nodeSelector for the system pool",
                ["ml/api on gpu", "ml/web on gpu"],
            ),
            id="fails",
        ),
    ],
)
def test_cpu_workloads_verdict_whole(workloads, rows, expected):
    pools = [contract_pool(), gpu_pool(name="sys", gpus=0)]
    verdict = cpu_workloads_verdict(workloads, pools, rows)
    assert verdict.name == "cpu-workloads-stay-off-gpu-pools"
    assert (verdict.passed, verdict.message, verdict.details) == expected
