"""`vllm.queue` (and each `models` entry's `queue`): what it accepts, and each refusal whole.

The SQS bounds are the SQS API Reference's (CreateQueue, `Attributes`): VisibilityTimeout 0 to 43,200 seconds,
MessageRetentionPeriod 60 to 1,209,600 seconds; the console's Maximum receives is 1 to 1,000.
"""

from __future__ import annotations

import pytest

from components.settings import parse_settings
from components.settings.queue import QueueSettings
from tests.support.finding_values import problems_of

QUEUE = {"enabled": True, "requestTimeoutSeconds": 600}


def _queue(**keys) -> dict:
    return {"vllm": {"queue": {**QUEUE, **keys}}}


def test_a_queue_is_off_unless_enabled_and_needs_no_timeout_then():
    assert parse_settings({}).vllm.queue == QueueSettings()
    assert not parse_settings({}).vllm.queue.enabled


def test_a_queue_with_a_request_timeout_takes_the_defaults():
    queue = parse_settings(_queue()).vllm.queue
    assert (queue.visibility_timeout_seconds, queue.message_retention_seconds, queue.max_receive_count) == (
        60,
        345_600,
        5,
    )
    assert queue.target_per_replica == queue.concurrency == 8


def test_the_default_retention_is_sqss_own_as_botocores_model_states_it():
    from components.facts import sqs_model

    assert QueueSettings().message_retention_seconds == sqs_model.default_message_retention() == 4 * 24 * 3600


def test_a_target_per_replica_overrides_the_concurrency():
    assert parse_settings(_queue(targetMessagesPerReplica=3)).vllm.queue.target_per_replica == 3


@pytest.mark.parametrize(
    ("queue", "problems"),
    [
        (
            {"enabled": True},
            [
                (
                    "vllm.queue.requestTimeoutSeconds",
                    "is not set, and enabled is true; allowed: the longest one request may run, in seconds (the "
                    "consumer's timeout, and what the pod's grace period must cover)",
                )
            ],
        ),
        (
            {**QUEUE, "visibilityTimeoutSeconds": 43_201},
            [
                (
                    "vllm.queue.visibilityTimeoutSeconds",
                    "out of range 43201; allowed: 0-43200 seconds (SQS's VisibilityTimeout, botocore's SQS model)",
                )
            ],
        ),
        (
            {**QUEUE, "messageRetentionSeconds": 59},
            [
                (
                    "vllm.queue.messageRetentionSeconds",
                    "out of range 59; allowed: 60-1209600 seconds (SQS's MessageRetentionPeriod, botocore's SQS model)",
                )
            ],
        ),
        (
            {**QUEUE, "maxReceiveCount": 1001},
            [("vllm.queue.maxReceiveCount", "invalid value 1001; allowed: 1-1000 (SQS's Maximum receives)")],
        ),
        (
            {**QUEUE, "requestTimeoutSeconds": 0, "concurrency": 0},
            [
                ("vllm.queue.requestTimeoutSeconds", "invalid value 0; allowed: an integer >= 1"),
                ("vllm.queue.concurrency", "invalid value 0; allowed: 1-256"),
            ],
        ),
        (
            {**QUEUE, "resultsBucket": "Not_A_Bucket"},
            [
                (
                    "vllm.queue.resultsBucket",
                    "invalid bucket name 'Not_A_Bucket'; allowed: an S3 bucket name: 3-63 lowercase letters, digits, "
                    "dots and hyphens, starting and ending with a letter or digit, no '..', not an IP address",
                )
            ],
        ),
    ],
    ids=["no-timeout", "visibility-over-12-hours", "retention-under-a-minute", "receives-over-1000", "zeros", "bucket"],
)
def test_a_refused_queue_setting_is_reported_whole(queue, problems):
    assert problems_of({"vllm": {"queue": queue}}) == problems


def test_zero_minimum_replicas_is_accepted_with_a_queue():
    settings = parse_settings({"vllm": {"queue": QUEUE, "autoscaling": {"minReplicas": 0}}})
    assert settings.vllm.autoscaling.min_replicas == 0
    assert settings.vllm.scales


def test_zero_minimum_replicas_is_still_refused_without_a_queue():
    [(key, message)] = problems_of({"vllm": {"autoscaling": {"enabled": True, "minReplicas": 0}}})
    assert key == "vllm.autoscaling.minReplicas"
    assert message.endswith(
        "allowed: an integer from 1 to 2,147,483,647 (KEDA's int32), or 0 with queue.enabled (the SQS queue counts requests at zero replicas)"
    )


def test_a_fleet_model_takes_a_queue_of_its_own():
    settings = parse_settings(
        {
            "gpuPools": {"a10g": {"instanceTypes": ["g5.xlarge"]}},
            "models": [
                {"name": "batch", "pool": "a10g", "queue": QUEUE, "autoscaling": {"minReplicas": 0}},
                {"name": "chat", "pool": "a10g"},
            ],
        }
    )
    queued = {server.name: server.settings.queue.enabled for server in settings.servers}
    assert queued == {"batch": True, "chat": False}


def test_a_fleet_models_queue_is_checked_under_its_key():
    [(key, _)] = problems_of(
        {
            "gpuPools": {"a10g": {"instanceTypes": ["g5.xlarge"]}},
            "models": [{"name": "batch", "pool": "a10g", "queue": {"enabled": True}}],
        }
    )
    assert key == "models.0.queue.requestTimeoutSeconds"
