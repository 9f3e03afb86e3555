"""The alert rules as built from a vLLM server's settings: the GPU-memory threshold derived from
`gpuMemoryUtilization`, the XID severities, the no-server alert only where a server is expected, the model's
series selected, the committed file generated, and bad arguments refused before anything is registered."""

from __future__ import annotations

import textwrap

import pytest
import yaml

from components.facts import vllm_startup
from components.facts.xid import HARDWARE_XIDS
from components.observability.alert_rules import (
    MIN_GPU_MEMORY_MARGIN,
    gpu_memory_threshold,
    promql_string,
    rule_groups,
    rules_file_text,
)
from components.observability.monitoring import ALERT_RULES_FILE
from components.settings import PROJECT, ConfigError
from components.stackcheck.runtime import ProgramRun, run_program
from scripts import generate
from tests.support.alert_rules import OPERATOR, registered_groups, rule


# A healthy one-GPU server uses its budget and the 0.4 GiB its process held before vLLM measured (facts/vllm_startup.py:
# Sandermage/genesis-vllm-patches#24), most of all on the catalog's smallest GPU, the T4 (nvidia-smi's 15360 MiB,
# modal-labs/modal-client#2797): u + 0.4 / 15. The threshold is halfway from there to full memory.
@pytest.mark.parametrize(
    ("utilization", "threshold"),
    [
        (0.1, 0.5633),  # healthy 0.126667, halfway to 1
        (0.5, 0.7633),
        (0.8, 0.9133),
        (0.9, 0.9633),  # healthy 0.926667: the committed file's rule
        (0.92, 0.9733),
        (0.95, 0.9883),  # healthy 0.976667, margin 0.011667
        # Healthy at 0.986667 on the T4 leaves less than the 1% margin: no alert.
        (0.96, None),
        (0.97, None),
        # 0.98 does not start on a T4 (14.7 GiB asked, 14.6 free); on the A10G (22.49 GiB) healthy is 0.997787.
        (0.98, None),
        # No GPU has 100% free at start.
        (1.0, None),
    ],
)
def test_gpu_memory_threshold_is_halfway_between_a_healthy_server_and_full_memory(utilization, threshold):
    assert gpu_memory_threshold(utilization) == threshold


def test_a_replica_over_several_gpus_holds_more_before_its_budget_and_the_threshold_follows():
    # 2.28 GiB per GPU with NCCL (pytorch/pytorch#175666). At 0.8 the T4 starts (12 GiB asked, 12.72 free):
    # healthy 0.8 + 2.28 / 15 = 0.952, halfway to full 0.976.
    assert gpu_memory_threshold(0.8, gpus_per_replica=2) == 0.976
    # At 0.9 neither the T4, the T4G (16 GiB), the A10G (22.49) nor the L4 (22.49) starts; the RTX PRO 4500 (32 GiB)
    # does: healthy 0.9 + 2.28 / 32 = 0.971250, threshold 0.985625.
    assert gpu_memory_threshold(0.9, gpus_per_replica=2) == 0.9856


def test_gpu_memory_threshold_always_sits_above_a_healthy_server_and_below_full_memory():
    budgets = [n / 1000 for n in range(1, 1001)]
    assert len(budgets) == 1000 and budgets[-1] == 1.0
    for utilization in budgets:
        for gpus in (1, 2):
            threshold = gpu_memory_threshold(utilization, gpus)
            healthy = vllm_startup.healthy_share(utilization, gpus)
            if threshold is None:
                assert healthy is None or healthy > 1 - 2 * MIN_GPU_MEMORY_MARGIN, (utilization, gpus)
            else:
                assert healthy + MIN_GPU_MEMORY_MARGIN <= threshold + 1e-9 and threshold < 1, (utilization, gpus)


@pytest.mark.parametrize(("utilization", "expected"), [(0.8, "> 0.9133"), (0.9, "> 0.9633"), (0.95, "> 0.9883")])
def test_registered_gpu_memory_alert_uses_the_servers_threshold(stack, utilization, expected):
    groups = registered_groups(stack({**OPERATOR, "vllm": {"gpuMemoryUtilization": utilization}}))
    memory = rule(groups, "GpuMemoryNearlyFull")
    assert memory is not None
    assert memory["expr"] == f"DCGM_FI_DEV_FB_USED / (DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE) {expected}"
    assert f"vLLM takes {utilization:g} of the GPU's memory" in memory["annotations"]["description"]


def test_no_gpu_memory_alert_when_the_server_takes_nearly_all_memory(stack):
    groups = registered_groups(stack({**OPERATOR, "vllm": {"gpuMemoryUtilization": 0.97}}))
    assert rule(groups, "GpuMemoryNearlyFull") is None
    assert rule(groups, "GpuXidHardwareError") is not None


def test_only_hardware_xids_are_critical_and_application_xids_are_not_among_them():
    groups = rule_groups()
    critical, warning = rule(groups, "GpuXidHardwareError"), rule(groups, "GpuXidError")
    assert critical is not None and warning is not None
    assert (critical["labels"], warning["labels"]) == ({"severity": "critical"}, {"severity": "warning"})
    # Errors applications cause (NVIDIA's catalog: RESTART_APP) never page.
    assert not {13, 31, 43, 45} & set(HARDWARE_XIDS)
    assert {48, 79, 94 + 1, 119, 140} <= set(HARDWARE_XIDS)
    for xid in HARDWARE_XIDS:
        assert f"DCGM_FI_DEV_XID_ERRORS == {xid}\n" in critical["expr"] + "\n"
        assert f"DCGM_FI_DEV_XID_ERRORS == {xid}\n" in warning["expr"] + "\n"
    assert "\nand (" in critical["expr"] and "\nunless (" in warning["expr"]


@pytest.mark.parametrize(
    ("name", "quoted"),
    [
        ("Qwen/Qwen2.5-7B-Instruct", '"Qwen/Qwen2.5-7B-Instruct"'),
        ('a "b" \\ c', '"a \\"b\\" \\\\ c"'),
        ("x\ny", '"x\\ny"'),
    ],
)
def test_model_names_are_quoted_as_promql_strings(name, quoted):
    assert promql_string(name) == quoted


def test_the_committed_rules_file_is_the_rules_at_the_defaults_for_any_model():
    assert ALERT_RULES_FILE.read_text(encoding="utf-8") == rules_file_text()
    groups = yaml.safe_load(ALERT_RULES_FILE.read_text(encoding="utf-8"))["groups"]
    assert groups == rule_groups(0.9, 1, None)
    waiting = rule(groups, "VllmRequestsWaiting")
    assert waiting is not None and waiting["expr"] == "sum by (model_name) (vllm:num_requests_waiting) > 10"


def test_a_stale_rules_file_fails_the_generated_files_check(tmp_path):
    for name in ("Pulumi.yaml", "docs/reference/configuration.md", "docs/reference/components.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((generate.ROOT / name).read_text(encoding="utf-8"), encoding="utf-8")
    stale = tmp_path / ALERT_RULES_FILE.relative_to(generate.ROOT)
    stale.parent.mkdir(parents=True)
    stale.write_text(rules_file_text().replace("> 10", "> 20"), encoding="utf-8")
    problems = [problem for problem in generate.check(tmp_path) if "gpu-inference-alerts.yaml" in problem]
    assert problems == [
        f"{stale} differs from what the settings and the input declarations give now; update it with "
        "`python scripts/generate.py` and commit it"
    ]


def test_bad_alert_arguments_fail_naming_each_before_anything_is_registered(tmp_path):
    program = tmp_path / "__main__.py"
    program.write_text(
        textwrap.dedent(
            """
            from components.observability.monitoring import PrometheusMonitors, PrometheusMonitorsArgs

            PrometheusMonitors("monitors", PrometheusMonitorsArgs(targets=[], replicas=-1, gpu_memory_utilization=1.5))
            """
        )
    )
    run = ProgramRun()
    with pytest.raises(ConfigError) as raised:
        run_program(program, {}, project=PROJECT, stack="test", run=run)
    assert [str(problem) for problem in raised.value.problems] == [
        "PrometheusMonitors(monitors).args.gpu_memory_utilization: invalid value 1.5; allowed: a number with 0 < x <= 1",
        "PrometheusMonitors(monitors).args.replicas: invalid value -1; allowed: an integer from 0 to 2,147,483,647 (a Deployment's int32)",
    ]
    assert run.resources == []


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param({}, id="dev-stack"),
        pytest.param({"vllm": {"servedModelName": "chat", "gpuMemoryUtilization": 0.5}}, id="served-name-half-memory"),
        pytest.param({"vllm": {"replicas": 0}}, id="zero-replicas"),
    ],
)
def test_registered_rules_read_only_metrics_the_pinned_exporters_expose(stack, overrides):
    from tests.support.dashboards import DCGM_LIST, VLLM_LIST, exposed, metric_names

    groups = registered_groups(stack({**OPERATOR, **overrides}))
    used = set().union(*(metric_names(r["expr"]) for group in groups for r in group["rules"]))
    assert used - (exposed(DCGM_LIST) | exposed(VLLM_LIST)) == set()
    assert {"DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_FB_USED", "vllm:num_requests_waiting"} <= used


def test_the_xid_field_is_the_exporters_gauge_and_its_count_field_is_not_exported():
    from components.facts.xid import XID_FIELD
    from tests.support.dashboards import DCGM_LIST

    kinds = dict(line.split() for line in DCGM_LIST.read_text().splitlines() if line and not line.startswith("#"))
    assert kinds[XID_FIELD] == "gauge"
    # A count of XIDs would be the better signal, but the pinned default counters leave it out.
    assert "DCGM_EXP_XID_ERRORS_COUNT" not in kinds


def test_the_command_line_prints_the_rules_of_the_server_it_describes(capsys):
    from components.observability.alert_rules import main

    assert main(["--gpu-memory-utilization", "0.8", "--replicas", "0", "--model-name", "chat"]) == 0
    groups = yaml.safe_load(capsys.readouterr().out)["groups"]
    assert groups == rule_groups(0.8, 0, "chat")
    memory = rule(groups, "GpuMemoryNearlyFull")
    assert memory is not None and memory["expr"].endswith("> 0.9133")
    assert rule(groups, "VllmNoPodReady") is None


def test_the_command_line_refuses_bad_values_naming_each(capsys):
    from components.observability.alert_rules import main

    with pytest.raises(SystemExit) as raised:
        main(["--gpu-memory-utilization", "1.5", "--replicas", "-2"])
    assert raised.value.code == 2
    error = capsys.readouterr().err
    assert "vllm.gpuMemoryUtilization: invalid value 1.5; allowed: a number with 0 < x <= 1" in error
    assert (
        "vllm.replicas: invalid value -2; allowed: an integer from 0 to 2,147,483,647 (a Deployment's int32)" in error
    )
