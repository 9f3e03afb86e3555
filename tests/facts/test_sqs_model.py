"""SQS's limits as read from botocore's SQS model (components/facts/sqs_model.py), against the figures the SQS API
Reference and Developer Guide publish (read 2026-12-04): VisibilityTimeout 0 to 43,200 s (12 hours),
MessageRetentionPeriod 60 s to 1,209,600 s (14 days, default 4 days), MaximumMessageSize 1,024 B to 1 MiB (raised
from 256 KiB in August 2025), ReceiveMessageWaitTimeSeconds 0 to 20 s, ReceiveMessage's MaxNumberOfMessages 1 to
10, ten entries a batch call and 1 MiB a SendMessageBatch, and approximate counts that settle within a minute."""

from __future__ import annotations

import pytest

from components.facts import sqs_model


@pytest.mark.parametrize(
    ("read", "published"),
    [
        (sqs_model.visibility_timeout_range, (0, 43_200)),
        (sqs_model.message_retention_range, (60, 1_209_600)),
        (sqs_model.message_size_range, (1024, 1_048_576)),
        (sqs_model.receive_wait_range, (0, 20)),
        (sqs_model.receive_batch_range, (1, 10)),
        (sqs_model.default_message_retention, 345_600),
        (sqs_model.batch_entries_max, 10),
        (sqs_model.batch_payload_max, 1_048_576),
        (sqs_model.approximate_count_lag, 60),
    ],
    ids=lambda value: getattr(value, "__name__", None) or str(value),
)
def test_each_limit_is_the_published_one(read, published):
    assert read() == published


def test_a_model_that_no_longer_states_a_limit_fails_loudly(monkeypatch):
    model = sqs_model._model()
    shapes = {**model["shapes"], "TooManyEntriesInBatchRequest": {"documentation": "<p>Too many entries.</p>"}}
    monkeypatch.setattr(sqs_model, "_model", lambda: {**model, "shapes": shapes})
    sqs_model.batch_entries_max.cache_clear()
    try:
        with pytest.raises(RuntimeError, match="no longer states the entries of a batch request"):
            sqs_model.batch_entries_max()
    finally:
        sqs_model.batch_entries_max.cache_clear()
