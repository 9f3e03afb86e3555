"""Rules AWS enforces on requests that the API models do not carry, each with its source.

Every function takes a request as `stackcheck.aws.check` builds it (API member names) and
returns the `Violation`s it finds; none needs the network.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ...facts import eks_model, image_cache
from ...facts.aws_tags import RESERVED_TAG_PREFIX, is_reserved
from ...facts.contract import kubelet_refuses_node_label
from .api_models import UNKNOWN, Violation

# Node group names: "can't be longer than 63 characters. It must start with a letter or digit, but
# can also include hyphens and underscores for the remaining characters" (`node_group_name` in
# hashicorp/terraform-provider-aws website/docs/r/eks_node_group.html.markdown, which the pulumi-aws
# NodeGroup docs repeat). The EKS model types `nodegroupName` as a plain String.
NODEGROUP_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}")
NODEGROUP_NAME_RULE = "an EKS node group name is 1-63 letters, digits, '-' or '_', starting with a letter or digit"

# Facts shared with the settings, defined once: the taint limit per node group (facts/eks_model.py), the
# label keys the kubelet refuses (facts/contract.py, with its kubernetes sources) and the gp3 size range
# (facts/eks_model.py, from the EC2 model's documentation).
MAX_TAINTS = eks_model.MAX_TAINTS_PER_NODE_GROUP
GP3_SIZE_GIB = (1, eks_model.MAX_GP3_VOLUME_GIB)


# "When you create a cluster, you specify a VPC and at least two subnets that are in different
# Availability Zones" (https://docs.aws.amazon.com/eks/latest/userguide/network-reqs.html).
MIN_CLUSTER_SUBNETS = 2

# The launch-template rules are stated in the EKS model's documentation of CreateNodegroup
# (botocore data/eks/2017-11-01/service-2.json): "If you specify launchTemplate, then don't specify
# diskSize / remoteAccess, or the node group deployment will fail"; "If you specify launchTemplate,
# and your launch template uses a custom AMI, then don't specify amiType" (EKS reports such a group
# as CUSTOM, shape Nodegroup); "If you specify an instance type in your launch template and specify
# any instanceTypes, the node group deployment will fail"; "don't specify SubnetId in your launch
# template".
_LAUNCH_TEMPLATE_SOURCE = "EKS CreateNodegroup documentation in the botocore model"


def nodegroup_name(request: dict[str, Any]) -> list[Violation]:
    name = request.get("nodegroupName")
    if not isinstance(name, str) or name == UNKNOWN or NODEGROUP_NAME.fullmatch(name):
        return []
    return [
        Violation(
            "nodegroupName",
            name,
            f"{NODEGROUP_NAME_RULE}; this one has {len(name)} characters "
            "(EKS node group naming rule, terraform-provider-aws aws_eks_node_group docs)",
        )
    ]


def taint_count(request: dict[str, Any]) -> list[Violation]:
    taints = request.get("taints")
    if not isinstance(taints, list) or len(taints) <= MAX_TAINTS:
        return []
    return [
        Violation(
            "taints",
            f"{len(taints)} taints",
            f"an EKS node group carries at most {MAX_TAINTS} taints "
            "(aws.eks.NodeGroup docs; terraform-provider-aws node_group.go)",
        )
    ]


def node_labels(request: dict[str, Any]) -> list[Violation]:
    return [
        Violation(
            f'labels["{key}"] (key)',
            key,
            "the kubelet refuses node labels in the kubernetes.io and "
            "k8s.io namespaces except its own (node.kubernetes.io/*, kubelet.kubernetes.io/*, "
            "kubernetes.io/os, kubernetes.io/arch, topology.kubernetes.io/zone, ...), so the nodes never "
            "join (kubernetes cmd/kubelet/app/options/options.go, IsKubeletLabel)",
        )
        for key in request.get("labels") or {}
        if is_reserved_label(key)
    ]


def is_reserved_label(key: str) -> bool:
    """Whether the kubelet refuses `key` in --node-labels (where EKS puts a managed node group's labels)."""
    return kubelet_refuses_node_label(key)


def nodegroup_with_launch_template(request: dict[str, Any], template_data: dict[str, Any] | None) -> list[Violation]:
    """What CreateNodegroup may not carry next to a launch template, given the template's data when known."""
    if not request.get("launchTemplate"):
        return []
    found = [
        Violation(
            member,
            request[member],
            f"must not be set next to a launch template, or the node group "
            f"deployment fails ({_LAUNCH_TEMPLATE_SOURCE})",
        )
        for member in ("diskSize", "remoteAccess")
        if request.get(member) is not None
    ]
    if template_data is None:
        return found
    ami_type = request.get("amiType")
    if template_data.get("ImageId") and ami_type not in (None, "CUSTOM"):
        found.append(
            Violation(
                "amiType",
                ami_type,
                "the launch template names an image "
                f"({template_data['ImageId']}), so amiType must be left out (EKS then reports "
                f"CUSTOM) ({_LAUNCH_TEMPLATE_SOURCE})",
            )
        )
    if template_data.get("InstanceType") and request.get("instanceTypes"):
        found.append(
            Violation(
                "instanceTypes",
                request["instanceTypes"],
                "the launch template sets InstanceType "
                f"{template_data['InstanceType']}; give instance types in one place only "
                f"({_LAUNCH_TEMPLATE_SOURCE})",
            )
        )
    for index, interface in enumerate(template_data.get("NetworkInterfaces") or []):
        if isinstance(interface, dict) and interface.get("SubnetId"):
            found.append(
                Violation(
                    f"launchTemplate: LaunchTemplateData.NetworkInterfaces[{index}].SubnetId",
                    interface["SubnetId"],
                    "a managed node group's launch template must not name a "
                    f"subnet; give subnets on the node group ({_LAUNCH_TEMPLATE_SOURCE})",
                )
            )
    return found


def cluster_subnets(request: dict[str, Any]) -> list[Violation]:
    subnets = (request.get("resourcesVpcConfig") or {}).get("subnetIds")
    if not isinstance(subnets, list) or UNKNOWN in subnets or len(set(subnets)) >= MIN_CLUSTER_SUBNETS:
        return []
    return [
        Violation(
            "resourcesVpcConfig.subnetIds",
            subnets,
            f"EKS needs at least {MIN_CLUSTER_SUBNETS} subnets in "
            "different Availability Zones (EKS user guide, network-reqs); whether they are in different "
            "zones cannot be known offline",
        )
    ]


def auto_mode(request: dict[str, Any]) -> list[Violation]:
    """EKS Auto Mode's rules of CreateCluster that botocore's model does not carry: compute, block storage and load
    balancing enabled together, and `bootstrapSelfManagedAddons` false with them (both in the errors EKS returns,
    hashicorp/terraform-provider-aws#40483); `nodeRoleArn` and `nodePools` given together or not at all ("When
    Compute Config nodeRoleArn is not null or empty, nodePool value(s) must be provided", aws/aws-cdk#33894; "When
    Compute Config nodeRoleArn is null or empty, nodePool list cannot be populated",
    terraform-aws-modules/terraform-aws-eks#3366)."""
    compute = request.get("computeConfig") or {}
    flags = {
        "computeConfig.enabled": compute.get("enabled"),
        "storageConfig.blockStorage.enabled": ((request.get("storageConfig") or {}).get("blockStorage") or {}).get(
            "enabled"
        ),
        "kubernetesNetworkConfig.elasticLoadBalancing.enabled": (
            (request.get("kubernetesNetworkConfig") or {}).get("elasticLoadBalancing") or {}
        ).get("enabled"),
    }
    if not any(flags.values()):
        return []
    found = [
        Violation(path, value, "EKS Auto Mode's compute, block storage and load balancing are enabled together")
        for path, value in flags.items()
        if value is not True
    ]
    if request.get("bootstrapSelfManagedAddons") is not False:
        found.append(
            Violation(
                "bootstrapSelfManagedAddons",
                request.get("bootstrapSelfManagedAddons"),
                "a cluster created with EKS Auto Mode must set it false",
            )
        )
    role, pools = compute.get("nodeRoleArn"), compute.get("nodePools")
    if bool(role) != bool(pools):
        found.append(
            Violation(
                "computeConfig.nodeRoleArn" if role else "computeConfig.nodePools",
                role or pools,
                "EKS takes a node role with built-in node pools, and neither without the other",
            )
        )
    return found


def gp3_volume_sizes(template_data: dict[str, Any], path: str = "LaunchTemplateData") -> list[Violation]:
    found = []
    for index, mapping in enumerate(template_data.get("BlockDeviceMappings") or []):
        ebs = mapping.get("Ebs") if isinstance(mapping, dict) else None
        if not isinstance(ebs, dict) or ebs.get("VolumeType") != "gp3":
            continue
        size = ebs.get("VolumeSize")
        low, high = GP3_SIZE_GIB
        if isinstance(size, (int, float)) and not isinstance(size, bool) and not low <= size <= high:
            found.append(
                Violation(
                    f"{path}.BlockDeviceMappings[{index}].Ebs.VolumeSize",
                    size,
                    f"a gp3 volume holds {low} to {high} GiB (64 TiB) (EBS volume types, "
                    "gp3 limit raised from 16 TiB in September 2025)",
                )
            )
    return found


# gp3 throughput: "Valid Range: Minimum value of 125. Maximum value of 2,000" MiB/s (botocore 1.44.8 EC2 model,
# LaunchTemplateEbsBlockDeviceRequest.Throughput), at most 0.25 MiB/s per provisioned IOPS (EBS User Guide,
# "General Purpose SSD volumes", gp3); without `Iops` the volume has gp3's 3,000.
GP3_THROUGHPUT_MIBPS = (125, 2000)
GP3_THROUGHPUT_PER_IOPS = 0.25


def block_devices(template_data: dict[str, Any], path: str = "LaunchTemplateData") -> list[Violation]:
    """A launch template's EBS volumes as EC2 takes them: a snapshot id EC2 can name, no encryption value next to a
    snapshot ("If you are creating a volume from a snapshot, you can't specify an encryption value", the model's
    LaunchTemplateEbsBlockDeviceRequest.Encrypted), and gp3 throughput in range and within its IOPS."""
    found = gp3_volume_sizes(template_data, path)
    for index, mapping in enumerate(template_data.get("BlockDeviceMappings") or []):
        ebs = mapping.get("Ebs") if isinstance(mapping, dict) else None
        if not isinstance(ebs, dict):
            continue
        where = f"{path}.BlockDeviceMappings[{index}].Ebs"
        snapshot = ebs.get("SnapshotId")
        if isinstance(snapshot, str) and snapshot != UNKNOWN and not image_cache.is_snapshot_id(snapshot):
            found.append(Violation(f"{where}.SnapshotId", snapshot, image_cache.SNAPSHOT_ID_RULE))
        if snapshot is not None and ebs.get("Encrypted") is not None:
            found.append(
                Violation(
                    f"{where}.Encrypted",
                    ebs["Encrypted"],
                    "no encryption value next to SnapshotId: a volume from a snapshot is encrypted as its snapshot is",
                )
            )
        throughput = ebs.get("Throughput")
        if ebs.get("VolumeType") != "gp3" or not isinstance(throughput, int) or isinstance(throughput, bool):
            continue
        low, high = GP3_THROUGHPUT_MIBPS
        given = ebs.get("Iops")
        iops: int = given if isinstance(given, int) else image_cache.GP3_BASELINE_IOPS
        if not low <= throughput <= high:
            found.append(Violation(f"{where}.Throughput", throughput, f"gp3 throughput of {low} to {high} MiB/s"))
        elif throughput > iops * GP3_THROUGHPUT_PER_IOPS:
            found.append(
                Violation(
                    f"{where}.Throughput",
                    throughput,
                    f"at most {GP3_THROUGHPUT_PER_IOPS} MiB/s per IOPS: {iops * GP3_THROUGHPUT_PER_IOPS:g} MiB/s "
                    f"at {iops} IOPS",
                )
            )
    return found


def reserved_tag_keys(request: Any, path: str = "") -> list[Violation]:
    """Tag keys starting with `aws:` anywhere in the request (maps named `tags`, lists of Key/TagKey items)."""
    found: list[Violation] = []
    if isinstance(request, dict):
        for member, value in request.items():
            where = f"{path}.{member}" if path else member
            if member in ("tags", "Tags"):
                found += _tag_violations(value, where)
            else:
                found += reserved_tag_keys(value, where)
    elif isinstance(request, list):
        for index, item in enumerate(request):
            found += reserved_tag_keys(item, f"{path}[{index}]")
    return found


def _tag_violations(tags: Any, path: str) -> list[Violation]:
    rule = (
        f"tag keys starting with '{RESERVED_TAG_PREFIX}' (any case) are reserved for AWS "
        "(EC2 user guide, tag restrictions)"
    )
    if isinstance(tags, dict):
        return [Violation(f'{path}["{key}"] (key)', key, rule) for key in tags if is_reserved(key)]
    found = []
    for index, tag in enumerate(tags if isinstance(tags, list) else []):
        key = tag.get("Key", tag.get("TagKey")) if isinstance(tag, dict) else None
        if is_reserved(key):
            found.append(Violation(f"{path}[{index}].{'Key' if 'Key' in tag else 'TagKey'}", key, rule))
    return found


# "Role policy size cannot exceed 10,240 characters": the aggregate of every inline policy of a role,
# and "IAM doesn't count white space when calculating the size of a policy against these quotas"
# (IAM user guide, IAM and AWS STS quotas, https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html).
# terraform-provider-aws validates one aws_iam_role_policy's document against the same figure
# (internal/service/iam/role_policy.go, verify.ValidIAMPolicyJSON(10240)). The IAM model's
# policyDocumentType allows 131,072 characters, a bound `validate` already applies.
ROLE_INLINE_POLICY_QUOTA = 10240

# Kubernetes names: a namespace is an RFC 1123 DNS label (at most 63 lowercase letters, digits or '-',
# starting and ending with a letter or digit); a ServiceAccount name is a DNS subdomain (at most 253 such
# labels joined by '.') (https://kubernetes.io/docs/concepts/overview/working-with-objects/names/;
# "Namespaces": "The name of a namespace must be a valid DNS label"; "Service Accounts": "The name of a
# ServiceAccount object must be a valid DNS subdomain name"). A Pod Identity association for any other
# name can never match a pod. The EKS model types both as a plain String.
DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")
DNS_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")


def policy_document(document: Any, path: str = "PolicyDocument") -> list[Violation]:
    """A policy document the provider accepts: a JSON object (verify.ValidIAMPolicyJSON)."""
    if not isinstance(document, str) or document == UNKNOWN:
        return []
    try:
        parsed = json.loads(document)
    except ValueError as error:
        return [Violation(path, document, f"is not JSON ({error}) (terraform-provider-aws verify.ValidIAMPolicyJSON)")]
    if not isinstance(parsed, dict):
        return [
            Violation(
                path, document, "a policy document is a JSON object (terraform-provider-aws verify.ValidIAMPolicyJSON)"
            )
        ]
    return []


def non_whitespace_length(document: str) -> int:
    return len(re.sub(r"\s", "", document))


def role_inline_policies(role: object, policies: list[tuple[str, str]]) -> list[Violation]:
    """The inline policies of `role` (where, document) together within the role's quota."""
    total = sum(non_whitespace_length(document) for _, document in policies if isinstance(document, str))
    if total <= ROLE_INLINE_POLICY_QUOTA:
        return []
    parts = ", ".join(f"{where} {non_whitespace_length(document)}" for where, document in policies)
    return [
        Violation(
            "PolicyDocument",
            f"{total} characters",
            f"the inline policies of role {role} hold {total} "
            f"characters without white space ({parts}); IAM allows {ROLE_INLINE_POLICY_QUOTA} per role "
            "(IAM user guide, IAM and AWS STS quotas)",
        )
    ]


def pod_identity_names(request: dict[str, Any]) -> list[Violation]:
    found = []
    for member, kind, pattern, what, limit in (
        ("namespace", "namespace", DNS_LABEL, "an RFC 1123 DNS label", 63),
        ("serviceAccount", "ServiceAccount", DNS_SUBDOMAIN, "a DNS subdomain name", 253),
    ):
        value = request.get(member)
        if isinstance(value, str) and value != UNKNOWN and not (len(value) <= limit and pattern.fullmatch(value)):
            found.append(
                Violation(
                    member,
                    value,
                    f"a Kubernetes {kind} name is {what} (at most {limit} "
                    "lowercase letters, digits, '-'"
                    f"{' or .' if member == 'serviceAccount' else ''}, starting and ending with a "
                    "letter or digit), so no pod matches this association (Kubernetes docs, Object "
                    "Names and IDs)",
                )
            )
    return found
