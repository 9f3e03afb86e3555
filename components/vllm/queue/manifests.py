"""A queue-fed vLLM server's parts as plain values: the consumer container beside vLLM, its ConfigMap, the drain
that makes vLLM outlive it, the IAM policies of the consumer and of KEDA's operator, the queue's redrive and
transport policies, and KEDA's SQS trigger. Pure functions of the settings; components/vllm/queue/serving_queue.py and
components/vllm/server.py register them.

Why the consumer shares the server's pod, and how scaling in spares a request: the consumer asks vLLM on
localhost, so a replica is one GPU server and its own consumer, and KEDA scales them together. The
HorizontalPodAutoscaler KEDA drives chooses which pod goes when it scales in, and may choose one in the middle of
a request (kedacore/keda#2900, #3674: KEDA has no say in it). So the pod is given time to finish: on SIGTERM the
consumer stops receiving and finishes what it has started, each request bounded by `requestTimeoutSeconds`; vLLM's
preStop waits for the consumer to exit before vLLM gets its own SIGTERM; and the grace period covers the pause,
that wait and vLLM's shutdown (`pod_grace_period`). In-flight messages count as demand (`scaleOnInFlight`, on by
default in KEDA and respected since kedacore/keda#4276), so a replica is not scaled away for a queue that only
looks empty while its last requests run (kedacore/keda#1663, #5948).
"""

from __future__ import annotations

import json
from typing import Any

from ...facts import sqs_model
from ...kube.config_maps import program_config_map, program_data
from ...kube.labels import standard_labels
from ...settings import VllmSettings
from ..manifests import PRE_STOP_SLEEP_SECONDS, SHUTDOWN_MARGIN_SECONDS, image_user_security_context, image_version
from ..sizing import queue_consumer_resources
from . import consumer_script

CONTAINER = "queue-consumer"
APP = "vllm-queue"
COMPONENT = "queue"
SCRIPT_DIR = "/opt/queue-consumer"
SCRIPT_FILE = "consumer.py"
RUN_DIR = "/run/queue-consumer"
ALIVE_FILE = f"{RUN_DIR}/alive"
# The Cluster Autoscaler removes no node that runs a pod with this annotation "false" (kubernetes/autoscaler
# cluster-autoscaler/FAQ.md, "What types of pods can prevent CA from removing a node?"); its own scale-down would
# otherwise evict the pod with at most `--max-graceful-termination-sec` (600 s by default, the same FAQ) however
# long its grace period. KEDA scales an idle queue's pods away first, and the empty node goes after.
SAFE_TO_EVICT = "cluster-autoscaler.kubernetes.io/safe-to-evict"
SCRIPT_VOLUME = "queue-consumer-script"
RUN_VOLUME = "queue-consumer-run"
# After the last answer the consumer writes the result and deletes the message, and a long poll it was in when
# SIGTERM came ends (at most SQS's longest wait, 20 s) before it releases what that poll brought.
DRAIN_MARGIN_SECONDS = 30
DEAD_LETTER_RETENTION_SECONDS = 1209600
"""A dead-letter queue keeps its messages for SQS's longest retention, 14 days: a message's age counts from its
first enqueue, so a dead-letter queue that kept them no longer than the source would drop them on arrival (Amazon
SQS Developer Guide, "Using dead-letter queues": set its retention longer than the source queue's)."""
# What the consumer needs of SQS: to receive, to delete, to extend or return a message's visibility (the batch
# calls take the same actions: Amazon SQS Developer Guide, "Amazon SQS API permissions: Actions and resource
# reference"), and to read the queue's visibility timeout.
CONSUMER_QUEUE_ACTIONS = (
    "sqs:ReceiveMessage",
    "sqs:DeleteMessage",
    "sqs:ChangeMessageVisibility",
    "sqs:GetQueueAttributes",
)
KEDA_QUEUE_ACTIONS = ("sqs:GetQueueAttributes",)
"""KEDA's SQS scaler calls GetQueueAttributes alone (kedacore/keda v2.20.2 pkg/scalers/aws_sqs_queue_scaler.go,
`getAwsSqsQueueLength`)."""


def receive_wait_seconds() -> int:
    """The consumer's long poll: SQS's longest, from botocore's model."""
    return sqs_model.receive_wait_range()[1]


def receive_batch() -> int:
    """Messages one receive may bring: SQS's most, from botocore's model."""
    return sqs_model.receive_batch_range()[1]


def labels(instance: str, settings: VllmSettings) -> dict[str, str]:
    """Labels of the queue's own objects (the ConfigMap): an app of their own, so no server selector picks them."""
    return standard_labels(app=APP, instance=instance, component=COMPONENT, version=image_version(settings.image))


def object_name(server_name: str) -> str:
    """The ConfigMap's name."""
    return f"{server_name}-queue"


def results_prefix(settings: VllmSettings, server_name: str) -> str:
    """`queue.resultsPrefix`, else `results/<namespace>/<server name>`: one per model, whatever bucket they share."""
    return settings.queue.results_prefix or f"results/{settings.namespace}/{server_name}"


def script_data() -> dict[str, str]:
    return program_data(SCRIPT_FILE, consumer_script)


def config_map(instance: str, settings: VllmSettings, server_name: str) -> dict:
    """The ConfigMap with the consumer's program, mounted into the consumer and into vLLM (for its preStop)."""
    return program_config_map(
        object_name(server_name), settings.namespace, labels(instance, settings), SCRIPT_FILE, consumer_script
    )


def _script(*args: str) -> list[str]:
    return ["python3", f"{SCRIPT_DIR}/{SCRIPT_FILE}", *args]


def consumer_container(
    settings: VllmSettings, *, queue_url: Any, results_uri: Any, region: Any, api_key_env: dict | None = None
) -> dict:
    """The consumer: the server's own image (on the node already, and carrying Python and boto3), its program
    from the ConfigMap, the queue, the results and the region in its environment (values known once the queue
    exists: plain strings or Pulumi outputs), and vLLM's API key when the server has one."""
    queue = settings.queue
    assert queue.request_timeout_seconds is not None, (
        "a queue needs requestTimeoutSeconds (settings refuse it otherwise)"
    )
    env = [
        {"name": "HOME", "value": "/tmp"},
        {"name": "QUEUE_URL", "value": queue_url},
        {"name": "RESULTS_URI", "value": results_uri},
        {"name": "AWS_REGION", "value": region},
        {"name": "VLLM_URL", "value": "http://127.0.0.1:8000"},
        {"name": "CONCURRENCY", "value": str(queue.concurrency)},
        {"name": "REQUEST_TIMEOUT_SECONDS", "value": str(queue.request_timeout_seconds)},
        {"name": "RECEIVE_WAIT_SECONDS", "value": str(receive_wait_seconds())},
        {"name": "RECEIVE_BATCH", "value": str(receive_batch())},
        {"name": "ALIVE_FILE", "value": ALIVE_FILE},
    ]
    if api_key_env is not None:
        env.append(api_key_env)
    return {
        "name": CONTAINER,
        "image": settings.image,
        "imagePullPolicy": "IfNotPresent",
        "command": _script("run"),
        "env": env,
        "resources": queue_consumer_resources(),
        "securityContext": image_user_security_context(),
        "volumeMounts": [
            {"name": SCRIPT_VOLUME, "mountPath": SCRIPT_DIR, "readOnly": True},
            {"name": RUN_VOLUME, "mountPath": RUN_DIR},
            {"name": "tmp", "mountPath": "/tmp"},
        ],
    }


def drain_wait_seconds(settings: VllmSettings) -> int:
    """The longest vLLM's preStop waits for the consumer after its pause: the longest request and the drain."""
    assert settings.queue.request_timeout_seconds is not None
    return settings.queue.request_timeout_seconds + DRAIN_MARGIN_SECONDS


def pre_stop(settings: VllmSettings) -> dict:
    """vLLM's preStop with a consumer beside it: the pause that lets the Service stop sending online requests,
    then the wait for the consumer to drain, so vLLM answers the consumer's last requests."""
    return {
        "exec": {
            "command": _script(
                "wait-drained",
                "--alive-file",
                ALIVE_FILE,
                "--pause",
                str(PRE_STOP_SLEEP_SECONDS),
                "--timeout",
                str(drain_wait_seconds(settings)),
            )
        }
    }


def pod_grace_period(settings: VllmSettings) -> int:
    """Seconds the kubelet gives the pod before SIGKILL: vLLM's preStop (the pause and the consumer's drain), then
    vLLM's own shutdown timeout and its margin."""
    return (
        PRE_STOP_SLEEP_SECONDS
        + drain_wait_seconds(settings)
        + settings.shutdown_timeout_seconds
        + SHUTDOWN_MARGIN_SECONDS
    )


def with_consumer(manifest: dict, settings: VllmSettings, server_name: str, consumer: dict) -> dict:
    """The server's Deployment `manifest` with the `consumer` container beside vLLM: the ConfigMap and a shared
    directory for the consumer's alive file mounted in both, vLLM's preStop waiting for the drain, the grace
    period covering it, and no node scale-down of the Cluster Autoscaler's under it (`SAFE_TO_EVICT`)."""
    template = manifest["spec"]["template"]
    template["metadata"]["annotations"] = {**template["metadata"].get("annotations", {}), SAFE_TO_EVICT: "false"}
    pod = template["spec"]
    server = pod["containers"][0]
    server["lifecycle"] = {"preStop": pre_stop(settings)}
    server["volumeMounts"] = [
        *server["volumeMounts"],
        {"name": SCRIPT_VOLUME, "mountPath": SCRIPT_DIR, "readOnly": True},
        {"name": RUN_VOLUME, "mountPath": RUN_DIR, "readOnly": True},
    ]
    pod["containers"] = [*pod["containers"], consumer]
    pod["volumes"] = [
        *pod["volumes"],
        {"name": SCRIPT_VOLUME, "configMap": {"name": object_name(server_name)}},
        {"name": RUN_VOLUME, "emptyDir": {"sizeLimit": "1Mi"}},
    ]
    pod["terminationGracePeriodSeconds"] = pod_grace_period(settings)
    return manifest


# AWS.


def consumer_policy(queue_arn: str, bucket: str, prefix: str, partition: str = "aws") -> dict:
    """The consumer's IAM policy: its queue's messages, and the results under `prefix`, nothing else.
    `s3:GetObject` answers whether a result exists (HeadObject). No `s3:ListBucket`: without it S3 answers a
    missing result 403 rather than 404 (S3 API Reference, HeadObject, "Permissions"), which the consumer reads as
    missing; a result that exists after all refuses the consumer's conditional write, and is kept."""
    return {
        "Version": "2012-10-17",
        "Statement": [
            {"Sid": "TakeRequests", "Effect": "Allow", "Action": list(CONSUMER_QUEUE_ACTIONS), "Resource": queue_arn},
            {
                "Sid": "WriteResults",
                "Effect": "Allow",
                "Action": ["s3:PutObject", "s3:GetObject"],
                "Resource": f"arn:{partition}:s3:::{bucket}/{prefix}/*",
            },
        ],
    }


def keda_policy(queue_arn: str) -> dict:
    """What KEDA's operator may do with the queue: read its attributes (the counts it scales on), nothing else."""
    return {
        "Version": "2012-10-17",
        "Statement": [
            {"Sid": "ReadQueueLength", "Effect": "Allow", "Action": list(KEDA_QUEUE_ACTIONS), "Resource": queue_arn}
        ],
    }


def transport_policy(queue_arn: str) -> dict:
    """The queue's own policy: nothing may use it over plain HTTP."""
    return {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "DenyHTTP",
                "Effect": "Deny",
                "Principal": "*",
                "Action": "sqs:*",
                "Resource": queue_arn,
                "Condition": {"Bool": {"aws:SecureTransport": "false"}},
            }
        ],
    }


def redrive_policy(dead_letter_arn: str, max_receive_count: int) -> str:
    """The source queue's `RedrivePolicy`: after `max_receive_count` receives a message moves to the dead-letter
    queue (botocore's SQS model, CreateQueue `Attributes`)."""
    return json.dumps({"deadLetterTargetArn": dead_letter_arn, "maxReceiveCount": max_receive_count})


def sqs_trigger(settings: VllmSettings, *, queue_url: Any, region: Any, authentication: str) -> dict:
    """KEDA's `aws-sqs-queue` trigger (its metadata as kedacore/keda v2.20.2 pkg/scalers/aws_sqs_queue_scaler.go,
    `awsSqsQueueMetadata`, reads it): the visible and in-flight messages (`scaleOnInFlight`), `queueLength` of them
    per replica, active from one message (`activationQueueLength` 0: active when the count is above it), signed
    with the credentials the TriggerAuthentication `authentication` names (the KEDA operator's own, through EKS Pod
    Identity: `identityOwner: workload` reads an IRSA annotation, which Pod Identity does not use,
    kedacore/keda#6418)."""
    return {
        "type": "aws-sqs-queue",
        "metadata": {
            "queueURL": queue_url,
            "queueLength": str(settings.queue.target_per_replica),
            "activationQueueLength": "0",
            "scaleOnInFlight": "true",
            "awsRegion": region,
        },
        "authenticationRef": {"name": authentication},
    }


def results_expiration_rule(prefix: str, days: int) -> dict:
    """The lifecycle rule that expires results under `prefix/` `days` after they are written. The bucket is
    versioned, so expiring the current version leaves a noncurrent one (and a delete marker): that is expired
    after the same number of days, so a result is gone for good within twice `days` (Amazon S3 User Guide,
    "Lifecycle configuration elements": Expiration, NoncurrentVersionExpiration)."""
    return {
        "id": "expire-results",
        "status": "Enabled",
        "filter": {"prefix": f"{prefix}/"},
        "expiration": {"days": days},
        "noncurrent_version_expiration": {"noncurrent_days": days},
    }
