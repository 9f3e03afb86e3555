"""The queue's pure builders (vllm/queue/manifests.py) read whole: the queue's transport policy and the
consumer's environment.

The policy is AWS's deny-plain-HTTP statement for a queue (Amazon SQS Developer Guide, "Amazon SQS security best
practices", enforce encryption of data in transit: `Deny` `sqs:*` to `*` when `aws:SecureTransport` is `false`), in
the IAM policy language's version 2012-10-17. The consumer's environment: what its program reads (vllm/queue/
consumer_script.py), the region under the name boto3 reads, SQS's longest long poll (20 s) and largest receive
(10 messages) (SQS API reference, ReceiveMessage: `WaitTimeSeconds` at most 20, `MaxNumberOfMessages` 1-10).
"""

from __future__ import annotations

import pytest

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


def test_a_server_without_pod_annotations_gets_the_consumers_one_and_keeps_what_it_has():
    """The Cluster Autoscaler's `cluster-autoscaler.kubernetes.io/safe-to-evict: "false"` (its FAQ, "What types of
    pods can prevent CA from removing a node?") goes on the pod template, beside any annotation it already has."""
    from components.vllm.queue.manifests import with_consumer

    settings = parse_settings({"vllm": {"queue": {"enabled": True, "requestTimeoutSeconds": 600}}}).vllm

    def deployment(metadata: dict) -> dict:
        server = {"name": "vllm", "image": "vllm", "volumeMounts": []}
        return {"spec": {"template": {"metadata": metadata, "spec": {"containers": [server], "volumes": []}}}}

    bare = with_consumer(deployment({}), settings, "ml", {"name": "consumer"})
    scraped = with_consumer(
        deployment({"annotations": {"prometheus.io/scrape": "true"}}), settings, "ml", {"name": "consumer"}
    )

    assert bare["spec"]["template"]["metadata"]["annotations"] == {
        "cluster-autoscaler.kubernetes.io/safe-to-evict": "false"
    }
    assert scraped["spec"]["template"]["metadata"]["annotations"] == {
        "prometheus.io/scrape": "true",
        "cluster-autoscaler.kubernetes.io/safe-to-evict": "false",
    }
    assert [container["name"] for container in bare["spec"]["template"]["spec"]["containers"]] == ["vllm", "consumer"]


def test_the_consumer_without_a_request_timeout_is_a_programming_error_that_says_which_key():
    """The settings refuse a queue without `requestTimeoutSeconds`; a caller that builds the consumer from settings
    without one (the queue off) is stopped with the key named, not given a consumer without a timeout."""
    settings = parse_settings({}).vllm

    with pytest.raises(AssertionError) as raised:
        consumer_container(settings, queue_url="q", results_uri="s3://r/", region="us-east-1")

    assert str(raised.value) == "a queue needs requestTimeoutSeconds (settings refuse it otherwise)"
