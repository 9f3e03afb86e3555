"""The vLLM OpenAI-compatible server on the GPU nodes, locked down to the restricted Pod Security Standard.

Every object is built by a pure function of the settings, the placement contract and the GPU
instance type, so the offline plan and the placement tools can render the same manifests; the
component only hands them to Pulumi.
"""

from __future__ import annotations

import json
import math
import shlex
from dataclasses import dataclass, field
from fractions import Fraction

import pulumi
import pulumi_kubernetes as k8s

from components import vllm_api_key
from components.labels import (
    DNS_EGRESS,
    HTTPS_EGRESS,
    checkov_annotations,
    in_namespace,
    label_value,
    selector_labels,
    standard_labels,
)
from components.labels import network_policy as network_policy_manifest
from components.settings import VllmSettings
from facts import gpu_catalog, versions
from facts.contract import NVIDIA_GPU_RESOURCE, PlacementContract
from facts.eks_node import allocatable_memory_mebibytes
from facts.identity import PROJECT

APP = "vllm"
COMPONENT = "server"
# Not `vllm`: Kubernetes would inject service variables such as VLLM_PORT, which vLLM reads as its own
# settings (vLLM docs, "Environment Variables"). Service links are also off in the pod spec.
SERVER_NAME = "vllm-server"
PORT = 8000
PORT_NAME = "http"
HEALTH_PATH = "/health"

MODEL_CACHE_PATH = "/models"
TMP_PATH = "/tmp"
TMP_SIZE = "10Gi"
TOKEN_DIR = "/var/run/secrets/huggingface"
TOKEN_KEY = "token"
TOKEN_FILE_MODE = 0o400

STARTUP_PROBE_PERIOD_SECONDS = 10
# Time between the pod leaving the Service endpoints and SIGTERM, so no new request arrives during shutdown.
PRE_STOP_SLEEP_SECONDS = 10
# Time after vLLM's shutdown timeout for the engine processes to exit before the kubelet kills them.
SHUTDOWN_MARGIN_SECONDS = 15
# Before the startup budget starts: a GPU node scaling up from zero and pulling the ~10 GB image.
SCHEDULING_AND_PULL_SECONDS = 900

# Sizing (see `server_resources`).
RESERVED_VCPUS = 1
MEMORY_SHARE = Fraction(4, 5)
# Part of the instance memory the kernel keeps out of the node's capacity (page tables, crash kernel),
# which the EKS allocatable model (facts/eks_node.py) counts as the node's.
KERNEL_MEMORY_SHARE = Fraction(5, 100)
# What the node's DaemonSets request besides the server: aws-node, kube-proxy, the device plugin,
# the node monitoring agent, a CSI node plugin.
DAEMONSET_MEMORY_MIB = 512

POD_SECURITY_LABELS = {
    f"pod-security.kubernetes.io/{mode}{suffix}": value
    for mode in ("enforce", "audit", "warn")
    for suffix, value in (("", "restricted"), ("-version", "latest"))
}
CHECKOV_SKIPS = {
    "CKV_K8S_40": f"the image's vllm user is UID {versions.VLLM_USER_ID}; a different UID breaks its home and caches",
    "CKV_K8S_43": "the image is pinned to a release tag in the stack config (vllm.image), validated by settings",
    "CKV_K8S_15": "a pinned release tag of a ~10 GB image need not be pulled again; an outage must not block restarts",
}


@dataclass(frozen=True)
class VllmServerArgs:
    """Inputs of `VllmServer`."""

    settings: VllmSettings
    """The `vllm` section of the stack config. Required."""
    contract: PlacementContract
    """The GPU placement contract: nodeSelector, tolerations and node affinity come from it. Required."""
    instance: gpu_catalog.InstanceType
    """The smallest GPU instance type of the node group; CPU and memory are sized to fit it. Required."""
    require_node_affinity: bool = False
    """Add the contract's required node-affinity term (`gpuPlacement.requireNodeAffinity`). Default false."""
    hf_token: pulumi.Input[str] | None = None
    """Hugging Face token, mounted as a file from a Secret; kept secret. Default none (no Secret)."""
    api_key: pulumi.Input[str] | None = None
    """Key clients must send, given to vLLM as `VLLM_API_KEY` from a Secret; kept secret. Default none (no key)."""
    metrics_namespace: str | None = None
    """Namespace of the Prometheus scraping `/metrics`: the NetworkPolicy admits it on port 8000. Default none."""
    pod_annotations: dict[str, str] = field(default_factory=dict)
    """Annotations of the server pods, such as `prometheus.io/scrape`. Default none."""


class VllmServer(pulumi.ComponentResource):
    """vLLM serving one model on the GPU nodes, behind a ClusterIP Service and a NetworkPolicy."""

    namespace: pulumi.Output[str]
    service_name: pulumi.Output[str]
    service_dns_name: pulumi.Output[str]
    service_port: pulumi.Output[int]
    model: pulumi.Output[str]
    try_command: pulumi.Output[str]

    def __init__(self, name: str, args: VllmServerArgs, opts: pulumi.ResourceOptions | None = None):
        super().__init__(f"{PROJECT}:index:VllmServer", name, None, opts)
        settings = args.settings
        has_token = args.hf_token is not None
        has_api_key = args.api_key is not None

        ns_manifest = namespace(name, settings)
        ns = k8s.core.v1.Namespace(
            f"{name}-ns", metadata=ns_manifest["metadata"], opts=pulumi.ResourceOptions(parent=self)
        )
        in_namespace = pulumi.ResourceOptions(parent=self, depends_on=[ns])

        account = service_account(name, settings)
        account_resource = k8s.core.v1.ServiceAccount(
            f"{name}-sa",
            metadata=account["metadata"],
            automount_service_account_token=account["automountServiceAccountToken"],
            opts=in_namespace,
        )
        pod_needs = [ns, account_resource]
        if has_token:
            secret = token_secret(name, settings)
            pod_needs.append(
                k8s.core.v1.Secret(
                    f"{name}-hf-token",
                    metadata=secret["metadata"],
                    type=secret["type"],
                    string_data={TOKEN_KEY: pulumi.Output.secret(args.hf_token)},
                    opts=in_namespace,
                )
            )
        if has_api_key:
            secret = api_key_secret(name, settings)
            pod_needs.append(
                k8s.core.v1.Secret(
                    f"{name}-api-key",
                    metadata=secret["metadata"],
                    type=secret["type"],
                    string_data={vllm_api_key.SECRET_DATA_KEY: pulumi.Output.secret(args.api_key)},
                    opts=in_namespace,
                )
            )
        if settings.model_cache.type == "pvc":
            claim = model_cache_claim(name, settings)
            pod_needs.append(
                k8s.core.v1.PersistentVolumeClaim(
                    f"{name}-model-cache", metadata=claim["metadata"], spec=claim["spec"], opts=in_namespace
                )
            )

        manifest = deployment(
            name,
            settings,
            args.contract,
            args.instance,
            require_node_affinity=args.require_node_affinity,
            has_token=has_token,
            has_api_key=has_api_key,
            pod_annotations=args.pod_annotations,
        )
        timeout = rollout_timeout(settings)
        k8s.apps.v1.Deployment(
            f"{name}-deployment",
            metadata=manifest["metadata"],
            spec=manifest["spec"],
            opts=pulumi.ResourceOptions(
                parent=self, depends_on=pod_needs, custom_timeouts=pulumi.CustomTimeouts(create=timeout, update=timeout)
            ),
        )
        svc_manifest = service(name, settings)
        svc = k8s.core.v1.Service(
            f"{name}-svc", metadata=svc_manifest["metadata"], spec=svc_manifest["spec"], opts=in_namespace
        )
        budget = disruption_budget(name, settings)
        k8s.policy.v1.PodDisruptionBudget(
            f"{name}-pdb", metadata=budget["metadata"], spec=budget["spec"], opts=in_namespace
        )
        policy = network_policy(name, settings, metrics_namespace=args.metrics_namespace)
        k8s.networking.v1.NetworkPolicy(
            f"{name}-netpol", metadata=policy["metadata"], spec=policy["spec"], opts=in_namespace
        )

        self.namespace = ns.metadata.apply(lambda metadata: metadata.name)
        self.service_name = svc.metadata.apply(lambda metadata: metadata.name)
        self.service_dns_name = pulumi.Output.all(self.service_name, self.namespace).apply(
            lambda parts: service_dns_name(parts[1], parts[0])
        )
        self.service_port = pulumi.Output.from_input(PORT)
        self.model = pulumi.Output.from_input(settings.model_name)
        self.try_command = pulumi.Output.all(self.namespace, self.service_name).apply(
            lambda parts: try_command(parts[0], parts[1], settings.model_name)
        )
        self.register_outputs(
            {
                "namespace": self.namespace,
                "service_name": self.service_name,
                "service_dns_name": self.service_dns_name,
                "service_port": self.service_port,
                "model": self.model,
                "try_command": self.try_command,
            }
        )


# Labels.


def image_version(image: str) -> str:
    """The version part of an image reference as a label value: the tag, or `sha256-<12 hex>` for a digest."""
    if "@sha256:" in image:
        return f"sha256-{image.rpartition('@sha256:')[2][:12]}"
    return label_value(image.rpartition(":")[2])


def server_labels(instance: str, settings: VllmSettings) -> dict[str, str]:
    """The standard labels of every object of the server."""
    return standard_labels(app=APP, instance=instance, component=COMPONENT, version=image_version(settings.image))


def _metadata(instance: str, settings: VllmSettings, name: str = SERVER_NAME, **extra) -> dict:
    return {"name": name, "namespace": settings.namespace, "labels": server_labels(instance, settings), **extra}


# The container.


def container_args(settings: VllmSettings) -> list[str]:
    """`vllm serve` arguments: the model first, then parallelism and memory from settings, the port, `extraArgs`.

    The image's entrypoint is `vllm serve` (docker/Dockerfile, `vllm-openai` stage), so these are its
    arguments. The model is the positional `model_tag`: vLLM 0.32 warns that `--model` "will be removed
    in a future version", and rejects `--served-model-name` when no positional model comes first
    (vllm/utils/argparse_utils.py, FlexibleArgumentParser.parse_args, at v0.32.0).
    """
    args = [
        settings.model,
        "--served-model-name",
        settings.model_name,
        "--tensor-parallel-size",
        str(settings.tensor_parallel_size),
        "--max-model-len",
        str(settings.max_model_len),
        "--gpu-memory-utilization",
        f"{settings.gpu_memory_utilization:g}",
        "--port",
        str(PORT),
        "--shutdown-timeout",
        str(settings.shutdown_timeout_seconds),
    ]
    return [*args, *settings.extra_args]


def probes(startup_timeout_seconds: int) -> dict[str, dict]:
    """Startup, readiness and liveness probes on `/health`.

    vLLM answers HTTP only once the weights are loaded (docs/traps.md#probes-during-load), so the startup probe allows
    `startup_timeout_seconds` (rounded up to whole periods) before liveness takes over.
    """
    check = {"httpGet": {"path": HEALTH_PATH, "port": PORT_NAME}}
    return {
        "startupProbe": {
            **check,
            "periodSeconds": STARTUP_PROBE_PERIOD_SECONDS,
            "timeoutSeconds": 5,
            "failureThreshold": math.ceil(startup_timeout_seconds / STARTUP_PROBE_PERIOD_SECONDS),
        },
        "readinessProbe": {**check, "periodSeconds": 10, "timeoutSeconds": 5, "failureThreshold": 3},
        "livenessProbe": {**check, "periodSeconds": 30, "timeoutSeconds": 10, "failureThreshold": 3},
    }


def shm_size(tensor_parallel_size: int) -> str:
    """Size of the memory-backed `/dev/shm`: 1Gi per GPU.

    The 64 MiB default breaks vLLM (docs/traps.md#dev-shm): its engine and workers exchange messages through shared
    memory and NCCL uses it between the tensor-parallel ranks, so the need grows with the GPU count.
    The tmpfs counts against the container's memory limit: at most a fifth of it on any catalog type.
    """
    return f"{tensor_parallel_size}Gi"


def server_resources(instance: gpu_catalog.InstanceType, tensor_parallel_size: int) -> dict:
    """CPU, memory and GPUs of one server pod: its GPUs' share of the instance, leaving the node its due.

    With share = tensor_parallel_size / GPUs per instance:
    - cpu = (vCPUs - 1) * share, rounded down to 100m: a vCPU stays with kube-reserved and the DaemonSets;
    - memory = share * min(80% of the instance memory, the EKS node's allocatable memory less the 5% of
      memory the kernel keeps from the node's capacity and 512Mi for the DaemonSets), in MiB;
    - `nvidia.com/gpu` = tensor_parallel_size, in limits only (extended resources request their limit).
    CPU and memory requests equal limits (Guaranteed QoS: the last pods evicted or OOM-killed), and every
    pod that fits on the GPUs (`GPUs // tensor_parallel_size`) fits the node beside its DaemonSets.
    """
    if not 1 <= tensor_parallel_size <= instance.gpus:
        raise ValueError(
            f"tensor parallel size {tensor_parallel_size} does not fit the {instance.gpus} GPU(s) "
            f"of {instance.name}; allowed: 1-{instance.gpus}"
        )
    share = Fraction(tensor_parallel_size, instance.gpus)
    cpu_millicores = math.floor((instance.vcpus - RESERVED_VCPUS) * 10 * share) * 100
    instance_mib = Fraction(str(instance.memory_gib)) * 1024
    allocatable_mib = allocatable_memory_mebibytes(instance.memory_gib, instance.max_pods)
    usable_mib = allocatable_mib - KERNEL_MEMORY_SHARE * instance_mib - DAEMONSET_MEMORY_MIB
    memory_mib = math.floor(share * min(MEMORY_SHARE * instance_mib, usable_mib))
    sized = {"cpu": f"{cpu_millicores}m", "memory": f"{memory_mib}Mi"}
    return {"requests": dict(sized), "limits": {**sized, NVIDIA_GPU_RESOURCE: str(tensor_parallel_size)}}


def environment(has_token: bool, has_api_key: bool = False) -> list[dict]:
    """Environment: caches on writable mounts, and the token's path (never the token) when there is one.

    The root filesystem is read-only, but vLLM, torch, Triton and Hugging Face write caches under
    $HOME (`~/.cache`, `~/.triton`, `~/.config/vllm`): HOME points at the `/tmp` emptyDir and
    HF_HOME at the model cache volume. USER spares getpass a passwd lookup.
    """
    env = [
        {"name": "HOME", "value": TMP_PATH},
        {"name": "USER", "value": "vllm"},
        {"name": "XDG_CACHE_HOME", "value": f"{TMP_PATH}/.cache"},
        {"name": "VLLM_CACHE_ROOT", "value": f"{TMP_PATH}/.cache/vllm"},
        {"name": "TRITON_CACHE_DIR", "value": f"{TMP_PATH}/.triton"},
        {"name": "HF_HOME", "value": MODEL_CACHE_PATH},
    ]
    if has_token:
        env.append({"name": "HF_TOKEN_PATH", "value": f"{TOKEN_DIR}/{TOKEN_KEY}"})
    if has_api_key:
        env.append(vllm_api_key.environment_variable(SERVER_NAME))
    return env


def volumes(settings: VllmSettings, has_token: bool) -> list[dict]:
    """Shared memory, the model cache (emptyDir or the claim), `/tmp`, and the token Secret when set."""
    cache = settings.model_cache
    result = [
        {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": shm_size(settings.tensor_parallel_size)}},
        {"name": "model-cache", "persistentVolumeClaim": {"claimName": model_cache_claim_name()}}
        if cache.type == "pvc"
        else {"name": "model-cache", "emptyDir": {"sizeLimit": cache.size}},
        {"name": "tmp", "emptyDir": {"sizeLimit": TMP_SIZE}},
    ]
    if has_token:
        result.append(
            {
                "name": "hf-token",
                "secret": {
                    "secretName": token_secret_name(),
                    "defaultMode": TOKEN_FILE_MODE,
                    "items": [{"key": TOKEN_KEY, "path": TOKEN_KEY}],
                },
            }
        )
    return result


def volume_mounts(has_token: bool) -> list[dict]:
    """Where each volume appears in the container."""
    mounts = [
        {"name": "dshm", "mountPath": "/dev/shm"},
        {"name": "model-cache", "mountPath": MODEL_CACHE_PATH},
        {"name": "tmp", "mountPath": TMP_PATH},
    ]
    if has_token:
        mounts.append({"name": "hf-token", "mountPath": TOKEN_DIR, "readOnly": True})
    return mounts


def termination_grace_period(settings: VllmSettings) -> int:
    """Seconds the kubelet waits before SIGKILL: the preStop pause, vLLM's shutdown timeout, a margin."""
    return PRE_STOP_SLEEP_SECONDS + settings.shutdown_timeout_seconds + SHUTDOWN_MARGIN_SECONDS


def container(
    settings: VllmSettings, instance: gpu_catalog.InstanceType, has_token: bool, has_api_key: bool = False
) -> dict:
    """The vLLM container: the image's own entrypoint, flags as args, non-root with a read-only root."""
    return {
        "name": APP,
        "image": settings.image,
        "imagePullPolicy": "IfNotPresent",
        "args": container_args(settings),
        "ports": [{"name": PORT_NAME, "containerPort": PORT, "protocol": "TCP"}],
        "env": environment(has_token, has_api_key),
        "resources": server_resources(instance, settings.tensor_parallel_size),
        **probes(settings.startup_timeout_seconds),
        # A `sleep` handler (beta and on by default since Kubernetes 1.30) needs no shell in the image.
        "lifecycle": {"preStop": {"sleep": {"seconds": PRE_STOP_SLEEP_SECONDS}}},
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "capabilities": {"drop": ["ALL"]},
            "privileged": False,
            "readOnlyRootFilesystem": True,
            "runAsNonRoot": True,
            "runAsUser": versions.VLLM_USER_ID,
            "runAsGroup": versions.VLLM_GROUP_ID,
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "volumeMounts": volume_mounts(has_token),
    }


def pod_spec(
    settings: VllmSettings,
    contract: PlacementContract,
    instance: gpu_catalog.InstanceType,
    *,
    require_node_affinity: bool = False,
    has_token: bool = False,
    has_api_key: bool = False,
) -> dict:
    """The server's pod spec: on the contract's GPU nodes, tolerating their taints, restricted-compliant.

    The restricted Pod Security Standard holds: the pod runs as non-root UID 2000, without privilege
    escalation, with every capability dropped and the RuntimeDefault seccomp profile, and its volumes
    are emptyDir, a PersistentVolumeClaim and a Secret (no hostPath). fsGroup is the image's group 0,
    so the claim and the token file are readable and writable by the server.
    """
    spec = {
        "serviceAccountName": SERVER_NAME,
        "automountServiceAccountToken": False,
        "enableServiceLinks": False,
        "nodeSelector": contract.node_selector(),
        "tolerations": contract.tolerations(),
        "terminationGracePeriodSeconds": termination_grace_period(settings),
        "securityContext": {
            "runAsNonRoot": True,
            "runAsUser": versions.VLLM_USER_ID,
            "runAsGroup": versions.VLLM_GROUP_ID,
            "fsGroup": versions.VLLM_GROUP_ID,
            # A claim full of weights is not walked on every start once its root has the right group.
            "fsGroupChangePolicy": "OnRootMismatch",
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "containers": [container(settings, instance, has_token, has_api_key)],
        "volumes": volumes(settings, has_token),
    }
    if require_node_affinity or settings.require_gpu_product:
        spec["affinity"] = {"nodeAffinity": contract.node_affinity(settings.require_gpu_product)}
    return spec


# The objects.


def namespace(instance: str, settings: VllmSettings) -> dict:
    """The server's Namespace, enforcing the restricted Pod Security Standard (and auditing, warning)."""
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {
            "name": settings.namespace,
            "labels": {**server_labels(instance, settings), **POD_SECURITY_LABELS},
        },
    }


def service_account(instance: str, settings: VllmSettings) -> dict:
    """The server's own ServiceAccount, without a token: vLLM never calls the Kubernetes API."""
    return {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": _metadata(instance, settings),
        "automountServiceAccountToken": False,
    }


def token_secret_name() -> str:
    """Name of the Secret holding the Hugging Face token."""
    return f"{SERVER_NAME}-hf-token"


def token_secret(instance: str, settings: VllmSettings) -> dict:
    """The Hugging Face token Secret without its data, which the component fills from the secret Output."""
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "type": "Opaque",
        "metadata": _metadata(instance, settings, token_secret_name()),
    }


def api_key_secret(instance: str, settings: VllmSettings) -> dict:
    """The API key Secret without its data, which the component fills from the secret Output."""
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "type": "Opaque",
        "metadata": _metadata(instance, settings, vllm_api_key.secret_name(SERVER_NAME)),
    }


def model_cache_claim_name() -> str:
    """Name of the model cache PersistentVolumeClaim."""
    return f"{SERVER_NAME}-model-cache"


def model_cache_claim(instance: str, settings: VllmSettings) -> dict:
    """The model cache claim (`modelCache.type: pvc`): ReadWriteOnce, `size`, `storageClass` when set."""
    cache = settings.model_cache
    spec = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": cache.size}}}
    if cache.storage_class:
        spec["storageClassName"] = cache.storage_class
    return {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": _metadata(instance, settings, model_cache_claim_name()),
        "spec": spec,
    }


def deployment(
    instance: str,
    settings: VllmSettings,
    contract: PlacementContract,
    gpu_instance: gpu_catalog.InstanceType,
    *,
    require_node_affinity: bool = False,
    has_token: bool = False,
    has_api_key: bool = False,
    pod_annotations: dict[str, str] | None = None,
) -> dict:
    """The server Deployment, replaced with `Recreate` so an update never needs a spare GPU (docs/traps.md#rolling-update-deadlock)."""
    labels = server_labels(instance, settings)
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": _metadata(instance, settings, annotations=checkov_annotations(CHECKOV_SKIPS)),
        "spec": {
            "replicas": settings.replicas,
            "selector": {"matchLabels": selector_labels(labels)},
            "strategy": {"type": "Recreate"},
            "revisionHistoryLimit": 3,
            "progressDeadlineSeconds": progress_deadline(settings),
            "template": {
                "metadata": {"labels": labels, **({"annotations": dict(pod_annotations)} if pod_annotations else {})},
                "spec": pod_spec(
                    settings,
                    contract,
                    gpu_instance,
                    require_node_affinity=require_node_affinity,
                    has_token=has_token,
                    has_api_key=has_api_key,
                ),
            },
        },
    }


def progress_deadline(settings: VllmSettings) -> int:
    """Seconds a rollout may take: waiting for a node and the image, then the whole startup budget."""
    return SCHEDULING_AND_PULL_SECONDS + settings.startup_timeout_seconds


def rollout_timeout(settings: VllmSettings) -> str:
    """How long Pulumi waits for the Deployment (10 minutes by default): the progress deadline and 5 minutes."""
    return f"{math.ceil((progress_deadline(settings) + 300) / 60)}m"


def service(instance: str, settings: VllmSettings) -> dict:
    """The ClusterIP Service on port 8000 (`http`), selecting the server pods by name and instance."""
    labels = server_labels(instance, settings)
    return {
        "apiVersion": "v1",
        "kind": "Service",
        # Pulumi would wait for ready endpoints, 10 minutes at most and forever with 0 replicas; the
        # Deployment's own wait already covers the pods becoming ready.
        "metadata": _metadata(instance, settings, annotations={"pulumi.com/skipAwait": "true"}),
        "spec": {
            "type": "ClusterIP",
            "selector": selector_labels(labels),
            "ports": [{"name": PORT_NAME, "port": PORT, "targetPort": PORT_NAME, "protocol": "TCP"}],
        },
    }


def disruption_budget(instance: str, settings: VllmSettings) -> dict:
    """At most one server pod down at a time from voluntary disruptions.

    `maxUnavailable: 1` rather than `minAvailable`: with one replica a node drain may still evict it
    (a budget equal to the replicas blocks managed node group updates, docs/traps.md#pdb-blocks-drain), with more it keeps
    the others serving. Unhealthy pods never hold a drain up. Kept at 0 replicas: it then selects
    nothing and costs nothing.
    """
    labels = server_labels(instance, settings)
    return {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": _metadata(instance, settings),
        "spec": {
            "maxUnavailable": 1,
            "selector": {"matchLabels": selector_labels(labels)},
            "unhealthyPodEvictionPolicy": "AlwaysAllow",
        },
    }


def network_policy(instance: str, settings: VllmSettings, metrics_namespace: str | None = None) -> dict:
    """Ingress on 8000 only from the allowed namespaces (and pods), and from `metrics_namespace` (the metrics
    scraper: /metrics is on the same port); egress only to DNS and HTTPS.

    Clients default to the server's own namespace. HTTPS goes anywhere: weights come from the
    Hugging Face Hub and its CDN, whose addresses are not fixed.
    """
    clients = []
    for client_namespace in settings.allowed_client_namespaces or [settings.namespace]:
        peer = in_namespace(client_namespace)
        if settings.allowed_client_pod_labels:
            peer["podSelector"] = {"matchLabels": dict(settings.allowed_client_pod_labels)}
        clients.append(peer)
    port = [{"protocol": "TCP", "port": PORT}]
    ingress = [{"from": clients, "ports": port}]
    if metrics_namespace:
        ingress.append({"from": [in_namespace(metrics_namespace)], "ports": port})
    return network_policy_manifest(
        _metadata(instance, settings),
        server_labels(instance, settings),
        ingress=ingress,
        egress=[DNS_EGRESS, HTTPS_EGRESS],
    )


# Outputs.


def service_dns_name(namespace_name: str, service_name: str) -> str:
    """The Service's cluster DNS name."""
    return f"{service_name}.{namespace_name}.svc.cluster.local"


def try_command(namespace_name: str, service_name: str, model: str) -> str:
    """A shell line that forwards the Service to localhost:8000 and sends one chat request."""
    body = json.dumps({"model": model, "messages": [{"role": "user", "content": "Hello"}]})
    return (
        f"kubectl -n {namespace_name} port-forward svc/{service_name} {PORT}:{PORT} & sleep 3; "
        f"curl http://localhost:{PORT}/v1/chat/completions -H 'Content-Type: application/json' "
        f"-d {shlex.quote(body)}"
    )
