"""Where KEDA reads the queues (`observability.prometheus`): a URL, an Amazon Managed Service for Prometheus workspace
(SigV4 as KEDA's operator through EKS Pod Identity) or kube-prometheus-stack installed by the stack, read from what
the real program registers under mocks; and the KV-cache trigger."""

from __future__ import annotations

import json
import logging

import pytest
from conftest import PROGRAM, dev_stack_config, merge

from components.autoscaling.keda_manifests import AMP_QUERY_ACTIONS
from components.facts import versions
from components.facts.identity import PROJECT
from components.settings import ConfigError, parse_stack_config
from components.settings.autoscaling import AutoscalingSettings
from components.settings.observability import PrometheusSettings
from components.settings.section import validate_section
from components.stackcheck.plan import crd_schema, helm_values
from components.stackcheck.plan.render import kubernetes_objects
from components.stackcheck.runtime import ProgramRun, run_program
from components.vllm.scaling_manifests import QUERY_METRICS, kv_cache_query

ARN = "arn:aws:aps:us-west-2:123456789012:workspace/ws-0123abcd-4567-89ef-0123-456789abcdef"
WORKSPACE_ID = "ws-0123abcd-4567-89ef-0123-456789abcdef"
AUTOSCALED = {"vllm": {"autoscaling": {"enabled": True}}}
RELEASE = "kubernetes:helm.sh/v3:Release"
ASSOCIATION = "aws:eks/podIdentityAssociation:PodIdentityAssociation"


def run_with(overrides: dict, region: str | None = None) -> ProgramRun:
    config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), overrides).items()}
    if region:
        config["aws:region"] = region
    return run_program(PROGRAM, config, project=PROJECT, stack="test")


def amp(workspace: str = ARN, **autoscaling) -> dict:
    return merge(
        {"vllm": {"autoscaling": {"enabled": True, **autoscaling}}},
        {"observability": {"prometheus": {"ampWorkspace": workspace}}},
    )


def objects(run: ProgramRun, kind: str) -> list:
    return [obj for obj in kubernetes_objects(run.resources) if obj.kind == kind]


def problems(config: dict, region: str | None = None) -> list[str]:
    full = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), config).items()}
    if region:
        full["aws:region"] = region
    with pytest.raises(ConfigError) as raised:
        parse_stack_config(full)
    return [str(problem) for problem in raised.value.problems]


# Settings.


@pytest.mark.parametrize(
    ("given", "key"),
    [
        pytest.param({"url": "http://prom:9090", "install": True}, "install", id="url and install"),
        pytest.param({"url": "http://prom:9090", "ampWorkspace": WORKSPACE_ID}, "ampWorkspace", id="url and amp"),
        pytest.param({"ampWorkspace": WORKSPACE_ID, "install": True}, "install", id="amp and install"),
    ],
)
def test_the_three_choices_exclude_each_other_naming_both_keys(given, key):
    [message] = problems({"observability": {"prometheus": given}})

    assert f"{PROJECT}:observability.prometheus.{key}: given with " in message
    assert "allowed: one of url, ampWorkspace or install: true" in message


def test_installing_prometheus_beside_an_operator_that_runs_already_is_refused():
    assert problems({"observability": {"prometheusOperator": True, "prometheus": {"install": True}}}) == [
        f"{PROJECT}:observability.prometheus.install: true with prometheusOperator true, which says an operator runs "
        "already; allowed: prometheus.install true (the stack installs kube-prometheus-stack and its operator) or "
        "prometheusOperator true (yours), not both"
    ]


def test_a_malformed_workspace_is_refused_with_what_is_allowed():
    assert problems({"observability": {"prometheus": {"ampWorkspace": "arn:aws:s3:::bucket"}}}) == [
        f"{PROJECT}:observability.prometheus.ampWorkspace: invalid value 'arn:aws:s3:::bucket'; allowed: an Amazon "
        f"Managed Service for Prometheus workspace ID such as {WORKSPACE_ID}, or its ARN "
        "arn:aws:aps:<region>:<account>:workspace/<id>"
    ]


def test_a_workspace_id_needs_the_region_that_names_its_endpoint():
    assert problems({"observability": {"prometheus": {"ampWorkspace": WORKSPACE_ID}}}) == [
        f"{PROJECT}:observability.prometheus.ampWorkspace: '{WORKSPACE_ID}' is a workspace ID, and aws:region is not "
        "set to say its region; allowed: the workspace's ARN arn:aws:aps:<region>:<account>:workspace/<id>, or set "
        "aws:region"
    ]


def test_a_workspace_arn_of_another_partition_is_refused():
    arn = ARN.replace("arn:aws:", "arn:aws-cn:").replace("us-west-2", "cn-north-1")
    assert problems({"observability": {"prometheus": {"ampWorkspace": arn}}}, region="us-west-2") == [
        f"{PROJECT}:observability.prometheus.ampWorkspace: '{arn}' is a workspace of partition 'aws-cn', not of "
        "us-west-2's; allowed: a workspace ID, or an ARN arn:aws:aps:..."
    ]


def test_the_parts_of_a_workspace_come_from_its_arn_or_the_stacks_region():
    assert PrometheusSettings(amp_workspace=ARN).amp_parts("eu-west-1") == (WORKSPACE_ID, "us-west-2", "123456789012")
    assert PrometheusSettings(amp_workspace=WORKSPACE_ID).amp_parts("eu-west-1") == (WORKSPACE_ID, "eu-west-1", None)
    assert PrometheusSettings().amp_parts("eu-west-1") is None


def test_the_kv_cache_target_is_a_fraction_of_the_cache():
    with pytest.raises(ConfigError) as raised:
        validate_section(AutoscalingSettings, {"targetKvCacheUsage": 1.5}, where="vllm.autoscaling")
    [problem] = raised.value.problems
    assert "targetKvCacheUsage" in str(problem) and "a fraction 0 < x <= 1 of the KV cache" in str(problem)
    given = validate_section(AutoscalingSettings, {"targetKvCacheUsage": 0.8}, where="vllm.autoscaling")
    assert given.target_kv_cache_usage == 0.8


# An Amazon Managed Service for Prometheus workspace.


def test_the_triggers_ask_the_workspaces_query_endpoint_signed_for_its_region():
    run = run_with(amp())
    [scaler] = objects(run, "ScaledObject")
    [auth] = objects(run, "TriggerAuthentication")
    [trigger] = scaler.manifest["spec"]["triggers"]

    assert (
        trigger["metadata"]["serverAddress"]
        == f"https://aps-workspaces.us-west-2.amazonaws.com/workspaces/{WORKSPACE_ID}"
    )
    assert trigger["metadata"]["awsRegion"] == "us-west-2"
    assert trigger["authenticationRef"] == {"name": auth.name}
    assert auth.namespace == scaler.namespace
    # KEDA's operator is the identity: no roleArn, identityOwner left at keda.
    assert auth.manifest["spec"] == {"podIdentity": {"provider": "aws"}}
    assert crd_schema.known("keda.sh/v1alpha1", "TriggerAuthentication")
    assert crd_schema.validation_errors(auth.manifest) == []
    assert crd_schema.validation_errors(scaler.manifest) == []


def test_kedas_operator_gets_a_role_that_may_only_query_the_workspace():
    run = run_with(amp())
    [association] = [r for r in run.of_type(ASSOCIATION) if r.inputs["namespace"] == "keda"]
    [role] = [r for r in run.of_type("aws:iam/role:Role") if association.inputs["roleArn"].endswith(f"/{r.name}")]
    [policy] = [r for r in run.of_type("aws:iam/rolePolicy:RolePolicy") if r.inputs["role"].startswith(role.name)]
    [statement] = json.loads(policy.inputs["policy"])["Statement"]
    trust = json.loads(role.inputs["assumeRolePolicy"])["Statement"][0]

    assert association.inputs["serviceAccount"] == "keda-operator"
    assert statement == {"Effect": "Allow", "Action": list(AMP_QUERY_ACTIONS), "Resource": ARN}
    assert sorted(AMP_QUERY_ACTIONS) == ["aps:GetLabels", "aps:GetMetricMetadata", "aps:GetSeries", "aps:QueryMetrics"]
    assert trust["Principal"] == {"Service": "pods.eks.amazonaws.com"}
    # The agent that serves the credentials is installed for it.
    assert any(r.inputs.get("addonName") == "eks-pod-identity-agent" for r in run.of_type("aws:eks/addon:Addon"))


def test_kedas_release_waits_for_its_credentials():
    run = run_with(amp())
    [release] = [r for r in run.of_type(RELEASE) if r.inputs["chart"] == "keda"]
    [association] = [r for r in run.of_type(ASSOCIATION) if r.inputs["namespace"] == "keda"]
    [auth] = run.of_type("kubernetes:keda.sh/v1alpha1:TriggerAuthentication")
    [scaler] = run.of_type("kubernetes:keda.sh/v1alpha1:ScaledObject")

    assert association.urn in release.dependencies
    assert auth.urn in scaler.dependencies


def test_a_workspace_id_is_scoped_to_the_stacks_account_and_region():
    run = run_with(amp(WORKSPACE_ID), region="eu-west-1")
    [policy] = [r for r in run.of_type("aws:iam/rolePolicy:RolePolicy") if "keda" in r.name]
    [scaler] = objects(run, "ScaledObject")

    [statement] = json.loads(policy.inputs["policy"])["Statement"]
    assert statement["Resource"] == f"arn:aws:aps:eu-west-1:123456789012:workspace/{WORKSPACE_ID}"
    trigger = scaler.manifest["spec"]["triggers"][0]["metadata"]
    assert trigger["serverAddress"] == f"https://aps-workspaces.eu-west-1.amazonaws.com/workspaces/{WORKSPACE_ID}"


def test_the_stack_warns_that_it_writes_nothing_to_the_workspace(caplog):
    with caplog.at_level(logging.WARNING):
        run_with(amp())
    [warning] = [r.getMessage() for r in caplog.records if "Amazon Managed Service for Prometheus" in r.getMessage()]

    assert "neither creates nor writes to" in warning and "observability.monitoringNamespace (monitoring)" in warning


def test_without_a_workspace_keda_gets_no_aws_identity_and_the_triggers_no_signing(stack):
    run = stack(AUTOSCALED)
    [trigger] = objects(run, "ScaledObject")[0].manifest["spec"]["triggers"]

    assert not [r for r in run.of_type(ASSOCIATION) if r.inputs["namespace"] == "keda"]
    assert not objects(run, "TriggerAuthentication")
    assert "authenticationRef" not in trigger and "awsRegion" not in trigger["metadata"]


# kube-prometheus-stack installed by the stack.


def installed(stack, autoscaling: bool = True) -> ProgramRun:
    return stack(merge(AUTOSCALED if autoscaling else {}, {"observability": {"prometheus": {"install": True}}}))


def test_kube_prometheus_stack_comes_from_its_official_chart_selecting_every_monitor_and_rule(stack):
    run = installed(stack)
    [release] = [r for r in run.of_type(RELEASE) if r.inputs["chart"] == "kube-prometheus-stack"]
    values = release.inputs["values"]

    assert release.inputs["version"] == versions.KUBE_PROMETHEUS_STACK_VERSION
    assert release.inputs["repositoryOpts"] == {"repo": "https://prometheus-community.github.io/helm-charts"}
    assert release.inputs["namespace"] == "monitoring"
    assert values["prometheus"]["prometheusSpec"] == {
        "serviceMonitorSelectorNilUsesHelmValues": False,
        "podMonitorSelectorNilUsesHelmValues": False,
        "ruleSelectorNilUsesHelmValues": False,
    }
    # Off the GPU nodes, and no scrape of the control plane EKS runs.
    assert values["prometheus-node-exporter"] == {"tolerations": []}
    # Neither the control plane's parts nor kube-proxy (127.0.0.1:10249 on EKS) can be scraped from a pod.
    unscrapable = ("kubeControllerManager", "kubeScheduler", "kubeEtcd", "kubeProxy")
    assert [values[key]["enabled"] for key in unscrapable] == [False] * 4


def test_the_release_values_are_keys_the_pinned_chart_reads(stack):
    run = installed(stack)
    releases = [r for r in run.of_type(RELEASE) if r.inputs["chart"] == "kube-prometheus-stack"]

    [result] = helm_values.check_releases(releases)
    assert result.passed, result
    defaults = helm_values.chart_defaults()[("kube-prometheus-stack", versions.KUBE_PROMETHEUS_STACK_VERSION)]
    assert f"tag kube-prometheus-stack-{versions.KUBE_PROMETHEUS_STACK_VERSION}" in defaults["source"]
    # The subchart's default the values change, as Helm merges it under the subchart's key.
    assert defaults["values"]["prometheus-node-exporter"]["tolerations"] == [
        {"effect": "NoSchedule", "operator": "Exists"}
    ]
    misspelt = {"prometheus": {"prometheusSpec": {"serviceMonitorSelectorNilUsesHelmValue": False}}}
    assert helm_values.unknown_values(misspelt, defaults["values"]) == [
        "values.prometheus.prometheusSpec.serviceMonitorSelectorNilUsesHelmValue"
    ]


def test_keda_asks_the_installed_prometheus_and_its_policy_admits_keda(stack):
    run = installed(stack)
    [scaler] = objects(run, "ScaledObject")
    [policy] = [obj for obj in objects(run, "NetworkPolicy") if obj.namespace == "monitoring"]
    ingress = policy.manifest["spec"]["ingress"]

    assert scaler.manifest["spec"]["triggers"][0]["metadata"]["serverAddress"] == (
        "http://prometheus-operated.monitoring.svc:9090"
    )
    assert policy.manifest["spec"]["podSelector"] == {"matchLabels": {"app.kubernetes.io/name": "prometheus"}}
    assert policy.manifest["spec"]["policyTypes"] == ["Ingress"]
    peers = {
        rule["from"][0]["namespaceSelector"]["matchLabels"]["kubernetes.io/metadata.name"]: rule.get("ports")
        for rule in ingress
    }
    assert peers == {"monitoring": None, "keda": [{"protocol": "TCP", "port": 9090}]}


def test_without_keda_the_installed_prometheus_admits_only_its_namespace(stack):
    [policy] = [
        obj for obj in objects(installed(stack, autoscaling=False), "NetworkPolicy") if obj.namespace == "monitoring"
    ]

    assert len(policy.manifest["spec"]["ingress"]) == 1


def test_the_exporters_policies_admit_the_installed_scraper(stack):
    run = installed(stack)
    policies = {obj.name: obj.manifest for obj in objects(run, "NetworkPolicy") if obj.namespace != "monitoring"}
    scraper = {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}}}

    assert {"vllm-server", "dcgm-exporter"} <= set(policies)
    for name in ("vllm-server", "dcgm-exporter"):
        assert any(scraper in rule["from"] for rule in policies[name]["spec"]["ingress"]), name


def test_the_monitors_and_rules_are_created_for_the_installed_operator_after_its_crds(stack):
    run = installed(stack)
    [release] = [r for r in run.of_type(RELEASE) if r.inputs["chart"] == "kube-prometheus-stack"]
    [namespace] = [obj for obj in objects(run, "Namespace") if obj.name == "monitoring"]
    monitors = run.of_type("kubernetes:monitoring.coreos.com/v1:ServiceMonitor")
    [component] = run.of_type("eks-gpu-inference:index:PrometheusMonitors")

    assert {monitor.name.split("-monitors-")[1] for monitor in monitors} == {"vllm-server", "dcgm-exporter"}
    assert run.of_type("kubernetes:monitoring.coreos.com/v1:PrometheusRule")
    # Depending on the component waits for each of its children, the release (with the CRDs) among them.
    assert release.urn in component.dependencies
    # The node exporter runs hostNetwork and hostPID: the namespace allows it.
    assert namespace.manifest["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "privileged"
    # The pods carry no scrape annotations: the ServiceMonitors select them.
    for deployment in objects(run, "Deployment"):
        annotations = deployment.manifest["spec"]["template"]["metadata"].get("annotations") or {}
        assert "prometheus.io/scrape" not in annotations


def test_the_dev_stack_installs_no_prometheus(dev_run):
    assert not [r for r in dev_run.of_type(RELEASE) if r.inputs.get("chart") == "kube-prometheus-stack"]


# The KV-cache trigger.


def test_a_kv_cache_target_adds_a_trigger_on_the_models_average_usage(stack):
    run = stack({"vllm": {"autoscaling": {"enabled": True, "targetKvCacheUsage": 0.75}}})
    [scaler] = objects(run, "ScaledObject")
    queue, kv = scaler.manifest["spec"]["triggers"]

    assert kv["metadata"]["query"] == kv_cache_query("vllm", "vllm-server", "Qwen/Qwen2.5-7B-Instruct")
    assert kv["metadata"]["query"] == (
        'avg(vllm:kv_cache_usage_perc{namespace="vllm", pod=~"vllm-server-[a-z0-9]+-[a-z0-9]+", '
        'model_name="Qwen/Qwen2.5-7B-Instruct"})'
    )
    assert kv["metadata"]["threshold"] == "0.75"
    # Already an average: the HorizontalPodAutoscaler compares it as a Value, not per replica.
    assert kv["metricType"] == "Value" and "metricType" not in queue
    assert kv["metadata"]["serverAddress"] == queue["metadata"]["serverAddress"]
    assert "vllm:kv_cache_usage_perc" in QUERY_METRICS
    assert crd_schema.validation_errors(scaler.manifest) == []


def test_the_kv_cache_trigger_signs_like_the_queue_trigger():
    [scaler] = objects(run_with(amp(targetKvCacheUsage=0.9)), "ScaledObject")
    queue, kv = scaler.manifest["spec"]["triggers"]

    assert kv["authenticationRef"] == queue["authenticationRef"]
    assert kv["metadata"]["awsRegion"] == queue["metadata"]["awsRegion"] == "us-west-2"


def test_the_hpa_the_dashboard_joins_on_is_named_after_the_server_and_its_service(stack):
    from components.autoscaling.keda_manifests import HPA_NAME_PREFIX

    run = stack(AUTOSCALED)
    [scaler] = objects(run, "ScaledObject")
    services = {obj.name for obj in objects(run, "Service") if obj.namespace == scaler.namespace}

    # The ScaledObject sets no HPA name, so KEDA names it keda-hpa-<ScaledObject>; the server's Service and
    # Deployment share that name, which the dashboard reads back from the `service` label.
    assert "name" not in scaler.manifest["spec"]["advanced"]["horizontalPodAutoscalerConfig"]
    assert scaler.name in services
    assert scaler.manifest["spec"]["scaleTargetRef"]["name"] == scaler.name
    assert HPA_NAME_PREFIX == "keda-hpa-"


def test_promtool_evaluates_the_panels_desired_and_ready_replicas_per_model(tmp_path):
    import subprocess

    import yaml

    from tests.support.dashboards import DASHBOARD
    from tests.support.promtool import promtool

    [panel] = [
        p for p in json.loads(DASHBOARD.read_text())["panels"] if p.get("title", "").startswith("Replicas desired")
    ]
    exprs = {t["refId"]: t["expr"].replace("$model_name", ".*") for t in panel["targets"]}
    rules = tmp_path / "panel.yaml"
    rules.write_text(
        yaml.safe_dump(
            {
                "groups": [
                    {"name": "panel", "rules": [{"record": f"panel:{ref}", "expr": e} for ref, e in exprs.items()]}
                ]
            }
        )
    )
    vllm = 'vllm:num_requests_waiting{{namespace="{ns}",service="{svc}",pod="{pod}",model_name="{model}"}}'
    series = [
        # Two servers: qwen with two replicas scraped, llama with one.
        {"series": vllm.format(ns="vllm", svc="qwen", pod="qwen-a", model="qwen"), "values": "3x5"},
        {"series": vllm.format(ns="vllm", svc="qwen", pod="qwen-b", model="qwen"), "values": "3x5"},
        {"series": vllm.format(ns="vllm", svc="llama", pod="llama-a", model="llama"), "values": "0x5"},
        {
            "series": 'kube_horizontalpodautoscaler_status_desired_replicas{namespace="vllm",'
            'horizontalpodautoscaler="keda-hpa-qwen"}',
            "values": "4x5",
        },
        {
            "series": 'kube_horizontalpodautoscaler_status_desired_replicas{namespace="vllm",'
            'horizontalpodautoscaler="keda-hpa-llama"}',
            "values": "1x5",
        },
        # An HPA of something else in the namespace is no model's.
        {
            "series": 'kube_horizontalpodautoscaler_status_desired_replicas{namespace="vllm",'
            'horizontalpodautoscaler="other"}',
            "values": "9x5",
        },
        {"series": 'kube_deployment_status_replicas_ready{namespace="vllm",deployment="qwen"}', "values": "2x5"},
        {"series": 'kube_deployment_status_replicas_ready{namespace="vllm",deployment="llama"}', "values": "1x5"},
    ]
    cases = {
        "C": [('{model_name="llama"}', 1), ('{model_name="qwen"}', 4)],
        "D": [('{model_name="llama"}', 1), ('{model_name="qwen"}', 2)],
    }
    tests = tmp_path / "panel_test.yaml"
    tests.write_text(
        yaml.safe_dump(
            {
                "rule_files": [rules.name],
                "evaluation_interval": "1m",
                "tests": [
                    {
                        "interval": "1m",
                        "input_series": series,
                        "promql_expr_test": [
                            {
                                "expr": f"panel:{ref}",
                                "eval_time": "2m",
                                "exp_samples": [
                                    {"labels": f"panel:{ref}{labels}", "value": value} for labels, value in expected
                                ],
                            }
                            for ref, expected in cases.items()
                        ],
                    }
                ],
            }
        )
    )
    result = subprocess.run([promtool(), "test", "rules", tests.name], cwd=tmp_path, capture_output=True, text=True)

    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("stack_file", "checked"),
    [
        pytest.param(
            "Pulumi.amp-kv-cache.yaml",
            {"TriggerAuthentication vllm/vllm-server-aws", "ScaledObject vllm/vllm-server"},
            id="amp workspace by id",
        ),
        pytest.param(
            "Pulumi.prometheus-installed.yaml",
            {"Release monitoring/kube-prometheus-stack", "NetworkPolicy monitoring/prometheus"},
            id="kube-prometheus-stack installed",
        ),
    ],
)
def test_the_offline_plan_checks_what_each_choice_registers(stack_file, checked, tmp_path):
    from conftest import ROOT, plan_stack_file

    code, document = plan_stack_file(ROOT / "tests" / "stacks" / stack_file, tmp_path)
    results = {result["object"]: result for result in document["schema"]}

    assert code == 0, document["failures"]
    assert checked <= set(results)
    assert all(results[name]["passed"] and results[name]["checked"] for name in checked)
    if "amp" in stack_file:
        requests = {(r["type"], r["name"]): r for r in document["awsRequests"]}
        assert requests[("aws:iam/rolePolicy:RolePolicy", "gpu-inference-amp-keda-query")]["passed"]
        assert requests[
            ("aws:eks/podIdentityAssociation:PodIdentityAssociation", "gpu-inference-amp-keda-pod-identity")
        ]["passed"]
        assert any("writes to" in warning for warning in document["warnings"])


def test_a_workspace_no_autoscaled_model_queries_is_warned_of_and_gets_no_identity(caplog):
    with caplog.at_level(logging.WARNING):
        run = run_with({"observability": {"prometheus": {"ampWorkspace": ARN}}})
    messages = [record.getMessage() for record in caplog.records]

    assert any("no model autoscales: KEDA is not installed and nothing queries the workspace" in m for m in messages)
    assert not [r for r in run.of_type(ASSOCIATION) if r.inputs["namespace"] == "keda"]
