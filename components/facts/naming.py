"""Names of AWS objects derived from a component name, kept within AWS's length limits.

A cluster name may have up to 100 characters (EKS `ClusterName`), but the IAM roles and node groups
named after it have tighter limits once a generated suffix is added. A name that would not fit is
cut and given a short hash of the whole name, so it stays stable across runs and distinct between
clusters that share a long prefix; names that fit are used unchanged, so existing stacks keep them.
"""

from __future__ import annotations

import hashlib

# IAM `roleNameType` allows 64 characters (botocore IAM model, CreateRole).
IAM_ROLE_NAME_MAX = 64
# Pulumi auto-naming appends "-" and 7 random hex characters to the resource name (Pulumi docs,
# "Resource names: auto-naming"; `resource.NewUniqueHex(name + "-", 7, ...)` in pulumi/pulumi sdk).
AUTONAME_SUFFIX_LENGTH = 8
# EKS node group names: 1-63 letters, digits, "-" and "_", starting with a letter or digit (EKS API
# reference, CreateNodegroup `nodegroupName`; pulumi_aws `eks.NodeGroup` docs).
NODE_GROUP_NAME_MAX = 63
# The AWS provider completes `node_group_name_prefix` with a 26-digit unique id
# (hashicorp/terraform-plugin-sdk helper/id: `UniqueIDSuffixLength`, "an incrementing 26 digit value").
NAME_PREFIX_SUFFIX_LENGTH = 26
# pulumi-eks names its control-plane role after the cluster resource: `<name>-eksRole` is a ServiceRole
# whose aws.iam.Role is `<that>-role` (pulumi/pulumi-eks nodejs/eks/cluster/cluster.ts, servicerole.ts).
EKS_SERVICE_ROLE_SUFFIX = "-eksRole-role"

# EventBridge rule names: 1-64 characters (botocore events model, `RuleName`); SQS queue names: up to 80 (botocore
# SQS model, CreateQueue `QueueName`). Both are auto-named from the resource name.
EVENT_RULE_NAME_MAX = 64
SQS_QUEUE_NAME_MAX = 80

_HASH_LENGTH = 8


def fit(name: str, limit: int) -> str:
    """`name` if it has at most `limit` characters, else its start and a hash of the whole name."""
    if len(name) <= limit:
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:_HASH_LENGTH]
    head = name[: limit - _HASH_LENGTH - 1].rstrip("-_")
    return f"{head}-{digest}"


def autonamed_resource_name(name: str, limit: int) -> str:
    """A resource name whose auto-named AWS name (name + Pulumi's suffix) fits `limit`."""
    return fit(name, limit - AUTONAME_SUFFIX_LENGTH)


def eks_cluster_resource_name(name: str) -> str:
    """The `eks.Cluster` resource name: short enough for the service role pulumi-eks names after it."""
    return fit(name, IAM_ROLE_NAME_MAX - AUTONAME_SUFFIX_LENGTH - len(EKS_SERVICE_ROLE_SUFFIX))


def autonamed_role_resource_name(name: str) -> str:
    """An `aws.iam.Role` resource name whose auto-named role name fits IAM's limit."""
    return fit(name, IAM_ROLE_NAME_MAX - AUTONAME_SUFFIX_LENGTH)


def node_group_name_prefix(name: str) -> str:
    """A node group name prefix (ending in "-") that fits EKS's limit once the provider completes it."""
    return fit(name, NODE_GROUP_NAME_MAX - NAME_PREFIX_SUFFIX_LENGTH - 1) + "-"
