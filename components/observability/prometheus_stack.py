"""kube-prometheus-stack, installed when `observability.prometheus.install` is true: the Prometheus operator, a
Prometheus, Alertmanager, kube-state-metrics, the node exporter and Grafana, from the official chart
(prometheus-community/helm-charts `kube-prometheus-stack`, pinned in facts/versions.py) in the monitoring namespace.

The values (`release_values`) are the chart's keys at the pinned version (stackcheck/plan/charts/ holds its
defaults, which the plan checks them against):
- the Prometheus selects every ServiceMonitor, PodMonitor and PrometheusRule, not only those labelled with the
  release: `*SelectorNilUsesHelmValues: false` with the selectors left `{}` ("If {}, select all", values.yaml at
  the tag), so the stack's own monitors and rules (components/observability/monitoring.py) need no `monitorLabels`;
- the control plane's controller manager, scheduler and etcd are not scraped: EKS runs them and does not expose them
  to the nodes, and the chart's rules would report them down for ever (prometheus-community/helm-charts#4106,
  aws/containers-roadmap#1298); nor is kube-proxy, which serves its metrics on 127.0.0.1:10249 unless configured
  otherwise (kube-proxy's `metricsBindAddress` default; on EKS aws/containers-roadmap#657,
  prometheus-community/helm-charts#977), and the stack's kube-proxy add-on sets no configuration, so
  `KubeProxyDown` would fire for ever too (and Auto Mode nodes run no kube-proxy pod);
- the node exporter, a DaemonSet that by default tolerates every NoSchedule taint (prometheus-node-exporter 4.56.1
  values.yaml `tolerations: [{effect: NoSchedule, operator: Exists}]`), tolerates none: the GPU taint keeps it off
  the GPU nodes, whose GPU metrics the DCGM exporter reports, and whose allocatable the placement model and the
  vLLM server's sizing share only among the DaemonSets the stack knows of. Every other pod of the chart has
  `tolerations: []` and `nodeSelector: {}` by default, so it runs on the system nodes.

The namespace allows privileged pods: the node exporter runs with `hostNetwork`, `hostPID` and the host's root
mounted (prometheus-node-exporter values.yaml), which the baseline Pod Security Standard refuses. A NetworkPolicy
admits to the Prometheus pods only the monitoring namespace (Grafana, Alertmanager, the operator) and KEDA's, which
queries it for the vLLM servers' queues. The operator names the Service of every Prometheus `prometheus-operated`
(prometheus-operator v0.93.0 pkg/prometheus/server/statefulset.go, `governingServiceName`), where KEDA asks.
"""

import pulumi
import pulumi_kubernetes as k8s

from ..args.validate import Validation, args_path, coerce
from ..facts import versions
from ..facts.identity import PROJECT
from ..kube.labels import in_namespace, standard_labels
from ..ordering import once_created
from ..settings import ObservabilitySettings
from .args import PrometheusStackArgs

RELEASE_NAME = "kube-prometheus-stack"
# The labels the operator gives a Prometheus's pods (prometheus-operator v0.93.0 pkg/prometheus/server/operator.go,
# `makeSelectorLabels`: `app.kubernetes.io/name: prometheus`; Alertmanager's pods are `alertmanager`).
PROMETHEUS_POD_LABELS = {"app.kubernetes.io/name": "prometheus"}
WEB_PORT = 9090
PRIVILEGED_LABELS = {f"pod-security.kubernetes.io/{mode}": "privileged" for mode in ("enforce", "audit", "warn")}


def release_values() -> dict:
    """The chart's values (module docstring)."""
    return {
        "prometheus": {
            "prometheusSpec": {
                "serviceMonitorSelectorNilUsesHelmValues": False,
                "podMonitorSelectorNilUsesHelmValues": False,
                "ruleSelectorNilUsesHelmValues": False,
            }
        },
        "kubeControllerManager": {"enabled": False},
        "kubeScheduler": {"enabled": False},
        "kubeEtcd": {"enabled": False},
        "kubeProxy": {"enabled": False},
        "prometheus-node-exporter": {"tolerations": []},
    }


def monitoring_namespace(instance: str, namespace: str) -> dict:
    """The monitoring namespace, allowing the node exporter's privileged pods."""
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {
            "name": namespace,
            "labels": {
                **standard_labels(
                    app=RELEASE_NAME,
                    instance=instance,
                    component="monitoring",
                    version=versions.KUBE_PROMETHEUS_STACK_VERSION,
                ),
                **PRIVILEGED_LABELS,
            },
        },
    }


def prometheus_network_policy(instance: str, namespace: str, keda_namespace: str | None) -> dict:
    """Ingress to the Prometheus pods from the monitoring namespace, and on the web port from `keda_namespace`;
    egress is left open, as Prometheus scrapes targets across the cluster and the API server."""
    ingress: list[dict] = [{"from": [in_namespace(namespace)]}]
    if keda_namespace:
        ingress.append({"from": [in_namespace(keda_namespace)], "ports": [{"protocol": "TCP", "port": WEB_PORT}]})
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {
            "name": "prometheus",
            "namespace": namespace,
            "labels": standard_labels(
                app=RELEASE_NAME,
                instance=instance,
                component="monitoring",
                version=versions.KUBE_PROMETHEUS_STACK_VERSION,
            ),
        },
        "spec": {
            "podSelector": {"matchLabels": dict(PROMETHEUS_POD_LABELS)},
            "policyTypes": ["Ingress"],
            "ingress": ingress,
        },
    }


def validated(name: str, args: PrometheusStackArgs) -> ObservabilitySettings:
    """The observability settings `args` give; raises `ConfigError` naming every bad argument."""
    where = args_path("PrometheusStack", name)
    validation = Validation(where, args)
    args = validation.known(args)
    settings = validation.section(ObservabilitySettings, args)
    validation.done()
    return settings


class PrometheusStack(pulumi.ComponentResource):
    """kube-prometheus-stack in the monitoring namespace, selecting every ServiceMonitor, PodMonitor and rule."""

    namespace: pulumi.Output[str]
    """The monitoring namespace, known once the chart (with the monitoring CRDs) is installed."""

    def __init__(self, name: str, args: PrometheusStackArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(PrometheusStackArgs, args, args_path("PrometheusStack", name))
        # Checked before anything is registered.
        settings = validated(name, args)
        super().__init__(f"{PROJECT}:index:PrometheusStack", name, None, opts)
        namespace = settings.monitoring_namespace
        manifest = monitoring_namespace(name, namespace)
        ns = k8s.core.v1.Namespace(
            f"{name}-ns", metadata=manifest["metadata"], opts=pulumi.ResourceOptions(parent=self)
        )
        release = k8s.helm.v3.Release(
            f"{name}-release",
            name=RELEASE_NAME,
            chart=versions.KUBE_PROMETHEUS_STACK_CHART,
            version=versions.KUBE_PROMETHEUS_STACK_VERSION,
            repository_opts=k8s.helm.v3.RepositoryOptsArgs(repo=versions.KUBE_PROMETHEUS_STACK_CHART_REPOSITORY),
            namespace=namespace,
            values=release_values(),
            opts=pulumi.ResourceOptions(parent=self, depends_on=[ns]),
        )
        policy = prometheus_network_policy(name, namespace, args.keda_namespace)
        k8s.networking.v1.NetworkPolicy(
            f"{name}-netpol",
            metadata=policy["metadata"],
            spec=policy["spec"],
            opts=pulumi.ResourceOptions(parent=self, depends_on=[ns]),
        )
        # Resolves once the release (with the ServiceMonitor and PrometheusRule CRDs) exists.
        self.namespace = once_created(namespace, [release])
        self.register_outputs({"namespace": self.namespace})
