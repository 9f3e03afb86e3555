"""The inputs of the observability components (`PrometheusMonitors` and its `ScrapeTarget`, `PrometheusStack`). How
a declaration reads: components/args/declare.py."""

from __future__ import annotations

from ..args.declare import Args, Own, Take, _args
from ..settings.observability import ObservabilitySettings, PrometheusSettings
from ..settings.section import SectionModel
from ..settings.vllm import VllmSettings

STACK_ONLY: dict[type[SectionModel], tuple[str, ...]] = {
    ObservabilitySettings: ("dcgm_exporter", "prometheus_operator", "prometheus"),
    # Where KEDA asks: the program hands it to each autoscaled server as `prometheus_url` (an AMP workspace as its
    # query URL and `amp_region`, and to `Keda` as `amp_workspace_arn`), and builds `PrometheusStack` for `install`.
    PrometheusSettings: ("url", "amp_workspace", "install"),
}
"""Settings fields of this concern no component takes: the stack config alone has them."""

ARGS: tuple[Args, ...] = (
    _args(
        "ScrapeTarget",
        "observability/args",
        "A Service whose pods serve Prometheus metrics.",
        Own("name", "str", "Name of the ServiceMonitor (and of the job Prometheus gives its targets).", required=True),
        Own("namespace", "str", "Namespace of the Service.", required=True),
        Own("selector", "dict[str, str]", "Labels that select the Service.", required=True),
        Own("port_name", "str", "Name of the Service port serving metrics.", required=True),
        Own("port", "int", "Number of that port on the pods.", required=True),
        Own("path", "str", "HTTP path of the metrics.", default="/metrics"),
        Own(
            "honor_labels",
            "bool",
            "Keep the target's own labels over Prometheus's target labels on a clash.",
            default=False,
        ),
        kw_only=False,
    ),
    _args(
        "PrometheusMonitorsArgs",
        "observability/args",
        "Inputs of `PrometheusMonitors`. Every field is plain and checked when the component is constructed, with "
        "the rules of the stack config's `observability` section.",
        Own(
            "targets",
            "list[ScrapeTarget]",
            "The Services to scrape, one ServiceMonitor each (`vllm_target`, `dcgm_exporter_target`).",
            required=True,
        ),
        Take(ObservabilitySettings, only=("monitoring_namespace", "scrape_interval", "monitor_labels")),
        Own(
            "vllm_model_name",
            "str | None",
            "The model name the watched vLLM server's metrics carry (their `model_name` label: "
            "`--served-model-name`, else the model id); the vLLM alerts select its series. Default: every "
            "model's series.",
        ),
        Own(
            "watched_models",
            "list[str] | None",
            "The model names (`model_name` labels) of several vLLM servers, each watched on its own: one no-server "
            "alert per model, fired when that model is not scraped; list the servers with replicas. Not with "
            "`vllm_model_name` or `replicas`. Default: the one server those describe.",
        ),
        Own(
            "autoscaled_models",
            "dict[str, int] | None",
            "The model names (`model_name` labels) of the servers KEDA scales, each with its maxReplicas: an alert "
            "fires when one runs its maximum with requests waiting for 10 minutes. Default none.",
        ),
        Take(
            VllmSettings,
            only=("replicas", "gpu_memory_utilization"),
            docs={
                "replicas": "Replicas of the watched vLLM server, 0 or more; with 0 the alert on no server "
                "being scraped is left out.",
                "gpu_memory_utilization": "Share of GPU memory the watched vLLM server takes, 0 < x <= 1; the "
                "GPU-memory alert fires above a threshold derived from it.",
            },
        ),
    ),
    _args(
        "PrometheusStackArgs",
        "observability/args",
        "Inputs of `PrometheusStack`. Every field is plain and checked when the component is constructed.",
        Take(ObservabilitySettings, only=("monitoring_namespace",)),
        Own(
            "keda_namespace",
            "str | None",
            "Namespace of KEDA, whose operator queries the Prometheus: its NetworkPolicy admits it on the web port "
            "9090. Default none (only the monitoring namespace is admitted).",
        ),
    ),
)
"""The observability components' args classes, `ScrapeTarget` before `PrometheusMonitorsArgs` that uses it."""
