"""Replicas that follow vLLM's queue: `vllm.autoscaling` (and each model's) read by the real program under mocks,
KEDA's pinned chart on the system nodes, one ScaledObject per autoscaled model, valid against KEDA's CRD."""

from __future__ import annotations

import re

import pytest
import yaml

from components.args.coerce import StackConfigError
from components.autoscaling.keda_manifests import compatibility_warning
from components.facts import versions
from components.stackcheck.plan import crd_schema
from components.stackcheck.plan.render import kubernetes_objects
from components.stackcheck.runtime import ProgramRun
from components.stackcheck.stack_config import load_stack_config
from components.vllm.scaling_manifests import QUERY_METRICS, queue_query
from tests.support.keda import ROOT, exported_metrics

SCALED_OBJECT = "kubernetes:keda.sh/v1alpha1:ScaledObject"
RELEASE = "kubernetes:helm.sh/v3:Release"
AUTOSCALED = {"vllm": {"autoscaling": {"enabled": True, "minReplicas": 1, "maxReplicas": 3}}}


def scaled_object(run: ProgramRun) -> dict:
    [obj] = [obj for obj in kubernetes_objects(run.resources) if obj.kind == "ScaledObject"]
    return obj.manifest


def test_the_dev_stack_installs_no_keda_and_no_scaled_object(dev_run):
    types = {resource.type for resource in dev_run.resources}

    assert SCALED_OBJECT not in types
    assert RELEASE not in types
    assert "eks-gpu-inference:index:Keda" not in types


def test_an_autoscaled_server_gets_a_scaled_object_on_its_own_deployment(stack):
    run = stack(AUTOSCALED)
    [deployment] = [
        obj for obj in kubernetes_objects(run.resources) if obj.kind == "Deployment" and obj.namespace == "vllm"
    ]
    spec = scaled_object(run)["spec"]

    assert spec["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": deployment.name}
    assert scaled_object(run)["metadata"]["namespace"] == deployment.namespace
    assert (spec["minReplicaCount"], spec["maxReplicaCount"], spec["pollingInterval"]) == (1, 3, 30)
    assert spec["advanced"]["horizontalPodAutoscalerConfig"]["behavior"]["scaleDown"] == {
        "stabilizationWindowSeconds": 3600
    }


def test_the_trigger_sums_the_queue_of_the_served_model_name(stack):
    run = stack(merge_autoscaling({"servedModelName": "qwen", "autoscaling": {"targetWaitingPerReplica": 8}}))
    [trigger] = scaled_object(run)["spec"]["triggers"]

    assert trigger["type"] == "prometheus"
    # The dev stack's server: namespace vllm, Deployment vllm-server; its pods are vllm-server-<hash>-<suffix>.
    assert trigger["metadata"]["query"] == (
        'sum(vllm:num_requests_waiting{namespace="vllm", pod=~"vllm-server-[a-z0-9]+-[a-z0-9]+", model_name="qwen"})'
    )
    assert trigger["metadata"]["threshold"] == "8"


def test_the_scaler_asks_the_operators_prometheus_unless_a_url_is_given(stack):
    default = scaled_object(stack(AUTOSCALED))["spec"]["triggers"][0]["metadata"]["serverAddress"]
    given = stack({**AUTOSCALED, "observability": {"prometheus": {"url": "https://prom.example.com:9090"}}})

    assert default == "http://prometheus-operated.monitoring.svc:9090"
    assert scaled_object(given)["spec"]["triggers"][0]["metadata"]["serverAddress"] == "https://prom.example.com:9090"


def test_every_metric_the_scalers_query_is_exported_by_the_pinned_vllm(stack):
    query = scaled_object(stack(AUTOSCALED))["spec"]["triggers"][0]["metadata"]["query"]
    named = set(re.findall(r"vllm:[a-z_:]+", query))

    assert named and named <= set(QUERY_METRICS) <= exported_metrics()


def test_a_model_name_with_a_quote_stays_inside_the_promql_string():
    assert queue_query("ns", "s", 'a"b\\c') == (
        'sum(vllm:num_requests_waiting{namespace="ns", pod=~"s-[a-z0-9]+-[a-z0-9]+", model_name="a\\"b\\\\c"})'
    )


@pytest.mark.parametrize(
    ("pod", "matches"),
    [
        ("chat-7d9f8c6b5-x2k4q", True),  # the server's own pod
        ("chat-v2-7d9f8c6b5-x2k4q", False),  # the migration recipe's new server beside it, same served name
        ("chat", False),
        ("chatbot-7d9f8c6b5-x2k4q", False),
    ],
)
def test_the_pod_matcher_selects_the_servers_own_pods_only(pod, matches):
    # PromQL matches a regex against the whole value (Prometheus docs, "Time series selectors": "Regex matches are
    # fully anchored"), as Python's fullmatch does.
    pattern = re.search(r'pod=~"([^"]+)"', queue_query("vllm", "chat", "qwen")).group(1)

    assert bool(re.fullmatch(pattern, pod)) is matches


def test_two_servers_of_one_served_name_scale_on_their_own_queues(stack):
    run = stack(
        {
            "vllm": None,
            "gpuNodeGroup": None,
            "gpuPools": {"a10g": {"instanceTypes": ["g5.xlarge"], "maxSize": 4}},
            "models": [
                {
                    "name": name,
                    "model": "Qwen/Qwen2.5-7B-Instruct",
                    "servedModelName": "qwen",
                    "pool": "a10g",
                    "autoscaling": {"enabled": True},
                }
                for name in ("chat", "chat-v2")
            ],
        }
    )
    queries = {
        obj.namespace: obj.manifest["spec"]["triggers"][0]["metadata"]["query"]
        for obj in kubernetes_objects(run.resources)
        if obj.kind == "ScaledObject"
    }

    assert queries == {
        "chat": 'sum(vllm:num_requests_waiting{namespace="chat", pod=~"chat-[a-z0-9]+-[a-z0-9]+", model_name="qwen"})',
        "chat-v2": 'sum(vllm:num_requests_waiting{namespace="chat-v2", pod=~"chat-v2-[a-z0-9]+-[a-z0-9]+", '
        'model_name="qwen"})',
    }


def test_the_registered_scaled_object_is_valid_against_kedas_crd_schema(stack):
    manifest = scaled_object(stack(AUTOSCALED))

    assert crd_schema.known("keda.sh/v1alpha1", "ScaledObject")
    assert crd_schema.validation_errors(manifest) == []


def test_the_crd_schema_refuses_a_scaled_object_keda_would_refuse(stack):
    manifest = scaled_object(stack(AUTOSCALED))
    manifest["spec"]["maxReplicaCount"] = "3"
    manifest["spec"]["triggers"][0]["metadata"]["threshold"] = 5

    errors = crd_schema.validation_errors(manifest)

    assert any(error.startswith("spec.maxReplicaCount:") for error in errors)
    assert any(error.startswith("spec.triggers[0].metadata.threshold:") for error in errors)


def test_the_committed_crd_names_the_pinned_keda_release():
    document = crd_schema.crd_schemas()[("keda.sh/v1alpha1", "ScaledObject")]

    assert document["source"].startswith(f"kedacore/keda v{versions.KEDA_VERSION} ")


def test_keda_comes_from_its_official_chart_at_the_pinned_version(stack):
    run = stack(AUTOSCALED)
    [release] = run.of_type(RELEASE)

    assert release.inputs["chart"] == "keda"
    assert release.inputs["version"] == versions.KEDA_VERSION
    assert release.inputs["repositoryOpts"] == {"repo": "https://kedacore.github.io/charts"}
    assert release.inputs["namespace"] == "keda"
    # No values: the chart's pods keep its empty tolerations, so the GPU taint keeps them on the system nodes.
    assert not release.inputs.get("values")


def test_kedas_namespace_enforces_the_restricted_pod_security_standard(stack):
    [namespace] = [obj for obj in kubernetes_objects(stack(AUTOSCALED).resources) if obj.name == "keda"]

    assert namespace.manifest["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"


def test_the_scaled_object_waits_for_kedas_release_which_installs_its_crd(stack):
    run = stack(AUTOSCALED)
    [release] = run.of_type(RELEASE)
    [scaler] = run.of_type(SCALED_OBJECT)

    assert release.urn in scaler.dependencies


def test_the_deployment_leaves_the_replica_count_to_keda_only_when_autoscaled(stack, dev_run):
    def server_deployment(run):
        [deployment] = [r for r in run.of_type("kubernetes:apps/v1:Deployment") if r.name.endswith("-vllm-deployment")]
        return deployment

    assert server_deployment(stack(AUTOSCALED)).ignore_changes == ("spec.replicas",)
    assert server_deployment(dev_run).ignore_changes == ()


def test_the_disruption_budget_still_lets_a_node_drain_when_autoscaled(stack):
    [budget] = [
        obj
        for obj in kubernetes_objects(stack(AUTOSCALED).resources)
        if obj.kind == "PodDisruptionBudget" and obj.namespace == "vllm"
    ]

    assert budget.manifest["spec"]["maxUnavailable"] == 1


def test_each_autoscaled_model_of_the_fleet_gets_its_own_scaled_object(tmp_path):
    from components.stackcheck.runtime import run_program

    fleet = ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml"
    document = yaml.safe_load(fleet.read_text())
    models = document["config"]["eks-gpu-inference:models"]
    models[1]["autoscaling"] = {"enabled": True, "maxReplicas": 2}
    stack_file = tmp_path / "Pulumi.fleet.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    config = load_stack_config(ROOT, stack_file=stack_file)
    run = run_program(
        config.program, config.values, project=config.project, stack=config.stack, secret_keys=config.secret_keys
    )
    scalers = [obj for obj in kubernetes_objects(run.resources) if obj.kind == "ScaledObject"]

    assert [scaler.manifest["spec"]["scaleTargetRef"]["name"] for scaler in scalers] == [models[1]["name"]]
    assert len(run.of_type(RELEASE)) == 1


@pytest.mark.parametrize(
    ("autoscaling", "key", "says"),
    [
        ({"minReplicas": 0}, "vllm.autoscaling.minReplicas", "at 0 replicas vLLM exports no metrics"),
        ({"minReplicas": 3, "maxReplicas": 2}, "vllm.autoscaling.maxReplicas", "below minReplicas 3"),
        ({"scaleDownStabilizationSeconds": 3601}, "vllm.autoscaling.scaleDownStabilizationSeconds", "0-3600"),
        ({"targetWaitingPerReplica": 0}, "vllm.autoscaling.targetWaitingPerReplica", "an integer >= 1"),
    ],
    ids=["scale to zero without a demand source", "max below min", "window over an hour", "no target"],
)
def test_a_bad_autoscaling_value_is_refused_naming_its_key_before_anything_registers(stack, autoscaling, key, says):
    run = ProgramRun()
    with pytest.raises(StackConfigError) as error:
        stack({"vllm": {"autoscaling": {"enabled": True, **autoscaling}}}, run=run)

    assert any(
        str(problem).startswith(f"eks-gpu-inference:{key}:") and says in str(problem)
        for problem in error.value.problems
    )
    assert run.resources == []


def test_every_bad_autoscaling_value_is_reported_at_once(stack):
    with pytest.raises(StackConfigError) as error:
        stack({"vllm": {"autoscaling": {"minReplicas": -1, "pollingIntervalSeconds": 0, "maxReplicas": 0}}})

    keys = sorted(str(problem).split(": ")[0] for problem in error.value.problems)
    assert keys == [
        f"eks-gpu-inference:vllm.autoscaling.{key}" for key in ("maxReplicas", "minReplicas", "pollingIntervalSeconds")
    ]


@pytest.mark.parametrize(
    ("version", "warns"),
    [("1.32", True), ("1.33", False), ("1.35", False), ("1.36", True)],
    ids=["below-window", "oldest-tested", "newest-tested", "above-window"],
)
def test_a_cluster_version_outside_kedas_tested_window_warns(version, warns):
    warning = compatibility_warning(version)

    assert (warning is not None) is warns
    if warns:
        assert f"cluster.version {version}" in warning and versions.KEDA_VERSION in warning


def merge_autoscaling(vllm: dict) -> dict:
    autoscaling = {**AUTOSCALED["vllm"]["autoscaling"], **vllm.pop("autoscaling", {})}
    return {"vllm": {**vllm, "autoscaling": autoscaling}}


def test_a_claim_for_the_weights_is_refused_when_autoscaling_may_add_a_second_replica(stack):
    with pytest.raises(StackConfigError) as error:
        stack({"vllm": {"modelCache": {"type": "pvc"}, "autoscaling": {"enabled": True, "maxReplicas": 2}}})

    [problem] = error.value.problems
    assert str(problem).startswith("eks-gpu-inference:vllm.modelCache.type: 'pvc' with autoscaling.maxReplicas 2")


COMPONENT_ARGS = {
    "autoscaled-server": (
        """
        from components.vllm.args import AutoscalingArgs
        from components.vllm.server import VllmServer, VllmServerArgs

        VllmServer("chat", VllmServerArgs(autoscaling=AutoscalingArgs(enabled=True, min_replicas=-1,
                                                                      polling_interval_seconds=0)))
        """,
        [
            "VllmServer(chat).args.autoscaling.min_replicas: invalid value -1",
            "VllmServer(chat).args.autoscaling.polling_interval_seconds: invalid value 0",
        ],
    ),
    "keda-version": (
        """
        from components.autoscaling.keda import Keda, KedaArgs

        Keda("keda", KedaArgs(version="latest"))
        """,
        ["Keda(keda).args.version: 'latest' is not a chart release"],
    ),
    "keda-amp-without-cluster": (
        """
        from components.autoscaling.keda import Keda, KedaArgs

        Keda("keda", KedaArgs(amp_workspace_arn="arn:aws:aps:us-west-2:123456789012:workspace/ws-1"))
        """,
        ["Keda(keda).args.cluster_name: none, given amp_workspace_arn"],
    ),
    "prometheus-stack-namespace": (
        """
        from components.observability.prometheus_stack import PrometheusStack, PrometheusStackArgs

        PrometheusStack("prom", PrometheusStackArgs(monitoring_namespace="Monitoring"))
        """,
        ["PrometheusStack(prom).args.monitoring_namespace:"],
    ),
}


@pytest.mark.parametrize("case", sorted(COMPONENT_ARGS))
def test_bad_component_args_fail_naming_each_argument_before_anything_registers(tmp_path, case):
    from tests.support.component_args import assert_refused_before_registering

    source, keys = COMPONENT_ARGS[case]
    assert_refused_before_registering(tmp_path, source, keys)
