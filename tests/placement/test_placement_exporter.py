"""Guard verdict 10: a DCGM exporter lands on every GPU pool and on no other pool."""

from __future__ import annotations

from components.facts import auto_mode
from components.facts.contract import PlacementContract
from components.gpu_agents.dcgm_exporter import daemonset
from components.placement.exporter import dcgm_exporter_covers_gpu_pools, is_dcgm_exporter
from tests.support.placement_exporter import exporter, exporter_verdict
from tests.support.placement_guard import device_plugin, gpu_pool, system_pool, vllm


def test_exporter_on_every_gpu_pool_and_no_other_passes():
    verdict = exporter_verdict([device_plugin(), vllm(), exporter()], [system_pool(), gpu_pool("a"), gpu_pool("b")])
    assert verdict.passed and verdict.name == "dcgm-exporter-covers-gpu-pools"
    assert verdict.message == (
        "one DCGM exporter lands on every GPU pool, reading one DCGM engine, and none on another pool: "
        "a (monitoring/gpu-metrics, its own engine), b (monitoring/gpu-metrics, its own engine)"
    )
    assert verdict.details == [
        "a (monitoring/gpu-metrics, its own engine)",
        "b (monitoring/gpu-metrics, its own engine)",
    ]


def test_exporter_without_the_gpu_toleration_fails_naming_pool_and_taint():
    verdict = exporter_verdict([device_plugin(), exporter(tolerations=[])], [system_pool(), gpu_pool()])
    assert (verdict.id, verdict.name, verdict.passed) == (10, "dcgm-exporter-covers-gpu-pools", False)
    assert verdict.message.startswith("DCGM exporter monitoring/gpu-metrics cannot land on GPU pool gpu:")
    assert "GPU=true:NoSchedule" in verdict.message


def test_exporter_without_a_selector_fails_for_landing_on_the_system_pool():
    verdict = exporter_verdict([device_plugin(), exporter(node_selector={})], [system_pool(), gpu_pool()])
    assert not verdict.passed
    assert verdict.details == [
        "DCGM exporter monitoring/gpu-metrics lands on non-GPU pool system: nothing keeps "
        "it off (add nodeSelector GPU=true)"
    ]


def test_exporter_is_needed_on_gpu_pools_whose_host_runs_the_device_plugin():
    # Bottlerocket advertises GPUs itself; verdict 3 excuses the device plugin there, verdict 10 still wants
    # the exporter, which the host does not run.
    host_pool = {**gpu_pool("bottlerocket", advertised=True), "gpuAdvertisedByHost": True}
    verdict = exporter_verdict([exporter(tolerations=[])], [system_pool(), host_pool])
    assert not verdict.passed and "bottlerocket" in verdict.message


def test_no_exporter_passes_and_says_metrics_are_off():
    verdict = dcgm_exporter_covers_gpu_pools([device_plugin(), vllm()], [system_pool(), gpu_pool()])
    assert verdict.name == "dcgm-exporter-covers-gpu-pools"
    assert verdict.passed and verdict.message == "no DCGM exporter workload: GPU metrics are not collected"


def test_an_exporter_without_a_gpu_pool_passes_and_says_there_is_none():
    verdict = dcgm_exporter_covers_gpu_pools([exporter()], [system_pool()])
    assert (verdict.name, verdict.passed, verdict.details) == (
        "dcgm-exporter-covers-gpu-pools",
        True,
        [],
    )
    assert verdict.message == (
        "one DCGM exporter lands on every GPU pool, reading one DCGM engine, and none on another pool (there is no "
        "GPU pool)"
    )


def test_an_exporter_kept_off_a_gpu_pool_two_ways_names_both():
    verdict = exporter_verdict(
        [device_plugin(), exporter(tolerations=[], node_selector={"accelerator": "nvidia"})],
        [system_pool(), gpu_pool()],
    )
    assert not verdict.passed
    assert verdict.details == [
        "DCGM exporter monitoring/gpu-metrics cannot land on GPU pool gpu: untolerated taint GPU=true:NoSchedule; node "
        "affinity/selector mismatch: nodeSelector accelerator=nvidia (node has no label accelerator)"
    ]


def test_the_component_s_daemonset_is_recognised_by_label_and_image():
    manifest = daemonset("test", PlacementContract())
    assert is_dcgm_exporter(manifest)
    assert is_dcgm_exporter(exporter())
    assert not is_dcgm_exporter(exporter(image="example.com/other:1"))
    assert not is_dcgm_exporter(device_plugin())
    assert not is_dcgm_exporter({**exporter(), "kind": "Deployment"})
    assert exporter_verdict([manifest], [system_pool(), gpu_pool()]).passed


def test_two_exporters_of_which_none_lands_are_both_named_with_their_reasons():
    second = {**exporter(tolerations=[]), "metadata": {"name": "other-metrics", "namespace": "monitoring"}}
    verdict = exporter_verdict([device_plugin(), exporter(tolerations=[]), second], [system_pool(), gpu_pool()])
    assert not verdict.passed
    assert verdict.message.startswith(
        "no DCGM exporter lands on GPU pool gpu (monitoring/gpu-metrics: untolerated taint GPU=true:NoSchedule;"
    )
    assert "; monitoring/other-metrics: " in verdict.message


def test_exporter_kept_off_a_node_group_pool_by_its_selector_alone_fails_naming_the_label():
    # Only an EKS Auto Mode pool may go without an exporter for node affinity alone (EKS monitors its GPUs).
    verdict = exporter_verdict(
        [device_plugin(), exporter(node_selector={"GPU": "true", "team": "x"})], [system_pool(), gpu_pool()]
    )
    message = (
        "DCGM exporter monitoring/gpu-metrics cannot land on GPU pool gpu: node affinity/selector mismatch: "
        "nodeSelector team=x (node has no label team)"
    )
    assert (verdict.passed, verdict.message, verdict.details) == (False, message, [message])


def test_two_exporters_on_two_gpu_pools_are_reported_for_each_pool():
    second = exporter()
    second["metadata"]["name"] = "gpu-metrics-2"
    verdict = exporter_verdict([device_plugin(), exporter(), second], [system_pool(), gpu_pool("a"), gpu_pool("b")])
    assert not verdict.passed
    assert verdict.details == [
        f"2 DCGM exporters land on GPU pool {pool} (monitoring/gpu-metrics, monitoring/gpu-metrics-2): each node's "
        "GPUs would be read, and reported, more than once"
        for pool in ("a", "b")
    ]


def test_an_exporter_is_recognised_by_its_component_label_on_the_daemonset_or_its_template_whatever_its_image():
    on_daemonset, on_template = exporter(image="example.com/metrics:1"), exporter(image="example.com/metrics:1")
    on_daemonset["metadata"]["labels"] = {"app.kubernetes.io/component": "dcgm-exporter"}
    on_template["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/component"] = "dcgm-exporter"
    assert (is_dcgm_exporter(on_daemonset), is_dcgm_exporter(on_template)) == (True, True)
    assert not is_dcgm_exporter(exporter(image="example.com/metrics:1"))


def test_an_exporter_run_as_an_init_container_is_recognised_by_its_image():
    # A native sidecar (an init container with restartPolicy Always, Kubernetes 1.29+) runs for the pod's life.
    sidecar = exporter()
    pod_spec = sidecar["spec"]["template"]["spec"]
    pod_spec["initContainers"] = [{**pod_spec["containers"][0], "restartPolicy": "Always"}]
    pod_spec["containers"] = [{"name": "app", "image": "example.com/app:1"}]

    assert is_dcgm_exporter(sidecar)
    pod_spec["initContainers"][0]["image"] = "example.com/setup:1"
    assert not is_dcgm_exporter(sidecar)


def test_an_auto_mode_pool_is_left_to_eks_by_affinity_alone_whatever_its_nodes_could_hold():
    # A DaemonSet pod is placed on every matching node, so resource fit is no reason here, on any pool.
    auto = gpu_pool("auto")
    auto["provisioner"] = auto_mode.PROVISIONER
    auto["node"]["metadata"]["labels"][auto_mode.COMPUTE_TYPE_LABEL] = auto_mode.COMPUTE_TYPE
    auto["node"]["status"]["allocatable"] = {"cpu": "1m", "memory": "1Mi", "pods": "58"}
    kept_off = exporter()
    kept_off["spec"]["template"]["spec"] = auto_mode.off_auto_mode_nodes(kept_off["spec"]["template"]["spec"])
    kept_off["spec"]["template"]["spec"]["containers"][0]["resources"] = {
        "requests": {"cpu": "100m", "memory": "128Mi"}
    }

    verdict = exporter_verdict([device_plugin(), kept_off], [system_pool(), gpu_pool("a"), auto])

    assert (verdict.passed, verdict.details) == (
        True,
        ["a (monitoring/gpu-metrics, its own engine)", "auto (EKS Auto Mode: no exporter, EKS monitors its GPUs)"],
    )
