"""Registers a vLLM server's compile cache (`vllm.compileCache`): the bucket when the stack makes one, the read/write
grant on the cache's prefix for the role the server's pods take through EKS Pod Identity (the weights' or the
queue consumer's when the server has one, else a role of its own), and the ConfigMap with the cache's program.
The pod's parts are pure manifests (compile_cache_manifests.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s

from ..facts import naming, pod_identity
from ..settings import VllmSettings
from . import compile_cache_manifests as manifests
from .weights import bucket_resource_name, private_bucket


@dataclass
class CompileCache:
    """What the server's pod needs of its compile cache's resources."""

    env: list[dict]
    """`COMPILE_CACHE_BUCKET` and `AWS_REGION` for the restore and the saver."""
    needs: list[pulumi.Resource]
    """What the pod waits for: the grant, the ConfigMap, and the Pod Identity association when it made one."""


def register_compile_cache(
    name: str,
    *,
    settings: VllmSettings,
    server_name: str,
    cluster_name: pulumi.Input[str],
    role: pulumi.Output[str] | None,
    default_bucket: pulumi.Output[str] | None,
    namespace_needs: list[pulumi.Resource],
    tags: dict[str, str] | None,
    parent: pulumi.Resource,
) -> CompileCache:
    """The cache's bucket (`compileCache.bucket`, else `default_bucket`, else one the stack creates), the grant on
    its prefix to `role` (None: a role and Pod Identity association of the cache's own for the server's
    ServiceAccount), and the ConfigMap."""
    child = pulumi.ResourceOptions(parent=parent)
    invoke = pulumi.InvokeOutputOptions(parent=parent)
    needs: list[pulumi.Resource] = []
    configured = settings.compile_cache.bucket
    if configured is not None:
        bucket = pulumi.Output.from_input(configured)
    elif default_bucket is not None:
        bucket = default_bucket
    else:
        bucket = private_bucket(bucket_resource_name(name, "compile-cache"), f"{name}-compile-cache", tags, parent)
    if role is None:
        own = aws.iam.Role(
            naming.autonamed_role_resource_name(f"{name}-compile-cache"),
            description=f"vLLM server {name}: restores and saves its compile cache in S3 (EKS Pod Identity)",
            assume_role_policy=json.dumps(pod_identity.trust_policy()),
            tags=tags,
            opts=child,
        )
        role = own.name
        needs.append(
            aws.eks.PodIdentityAssociation(
                f"{name}-compile-cache-pod-identity",
                cluster_name=cluster_name,
                namespace=settings.namespace,
                service_account=server_name,
                role_arn=own.arn,
                tags=tags,
                opts=child,
            )
        )
    partition = aws.get_partition_output(opts=invoke).partition
    cache_prefix = manifests.prefix(settings)
    needs.append(
        aws.iam.RolePolicy(
            f"{name}-compile-cache-access",
            role=role,
            policy=pulumi.Output.all(bucket, partition).apply(
                lambda parts: json.dumps(manifests.read_write_policy(parts[0], cache_prefix, parts[1]))
            ),
            opts=child,
        )
    )
    script = manifests.config_map(name, settings, server_name)
    needs.append(
        k8s.core.v1.ConfigMap(
            f"{name}-compile-cache-script",
            metadata=script["metadata"],
            data=script["data"],
            opts=pulumi.ResourceOptions(parent=parent, depends_on=namespace_needs),
        )
    )
    region = aws.get_region_output(opts=invoke).region
    env = [{"name": "COMPILE_CACHE_BUCKET", "value": bucket}, {"name": "AWS_REGION", "value": region}]
    return CompileCache(env=env, needs=needs)
