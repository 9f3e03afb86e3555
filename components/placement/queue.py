"""Three verdicts on a vLLM server fed from an SQS queue (components/vllm/queue/), from the figures the stack states:
the queue as the program registers it, the server's Deployment and ScaledObject as the plan renders them, the
pool's NodePool, and the cold-start estimate of facts/cold_start.py.

- `queue-requests-finish`: a request runs to its end once started. The consumer extends a running request's
  visibility to the queue's timeout every third of it, and SQS refuses to extend a message beyond 12 hours from its
  receive (botocore's SQS model, ChangeMessageVisibility: "The maximum is 12 hours"; "If you attempt to set the
  VisibilityTimeout to a value greater than the maximum time left, Amazon SQS returns an error"), so the request
  timeout and one more timeout must fit 12 hours; the heartbeat must come before the timeout ends; the pod's grace period covers the request and vLLM's own shutdown after it, so
  scaling in never kills a request; and a Karpenter NodePool that drains a node deletes its pods once its
  `terminationGracePeriod` is spent, whatever their own (Karpenter docs, concepts/disruption.md,
  "TerminationGracePeriod"), so that must cover the pod's grace period too.
- `queue-retention-outlasts-cold-start`: no message expires while the servers start from zero and work through
  the backlog. From zero, KEDA sees a message at its next poll, SQS's approximate counts may lag a minute
  (botocore's SQS model, GetQueueAttributes), and the first server takes the plan's cold-start estimate; then
  `expectedBacklog` messages drain at `maxReplicas` replicas of `concurrency` requests each, each request taking
  at most `requestTimeoutSeconds`. The queue's retention must outlast all of it. (Visibility does not run down while
  a pod starts: the consumer receives nothing before vLLM answers `/health`.)
- `queue-failures-reach-dead-letter`: a message that keeps failing leaves the queue for its dead-letter queue
  rather than being retried until it expires: the redrive policy names a queue of the stack with `maxReceiveCount`
  at least 2 (at 1 a single interrupted attempt, a node lost or a pod killed, sends a good request there), and the
  dead-letter queue keeps messages at least as long as the queue (a message's age counts from its first enqueue:
  Amazon SQS Developer Guide, "Using dead-letter queues").

Standard library and facts only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..facts import sqs_model
from .verdict import Verdict, _summary

FINISH_NAME = "queue-requests-finish"
RETENTION_NAME = "queue-retention-outlasts-cold-start"
DEAD_LETTER_NAME = "queue-failures-reach-dead-letter"
MIN_RECEIVES = 2


@dataclass(frozen=True)
class QueuedServer:
    """One queue-fed server, as the plan reads it; a figure it could not read is None and its check reported."""

    name: str
    """The model and its pool, as the other verdicts name them."""
    request_timeout: int | None
    """The consumer's `REQUEST_TIMEOUT_SECONDS` in the rendered Deployment."""
    grace_period: int | None
    """The pod's `terminationGracePeriodSeconds` in the rendered Deployment."""
    shutdown_timeout: int
    """vLLM's `--shutdown-timeout`, which runs after the consumer's drain."""
    visibility_timeout: int | None
    """The queue's `visibilityTimeoutSeconds` as registered."""
    heartbeat: float | None
    """Seconds between the consumer's extensions of a running request's visibility, at that timeout."""
    retention: int | None
    """The queue's `messageRetentionSeconds` as registered."""
    max_receive_count: int | None
    """`maxReceiveCount` of the queue's redrive policy; None without one."""
    dead_letter_retention: int | None
    """The retention of the queue the redrive policy names; None when it names no queue of the stack."""
    drain_bound: tuple[str, int] | None = None
    """The NodePool that may drain the pod's node and its `terminationGracePeriod` in seconds; None for a node
    group (the Cluster Autoscaler spares the pod's node: `safe-to-evict` false)."""
    cold_start: float | None = None
    """Seconds from a pending pod to a server that answers, from zero (the plan's estimate); None when not estimated."""
    polling_interval: int | None = None
    """KEDA's `pollingInterval` of the ScaledObject."""
    max_replicas: int | None = None
    """KEDA's `maxReplicaCount`."""
    concurrency: int | None = None
    """The consumer's `CONCURRENCY`: requests per replica at once."""
    expected_backlog: int | None = None
    """`queue.expectedBacklog`: the most messages sent at once."""


def _hours(seconds: float) -> str:
    return f"{seconds:.0f} s ({seconds / 3600:.1f} h)"


def finish_verdict(servers: list[QueuedServer]) -> Verdict:
    """`queue-requests-finish` over every queue-fed server."""
    if not servers:
        return Verdict(FINISH_NAME, True, "no server is fed from a queue")
    cap = sqs_model.visibility_timeout_range()[1]
    failed: list[str] = []
    held: list[str] = []
    for server in servers:
        timeout, visibility, grace = server.request_timeout, server.visibility_timeout, server.grace_period
        if timeout is None or visibility is None or grace is None:
            failed.append(
                f"{server.name}: the plan found no request timeout, visibility timeout or grace period to judge "
                "(a consumer, queue or Deployment the stack renders otherwise)"
            )
            continue
        if timeout + visibility > cap:
            failed.append(
                f"{server.name}: queue.requestTimeoutSeconds {timeout} and one more visibility timeout "
                f"({visibility} s) exceed SQS's {_hours(cap)} visibility cap, so SQS refuses the heartbeat that "
                f"would keep the request's message hidden and it runs twice; allowed: a request timeout of at most "
                f"{cap - visibility} s"
            )
        heartbeat = server.heartbeat
        if heartbeat is None or not 0 < heartbeat < visibility:
            failed.append(
                f"{server.name}: the consumer's heartbeat every {heartbeat} s does not come before the visibility "
                f"timeout of {visibility} s ends, so a running request's message shows again and another replica "
                "runs it too; allowed: queue.visibilityTimeoutSeconds of at least 1"
            )
        needed = timeout + server.shutdown_timeout
        if grace < needed:
            failed.append(
                f"{server.name}: the pod's grace period {grace} s is shorter than the longest request ({timeout} s) "
                f"and vLLM's shutdown after it ({server.shutdown_timeout} s), so scaling in kills a running request"
            )
        if server.drain_bound is not None and server.drain_bound[1] < grace:
            pool, bound = server.drain_bound
            failed.append(
                f"{server.name}: {pool}'s terminationGracePeriod {_hours(bound)} is shorter than the pod's grace "
                f"period {_hours(grace)} for a {timeout} s request, so Karpenter deletes the pod while a request "
                "may still run when it drains the node; allowed: queue.requestTimeoutSeconds of at most "
                f"{bound - (grace - timeout)} s"
            )
        if not any(line.startswith(f"{server.name}:") for line in failed):
            held.append(
                f"{server.name}: a {timeout} s request, heartbeat every {heartbeat:g} s of {visibility} s, "
                f"grace period {grace} s"
            )
    if failed:
        return Verdict(FINISH_NAME, False, _summary(failed), failed)
    return Verdict(FINISH_NAME, True, "every queued request can finish: " + "; ".join(held), held)


def retention_need(server: QueuedServer) -> tuple[float, list[str]] | None:
    """Seconds the oldest message may wait before it is answered, from zero replicas, and the terms; None when a
    figure is missing."""
    if server.cold_start is None or server.polling_interval is None or server.request_timeout is None:
        return None
    lag = sqs_model.approximate_count_lag()
    terms = [
        f"KEDA's poll {server.polling_interval} s",
        f"SQS's count lag {lag} s",
        f"a cold start of about {server.cold_start:.0f} s",
    ]
    need = server.polling_interval + lag + server.cold_start
    if server.expected_backlog and server.max_replicas and server.concurrency:
        rounds = math.ceil(server.expected_backlog / (server.max_replicas * server.concurrency))
        need += rounds * server.request_timeout
        terms.append(
            f"{server.expected_backlog} messages at {server.max_replicas} x {server.concurrency} at once, "
            f"{rounds} round(s) of up to {server.request_timeout} s"
        )
    return need, terms


def retention_verdict(servers: list[QueuedServer]) -> tuple[Verdict, list[str]]:
    """`queue-retention-outlasts-cold-start` over every queue-fed server, and a warning per server that states
    no backlog."""
    if not servers:
        return Verdict(RETENTION_NAME, True, "no server is fed from a queue"), []
    failed: list[str] = []
    held: list[str] = []
    warnings: list[str] = []
    for server in servers:
        found = retention_need(server)
        if found is None or server.retention is None:
            failed.append(
                f"{server.name}: the plan found no retention, cold-start estimate, polling interval or request "
                "timeout to judge"
            )
            continue
        need, terms = found
        if server.expected_backlog is None:
            warnings.append(
                f"{server.name}: no queue.expectedBacklog, so only the cold start is judged; state the most "
                "messages sent at once to judge their drain too"
            )
        if server.retention < need:
            failed.append(
                f"{server.name}: the queue keeps a message {_hours(server.retention)} but the oldest may wait "
                f"about {_hours(need)} ({' + '.join(terms)}), so it expires unanswered; raise "
                f"queue.messageRetentionSeconds to at least {math.ceil(need)}"
            )
        else:
            held.append(
                f"{server.name}: retention {_hours(server.retention)} >= about {_hours(need)} ({' + '.join(terms)})"
            )
    if failed:
        return Verdict(RETENTION_NAME, False, _summary(failed), [*failed, *warnings]), warnings
    return Verdict(
        RETENTION_NAME, True, "every queue outlasts its cold start: " + "; ".join(held), [*held, *warnings]
    ), warnings


def dead_letter_verdict(servers: list[QueuedServer]) -> Verdict:
    """`queue-failures-reach-dead-letter` over every queue-fed server."""
    if not servers:
        return Verdict(DEAD_LETTER_NAME, True, "no server is fed from a queue")
    failed: list[str] = []
    held: list[str] = []
    for server in servers:
        receives, kept = server.max_receive_count, server.dead_letter_retention
        if receives is None or kept is None:
            failed.append(
                f"{server.name}: the queue has no redrive policy naming a dead-letter queue of the stack, so a "
                "request that always fails is retried until it expires"
            )
            continue
        if receives < MIN_RECEIVES:
            failed.append(
                f"{server.name}: maxReceiveCount {receives} sends a message to the dead-letter queue after one "
                f"failed attempt, such as a pod killed or a node lost; allowed: queue.maxReceiveCount of at least "
                f"{MIN_RECEIVES}"
            )
        if server.retention is not None and kept < server.retention:
            failed.append(
                f"{server.name}: the dead-letter queue keeps a message {_hours(kept)}, less than the queue's "
                f"{_hours(server.retention)}, and a message's age counts from its first send, so one that fails "
                "late is dropped on arrival"
            )
        if not any(line.startswith(f"{server.name}:") for line in failed):
            held.append(f"{server.name}: after {receives} receives, kept {_hours(kept)}")
    if failed:
        return Verdict(DEAD_LETTER_NAME, False, _summary(failed), failed)
    return Verdict(
        DEAD_LETTER_NAME, True, "every failing request reaches a dead-letter queue: " + "; ".join(held), held
    )
