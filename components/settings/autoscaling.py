"""Settings of a vLLM server's replica autoscaling (`vllm.autoscaling`, and each `models` entry's): KEDA scales
the server's Deployment on vLLM's own queue, components/autoscaling/keda.py and components/autoscaling/keda_manifests.py."""

from __future__ import annotations

from typing import Annotated

from ..facts.kubernetes import INT32_MAX
from .errors import ConfigProblem
from .fields import rule
from .section import SectionModel

# vLLM exports its metrics only from running replicas, so at zero replicas the queue KEDA reads is gone and
# nothing would ever scale the Deployment up again (KEDA's HTTP add-on exists to count requests at zero:
# kedacore/http-add-on README, "scale to zero"). An SQS queue (`queue`) is such a demand source: it counts the
# requests waiting while no server runs, so with one 0 is allowed (the rule is VllmSettings', which sees both).
SCALE_TO_ZERO_REASON = (
    "at 0 replicas vLLM exports no metrics, so the queue KEDA scales on disappears with the last pod and nothing "
    "wakes the Deployment"
)


# KEDA's ScaledObject types the counts and the interval as int32 (facts/kubernetes.py, INT32_MAX).
_REPLICAS = f"an integer from 1 to {INT32_MAX:,} (KEDA's int32)"
_SECONDS = f"an integer from 1 to {INT32_MAX:,} seconds (KEDA's int32)"
SCALE_TO_ZERO_ALLOWED = (
    f"an integer from 1 to {INT32_MAX:,} (KEDA's int32), or 0 with queue.enabled (the SQS queue counts requests at "
    "zero replicas)"
)


class AutoscalingSettings(SectionModel):
    """Replicas that follow vLLM's queue (`vllm.autoscaling`): KEDA scales the Deployment between `minReplicas`
    and `maxReplicas` on `vllm:num_requests_waiting`; `replicas` is then the initial count. A server fed from an
    SQS queue (`queue`) scales on the queue within the same bounds, windows and polling interval, whether or not
    `enabled` adds vLLM's own queue."""

    enabled: bool = False
    """Scale the server's replicas on its queue with KEDA, which the stack installs on the system nodes."""
    min_replicas: Annotated[int, rule(lambda n: 0 <= n <= INT32_MAX, SCALE_TO_ZERO_ALLOWED)] = 1
    """Fewest replicas KEDA keeps, at least 1; 0 only with `queue.enabled`, whose SQS queue counts the requests
    waiting while no server runs (vLLM's own queue disappears with the last pod)."""
    max_replicas: Annotated[int, rule(lambda n: 1 <= n <= INT32_MAX, _REPLICAS)] = 2
    """Most replicas KEDA runs; the plan's verdict `replicas-fit-at-max` checks the GPU pool holds them all at its maximum size."""
    target_waiting_per_replica: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1")] = 5
    """Requests waiting in vLLM's queue per replica that KEDA aims at: above it, replicas are added."""
    target_kv_cache_usage: (
        Annotated[float, rule(lambda x: 0 < x <= 1, "a fraction 0 < x <= 1 of the KV cache, such as 0.8")] | None
    ) = None
    """KV-cache usage (vLLM's `vllm:kv_cache_usage_perc`, 1 is full) averaged over the replicas that KEDA aims at as
    well: above it, replicas are added even while the queue is short. Default none (the queue alone)."""
    # The HorizontalPodAutoscaler KEDA creates refuses a window over one hour (k8s.io/api autoscaling/v2
    # types.go, HPAScalingRules.StabilizationWindowSeconds: "less than or equal to 3600").
    scale_down_stabilization_seconds: Annotated[
        int, rule(lambda n: 0 <= n <= 3600, "0-3600 seconds (the HorizontalPodAutoscaler's limit)")
    ] = 3600
    """Seconds the queue must stay low before a replica is removed; the plan's verdict `scaling-outlasts-startup`
    checks it is at least the startup budget (`startupTimeoutSeconds`), so a replica that is still loading is never scaled away."""
    polling_interval_seconds: Annotated[int, rule(lambda n: 1 <= n <= INT32_MAX, _SECONDS)] = 30
    """How often KEDA asks Prometheus for the queue, in seconds."""

    def problems(self) -> list[ConfigProblem]:
        if self.max_replicas < self.min_replicas:
            return [
                ConfigProblem(
                    "maxReplicas",
                    f"{self.max_replicas!r} is below minReplicas {self.min_replicas}; allowed: at least minReplicas",
                )
            ]
        return []
