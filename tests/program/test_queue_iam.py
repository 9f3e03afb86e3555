"""The IAM documents of a queue-fed server (the warmQueue variant of tests/support/orderings.py), each pinned whole
(the consumer's own policy in tests/queue/test_queue_stack.py, from the plan of the same stack);
tests/program/test_iam_policies.py lists them among the documents every variant writes."""

from __future__ import annotations

import json

import pytest

from tests.support.orderings import picked, variant_run


def document(pick: str) -> dict:
    [resource] = picked(variant_run("warmQueue"), pick)
    return json.loads(resource.inputs["policy"])


# The warmQueue variant's queue: the mocks' region and account (components/stackcheck/mock_answers.py: us-west-2,
# 123456789012) and the queues' resource names, which the mocks give as their names.
QUEUE_ARN = "arn:aws:sqs:us-west-2:123456789012:gpu-inference-dev-vllm-queue-"


def test_kedas_operator_reads_the_request_queues_length_only():
    """KEDA's aws-sqs-queue scaler reads ApproximateNumberOfMessages (and NotVisible) with GetQueueAttributes
    (KEDA 2.20 docs, AWS SQS Queue scaler); added to KEDA's own role, never a receive or a delete."""
    run = variant_run("warmQueue")
    [grant] = picked(run, "RolePolicy vllm-queue-keda-read")

    assert grant.inputs["role"].endswith("keda-query-role")
    assert document("RolePolicy vllm-queue-keda-read") == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "ReadQueueLength",
                "Effect": "Allow",
                "Action": ["sqs:GetQueueAttributes"],
                "Resource": QUEUE_ARN + "requests",
            }
        ],
    }


@pytest.mark.parametrize("queue", ["requests", "dead-letter"])
def test_each_queue_refuses_requests_that_are_not_over_tls(queue):
    """Amazon SQS Developer Guide, "Amazon SQS security best practices": enforce encryption of data in transit with
    a policy denying every action when `aws:SecureTransport` is false."""
    assert document(f"QueuePolicy vllm-queue-{queue}-policy") == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "DenyHTTP",
                "Effect": "Deny",
                "Principal": "*",
                "Action": "sqs:*",
                "Resource": QUEUE_ARN + queue,
                "Condition": {"Bool": {"aws:SecureTransport": "false"}},
            }
        ],
    }
