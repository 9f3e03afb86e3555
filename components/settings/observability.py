"""Settings of GPU and model-server metrics (`observability`): components/dcgm_exporter.py and
components/monitoring.py."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from .fields import Labels, NamespaceName, PrometheusDuration, rule
from .section import SectionModel


class DcgmExporterSettings(SectionModel):
    """NVIDIA's DCGM exporter on the GPU nodes (`observability.dcgmExporter`)."""

    enabled: bool = True
    """Deploy the exporter DaemonSet on every GPU node."""


def _is_http_url(value: str) -> bool:
    parts = urlsplit(value)
    return parts.scheme in ("http", "https") and bool(parts.hostname)


class PrometheusSettings(SectionModel):
    """The Prometheus that KEDA asks for vLLM's queue (`observability.prometheus`)."""

    url: (
        Annotated[str, rule(_is_http_url, "an http:// or https:// URL such as http://prometheus.monitoring:9090")]
        | None
    ) = None
    """URL of the Prometheus HTTP API that scrapes the vLLM servers. Default: the Service the Prometheus operator
    creates for its Prometheus in `monitoringNamespace`, `http://prometheus-operated.<monitoringNamespace>.svc:9090`."""


class ObservabilitySettings(SectionModel):
    """GPU and model-server metrics, scrape configuration, dashboard and alerts (`observability`)."""

    dcgm_exporter: DcgmExporterSettings = DcgmExporterSettings()
    """NVIDIA's DCGM exporter."""
    monitoring_namespace: NamespaceName = "monitoring"
    """Namespace of the Prometheus (or agent) that scrapes the metrics, a DNS label: the only one the exporter's
    and the vLLM server's NetworkPolicies admit scrapes from; the ServiceMonitors and the PrometheusRule go
    there."""
    prometheus_operator: bool = False
    """The cluster runs the Prometheus operator (its CRDs exist): create ServiceMonitor and PrometheusRule
    objects. Otherwise the pods carry `prometheus.io/scrape` annotations."""
    scrape_interval: PrometheusDuration = "30s"
    """How often the ServiceMonitors scrape, a non-zero Prometheus duration such as `15s` or `1m`."""
    monitor_labels: Labels = {}
    """Labels on the ServiceMonitors and the PrometheusRule, for a Prometheus whose selectors require them
    (kube-prometheus-stack selects `release: <its release name>` unless its `*SelectorNilUsesHelmValues` are
    false; prometheus-community/helm-charts#1631)."""
    prometheus: PrometheusSettings = PrometheusSettings()
    """The Prometheus that KEDA asks for vLLM's queue when a model autoscales."""
