"""What the offline mocks answer (stackcheck/runtime.py): the account, VPC, subnets and zones of a fresh
deployment, and the outputs providers compute that the program reads (ARNs, names, the kubeconfig)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..facts.karpenter import SPOT_SERVICE_LINKED_ROLE
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


def computed_outputs(
    type_token: str, name: str, inputs: dict, region: str, partition: str, stack: str = ""
) -> dict[str, Any]:
    """The outputs a provider computes for a new resource of `type_token` that the program reads, in `stack`."""
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
        return {
            "latestVersion": launch_template_version(inputs, stack),
            "arn": arn_prefix.format(service="ec2") + f":launch-template/{name}",
        }
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


LAUNCH_TEMPLATE_UNVERSIONED_INPUTS = frozenset(
    {"name", "namePrefix", "defaultVersion", "updateDefaultVersion", "tags", "tagsAll"}
)
"""Launch template inputs whose change makes no new version: terraform-provider-aws's update creates a version
(`CreateLaunchTemplateVersion`) only when one of its `updateKeys` changes, which are the template's data and
description, not its name, default-version settings or tags (internal/service/ec2/ec2_launch_template.go, commit
c49358f89b43, `resourceLaunchTemplateUpdate`)."""
LAUNCH_TEMPLATE_VERSIONS = 9999
"""The stand-in versions run from 1 to this."""


def launch_template_version(inputs: dict, stack: str = "") -> int:
    """A stand-in for a launch template's `latestVersion`: EC2 numbers a template's versions 1, 2, 3... as they are
    created, which a plan cannot know, so the mocks answer a number derived from the inputs that make a version
    (`LAUNCH_TEMPLATE_UNVERSIONED_INPUTS` aside): the same for the same template data, another (but for one chance
    in `LAUNCH_TEMPLATE_VERSIONS`) when it changes. A node group takes it as `launchTemplate.version`, so a changed
    template shows in `plan --compare` as the node group's version update, which rolls its nodes.

    A value that is the stack's name (`stack`: the `pulumi:stack` tag the instances get) counts as a placeholder:
    two stacks' templates that differ only by it get one number, as their versions have nothing to do with each
    other."""
    data = {key: value for key, value in inputs.items() if key not in LAUNCH_TEMPLATE_UNVERSIONED_INPUTS}
    text = json.dumps(_stack_as_placeholder(data, stack), sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode()).hexdigest()
    return 1 + int(digest[:8], 16) % LAUNCH_TEMPLATE_VERSIONS


def _stack_as_placeholder(value: Any, stack: str) -> Any:
    if isinstance(value, dict):
        return {key: _stack_as_placeholder(item, stack) for key, item in value.items()}
    if isinstance(value, list):
        return [_stack_as_placeholder(item, stack) for item in value]
    return "<stack>" if stack and value == stack else value


def mock_role_arn(name: str, partition: str) -> str:
    """The ARN the mocks give the IAM role `name` in `partition` (in the mock account)."""
    return f"arn:{partition}:iam::{MOCK_ACCOUNT}:role/{name}"


SERVICE_LINKED_ROLE_PATHS = {SPOT_SERVICE_LINKED_ROLE: "/aws-service-role/spot.amazonaws.com/"}
"""The service-linked roles the mocks answer a lookup of as existing, each with the path IAM gives it (IAM User
Guide, "Using service-linked roles": `/aws-service-role/<service principal>/`)."""


def looked_up_role(name: str, partition: str) -> dict[str, Any]:
    """The mocks' answer to `aws.iam.get_role` for `name`: a service-linked role the stack looks up (the Spot role
    of a Karpenter Spot pool) exists, as in an account that has used Spot; any other role is not answered."""
    path = SERVICE_LINKED_ROLE_PATHS.get(name)
    if path is None:
        return {}
    arn = f"arn:{partition}:iam::{MOCK_ACCOUNT}:role{path}{name}"
    return {"arn": arn, "name": name, "id": name, "path": path}


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
