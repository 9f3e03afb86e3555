"""The inputs of the observability components (`DcgmExporter`, `PrometheusMonitors` and its `ScrapeTarget`), a
part of `inputs.ARGS` (components/inputs.py, which explains the declarations), in its order: last."""

from __future__ import annotations

from ..args.declare import Args, Own, Take, _args, _object_name, _placement
from ..settings.observability import ObservabilitySettings
from ..settings.vllm import VllmSettings

OBSERVABILITY_ARGS: tuple[Args, ...] = (
    _args(
        "DcgmExporterArgs",
        "gpu_agents/args",
        "Inputs of `DcgmExporter`. Every field is plain (it shapes the DaemonSet and its policy) and checked when "
        "the component is constructed.",
        _placement("The GPU placement contract: the exporter tolerates every repelling taint and selects the label."),
        Take(ObservabilitySettings, only=("monitoring_namespace",)),
        Own(
            "bottlerocket",
            "bool | None",
            "The GPU nodes run Bottlerocket: the container runs privileged (see the module docstring). Default false.",
        ),
        Own(
            "auto_mode_nodes",
            "bool | None",
            "Some GPU pools are EKS Auto Mode's: the exporter keeps off their nodes (see the module docstring). "
            "Default false.",
        ),
        Own(
            "dcgm_host_engine",
            "bool | None",
            "The EKS node monitoring agent runs (`EksCluster`'s `node_monitoring_agent`), and with it DCGM's host "
            "engine `dcgm-server` on the GPU nodes it supports: there the exporter connects to that engine rather "
            "than embedding a second one, and a second DaemonSet embeds one on the other GPU nodes (see the module "
            "docstring). Pass true beside an `EksCluster` that installs the agent (its default); the plan's verdict "
            "`dcgm-exporter-covers-gpu-pools` fails on a mismatch. Default false.",
        ),
        Own(
            "pod_annotations",
            "dict[str, str] | None",
            "Annotations of the exporter pods, such as `prometheus.io/scrape`. Default none.",
        ),
        _object_name("DaemonSet, its Service, ServiceAccount and NetworkPolicy"),
        Own(
            "namespace",
            "str | None",
            "Namespace of the DaemonSet, Service and NetworkPolicy. Default `kube-system`, beside the device plugin.",
        ),
    ),
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
