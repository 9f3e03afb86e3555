"""Verdicts `replicas-fit-at-max` and `scaling-outlasts-startup`: the arithmetic on plain objects, then the
plan of the dev stack with autoscaling on, exiting 1 naming the verdict when the arithmetic fails."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import plan_stack_file

from components.facts.cold_start import DECISION, DOWNLOAD, IMAGE, LAUNCH, LOAD, PROCESS, ColdStart, Step
from components.placement import pools_for_node_groups
from components.placement.pools import NodeGroupSpec
from components.placement.scaling import (
    autoscaler_node_hold,
    replicas_fit_verdict,
    scaled_workloads,
    scaling_outlasts_startup_verdict,
    startup_budget,
    time_to_serving,
)

ROOT = Path(__file__).resolve().parents[2]
GPU_LABELS = {"GPU": "true"}
GPU_TAINT = {"key": "GPU", "value": "true", "effect": "NoSchedule"}
TOLERATION = {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}


def gpu_pool(name="gpu", instance_type="g5.xlarge", maximum=2) -> dict:
    spec = NodeGroupSpec(name, instance_type, 1, GPU_LABELS, [GPU_TAINT], max_size=maximum)
    [pool] = pools_for_node_groups([spec], device_plugin_pools=[name])
    return pool


def server(name="server", gpus=1, replicas=1, startup=None) -> dict:
    container = {"name": "vllm", "image": "vllm", "resources": {"limits": {"nvidia.com/gpu": str(gpus)}}}
    if startup is not None:
        container["startupProbe"] = startup
    pod = {"nodeSelector": GPU_LABELS, "tolerations": [TOLERATION], "containers": [container]}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": "ml"},
        "spec": {"replicas": replicas, "template": {"spec": pod}},
    }


def scaler(target="server", max_replicas=2, window=None) -> dict:
    spec = {"scaleTargetRef": {"name": target}, "maxReplicaCount": max_replicas}
    if window is not None:
        spec["advanced"] = {
            "horizontalPodAutoscalerConfig": {"behavior": {"scaleDown": {"stabilizationWindowSeconds": window}}}
        }
    return {"apiVersion": "keda.sh/v1alpha1", "kind": "ScaledObject", "metadata": {"namespace": "ml"}, "spec": spec}


def autoscaler(*args: str) -> dict:
    container = {"name": "ca", "image": "registry.k8s.io/autoscaling/cluster-autoscaler:v1.36.1", "args": list(args)}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "cluster-autoscaler", "namespace": "kube-system"},
        "spec": {"template": {"spec": {"containers": [container]}}},
    }


def fit(workloads, scalers, pools, autoscaler=True):
    return replicas_fit_verdict(scaled_workloads(scalers, workloads), workloads, pools, autoscaler)


# Verdict 13: pods per node = floor(GPUs per node / GPUs per replica); the pool holds that times maxSize.
@pytest.mark.parametrize(
    ("instance_type", "max_size", "gpus", "max_replicas", "passed"),
    [
        ("g5.xlarge", 2, 1, 2, True),  # 1 GPU a node: 1 x 2 nodes = 2 >= 2
        ("g5.xlarge", 2, 1, 5, False),  # 2 < 5
        ("g5.12xlarge", 2, 1, 8, True),  # 4 GPUs a node: 4 x 2 = 8 >= 8
        ("g5.12xlarge", 2, 3, 3, False),  # floor(4 / 3) = 1 a node: 1 x 2 = 2 < 3
        ("g5.12xlarge", 3, 2, 6, True),  # floor(4 / 2) = 2 a node: 2 x 3 = 6 >= 6
    ],
    ids=[
        "1-gpu-nodes-hold-2",
        "1-gpu-nodes-short-by-3",
        "4-gpu-nodes-hold-8",
        "3-gpu-replicas-one-a-node",
        "2-gpu-replicas-two-a-node",
    ],
)
def test_replicas_at_max_against_the_pool_at_max_size(instance_type, max_size, gpus, max_replicas, passed):
    verdict = fit(
        [server(gpus=gpus)],
        [scaler(max_replicas=max_replicas)],
        [gpu_pool(instance_type=instance_type, maximum=max_size)],
    )

    assert (verdict.name, verdict.passed) == ("replicas-fit-at-max", passed)


def test_models_sharing_a_pool_are_counted_together():
    # g5.12xlarge: 4 GPUs a node, 2 nodes = 8 GPUs; 3 x 2 + 2 x 1 = 8 fits, 3 x 2 + 3 x 1 = 9 does not.
    pool = gpu_pool(instance_type="g5.12xlarge", maximum=2)
    workloads = [server("a", gpus=2), server("b", gpus=1)]

    assert fit(workloads, [scaler("a", 3), scaler("b", 2)], [pool]).passed
    failed = fit(workloads, [scaler("a", 3), scaler("b", 3)], [pool])
    assert not failed.passed
    assert "ml/a + ml/b" in failed.message


def test_a_fixed_server_beside_a_scaled_one_takes_its_replicas_of_the_pool():
    pool = gpu_pool(maximum=3)  # g5.xlarge: 3 GPUs at maxSize

    assert fit([server("a"), server("b", replicas=1)], [scaler("a", 2)], [pool]).passed
    assert not fit([server("a"), server("b", replicas=2)], [scaler("a", 2)], [pool]).passed


def test_the_failure_names_the_model_the_pool_and_the_numbers():
    verdict = fit([server()], [scaler(max_replicas=5)], [gpu_pool(maximum=2)])

    assert "ml/server asks for 5 x 1 nvidia.com/gpu (5 pod(s))" in verdict.message
    assert "gpu (1 desired / 2 max node(s), 1 pod(s) per node" in verdict.message
    assert "hold 2 at maxSize: 3 pod(s) can never be scheduled" in verdict.message
    assert "lower maxReplicas" in verdict.message


def test_a_scaler_without_max_replica_count_is_counted_at_kedas_default_of_100():
    scalers = [scaler()]
    del scalers[0]["spec"]["maxReplicaCount"]

    assert not fit([server()], scalers, [gpu_pool(maximum=99)]).passed
    assert fit([server()], scalers, [gpu_pool(maximum=100)]).passed


def test_without_the_cluster_autoscaler_a_node_group_is_counted_at_its_desired_size():
    # g5.xlarge, desiredSize 1, maxSize 2: with an autoscaler 2 replicas fit; without one the group stays at 1 node.
    pool = gpu_pool(maximum=2)

    assert fit([server()], [scaler(max_replicas=2)], [pool]).passed
    verdict = fit([server()], [scaler(max_replicas=2)], [pool], autoscaler=False)
    assert not verdict.passed
    assert verdict.details[0] == (
        "gpu: no Cluster Autoscaler runs, so nothing grows the node group past desiredSize 1; counted at that, not "
        "at maxSize 2"
    )
    assert fit([server()], [scaler(max_replicas=1)], [pool], autoscaler=False).passed


def test_without_the_cluster_autoscaler_a_karpenter_pool_still_grows_to_its_limit():
    spec = NodeGroupSpec("gpu", "g5.xlarge", 0, GPU_LABELS, [GPU_TAINT], max_size=2, provisioner="karpenter")
    [pool] = pools_for_node_groups([spec], device_plugin_pools=["gpu"])

    assert fit([server()], [scaler(max_replicas=2)], [pool], autoscaler=False).passed


def test_without_a_scaler_verdict_13_holds_and_says_so():
    verdict = fit([server()], [], [gpu_pool()])

    assert verdict.passed and "no ScaledObject" in verdict.message


def test_a_scaler_targets_only_the_deployment_of_its_namespace_and_name():
    other = scaler(max_replicas=5)
    other["metadata"]["namespace"] = "elsewhere"

    assert scaled_workloads([other, scaler("missing")], [server()]) == []


# Verdict 14: budget = initialDelaySeconds + failureThreshold x periodSeconds (API defaults 0, 3, 10).
@pytest.mark.parametrize(
    ("probe", "budget"),
    [
        ({"periodSeconds": 10, "failureThreshold": 180}, 1800),
        ({"periodSeconds": 5, "failureThreshold": 12, "initialDelaySeconds": 30}, 90),
        ({"httpGet": {"path": "/health", "port": 8000}}, 30),
        (None, None),
    ],
    ids=["vllm-probe-30-minutes", "initial-delay-added", "api-defaults", "no-startup-probe"],
)
def test_the_startup_budget_is_what_the_startup_probe_allows(probe, budget):
    assert startup_budget(server(startup=probe)) == budget


@pytest.mark.parametrize(
    ("args", "hold"),
    [
        (("--scale-down-delay-after-add=20m", "--scale-down-unneeded-time=30m"), 1800),  # max(1200, 1800)
        (("--scale-down-delay-after-add=1h", "--scale-down-unneeded-time=30m"), 3600),
        ((), 600),  # both default to 10m
        (("--scale-down-delay-after-add=45m",), 2700),  # max(2700, 600)
    ],
    ids=["dev-stack-unneeded-time-longer", "delay-longer", "both-defaults", "one-default"],
)
def test_the_autoscaler_holds_a_new_node_for_the_longer_of_its_two_waits(args, hold):
    assert autoscaler_node_hold([server(), autoscaler(*args)]) == hold


def test_no_autoscaler_means_no_node_hold():
    assert autoscaler_node_hold([server()]) is None


PROBE_1800 = {"periodSeconds": 10, "failureThreshold": 180}


@pytest.mark.parametrize(
    ("window", "hold", "passed"),
    [
        (3600, 1800, True),  # 3600 > 1800 and 1800 >= 1800
        (1801, None, True),  # a second longer, no autoscaler
        (1800, None, False),  # equal: removal and readiness race
        (1799, 3600, False),  # 1799 < 1800
        (3600, 1200, False),  # the autoscaler may take the node after 1200 < 1800
        (None, None, False),  # the HorizontalPodAutoscaler's default window, 300 < 1800
    ],
    ids=[
        "both-outlast",
        "a-second-longer",
        "equal-window",
        "window-a-second-short",
        "autoscaler-too-soon",
        "hpa-default-window",
    ],
)
def test_scale_down_against_the_startup_budget(window, hold, passed):
    workloads = [server(startup=PROBE_1800)]
    verdict = scaling_outlasts_startup_verdict(scaled_workloads([scaler(window=window)], workloads), hold)

    assert (verdict.name, verdict.passed) == ("scaling-outlasts-startup", passed)


def test_a_short_window_is_named_with_both_numbers():
    workloads = [server(startup=PROBE_1800)]
    verdict = scaling_outlasts_startup_verdict(scaled_workloads([scaler(window=600)], workloads), None)

    assert (
        "ml/server: scale-down stabilization window 600s is not longer than the 1800s a new replica takes to serve "
        "(startup budget 1800s (no cold-start estimate))" in verdict.message
    )


def cold_start(before: list[float], loading: list[float]) -> ColdStart:
    # Steps named as facts/cold_start.py names them: those before the container starts, then those of loading,
    # which the startup probe must allow (`IN_PROBE`).
    steps = [Step(name, s, "", "") for name, s in zip((DECISION, LAUNCH, IMAGE), before, strict=False)]
    steps += [Step(name, s, "", "") for name, s in zip((PROCESS, DOWNLOAD, LOAD), loading, strict=False)]
    return ColdStart("m", "pool", tuple(steps), False, None, None)


@pytest.mark.parametrize(
    ("budget", "before", "loading", "serving"),
    [
        (600, [10, 180, 288], [120, 45, 20], 478 + 600),  # the probe allows more than loading takes
        (100, [10, 180, 288], [120, 45, 20], 478 + 185),  # loading takes longer than the probe allows
        (None, [10, 180], [100], 290),  # no probe: the estimate alone
    ],
    ids=["budget-longer", "loading-longer", "no-probe"],
)
def test_the_time_to_serving_is_the_steps_before_the_container_and_the_longer_of_budget_and_loading(
    budget, before, loading, serving
):
    assert time_to_serving(budget, cold_start(before, loading))[0] == serving


def test_a_window_equal_to_the_probe_allowance_fails_once_the_steps_before_the_container_count():
    # The done-when case: 600 s window, 600 s probe allowance (failureThreshold 60 x periodSeconds 10). The probe
    # alone would pass with `>=`; the node launch and the image pull before it make the replica serve at 1078 s.
    workloads = [server(startup={"periodSeconds": 10, "failureThreshold": 60})]
    scaled = scaled_workloads([scaler(window=600)], workloads)
    estimate = {"ml/server": cold_start([10, 180, 288], [120, 45, 20])}

    verdict = scaling_outlasts_startup_verdict(scaled, None, estimate)

    assert not verdict.passed
    assert verdict.details[0].startswith(
        "ml/server: scale-down stabilization window 600s is not longer than the 1078s a new replica takes to serve "
        "(478s outside the startup probe + startup budget 600s)"
    )
    assert "raise scaleDownStabilizationSeconds above 1078" in verdict.details[0]
    assert scaling_outlasts_startup_verdict(scaled_workloads([scaler(window=1079)], workloads), None, estimate).passed


def test_a_time_to_serving_beyond_the_hpas_limit_names_what_else_to_change():
    workloads = [server(startup={"periodSeconds": 10, "failureThreshold": 330})]  # 3300 s
    verdict = scaling_outlasts_startup_verdict(
        scaled_workloads([scaler(window=3600)], workloads), None, {"ml/server": cold_start([10, 180, 288], [60])}
    )

    assert not verdict.passed
    assert "the HorizontalPodAutoscaler's limit is 3600s: lower startupTimeoutSeconds" in verdict.message


# The plan of the dev stack with autoscaling on: the done-when cases of `vllm.autoscaling`.
def plan_dev(tmp_path: Path, autoscaling: dict) -> tuple[int, dict]:
    document = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())
    document["config"]["eks-gpu-inference:vllm"]["autoscaling"] = {"enabled": True, **autoscaling}
    stack_file = tmp_path / "Pulumi.dev.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    return plan_stack_file(stack_file, tmp_path / "out")


def failed_verdicts(document: dict) -> list[int]:
    return [verdict["id"] for verdict in document["verdicts"] if not verdict["passed"]]


def test_the_dev_stack_autoscaled_between_1_and_2_plans_clean(tmp_path):
    code, document = plan_dev(tmp_path, {"minReplicas": 1, "maxReplicas": 2})

    assert code == 0
    assert {13, 14} <= {verdict["id"] for verdict in document["verdicts"] if verdict["passed"]}


def test_the_dev_stack_autoscaled_to_5_on_a_pool_of_2_fails_verdict_13(tmp_path):
    code, document = plan_dev(tmp_path, {"minReplicas": 1, "maxReplicas": 5})

    assert code == 1
    assert failed_verdicts(document) == [13]


def test_a_600_s_window_against_a_600_s_probe_allowance_fails_verdict_14(tmp_path):
    # The issue's done-when: startupTimeoutSeconds 600 gives the probe 60 x 10 s, the window is 600 s too.
    document = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())
    vllm = document["config"]["eks-gpu-inference:vllm"]
    vllm["startupTimeoutSeconds"] = 600
    vllm["autoscaling"] = {"enabled": True, "maxReplicas": 2, "scaleDownStabilizationSeconds": 600}
    stack_file = tmp_path / "Pulumi.dev.yaml"
    stack_file.write_text(yaml.safe_dump(document))

    code, report = plan_stack_file(stack_file, tmp_path / "out")

    assert code == 1
    [startup] = [verdict for verdict in report["verdicts"] if verdict["name"] == "scaling-outlasts-startup"]
    assert not startup["passed"]
    assert "window 600s is not longer than the" in startup["message"]
