"""KEDA's objects as pure functions of the settings: its chart's release values and namespace, and the
ScaledObject that scales a vLLM server's Deployment on the server's own queue.

KEDA's ScaledObject (keda.sh/v1alpha1 at the pinned release; its schema is committed in
stackcheck/plan/crds/) makes a HorizontalPodAutoscaler for the Deployment and feeds it the trigger's value.
The Prometheus trigger's metadata (`serverAddress`, `query`, `threshold`) are the fields of kedacore/keda
v2.20.2 `pkg/scalers/prometheus_scaler.go` (`prometheusMetadata`); its metric type defaults to
`AverageValue`, so the HorizontalPodAutoscaler aims at `threshold` requests waiting per replica.
"""

from __future__ import annotations

from .facts import versions
from .labels import standard_labels
from .settings import VllmSettings
from .vllm_manifests import POD_SECURITY_LABELS, SERVER_NAME, server_labels

NAMESPACE = "keda"
# vLLM's gauge of requests waiting to be scheduled (dashboards/metrics/vllm-v0.32.0.txt; tests check the name
# is in that list); vLLM labels its series with the served model name (`model_name`).
QUEUE_METRIC = "vllm:num_requests_waiting"
QUERY_METRICS = (QUEUE_METRIC,)
"""Every vLLM metric the ScaledObjects query."""


def default_prometheus_url(monitoring_namespace: str) -> str:
    """The Service the Prometheus operator creates for every Prometheus in its namespace, `prometheus-operated`
    on port 9090 (prometheus-operator, `governingServiceName = "prometheus-operated"`, port `web`)."""
    return f"http://prometheus-operated.{monitoring_namespace}.svc:9090"


def queue_query(model_name: str) -> str:
    """The PromQL KEDA asks: the requests waiting for `model_name`, summed over its replicas."""
    # A PromQL string literal: backslash and double quote escaped (Prometheus docs, "String literals").
    quoted = model_name.replace("\\", "\\\\").replace('"', '\\"')
    return f'sum({QUEUE_METRIC}{{model_name="{quoted}"}})'


def scaled_object(instance: str, settings: VllmSettings, prometheus_url: str, server_name: str = SERVER_NAME) -> dict:
    """The ScaledObject that keeps the server's Deployment between `minReplicas` and `maxReplicas`, aiming at
    `targetWaitingPerReplica` queued requests per replica, and removes a replica only after the queue has
    stayed low for `scaleDownStabilizationSeconds`."""
    scaling = settings.autoscaling
    return {
        "apiVersion": "keda.sh/v1alpha1",
        "kind": "ScaledObject",
        "metadata": {"name": server_name, "namespace": settings.namespace, "labels": server_labels(instance, settings)},
        "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": server_name},
            "minReplicaCount": scaling.min_replicas,
            "maxReplicaCount": scaling.max_replicas,
            "pollingInterval": scaling.polling_interval_seconds,
            "advanced": {
                "horizontalPodAutoscalerConfig": {
                    "behavior": {"scaleDown": {"stabilizationWindowSeconds": scaling.scale_down_stabilization_seconds}}
                }
            },
            "triggers": [
                {
                    "type": "prometheus",
                    "metadata": {
                        "serverAddress": prometheus_url,
                        "query": queue_query(settings.model_name),
                        # The CRD types trigger metadata as strings (map[string]string).
                        "threshold": str(scaling.target_waiting_per_replica),
                    },
                }
            ],
        },
    }


def keda_namespace(instance: str) -> dict:
    """KEDA's namespace, enforcing the restricted Pod Security Standard, which the chart's pods meet by default
    (kedacore/charts v2.20.2 keda/values.yaml: `securityContext` drops every capability, no privilege
    escalation, read-only root, RuntimeDefault seccomp; `podSecurityContext.runAsNonRoot`)."""
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {
            "name": NAMESPACE,
            "labels": {
                **standard_labels(
                    app="keda", instance=instance, component="autoscaling", version=versions.KEDA_VERSION
                ),
                **POD_SECURITY_LABELS,
            },
        },
    }


def compatibility_warning(kubernetes_version: str) -> str | None:
    """A warning when the cluster's Kubernetes minor is outside those KEDA's pinned release is tested on."""
    oldest, newest = versions.KEDA_TESTED_KUBERNETES

    def minor(version: str) -> tuple[int, ...]:
        return tuple(int(part) for part in version.split(".")[:2])

    if minor(oldest) <= minor(kubernetes_version) <= minor(newest):
        return None
    return (
        f"KEDA {versions.KEDA_VERSION} is tested on Kubernetes {oldest} to {newest} (keda.sh, Kubernetes "
        f"Compatibility), not on cluster.version {kubernetes_version}; its chart installs there "
        "(kubeVersion >=1.23), but pin a KEDA release tested on it once one is published"
    )
