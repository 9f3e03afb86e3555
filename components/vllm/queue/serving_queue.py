"""The AWS side of a vLLM server's request queue: the SQS queue, its dead-letter queue, the results location in
S3, and the grants of the consumer and of KEDA's operator.

Both queues are encrypted with keys SQS owns (SSE-SQS: no KMS grant for the consumer or KEDA), refuse plain HTTP,
and the source queue hands a message to the dead-letter queue after `maxReceiveCount` receives. The grants are
inline policies on roles others own: the server pod's EKS Pod Identity role (a ServiceAccount has one
association, so the consumer beside vLLM takes the server's role) and KEDA's operator role (`Keda`), so each
queue adds exactly its own queue and prefix to them.
"""

import json
from typing import cast

import pulumi
import pulumi_aws as aws

from ...args.validate import Validation, args_path, coerce
from ...facts import naming, pod_identity
from ...facts.identity import PROJECT
from ...settings.queue import QueueSettings
from ..weights import bucket_resource_name, private_bucket
from . import manifests
from .args import ServingQueueArgs


def validated(name: str, args: ServingQueueArgs) -> QueueSettings:
    """The queue's settings from `args`; raises `ConfigError` naming every bad argument."""
    validation = Validation(args_path("ServingQueue", name), args)
    args = validation.known(args)
    settings = validation.section(QueueSettings, args)
    validation.done()
    return settings


class ServingQueue(pulumi.ComponentResource):
    """An SQS queue of requests for a vLLM server, its dead-letter queue, and where the results go."""

    queue_url: pulumi.Output[str]
    """URL of the queue requests are sent to (`eks-gpu-batch submit --queue-url`)."""
    queue_arn: pulumi.Output[str]
    """ARN of the queue."""
    dead_letter_queue_url: pulumi.Output[str]
    """URL of the dead-letter queue, where a message goes after `maxReceiveCount` receives."""
    results_uri: pulumi.Output[str]
    """`s3://<bucket>/<prefix>/`, where the results are written (`eks-gpu-batch collect --results`)."""

    def __init__(self, name: str, args: ServingQueueArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(ServingQueueArgs, args, args_path("ServingQueue", name))
        # Checked before anything is registered.
        settings = validated(name, args)
        super().__init__(f"{PROJECT}:index:ServingQueue", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        tags = args.tags or None
        dead_letter = aws.sqs.Queue(
            naming.autonamed_resource_name(f"{name}-dead-letter", naming.SQS_QUEUE_NAME_MAX),
            message_retention_seconds=manifests.DEAD_LETTER_RETENTION_SECONDS,
            sqs_managed_sse_enabled=True,
            tags=tags,
            opts=child,
        )
        queue = aws.sqs.Queue(
            naming.autonamed_resource_name(f"{name}-requests", naming.SQS_QUEUE_NAME_MAX),
            visibility_timeout_seconds=settings.visibility_timeout_seconds,
            message_retention_seconds=settings.message_retention_seconds,
            redrive_policy=dead_letter.arn.apply(lambda arn: manifests.redrive_policy(arn, settings.max_receive_count)),
            sqs_managed_sse_enabled=True,
            tags=tags,
            opts=child,
        )
        for queue_name, each in (("requests", queue), ("dead-letter", dead_letter)):
            aws.sqs.QueuePolicy(
                f"{name}-{queue_name}-policy",
                queue_url=each.url,
                policy=each.arn.apply(lambda arn: json.dumps(manifests.transport_policy(arn))),
                opts=child,
            )
        prefix = settings.results_prefix or f"results/{name}"
        if settings.results_bucket is not None:
            bucket = pulumi.Output.from_input(settings.results_bucket)
        elif args.default_results_bucket is not None:
            bucket = pulumi.Output.from_input(args.default_results_bucket)
        else:
            bucket = private_bucket(bucket_resource_name(name, "results"), f"{name}-results", tags, self)
            # On the bucket the queue owns only: S3 keeps one lifecycle configuration per bucket, and writing one on
            # a bucket the stack was given would replace that bucket's own rules.
            aws.s3.BucketLifecycleConfiguration(
                f"{name}-results-expiry",
                bucket=bucket,
                rules=[
                    cast(
                        aws.s3.BucketLifecycleConfigurationRuleArgsDict,
                        manifests.results_expiration_rule(prefix, settings.results_expiration_days),
                    )
                ],
                opts=child,
            )
        partition = aws.get_partition_output(opts=pulumi.InvokeOutputOptions(parent=self)).partition
        if args.consumer_role is not None:
            aws.iam.RolePolicy(
                f"{name}-consumer",
                role=args.consumer_role,
                policy=pulumi.Output.all(queue.arn, bucket, partition).apply(
                    lambda parts: json.dumps(manifests.consumer_policy(parts[0], parts[1], prefix, parts[2]))
                ),
                opts=child,
            )
        if args.keda_operator_role is not None:
            aws.iam.RolePolicy(
                f"{name}-keda-read",
                role=args.keda_operator_role,
                policy=queue.arn.apply(lambda arn: json.dumps(manifests.keda_policy(arn))),
                opts=child,
            )
        self.queue_url = queue.url
        self.queue_arn = queue.arn
        self.dead_letter_queue_url = dead_letter.url
        self.results_uri = bucket.apply(lambda value: f"s3://{value}/{prefix}/")
        self.register_outputs(
            {
                "queue_url": self.queue_url,
                "queue_arn": self.queue_arn,
                "dead_letter_queue_url": self.dead_letter_queue_url,
                "results_uri": self.results_uri,
            }
        )


def register_consumer_identity(
    name: str,
    *,
    cluster_name: pulumi.Input[str],
    namespace: str,
    service_account: str,
    tags: dict[str, str] | None,
    parent: pulumi.Resource,
) -> tuple[pulumi.Output[str], pulumi.Resource]:
    """The role a server's pods take through EKS Pod Identity when nothing else gave them one (weights from the
    Hub), for the consumer's grant: its name and the association the pods wait for."""
    role = aws.iam.Role(
        naming.autonamed_role_resource_name(f"{name}-queue-consumer"),
        description=f"vLLM server {name}: takes requests from its SQS queue, writes results to S3 (EKS Pod Identity)",
        assume_role_policy=json.dumps(pod_identity.trust_policy()),
        tags=tags,
        opts=pulumi.ResourceOptions(parent=parent),
    )
    association = aws.eks.PodIdentityAssociation(
        f"{name}-queue-pod-identity",
        cluster_name=cluster_name,
        namespace=namespace,
        service_account=service_account,
        role_arn=role.arn,
        tags=tags,
        opts=pulumi.ResourceOptions(parent=parent),
    )
    return role.name, association
