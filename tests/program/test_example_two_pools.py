"""examples/two-pools: two GPU pools under one contract, a vLLM server on each, run under mocks and planned."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from components.stackcheck.__main__ import main
from components.stackcheck.runtime import ProgramRun, run_program
from components.stackcheck.stack_config import load_stack_config

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "two-pools"
PRODUCT_LABEL = "nvidia.com/gpu.product"
# Pool name suffix -> (instance type, the product label value NVIDIA GPU feature discovery gives it).
POOLS = {"l4": ("g6.xlarge", "NVIDIA-L4"), "l40s": ("g6e.xlarge", "NVIDIA-L40S")}


@pytest.fixture(scope="module")
def example_run() -> ProgramRun:
    config = load_stack_config(EXAMPLE, "dev")
    return run_program(
        config.program, config.values, project=config.project, stack=config.stack, secret_keys=config.secret_keys
    )


@pytest.fixture(scope="module")
def example_plan(tmp_path_factory) -> tuple[int, dict]:
    out = tmp_path_factory.mktemp("two-pools-plan")
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        code = main(["plan", "--project-dir", str(EXAMPLE), "--stack", "dev", "--format", "json", "--out", str(out)])
    return code, json.loads(stdout.getvalue())


def _node_group(run: ProgramRun, suffix: str):
    [node_group] = [
        resource
        for resource in run.of_type("aws:eks/nodeGroup:NodeGroup")
        if resource.name == f"two-pools-dev-{suffix}"
    ]
    return node_group


def _deployment(run: ProgramRun, suffix: str) -> dict:
    [deployment] = [
        resource.inputs
        for resource in run.of_type("kubernetes:apps/v1:Deployment")
        if resource.inputs["metadata"]["namespace"] == f"vllm-{suffix}"
    ]
    return deployment


@pytest.mark.parametrize("suffix", POOLS)
def test_each_pool_runs_its_gpu_type_and_carries_its_product_label(example_run, suffix):
    instance_type, product = POOLS[suffix]
    node_group = _node_group(example_run, suffix).inputs

    assert node_group["instanceTypes"] == [instance_type]
    assert node_group["labels"][PRODUCT_LABEL] == product


def test_both_pools_carry_one_contract(example_run):
    l4, l40s = (_node_group(example_run, suffix).inputs for suffix in POOLS)

    assert l4["taints"] == l40s["taints"] == [{"key": "GPU", "value": "true", "effect": "NO_SCHEDULE"}]
    assert l4["labels"]["GPU"] == l40s["labels"]["GPU"] == "true"


@pytest.mark.parametrize("suffix", POOLS)
def test_each_server_requires_its_pools_gpu_product(example_run, suffix):
    _, product = POOLS[suffix]
    pod = _deployment(example_run, suffix)["spec"]["template"]["spec"]

    assert pod["nodeSelector"] == {"GPU": "true"}
    [term] = pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    assert {"key": PRODUCT_LABEL, "operator": "In", "values": [product]} in term["matchExpressions"]


def test_one_device_plugin_and_one_exporter_component_serve_both_pools(example_run):
    daemonsets = sorted(
        resource.inputs["metadata"]["name"] for resource in example_run.of_type("kubernetes:apps/v1:DaemonSet")
    )

    # The exporter's second DaemonSet embeds DCGM on GPU nodes without dcgm-server (tests/gpu_agents/test_dcgm_engines.py).
    assert daemonsets == [
        "two-pools-dev-dcgm-exporter",
        "two-pools-dev-dcgm-exporter-embedded",
        "two-pools-dev-device-plugin",
    ]


def test_plan_exits_0_with_every_verdict_holding(example_plan):
    code, report = example_plan

    assert code == 0, report["failures"]
    assert report["verdicts"] and all(verdict["passed"] for verdict in report["verdicts"])
    assert report["failures"] == []


@pytest.mark.parametrize("suffix", POOLS)
def test_plan_places_each_server_only_on_its_own_pool(example_plan, suffix):
    _, report = example_plan
    rows = [row for row in report["matrix"] if row["workload"].startswith(f"vllm-{suffix}/")]

    assert {row["pool"] for row in rows} == {f"two-pools-dev-{name}" for name in ("system", *POOLS)}
    assert [row["pool"] for row in rows if row["lands"]] == [f"two-pools-dev-{suffix}"]


def test_plan_keeps_each_server_off_the_other_pool_by_its_product(example_plan):
    _, report = example_plan
    for suffix, other in (("l4", "l40s"), ("l40s", "l4")):
        [row] = [
            row
            for row in report["matrix"]
            if row["workload"].startswith(f"vllm-{suffix}/") and row["pool"] == f"two-pools-dev-{other}"
        ]
        assert any(f"{PRODUCT_LABEL} In [{POOLS[suffix][1]}]" in reason for reason in row["reasons"]), row
