"""The three verdicts on queue-fed servers (components/placement/queue.py), on plain values.

The limits are SQS's, as the SQS API Reference states them (and botocore's model carries): a visibility timeout of
at most 43,200 seconds (12 hours), counts that may lag 1 minute. Karpenter's `terminationGracePeriod` bounds a
draining node's pods (Karpenter docs, concepts/disruption.md).
"""

from __future__ import annotations

import dataclasses

import pytest

from components.placement.queue import QueuedServer, dead_letter_verdict, finish_verdict, retention_verdict

TWELVE_HOURS = 43_200
COUNT_LAG = 60


def server(**changes) -> QueuedServer:
    """A server as the dev stack plans it with a 900 s request timeout: grace 10 + 930 + 30 + 15 s."""
    base = QueuedServer(
        name="chat on gpu",
        request_timeout=900,
        grace_period=985,
        shutdown_timeout=30,
        visibility_timeout=60,
        heartbeat=20.0,
        retention=345_600,
        max_receive_count=5,
        dead_letter_retention=1_209_600,
        cold_start=650.0,
        polling_interval=30,
        max_replicas=2,
        concurrency=8,
    )
    return dataclasses.replace(base, **changes)


def test_with_no_queue_every_queue_verdict_holds_and_says_so():
    assert [finish_verdict([]).passed, retention_verdict([])[0].passed, dead_letter_verdict([]).passed] == [True] * 3
    assert finish_verdict([]).message == "no server is fed from a queue"


def test_the_dev_stacks_figures_hold_every_queue_verdict():
    assert finish_verdict([server()]).passed
    assert retention_verdict([server()])[0].passed
    assert dead_letter_verdict([server()]).passed


@pytest.mark.parametrize(
    ("timeout", "visibility", "passed"),
    [
        (TWELVE_HOURS - 60, 60, True),
        (TWELVE_HOURS - 59, 60, False),
        (TWELVE_HOURS + 1, 60, False),
    ],
    ids=["at-the-cap", "a-second-over", "above-12-hours"],
)
def test_a_request_and_one_more_visibility_timeout_must_fit_twelve_hours(timeout, visibility, passed):
    verdict = finish_verdict([server(request_timeout=timeout, visibility_timeout=visibility, grace_period=10**6)])
    assert (verdict.name, verdict.passed) == ("queue-requests-finish", passed)


def test_the_cap_failure_names_the_largest_timeout_allowed():
    verdict = finish_verdict([server(request_timeout=50_000, grace_period=10**6)])
    assert "exceed SQS's 43200 s (12.0 h) visibility cap" in verdict.message
    assert f"a request timeout of at most {TWELVE_HOURS - 60} s" in verdict.message


@pytest.mark.parametrize(("grace", "passed"), [(930, True), (929, False)])
def test_the_grace_period_must_cover_the_request_and_vllms_shutdown(grace, passed):
    verdict = finish_verdict([server(request_timeout=900, shutdown_timeout=30, grace_period=grace)])
    assert verdict.passed is passed
    if not passed:
        assert "grace period 929 s is shorter than the longest request (900 s)" in verdict.message


@pytest.mark.parametrize(("bound", "passed"), [(7200, True), (984, False)])
def test_a_nodepools_termination_grace_period_must_cover_the_pods(bound, passed):
    verdict = finish_verdict([server(drain_bound=("NodePool gpu", bound))])
    assert verdict.passed is passed
    if not passed:
        assert "NodePool gpu's terminationGracePeriod 984 s (0.3 h) is shorter" in verdict.message
        assert "queue.requestTimeoutSeconds of at most 899 s" in verdict.message


@pytest.mark.parametrize(
    ("visibility", "heartbeat", "passed"), [(60, 20.0, True), (0, 0.0, False), (3, 3.0, False), (60, None, False)]
)
def test_the_heartbeat_must_come_before_the_visibility_timeout_ends(visibility, heartbeat, passed):
    verdict = finish_verdict([server(visibility_timeout=visibility, heartbeat=heartbeat)])
    assert verdict.passed is passed


@pytest.mark.parametrize("missing", ["request_timeout", "visibility_timeout", "grace_period"])
def test_figures_the_plan_did_not_find_fail_rather_than_pass(missing):
    """Any one of the three figures missing, the others as the dev stack's: nothing to judge, so it fails."""
    verdict = finish_verdict([server(**{missing: None})])
    assert not verdict.passed
    assert "found no request timeout, visibility timeout or grace period" in verdict.message


def test_retention_must_outlast_the_poll_the_count_lag_and_the_cold_start():
    """30 s poll + 60 s lag + 650 s start = 740 s."""
    assert retention_verdict([server(retention=740)])[0].passed
    verdict, _ = retention_verdict([server(retention=739)])
    assert (verdict.name, verdict.passed) == ("queue-retention-outlasts-cold-start", False)
    assert "raise queue.messageRetentionSeconds to at least 740" in verdict.message
    assert f"SQS's count lag {COUNT_LAG} s" in verdict.message


def test_retention_must_outlast_the_backlogs_drain_at_max_replicas():
    """1000 messages at 2 replicas x 8: 63 rounds of up to 900 s, after the 740 s start."""
    need = 740 + 63 * 900
    assert retention_verdict([server(expected_backlog=1000, retention=need)])[0].passed
    verdict, warnings = retention_verdict([server(expected_backlog=1000, retention=need - 1)])
    assert not verdict.passed
    assert "1000 messages at 2 x 8 at once, 63 round(s) of up to 900 s" in verdict.message
    assert warnings == []


def test_no_stated_backlog_is_a_warning():
    _, warnings = retention_verdict([server()])
    assert warnings == [
        "chat on gpu: no queue.expectedBacklog, so only the cold "
        "start is judged; state the most messages sent at once to judge their drain too"
    ]


@pytest.mark.parametrize(("receives", "passed"), [(2, True), (1, False)])
def test_a_dead_letter_queue_needs_at_least_two_receives(receives, passed):
    verdict = dead_letter_verdict([server(max_receive_count=receives)])
    assert (verdict.name, verdict.passed) == ("queue-failures-reach-dead-letter", passed)


def test_a_queue_without_a_dead_letter_queue_fails():
    verdict = dead_letter_verdict([server(max_receive_count=None, dead_letter_retention=None)])
    assert not verdict.passed
    assert "no redrive policy naming a dead-letter queue of the stack" in verdict.message


def test_a_dead_letter_queue_keeping_messages_less_long_than_the_queue_fails():
    verdict = dead_letter_verdict([server(dead_letter_retention=3600)])
    assert not verdict.passed
    assert "keeps a message 3600 s (1.0 h), less than the queue's 345600 s (96.0 h)" in verdict.message
