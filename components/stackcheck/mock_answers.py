"""What the offline mocks answer (stackcheck/runtime.py): the account, VPC, subnets and zones of a fresh
deployment, and the outputs providers compute that the program reads (ARNs, names, the kubeconfig)."""

from __future__ import annotations

import json
from typing import Any

from ..facts.regions import eks_regions, region_zones
from ..facts.resource_types import (
    ADDON,
    EKS_CLUSTER,
    EVENT_RULE,
    KMS_KEY,
    LAUNCH_TEMPLATE,
    NODE_GROUP,
    ROLE,
    S3_BUCKET,
    SQS_QUEUE,
)

MOCK_ACCOUNT = "123456789012"
MOCK_REGION = "us-west-2"
"""The region the mocks answer for when the config sets no `aws:region`."""
MOCK_VPC_ID = "vpc-0a1b2c3d4e5f60718"
# The security group EKS creates for a cluster, as DescribeCluster reports it.
MOCK_EKS_VPC_CONFIG = {"clusterSecurityGroupId": "sg-0eks0000000000000"}
MOCK_SUBNET_IDS = ("subnet-0a1b2c3d4e5f60711", "subnet-0a1b2c3d4e5f60722", "subnet-0a1b2c3d4e5f60733")


def mock_region(config: dict[str, Any]) -> str:
    """The region the mocks answer for: the config's `aws:region` when EKS serves it, else MOCK_REGION."""
    region = config.get("aws:region")
    return region if isinstance(region, str) and region in eks_regions() else MOCK_REGION


def mock_partition(region: str) -> str:
    """The partition the mocks answer for `region` (`aws-cn` for `cn-north-1`), `aws` for one EKS does not serve."""
    return eks_regions().get(region, "aws")


def mock_zones(region: str) -> tuple[tuple[str, str], ...]:
    """The (name, ID) of each zone the mocks report for `region`: the region's own (facts/regions.py), or
    three zones named as AWS names them when the zone table does not know the region."""
    known = region_zones(region)
    if known:
        return tuple((zone.name, zone.zone_id) for zone in known)
    parts = region.split("-")
    short = parts[0] + "".join(_DIRECTION_CODES.get(part, part[0]) for part in parts[1:-1]) + parts[-1]
    return tuple((f"{region}{letter}", f"{short}-az{index}") for index, letter in enumerate("abc", start=1))


# How AZ IDs abbreviate a region's words: `ap-northeast-1` is `apne1`, `us-gov-west-1` is `usgw1`.
_DIRECTION_CODES = {"northeast": "ne", "northwest": "nw", "southeast": "se", "southwest": "sw"}
# The zones the mocks answer for MOCK_REGION: the same rule as any other region, so the two cannot drift.
MOCK_ZONES = mock_zones(MOCK_REGION)


def computed_outputs(type_token: str, name: str, inputs: dict, region: str, partition: str) -> dict[str, Any]:
    """The outputs a provider computes for a new resource of `type_token` that the program reads."""
    arn_prefix = f"arn:{partition}:{{service}}:{region}:{MOCK_ACCOUNT}"
    if type_token == EKS_CLUSTER:
        kubeconfig = kubeconfig_of(inputs.get("name") or name)
        return {
            "kubeconfig": kubeconfig,
            "kubeconfigJson": json.dumps(kubeconfig),
            "clusterSecurityGroupId": "sg-0cluster000000000",
            "nodeSecurityGroupId": "sg-0node00000000000",
            "oidcProviderArn": f"arn:{partition}:iam::{MOCK_ACCOUNT}:oidc-provider/mock",
        }
    if type_token == ROLE:
        return {"arn": mock_role_arn(name, partition), "name": inputs.get("name", name)}
    if type_token == KMS_KEY:
        return {"arn": arn_prefix.format(service="kms") + f":key/{name}", "keyId": name}
    if type_token == LAUNCH_TEMPLATE:
        return {"latestVersion": 1, "arn": arn_prefix.format(service="ec2") + f":launch-template/{name}"}
    if type_token == NODE_GROUP:
        # With a prefix, the provider appends a 26-digit unique id.
        group_name = inputs.get("nodeGroupName") or inputs.get("nodeGroupNamePrefix", f"{name}-") + "1".zfill(26)
        return {
            "nodeGroupName": group_name,
            "arn": arn_prefix.format(service="eks") + f":nodegroup/{group_name}",
            "resources": [{"autoscalingGroups": [{"name": f"eks-{group_name}-asg"}]}],
            "status": "ACTIVE",
        }
    if type_token == ADDON:
        return {"arn": arn_prefix.format(service="eks") + f":addon/{inputs.get('addonName', name)}"}
    if type_token == SQS_QUEUE:
        queue = inputs.get("name", name)
        return {
            "arn": arn_prefix.format(service="sqs") + f":{queue}",
            "url": f"https://sqs.{region}.amazonaws.com/{MOCK_ACCOUNT}/{queue}",
            "name": queue,
        }
    if type_token == EVENT_RULE:
        rule = inputs.get("name", name)
        return {"arn": arn_prefix.format(service="events") + f":rule/{rule}", "name": rule}
    if type_token == S3_BUCKET:
        # The provider autonames a bucket from its resource name and a suffix; the stand-in keeps the name.
        bucket = inputs.get("bucket") or name
        return {"bucket": bucket, "arn": f"arn:{partition}:s3:::{bucket}"}
    return {}


def mock_role_arn(name: str, partition: str) -> str:
    """The ARN the mocks give the IAM role `name` in `partition` (in the mock account)."""
    return f"arn:{partition}:iam::{MOCK_ACCOUNT}:role/{name}"


def kubeconfig_of(cluster_name: str) -> dict[str, Any]:
    """A kubeconfig like the one pulumi-eks renders: `aws eks get-token` as the credential plugin."""
    return {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": cluster_name,
        "clusters": [{"name": cluster_name, "cluster": {"server": "https://mock.eks.amazonaws.com"}}],
        "contexts": [{"name": cluster_name, "context": {"cluster": cluster_name, "user": "aws"}}],
        "users": [
            {
                "name": "aws",
                "user": {
                    "exec": {
                        "apiVersion": "client.authentication.k8s.io/v1beta1",
                        "command": "aws",
                        "args": ["eks", "get-token", "--cluster-name", cluster_name, "--output", "json"],
                    }
                },
            }
        ],
    }
