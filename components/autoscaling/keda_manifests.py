"""KEDA's own objects as pure functions: its namespace, the Kubernetes versions its release supports, and the
query-only IAM policy of its operator for an Amazon Managed Service for Prometheus workspace. The ScaledObject of a
vLLM server is the server's (components/vllm/scaling_manifests.py).
"""

from __future__ import annotations

from ..facts import versions
from ..kube.labels import standard_labels
from ..vllm.manifests import POD_SECURITY_LABELS

NAMESPACE = "keda"
# The KEDA operator's ServiceAccount in its chart (kedacore/charts v2.20.2 keda/values.yaml,
# `serviceAccount.operator.name`), which the Pod Identity association names.
OPERATOR_SERVICE_ACCOUNT = "keda-operator"
# The HorizontalPodAutoscaler KEDA makes for a ScaledObject is `keda-hpa-<ScaledObject name>` unless
# `advanced.horizontalPodAutoscalerConfig.name` is set (kedacore/keda v2.20.2 controllers/keda/hpa.go,
# `getDefaultHpaName`); the ScaledObjects here set no name. kube-state-metrics labels its series of it
# `horizontalpodautoscaler` (the dashboard's desired replicas).
HPA_NAME_PREFIX = "keda-hpa-"
# Actions of the AWS managed policy AmazonPrometheusQueryAccess (docs.aws.amazon.com/aws-managed-policy/latest/
# reference/AmazonPrometheusQueryAccess.html, read 2026-12-02); each takes the `workspace` resource type (Service
# Authorization Reference, list_amazonmanagedserviceforprometheus.html), so the policy names the one workspace.
AMP_QUERY_ACTIONS = ("aps:GetLabels", "aps:GetMetricMetadata", "aps:GetSeries", "aps:QueryMetrics")


def amp_query_url(region: str, workspace_id: str, dns_suffix: str = "amazonaws.com") -> str:
    """The workspace's Prometheus-compatible query endpoint without `/api/v1` (botocore amp 2020-08-01,
    `WorkspaceDescription.prometheusEndpoint`: `https://aps-workspaces.<region>.amazonaws.com/workspaces/<id>/api/v1/`),
    as KEDA appends `/api/v1/query` to `serverAddress` (prometheus_scaler.go at v2.20.2)."""
    return f"https://aps-workspaces.{region}.{dns_suffix}/workspaces/{workspace_id}"


def amp_query_policy(workspace_arn: str) -> dict:
    """The IAM policy of KEDA's role: query the one workspace, nothing else (no writes, no management)."""
    return {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": list(AMP_QUERY_ACTIONS), "Resource": workspace_arn}],
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
