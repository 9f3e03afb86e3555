"""The objects of the vLLM server as plain manifests: pure functions of the settings, the placement contract and
the GPU instance type.

The offline plan, the placement tools and the benchmarks render the same manifests the component hands to
Pulumi (components/vllm/server.py); this module imports neither Pulumi nor its Kubernetes SDK.
"""

from __future__ import annotations

import json
import math
import shlex

from ..facts import gpu_catalog, versions
from ..facts.contract import PlacementContract
from ..kube.labels import (
    DNS_EGRESS,
    HTTPS_EGRESS,
    checkov_annotations,
    in_namespace,
    label_value,
    selector_labels,
    standard_labels,
)
from ..kube.labels import network_policy as network_policy_manifest
from ..kube.security_context import locked_down
from ..settings import VllmSettings
from . import api_key as vllm_api_key
from .serve_args import PORT, container_args
from .sizing import server_resources, shm_size

APP = "vllm"
COMPONENT = "server"
# Not `vllm`: Kubernetes would inject service variables such as VLLM_PORT, which vLLM reads as its own
# settings (vLLM docs, "Environment Variables"). Service links are also off in the pod spec.
SERVER_NAME = "vllm-server"
PORT_NAME = "http"
HEALTH_PATH = "/health"

MODEL_CACHE_PATH = "/models"
TMP_PATH = "/tmp"
TMP_SIZE = "10Gi"
TOKEN_DIR = "/var/run/secrets/huggingface"
TOKEN_KEY = "token"
TOKEN_FILE_MODE = 0o400

# Xet, the Hub's storage, caches the chunks it downloads under $HF_HOME/xet, up to 10 GB unless its build turns the
# cache off (huggingface_hub docs, "Environment variables", HF_XET_CACHE; xet-runtime 1.5.2
# src/config/groups/chunk_cache.rs, `DEFAULT_CHUNK_CACHE_CAPACITY`, set by HF_XET_CHUNK_CACHE_SIZE_BYTES, read
# 2026-12-04). A download read once gains nothing from it, and it would fill a model cache sized to the weights.
XET_CHUNK_CACHE = {"name": "HF_XET_CHUNK_CACHE_SIZE_BYTES", "value": "0"}

STARTUP_PROBE_PERIOD_SECONDS = 10
# Time between the pod leaving the Service endpoints and SIGTERM, so no new request arrives during shutdown.
PRE_STOP_SLEEP_SECONDS = 10
# Time after vLLM's shutdown timeout for the engine processes to exit before the kubelet kills them.
SHUTDOWN_MARGIN_SECONDS = 15
# Before the startup budget starts: a GPU node scaling up from zero and pulling the ~10 GB image.
SCHEDULING_AND_PULL_SECONDS = 900

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

# Labels.


def image_user_security_context() -> dict:
    """A container of the vLLM image as its non-root `vllm` user (facts/versions.py), locked down: the server, its
    queue's consumer and the weights copy all run so."""
    return locked_down(
        runAsNonRoot=True,
        runAsUser=versions.VLLM_USER_ID,
        runAsGroup=versions.VLLM_GROUP_ID,
        seccompProfile={"type": "RuntimeDefault"},
    )


def image_version(image: str) -> str:
    """The version part of an image reference as a label value: the tag, or `sha256-<12 hex>` for a digest."""
    if "@sha256:" in image:
        return f"sha256-{image.rpartition('@sha256:')[2][:12]}"
    return label_value(image.rpartition(":")[2])


def server_labels(instance: str, settings: VllmSettings) -> dict[str, str]:
    """The standard labels of every object of the server."""
    return standard_labels(app=APP, instance=instance, component=COMPONENT, version=image_version(settings.image))


def server_selector(instance: str) -> dict[str, str]:
    """The labels that select the pods of the server of component `instance` (its Service's and monitors')."""
    return selector_labels(standard_labels(app=APP, instance=instance, component=COMPONENT, version=""))


def _metadata(instance: str, settings: VllmSettings, name: str = SERVER_NAME, **extra) -> dict:
    return {"name": name, "namespace": settings.namespace, "labels": server_labels(instance, settings), **extra}


# The container.


def probes(startup_timeout_seconds: int, period_seconds: int = STARTUP_PROBE_PERIOD_SECONDS) -> dict[str, dict]:
    """Startup, readiness and liveness probes on `/health`.

    vLLM answers HTTP only once the weights are loaded (docs/traps.md#probes-during-load), so the startup probe allows
    `startup_timeout_seconds` (rounded up to whole periods of `period_seconds`) before liveness takes over; the
    readiness probe runs at the same period, so a started server is routed to within two periods.
    """
    check = {"httpGet": {"path": HEALTH_PATH, "port": PORT_NAME}}
    return {
        "startupProbe": {
            **check,
            "periodSeconds": period_seconds,
            "timeoutSeconds": min(5, period_seconds),
            "failureThreshold": math.ceil(startup_timeout_seconds / period_seconds),
        },
        "readinessProbe": {
            **check,
            "periodSeconds": period_seconds,
            "timeoutSeconds": min(5, period_seconds),
            "failureThreshold": 3,
        },
        "livenessProbe": {**check, "periodSeconds": 30, "timeoutSeconds": 10, "failureThreshold": 3},
    }


def environment(has_token: bool, has_api_key: bool = False, server_name: str = SERVER_NAME) -> list[dict]:
    """Environment: caches on writable mounts, and the token's path (never the token) when there is one.

    The root filesystem is read-only, but vLLM, torch, Triton and Hugging Face write caches under
    $HOME (`~/.cache`, `~/.triton`, `~/.config/vllm`): HOME points at the `/tmp` emptyDir and
    HF_HOME at the model cache volume. USER spares getpass a passwd lookup. The Hub client's Xet chunk cache is
    off (`XET_CHUNK_CACHE`): the model cache then holds the weights and nothing beside them.
    """
    env = [
        {"name": "HOME", "value": TMP_PATH},
        {"name": "USER", "value": "vllm"},
        {"name": "XDG_CACHE_HOME", "value": f"{TMP_PATH}/.cache"},
        {"name": "VLLM_CACHE_ROOT", "value": f"{TMP_PATH}/.cache/vllm"},
        {"name": "TRITON_CACHE_DIR", "value": f"{TMP_PATH}/.triton"},
        {"name": "HF_HOME", "value": MODEL_CACHE_PATH},
        XET_CHUNK_CACHE,
    ]
    if has_token:
        env.append({"name": "HF_TOKEN_PATH", "value": f"{TOKEN_DIR}/{TOKEN_KEY}"})
    if has_api_key:
        env.append(vllm_api_key.environment_variable(server_name))
    return env


def volumes(settings: VllmSettings, has_token: bool, server_name: str = SERVER_NAME) -> list[dict]:
    """Shared memory, the model cache (emptyDir or the claim), `/tmp`, and the token Secret when set."""
    cache = settings.model_cache
    result = [
        {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": shm_size(settings.gpus_per_replica)}},
        {"name": "model-cache", "persistentVolumeClaim": {"claimName": model_cache_claim_name(server_name)}}
        if cache.type == "pvc"
        else {"name": "model-cache", "emptyDir": {"sizeLimit": settings.model_cache_size}},
        {"name": "tmp", "emptyDir": {"sizeLimit": TMP_SIZE}},
    ]
    if has_token:
        result.append(
            {
                "name": "hf-token",
                "secret": {
                    "secretName": token_secret_name(server_name),
                    "defaultMode": TOKEN_FILE_MODE,
                    "items": [{"key": TOKEN_KEY, "path": TOKEN_KEY}],
                },
            }
        )
    return result


def volume_mounts(has_token: bool) -> list[dict]:
    """Where each volume appears in the container."""
    mounts: list[dict] = [
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
    settings: VllmSettings,
    instance: gpu_catalog.InstanceType,
    has_token: bool,
    has_api_key: bool = False,
    server_name: str = SERVER_NAME,
) -> dict:
    """The vLLM container: the image's own entrypoint, flags as args, non-root with a read-only root."""
    resources = server_resources(
        instance,
        settings.gpus_per_replica,
        queue_consumer=settings.queue.enabled,
        cache_saver=settings.compile_cache.enabled,
    )
    return {
        "name": APP,
        "image": settings.image,
        "imagePullPolicy": "IfNotPresent",
        "args": container_args(
            settings, memory_limit=resources["limits"]["memory"], baseline_gbps=instance.network_baseline_gbps
        ),
        "ports": [{"name": PORT_NAME, "containerPort": PORT, "protocol": "TCP"}],
        "env": environment(has_token, has_api_key, server_name),
        "resources": resources,
        **probes(settings.startup_timeout_seconds, settings.probe_period_seconds),
        # A `sleep` handler (beta and on by default since Kubernetes 1.30) needs no shell in the image.
        "lifecycle": {"preStop": {"sleep": {"seconds": PRE_STOP_SLEEP_SECONDS}}},
        "securityContext": image_user_security_context(),
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
    server_name: str = SERVER_NAME,
    node_labels: dict[str, str] | None = None,
) -> dict:
    """The server's pod spec: on the contract's GPU nodes, tolerating their taints, restricted-compliant.

    The restricted Pod Security Standard holds: the pod runs as non-root UID 2000, without privilege
    escalation, with every capability dropped and the RuntimeDefault seccomp profile, and its volumes
    are emptyDir, a PersistentVolumeClaim and a Secret (no hostPath). fsGroup is the image's group 0,
    so the claim and the token file are readable and writable by the server.
    """
    spec = {
        "serviceAccountName": server_name,
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
        "containers": [container(settings, instance, has_token, has_api_key, server_name)],
        "volumes": volumes(settings, has_token, server_name),
    }
    if require_node_affinity or settings.require_gpu_product or node_labels:
        spec["affinity"] = {"nodeAffinity": contract.node_affinity(settings.require_gpu_product, node_labels)}
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


def service_account(instance: str, settings: VllmSettings, server_name: str = SERVER_NAME) -> dict:
    """The server's own ServiceAccount, without a token: vLLM never calls the Kubernetes API."""
    return {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": _metadata(instance, settings, server_name),
        "automountServiceAccountToken": False,
    }


def token_secret_name(server_name: str = SERVER_NAME) -> str:
    """Name of the Secret holding the Hugging Face token."""
    return f"{server_name}-hf-token"


def token_secret(instance: str, settings: VllmSettings, server_name: str = SERVER_NAME) -> dict:
    """The Hugging Face token Secret without its data, which the component fills from the secret Output."""
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "type": "Opaque",
        "metadata": _metadata(instance, settings, token_secret_name(server_name)),
    }


def api_key_secret(instance: str, settings: VllmSettings, server_name: str = SERVER_NAME) -> dict:
    """The API key Secret without its data, which the component fills from the secret Output."""
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "type": "Opaque",
        "metadata": _metadata(instance, settings, vllm_api_key.secret_name(server_name)),
    }


def model_cache_claim_name(server_name: str = SERVER_NAME) -> str:
    """Name of the model cache PersistentVolumeClaim."""
    return f"{server_name}-model-cache"


def model_cache_claim(instance: str, settings: VllmSettings, server_name: str = SERVER_NAME) -> dict:
    """The model cache claim (`modelCache.type: pvc`): ReadWriteOnce, `size`, `storageClass` when set."""
    cache = settings.model_cache
    spec = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": settings.model_cache_size}}}
    if cache.storage_class:
        spec["storageClassName"] = cache.storage_class
    return {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": _metadata(instance, settings, model_cache_claim_name(server_name)),
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
    server_name: str = SERVER_NAME,
    node_labels: dict[str, str] | None = None,
) -> dict:
    """The server Deployment, replaced with `Recreate` so an update never needs a spare GPU (docs/traps.md#rolling-update-deadlock)."""
    labels = server_labels(instance, settings)
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": _metadata(instance, settings, server_name, annotations=checkov_annotations(CHECKOV_SKIPS)),
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
                    server_name=server_name,
                    node_labels=node_labels,
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


def service(instance: str, settings: VllmSettings, server_name: str = SERVER_NAME) -> dict:
    """The ClusterIP Service on port 8000 (`http`), selecting the server pods by name and instance."""
    labels = server_labels(instance, settings)
    return {
        "apiVersion": "v1",
        "kind": "Service",
        # Pulumi would wait for ready endpoints, 10 minutes at most and forever with 0 replicas; the
        # Deployment's own wait already covers the pods becoming ready.
        "metadata": _metadata(instance, settings, server_name, annotations={"pulumi.com/skipAwait": "true"}),
        "spec": {
            "type": "ClusterIP",
            "selector": selector_labels(labels),
            "ports": [{"name": PORT_NAME, "port": PORT, "targetPort": PORT_NAME, "protocol": "TCP"}],
        },
    }


def disruption_budget(instance: str, settings: VllmSettings, server_name: str = SERVER_NAME) -> dict:
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
        "metadata": _metadata(instance, settings, server_name),
        "spec": {
            "maxUnavailable": 1,
            "selector": {"matchLabels": selector_labels(labels)},
            "unhealthyPodEvictionPolicy": "AlwaysAllow",
        },
    }


def network_policy(
    instance: str, settings: VllmSettings, metrics_namespace: str | None = None, server_name: str = SERVER_NAME
) -> dict:
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
        _metadata(instance, settings, server_name),
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
