"""Amazon SQS limits, read from the SQS API model that botocore bundles.

The model types a queue's attributes as a map of strings, the batch operations' entries as plain lists and the
receive call's counts as plain integers: SQS states their bounds only in the documentation of each member
("Valid values: An integer from 0 to 43,200 (12 hours)"), so they are read from there, and a model whose text no
longer says so fails loudly rather than letting an old figure stand. moto, which the local tests run, does not
enforce all of them (it accepts a visibility timeout above 12 hours), so the settings and the plan check them here.

The model is read on first use, never at import, directly from the file (not through botocore's loader, which
imports the SDK).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import re
from functools import cache

# A dead-letter queue's `maxReceiveCount` is not in the model (the RedrivePolicy attribute is a JSON string); the
# console's "Maximum receives" takes 1 to 1,000 (Amazon SQS Developer Guide, "Configure a dead-letter queue using
# the Amazon SQS console", read 2026-12-04).
MAX_RECEIVE_COUNT_RANGE = (1, 1000)


@cache
def _model() -> dict:
    spec = importlib.util.find_spec("botocore")
    if spec is None or spec.origin is None:
        raise RuntimeError("botocore is not installed; it provides the SQS API model (see requirements.txt)")
    service_dir = os.path.join(os.path.dirname(spec.origin), "data", "sqs")
    model_dir = os.path.join(service_dir, sorted(os.listdir(service_dir))[-1])
    for file_name, opener in (("service-2.json.gz", gzip.open), ("service-2.json", open)):
        path = os.path.join(model_dir, file_name)
        if os.path.exists(path):
            with opener(path, "rt", encoding="utf-8") as model_file:
                return json.load(model_file)
    raise RuntimeError(f"no SQS service model in {model_dir}")


def _text(html: str) -> str:
    """The model's HTML documentation as plain text, thousands separators kept."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def _attribute_doc() -> str:
    return _text(_model()["shapes"]["CreateQueueRequest"]["members"]["Attributes"]["documentation"])


def _attribute_range(name: str) -> tuple[int, int]:
    """`(low, high)` of a queue attribute, from CreateQueue's `Attributes`: "<name> – ... Valid values: An integer
    from <low> ... to <high> ..."."""
    documentation = _attribute_doc()
    found = re.search(
        re.escape(name) + r" – .*?Valid values: An integer from ([\d,]+)[^.]*? to ([\d,]+)", documentation
    )
    if found is None:
        raise RuntimeError(f"the SQS model no longer states the valid values of {name}")
    return _number(found.group(1)), _number(found.group(2))


@cache
def visibility_timeout_range() -> tuple[int, int]:
    """Seconds a received message may stay hidden: 0 to 43,200 (12 hours)."""
    return _attribute_range("VisibilityTimeout")


@cache
def message_retention_range() -> tuple[int, int]:
    """Seconds SQS may keep a message: 60 to 1,209,600 (14 days)."""
    return _attribute_range("MessageRetentionPeriod")


@cache
def message_size_range() -> tuple[int, int]:
    """Bytes a message may hold, `MaximumMessageSize`: 1,024 to 1,048,576 (1 MiB)."""
    return _attribute_range("MaximumMessageSize")


@cache
def receive_wait_range() -> tuple[int, int]:
    """Seconds a long poll may wait, `ReceiveMessageWaitTimeSeconds`: 0 to 20."""
    return _attribute_range("ReceiveMessageWaitTimeSeconds")


@cache
def default_message_retention() -> int:
    """Seconds SQS keeps a message when the queue does not say: "Default: 345,600 (4 days)"."""
    found = re.search(r"MessageRetentionPeriod – .*?Default: ([\d,]+)", _attribute_doc())
    if found is None:
        raise RuntimeError("the SQS model no longer states MessageRetentionPeriod's default")
    return _number(found.group(1))


@cache
def receive_batch_range() -> tuple[int, int]:
    """Messages one ReceiveMessage returns, `MaxNumberOfMessages`: "Valid values: 1 to 10"."""
    documentation = _text(
        _model()["shapes"]["ReceiveMessageRequest"]["members"]["MaxNumberOfMessages"]["documentation"]
    )
    found = re.search(r"Valid values: (\d+) to (\d+)", documentation)
    if found is None:
        raise RuntimeError("the SQS model no longer states MaxNumberOfMessages' valid values")
    return int(found.group(1)), int(found.group(2))


@cache
def batch_entries_max() -> int:
    """Entries one SendMessageBatch, DeleteMessageBatch or ChangeMessageVisibilityBatch takes: 10
    (`TooManyEntriesInBatchRequest`)."""
    documentation = _text(_model()["shapes"]["TooManyEntriesInBatchRequest"]["documentation"])
    found = re.search(r"ChangeMessageVisibilityBatch request is (\d+)", documentation)
    if found is None:
        raise RuntimeError("the SQS model no longer states the entries of a batch request")
    return int(found.group(1))


@cache
def batch_payload_max() -> int:
    """Bytes of all messages of one SendMessageBatch together: "the maximum total payload size ... 1,048,576
    bytes"."""
    documentation = _text(_model()["operations"]["SendMessageBatch"]["documentation"])
    found = re.search(r"maximum total payload size .*? are both \S+ \S+ ([\d,]+) bytes", documentation)
    if found is None:
        raise RuntimeError("the SQS model no longer states SendMessageBatch's payload limit")
    return _number(found.group(1))


@cache
def approximate_count_lag() -> int:
    """Seconds the approximate counts (KEDA's demand signal) may lag the queue: "may not achieve consistency until
    at least 1 minute after the producers stop sending messages" (GetQueueAttributes, `AttributeNames`)."""
    member = _model()["shapes"]["GetQueueAttributesRequest"]["members"]["AttributeNames"]
    documentation = _text(member["documentation"])
    found = re.search(r"may not achieve consistency until at least (\d+) minute", documentation)
    if found is None:
        raise RuntimeError("the SQS model no longer states how far the approximate counts lag")
    return int(found.group(1)) * 60
