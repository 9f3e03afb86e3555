"""Settings of a vLLM server's request queue (`vllm.queue`, and each `models` entry's): requests wait in SQS, a
consumer beside the server answers them and writes the results to S3, and KEDA scales the server on the queue, to
zero when nothing waits (components/vllm/queue/)."""

from __future__ import annotations

from typing import Annotated

from ..facts import sqs_model
from .errors import ConfigProblem, _bad
from .fields import checked, rule
from .model_source import BucketName, KeyPrefix
from .section import SectionModel


def _within(bounds: str, name: str):
    """A validator of an SQS attribute's range, read from botocore's model when a value is checked (so that the
    settings do not read the model at import)."""

    def check(value: int) -> None:
        low, high = getattr(sqs_model, bounds)()
        if not low <= value <= high:
            raise _bad(value, f"{low}-{high} seconds (SQS's {name}, botocore's SQS model)", "out of range")

    return checked(check)


class QueueSettings(SectionModel):
    """Requests that wait in an SQS queue for the server (`vllm.queue`): OpenAI Batch API lines sent with
    `eks-gpu-batch submit`, answered by a consumer beside vLLM in the same pod, the results written to S3. KEDA
    scales the server on the queue between `autoscaling.minReplicas` (0 allowed here, since the queue counts
    requests while no server runs) and `autoscaling.maxReplicas`."""

    enabled: bool = False
    """Create the queue, its dead-letter queue, the consumer and the ScaledObject's SQS trigger."""
    request_timeout_seconds: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1")] | None = None
    """The longest one request may run, in seconds; required with a queue. The consumer gives up on a request after
    it and leaves the message to come back, and the pod's grace period covers it, so that scaling in never kills a
    request; the plan's verdict `queue-requests-finish` checks it against SQS's 12-hour visibility cap and the
    pod's grace period. Default: none, which a queue refuses."""
    visibility_timeout_seconds: Annotated[int, _within("visibility_timeout_range", "VisibilityTimeout")] = 60
    """The queue's visibility timeout: how long a received message stays hidden. The consumer extends it every
    third of it while a request runs, so a short one returns a crashed consumer's messages soon and a long request
    still runs once."""
    message_retention_seconds: Annotated[int, _within("message_retention_range", "MessageRetentionPeriod")] = 345600
    """How long a message may wait, in seconds (SQS's own default, 4 days); the plan's verdict
    `queue-retention-outlasts-cold-start` checks it outlasts a cold start from zero and the drain of
    `expectedBacklog`. The dead-letter queue keeps its messages for SQS's longest, 14 days."""
    max_receive_count: Annotated[
        int,
        rule(
            lambda n: sqs_model.MAX_RECEIVE_COUNT_RANGE[0] <= n <= sqs_model.MAX_RECEIVE_COUNT_RANGE[1],
            "1-1000 (SQS's Maximum receives)",
        ),
    ] = 5
    """Receives of one message before SQS moves it to the dead-letter queue: a request that fails with a server
    error, a timeout or no server is tried this many times."""
    concurrency: Annotated[int, rule(lambda n: 1 <= n <= 256, "1-256")] = 8
    """Requests one replica's consumer sends vLLM at once (vLLM batches them)."""
    target_messages_per_replica: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1")] | None = None
    """Messages waiting or in flight per replica that KEDA aims at (its trigger's `queueLength`): above it,
    replicas are added. Default: `concurrency`."""
    results_bucket: BucketName | None = None
    """The bucket the results are written to. Default: the server's weights bucket with `source.type` `s3`, else a
    bucket the stack creates (private, encrypted, versioned)."""
    results_expiration_days: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1 (days)")] = 30
    """Days a result is kept: a lifecycle rule on the results prefix expires each result (and its noncurrent
    versions) this long after it is written, so collected batches do not pile up in S3. Applied to the bucket the
    queue creates; S3 keeps one lifecycle configuration per bucket, so on a bucket you give (`resultsBucket`, or
    the weights bucket) the stack writes none and you set the rule on the prefix yourself."""
    results_prefix: KeyPrefix | None = None
    """The key prefix of the results, `<prefix>/<batch id>/<custom_id>.json`. Default: `results/<namespace>/<server
    name>`, one per model."""
    expected_backlog: Annotated[int, rule(lambda n: n >= 0, "an integer >= 0")] | None = None
    """The most messages you expect to send at once, for the verdict `queue-retention-outlasts-cold-start`: they
    must all be answered at `autoscaling.maxReplicas`, each request taking up to `requestTimeoutSeconds`, before
    the queue's retention drops the last. Default none (the cold start alone is judged, with a warning)."""

    def problems(self) -> list[ConfigProblem]:
        if self.enabled and self.request_timeout_seconds is None:
            return [
                ConfigProblem(
                    "requestTimeoutSeconds",
                    "is not set, and enabled is true; allowed: the longest one request may run, in seconds (the "
                    "consumer's timeout, and what the pod's grace period must cover)",
                )
            ]
        return []

    @property
    def target_per_replica(self) -> int:
        """`targetMessagesPerReplica`, else `concurrency`."""
        return self.target_messages_per_replica or self.concurrency
