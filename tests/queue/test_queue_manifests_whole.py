"""The queue's pure builders (vllm/queue/manifests.py) read whole: the queue's transport policy and the
consumer's environment.

The policy is AWS's deny-plain-HTTP statement for a queue (Amazon SQS Developer Guide, "Amazon SQS security best
practices", enforce encryption of data in transit: `Deny` `sqs:*` to `*` when `aws:SecureTransport` is `false`), in
the IAM policy language's version 2012-10-17. The consumer's environment: what its program reads (vllm/queue/
consumer_script.py), the region under the name boto3 reads, SQS's longest long poll (20 s) and largest receive
(10 messages) (SQS API reference, ReceiveMessage: `WaitTimeSeconds` at most 20, `MaxNumberOfMessages` 1-10).
"""

from __future__ import annotations

from components.settings import parse_settings
from components.vllm.queue.manifests import consumer_container, transport_policy

ARN = "arn:aws:sqs:us-east-1:111122223333:ml-vllm-requests"


def test_the_queue_refuses_plain_http_to_everyone():
    assert transport_policy(ARN) == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "DenyHTTP",
                "Effect": "Deny",
                "Principal": "*",
                "Action": "sqs:*",
                "Resource": ARN,
                "Condition": {"Bool": {"aws:SecureTransport": "false"}},
            }
        ],
    }


def test_the_consumers_environment_names_the_queue_results_region_and_limits():
    settings = parse_settings({"vllm": {"queue": {"enabled": True, "requestTimeoutSeconds": 600}}}).vllm
    container = consumer_container(
        settings,
        queue_url="https://sqs.us-east-1.amazonaws.com/111122223333/q",
        results_uri="s3://r/",
        region="us-east-1",
    )
    assert {item["name"]: item["value"] for item in container["env"]} == {
        "HOME": "/tmp",
        "QUEUE_URL": "https://sqs.us-east-1.amazonaws.com/111122223333/q",
        "RESULTS_URI": "s3://r/",
        "AWS_REGION": "us-east-1",
        "VLLM_URL": "http://127.0.0.1:8000",
        "CONCURRENCY": str(settings.queue.concurrency),
        "REQUEST_TIMEOUT_SECONDS": "600",
        "RECEIVE_WAIT_SECONDS": "20",
        "RECEIVE_BATCH": "10",
        "ALIVE_FILE": "/run/queue-consumer/alive",
    }
