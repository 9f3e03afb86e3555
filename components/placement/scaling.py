"""Two verdicts on replica autoscaling that the GPU pools can follow and that never removes a loading replica.

Both read KEDA ScaledObjects (keda.sh/v1alpha1) as the plan renders them, beside the workloads they scale:

- `replicas-fit-at-max`: the count of `gpu-capacity-fits-replicas` (components/placement/capacity.py: pods per node from the GPUs
  each pod requests, times the pool's nodes) with every scaled Deployment at its `maxReplicaCount`, the models
  sharing a pool counted together, against each pool at its `maxSize`. A replica beyond that stays Pending
  with the pool at its maximum.
- `scaling-outlasts-startup`: a scaled Deployment's scale-down stabilization window is at least its startup
  budget (the startup probe's allowance), and so is the soonest the Cluster Autoscaler removes a node it has
  just added, so a replica is neither scaled away nor drained while another is still loading. "At least":
  once the budget is spent the kubelet restarts the container, so no replica loads for longer.

Standard library only.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass

from ..facts.go_duration import parse_go_duration
from .capacity import gpu_capacity
from .verdict import Verdict, _summary
from .workloads import pod_of, workload_id

FIT_NAME = "replicas-fit-at-max"
STARTUP_NAME = "scaling-outlasts-startup"
SCALED_OBJECT = ("keda.sh/v1alpha1", "ScaledObject")
# The HorizontalPodAutoscaler's scale-down window when a ScaledObject sets none (Kubernetes docs,
# "Horizontal Pod Autoscaling", Default Behavior: `stabilizationWindowSeconds: 300` for scaleDown), and KEDA's
# `maxReplicaCount` default (keda.sh/docs/2.20/reference/scaledobject-spec/: 100).
HPA_SCALE_DOWN_WINDOW = 300
KEDA_MAX_REPLICAS = 100
# Probe defaults the API server fills in (k8s.io/api core/v1 types.go, Probe: periodSeconds 10,
# failureThreshold 3, initialDelaySeconds 0).
PROBE_PERIOD, PROBE_FAILURES = 10, 3
# The Cluster Autoscaler's defaults for the two flags (kubernetes/autoscaler cluster-autoscaler FAQ, "What
# are the parameters to CA?": both 10 minutes).
AUTOSCALER_DEFAULTS = {"--scale-down-delay-after-add": "10m", "--scale-down-unneeded-time": "10m"}
AUTOSCALER_IMAGE = "cluster-autoscaler"
NANOSECONDS = 1_000_000_000


@dataclass(frozen=True)
class Scaled:
    """One Deployment a ScaledObject scales: its id, the object, and the scaler's bounds and window."""

    workload: str
    target: dict
    max_replicas: int
    window_seconds: int


def scaled_workloads(scaled_objects: Iterable[dict], workloads: Iterable[dict]) -> list[Scaled]:
    """The workloads each ScaledObject targets (by namespace, kind and name), with its bounds and window."""
    by_id = {(w.get("kind"), workload_id(w)): w for w in workloads}
    found = []
    for scaler in scaled_objects:
        spec = scaler.get("spec") or {}
        ref = spec.get("scaleTargetRef") or {}
        namespace = (scaler.get("metadata") or {}).get("namespace") or "default"
        target = by_id.get((ref.get("kind") or "Deployment", f"{namespace}/{ref.get('name')}"))
        if target is None:
            continue
        behavior = ((spec.get("advanced") or {}).get("horizontalPodAutoscalerConfig") or {}).get("behavior") or {}
        window = (behavior.get("scaleDown") or {}).get("stabilizationWindowSeconds")
        found.append(
            Scaled(
                workload_id(target),
                target,
                int(spec.get("maxReplicaCount") or KEDA_MAX_REPLICAS),
                HPA_SCALE_DOWN_WINDOW if window is None else int(window),
            )
        )
    return found


def replicas_fit_verdict(scaled: list[Scaled], workloads: list[dict], pools: list[dict]) -> Verdict:
    """`replicas-fit-at-max`: every workload, the scaled ones at `maxReplicaCount`, fits its GPU pools at maxSize."""
    if not scaled:
        return Verdict(FIT_NAME, True, "no ScaledObject scales a workload; nothing to count at maxReplicas")
    at_max = {s.workload: s.max_replicas for s in scaled}
    counted = []
    for workload in workloads:
        if workload_id(workload) in at_max and workload.get("kind") == "Deployment":
            workload = copy.deepcopy(workload)
            workload.setdefault("spec", {})["replicas"] = at_max[workload_id(workload)]
        counted.append(workload)
    capacity, _ = gpu_capacity(counted, pools)
    scaled_names = ", ".join(f"{s.workload} (maxReplicas {s.max_replicas})" for s in scaled)
    details = [line.replace("lower replicas", "lower maxReplicas") for line in capacity.details]
    if capacity.passed:
        return Verdict(FIT_NAME, True, f"the GPU pools hold every replica at maxReplicas: {scaled_names}", details)
    failed = [line for line in details if "can never be scheduled" in line or "cannot be counted" in line]
    return Verdict(FIT_NAME, False, _summary(failed or details), details)


def startup_budget(workload: dict) -> int | None:
    """Seconds the startup probes allow a pod before the kubelet restarts it (the longest over its containers:
    initial delay plus failures times period); None without a startup probe."""
    budgets = []
    for container in pod_of(workload).get("spec", {}).get("containers") or ():
        probe = container.get("startupProbe")
        if probe:
            period = int(probe.get("periodSeconds") or PROBE_PERIOD)
            failures = int(probe.get("failureThreshold") or PROBE_FAILURES)
            budgets.append(int(probe.get("initialDelaySeconds") or 0) + failures * period)
    return max(budgets) if budgets else None


def autoscaler_node_hold(workloads: Iterable[dict]) -> int | None:
    """The soonest, in seconds, the Cluster Autoscaler removes a node it added: the larger of
    `--scale-down-delay-after-add` and `--scale-down-unneeded-time`; None when no autoscaler runs.

    The autoscaler keeps counting how long a node has been unneeded while scale-down is in cooldown after a
    scale-up (kubernetes/autoscaler cluster-autoscaler/core/static_autoscaler.go: `UpdateClusterState` runs
    before `isScaleDownInCooldown`), so the two waits overlap rather than add up.
    """
    for workload in workloads:
        for container in pod_of(workload).get("spec", {}).get("containers") or ():
            if AUTOSCALER_IMAGE not in str(container.get("image") or ""):
                continue
            flags = dict(AUTOSCALER_DEFAULTS)
            for arg in [*(container.get("command") or ()), *(container.get("args") or ())]:
                flag, _, value = str(arg).partition("=")
                if flag in flags and value:
                    flags[flag] = value
            return max(parse_go_duration(value) for value in flags.values()) // NANOSECONDS
    return None


def scaling_outlasts_startup_verdict(scaled: list[Scaled], node_hold: int | None) -> Verdict:
    """`scaling-outlasts-startup`: each scaled workload's scale-down window, and the autoscaler's hold on a node it added
    (`node_hold`, None without an autoscaler), are at least the workload's startup budget."""
    if not scaled:
        return Verdict(STARTUP_NAME, True, "no ScaledObject scales a workload; no scale-down to time")
    problems, held = [], []
    for s in scaled:
        budget = startup_budget(s.target)
        if budget is None:
            held.append(f"{s.workload}: no startup probe, so no startup budget to outlast")
            continue
        if s.window_seconds < budget:
            problems.append(
                f"{s.workload}: scale-down stabilization window {s.window_seconds}s is shorter than its startup "
                f"budget {budget}s: a replica can be removed while another is still loading; raise "
                "scaleDownStabilizationSeconds to at least startupTimeoutSeconds"
            )
        else:
            held.append(f"{s.workload}: stabilization window {s.window_seconds}s >= startup budget {budget}s")
        if node_hold is not None and node_hold < budget:
            problems.append(
                f"{s.workload}: the Cluster Autoscaler may remove a node it added after {node_hold}s (the larger of "
                f"scaleDownDelayAfterAdd and scaleDownUnneededTime), within the startup budget {budget}s; raise "
                "one of them to at least startupTimeoutSeconds"
            )
        elif node_hold is not None:
            held.append(f"{s.workload}: Cluster Autoscaler holds a new node {node_hold}s >= startup budget {budget}s")
    if problems:
        return Verdict(STARTUP_NAME, False, _summary(problems), problems + held)
    return Verdict(STARTUP_NAME, True, "scale-down outlasts every startup: " + "; ".join(held), held)
