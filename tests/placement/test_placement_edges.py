"""Placement model behaviour at the edges of its inputs: unnamed workloads, pools that
already advertise GPUs, labels shared with other pools, nodes that are not ready."""

from __future__ import annotations

from components.facts.gpu_catalog import lookup
from components.placement import (
    advertise_gpus,
    eks_allocatable,
    explain,
    gpu_guard,
    kube_reserved_cpu_millicores,
    pod_of,
)
from tests.support.placement_guard import device_plugin, gpu_pool, system_pool, vllm
from tests.support.placement_messages import VERDICT_NAMES


def test_a_workload_without_a_name_becomes_an_unnamed_v1_pod():
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"namespace": "llm"},
        "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "x"}]}}},
    }
    the_pod = pod_of(deployment)
    assert (the_pod["apiVersion"], the_pod["kind"]) == ("v1", "Pod")
    assert the_pod["metadata"]["name"] == "<unnamed>"


def test_a_gpu_pool_that_already_advertises_keeps_its_own_count():
    # The plugin reaches the pool, but the node already says how many GPUs it has (here: none healthy).
    pool = gpu_pool(advertised=True)
    pool["node"]["status"]["allocatable"]["nvidia.com/gpu"] = "0"
    (result,) = advertise_gpus([pool], [device_plugin()])
    assert result["node"]["status"]["allocatable"]["nvidia.com/gpu"] == "0"


def test_the_suggested_selector_is_a_label_no_other_pool_has():
    system = system_pool()
    system["node"]["metadata"]["labels"]["GPU"] = "true"
    gpu = gpu_pool()
    gpu["node"]["metadata"]["labels"]["accelerator"] = "nvidia"
    verdict = {v.id: v for v in gpu_guard([device_plugin(), vllm(node_selector={})], [system, gpu])}[1]
    assert "(add nodeSelector accelerator=nvidia)" in verdict.message


def test_add_ons_tolerate_a_node_that_is_not_ready_as_coredns_does():
    system = system_pool()
    system["node"]["spec"]["taints"] = [
        {"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"},
        {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute"},
    ]
    verdict = {v.id: v for v in gpu_guard([], [system])}[4]
    assert verdict.passed, verdict.message


def test_the_sizing_verdict_keeps_its_name_when_nothing_lands():
    verdict = {v.id: v for v in gpu_guard([vllm(node_selector={"absent": "x"})], [system_pool(), gpu_pool()])}[5]
    assert (verdict.name, verdict.passed) == (VERDICT_NAMES[5], True)
    assert verdict.message == (
        "no GPU workload can land on a GPU pool (see `gpu-workloads-land-on-gpu-pools`); nothing to size"
    )


def test_whole_cores_are_shown_as_cores():
    node = {"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "2", "memory": "8Gi", "pods": "10"}}}
    the_pod = {
        "kind": "Pod",
        "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "4"}}}]},
    }
    assert explain(the_pod, node) == ["Insufficient cpu: requests 4, free 2"]


def test_the_pod_of_a_workload_is_a_copy_of_its_template():
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "d", "namespace": "llm"},
        "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "x"}]}}},
    }
    the_pod = pod_of(deployment)
    the_pod["spec"]["containers"][0]["image"] = "changed"
    the_pod["spec"]["containers"].append({"name": "extra"})
    assert deployment["spec"]["template"]["spec"]["containers"] == [{"name": "c", "image": "x"}]


def test_a_zero_request_does_not_stop_the_check_of_the_other_resources():
    node = {"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "2", "memory": "1Gi", "pods": "10"}}}
    the_pod = {
        "kind": "Pod",
        "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "0", "memory": "2Gi"}}}]},
    }
    assert explain(the_pod, node) == ["Insufficient memory: requests 2Gi, free 1Gi"]


def test_kube_reserved_cpu_keeps_counting_a_quarter_percent_per_core_on_the_largest_hosts():
    # 6% of the first core, 1% of the second, 0.5% of the next two, 0.25% of each further core.
    assert kube_reserved_cpu_millicores(448) == 60 + 10 + 5 + 5 + 444 * 25 // 10


def test_a_disk_too_small_for_the_eviction_reserve_leaves_no_ephemeral_storage():
    assert eks_allocatable(lookup("m6i.large"), 1)["ephemeral-storage"] == "0"
