"""Behaviour of the NVIDIA device plugin component (components/gpu_agents/device_plugin.py)."""

from __future__ import annotations

import copy

import pytest

from components.facts import versions
from components.facts.contract import KUBERNETES_TAINT_EFFECT_OF_EKS as KUBERNETES_EFFECTS
from components.facts.contract import PlacementContract, Taint
from components.facts.resource_types import DAEMONSET, NETWORK_POLICY, NODE_GROUP, SERVICE_ACCOUNT
from components.gpu_agents.device_plugin import tolerations
from components.kube.labels import label_value
from components.placement import node_matches, tolerates
from components.placement.workloads import daemonset_pod, is_device_plugin
from components.stackcheck.runtime import ProgramRun, RegisteredResource

STANDARD_LABEL_KEYS = {
    f"app.kubernetes.io/{key}" for key in ("name", "instance", "component", "part-of", "managed-by", "version")
}

CUSTOM_CONTRACT = {
    "gpuPlacement": {
        "labelKey": "accelerator",
        "labelValue": "nvidia",
        "taintKey": "nvidia.com/gpu",
        "taintValue": "present",
        "taintEffect": "NoExecute",
    },
    "gpuNodeGroup": {
        "extraTaints": [
            {"key": "dedicated", "value": "inference", "effect": "NoSchedule"},
            {"key": "spot", "value": "true", "effect": "PreferNoSchedule"},
        ]
    },
}


def plugin_daemonset(run: ProgramRun) -> dict:
    [daemonset] = [r for r in run.of_type(DAEMONSET) if r.inputs["metadata"]["name"] == "nvidia-device-plugin"]
    return daemonset.inputs


def node_group(run: ProgramRun, suffix: str) -> RegisteredResource:
    [group] = [resource for resource in run.of_type(NODE_GROUP) if resource.name.endswith(suffix)]
    return group


def gpu_node(run: ProgramRun) -> dict:
    """A node of the registered GPU node group: its labels, its taints in Kubernetes spelling."""
    inputs = node_group(run, "-gpu").inputs
    taints = [{**taint, "effect": KUBERNETES_EFFECTS[taint["effect"]]} for taint in inputs.get("taints") or []]
    return {"metadata": {"name": "gpu-0", "labels": dict(inputs.get("labels") or {})}, "spec": {"taints": taints}}


def system_node(run: ProgramRun) -> dict:
    inputs = node_group(run, "-system").inputs
    return {"metadata": {"name": "system-0", "labels": dict(inputs.get("labels") or {})}, "spec": {}}


@pytest.mark.parametrize("overrides", [{}, CUSTOM_CONTRACT], ids=["default-contract", "custom-contract"])
def test_device_plugin_tolerates_every_repelling_taint_of_the_gpu_node_group(stack, overrides):
    run = stack(overrides)
    pod = daemonset_pod(plugin_daemonset(run))
    taints = gpu_node(run)["spec"]["taints"]
    repelling = [taint for taint in taints if taint["effect"] in ("NoSchedule", "NoExecute")]
    assert len(repelling) == (2 if overrides else 1)
    for taint in repelling:
        assert any(tolerates(toleration, taint) for toleration in pod["spec"]["tolerations"]), taint


@pytest.mark.parametrize("overrides", [{}, CUSTOM_CONTRACT], ids=["default-contract", "custom-contract"])
def test_device_plugin_selects_the_gpu_node_group_label_and_no_system_node(stack, overrides):
    run = stack(overrides)
    pod = daemonset_pod(plugin_daemonset(run))
    assert pod["spec"]["nodeSelector"]
    assert node_matches(pod, gpu_node(run))
    assert not node_matches(pod, system_node(run))


def test_device_plugin_also_tolerates_the_nvidia_gpu_taint_convention(dev_run):
    spec = plugin_daemonset(dev_run)["spec"]["template"]["spec"]
    assert {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"} in spec["tolerations"]


def test_device_plugin_is_absent_on_bottlerocket_and_the_output_says_why(stack):
    run = stack({"gpuNodeGroup": {"amiFamily": "Bottlerocket"}})
    assert [r for r in run.of_type(DAEMONSET) if r.inputs["metadata"]["name"] == "nvidia-device-plugin"] == []
    assert run.of_type("eks-gpu-inference:index:NvidiaDevicePlugin") == []
    assert run.outputs["devicePlugin"] == "not deployed: the Bottlerocket NVIDIA AMI runs the device plugin on the host"


def test_device_plugin_is_absent_when_disabled_and_the_output_says_so(stack):
    run = stack({"devicePlugin": {"enabled": False}})
    assert run.of_type("eks-gpu-inference:index:NvidiaDevicePlugin") == []
    assert run.outputs["devicePlugin"] == "not deployed: devicePlugin.enabled is false"


def test_device_plugin_runs_the_pinned_image_of_the_configured_version(stack, dev_run):
    container = plugin_daemonset(dev_run)["spec"]["template"]["spec"]["containers"][0]
    assert container["image"] == f"{versions.DEVICE_PLUGIN_IMAGE_REPOSITORY}:{versions.DEVICE_PLUGIN_VERSION}"
    older = plugin_daemonset(stack({"devicePlugin": {"version": "v0.17.1"}}))
    assert older["spec"]["template"]["spec"]["containers"][0]["image"] == "nvcr.io/nvidia/k8s-device-plugin:v0.17.1"


def test_placement_guard_recognises_the_device_plugin(dev_run):
    daemonset = plugin_daemonset(dev_run)
    assert daemonset["metadata"]["labels"]["app.kubernetes.io/component"] == "nvidia-device-plugin"
    assert is_device_plugin(daemonset)
    # Recognised by its label too, not only by the upstream image: a mirrored image keeps working.
    mirrored = copy.deepcopy(daemonset)
    mirrored["spec"]["template"]["spec"]["containers"][0]["image"] = "registry.example.com/mirror/plugin:v1"
    assert is_device_plugin(mirrored)


def test_device_plugin_is_node_critical_in_kube_system_without_a_runtime_class(dev_run):
    daemonset = plugin_daemonset(dev_run)
    spec = daemonset["spec"]["template"]["spec"]
    assert daemonset["metadata"]["namespace"] == "kube-system"
    assert spec["priorityClassName"] == "system-node-critical"
    assert "runtimeClassName" not in spec
    assert daemonset["spec"]["updateStrategy"] == {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}}


def test_device_plugin_mounts_only_the_kubelet_device_plugin_dir(dev_run):
    spec = plugin_daemonset(dev_run)["spec"]["template"]["spec"]
    assert spec["volumes"] == [
        {"name": "device-plugins", "hostPath": {"path": "/var/lib/kubelet/device-plugins", "type": "Directory"}}
    ]
    [container] = spec["containers"]
    assert container["volumeMounts"] == [{"name": "device-plugins", "mountPath": "/var/lib/kubelet/device-plugins"}]


def test_device_plugin_fails_fast_when_it_cannot_see_the_gpus(dev_run):
    """No FAIL_ON_INIT_ERROR=false: the plugin keeps its default and crash-loops instead of idling without GPUs."""
    [container] = plugin_daemonset(dev_run)["spec"]["template"]["spec"]["containers"]
    assert all(variable["name"] != "FAIL_ON_INIT_ERROR" for variable in container.get("env") or ())
    assert not any(
        "fail-on-init-error" in arg for arg in [*(container.get("args") or ()), *(container.get("command") or ())]
    )


def test_device_plugin_container_is_locked_down_apart_from_running_as_root(dev_run):
    daemonset = plugin_daemonset(dev_run)
    spec = daemonset["spec"]["template"]["spec"]
    [container] = spec["containers"]
    security = container["securityContext"]
    assert security["privileged"] is False
    assert security["allowPrivilegeEscalation"] is False
    assert security["capabilities"] == {"drop": ["ALL"]}
    assert security["readOnlyRootFilesystem"] is True
    assert security["seccompProfile"] == {"type": "RuntimeDefault"}
    assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert "memory" in container["resources"]["limits"]
    assert set(container["resources"]["requests"]) == {"cpu", "memory"}
    skipped = {
        value.split("=", 1)[0]: value.split("=", 1)[1]
        for key, value in daemonset["metadata"]["annotations"].items()
        if key.startswith("checkov.io/skip")
    }
    assert {"CKV_K8S_23", "CKV_K8S_40"} <= set(skipped)
    assert all(reason.strip() for reason in skipped.values())


def test_device_plugin_has_its_own_service_account_without_a_token(dev_run):
    spec = plugin_daemonset(dev_run)["spec"]["template"]["spec"]
    [account] = [r for r in dev_run.of_type(SERVICE_ACCOUNT) if r.inputs["metadata"]["name"] == "nvidia-device-plugin"]
    assert spec["serviceAccountName"] == account.inputs["metadata"]["name"]
    assert account.inputs["automountServiceAccountToken"] is False
    assert spec["automountServiceAccountToken"] is False


def test_device_plugin_pods_are_cut_off_from_the_network(dev_run):
    daemonset = plugin_daemonset(dev_run)
    [policy] = [
        r.inputs for r in dev_run.of_type(NETWORK_POLICY) if r.inputs["metadata"]["name"] == "nvidia-device-plugin"
    ]
    pod_labels = daemonset["spec"]["template"]["metadata"]["labels"]
    assert policy["spec"]["podSelector"]["matchLabels"] == {
        key: pod_labels[key] for key in ("app.kubernetes.io/name", "app.kubernetes.io/instance")
    }
    assert policy["spec"]["policyTypes"] == ["Ingress", "Egress"]
    assert "ingress" not in policy["spec"] and "egress" not in policy["spec"]


def test_every_device_plugin_object_is_named_and_carries_the_standard_labels(dev_run):
    [component] = dev_run.of_type("eks-gpu-inference:index:NvidiaDevicePlugin")
    plugin_objects = [r for r in dev_run.resources if r.parent == component.urn]
    assert {r.type for r in plugin_objects} == {
        DAEMONSET,
        SERVICE_ACCOUNT,
        NETWORK_POLICY,
    }
    for resource in plugin_objects:
        metadata = resource.inputs["metadata"]
        assert metadata["name"] == "nvidia-device-plugin"
        assert set(metadata["labels"]) >= STANDARD_LABEL_KEYS, resource.name
        assert metadata["labels"]["app.kubernetes.io/component"] == "nvidia-device-plugin"
        assert metadata["labels"]["app.kubernetes.io/part-of"] == "eks-gpu-inference"
        assert metadata["labels"]["app.kubernetes.io/managed-by"] == "pulumi"


def test_device_plugin_output_names_the_daemonset(dev_run):
    assert dev_run.outputs["devicePlugin"] == plugin_daemonset(dev_run)["metadata"]["name"]


# Pure functions.


def test_tolerations_add_the_nvidia_gpu_toleration_once():
    contract = PlacementContract(taint=Taint("nvidia.com/gpu", "", "NoSchedule"))
    assert tolerations(contract) == [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]


def test_tolerations_leave_out_prefer_no_schedule_taints():
    contract = PlacementContract(extra_taints=(Taint("spot", "true", "PreferNoSchedule"),))
    assert [toleration["key"] for toleration in tolerations(contract)] == ["GPU", "nvidia.com/gpu"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("gpu-inference-dev-device-plugin", "gpu-inference-dev-device-plugin"),
        ("my stack/vllm", "my-stack-vllm"),
        ("a" * 70 + "-b", "a" * 63),
        ("-x_", "x"),
    ],
)
def test_label_value_makes_any_name_a_valid_label_value(text, expected):
    assert label_value(text) == expected
