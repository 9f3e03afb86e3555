"""The fleet form's alerts: each model with replicas watched on its own, so one model down is not hidden by the
others; evaluated by promtool over the series a cluster produces."""

from __future__ import annotations

from typing import Any

import pytest

from components.args.coerce import ArgumentError
from components.observability.alert_rules import rule_groups
from components.observability.monitoring import PrometheusMonitors, PrometheusMonitorsArgs, vllm_target
from tests.support.alert_rules import registered_groups
from tests.support.fleet_stack import fleet_config, run_fleet
from tests.support.promtool import alert_test, case, run_rule_tests

SMALL = "Qwen/Qwen2.5-1.5B-Instruct"
BIG = "meta-llama/Llama-3.3-70B-Instruct"


@pytest.fixture(scope="module")
def fleet_groups(tmp_path_factory) -> list[dict[str, Any]]:
    document = fleet_config(observability={"prometheusOperator": True})
    # A model at zero replicas is expected to be absent: it is not watched.
    document["config"]["eks-gpu-inference:models"][2]["replicas"] = 0
    return registered_groups(run_fleet(document, tmp_path_factory.mktemp("fleet-alerts")))


def test_each_model_with_replicas_has_its_own_no_server_alert(fleet_groups):
    no_server = [rule["expr"] for group in fleet_groups for rule in group["rules"] if rule["alert"] == "VllmNoPodReady"]

    assert no_server == [
        f'absent(vllm:num_requests_running{{model_name="{SMALL}"}})',
        'absent(vllm:num_requests_running{model_name="meta-llama/Llama-3.1-8B-Instruct"})',
        f'absent(vllm:num_requests_running{{model_name="{BIG}"}})',
    ]
    [waiting] = [rule for group in fleet_groups for rule in group["rules"] if rule["alert"] == "VllmRequestsWaiting"]
    assert waiting["expr"].startswith("sum by (model_name) (vllm:num_requests_waiting) >")


def test_the_gpu_memory_alert_sits_above_the_largest_budget_any_model_takes(tmp_path):
    document = fleet_config(observability={"prometheusOperator": True})
    document["config"]["eks-gpu-inference:models"][3]["gpuMemoryUtilization"] = 0.8
    document["config"]["eks-gpu-inference:models"][0]["gpuMemoryUtilization"] = 0.92
    groups = registered_groups(run_fleet(document, tmp_path))

    [memory] = [rule for group in groups for rule in group["rules"] if rule["alert"] == "GpuMemoryNearlyFull"]
    # The largest budget, 0.92: a healthy server uses 0.92 + 0.4 / 15 = 0.946667 of a T4 (facts/vllm_startup.py),
    # and the threshold is halfway from there to full memory.
    assert memory["expr"].endswith("> 0.9733")


def test_one_model_down_fires_for_that_model_while_the_others_are_scraped(fleet_groups, tmp_path):
    def running(model: str) -> str:
        return f'vllm:num_requests_running{{model_name="{model}",engine="0",pod="p"}}'

    [rule] = [r for g in fleet_groups for r in g["rules"] if r["alert"] == "VllmNoPodReady"][:1]
    alert = {
        "exp_labels": {"model_name": BIG, "severity": "critical"},
        "exp_annotations": dict(rule["annotations"]),
    }
    run_rule_tests(
        tmp_path,
        fleet_groups,
        [
            # The 70B server is scraped for 20 minutes, then gone; the small ones stay up throughout.
            case(
                {
                    running(SMALL): "1x60",
                    running("meta-llama/Llama-3.1-8B-Instruct"): "1x60",
                    running(BIG): "1x20",
                },
                alert_test("15m", "VllmNoPodReady"),
                alert_test("40m", "VllmNoPodReady", alert),
            )
        ],
    )


def test_watched_models_and_one_servers_inputs_do_not_mix():
    args = PrometheusMonitorsArgs(
        targets=[vllm_target("s", "ns", "server")], watched_models=["a"], vllm_model_name="a", replicas=1
    )
    with pytest.raises(ArgumentError) as error:
        PrometheusMonitors("monitors", args)

    assert "PrometheusMonitors(monitors).args.watched_models: given with vllm_model_name and replicas; allowed: " in (
        str(error.value)
    )


def test_the_rule_file_for_one_server_is_unchanged_by_the_fleets_input():
    one = rule_groups(0.9, 2, "m")
    assert [r["alert"] for r in one[1]["rules"]] == ["VllmRequestsWaiting", "VllmNoPodReady"]
    assert [r["alert"] for r in rule_groups(watched_models=[])[1]["rules"]] == ["VllmRequestsWaiting"]
