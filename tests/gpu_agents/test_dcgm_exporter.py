"""The DCGM exporter as the program registers it (components/gpu_agents/dcgm_exporter.py): placement, hardening, network."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import CUSTOM_CONTRACT, node_group_node_labels

from components.facts import versions
from components.facts.contract import KUBERNETES_TAINT_EFFECT_OF_EKS as KUBERNETES_EFFECTS
from components.facts.quantity import parse_quantity
from components.facts.resource_types import DAEMONSET, NETWORK_POLICY, NODE_GROUP, SERVICE, SERVICE_ACCOUNT
from components.placement import node_matches, tolerates
from components.placement.exporter import is_dcgm_exporter
from components.placement.workloads import daemonset_pod


def exporter_daemonset(run) -> dict:
    [daemonset] = [r.inputs for r in run.of_type(DAEMONSET) if r.inputs["metadata"]["name"] == "dcgm-exporter"]
    return daemonset


def exporter_daemonsets(run) -> list[dict]:
    """Every exporter DaemonSet: one, or one for each DCGM engine (test_dcgm_engines.py)."""
    return [r.inputs for r in run.of_type(DAEMONSET) if is_dcgm_exporter(r.inputs)]


def exporter_object(run, type_token: str) -> dict:
    [found] = [r.inputs for r in run.of_type(type_token) if r.inputs["metadata"]["name"] == "dcgm-exporter"]
    return found


def node_of(run, suffix: str) -> dict:
    [group] = [r.inputs for r in run.of_type(NODE_GROUP) if r.name.endswith(suffix)]
    taints = [{**taint, "effect": KUBERNETES_EFFECTS[taint["effect"]]} for taint in group.get("taints") or []]
    return {"metadata": {"name": suffix, "labels": node_group_node_labels(group)}, "spec": {"taints": taints}}


@pytest.mark.parametrize("overrides", [{}, CUSTOM_CONTRACT], ids=["default-contract", "custom-contract"])
def test_exporter_tolerates_the_gpu_taints_and_selects_gpu_nodes_only(stack, overrides):
    run = stack(overrides)
    pods = [daemonset_pod(daemonset) for daemonset in exporter_daemonsets(run)]
    gpu, system = node_of(run, "-gpu"), node_of(run, "-system")
    repelling = [taint for taint in gpu["spec"]["taints"] if taint["effect"] in ("NoSchedule", "NoExecute")]
    assert len(repelling) == (2 if overrides else 1)
    for pod in pods:
        for taint in repelling:
            assert any(tolerates(toleration, taint) for toleration in pod["spec"]["tolerations"]), taint
        assert not node_matches(pod, system)
    assert [node_matches(pod, gpu) for pod in pods] == [True, False]  # the one for the node's engine (g5.xlarge)
    assert is_dcgm_exporter(exporter_daemonset(run))


def test_exporter_is_hardened_as_far_as_it_runs(dev_run):
    spec = exporter_daemonset(dev_run)["spec"]["template"]["spec"]
    [container] = spec["containers"]
    context = container["securityContext"]
    assert container["image"] == f"nvcr.io/nvidia/k8s/dcgm-exporter:{versions.DCGM_EXPORTER_VERSION}-distroless"
    assert context["capabilities"] == {"drop": ["ALL"]}  # the node's engine profiles; test_dcgm_engines.py
    assert context["allowPrivilegeEscalation"] is False and context["privileged"] is False
    assert context["readOnlyRootFilesystem"] is True
    assert context["runAsUser"] == 0
    assert spec["automountServiceAccountToken"] is False
    assert not spec.get("hostNetwork") and not spec.get("hostPID")
    assert "priorityClassName" not in spec
    assert "nvidia.com/gpu" not in str(container["resources"])


def test_exporter_mounts_only_the_pod_resources_socket_dir_read_only(dev_run):
    spec = exporter_daemonset(dev_run)["spec"]["template"]["spec"]
    host_paths = [volume for volume in spec["volumes"] if "hostPath" in volume]
    assert host_paths == [
        {"name": "pod-resources", "hostPath": {"path": "/var/lib/kubelet/pod-resources", "type": "Directory"}}
    ]
    [container] = spec["containers"]
    mounts = {mount["name"]: mount for mount in container["volumeMounts"]}
    assert mounts["pod-resources"] == {
        "name": "pod-resources",
        "mountPath": "/var/lib/kubelet/pod-resources",
        "readOnly": True,
    }
    env = {item["name"]: item for item in container["env"]}
    assert env["DCGM_EXPORTER_KUBERNETES"]["value"] == "true"


def test_checks_that_cannot_pass_are_skipped_with_reasons(dev_run):
    annotations = exporter_daemonset(dev_run)["metadata"]["annotations"]
    skipped = dict(value.split("=", 1) for key, value in annotations.items() if key.startswith("checkov.io/skip"))
    assert set(skipped) == {"CKV_K8S_23", "CKV_K8S_40", "CKV_K8S_43", "CKV_K8S_15"}  # no SYS_ADMIN to excuse
    assert all(len(reason) > 30 for reason in skipped.values())


def test_bottlerocket_runs_the_exporter_privileged_while_the_device_plugin_is_absent(stack):
    run = stack({"gpuNodeGroup": {"amiFamily": "Bottlerocket"}})
    names = [r.inputs["metadata"]["name"] for r in run.of_type(DAEMONSET)]
    assert names == ["dcgm-exporter", "dcgm-exporter-embedded"]
    daemonset = exporter_daemonset(run)
    context = daemonset["spec"]["template"]["spec"]["containers"][0]["securityContext"]
    assert context["privileged"] is True and context["allowPrivilegeEscalation"] is True
    assert any(value.startswith("CKV_K8S_16=") for value in daemonset["metadata"]["annotations"].values())
    assert node_matches(daemonset_pod(daemonset), node_of(run, "-gpu"))


def test_disabled_exporter_registers_nothing(stack):
    run = stack({"observability": {"dcgmExporter": {"enabled": False}}})
    assert not [r for r in run.resources if "dcgm-exporter" in r.name]
    assert "dcgmExporter" not in run.outputs


def test_service_selects_the_exporter_pods_on_the_named_metrics_port(dev_run):
    daemonsets = exporter_daemonsets(dev_run)
    service = exporter_object(dev_run, SERVICE)
    assert len(daemonsets) == 2
    for selected in daemonsets:
        pod_labels = selected["spec"]["template"]["metadata"]["labels"]
        assert service["spec"]["selector"].items() <= selected["spec"]["selector"]["matchLabels"].items()
        assert service["spec"]["selector"].items() <= pod_labels.items()
    daemonset = exporter_daemonset(dev_run)
    assert service["spec"]["ports"] == [{"name": "metrics", "port": 9400, "targetPort": "metrics", "protocol": "TCP"}]
    [container] = daemonset["spec"]["template"]["spec"]["containers"]
    assert {"name": "metrics", "containerPort": 9400, "protocol": "TCP"} in container["ports"]


@pytest.mark.parametrize("namespace", ["monitoring", "prometheus"])
def test_network_policy_admits_scrapes_only_from_the_monitoring_namespace(stack, namespace):
    run = stack({"observability": {"monitoringNamespace": namespace}})
    daemonset = exporter_daemonset(run)
    policy = exporter_object(run, NETWORK_POLICY)
    assert policy["metadata"]["namespace"] == daemonset["metadata"]["namespace"] == "kube-system"
    assert policy["spec"] == {
        "podSelector": {"matchLabels": daemonset["spec"]["selector"]["matchLabels"]},
        "policyTypes": ["Ingress", "Egress"],
        "ingress": [
            {
                "from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": namespace}}}],
                "ports": [{"protocol": "TCP", "port": 9400}],
            }
        ],
        "egress": [{"ports": [{"protocol": "TCP", "port": 5555}]}],  # to the node's DCGM engine only
    }


def test_exporter_service_account_has_no_token(dev_run):
    account = exporter_object(dev_run, SERVICE_ACCOUNT)
    assert account["automountServiceAccountToken"] is False
    assert exporter_daemonset(dev_run)["spec"]["template"]["spec"]["serviceAccountName"] == "dcgm-exporter"


def test_dev_stack_plan_places_the_exporter_on_the_gpu_pool_only(capsys, tmp_path):
    from conftest import ROOT

    from components.stackcheck.__main__ import main

    code = main(["plan", "--project-dir", str(ROOT), "--stack", "dev", "--out", str(tmp_path), "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    assert code == 0, document["failures"]
    rows = {row["pool"]: row["lands"] for row in document["matrix"] if row["workload"] == "kube-system/dcgm-exporter"}
    assert rows == {"gpu-inference-dev-system": False, "gpu-inference-dev-gpu": True}
    [verdict] = [v for v in document["verdicts"] if v["name"] == "dcgm-exporter-covers-gpu-pools"]
    assert verdict["passed"] and verdict["id"] == 10
    assert (tmp_path / "kube-system.daemonset.dcgm-exporter.yaml").is_file()


def test_bottlerocket_skips_name_privileged_reasons_instead_of_sys_admin(stack):
    annotations = exporter_daemonset(stack({"gpuNodeGroup": {"amiFamily": "Bottlerocket"}}))["metadata"]["annotations"]
    skipped = dict(value.split("=", 1) for key, value in annotations.items() if key.startswith("checkov.io/skip"))
    assert set(skipped) == {
        "CKV_K8S_23",
        "CKV_K8S_40",
        "CKV_K8S_43",
        "CKV_K8S_15",
        "CKV_K8S_16",
        "CKV_K8S_20",
        "CKV_K8S_37",
        "CKV_K8S_28",
    }
    assert all("Bottlerocket" in skipped[check] for check in ("CKV_K8S_16", "CKV_K8S_20", "CKV_K8S_37", "CKV_K8S_28"))


@pytest.mark.parametrize("instance_type", ["g5.xlarge", "g6.xlarge", "g5.12xlarge"])
def test_vllm_still_fits_a_gpu_node_beside_the_device_plugin_and_the_exporter(stack, instance_type):
    from components.facts.gpu_catalog import gpu_instance_type
    from components.placement import can_schedule, eks_allocatable, explain
    from tests.support.vllm_server import node, server_pod

    instance = gpu_instance_type(instance_type)
    run = stack({"gpuNodeGroup": {"instanceTypes": [instance_type]}})
    gpu_node = node(run, "-gpu", {**eks_allocatable(instance), "nvidia.com/gpu": str(instance.gpus)})
    daemon_pods = [
        {"spec": r.inputs["spec"]["template"]["spec"]}
        for r in run.of_type(DAEMONSET)
        if node_matches(daemonset_pod(r.inputs), gpu_node)
    ]
    assert len(daemon_pods) == 2  # the device plugin and one exporter
    assert can_schedule(server_pod(run), gpu_node, daemon_pods), explain(server_pod(run), gpu_node)


def test_exporter_listens_and_is_probed_on_the_port_its_service_scrapes(dev_run):
    (container,) = exporter_daemonset(dev_run)["spec"]["template"]["spec"]["containers"]
    (port,) = container["ports"]
    env = {variable["name"]: variable.get("value") for variable in container["env"]}
    number = int(port["containerPort"])  # mock inputs carry numbers as floats
    assert env["DCGM_EXPORTER_LISTEN"] == f":{number}"
    for probe in (container["livenessProbe"], container["readinessProbe"]):
        assert probe["httpGet"]["port"] in (port["name"], number)
    service = exporter_object(dev_run, SERVICE)
    assert [p["targetPort"] for p in service["spec"]["ports"]] in ([port["name"]], [number])


def test_exporter_also_tolerates_nvidias_own_gpu_taint(dev_run):
    tolerations = exporter_daemonset(dev_run)["spec"]["template"]["spec"]["tolerations"]
    assert {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"} in tolerations


def test_every_exporter_asks_upstreams_requests_and_limits_in_binary_units(stack):
    # NVIDIA/dcgm-exporter dcgm-exporter.yaml at tag 4.5.3-4.8.2: requests cpu 100m, memory 128Mi; limits cpu
    # 200m, memory 256Mi. Compared as amounts, so 128M (decimal megabytes) is not taken for 128Mi.
    expected = {
        "requests": {"cpu": Fraction(1, 10), "memory": 128 * 2**20},
        "limits": {"cpu": Fraction(2, 10), "memory": 256 * 2**20},
    }
    daemonsets = exporter_daemonsets(stack({"autoscaler": {"enabled": False}}))
    assert len(daemonsets) == 2  # the exporter on the node's engine, and the one embedding its own
    for daemonset in daemonsets:
        [container] = daemonset["spec"]["template"]["spec"]["containers"]
        amounts = {
            kind: {name: parse_quantity(value) for name, value in values.items()}
            for kind, values in container["resources"].items()
        }
        assert amounts == expected, daemonset["metadata"]["name"]
