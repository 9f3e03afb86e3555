"""The KEDA objects of a vLLM server, as pure functions of its settings: the ScaledObject that scales its
Deployment on the server's own queue, and the TriggerAuthentication that signs its queries.

KEDA's ScaledObject (keda.sh/v1alpha1 at the pinned release; its schema is committed in
stackcheck/plan/crds/) makes a HorizontalPodAutoscaler for the Deployment and feeds it the trigger's value.
The Prometheus trigger's metadata (`serverAddress`, `query`, `threshold`) are the fields of kedacore/keda
v2.20.2 `pkg/scalers/prometheus_scaler.go` (`prometheusMetadata`); its metric type defaults to
`AverageValue`, so the HorizontalPodAutoscaler aims at `threshold` requests waiting per replica.

An Amazon Managed Service for Prometheus workspace is asked with SigV4: at v2.20.2 the Prometheus scaler has no
`authModes: sigv4` (pkg/scalers/authentication/authentication_types.go lists apiKey, basic, tls, bearer, custom
and oauth); it signs for service `aps` when its TriggerAuthentication has `podIdentity.provider: aws`
(prometheus_scaler.go `NewSigV4RoundTripper`, pkg/scalers/aws/aws_sigv4.go) in the trigger's `awsRegion`. With no
`roleArn` and `identityOwner` left at `keda`, the credentials are the KEDA operator's own from the default chain
(pkg/scalers/aws/aws_common.go `GetAwsAuthorization`, aws_config_cache.go `GetCredentials`), so the EKS Pod
Identity association is on the operator's ServiceAccount (components/autoscaling/keda.py).
"""

from __future__ import annotations

from ..settings import VllmSettings
from .manifests import SERVER_NAME, server_labels

# vLLM's gauge of requests waiting to be scheduled (dashboards/metrics/vllm-v0.32.0.txt; tests check the name
# is in that list); vLLM labels its series with the served model name (`model_name`), and the scrape with the pod's
# namespace and name (`server_series`).
QUEUE_METRIC = "vllm:num_requests_waiting"
# vLLM's gauge of the KV cache in use, 1 is full (the same list).
KV_CACHE_METRIC = "vllm:kv_cache_usage_perc"
QUERY_METRICS = (QUEUE_METRIC, KV_CACHE_METRIC)
"""Every vLLM metric the ScaledObjects query."""


def default_prometheus_url(monitoring_namespace: str) -> str:
    """The Service the Prometheus operator creates for every Prometheus in its namespace, `prometheus-operated`
    on port 9090 (prometheus-operator, `governingServiceName = "prometheus-operated"`, port `web`)."""
    return f"http://prometheus-operated.{monitoring_namespace}.svc:9090"


def _quoted(value: str) -> str:
    # A PromQL string literal: backslash and double quote escaped (Prometheus docs, "String literals").
    return value.replace("\\", "\\\\").replace('"', '\\"')


# A Deployment's pods are named `<Deployment>-<pod-template-hash>-<5 random characters>`, both parts lowercase
# letters and digits: the ReplicaSet is `d.Name + "-" + podTemplateSpecHash` (kubernetes pkg/controller/deployment/
# sync.go, the hash `rand.SafeEncodeString`), its pods get `GenerateName: <ReplicaSet>-` (pkg/controller/
# controller_utils.go), and the API server appends "a random suffix of five alphanumerics" (k8s.io/apiserver
# pkg/storage/names/generate.go, `utilrand.String`, of SafeEncodeString's alphabet). PromQL anchors a regex at both
# ends, so the pattern matches only the Deployment's own pods: not those of `<Deployment>-v2` in the same namespace,
# whose names have a part more.
POD_SUFFIX_PATTERN = "-[a-z0-9]+-[a-z0-9]+"


def server_series(namespace: str, server_name: str, model_name: str) -> str:
    """The label matchers of one server's series: its namespace and its own pods, and the name it serves.

    The served name alone is not the server's: two servers may serve one name (the README's migration recipe runs
    the new beside the old), and each would then scale on the other's queue (the same trap as kedacore/keda#5176,
    and kserve/kserve#4542 and #4593, which scope their queries by namespace and pod). `namespace` and `pod` are
    the labels both scrape forms give every target: the Prometheus operator's ServiceMonitor (prometheus-operator
    v0.93.0 pkg/prometheus/promcfg.go, `__meta_kubernetes_namespace` to `namespace`, `__meta_kubernetes_pod_name` to
    `pod`) and the annotation-driven `kubernetes-pods` job of the prometheus-community chart
    (charts/prometheus/values.yaml at cf408a29, the same two relabelings)."""
    return (
        f'namespace="{_quoted(namespace)}", pod=~"{_quoted(server_name)}{POD_SUFFIX_PATTERN}", '
        f'model_name="{_quoted(model_name)}"'
    )


def queue_query(namespace: str, server_name: str, model_name: str) -> str:
    """The PromQL KEDA asks: the requests waiting at one server (`server_series`), summed over its replicas."""
    return f"sum({QUEUE_METRIC}{{{server_series(namespace, server_name, model_name)}}})"


def kv_cache_query(namespace: str, server_name: str, model_name: str) -> str:
    """The PromQL of the KV-cache trigger: one server's KV-cache usage averaged over its replicas."""
    return f"avg({KV_CACHE_METRIC}{{{server_series(namespace, server_name, model_name)}}})"


def trigger_authentication(instance: str, settings: VllmSettings, server_name: str = SERVER_NAME) -> dict:
    """The TriggerAuthentication the server's triggers name to sign their queries with the KEDA operator's AWS
    identity (module docstring)."""
    return {
        "apiVersion": "keda.sh/v1alpha1",
        "kind": "TriggerAuthentication",
        "metadata": {
            "name": f"{server_name}-aws",
            "namespace": settings.namespace,
            "labels": server_labels(instance, settings),
        },
        "spec": {"podIdentity": {"provider": "aws"}},
    }


def scaled_object(
    instance: str,
    settings: VllmSettings,
    prometheus_url: str,
    server_name: str = SERVER_NAME,
    amp_region: str | None = None,
    queue_trigger: dict | None = None,
) -> dict:
    """The ScaledObject that keeps the server's Deployment between `minReplicas` and `maxReplicas`, aiming at
    `targetWaitingPerReplica` queued requests per replica (and at `targetKvCacheUsage` when given), and removes a
    replica only after the queue has stayed low for `scaleDownStabilizationSeconds`. With `amp_region`, the
    triggers sign their queries for that region with `trigger_authentication`. A server fed from an SQS queue
    scales on `queue_trigger` (components/vllm/queue/manifests.py `sqs_trigger`) too, or on it alone without
    `autoscaling.enabled`; at `minReplicas` 0, KEDA takes it from one replica to none once the triggers have been
    inactive for the same window (`cooldownPeriod`, which governs that last step: keda.sh/docs/2.20/reference/
    scaledobject-spec/)."""
    scaling = settings.autoscaling
    signed: dict = {}
    if amp_region is not None:
        signed = {
            "authenticationRef": {"name": trigger_authentication(instance, settings, server_name)["metadata"]["name"]}
        }

    def trigger(query: str, threshold: str, **extra: object) -> dict:
        metadata = {"serverAddress": prometheus_url, "query": query, "threshold": threshold}
        if amp_region is not None:
            metadata["awsRegion"] = amp_region
        return {"type": "prometheus", **extra, "metadata": metadata, **signed}

    # The CRD types trigger metadata as strings (map[string]string).
    series = (settings.namespace, server_name, settings.model_name)
    triggers = []
    if scaling.enabled:
        triggers.append(trigger(queue_query(*series), str(scaling.target_waiting_per_replica)))
    if scaling.enabled and scaling.target_kv_cache_usage is not None:
        # A usage is a fraction of each replica's cache, already averaged by the query: `Value`, so the
        # HorizontalPodAutoscaler scales by usage / target rather than dividing the average by the replicas.
        triggers.append(trigger(kv_cache_query(*series), str(scaling.target_kv_cache_usage), metricType="Value"))
    if queue_trigger is not None:
        triggers.append(queue_trigger)
    spec: dict = {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": server_name},
        "minReplicaCount": scaling.min_replicas,
        "maxReplicaCount": scaling.max_replicas,
        "pollingInterval": scaling.polling_interval_seconds,
        "advanced": {
            "horizontalPodAutoscalerConfig": {
                "behavior": {"scaleDown": {"stabilizationWindowSeconds": scaling.scale_down_stabilization_seconds}}
            }
        },
        "triggers": triggers,
    }
    if scaling.min_replicas == 0:
        spec["cooldownPeriod"] = scaling.scale_down_stabilization_seconds
    return {
        "apiVersion": "keda.sh/v1alpha1",
        "kind": "ScaledObject",
        "metadata": {"name": server_name, "namespace": settings.namespace, "labels": server_labels(instance, settings)},
        "spec": spec,
    }
