"""The GPU guard and the placement matrix, given a system pool, a guarded GPU pool, the device plugin and vLLM."""

from __future__ import annotations

import copy
import json

import pytest

from components.placement import (
    DEVICE_PLUGIN_IMAGE_MARKER,
    NodeGroupSpec,
    Verdict,
    advertise_gpus,
    gpu_guard,
    is_device_plugin,
    placement_matrix,
    pools_for_node_groups,
)
from tests.support.placement_guard import GPU_TAINT, device_plugin, gpu_pool, system_pool, vllm


def verdicts(workloads, pools) -> dict[int, Verdict]:
    result = {v.id: v for v in gpu_guard(workloads, pools)}
    assert sorted(result) == [1, 2, 3, 4, 5, 10]
    return result


def failed(result: dict[int, Verdict]) -> list[int]:
    return [i for i, v in result.items() if not v.passed]


def test_default_contract_passes_all_five_verdicts():
    result = verdicts([device_plugin(), vllm()], [system_pool(), gpu_pool()])
    assert failed(result) == [], [v.message for v in result.values()]
    assert "llm/vllm on gpu" in result[1].message
    assert "untolerated taint GPU=true:NoSchedule" in result[2].message
    assert "kube-system/nvidia-device-plugin" in result[3].message
    assert "system" in result[4].message


def test_device_plugin_without_gpu_toleration_fails_verdict_3_naming_the_taint():
    plugin = device_plugin(tolerations=[{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}])
    result = verdicts([plugin, vllm()], [system_pool(), gpu_pool()])
    assert not result[3].passed
    assert result[3].message == (
        "device plugin kube-system/nvidia-device-plugin cannot land on GPU pool gpu: untolerated taint GPU=true:NoSchedule"
    )
    # Without the plugin the pool advertises no GPU, so vLLM cannot land either (docs/traps.md#device-plugin).
    assert result[1].message == (
        "GPU workload llm/vllm (requests 1 nvidia.com/gpu) lands on no GPU pool "
        "(gpu: Insufficient nvidia.com/gpu: requests 1, free 0 (node does not advertise nvidia.com/gpu))"
    )


def test_stock_device_plugin_without_selector_fails_verdict_3_for_landing_on_cpu_pool():
    plugin = device_plugin(node_selector={})
    result = verdicts([plugin, vllm()], [system_pool(), gpu_pool()])
    assert not result[3].passed
    assert "device plugin kube-system/nvidia-device-plugin lands on non-GPU pool system" in result[3].message
    assert "add nodeSelector GPU=true" in result[3].message


def test_gpu_workload_without_selector_fails_verdict_1():
    result = verdicts([device_plugin(), vllm(node_selector={})], [system_pool(), gpu_pool()])
    assert failed(result) == [1]
    assert result[1].message.startswith("GPU workload llm/vllm can be placed on non-GPU pool system")
    assert "add nodeSelector GPU=true" in result[1].message


def test_gpu_workload_without_toleration_fails_verdict_1_naming_the_taint():
    workload = vllm()
    workload["spec"]["template"]["spec"]["tolerations"] = []
    result = verdicts([device_plugin(), workload], [system_pool(), gpu_pool()])
    assert not result[1].passed
    assert result[1].message == (
        "GPU workload llm/vllm (requests 1 nvidia.com/gpu) lands on no GPU pool (gpu: untolerated taint GPU=true:NoSchedule)"
    )
    assert "llm/vllm cannot land on GPU pool gpu: untolerated taint GPU=true:NoSchedule" in result[1].details


def test_cluster_without_system_pool_fails_verdict_4():
    result = verdicts([device_plugin(), vllm()], [gpu_pool()])
    assert failed(result) == [4]
    assert "no non-GPU pool with nodes takes a CoreDNS-like system add-on pod" in result[4].message
    assert "gpu: GPU pool, not a home for system add-ons" in result[4].details


def test_system_pool_scaled_to_zero_fails_verdict_4():
    result = verdicts([device_plugin(), vllm()], [system_pool(count=0), gpu_pool()])
    assert failed(result) == [4]
    assert "system: count 0, no node to land on" in result[4].details


def test_tainted_system_pool_fails_verdict_4_naming_the_taint():
    pool = system_pool()
    pool["node"]["spec"]["taints"] = [{"key": "dedicated", "value": "infra", "effect": "NoSchedule"}]
    result = verdicts([device_plugin(), vllm()], [pool, gpu_pool()])
    assert not result[4].passed
    assert "system: untolerated taint dedicated=infra:NoSchedule" in result[4].details


def test_critical_addons_only_taint_still_passes_verdict_4():
    pool = system_pool()
    pool["node"]["spec"]["taints"] = [{"key": "CriticalAddonsOnly", "value": "true", "effect": "NoSchedule"}]
    result = verdicts([device_plugin(), vllm()], [pool, gpu_pool()])
    assert result[4].passed


def test_two_gpu_request_on_one_gpu_pool_fails_verdict_5():
    result = verdicts([device_plugin(), vllm(gpus=2)], [system_pool(), gpu_pool()])
    assert not result[5].passed
    assert result[5].message == (
        "GPU workload llm/vllm requests 2 nvidia.com/gpu but GPU pool gpu has 1 per node (g5.xlarge): no node can run it"
    )


def test_two_gpu_request_fits_a_four_gpu_pool():
    result = verdicts([device_plugin(), vllm(gpus=2)], [system_pool(), gpu_pool(gpus=4)])
    assert failed(result) == []
    assert "llm/vllm requests 2, gpu has 4 per node" in result[5].message


def test_plain_pod_on_untainted_gpu_pool_fails_verdict_2():
    result = verdicts([device_plugin(), vllm()], [system_pool(), gpu_pool(taints=[])])
    assert not result[2].passed
    assert result[2].message == (
        "a plain pod (no tolerations, no nodeSelector) lands on GPU pool gpu: the pool has no NoSchedule or NoExecute taint"
    )


def test_prefer_no_schedule_gpu_taint_fails_verdict_2():
    soft = [{"key": "GPU", "value": "true", "effect": "PreferNoSchedule"}]
    result = verdicts([device_plugin(), vllm()], [system_pool(), gpu_pool(taints=soft)])
    assert not result[2].passed
    assert "its GPU=true:PreferNoSchedule only discourages" in result[2].message


def test_gpu_pool_is_known_by_gpus_per_node_not_by_labels():
    unlabelled = gpu_pool(taints=[])
    unlabelled["node"]["metadata"]["labels"] = {}
    result = verdicts([], [system_pool(), unlabelled])
    assert "lands on GPU pool gpu" in result[2].message


def test_no_device_plugin_but_host_advertised_gpus_passes_verdict_3():
    result = verdicts([vllm()], [system_pool(), gpu_pool(advertised=True)])
    assert failed(result) == []
    assert "no device plugin workload, but every GPU pool's node already advertises nvidia.com/gpu" in result[3].message


def test_no_device_plugin_and_no_advertised_gpus_fails_verdict_3():
    result = verdicts([vllm()], [system_pool(), gpu_pool()])
    assert not result[3].passed
    assert "no device plugin workload" in result[3].message
    assert "GPU pool(s) gpu do not advertise nvidia.com/gpu" in result[3].message


def test_device_plugin_must_cover_every_gpu_pool():
    other = gpu_pool(name="gpu-big", gpus=4, taints=[{"key": "big", "value": "true", "effect": "NoExecute"}])
    result = verdicts([device_plugin(), vllm()], [system_pool(), gpu_pool(), other])
    assert not result[3].passed
    assert result[3].message == (
        "device plugin kube-system/nvidia-device-plugin cannot land on GPU pool gpu-big: untolerated taint big=true:NoExecute"
    )


def test_host_advertised_pool_is_exempt_from_device_plugin_coverage():
    other = gpu_pool(name="bottlerocket", taints=[{"key": "br", "value": "1", "effect": "NoSchedule"}], advertised=True)
    other["gpuAdvertisedByHost"] = True
    result = verdicts([device_plugin(), vllm()], [system_pool(), gpu_pool(), other])
    assert result[3].passed, result[3].message


def test_no_gpu_workloads_passes_verdicts_1_and_5():
    result = verdicts([device_plugin()], [system_pool(), gpu_pool()])
    assert failed(result) == []
    assert result[1].message == "no workload requests nvidia.com/gpu"
    assert result[5].message == "no workload requests nvidia.com/gpu"


def test_verdicts_serialise_to_json():
    result = gpu_guard([device_plugin(), vllm()], [system_pool(), gpu_pool()])
    decoded = json.loads(json.dumps([v.to_dict() for v in result]))
    assert [v["id"] for v in decoded] == [1, 2, 3, 4, 5, 10]
    assert set(decoded[0]) == {"id", "name", "passed", "message", "details"}


def test_guard_does_not_modify_its_inputs():
    workloads, pools = [device_plugin(), vllm()], [system_pool(), gpu_pool()]
    before = copy.deepcopy((workloads, pools))
    gpu_guard(workloads, pools)
    placement_matrix(workloads, pools)
    assert (workloads, pools) == before


def test_device_plugin_is_recognised_by_image_or_component_label():
    by_image = device_plugin()
    assert DEVICE_PLUGIN_IMAGE_MARKER in by_image["spec"]["template"]["spec"]["containers"][0]["image"]
    by_label = device_plugin()
    by_label["spec"]["template"]["spec"]["containers"][0]["image"] = "example.com/gpu-plugin:1"
    assert not is_device_plugin(by_label)
    by_label["metadata"]["labels"] = {"app.kubernetes.io/component": "nvidia-device-plugin"}
    assert is_device_plugin(by_image) and is_device_plugin(by_label)
    as_deployment = dict(by_image, kind="Deployment")
    assert not is_device_plugin(as_deployment)


def test_placement_matrix_rows_cover_every_workload_and_pool():
    rows = placement_matrix([device_plugin(), vllm()], [system_pool(), gpu_pool()])
    table = {(r.workload, r.pool): r for r in rows}
    assert [(r.workload, r.pool) for r in rows] == [
        ("kube-system/nvidia-device-plugin", "system"),
        ("kube-system/nvidia-device-plugin", "gpu"),
        ("llm/vllm", "system"),
        ("llm/vllm", "gpu"),
    ]
    assert table["llm/vllm", "gpu"].lands and table["llm/vllm", "gpu"].reasons == []
    assert not table["llm/vllm", "system"].lands
    assert table["llm/vllm", "system"].reasons == [
        "node affinity/selector mismatch: nodeSelector GPU=true (node has no label GPU)",
        "Insufficient cpu: requests 2000m, free 1930m; Insufficient memory: requests 8Gi, free 7518Mi; "
        "Insufficient nvidia.com/gpu: requests 1, free 0 (node does not advertise nvidia.com/gpu)",
    ]
    assert table["kube-system/nvidia-device-plugin", "gpu"].lands
    assert json.loads(json.dumps(rows[0].to_dict())) == {
        "workload": "kube-system/nvidia-device-plugin",
        "kind": "DaemonSet",
        "pool": "system",
        "lands": False,
        "reasons": ["node affinity/selector mismatch: nodeSelector GPU=true (node has no label GPU)"],
    }


def test_placement_matrix_gpu_fit_needs_the_device_plugin():
    without_plugin = {(r.workload, r.pool): r for r in placement_matrix([vllm()], [gpu_pool()])}
    with_plugin = {(r.workload, r.pool): r for r in placement_matrix([vllm(), device_plugin()], [gpu_pool()])}
    assert without_plugin["llm/vllm", "gpu"].reasons == [
        "Insufficient nvidia.com/gpu: requests 1, free 0 (node does not advertise nvidia.com/gpu)"
    ]
    assert with_plugin["llm/vllm", "gpu"].lands


def test_advertise_gpus_sets_allocatable_only_where_the_plugin_lands():
    tainted = gpu_pool(name="other", taints=[{"key": "x", "value": "y", "effect": "NoSchedule"}])
    pools = advertise_gpus([system_pool(), gpu_pool(gpus=4), tainted], [device_plugin()])
    allocatable = {p["name"]: p["node"]["status"]["allocatable"] for p in pools}
    assert allocatable["gpu"]["nvidia.com/gpu"] == "4"
    assert "nvidia.com/gpu" not in allocatable["other"]
    assert "nvidia.com/gpu" not in allocatable["system"]


def test_guard_on_pools_built_from_node_groups():
    groups = [
        NodeGroupSpec("system", "m6i.large", 2, {}, []),
        NodeGroupSpec("gpu", "g5.xlarge", 1, {"GPU": "true", "nvidia.com/gpu.present": "true"}, [GPU_TAINT]),
    ]
    result = verdicts([device_plugin(), vllm()], pools_for_node_groups(groups))
    assert failed(result) == [], [v.message for v in result.values()]


def test_unknown_instance_type_pool_lands_nothing_and_says_why():
    groups = [NodeGroupSpec("system", "zz9.mega", 2, {}, [])]
    rows = placement_matrix([vllm(node_selector={})], pools_for_node_groups(groups))
    assert (
        rows[0].reasons[-1]
        == "instance type zz9.mega is not in the catalog: allocatable unknown, cannot check resource fit"
    )
    result = verdicts([], pools_for_node_groups(groups))
    assert not result[4].passed
    assert "zz9.mega is not in the catalog" in result[4].message


@pytest.mark.parametrize("kind", ["Pod", "Job", "CronJob", "StatefulSet"])
def test_guard_reads_every_workload_kind(kind):
    template = vllm(node_selector={})["spec"]["template"]
    if kind == "Pod":
        workload = {"kind": "Pod", "metadata": {"name": "w", "namespace": "llm"}, "spec": template["spec"]}
    elif kind == "CronJob":
        workload = {
            "kind": "CronJob",
            "metadata": {"name": "w", "namespace": "llm"},
            "spec": {"jobTemplate": {"spec": {"template": template}}},
        }
    else:
        workload = {"kind": kind, "metadata": {"name": "w", "namespace": "llm"}, "spec": {"template": template}}
    result = verdicts([device_plugin(), workload], [system_pool(), gpu_pool()])
    assert result[1].message.startswith("GPU workload llm/w can be placed on non-GPU pool system")
