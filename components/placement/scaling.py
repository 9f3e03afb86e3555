"""Two verdicts on replica autoscaling that the GPU pools can follow and that never removes a loading replica.

Both read KEDA ScaledObjects (keda.sh/v1alpha1) as the plan renders them, beside the workloads they scale:

- `replicas-fit-at-max`: the count of `gpu-capacity-fits-replicas` (components/placement/capacity.py: pods per node from the GPUs
  each pod requests, times the pool's nodes) with every scaled Deployment at its `maxReplicaCount`, the models
  sharing a pool counted together, against each pool at its `maxSize`. A replica beyond that stays Pending
  with the pool at its maximum. Without the Cluster Autoscaler nothing grows a node group past its
  `desiredSize`, so node group pools are counted at that (Karpenter and Auto Mode pools grow themselves).
- `scaling-outlasts-startup`: a scaled Deployment's scale-down stabilization window is longer than the time from
  a scale-up to a serving replica: the cold-start estimate of the steps before its container starts (the
  scale-up decision, a node's launch, the image pull: facts/cold_start.py) and then the longer of its startup
  probe's allowance and the estimate of loading. A scale-down deletes the pods that are not ready first (kubernetes
  pkg/controller/controller_utils.go, `ActivePodsWithRanks.Less`: unassigned, then pending, then not ready), so a
  window that ends while the replica it added is still loading takes that replica away, and a window equal to the
  time lets the removal and the readiness race. The soonest the Cluster Autoscaler removes a node it has
  just added is at least the startup allowance: once a replica's pod is gone, its node is unneeded.

Standard library only.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass

from ..facts.cold_start import ColdStart
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
# The longest window the HorizontalPodAutoscaler takes (k8s.io/api autoscaling/v2 types.go,
# HPAScalingRules.StabilizationWindowSeconds: "less than or equal to 3600").
HPA_MAX_WINDOW = 3600
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


def pools_that_grow(pools: list[dict], autoscaler: bool) -> tuple[list[dict], list[str]]:
    """`pools` as far as something grows them: without the Cluster Autoscaler (`autoscaler` False) a node group
    keeps its `desiredSize`, so its most nodes are that; Karpenter and Auto Mode pools launch nodes themselves up to
    their limits. Also one line per node group held at its desired size."""
    if autoscaler:
        return pools, []
    held, notes = [], []
    for pool in pools:
        if pool.get("provisioner", "nodeGroup") == "nodeGroup" and pool.get("maxCount") != pool.get("count"):
            notes.append(
                f"{pool['name']}: no Cluster Autoscaler runs, so nothing grows the node group past desiredSize "
                f"{pool.get('count') or 0}; counted at that, not at maxSize {pool.get('maxCount') or 0}"
            )
            pool = {**pool, "maxCount": pool.get("count") or 0}
        held.append(pool)
    return held, notes


def replicas_fit_verdict(
    scaled: list[Scaled], workloads: list[dict], pools: list[dict], autoscaler: bool = True
) -> Verdict:
    """`replicas-fit-at-max`: every workload, the scaled ones at `maxReplicaCount`, fits its GPU pools at maxSize,
    node groups at `desiredSize` when no Cluster Autoscaler runs (`autoscaler` False)."""
    if not scaled:
        return Verdict(FIT_NAME, True, "no ScaledObject scales a workload; nothing to count at maxReplicas")
    pools, held = pools_that_grow(pools, autoscaler)
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
    if held:
        details = held + [line.replace("at maxSize", "at the most nodes they reach") for line in details]
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


def time_to_serving(budget: int | None, cold_start: ColdStart | None) -> tuple[float | None, str]:
    """Seconds from a scale-up to a replica that serves, and how they were counted: the cold-start estimate of the
    steps outside the startup probe's allowance (the node and the image before the container starts, the probes
    noticing the server after), and the longer of that allowance (`budget`) and the estimate of loading; the
    allowance alone without an estimate, None with neither."""
    if cold_start is None:
        return (None, "") if budget is None else (float(budget), f"startup budget {budget}s (no cold-start estimate)")
    before = cold_start.total - cold_start.in_probe
    loading = cold_start.in_probe if budget is None else max(float(budget), cold_start.in_probe)
    counted = "startup budget" if budget is not None and budget >= cold_start.in_probe else "loading estimate"
    return before + loading, f"{before:.0f}s outside the startup probe + {counted} {loading:.0f}s"


def scaling_outlasts_startup_verdict(
    scaled: list[Scaled], node_hold: int | None, cold_starts: dict[str, ColdStart] | None = None
) -> Verdict:
    """`scaling-outlasts-startup`: each scaled workload's scale-down window is longer than the time to a serving
    replica (`time_to_serving`, its cold start from `cold_starts` by workload id), and the autoscaler's hold on a
    node it added (`node_hold`, None without an autoscaler) is at least the workload's startup budget."""
    if not scaled:
        return Verdict(STARTUP_NAME, True, "no ScaledObject scales a workload; no scale-down to time")
    problems, held = [], []
    for s in scaled:
        budget = startup_budget(s.target)
        serving, counted = time_to_serving(budget, (cold_starts or {}).get(s.workload))
        if serving is None:
            held.append(f"{s.workload}: no startup probe and no cold-start estimate, so no startup to outlast")
            continue
        if s.window_seconds <= serving:
            problems.append(
                f"{s.workload}: scale-down stabilization window {s.window_seconds}s is not longer than the "
                f"{serving:.0f}s a new replica takes to serve ({counted}): a replica can be removed while it is "
                f"still loading; raise scaleDownStabilizationSeconds above {serving:.0f}"
                + (
                    f" (the HorizontalPodAutoscaler's limit is {HPA_MAX_WINDOW}s: lower startupTimeoutSeconds, or "
                    "start faster: imageCache, weights from S3)"
                    if serving >= HPA_MAX_WINDOW
                    else ""
                )
            )
        else:
            held.append(f"{s.workload}: stabilization window {s.window_seconds}s > {serving:.0f}s to serve ({counted})")
        if budget is None:
            continue
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
