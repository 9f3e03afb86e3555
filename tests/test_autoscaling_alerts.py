"""The at-max alert of an autoscaled model, as the program registers it, evaluated by promtool: it fires when the
model runs its maxReplicas with requests waiting for 10 minutes, and not when it can still scale or has no queue."""

from __future__ import annotations

import re

from promtool import alert_test, case, check_rules, run_rule_tests

from tests.test_alert_rules import OPERATOR, registered_groups, rule

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
    from tests.test_keda import exported_metrics

    expr = rule(registered_groups(stack(AUTOSCALED)), "VllmAtMaxReplicas")["expr"]
    named = set(re.findall(r"vllm:[a-z_:]+", expr))

    assert named == {"vllm:num_requests_waiting"} and named <= exported_metrics()
