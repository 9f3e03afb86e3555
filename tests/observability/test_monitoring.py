"""Scrape configuration (annotations or ServiceMonitors), the alert rules as a PrometheusRule, and the vLLM
server's NetworkPolicy admitting the scraper, as the program registers them; custom resources against the
committed CRD schemas."""

from __future__ import annotations

import copy
import json

import pytest
import yaml
from conftest import ROOT

from components.facts.resource_types import (
    DAEMONSET,
    DEPLOYMENT,
    NETWORK_POLICY,
    PROMETHEUS_RULE,
    SERVICE,
    SERVICE_MONITOR,
)
from components.facts.versions import KEDA_VERSION
from components.observability.monitoring import ALERT_RULES_FILE
from components.stackcheck.__main__ import main
from components.stackcheck.plan import crd_schema
from components.stackcheck.plan.render import kubernetes_objects

OPERATOR = {
    "observability": {
        "prometheusOperator": True,
        "scrapeInterval": "15s",
        "monitorLabels": {"release": "kube-prometheus-stack"},
    }
}


def named(run, type_token: str, name: str) -> dict:
    [found] = [r.inputs for r in run.of_type(type_token) if r.inputs["metadata"]["name"] == name]
    return found


def pod_annotations(workload: dict) -> dict:
    return workload["spec"]["template"]["metadata"].get("annotations") or {}


def test_without_the_operator_pods_carry_scrape_annotations_and_no_monitor_exists(dev_run):
    assert dev_run.of_type(SERVICE_MONITOR) == [] and dev_run.of_type(PROMETHEUS_RULE) == []
    assert pod_annotations(named(dev_run, DEPLOYMENT, "vllm-server")) == {
        "prometheus.io/scrape": "true",
        "prometheus.io/port": "8000",
        "prometheus.io/path": "/metrics",
    }
    assert pod_annotations(named(dev_run, DAEMONSET, "dcgm-exporter")) == {
        "prometheus.io/scrape": "true",
        "prometheus.io/port": "9400",
        "prometheus.io/path": "/metrics",
    }


def test_with_the_operator_service_monitors_select_exactly_the_two_services(stack):
    run = stack(OPERATOR)
    assert pod_annotations(named(run, DEPLOYMENT, "vllm-server")) == {}
    assert pod_annotations(named(run, DAEMONSET, "dcgm-exporter")) == {}
    for name, namespace, port_name, honor in (
        ("vllm-server", "vllm", "http", False),
        ("dcgm-exporter", "kube-system", "metrics", True),
    ):
        monitor = named(run, SERVICE_MONITOR, name)
        service = named(run, SERVICE, name)
        assert service["metadata"]["namespace"] == namespace
        assert monitor["metadata"]["namespace"] == "monitoring"
        assert monitor["metadata"]["labels"]["release"] == "kube-prometheus-stack"
        assert monitor["spec"]["namespaceSelector"] == {"matchNames": [namespace]}
        assert monitor["spec"]["selector"] == {"matchLabels": service["spec"]["selector"]}
        assert monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
        assert port_name in [port["name"] for port in service["spec"]["ports"]]
        assert monitor["spec"]["endpoints"] == [
            {"port": port_name, "path": "/metrics", "interval": "15s", "honorLabels": honor}
        ]


def test_prometheus_rule_carries_the_alert_rules_of_the_stacks_server(stack):
    rule = named(stack(OPERATOR), PROMETHEUS_RULE, "gpu-inference")
    assert rule["metadata"]["namespace"] == "monitoring"
    # A Prometheus object loads only the rules its `ruleSelector` matches (prometheus-operator API reference),
    # the labels `monitorLabels` names, as for the ServiceMonitors.
    assert rule["metadata"]["labels"]["release"] == "kube-prometheus-stack"
    # The committed file's rules, but for the dev stack's model only.
    committed = yaml.safe_load(ALERT_RULES_FILE.read_text())["groups"]
    assert rule["spec"]["groups"][0] == committed[0]
    [waiting, no_server] = rule["spec"]["groups"][1]["rules"]
    assert (
        waiting["expr"] == 'sum by (model_name) (vllm:num_requests_waiting{model_name="Qwen/Qwen2.5-7B-Instruct"}) > 10'
    )
    assert no_server["expr"] == 'absent(vllm:num_requests_running{model_name="Qwen/Qwen2.5-7B-Instruct"})'
    alerts = {r["alert"] for group in rule["spec"]["groups"] for r in group["rules"]}
    assert alerts == {
        "GpuXidHardwareError",
        "GpuXidError",
        "GpuMemoryNearlyFull",
        "VllmRequestsWaiting",
        "VllmNoPodReady",
    }


def test_prometheus_rule_selects_the_served_model_name(stack):
    run = stack({**OPERATOR, "vllm": {"servedModelName": "chat"}})
    groups = named(run, PROMETHEUS_RULE, "gpu-inference")["spec"]["groups"]
    assert [r["expr"] for r in groups[1]["rules"]] == [
        'sum by (model_name) (vllm:num_requests_waiting{model_name="chat"}) > 10',
        'absent(vllm:num_requests_running{model_name="chat"})',
    ]


def test_monitors_cover_only_what_is_deployed(stack):
    run = stack({**OPERATOR, "vllm": {"enabled": False}})
    assert [r.inputs["metadata"]["name"] for r in run.of_type(SERVICE_MONITOR)] == ["dcgm-exporter"]
    run = stack({"observability": {"prometheusOperator": True, "dcgmExporter": {"enabled": False}}})
    assert [r.inputs["metadata"]["name"] for r in run.of_type(SERVICE_MONITOR)] == ["vllm-server"]


@pytest.mark.parametrize("namespace", ["monitoring", "amp-agent"])
def test_vllm_network_policy_also_admits_the_monitoring_namespace_on_8000(stack, namespace):
    run = stack(
        {
            "observability": {"monitoringNamespace": namespace},
            "vllm": {"allowedClientNamespaces": ["apps"], "allowedClientPodLabels": {"role": "client"}},
        }
    )
    policy = named(run, NETWORK_POLICY, "vllm-server")
    assert policy["spec"]["ingress"] == [
        {
            "from": [
                {
                    "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "apps"}},
                    "podSelector": {"matchLabels": {"role": "client"}},
                }
            ],
            "ports": [{"protocol": "TCP", "port": 8000}],
        },
        {
            "from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": namespace}}}],
            "ports": [{"protocol": "TCP", "port": 8000}],
        },
    ]


def custom_resources(run) -> list[dict]:
    return [obj.manifest for obj in kubernetes_objects(run.resources) if obj.api_version.startswith("monitoring.")]


def test_registered_custom_resources_match_the_committed_crd_schemas(stack):
    manifests = custom_resources(stack(OPERATOR))
    assert sorted(m["kind"] for m in manifests) == ["PrometheusRule", "ServiceMonitor", "ServiceMonitor"]
    for manifest in manifests:
        assert crd_schema.known(manifest["apiVersion"], manifest["kind"])
        assert crd_schema.validation_errors(manifest) == []


def test_crd_schema_check_rejects_misspelt_and_mistyped_fields(stack):
    manifests = {m["kind"]: m for m in custom_resources(stack(OPERATOR))}
    monitor = copy.deepcopy(manifests["ServiceMonitor"])
    monitor["spec"]["endpoints"][0]["intervall"] = "15s"
    monitor["spec"]["endpoints"][0]["interval"] = "soon"
    errors = crd_schema.validation_errors(monitor)
    assert any("spec.endpoints[0]" in e and "'intervall'" in e for e in errors), errors
    assert any("spec.endpoints[0].interval" in e for e in errors), errors
    rule = copy.deepcopy(manifests["PrometheusRule"])
    rule["spec"]["groups"][0]["rules"][0]["for"] = 10
    assert any("spec.groups[0].rules[0].for" in e for e in crd_schema.validation_errors(rule))


def test_committed_crd_schemas_name_their_source_release():
    # The Prometheus operator's and KEDA's; Karpenter's are tests/pools/test_karpenter_manifests.py's.
    documents = {
        key: value for key, value in crd_schema.crd_schemas().items() if key[0].startswith(("monitoring.", "keda."))
    }
    assert set(documents) == {
        ("monitoring.coreos.com/v1", "ServiceMonitor"),
        ("monitoring.coreos.com/v1", "PrometheusRule"),
        ("keda.sh/v1alpha1", "ScaledObject"),
        ("keda.sh/v1alpha1", "TriggerAuthentication"),
    }
    for key, document in documents.items():
        release = (
            f"kedacore/keda v{KEDA_VERSION} "
            if key[0] == "keda.sh/v1alpha1"
            else "prometheus-operator/prometheus-operator v0.93.0"
        )
        assert document["source"].startswith(release)


def test_plan_checks_custom_resources_against_their_schema(capsys, tmp_path):
    stack_file = tmp_path / "Pulumi.operator.yaml"
    stack_file.write_text(
        yaml.safe_dump(
            {
                "config": {
                    "aws:region": "us-west-2",
                    **{f"eks-gpu-inference:{key}": value for key, value in OPERATOR.items()},
                }
            }
        )
    )
    code = main(
        [
            "plan",
            "--project-dir",
            str(ROOT),
            "--stack-file",
            str(stack_file),
            "--out",
            str(tmp_path / "out"),
            "--format",
            "json",
        ]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 0, document["failures"]
    checked = {entry["object"]: entry for entry in document["schema"] if "monitoring" in entry["file"]}
    assert set(checked) == {
        "ServiceMonitor monitoring/vllm-server",
        "ServiceMonitor monitoring/dcgm-exporter",
        "PrometheusRule monitoring/gpu-inference",
    }
    assert all(entry["passed"] and entry["checked"] for entry in checked.values())


def test_observability_section_is_declared_shown_and_documented():
    from components.settings import SECTIONS, ObservabilitySettings, parse_settings

    declared = yaml.safe_load((ROOT / "Pulumi.yaml").read_text())["config"]
    assert declared["observability"]["type"] == "object"
    assert set(SECTIONS) <= set(declared)
    shown = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())["config"]["eks-gpu-inference:observability"]
    assert parse_settings({"observability": shown}).observability == ObservabilitySettings()
    reference = (ROOT / "docs" / "reference" / "configuration.md").read_text()
    for key in ("dcgmExporter.enabled", "monitoringNamespace", "prometheusOperator", "scrapeInterval", "monitorLabels"):
        assert f"| `observability.{key}` |" in reference
        assert key.split(".")[0] in declared["observability"]["description"]
    assert (ROOT / "docs" / "observability.md").read_text().startswith("# Observability\n")


def test_every_kubernetes_object_goes_to_the_stacks_cluster_as_a_child_of_its_component(stack):
    # A component that dropped the options it is given would register its objects with the default
    # Kubernetes provider, that is with whatever cluster the ambient kubeconfig names, and outside the tree.
    run = stack(OPERATOR)
    (provider,) = run.of_type("pulumi:providers:kubernetes")
    reference = f"{provider.urn}::{provider.id}"
    components = {r.urn: r for r in run.resources if not r.custom}
    objects = [r for r in run.resources if r.custom and r.type.startswith("kubernetes:")]
    assert {SERVICE_MONITOR, PROMETHEUS_RULE, DAEMONSET, DEPLOYMENT} <= {r.type for r in objects}
    for resource in objects:
        assert resource.provider == reference, resource.name
        assert resource.parent in components and components[resource.parent].type.startswith("eks-gpu-inference:")
