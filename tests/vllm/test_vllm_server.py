"""Behaviour of the vLLM server component (components/vllm/server.py)."""

from __future__ import annotations

import pytest
from conftest import CUSTOM_CONTRACT, plain_strings

import components.stackcheck.runtime
from components.facts import versions
from components.facts.contract import NVIDIA_GPU_PRODUCT_LABEL
from components.facts.gpu_catalog import gpu_instance_type
from components.facts.resource_types import (
    DAEMONSET,
    DEPLOYMENT,
    NAMESPACE,
    NETWORK_POLICY,
    PERSISTENT_VOLUME_CLAIM,
    POD_DISRUPTION_BUDGET,
    SECRET,
    SERVICE,
    SERVICE_ACCOUNT,
)
from components.placement import can_schedule, explain, gpu_guard, node_matches, tolerates
from components.placement.pools import eks_allocatable
from components.settings import ConfigError
from components.stackcheck.plan.node_agents import cluster_agents
from components.stackcheck.plan.pools import build_pools, node_group_specs
from components.stackcheck.runtime import ProgramRun, Secret
from components.vllm.manifests import (
    MODEL_CACHE_PATH,
    PRE_STOP_SLEEP_SECONDS,
)
from tests.support.vllm_server import env, node, server_container, server_deployment, server_pod

STANDARD_LABEL_KEYS = {
    f"app.kubernetes.io/{key}" for key in ("name", "instance", "component", "part-of", "managed-by", "version")
}
TOKEN = "hf_plaintextsecret123"


def server_selector(run: ProgramRun) -> dict[str, str]:
    """The server pods' name and instance labels: what selects exactly them, never empty."""
    labels = server_pod(run)["metadata"]["labels"]
    return {key: labels[key] for key in ("app.kubernetes.io/name", "app.kubernetes.io/instance")}


def one(run: ProgramRun, type_token: str) -> dict:
    """The inputs of the one server object of a type (the device plugin's live in kube-system)."""
    [resource] = [r for r in run.of_type(type_token) if r.inputs["metadata"].get("namespace") != "kube-system"]
    return resource.inputs


def volume(run: ProgramRun, name: str) -> dict:
    [found] = [v for v in server_deployment(run)["spec"]["template"]["spec"]["volumes"] if v["name"] == name]
    return found


def mount_path(run: ProgramRun, name: str) -> str:
    [found] = [m["mountPath"] for m in server_container(run)["volumeMounts"] if m["name"] == name]
    return found


def run_keeping_registrations(stack, monkeypatch, overrides) -> tuple[ConfigError, ProgramRun]:
    """Run the program expecting ConfigError; also return what it registered before failing."""
    runs: list[ProgramRun] = []

    class KeptRun(ProgramRun):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            runs.append(self)

    monkeypatch.setattr(components.stackcheck.runtime, "ProgramRun", KeptRun)
    with pytest.raises(ConfigError) as error:
        stack(overrides)
    [run] = runs
    return error.value, run


# Placement.


@pytest.mark.parametrize("overrides", [{}, CUSTOM_CONTRACT], ids=["default-contract", "custom-contract"])
def test_server_pod_lands_on_gpu_nodes_and_on_no_system_node(stack, overrides):
    run = stack(overrides)
    pod = server_pod(run)
    assert pod["spec"]["nodeSelector"]
    assert node_matches(pod, node(run, "-gpu"))
    assert not node_matches(pod, node(run, "-system"))


@pytest.mark.parametrize("overrides", [{}, CUSTOM_CONTRACT], ids=["default-contract", "custom-contract"])
def test_server_pod_tolerates_every_repelling_gpu_taint(stack, overrides):
    run = stack(overrides)
    tolerations = server_pod(run)["spec"]["tolerations"]
    taints = [t for t in node(run, "-gpu")["spec"]["taints"] if t["effect"] in ("NoSchedule", "NoExecute")]
    assert len(taints) == (2 if overrides else 1)
    for taint in taints:
        assert any(tolerates(toleration, taint) for toleration in tolerations), taint


def test_server_pod_fits_an_empty_gpu_node_beside_the_device_plugin(dev_run):
    instance = gpu_instance_type("g5.xlarge")
    gpu_node = node(dev_run, "-gpu", {**eks_allocatable(instance), "nvidia.com/gpu": str(instance.gpus)})
    [plugin] = [r.inputs for r in dev_run.of_type(DAEMONSET) if r.inputs["metadata"]["name"] == "nvidia-device-plugin"]
    plugin_pod = {"spec": plugin["spec"]["template"]["spec"]}
    assert can_schedule(server_pod(dev_run), gpu_node, [plugin_pod]), explain(server_pod(dev_run), gpu_node)


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        CUSTOM_CONTRACT,
        {"gpuNodeGroup": {"instanceTypes": ["g5.12xlarge"]}, "vllm": {"tensorParallelSize": 4}},
    ],
    ids=["default-contract", "custom-contract", "tensor-parallel-4"],
)
def test_placement_guard_passes_every_verdict_on_the_stack(stack, overrides):
    run = stack(overrides)
    workloads = [r.inputs for r in run.resources if r.type in (DEPLOYMENT, DAEMONSET)]
    host_engines = cluster_agents(run.resources).dcgm_host_engines()
    assert host_engines  # node repair is on: the exporter on the GPU pool reads dcgm-server's engine
    verdicts = gpu_guard(workloads, build_pools(node_group_specs(run.resources)), host_engines=host_engines)
    assert [(v.id, v.message) for v in verdicts if not v.passed] == []


def test_server_requests_tensor_parallel_size_gpus_in_limits_only(stack):
    run = stack({"gpuNodeGroup": {"instanceTypes": ["g5.12xlarge"]}, "vllm": {"tensorParallelSize": 4}})
    container = server_container(run)
    assert container["resources"]["limits"]["nvidia.com/gpu"] == "4"
    assert "nvidia.com/gpu" not in container["resources"]["requests"]
    args = container["args"]
    assert args[args.index("--tensor-parallel-size") + 1] == "4"
    assert volume(run, "dshm")["emptyDir"]["sizeLimit"] == "4Gi"


def test_server_has_no_node_affinity_unless_asked(dev_run):
    assert "affinity" not in server_pod(dev_run)["spec"]


def test_require_node_affinity_adds_the_contract_label_term(stack):
    run = stack({"gpuPlacement": {"requireNodeAffinity": True}})
    pod = server_pod(run)
    terms = pod["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert terms["nodeSelectorTerms"] == [{"matchExpressions": [{"key": "GPU", "operator": "In", "values": ["true"]}]}]
    assert node_matches(pod, node(run, "-gpu"))


def test_required_gpu_product_keeps_the_pod_off_nodes_of_another_product(stack):
    run = stack({"vllm": {"requireGpuProduct": "NVIDIA-A10G"}})
    pod = server_pod(run)
    gpu_node = node(run, "-gpu")
    assert node_matches(pod, gpu_node)
    gpu_node["metadata"]["labels"][NVIDIA_GPU_PRODUCT_LABEL] = "NVIDIA-L4"
    assert not node_matches(pod, gpu_node)


# The container.


def test_server_args_come_from_settings_in_order_then_extra_args(stack):
    run = stack(
        {
            "vllm": {
                "servedModelName": "qwen",
                "maxModelLen": 4096,
                "gpuMemoryUtilization": 0.85,
                "shutdownTimeoutSeconds": 45,
                "extraArgs": ["--enable-prefix-caching"],
            }
        }
    )
    container = server_container(run)
    assert "command" not in container
    assert container["args"] == [
        "Qwen/Qwen2.5-7B-Instruct",
        "--served-model-name",
        "qwen",
        "--tensor-parallel-size",
        "1",
        "--max-model-len",
        "4096",
        "--gpu-memory-utilization",
        "0.85",
        "--port",
        "8000",
        "--shutdown-timeout",
        "45",
        # Pulumi.dev.yaml pins the model's revision.
        "--revision",
        "a09a35458c702b33eeacc393d103063234e8bc28",
        "--enable-prefix-caching",
    ]


def test_model_is_the_first_positional_argument_and_never_the_deprecated_flag(dev_run):
    args = server_container(dev_run)["args"]
    assert args[0] == "Qwen/Qwen2.5-7B-Instruct"
    assert not any(arg == "--model" or arg.startswith("--model=") for arg in args)


def test_server_probes_health_with_a_startup_budget_of_the_startup_timeout(stack):
    container = server_container(stack({"vllm": {"startupTimeoutSeconds": 905}}))
    startup = container["startupProbe"]
    assert startup["httpGet"] == {"path": "/health", "port": "http"}
    assert startup["periodSeconds"] == 10
    assert startup["failureThreshold"] == 91
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"] == {"path": "/health", "port": "http"}
    assert {"name": "http", "containerPort": 8000, "protocol": "TCP"} in container["ports"]


def test_server_gets_a_memory_backed_dev_shm(dev_run):
    assert volume(dev_run, "dshm")["emptyDir"] == {"medium": "Memory", "sizeLimit": "1Gi"}
    assert mount_path(dev_run, "dshm") == "/dev/shm"


def test_model_cache_is_an_empty_dir_of_the_configured_size_at_hf_home(stack):
    run = stack({"vllm": {"modelCache": {"size": "60Gi"}}})
    assert volume(run, "model-cache") == {"name": "model-cache", "emptyDir": {"sizeLimit": "60Gi"}}
    assert env(run)["HF_HOME"] == mount_path(run, "model-cache") == MODEL_CACHE_PATH
    assert run.of_type(PERSISTENT_VOLUME_CLAIM) == []


def test_model_cache_pvc_is_a_claim_the_pod_mounts_at_hf_home(stack):
    run = stack({"vllm": {"modelCache": {"type": "pvc", "size": "200Gi", "storageClass": "gp3"}}})
    claim = one(run, PERSISTENT_VOLUME_CLAIM)
    assert claim["spec"] == {
        "accessModes": ["ReadWriteOnce"],
        "resources": {"requests": {"storage": "200Gi"}},
        "storageClassName": "gp3",
    }
    assert claim["metadata"]["namespace"] == "vllm"
    assert volume(run, "model-cache")["persistentVolumeClaim"] == {"claimName": claim["metadata"]["name"]}
    assert env(run)["HF_HOME"] == mount_path(run, "model-cache")


def test_model_cache_pvc_without_a_storage_class_uses_the_cluster_default(stack):
    run = stack({"vllm": {"modelCache": {"type": "pvc"}}})
    assert "storageClassName" not in one(run, PERSISTENT_VOLUME_CLAIM)["spec"]


def test_read_only_root_filesystem_leaves_every_cache_dir_on_a_writable_mount(dev_run):
    container = server_container(dev_run)
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    writable = [m["mountPath"] for m in container["volumeMounts"] if not m.get("readOnly")]
    variables = env(dev_run)
    for name in ("HOME", "XDG_CACHE_HOME", "VLLM_CACHE_ROOT", "TRITON_CACHE_DIR", "HF_HOME"):
        assert any(variables[name] == path or variables[name].startswith(path + "/") for path in writable), name
    assert mount_path(dev_run, "tmp") == "/tmp"


def test_server_is_replaced_with_recreate(dev_run):
    assert server_deployment(dev_run)["spec"]["strategy"] == {"type": "Recreate"}


def test_server_shuts_down_gracefully_within_the_grace_period(stack):
    run = stack({"vllm": {"shutdownTimeoutSeconds": 120}})
    pod_spec = server_pod(run)["spec"]
    container = server_container(run)
    assert container["lifecycle"] == {"preStop": {"sleep": {"seconds": PRE_STOP_SLEEP_SECONDS}}}
    assert pod_spec["terminationGracePeriodSeconds"] > 120 + PRE_STOP_SLEEP_SECONDS


# Security.


def test_server_pod_meets_the_restricted_pod_security_standard(dev_run):
    namespace = one(dev_run, NAMESPACE)
    labels = namespace["metadata"]["labels"]
    assert labels["pod-security.kubernetes.io/enforce"] == "restricted"
    assert labels["pod-security.kubernetes.io/enforce-version"] == "latest"
    assert labels["pod-security.kubernetes.io/audit"] == labels["pod-security.kubernetes.io/warn"] == "restricted"
    spec = server_pod(dev_run)["spec"]
    assert spec["securityContext"]["runAsNonRoot"] is True
    assert spec["securityContext"]["runAsUser"] == versions.VLLM_USER_ID != 0
    assert spec["securityContext"]["runAsGroup"] == versions.VLLM_GROUP_ID
    assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    for volume_spec in spec["volumes"]:
        assert set(volume_spec) - {"name"} <= {"emptyDir", "persistentVolumeClaim", "secret"}, volume_spec
    assert not any(spec.get(key) for key in ("hostNetwork", "hostPID", "hostIPC"))
    for container in spec["containers"]:
        security = container["securityContext"]
        assert security["allowPrivilegeEscalation"] is False
        assert security["capabilities"] == {"drop": ["ALL"]}
        assert security.get("privileged") is not True
        assert "ports" not in container or all("hostPort" not in port for port in container["ports"])


def test_server_has_its_own_service_account_without_a_token(dev_run):
    spec = server_pod(dev_run)["spec"]
    [account] = [r.inputs for r in dev_run.of_type(SERVICE_ACCOUNT) if r.inputs["metadata"]["namespace"] == "vllm"]
    assert spec["serviceAccountName"] == account["metadata"]["name"]
    assert account["automountServiceAccountToken"] is False
    assert spec["automountServiceAccountToken"] is False
    assert "runtimeClassName" not in spec


def test_token_never_appears_in_plain_text_in_any_registered_input(stack):
    run = stack({"hfToken": TOKEN}, secret_keys=("hfToken",))
    for resource in run.resources:
        assert not any(TOKEN in text for text in plain_strings(resource.inputs)), resource.name
    secret = one(run, SECRET)
    assert secret["type"] == "Opaque"
    assert isinstance(secret["stringData"], Secret)
    assert secret["stringData"].value == {"token": TOKEN}
    assert all(TOKEN not in str(value) for value in run.outputs.values())


def test_token_is_a_read_only_file_named_by_hf_token_path(stack):
    run = stack({"hfToken": TOKEN}, secret_keys=("hfToken",))
    secret = one(run, SECRET)
    token_volume = volume(run, "hf-token")["secret"]
    assert token_volume["secretName"] == secret["metadata"]["name"]
    assert token_volume["defaultMode"] == 0o400
    [mount] = [m for m in server_container(run)["volumeMounts"] if m["name"] == "hf-token"]
    assert mount["readOnly"] is True
    [item] = token_volume["items"]
    assert env(run)["HF_TOKEN_PATH"] == f"{mount['mountPath']}/{item['path']}"
    for variable in server_container(run)["env"]:
        assert "valueFrom" not in variable and isinstance(variable["value"], str), variable["name"]
        assert variable["name"] not in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")


def test_no_secret_without_a_token(dev_run):
    assert dev_run.of_type(SECRET) == []
    assert "HF_TOKEN_PATH" not in env(dev_run)


# Service, budget, network policy.


def test_service_exposes_port_8000_named_http_to_the_server_pods(dev_run):
    service = one(dev_run, SERVICE)
    assert service["spec"]["type"] == "ClusterIP"
    assert service["spec"]["ports"] == [{"name": "http", "port": 8000, "targetPort": "http", "protocol": "TCP"}]
    assert service["spec"]["selector"] == server_selector(dev_run)


def test_disruption_budget_lets_a_drain_evict_the_only_replica(dev_run):
    budget = one(dev_run, POD_DISRUPTION_BUDGET)
    assert budget["spec"]["maxUnavailable"] == 1
    assert "minAvailable" not in budget["spec"]
    assert budget["spec"]["selector"]["matchLabels"] == server_selector(dev_run)


def test_network_policy_admits_only_the_server_and_monitoring_namespaces_on_port_8000_by_default(dev_run):
    policy = one(dev_run, NETWORK_POLICY)
    spec = policy["spec"]
    assert spec["podSelector"]["matchLabels"] == server_selector(dev_run)
    assert spec["policyTypes"] == ["Ingress", "Egress"]
    assert spec["ingress"] == [
        {
            "from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "vllm"}}}],
            "ports": [{"protocol": "TCP", "port": 8000}],
        },
        {
            "from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}}}],
            "ports": [{"protocol": "TCP", "port": 8000}],
        },
    ]


def test_network_policy_admits_the_allowed_client_pods_of_each_allowed_namespace(stack):
    run = stack(
        {"vllm": {"allowedClientNamespaces": ["apps", "gateway"], "allowedClientPodLabels": {"role": "llm-client"}}}
    )
    rule = one(run, NETWORK_POLICY)["spec"]["ingress"][0]
    assert rule["from"] == [
        {
            "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": namespace}},
            "podSelector": {"matchLabels": {"role": "llm-client"}},
        }
        for namespace in ("apps", "gateway")
    ]


def test_network_policy_lets_the_server_reach_only_dns_and_https(dev_run):
    egress = one(dev_run, NETWORK_POLICY)["spec"]["egress"]
    ports = sorted((port["protocol"], port["port"]) for rule in egress for port in rule["ports"])
    assert ports == [("TCP", 53), ("TCP", 443), ("UDP", 53)]
    [dns] = [rule for rule in egress if any(port["port"] == 53 for port in rule["ports"])]
    assert dns["to"] == [
        {
            "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}},
            "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}},
        }
    ]


def test_every_server_object_is_named_and_carries_the_standard_labels(stack):
    run = stack({"hfToken": TOKEN, "vllm": {"modelCache": {"type": "pvc"}}}, secret_keys=("hfToken",))
    [component] = run.of_type("eks-gpu-inference:index:VllmServer")
    server_objects = [r for r in run.resources if r.parent == component.urn]
    assert sorted(r.type.split(":")[-1] for r in server_objects) == [
        "Deployment",
        "Namespace",
        "NetworkPolicy",
        "PersistentVolumeClaim",
        "PodDisruptionBudget",
        "Secret",
        "Service",
        "ServiceAccount",
    ]
    for resource in server_objects:
        metadata = resource.inputs["metadata"]
        assert metadata["name"], resource.name
        assert set(metadata["labels"]) >= STANDARD_LABEL_KEYS, resource.name
        assert metadata["labels"]["app.kubernetes.io/name"] == "vllm"
        assert metadata["labels"]["app.kubernetes.io/version"] == versions.VLLM_VERSION


def test_outputs_name_the_service_the_model_and_a_ready_command(dev_run):
    outputs = dev_run.outputs
    service = one(dev_run, SERVICE)["metadata"]["name"]
    assert outputs["vllmNamespace"] == "vllm"
    assert outputs["vllmService"] == f"{service}.vllm.svc.cluster.local"
    assert outputs["vllmPort"] == 8000
    assert outputs["vllmModel"] == "Qwen/Qwen2.5-7B-Instruct"
    assert outputs["vllmTry"].startswith(f"kubectl -n vllm port-forward svc/{service} 8000:8000")
    assert '"model": "Qwen/Qwen2.5-7B-Instruct"' in outputs["vllmTry"]


# Invalid settings.


@pytest.mark.parametrize(
    "vllm, key",
    [
        ({"tensorParallelSize": 2}, "vllm.tensorParallelSize"),
        ({"image": "vllm/vllm-openai:latest"}, "vllm.image"),
        ({"gpuMemoryUtilization": 1.5}, "vllm.gpuMemoryUtilization"),
        ({"maxModelLenght": 4096}, "vllm.maxModelLenght"),
    ],
    ids=["tensor-parallel-above-gpus", "latest-image", "utilization-above-1", "unknown-key"],
)
def test_invalid_vllm_settings_fail_before_any_resource_naming_the_key(stack, monkeypatch, vllm, key):
    error, run = run_keeping_registrations(stack, monkeypatch, {"vllm": vllm})
    assert key in [problem.key for problem in error.problems]
    assert key in str(error)
    assert run.resources == []
