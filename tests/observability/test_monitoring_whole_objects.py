"""What `PrometheusMonitors` registers, whole: the PrometheusRule's metadata and, for each rule, everything but the
expression (promtool tests evaluate those: tests/observability/test_alert_rules_promtool.py), and each ServiceMonitor, with parent
and provider; then the rules `alert_rules.rule_groups` builds for other servers (no replicas, a smaller memory
budget, several watched models, KEDA-autoscaled models), each rule's name, `for`, labels and annotations whole.

A test that reads one annotation lets the others change unread (a summary's template variable, the setting a
description names); the order of the rules is what a rule file shows, so it is pinned too.
"""

from __future__ import annotations

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.args.validate import ArgumentError
from components.facts import resource_types
from components.observability import alert_rules, monitoring
from components.observability.args import PrometheusMonitorsArgs

MONITORS = "eks-gpu-inference:index:PrometheusMonitors"
K8S_PROVIDER = "pulumi:providers:kubernetes"
RULE = resource_types.PROMETHEUS_RULE
SERVICE_MONITOR = resource_types.SERVICE_MONITOR
OPERATOR = {
    "observability": {
        "prometheusOperator": True,
        "monitoringNamespace": "observability",
        "monitorLabels": {"release": "kube-prometheus"},
        "scrapeInterval": "15s",
    }
}
MODEL = "Qwen/Qwen2.5-7B-Instruct"  # the dev stack's vllm.model
OBJECT_LABELS = {
    "release": "kube-prometheus",
    "app.kubernetes.io/part-of": "eks-gpu-inference",
    "app.kubernetes.io/managed-by": "pulumi",
}

XID_SUMMARY = "GPU {{ $labels.gpu }} on {{ $labels.Hostname }} reported XID {{ $value }}"
HARDWARE_XID = {
    "alert": "GpuXidHardwareError",
    "labels": {"severity": "critical"},
    "annotations": {
        "summary": XID_SUMMARY,
        "description": "An XID that means GPU hardware or driver trouble (aws/eks-node-monitoring-agent v1.7.0 "
        "monitors/nvidia/dcgm/dcgm_policies.go (WellKnownXidCodes), after "
        "https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html): drain the node; with node repair, "
        "EKS replaces it. Resolves 1h after the last new XID.",
    },
}
OTHER_XID = {
    "alert": "GpuXidError",
    "labels": {"severity": "warning"},
    "annotations": {
        "summary": XID_SUMMARY,
        "description": "An XID outside those that mean hardware or driver trouble; most are errors applications "
        "cause (13, 31, 43, 45: NVIDIA's catalog says restart the application). Look it up in "
        "https://docs.nvidia.com/deploy/xid-errors/ and read the pod's logs. Resolves 1h after the last new XID.",
    },
}


def gpu_memory(budget: str, threshold: str) -> dict:
    return {
        "alert": "GpuMemoryNearlyFull",
        "for": "10m",
        "labels": {"severity": "warning"},
        "annotations": {
            "summary": "GPU {{ $labels.gpu }} on {{ $labels.Hostname }} has used {{ $value | humanizePercentage }} "
            "of its memory for 10 minutes",
            "description": f"vLLM takes {budget} of the GPU's memory (vllm.gpuMemoryUtilization) and its process "
            f"holds the CUDA context beside it; use above {threshold} comes from outside, another process on the GPU "
            "or memory vLLM did not plan for, and precedes CUDA out-of-memory errors.",
        },
    }


WAITING = {
    "alert": "VllmRequestsWaiting",
    "for": "5m",
    "labels": {"severity": "warning"},
    "annotations": {
        "summary": "{{ $value }} requests have waited for {{ $labels.model_name }} for 5 minutes",
        "description": "Add vLLM replicas (vllm.replicas, with GPU nodes for them) or larger GPUs.",
    },
}
NO_POD = {
    "alert": "VllmNoPodReady",
    "for": "10m",
    "labels": {"severity": "critical"},
    "annotations": {
        "summary": "No vLLM server has been ready (scraped) for 10 minutes",
        "description": "kubectl -n <vllm namespace> get pods; a pod Pending means no GPU node, one restarting means "
        "the model fails to load.",
    },
}


def at_max(replicas: int) -> dict:
    return {
        "alert": "VllmAtMaxReplicas",
        "for": "10m",
        "labels": {"severity": "warning"},
        "annotations": {
            "summary": f"{{{{ $labels.model_name }}}} has run its {replicas} replicas (maxReplicas) with requests "
            "waiting for 10 minutes",
            "description": "Capacity is exhausted: raise autoscaling.maxReplicas and the GPU pool's maxSize with it "
            "(the plan's verdict `replicas-fit-at-max` checks they agree), or serve the model from larger GPUs.",
        },
    }


BEHIND = {
    "alert": "VllmReplicasBehindDesired",
    "for": "30m",
    "labels": {"severity": "warning"},
    "annotations": {
        "summary": "{{ $labels.model_name }} has served fewer replicas than KEDA desires for 30m",
        "description": "New replicas do not become ready: kubectl -n <vllm namespace> get pods; Pending means no GPU "
        "node (the pool's maxSize, the EC2 vCPU quota, no capacity in the zones), restarting means the model fails "
        "to load.",
    },
}


def without_exprs(groups: list[dict]) -> list[tuple[str, list[dict]]]:
    """Each group's name and rules, every field of a rule but its expression."""
    return [
        (group["name"], [{key: value for key, value in rule.items() if key != "expr"} for rule in group["rules"]])
        for group in groups
    ]


@pytest.fixture(scope="module")
def operator_run():
    return run_stack(merge(dev_stack_config(), OPERATOR))


def children(run, type_: str) -> dict:
    (monitors,) = run.of_type(MONITORS)
    (provider,) = run.of_type(K8S_PROVIDER)
    found = {r.name: r for r in run.of_type(type_) if r.parent == monitors.urn}
    assert {r.provider for r in found.values()} == {f"{provider.urn}::{provider.id}"}
    return found


def test_the_prometheus_rule_is_registered_whole_but_its_expressions(operator_run):
    (rule,) = children(operator_run, RULE).values()

    assert rule.name == "gpu-inference-dev-monitors-rules"
    assert (rule.inputs["apiVersion"], rule.inputs["kind"]) == ("monitoring.coreos.com/v1", "PrometheusRule")
    # In the monitoring namespace, with the monitor labels a Prometheus's ruleSelector matches.
    assert rule.inputs["metadata"] == {"name": "gpu-inference", "namespace": "observability", "labels": OBJECT_LABELS}
    assert set(rule.inputs) == {"apiVersion", "kind", "metadata", "spec"}
    assert set(rule.inputs["spec"]) == {"groups"}
    assert without_exprs(rule.inputs["spec"]["groups"]) == [
        ("gpu-nodes", [HARDWARE_XID, OTHER_XID, gpu_memory("0.9", "0.9633")]),
        ("vllm-server", [WAITING, NO_POD]),
    ]


def test_the_registered_rules_watch_the_stacks_model(operator_run):
    (rule,) = children(operator_run, RULE).values()
    [_, vllm] = rule.inputs["spec"]["groups"]

    assert [r["expr"] for r in vllm["rules"]] == [
        f'sum by (model_name) (vllm:num_requests_waiting{{model_name="{MODEL}"}}) > 10',
        f'absent(vllm:num_requests_running{{model_name="{MODEL}"}})',
    ]


def monitor(name: str, namespace: str, selector: dict, port: str, honor_labels: bool) -> dict:
    return {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "ServiceMonitor",
        "metadata": {"name": name, "namespace": "observability", "labels": OBJECT_LABELS},
        "spec": {
            "namespaceSelector": {"matchNames": [namespace]},
            "selector": {"matchLabels": selector},
            "endpoints": [{"port": port, "path": "/metrics", "interval": "15s", "honorLabels": honor_labels}],
        },
    }


def test_each_service_monitor_is_registered_whole(operator_run):
    monitors = children(operator_run, SERVICE_MONITOR)

    assert {name: r.inputs for name, r in monitors.items()} == {
        "gpu-inference-dev-monitors-vllm-server": monitor(
            "vllm-server",
            "vllm",
            {"app.kubernetes.io/name": "vllm", "app.kubernetes.io/instance": "gpu-inference-dev-vllm"},
            "http",
            False,
        ),
        # The exporter's own pod/namespace/container labels name the GPU's workload: honoured, not renamed.
        "gpu-inference-dev-monitors-dcgm-exporter": monitor(
            "dcgm-exporter",
            "kube-system",
            {
                "app.kubernetes.io/name": "dcgm-exporter",
                "app.kubernetes.io/instance": "gpu-inference-dev-dcgm-exporter",
            },
            "metrics",
            True,
        ),
    }


def test_without_the_operator_nothing_of_the_monitors_is_registered(dev_run):
    assert dev_run.of_type(MONITORS) == []
    assert dev_run.of_type(RULE) == dev_run.of_type(SERVICE_MONITOR) == []


GPU_RULES = [HARDWARE_XID, OTHER_XID]
RULE_CASES = {
    "the committed file's defaults": ({}, GPU_RULES + [gpu_memory("0.9", "0.9633")], [WAITING, NO_POD]),
    "no replicas, no no-server alert": ({"replicas": 0}, GPU_RULES + [gpu_memory("0.9", "0.9633")], [WAITING]),
    "one replica keeps the no-server alert": (
        {"replicas": 1},
        GPU_RULES + [gpu_memory("0.9", "0.9633")],
        [WAITING, NO_POD],
    ),
    "a smaller budget, a lower threshold": (
        {"gpu_memory_utilization": 0.8},
        GPU_RULES + [gpu_memory("0.8", "0.9133")],
        [WAITING, NO_POD],
    ),
    # A healthy server at 0.95 uses 0.976667 of a T4; halfway to full, 0.9883, leaves 0.011667, above the smallest
    # margin MIN_GPU_MEMORY_MARGIN: it still alerts (0.96 would leave 0.006667 and does not).
    "the smallest margin that alerts": (
        {"gpu_memory_utilization": 0.95},
        GPU_RULES + [gpu_memory("0.95", "0.9883")],
        [WAITING, NO_POD],
    ),
    "a budget too near full, no memory alert": ({"gpu_memory_utilization": 0.99}, GPU_RULES, [WAITING, NO_POD]),
    "two watched models, a no-server alert each": (
        {"watched_models": ["a", "b"], "replicas": 0},
        GPU_RULES + [gpu_memory("0.9", "0.9633")],
        [WAITING, NO_POD, NO_POD],
    ),
    "no watched model, no no-server alert": (
        {"watched_models": []},
        GPU_RULES + [gpu_memory("0.9", "0.9633")],
        [WAITING],
    ),
    "autoscaled models, their at-max and behind-desired alerts": (
        {"model_name": "m", "autoscaled": {"m": 4, "n": 1}},
        GPU_RULES + [gpu_memory("0.9", "0.9633")],
        [WAITING, NO_POD, at_max(4), BEHIND, at_max(1), BEHIND],
    ),
}


@pytest.mark.parametrize(("arguments", "gpu_rules", "vllm_rules"), list(RULE_CASES.values()), ids=list(RULE_CASES))
def test_the_rules_of_each_server_are_whole_but_their_expressions(arguments, gpu_rules, vllm_rules):
    assert without_exprs(alert_rules.rule_groups(**arguments)) == [
        ("gpu-nodes", gpu_rules),
        ("vllm-server", vllm_rules),
    ]


@pytest.mark.parametrize(
    ("arguments", "selectors"),
    [
        pytest.param({"watched_models": ["a", 'b"c']}, ['{model_name="a"}', '{model_name="b\\"c"}'], id="watched"),
        pytest.param({"model_name": "m"}, ['{model_name="m"}'], id="one-model"),
        pytest.param({}, [""], id="any-model"),
    ],
)
def test_each_no_server_alert_reads_its_own_models_series(arguments, selectors):
    [_, vllm] = alert_rules.rule_groups(**arguments)

    assert [r["expr"] for r in vllm["rules"] if r["alert"] == "VllmNoPodReady"] == [
        f"absent(vllm:num_requests_running{selector})" for selector in selectors
    ]


ONE_OR_SEVERAL = "allowed: watched_models for several servers, or vllm_model_name and replicas for one"
ARGUMENT_CASES = {
    "watched with a model name": (
        {"watched_models": ["a"], "vllm_model_name": "a"},
        [f"PrometheusMonitors(mon).args.watched_models: given with vllm_model_name; {ONE_OR_SEVERAL}"],
    ),
    "watched with replicas": (
        {"watched_models": ["a"], "replicas": 1},
        [f"PrometheusMonitors(mon).args.watched_models: given with replicas; {ONE_OR_SEVERAL}"],
    ),
    "watched with both": (
        {"watched_models": ["a"], "vllm_model_name": "a", "replicas": 2},
        [f"PrometheusMonitors(mon).args.watched_models: given with vllm_model_name and replicas; {ONE_OR_SEVERAL}"],
    ),
    # Below the bound, a bool and a text are refused, each named; 1 and 2 pass.
    "autoscaled counts": (
        {"autoscaled_models": {"m": 0, "n": True, "o": "2", "p": 1, "q": 2, "r": -1}},
        [
            f"PrometheusMonitors(mon).args.autoscaled_models[{model!r}]: {value}; allowed: an integer >= 1"
            for model, value in (("m", "0"), ("n", "True"), ("o", "'2'"), ("r", "-1"))
        ],
    ),
}


@pytest.mark.parametrize(("arguments", "problems"), list(ARGUMENT_CASES.values()), ids=list(ARGUMENT_CASES))
def test_the_monitors_refuse_mixed_or_bad_server_arguments_whole(arguments, problems):
    with pytest.raises(ArgumentError) as error:
        monitoring.validated("mon", PrometheusMonitorsArgs(targets=[monitoring.vllm_target("s", "ns")], **arguments))

    assert [str(problem) for problem in error.value.problems] == problems
    assert str(error.value) == "\n".join(
        [f"invalid arguments to PrometheusMonitors(mon) ({len(problems)} problem(s)):", *(f"  - {p}" for p in problems)]
    )


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param({"watched_models": ["a"], "autoscaled_models": {"a": 1}}, id="watched-and-autoscaled"),
        pytest.param({"vllm_model_name": "a", "replicas": 0}, id="one-server"),
        pytest.param({"watched_models": []}, id="no-server-watched"),
    ],
)
def test_the_monitors_take_each_valid_form_of_server_arguments(arguments):
    settings, vllm = monitoring.validated(
        "mon", PrometheusMonitorsArgs(targets=[monitoring.vllm_target("s", "ns")], **arguments)
    )

    assert (settings.monitoring_namespace, vllm.gpu_memory_utilization) == ("monitoring", 0.9)


def test_the_command_line_without_arguments_prints_the_committed_defaults(capsys):
    assert alert_rules.main([]) == 0

    assert capsys.readouterr().out == alert_rules.rules_text(alert_rules.rule_groups(0.9, 1, None))


def test_the_command_line_refuses_bad_values_with_one_whole_line(capsys):
    with pytest.raises(SystemExit) as raised:
        alert_rules.main(["--gpu-memory-utilization", "1.5", "--replicas", "-2"])

    assert raised.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "python -m components.observability.alert_rules: error: vllm.gpuMemoryUtilization: invalid value 1.5; allowed: a number "
        "with 0 < x <= 1; vllm.replicas: invalid value -2; allowed: an integer from 0 to 2,147,483,647 (a Deployment's int32)"
    )


def test_the_command_lines_help_names_the_program_and_what_it_prints(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit):
        alert_rules.main(["--help"])

    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "usage: python -m components.observability.alert_rules [-h] [--gpu-memory-utilization GPU_MEMORY_UTILIZATION] "
        "[--replicas REPLICAS] [--model-name MODEL_NAME]",
        "",
        "The alert rules for one vLLM server, as a rule file.",
    ]
    assert lines[-2:] == [
        "  --model-name MODEL_NAME",
        "                        the served model name (default: every model's series)",
    ]


def test_the_rule_groups_of_a_rules_file_are_read_whole(tmp_path):
    other = tmp_path / "rules.yaml"
    other.write_text(alert_rules.rules_text(alert_rules.rule_groups(0.8, 0, "chat")), encoding="utf-8")

    # The committed file holds the rules at the defaults, for any model.
    assert monitoring.alert_rule_groups() == alert_rules.rule_groups()
    assert monitoring.alert_rule_groups(other) == alert_rules.rule_groups(0.8, 0, "chat")


@pytest.mark.parametrize(
    ("arguments", "annotations"),
    [
        pytest.param(
            (9400,),
            {"prometheus.io/scrape": "true", "prometheus.io/port": "9400", "prometheus.io/path": "/metrics"},
            id="default-path",
        ),
        pytest.param(
            (8000, "/v1/metrics"),
            {"prometheus.io/scrape": "true", "prometheus.io/port": "8000", "prometheus.io/path": "/v1/metrics"},
            id="own-path",
        ),
    ],
)
def test_the_scrape_annotations_name_port_and_path(arguments, annotations):
    assert monitoring.scrape_annotations(*arguments) == annotations
