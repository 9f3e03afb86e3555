"""Settings of GPU and model-server metrics (`observability`): components/gpu_agents/dcgm_exporter.py and
components/observability/monitoring.py."""

from __future__ import annotations

import re
from typing import Annotated
from urllib.parse import urlsplit

from ..facts.kubernetes import INITIAL_NAMESPACES
from .errors import ConfigProblem, _bad
from .fields import Labels, NamespaceName, PrometheusDuration, checked, rule
from .section import SectionModel


class DcgmExporterSettings(SectionModel):
    """NVIDIA's DCGM exporter on the GPU nodes (`observability.dcgmExporter`)."""

    enabled: bool = True
    """Deploy the exporter DaemonSet on every GPU node."""


def _is_http_url(value: str) -> bool:
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises on a port outside 0-65535
    except ValueError:  # also a bracketed host that is no IPv6 address
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def _check_no_user_info(value: str) -> None:
    """A URL with no `user:password@` (RFC 3986, section 3.2.1, "User Information"). KEDA's Prometheus scaler puts
    `serverAddress` in the ScaledObject as written, and the stack config keeps it in plain text; its credentials
    belong in a TriggerAuthentication (KEDA 2.20 docs, Prometheus scaler, "Authentication Parameters": `authModes`
    bearer, basic, tls and custom, their secrets from the TriggerAuthentication; kedacore/keda-docs
    content/docs/2.20/scalers/prometheus.md). The message
    shows the URL with its user information masked, so the secret reaches no log."""
    parts = urlsplit(value)
    if "@" not in parts.netloc:
        return
    masked = parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]).geturl()
    raise _bad(
        masked,
        "a URL without user name or password, such as http://prometheus.monitoring:9090: the ScaledObject and the "
        "stack config would keep them in plain text. KEDA takes a Prometheus's credentials from a "
        "TriggerAuthentication, which the stack creates only for ampWorkspace: point url at an endpoint that needs "
        'none, or use ampWorkspace (docs/autoscaling.md, "A Prometheus that asks for credentials")',
        "credentials in the URL",
    )


# botocore data/amp/2020-08-01/service-2.json (botocore 1.44.8, read 2026-12-02): shape WorkspaceId (1-64 characters,
# `[0-9A-Za-z][-.0-9A-Z_a-z]*`) and shape WorkspaceArn (`arn:aws[-a-z]*:aps:[-a-z0-9]+:[0-9]{12}:workspace/.+`).
_WORKSPACE_ID = r"[0-9A-Za-z][-.0-9A-Z_a-z]{0,63}"
_WORKSPACE_ARN = re.compile(rf"arn:(aws[-a-z]*):aps:([-a-z0-9]+):([0-9]{{12}}):workspace/({_WORKSPACE_ID})")


def _is_workspace(value: str) -> bool:
    return bool(re.fullmatch(_WORKSPACE_ID, value) or _WORKSPACE_ARN.fullmatch(value))


class PrometheusSettings(SectionModel):
    """Where KEDA reads vLLM's queue (`observability.prometheus`): the user's Prometheus at `url`, an Amazon Managed
    Service for Prometheus workspace (`ampWorkspace`), or a kube-prometheus-stack the stack installs (`install`).
    At most one; with none, the Prometheus an operator runs in `monitoringNamespace`."""

    url: (
        Annotated[
            str,
            rule(_is_http_url, "an http:// or https:// URL such as http://prometheus.monitoring:9090"),
            checked(_check_no_user_info),
        ]
        | None
    ) = None
    """URL of the Prometheus HTTP API that scrapes the vLLM servers. Default: the Service the Prometheus operator
    creates for its Prometheus in `monitoringNamespace`, `http://prometheus-operated.<monitoringNamespace>.svc:9090`."""
    amp_workspace: (
        Annotated[
            str,
            rule(
                _is_workspace,
                "an Amazon Managed Service for Prometheus workspace ID such as ws-0123abcd-4567-89ef-0123-456789abcdef, "
                "or its ARN arn:aws:aps:<region>:<account>:workspace/<id>",
            ),
        ]
        | None
    ) = None
    """An Amazon Managed Service for Prometheus workspace KEDA queries, its ID (in the stack's region and account) or
    its ARN: KEDA's operator signs its queries with SigV4 as an IAM role allowed only to query that workspace (EKS Pod
    Identity). The stack neither creates the workspace nor writes to it: a collector of yours in
    `monitoringNamespace` must send it the vLLM servers' metrics. Default none."""
    install: bool = False
    """Install kube-prometheus-stack (its official chart, pinned) in `monitoringNamespace` on the system nodes,
    selecting every ServiceMonitor, PodMonitor and PrometheusRule; KEDA asks its Prometheus, and the stack's
    ServiceMonitors and alert rules are created for it."""

    def problems(self) -> list[ConfigProblem]:
        given = [key for key, value in (("url", self.url), ("ampWorkspace", self.amp_workspace)) if value]
        if self.install:
            given.append("install")
        return [
            ConfigProblem(
                key, f"given with {given[0]}; allowed: one of url, ampWorkspace or install: true (where KEDA reads)"
            )
            for key in given[1:]
        ]

    def amp_parts(self, region: str) -> tuple[str, str, str | None] | None:
        """`(workspace id, region, account or None)` of `ampWorkspace`: an ID is in `region` and the stack's own
        account, an ARN names both."""
        if not self.amp_workspace:
            return None
        arn = _WORKSPACE_ARN.fullmatch(self.amp_workspace)
        if arn:
            return arn.group(4), arn.group(2), arn.group(3)
        return self.amp_workspace, region, None

    def amp_partition(self) -> str | None:
        """The partition an ARN `ampWorkspace` names (None for an ID, which is the stack's)."""
        arn = _WORKSPACE_ARN.fullmatch(self.amp_workspace or "")
        return arn.group(1) if arn else None


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

    @property
    def operator_objects(self) -> bool:
        """The stack creates ServiceMonitors and the PrometheusRule: an operator runs, or the stack installs one."""
        return self.prometheus_operator or self.prometheus.install

    def problems(self) -> list[ConfigProblem]:
        problems = []
        # With `install` the stack registers monitoringNamespace as its own Namespace resource
        # (components/observability/prometheus_stack.py): one the cluster starts with would be taken over and
        # deleted on destroy. A Prometheus of the user's may live in any namespace, kube-system included.
        if self.prometheus.install and self.monitoring_namespace in INITIAL_NAMESPACES:
            problems.append(
                ConfigProblem(
                    "monitoringNamespace",
                    f"{self.monitoring_namespace!r} with prometheus.install true, which creates the namespace and "
                    "deletes it on destroy, and every cluster has it already; allowed: a namespace of its own "
                    f"such as 'monitoring', not {', '.join(INITIAL_NAMESPACES)}",
                )
            )
        if not (self.prometheus_operator and self.prometheus.install):
            return problems
        # The chart installs its own operator and creates monitoringNamespace: beside one that runs already, the
        # namespace exists (or two operators reconcile the same ServiceMonitors and rules).
        return [
            *problems,
            ConfigProblem(
                "prometheus.install",
                "true with prometheusOperator true, which says an operator runs already; allowed: prometheus.install "
                "true (the stack installs kube-prometheus-stack and its operator) or prometheusOperator true (yours), "
                "not both",
            ),
        ]
