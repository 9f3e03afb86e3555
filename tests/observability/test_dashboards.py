"""The dashboard and the alert rules use only metrics the pinned DCGM exporter and vLLM expose."""

from __future__ import annotations

import json

import pytest
import yaml

from components.facts import versions
from components.observability.monitoring import ALERT_RULES_FILE
from tests.support.dashboards import (
    DASHBOARD,
    DCGM_LIST,
    KSM_LIST,
    METRICS_DIR,
    VLLM_LIST,
    exposed,
    metric_names,
)


def dashboard_exprs() -> list[str]:
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [target["expr"] for panel in panels for target in panel.get("targets", [])]


def rule_exprs() -> list[str]:
    groups = yaml.safe_load(ALERT_RULES_FILE.read_text())["groups"]
    return [rule["expr"] for group in groups for rule in group["rules"]]


@pytest.mark.parametrize("source", ["dashboard", "rules"])
def test_every_metric_used_is_exposed_by_the_pinned_exporters(source):
    exprs = dashboard_exprs() if source == "dashboard" else rule_exprs()
    allowed = exposed(DCGM_LIST) | exposed(VLLM_LIST) | exposed(KSM_LIST)
    used = set().union(*(metric_names(expr) for expr in exprs))
    assert used - allowed == set()
    # Both exporters' metrics are used, so the check covers both lists.
    assert any(name.startswith("DCGM_") for name in used) and any(name.startswith("vllm:") for name in used)


def test_metric_lists_are_those_of_the_pinned_versions_and_name_their_source():
    for path in (DCGM_LIST, VLLM_LIST, KSM_LIST):
        head = path.read_text().split("\n# One metric")[0]
        assert "Source" in head, path
    assert "NVIDIA/dcgm-exporter tag " + versions.DCGM_EXPORTER_VERSION in DCGM_LIST.read_text()
    assert versions.VLLM_VERSION in VLLM_LIST.read_text().splitlines()[0]
    ksm_head = KSM_LIST.read_text().splitlines()[0]
    assert f"v{versions.KUBE_STATE_METRICS_VERSION}" in ksm_head
    assert f"kube-prometheus-stack {versions.KUBE_PROMETHEUS_STACK_VERSION}" in ksm_head
    assert {path.name for path in METRICS_DIR.iterdir()} == {DCGM_LIST.name, VLLM_LIST.name, KSM_LIST.name}


def test_metric_name_extraction_finds_names_and_skips_functions_labels_and_durations():
    expr = (
        'histogram_quantile(0.95, sum by (le, model_name) (rate(vllm:ttft_seconds_bucket{pod=~"a|b"}[5m]))) '
        "> on (gpu) group_left DCGM_FI_DEV_GPU_TEMP offset 5m or absent(up) and vector(1)"
    )
    assert metric_names(expr) == {"vllm:ttft_seconds_bucket", "DCGM_FI_DEV_GPU_TEMP", "up"}
    unknown = metric_names("vllm:no_such_metric > 1") - exposed(VLLM_LIST)
    assert unknown == {"vllm:no_such_metric"}


def test_dashboard_reads_any_prometheus_through_a_datasource_variable():
    dashboard = json.loads(DASHBOARD.read_text())
    [variable] = [variable for variable in dashboard["templating"]["list"] if variable["type"] == "datasource"]
    assert variable == {
        "name": "datasource",
        "label": "Prometheus",
        "type": "datasource",
        "query": "prometheus",
        "current": {},
        "hide": 0,
    }
    panels = [panel for panel in dashboard["panels"] if panel["type"] != "row"]
    assert len(panels) >= 10
    assert all(panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"} for panel in panels)
    assert len({panel["id"] for panel in dashboard["panels"]}) == len(dashboard["panels"])


def test_alert_rules_and_dashboard_ship_with_the_installable_components():
    import tomllib
    from pathlib import Path

    from conftest import ROOT

    # setup.py installs components/ as eks_gpu_inference; tests/project/test_install.py checks the wheel.
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    shipped = {
        path
        for package, patterns in package_data.items()
        for pattern in patterns
        for path in (ROOT / "components" / Path(*package.split(".")[1:])).glob(pattern)
    }
    assert {ALERT_RULES_FILE, DASHBOARD, DCGM_LIST, VLLM_LIST, KSM_LIST} <= shipped


def test_the_vllm_row_repeats_per_model_and_every_vllm_query_keeps_to_its_model():
    # A row's `repeat` names the variable it is repeated for, one copy per selected value (Grafana's dashboard
    # schema, RowPanel.repeat: grafana.github.io/grafana-foundation-sdk, dashboard RowPanel).
    dashboard = json.loads(DASHBOARD.read_text())
    [variable] = [variable for variable in dashboard["templating"]["list"] if variable["name"] == "model_name"]
    assert variable["type"] == "query" and variable["multi"] and variable["includeAll"]
    assert variable["query"]["query"] == "label_values(vllm:num_requests_running, model_name)"
    assert variable["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
    rows = [panel for panel in dashboard["panels"] if panel["type"] == "row"]
    assert [row.get("repeat") for row in rows] == [None, "model_name"]
    start = dashboard["panels"].index(rows[1])
    queries = [target["expr"] for panel in dashboard["panels"][start + 1 :] for target in panel["targets"]]
    assert queries and all(expr.count("vllm:") == expr.count('{model_name=~"$model_name"}') for expr in queries), (
        queries
    )
    gpu_queries = [target["expr"] for panel in dashboard["panels"][:start] for target in panel.get("targets", [])]
    assert not [expr for expr in gpu_queries if "model_name" in expr]


def test_the_replicas_panel_shows_the_replicas_keda_desires_and_the_deployment_has_ready_per_model():
    from components.autoscaling.keda_manifests import HPA_NAME_PREFIX

    dashboard = json.loads(DASHBOARD.read_text())
    [panel] = [panel for panel in dashboard["panels"] if panel.get("title", "").startswith("Replicas desired")]
    by_metric = {name: target["expr"] for target in panel["targets"] for name in metric_names(target["expr"])}
    desired = by_metric["kube_horizontalpodautoscaler_status_desired_replicas"]
    ready = by_metric["kube_deployment_status_replicas_ready"]

    # The HorizontalPodAutoscaler of a ScaledObject is keda-hpa-<ScaledObject name>; its name after the prefix is
    # the server's, which its Service (the `service` label of the vLLM series) shares.
    assert f'horizontalpodautoscaler=~"{HPA_NAME_PREFIX}.+"' in desired
    assert f'"service", "$1", "horizontalpodautoscaler", "{HPA_NAME_PREFIX}(.+)"' in desired
    assert '"service", "$1", "deployment", "(.+)"' in ready
    for expr in (desired, ready):
        assert expr.startswith("max by (model_name) (")
        assert "on (namespace, service) group_left (model_name)" in expr
        assert 'vllm:num_requests_waiting{model_name=~"$model_name"}' in expr
    legends = {target["legendFormat"] for target in panel["targets"]}
    assert {"replicas desired (KEDA) {{model_name}}", "replicas ready {{model_name}}"} <= legends
