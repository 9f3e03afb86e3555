"""The at-max alert of an autoscaled model, as the program registers it, evaluated by promtool: it fires when the
model runs its maxReplicas with requests waiting for 10 minutes, and not when it can still scale or has no queue."""

from __future__ import annotations

import re

from tests.support.alert_rules import OPERATOR, registered_groups, rule
from tests.support.promtool import alert_test, case, check_rules, run_rule_tests

MODEL = "Qwen/Qwen2.5-7B-Instruct"
AUTOSCALED = {**OPERATOR, "vllm": {"autoscaling": {"enabled": True, "minReplicas": 1, "maxReplicas": 2}}}


def waiting(instance: str) -> str:
    return f'vllm:num_requests_waiting{{model_name="{MODEL}",engine="0",instance="{instance}"}}'


def at_max(groups) -> dict:
    found = rule(groups, "VllmAtMaxReplicas")
    return {
        "exp_labels": {"model_name": MODEL, "severity": "warning"},
        "exp_annotations": {
            "summary": f"{MODEL} has run its 2 replicas (maxReplicas) with requests waiting for 10 minutes",
            "description": found["annotations"]["description"],
        },
    }


def test_only_an_autoscaled_model_has_the_at_max_alert(stack):
    assert rule(registered_groups(stack(OPERATOR)), "VllmAtMaxReplicas") is None
    assert rule(registered_groups(stack(AUTOSCALED)), "VllmAtMaxReplicas") is not None


def test_the_registered_at_max_alert_passes_promtool_check(stack, tmp_path):
    completed = check_rules(tmp_path, registered_groups(stack(AUTOSCALED)))

    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_the_at_max_alert_fires_after_10_minutes_at_max_replicas_with_a_queue(stack, tmp_path):
    groups = registered_groups(stack(AUTOSCALED))
    run_rule_tests(
        tmp_path,
        groups,
        [
            # Two replicas (the maximum), 3 requests waiting on each from the start: pending until 10m, firing
            # after, resolved once the queue empties at 30m.
            case(
                {waiting("10.0.1.5:8000"): "3x29 0x20", waiting("10.0.2.7:8000"): "3x29 0x20"},
                alert_test("9m", "VllmAtMaxReplicas"),
                alert_test("11m", "VllmAtMaxReplicas", at_max(groups)),
                alert_test("29m", "VllmAtMaxReplicas", at_max(groups)),
                alert_test("31m", "VllmAtMaxReplicas"),
            ),
            # One replica of two with a queue: KEDA can still add one, so no alert.
            case({waiting("10.0.1.5:8000"): "9x40"}, alert_test("20m", "VllmAtMaxReplicas")),
            # Two replicas with nothing waiting: at the maximum, but not short of capacity.
            case(
                {waiting("10.0.1.5:8000"): "0x40", waiting("10.0.2.7:8000"): "0x40"},
                alert_test("20m", "VllmAtMaxReplicas"),
            ),
            # Another model's replicas do not count towards this one's.
            case(
                {
                    waiting("10.0.1.5:8000"): "4x40",
                    'vllm:num_requests_waiting{model_name="other",engine="0",instance="10.0.3.9:8000"}': "4x40",
                },
                alert_test("20m", "VllmAtMaxReplicas"),
            ),
        ],
    )


def test_the_at_max_alert_reads_only_metrics_the_pinned_vllm_exports(stack):
    from tests.support.keda import exported_metrics

    expr = rule(registered_groups(stack(AUTOSCALED)), "VllmAtMaxReplicas")["expr"]
    named = set(re.findall(r"vllm:[a-z_:]+", expr))

    assert named == {"vllm:num_requests_waiting"} and named <= exported_metrics()


def served(instance: str, service: str = "vllm-server", model: str = MODEL) -> str:
    return (
        f'vllm:num_requests_waiting{{model_name="{model}",engine="0",instance="{instance}",namespace="vllm",'
        f'service="{service}"}}'
    )


def desired(hpa: str = "keda-hpa-vllm-server") -> str:
    return f'kube_horizontalpodautoscaler_status_desired_replicas{{namespace="vllm",horizontalpodautoscaler="{hpa}"}}'


def behind(groups) -> dict:
    found = rule(groups, "VllmReplicasBehindDesired")
    return {
        "exp_labels": {"model_name": MODEL, "severity": "warning"},
        "exp_annotations": {
            "summary": f"{MODEL} has served fewer replicas than KEDA desires for 30m",
            "description": found["annotations"]["description"],
        },
    }


def test_the_behind_desired_alert_fires_when_keda_desires_more_replicas_than_serve_for_30_minutes(stack, tmp_path):
    groups = registered_groups(stack(AUTOSCALED))
    assert rule(registered_groups(stack(OPERATOR)), "VllmReplicasBehindDesired") is None
    run_rule_tests(
        tmp_path,
        groups,
        [
            # KEDA desires 2, one replica serves until the second is scraped at 45m: pending until 30m, firing
            # after, resolved once both serve.
            case(
                {desired(): "2x60", served("10.0.1.5:8000"): "4x60", served("10.0.2.7:8000"): "_x45 1x15"},
                alert_test("29m", "VllmReplicasBehindDesired"),
                alert_test("31m", "VllmReplicasBehindDesired", behind(groups)),
                alert_test("44m", "VllmReplicasBehindDesired", behind(groups)),
                alert_test("46m", "VllmReplicasBehindDesired"),
            ),
            # As many serving as desired: no alert.
            case(
                {desired(): "2x40", served("10.0.1.5:8000"): "0x40", served("10.0.2.7:8000"): "0x40"},
                alert_test("35m", "VllmReplicasBehindDesired"),
            ),
            # Another server's HorizontalPodAutoscaler is not this model's.
            case(
                {desired("keda-hpa-other"): "3x40", served("10.0.1.5:8000"): "0x40"},
                alert_test("35m", "VllmReplicasBehindDesired"),
            ),
            # No kube-state-metrics: no desired count, no alert.
            case({served("10.0.1.5:8000"): "9x40"}, alert_test("35m", "VllmReplicasBehindDesired")),
        ],
    )


def test_the_behind_desired_alert_reads_only_metrics_the_pinned_exporters_expose(stack):
    from tests.support.dashboards import KSM_LIST, VLLM_LIST, exposed, metric_names

    expr = rule(registered_groups(stack(AUTOSCALED)), "VllmReplicasBehindDesired")["expr"]

    assert metric_names(expr) == {"kube_horizontalpodautoscaler_status_desired_replicas", "vllm:num_requests_waiting"}
    assert metric_names(expr) <= exposed(KSM_LIST) | exposed(VLLM_LIST)
