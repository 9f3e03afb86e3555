"""Each refusal of a server's replica-autoscaling settings (`vllm.autoscaling`), pinned whole: every problem's key
and full message, and no other (the passing side of each limit is in test_settings_whole_texts_limits.py)."""

from __future__ import annotations

import pytest

from tests.support.finding_values import problems_of

_AT_LEAST_ONE = "allowed: an integer >= 1"
# kedacore/keda v2.20.2 config/crd/bases/keda.sh_scaledobjects.yaml: minReplicaCount, maxReplicaCount and
# pollingInterval are `format: int32`, at most 2**31 - 1 = 2,147,483,647.
_REPLICAS = "allowed: an integer from 1 to 2,147,483,647 (KEDA's int32)"
_SECONDS = "allowed: an integer from 1 to 2,147,483,647 seconds (KEDA's int32)"
_REPLICAS_OR_A_QUEUE = (
    "allowed: an integer from 1 to 2,147,483,647 (KEDA's int32), or 0 with queue.enabled (the SQS queue counts "
    "requests at zero replicas)"
)


def _row(values: dict, problems: list[tuple[str, str]], case: str):
    return pytest.param(values, problems, id=case)


def _scaling(**keys) -> dict:
    return {"vllm": {"autoscaling": keys}}


AUTOSCALING = [
    _row(
        _scaling(minReplicas=0),
        [
            (
                "vllm.autoscaling.minReplicas",
                "0 is refused: at 0 replicas vLLM exports no metrics, so the queue KEDA scales on disappears with the "
                f"last pod and nothing wakes the Deployment; {_REPLICAS_OR_A_QUEUE}",
            )
        ],
        "scale to zero",
    ),
    _row(
        _scaling(minReplicas=-1),
        [("vllm.autoscaling.minReplicas", f"invalid value -1; {_REPLICAS_OR_A_QUEUE}")],
        "negative replicas",
    ),
    _row(
        _scaling(maxReplicas=0),
        [("vllm.autoscaling.maxReplicas", f"invalid value 0; {_REPLICAS}")],
        "a maximum of zero",
    ),
    _row(
        _scaling(targetWaitingPerReplica=0),
        [("vllm.autoscaling.targetWaitingPerReplica", f"invalid value 0; {_AT_LEAST_ONE}")],
        "a queue target of zero",
    ),
    _row(
        _scaling(pollingIntervalSeconds=0),
        [("vllm.autoscaling.pollingIntervalSeconds", f"invalid value 0; {_SECONDS}")],
        "polling never",
    ),
    _row(
        _scaling(targetKvCacheUsage=0),
        [
            (
                "vllm.autoscaling.targetKvCacheUsage",
                "invalid value 0.0; allowed: a fraction 0 < x <= 1 of the KV cache, such as 0.8",
            )
        ],
        "a KV-cache target of zero",
    ),
    _row(
        _scaling(targetKvCacheUsage=1.01),
        [
            (
                "vllm.autoscaling.targetKvCacheUsage",
                "invalid value 1.01; allowed: a fraction 0 < x <= 1 of the KV cache, such as 0.8",
            )
        ],
        "a KV-cache target past full",
    ),
    _row(
        _scaling(scaleDownStabilizationSeconds=3601),
        [
            (
                "vllm.autoscaling.scaleDownStabilizationSeconds",
                "invalid value 3601; allowed: 0-3600 seconds (the HorizontalPodAutoscaler's limit)",
            )
        ],
        "a window past an hour",
    ),
    _row(
        _scaling(scaleDownStabilizationSeconds=-1),
        [
            (
                "vllm.autoscaling.scaleDownStabilizationSeconds",
                "invalid value -1; allowed: 0-3600 seconds (the HorizontalPodAutoscaler's limit)",
            )
        ],
        "a negative window",
    ),
    _row(
        _scaling(minReplicas=3, maxReplicas=2),
        [("vllm.autoscaling.maxReplicas", "2 is below minReplicas 3; allowed: at least minReplicas")],
        "a maximum below the minimum",
    ),
]


@pytest.mark.parametrize(("values", "problems"), AUTOSCALING)
def test_a_refused_autoscaling_setting_is_reported_whole_and_alone(values, problems):
    assert problems_of(values) == problems
