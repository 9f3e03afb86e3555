"""The alert rules evaluated by promtool over series a cluster produces: each alert fires, stays silent and
resolves when it should, in the committed rules file and in the PrometheusRule the program registers."""

from __future__ import annotations

from typing import Any

import pytest

from components.observability.alert_rules import rule_groups
from components.observability.monitoring import ALERT_RULES_FILE, alert_rule_groups
from tests.support.alert_rules import OPERATOR, registered_groups
from tests.support.promtool import alert_test, case, check_rules, run, run_rule_tests

MODEL = "Qwen/Qwen2.5-7B-Instruct"
GPU = 'gpu="0",UUID="GPU-0",Hostname="gpu-node-1"'
GPU_LABELS = {"gpu": "0", "UUID": "GPU-0", "Hostname": "gpu-node-1"}


def description(groups: list[dict[str, Any]], alertname: str) -> str:
    [found] = [r for g in groups for r in g["rules"] if r.get("alert") == alertname]
    return found["annotations"]["description"]


def fired(groups, alertname: str, labels: dict[str, str], severity: str, summary: str) -> dict[str, Any]:
    return {
        "exp_labels": {**labels, "severity": severity},
        "exp_annotations": {"summary": summary, "description": description(groups, alertname)},
    }


def test_committed_rules_file_passes_promtool_check(tmp_path):
    completed = run("check", "rules", ALERT_RULES_FILE, cwd=tmp_path)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "SUCCESS: 5 rules found" in completed.stdout


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param({}, id="dev-stack"),
        pytest.param(
            {"vllm": {"gpuMemoryUtilization": 0.97, "servedModelName": 'chat "v2" \\ beta', "replicas": 3}},
            id="quoted-served-name",
        ),
        pytest.param({"vllm": {"replicas": 0, "gpuMemoryUtilization": 0.99}}, id="zero-replicas-no-memory-rule"),
        pytest.param({"vllm": {"enabled": False}}, id="no-vllm"),
    ],
)
def test_registered_rules_pass_promtool_check(stack, tmp_path, overrides):
    groups = registered_groups(stack({**OPERATOR, **overrides}))
    completed = check_rules(tmp_path, groups)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def xid_cases(groups) -> list[dict[str, Any]]:
    def hardware(gpu_labels, xid):
        summary = f"GPU {gpu_labels['gpu']} on gpu-node-1 reported XID {xid}"
        return fired(groups, "GpuXidHardwareError", gpu_labels, "critical", summary)

    def application(gpu_labels, xid):
        summary = f"GPU {gpu_labels['gpu']} on gpu-node-1 reported XID {xid}"
        return fired(groups, "GpuXidError", gpu_labels, "warning", summary)

    second = {**GPU_LABELS, "gpu": "1", "UUID": "GPU-1"}
    return [
        # XID 79 (fallen off the bus) at 11m: critical at once, still within the hour, resolved after it, and
        # not 4 hours later although the field still holds 79.
        case(
            {f"DCGM_FI_DEV_XID_ERRORS{{{GPU}}}": "0x10 79x300"},
            alert_test("10m", "GpuXidHardwareError"),
            alert_test("11m", "GpuXidHardwareError", hardware(GPU_LABELS, 79)),
            alert_test("70m", "GpuXidHardwareError", hardware(GPU_LABELS, 79)),
            alert_test("72m", "GpuXidHardwareError"),
            alert_test("250m", "GpuXidHardwareError"),
            alert_test("11m", "GpuXidError"),
        ),
        # XID 13 (an application's graphics engine exception): a warning, never critical, and it resolves.
        case(
            {f"DCGM_FI_DEV_XID_ERRORS{{{GPU}}}": "0x10 13x100"},
            alert_test("12m", "GpuXidError", application(GPU_LABELS, 13)),
            alert_test("12m", "GpuXidHardwareError"),
            alert_test("72m", "GpuXidError"),
        ),
        # XID 43 then XID 48 (double-bit ECC) on one GPU, an exporter restart (back to 0) on another.
        case(
            {
                f"DCGM_FI_DEV_XID_ERRORS{{{GPU}}}": "0x5 43x30 48x60",
                'DCGM_FI_DEV_XID_ERRORS{gpu="1",UUID="GPU-1",Hostname="gpu-node-1"}': "0x5 79x10 0x100",
            },
            alert_test("20m", "GpuXidError", application(GPU_LABELS, 43)),
            alert_test("40m", "GpuXidHardwareError", hardware(GPU_LABELS, 48)),
            alert_test("40m", "GpuXidError"),
            alert_test("10m", "GpuXidHardwareError", hardware(second, 79)),
            alert_test("25m", "GpuXidHardwareError"),
        ),
        # No XID ever: the field stays 0.
        case(
            {f"DCGM_FI_DEV_XID_ERRORS{{{GPU}}}": "0x100"},
            alert_test("90m", "GpuXidHardwareError"),
            alert_test("90m", "GpuXidError"),
        ),
    ]


def test_xid_alerts_in_the_committed_file(tmp_path):
    groups = alert_rule_groups()
    run_rule_tests(tmp_path, groups, xid_cases(groups))


def test_xid_alerts_in_the_registered_rule(stack, tmp_path):
    groups = registered_groups(stack(OPERATOR))
    run_rule_tests(tmp_path, groups, xid_cases(groups))


def memory_series(used: str, free: str) -> dict[str, str]:
    return {f"DCGM_FI_DEV_FB_USED{{{GPU}}}": used, f"DCGM_FI_DEV_FB_FREE{{{GPU}}}": free}


def memory_alert(groups, percent: str) -> dict[str, Any]:
    summary = f"GPU 0 on gpu-node-1 has used {percent} of its memory for 10 minutes"
    return fired(groups, "GpuMemoryNearlyFull", GPU_LABELS, "warning", summary)


def test_gpu_memory_alert_sits_above_a_healthy_server_at_the_default_budget(tmp_path):
    """The committed file's threshold, 0.9633: a healthy server at the 0.9 budget uses 0.9 + 0.4 / 15 = 92.7% of the
    catalog's smallest GPU (the T4's 15 GiB; 0.4 GiB of CUDA context held before vLLM's budget, facts/vllm_startup.py),
    less on any larger one."""
    groups = alert_rule_groups()
    run_rule_tests(
        tmp_path,
        groups,
        [
            # A healthy server on a T4: 92.7% used, for half an hour.
            case(memory_series("92.7x60", "7.3x60"), alert_test("30m", "GpuMemoryNearlyFull")),
            # The same server on an H100 (79.65 GiB): 0.9 + 0.4 / 79.65, 90.5%.
            case(memory_series("90.5x60", "9.5x60"), alert_test("30m", "GpuMemoryNearlyFull")),
            # 97% for 10 minutes fires; once use falls back it resolves.
            case(
                memory_series("97x30 90x30", "3x30 10x30"),
                alert_test("5m", "GpuMemoryNearlyFull"),
                alert_test("15m", "GpuMemoryNearlyFull", memory_alert(groups, "97%")),
                alert_test("45m", "GpuMemoryNearlyFull"),
            ),
            # 96%, below the threshold, is silent (the former rule, the budget and half the rest, fired above 95%).
            case(memory_series("96x60", "4x60"), alert_test("30m", "GpuMemoryNearlyFull")),
        ],
    )


def test_gpu_memory_alert_follows_the_servers_gpu_memory_utilization(stack, tmp_path):
    """At 0.8 a healthy server uses at most 0.8 + 0.4 / 15 = 82.7%, and the threshold is 0.9133."""
    groups = registered_groups(stack({**OPERATOR, "vllm": {"gpuMemoryUtilization": 0.8}}))
    outside = memory_series("93x60", "7x60")
    run_rule_tests(
        tmp_path,
        groups,
        [
            case(memory_series("82.7x60", "17.3x60"), alert_test("30m", "GpuMemoryNearlyFull")),
            # 93% on a server of a 0.8 budget comes from outside it: fires here, where the default file's rule does not.
            case(outside, alert_test("30m", "GpuMemoryNearlyFull", memory_alert(groups, "93%"))),
        ],
    )
    default = alert_rule_groups()
    run_rule_tests(tmp_path, default, [case(outside, alert_test("30m", "GpuMemoryNearlyFull"))])


def waiting(pod: str, values: str, model: str = MODEL) -> tuple[str, str]:
    return f'vllm:num_requests_waiting{{model_name="{model}",engine="0",pod="{pod}"}}', values


def waiting_alert(groups, total: int) -> dict[str, Any]:
    summary = f"{total} requests have waited for {MODEL} for 5 minutes"
    return fired(groups, "VllmRequestsWaiting", {"model_name": MODEL}, "warning", summary)


def test_waiting_requests_are_summed_over_the_models_replicas(stack, tmp_path):
    groups = registered_groups(stack({**OPERATOR, "vllm": {"replicas": 2}}))
    run_rule_tests(
        tmp_path,
        groups,
        [
            # Two replicas with 6 waiting each: 12 for the model, above 10 for 5 minutes; then the queue drains.
            case(
                dict([waiting("vllm-a", "6x20 0x20"), waiting("vllm-b", "6x20 0x20")]),
                alert_test("3m", "VllmRequestsWaiting"),
                alert_test("10m", "VllmRequestsWaiting", waiting_alert(groups, 12)),
                alert_test("30m", "VllmRequestsWaiting"),
            ),
            # One replica with 6, the other idle: 6 is no queue.
            case(
                dict([waiting("vllm-a", "6x20"), waiting("vllm-b", "0x20")]),
                alert_test("10m", "VllmRequestsWaiting"),
            ),
            # Another model's queue on the same Prometheus is not this stack's server.
            case(dict([waiting("other-a", "30x20", model="other")]), alert_test("10m", "VllmRequestsWaiting")),
        ],
    )


def no_server_alert(groups) -> dict[str, Any]:
    summary = "No vLLM server has been ready (scraped) for 10 minutes"
    return fired(groups, "VllmNoPodReady", {"model_name": MODEL}, "critical", summary)


def test_no_server_alert_fires_when_the_models_series_are_gone(stack, tmp_path):
    groups = registered_groups(stack(OPERATOR))
    running = f'vllm:num_requests_running{{model_name="{MODEL}",engine="0",pod="vllm-a"}}'
    other = 'vllm:num_requests_running{model_name="other",engine="0",pod="other-a"}'
    run_rule_tests(
        tmp_path,
        groups,
        [
            # The server is scraped for 20 minutes, then gone (its series stale after 5 minutes).
            case(
                {running: "1x20", other: "1x60"},
                alert_test("15m", "VllmNoPodReady"),
                alert_test("30m", "VllmNoPodReady"),
                alert_test("40m", "VllmNoPodReady", no_server_alert(groups)),
            ),
            # It comes back: the alert resolves.
            case(
                {running: "_x15 1x30", other: "1x60"},
                alert_test("12m", "VllmNoPodReady", no_server_alert(groups)),
                alert_test("20m", "VllmNoPodReady"),
            ),
        ],
    )


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param({"vllm": {"replicas": 0}}, id="zero-replicas"),
        pytest.param({"vllm": {"enabled": False}}, id="no-vllm"),
    ],
)
def test_no_server_alert_is_left_out_when_the_stack_runs_no_server(stack, overrides):
    groups = registered_groups(stack({**OPERATOR, **overrides}))
    alerts = {r["alert"] for group in groups for r in group["rules"]}
    assert "VllmNoPodReady" not in alerts
    # The rest stays: only the alert that needs a server to be expected goes.
    assert alerts == {"GpuXidHardwareError", "GpuXidError", "GpuMemoryNearlyFull", "VllmRequestsWaiting"}
    assert groups == rule_groups(replicas=0, model_name=MODEL)
