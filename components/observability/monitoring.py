"""How the cluster's Prometheus finds the GPU and vLLM metrics, and the alert rules it evaluates.

Two forms, chosen by `observability.prometheusOperator`:
- with the Prometheus operator: `ServiceMonitor` objects for the DCGM exporter's and the vLLM server's
  Services, and a `PrometheusRule` with the alert rules of components/observability/alert_rules.py built for the vLLM server
  the args name (its model, replicas and `gpuMemoryUtilization`), all in the monitoring namespace (a Prometheus object reads monitors from its own namespace unless told otherwise;
  prometheus-operator API reference, `serviceMonitorNamespaceSelector`);
- without it: `prometheus.io/scrape`, `prometheus.io/port` and `prometheus.io/path` annotations on the
  pods, which the `kubernetes-pods` job of the Prometheus community Helm chart (prometheus-community/helm-charts,
  charts/prometheus values.yaml) and Prometheus's own Kubernetes example config scrape.
Either way the exporters' NetworkPolicies admit only the monitoring namespace.
"""

from pathlib import Path

import pulumi
import pulumi_kubernetes as k8s
import yaml

from ..args.validate import Validation, args_path, argument_problem, coerce
from ..facts.identity import PROJECT
from ..facts.kubernetes import KUBE_SYSTEM
from ..gpu_agents import dcgm_exporter
from ..kube.labels import selector_labels
from ..settings import ObservabilitySettings, VllmSettings
from ..vllm import manifests as vllm_manifests
from . import alert_rules
from .args import PrometheusMonitorsArgs, ScrapeTarget

MONITORING_API_VERSION = "monitoring.coreos.com/v1"
DASHBOARDS_DIR = Path(__file__).resolve().parent / "dashboards"
ALERT_RULES_FILE = alert_rules.RULES_FILE
RULE_NAME = "gpu-inference"
MANAGED_BY = {"app.kubernetes.io/part-of": PROJECT, "app.kubernetes.io/managed-by": "pulumi"}


def vllm_target(instance: str, namespace: str, server_name: str = vllm_manifests.SERVER_NAME) -> ScrapeTarget:
    """The Service of the vLLM server of component `instance` (objects named `server_name`, in `namespace`):
    `/metrics` on its `http` port (8000), beside the OpenAI API."""
    return ScrapeTarget(
        server_name,
        namespace,
        vllm_manifests.server_selector(instance),
        vllm_manifests.PORT_NAME,
        vllm_manifests.PORT,
    )


def dcgm_exporter_target(instance: str, namespace: str = KUBE_SYSTEM, name: str = dcgm_exporter.NAME) -> ScrapeTarget:
    """The DCGM exporter's Service. Its own `pod`, `namespace` and `container` labels name the workload using
    each GPU (internal/pkg/transformation/kubernetes.go at the pinned tag), so they are honoured rather than
    renamed `exported_*` by the operator's target labels."""
    return ScrapeTarget(
        name,
        namespace,
        selector_labels(dcgm_exporter.exporter_labels(instance)),
        dcgm_exporter.PORT_NAME,
        dcgm_exporter.PORT,
        dcgm_exporter.METRICS_PATH,
        honor_labels=True,
    )


def scrape_annotations(port: int, path: str = "/metrics") -> dict[str, str]:
    """The pod annotations annotation-driven Prometheus jobs select and read (port and path)."""
    return {"prometheus.io/scrape": "true", "prometheus.io/port": str(port), "prometheus.io/path": path}


def pod_scrape_annotations(settings: ObservabilitySettings, target: ScrapeTarget) -> dict[str, str]:
    """The scrape annotations of `target`'s pods, or none when ServiceMonitors scrape them."""
    return {} if settings.operator_objects else scrape_annotations(target.port, target.path)


def service_monitor(target: ScrapeTarget, settings: ObservabilitySettings) -> dict:
    """A ServiceMonitor in the monitoring namespace for `target`'s Service, at the configured interval."""
    return {
        "apiVersion": MONITORING_API_VERSION,
        "kind": "ServiceMonitor",
        "metadata": {
            "name": target.name,
            "namespace": settings.monitoring_namespace,
            "labels": {**settings.monitor_labels, **MANAGED_BY},
        },
        "spec": {
            "namespaceSelector": {"matchNames": [target.namespace]},
            "selector": {"matchLabels": dict(target.selector)},
            "endpoints": [
                {
                    "port": target.port_name,
                    "path": target.path,
                    "interval": settings.scrape_interval,
                    "honorLabels": target.honor_labels,
                }
            ],
        },
    }


def alert_rule_groups(path: Path = ALERT_RULES_FILE) -> list[dict]:
    """The rule groups of a rules file (Prometheus rule-file format), by default the committed one."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    return list(document["groups"])


def stack_rule_groups(args: PrometheusMonitorsArgs, vllm: VllmSettings) -> list[dict]:
    """The alert rules for the vLLM server `args` names: its model's series, its replicas, its memory budget."""
    watched = None if args.watched_models is None else list(args.watched_models)
    autoscaled = dict(args.autoscaled_models or {})
    return alert_rules.rule_groups(
        vllm.gpu_memory_utilization, vllm.replicas, args.vllm_model_name, watched, autoscaled
    )


def prometheus_rule(settings: ObservabilitySettings, groups: list[dict]) -> dict:
    """The alert rule `groups` (`stack_rule_groups`) as a PrometheusRule in the monitoring namespace."""
    return {
        "apiVersion": MONITORING_API_VERSION,
        "kind": "PrometheusRule",
        "metadata": {
            "name": RULE_NAME,
            "namespace": settings.monitoring_namespace,
            "labels": {**settings.monitor_labels, **MANAGED_BY},
        },
        "spec": {"groups": groups},
    }


def validated(name: str, args: PrometheusMonitorsArgs) -> tuple[ObservabilitySettings, VllmSettings]:
    """The observability settings and the watched server's vLLM settings from `args`; raises `ConfigError`
    naming every bad argument."""
    where = args_path("PrometheusMonitors", name)
    validation = Validation(where, args)
    args = validation.known(args)
    settings = validation.section(ObservabilitySettings, args)
    vllm = validation.section(VllmSettings, args)
    if args.watched_models is not None:
        given = [field for field in ("vllm_model_name", "replicas") if getattr(args, field) is not None]
        if given:
            validation.add(
                [
                    argument_problem(
                        f"{where}.watched_models",
                        f"given with {' and '.join(given)}; allowed: watched_models for several servers, or "
                        "vllm_model_name and replicas for one",
                    )
                ]
            )
    for model, count in (args.autoscaled_models or {}).items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            validation.add(
                [argument_problem(f"{where}.autoscaled_models[{model!r}]", f"{count!r}; allowed: an integer >= 1")]
            )
    validation.done()
    return settings, vllm


class PrometheusMonitors(pulumi.ComponentResource):
    """ServiceMonitors and the PrometheusRule, for a cluster that runs the Prometheus operator."""

    def __init__(self, name: str, args: PrometheusMonitorsArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(PrometheusMonitorsArgs, args, args_path("PrometheusMonitors", name))
        # Checked before anything is registered.
        settings, vllm = validated(name, args)
        super().__init__(f"{PROJECT}:index:PrometheusMonitors", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        for target in args.targets:
            monitor = service_monitor(target, settings)
            k8s.apiextensions.CustomResource(
                f"{name}-{target.name}",
                api_version=monitor["apiVersion"],
                kind=monitor["kind"],
                metadata=monitor["metadata"],
                spec=monitor["spec"],
                opts=child,
            )
        rule = prometheus_rule(settings, stack_rule_groups(args, vllm))
        k8s.apiextensions.CustomResource(
            f"{name}-rules",
            api_version=rule["apiVersion"],
            kind=rule["kind"],
            metadata=rule["metadata"],
            spec=rule["spec"],
            opts=child,
        )
        self.register_outputs({})
