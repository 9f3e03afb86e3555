"""Weights from S3: the bucket a vLLM server reads its model from, and the read-only access its ServiceAccount
gets to the model's prefix through EKS Pod Identity.

The policy builders are pure (plain values in, policy documents out); `register_s3_weights` registers the
resources as children of the server.

Why EKS Pod Identity works for the streamer: vLLM reads `s3://` models with the Run:ai model streamer, whose S3
backend (`runai-model-streamer-s3` 0.15.7, the version vLLM v0.32.0's `runai` extra requires at least, its
`libstreamers3.so`) is built on the AWS SDK for C++ 1.11.584, which reads the container credentials the EKS Pod
Identity webhook injects (`AWS_CONTAINER_CREDENTIALS_FULL_URI`, `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE`) and
trusts the agent's address 169.254.170.23; EKS requires 1.11.263 or later of that SDK (EKS user guide, "Use pod
identity with the AWS SDK").
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s

from ..facts import naming, pod_identity
from ..settings import VllmSettings
from . import weights_copy
from .serve_args import container_args

# The EKS Pod Identity agent serves credentials on this link-local address, port 80 (EKS user guide,
# "Understand how EKS Pod Identity works").
# A general purpose bucket's name: at most 63 lowercase letters, digits, dots and hyphens (Amazon S3 User Guide,
# "General purpose bucket naming rules"); Pulumi's autoname adds a hyphen and seven characters.
BUCKET_NAME_MAX = 63


def bucket_resource_name(name: str, purpose: str = "weights") -> str:
    """A created bucket's resource name, from the server's and the bucket's `purpose` (weights, compile-cache,
    results): lowercase, `-` for what a bucket name cannot hold, short enough for the autonamed bucket name to fit."""
    cleaned = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-") or "vllm"
    return naming.fit(f"{cleaned}-{purpose}", BUCKET_NAME_MAX - naming.AUTONAME_SUFFIX_LENGTH)


def private_bucket(
    resource_name: str, child_name: str, tags: dict[str, str] | None, parent: pulumi.Resource
) -> pulumi.Output[str]:
    """A bucket of the stack's own, private, encrypted, versioned, public access blocked; its name."""
    created = aws.s3.Bucket(resource_name, tags=tags, opts=pulumi.ResourceOptions(parent=parent))
    after_bucket = pulumi.ResourceOptions(parent=parent, depends_on=[created])
    aws.s3.BucketPublicAccessBlock(
        child_name,
        bucket=created.id,
        block_public_acls=True,
        block_public_policy=True,
        ignore_public_acls=True,
        restrict_public_buckets=True,
        opts=after_bucket,
    )
    # BucketOwnerEnforced turns ACLs off: every object belongs to the bucket's account (Amazon S3 User Guide,
    # "Controlling ownership of objects and disabling ACLs").
    aws.s3.BucketOwnershipControls(
        child_name, bucket=created.id, rule={"object_ownership": "BucketOwnerEnforced"}, opts=after_bucket
    )
    # SSE-S3: encrypted at rest with keys S3 manages, which a reader's role needs no KMS grant to decrypt.
    aws.s3.BucketServerSideEncryptionConfiguration(
        child_name,
        bucket=created.id,
        rules=[{"apply_server_side_encryption_by_default": {"sse_algorithm": "AES256"}}],
        opts=after_bucket,
    )
    aws.s3.BucketVersioning(
        child_name, bucket=created.id, versioning_configuration={"status": "Enabled"}, opts=after_bucket
    )
    return created.bucket


def read_policy(bucket: str, prefix: str, partition: str = "aws") -> dict:
    """Read the objects under `prefix` and list that prefix only: `s3:GetObject` on `<prefix>/*`, `s3:ListBucket`
    on the bucket with an `s3:prefix` condition (Amazon S3 User Guide, "Policy examples": allowing a user to list
    only the objects under a prefix); nothing else of the bucket or any other."""
    return {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "ReadTheModel",
                "Effect": "Allow",
                "Action": ["s3:GetObject"],
                "Resource": [f"arn:{partition}:s3:::{bucket}/{prefix}/*"],
            },
            {
                "Sid": "ListTheModel",
                "Effect": "Allow",
                "Action": ["s3:ListBucket"],
                "Resource": [f"arn:{partition}:s3:::{bucket}"],
                "Condition": {"StringLike": {"s3:prefix": [prefix, f"{prefix}/*"]}},
            },
        ],
    }


@dataclass
class S3Weights:
    """What the server's pod needs of its weights' resources."""

    uri: pulumi.Output[str]
    """`s3://<bucket>/<prefix>`, the server's positional model."""
    bucket: pulumi.Output[str]
    """The bucket's name."""
    region: pulumi.Output[str]
    """The region the stack deploys to, the pod's `AWS_REGION` (the streamer's S3 client reads it)."""
    needs: list[pulumi.Resource]
    """What the pod waits for: the Pod Identity association, so its first start has credentials."""
    role: pulumi.Output[str]
    """The name of the role the server's pods take, which other parts of the pod (a queue's consumer) are granted
    to as well: a ServiceAccount has one Pod Identity association."""


def register_s3_weights(
    name: str,
    *,
    bucket: str | None,
    prefix: str,
    cluster_name: pulumi.Input[str],
    namespace: str,
    service_account: str,
    tags: dict[str, str] | None,
    parent: pulumi.Resource,
) -> S3Weights:
    """The bucket (created when `bucket` is None: private, encrypted, versioned, public access blocked), the role
    the server's ServiceAccount takes through EKS Pod Identity, and its read-only policy on `prefix`."""
    child = pulumi.ResourceOptions(parent=parent)
    invoke = pulumi.InvokeOutputOptions(parent=parent)
    bucket_name: pulumi.Output[str]
    if bucket is None:
        bucket_name = private_bucket(bucket_resource_name(name), f"{name}-weights", tags, parent)
    else:
        bucket_name = pulumi.Output.from_input(bucket)
    partition = aws.get_partition_output(opts=invoke).partition
    role = aws.iam.Role(
        naming.autonamed_role_resource_name(f"{name}-weights-reader"),
        description=f"vLLM server {name}: reads its model's weights from S3 (EKS Pod Identity)",
        assume_role_policy=json.dumps(pod_identity.trust_policy()),
        tags=tags,
        opts=child,
    )
    policy = aws.iam.RolePolicy(
        f"{name}-weights-read",
        role=role.id,
        policy=pulumi.Output.all(bucket_name, partition).apply(
            lambda parts: json.dumps(read_policy(parts[0], prefix, parts[1]))
        ),
        opts=child,
    )
    association = aws.eks.PodIdentityAssociation(
        f"{name}-weights-pod-identity",
        cluster_name=cluster_name,
        namespace=namespace,
        service_account=service_account,
        role_arn=role.arn,
        tags=tags,
        # The server's pods wait for the association (`needs`); with this, for the policy too: credentials without
        # it would have the streamer's first reads denied.
        opts=pulumi.ResourceOptions(parent=parent, depends_on=[policy]),
    )
    return S3Weights(
        uri=bucket_name.apply(lambda value: f"s3://{value}/{prefix}"),
        bucket=bucket_name,
        region=aws.get_region_output(opts=invoke).region,
        needs=[association],
        role=role.name,
    )


def register_weights_copy(
    name: str,
    *,
    weights: S3Weights,
    settings: VllmSettings,
    server_name: str,
    cluster_name: pulumi.Input[str],
    token_secret: str | None,
    node_types: Sequence[str],
    tags: dict[str, str] | None,
    needs: list[pulumi.Resource],
    parent: pulumi.Resource,
) -> None:
    """The seeding Job (`vllm.source.seed`) and what it needs: its ServiceAccount, the ConfigMap with its
    program, its NetworkPolicy, and the role that may only write the prefix, taken through EKS Pod Identity."""
    child = pulumi.ResourceOptions(parent=parent, depends_on=needs)
    prefix = settings.weights_prefix
    role = aws.iam.Role(
        naming.autonamed_role_resource_name(f"{name}-weights-writer"),
        description=f"vLLM server {name}: copies its model's weights to S3 (EKS Pod Identity)",
        assume_role_policy=json.dumps(pod_identity.trust_policy()),
        tags=tags,
        opts=pulumi.ResourceOptions(parent=parent),
    )
    partition = aws.get_partition_output(opts=pulumi.InvokeOutputOptions(parent=parent)).partition
    policy = aws.iam.RolePolicy(
        f"{name}-weights-write",
        role=role.id,
        policy=pulumi.Output.all(weights.bucket, partition).apply(
            lambda parts: json.dumps(weights_copy.write_policy(parts[0], prefix, parts[1]))
        ),
        opts=pulumi.ResourceOptions(parent=parent),
    )
    account = weights_copy.service_account(name, settings, server_name)
    account_resource = k8s.core.v1.ServiceAccount(
        f"{name}-weights-copy-sa",
        metadata=account["metadata"],
        automount_service_account_token=False,
        opts=child,
    )
    association = aws.eks.PodIdentityAssociation(
        f"{name}-weights-copy-pod-identity",
        cluster_name=cluster_name,
        namespace=settings.namespace,
        service_account=account["metadata"]["name"],
        role_arn=role.arn,
        tags=tags,
        opts=pulumi.ResourceOptions(parent=parent, depends_on=[policy]),
    )
    script = weights_copy.config_map(name, settings, server_name)
    config_map = k8s.core.v1.ConfigMap(
        f"{name}-weights-copy-script", metadata=script["metadata"], data=script["data"], opts=child
    )
    netpol = weights_copy.copy_network_policy(name, settings, server_name)
    policy_resource = k8s.networking.v1.NetworkPolicy(
        f"{name}-weights-copy-netpol", metadata=netpol["metadata"], spec=netpol["spec"], opts=child
    )
    manifest = weights_copy.job(
        name,
        settings,
        server_name,
        has_token=token_secret is not None,
        token_secret=token_secret or "",
        node_types=node_types,
    )
    container = manifest["spec"]["template"]["spec"]["containers"][0]
    container["env"] = [
        *container["env"],
        {"name": "WEIGHTS_BUCKET", "value": weights.bucket},
        {"name": "AWS_REGION", "value": weights.region},
    ]
    # Pulumi waits for the Job to complete (10 minutes unless `custom_timeouts` say otherwise: pulumi_kubernetes
    # 4.34.2 batch/v1/Job.py), so `pulumi up` reports a failed copy; as long as the Job may run.
    timeout = f"{math.ceil(weights_copy.wait_seconds(settings, node_types) / 60)}m"
    k8s.batch.v1.Job(
        f"{name}-weights-copy",
        metadata=manifest["metadata"],
        spec=manifest["spec"],
        opts=pulumi.ResourceOptions(
            parent=parent,
            depends_on=[*needs, account_resource, association, config_map, policy_resource],
            custom_timeouts=pulumi.CustomTimeouts(create=timeout, update=timeout),
        ),
    )


def with_s3_weights(
    manifest: dict,
    uri: pulumi.Output[str],
    region: pulumi.Output[str],
    settings: VllmSettings,
    bucket: pulumi.Output[str] | None = None,
    server_name: str = "",
    node_types: Sequence[str] = weights_copy.DEFAULT_NODE_TYPES,
    baseline_gbps: float | None = None,
) -> dict:
    """The Deployment `manifest` reading its weights from `uri` (`s3://bucket/prefix`, known once the bucket
    exists): the server's arguments for the Run:ai model streamer, and `AWS_REGION` for its S3 client, which
    EKS Pod Identity does not set (it injects only the credentials' URI and token file)."""
    pod = manifest["spec"]["template"]["spec"]
    container = pod["containers"][0]
    limit = container["resources"]["limits"]["memory"]
    container["args"] = uri.apply(lambda value: container_args(settings, value, limit, baseline_gbps))
    container["env"] = [*container["env"], {"name": "AWS_REGION", "value": region}]
    if settings.seeds:
        # The server starts once the copy's marker names its revision; the rollout waits that long more.
        wait = weights_copy.wait_container(settings, node_types)
        wait["env"] = [
            *wait["env"],
            {"name": "WEIGHTS_BUCKET", "value": bucket},
            {"name": "AWS_REGION", "value": region},
        ]
        pod["initContainers"] = [wait]
        pod["volumes"] = [
            *pod["volumes"],
            {"name": "weights-copy", "configMap": {"name": weights_copy.object_name(server_name)}},
        ]
        manifest["spec"]["progressDeadlineSeconds"] += weights_copy.wait_seconds(settings, node_types)
    return manifest
