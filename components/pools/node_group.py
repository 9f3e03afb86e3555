"""A managed node group with its launch template: the part shared by the system and GPU node groups.

`aws.eks.NodeGroup` and `aws.ec2.LaunchTemplate` are used rather than `eks.ManagedNodeGroup`: a
remote component hides what it creates from previews under mocks and from the offline plan,
while every label, taint, AMI type and metadata option here is an input reviewers and tests see.
"""

from __future__ import annotations

import base64
import functools
from dataclasses import dataclass, field
from typing import Any, cast

import pulumi
import pulumi_aws as aws

from ..facts import eks_model, image_cache, naming, regions
from ..facts.eks_node import DEFAULT_CAPACITY_TYPE, NODE_ROLE_POLICIES
from ..facts.identity import PROJECT
from ..ordering import once_created


@dataclass(frozen=True)
class ManagedNodeGroupSpec:
    """Everything that shapes one managed node group."""

    instance_types: list[str]
    """EC2 instance types, one architecture."""
    ami_type: str
    """EKS AMI type, for example `AL2023_x86_64_NVIDIA`; EKS picks the matching image."""
    min_size: int
    desired_size: int
    max_size: int
    disk_size: int
    """Root (Bottlerocket: data) volume size in GiB, set in the launch template."""
    ami_family: str = "AL2023"
    """`AL2023` or `Bottlerocket`; decides which device holds images and containers."""
    capacity_type: str = DEFAULT_CAPACITY_TYPE
    labels: dict[str, str] = field(default_factory=dict)
    taints: list[dict[str, str]] = field(default_factory=list)
    """Taints in EKS API spelling (`NO_SCHEDULE`)."""
    max_unavailable: int = 1
    node_repair: bool = False
    tags: dict[str, str] = field(default_factory=dict)
    kubernetes_version: pulumi.Input[str] | None = None
    """The nodes' Kubernetes version (the control plane's); None leaves it to EKS, which never upgrades them."""
    image_cache: str = "none"
    """`none`, `soci` (SOCI parallel pull, AL2023) or `snapshot` (Bottlerocket's data volume from `snapshot_id`)."""
    snapshot_id: str | None = None
    volume_throughput: int | None = None
    """MiB/s of the gp3 volume; None for gp3's included 125."""


def shape(settings: Any) -> dict[str, Any]:
    """The fields of a ManagedNodeGroupSpec every node group section of the settings gives alike: instance
    types, sizes and disk size."""
    return {
        "instance_types": list(settings.instance_types),
        "min_size": settings.min_size,
        "desired_size": settings.desired_size,
        "max_size": settings.max_size,
        "disk_size": settings.disk_size,
    }


def ami_type(ami_family: str, architecture: str, accelerated: bool) -> str:
    """The EKS AMI type for a family (`AL2023`, `Bottlerocket`), architecture and GPU need.

    AL2 is never chosen: its AMIs stopped being published on 2025-11-26.
    """
    arch = {"x86_64": "x86_64", "arm64": "ARM_64"}[architecture]
    variant = "NVIDIA" if accelerated else ("STANDARD" if ami_family == "AL2023" else None)
    prefix = {"AL2023": "AL2023", "Bottlerocket": "BOTTLEROCKET"}[ami_family]
    name = f"{prefix}_{arch}" + (f"_{variant}" if variant else "")
    if name not in eks_model.ami_types():
        raise ValueError(f"AMI type {name!r} is not in the EKS API's AMITypes {eks_model.ami_types()}")
    return name


def launch_template_args(spec: ManagedNodeGroupSpec) -> dict:
    """Launch template inputs: IMDSv2 only with hop limit 1, an encrypted gp3 volume, no image id.

    Keeping the image out of the template lets EKS pick the accelerated AMI for `ami_type`; the
    disk size lives here because the API rejects `diskSize` next to a launch template. The image cache
    changes the volume and the user data (`facts/image_cache.py`): `soci` raises the root volume's throughput to
    what nodeadm's fast image pull asks for and turns the gate on in a `NodeConfig` part, which EKS merges with its
    own; `snapshot` restores Bottlerocket's data volume from the snapshot.
    """
    args: dict[str, object] = {
        "metadata_options": {
            "http_endpoint": "enabled",
            "http_tokens": "required",
            "http_put_response_hop_limit": 1,
        },
        "block_device_mappings": [{"device_name": image_cache.ROOT_DEVICES[spec.ami_family], "ebs": _volume(spec)}],
        "tag_specifications": [{"resource_type": "instance", "tags": spec.tags}] if spec.tags else None,
        "update_default_version": True,
    }
    if spec.image_cache == "soci":
        # Launch templates take user data base64-encoded (EC2 RequestLaunchTemplateData, `UserData`).
        args["user_data"] = base64.b64encode(image_cache.nodeconfig_user_data().encode()).decode()
    return args


def _volume(spec: ManagedNodeGroupSpec) -> dict[str, object]:
    ebs: dict[str, object] = {"volume_size": spec.disk_size, "volume_type": "gp3", "delete_on_termination": "true"}
    if spec.image_cache == "snapshot":
        # "If you are creating a volume from a snapshot, you can't specify an encryption value" (botocore EC2 model,
        # LaunchTemplateEbsBlockDeviceRequest.Encrypted): the volume is encrypted as the snapshot is.
        ebs["snapshot_id"] = spec.snapshot_id
    else:
        ebs["encrypted"] = "true"
    if spec.volume_throughput is not None:
        ebs["throughput"] = spec.volume_throughput
        ebs["iops"] = image_cache.gp3_iops(spec.volume_throughput)
    return ebs


def node_trust_policy(dns_suffix: pulumi.Input[str]) -> pulumi.Output[str]:
    """The assume-role policy of a role that EC2 nodes take, for the partition of `dns_suffix`.

    EC2's service principal carries the partition's DNS suffix: EKS refuses a node role in China whose trust names
    `ec2.amazonaws.com` instead of `ec2.amazonaws.com.cn` (awslabs/cdk-eks-blueprints#558); terraform-aws-eks's
    node groups write it `ec2.${dns_suffix}` alike.
    """
    return pulumi.Output.json_dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Effect": "Allow",
                    "Principal": {"Service": pulumi.Output.concat("ec2.", dns_suffix)},
                    "Action": "sts:AssumeRole",
                }
            ],
        }
    )


@dataclass(frozen=True)
class LaunchedNodeRole:
    """The IAM role of nodes a controller launches outside managed node groups (Karpenter, EKS Auto Mode), its
    policy attachments and its EKS access entry, which EKS creates itself only for managed node groups."""

    role: aws.iam.Role
    attachments: list[aws.iam.RolePolicyAttachment]
    access_entry: aws.eks.AccessEntry


def launched_node_role(
    name: str,
    *,
    launcher: str,
    cluster_name: pulumi.Input[str],
    policies: tuple[str, ...],
    access_entry_type: str,
    partition: pulumi.Output[Any],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> LaunchedNodeRole:
    """`<name>-node-role` with the AWS managed `policies` attached (`<name>-node-<policy>`) and an access entry of
    `access_entry_type` (`<name>-node-access`), all with `opts` (the caller's child options)."""
    role = aws.iam.Role(
        naming.autonamed_role_resource_name(f"{name}-node-role"),
        description=pulumi.Output.concat(
            f"Nodes {launcher} launches for EKS cluster ", pulumi.Output.from_input(cluster_name)
        ),
        assume_role_policy=node_trust_policy(partition.dns_suffix),
        tags=tags or None,
        opts=opts,
    )
    attachments = [
        aws.iam.RolePolicyAttachment(
            f"{name}-node-{policy}",
            role=role.name,
            policy_arn=partition.partition.apply(functools.partial(regions.aws_managed_policy_arn, name=policy)),
            opts=opts,
        )
        for policy in policies
    ]
    access_entry = aws.eks.AccessEntry(
        f"{name}-node-access",
        cluster_name=cluster_name,
        principal_arn=role.arn,
        type=access_entry_type,
        tags=tags or None,
        opts=opts,
    )
    return LaunchedNodeRole(role, attachments, access_entry)


class NodeRole(pulumi.ComponentResource):
    """The IAM role EC2 nodes assume, with the policies a managed node group needs.

    EKS creates the access entry for a managed node group's role itself (with `API` authentication);
    creating another would fail, so none is made here. `arn` resolves only once the policies are
    attached, so a node group given it is created after them and deleted before them: without the CNI
    policy, draining nodes lose pod networking (the pulumi_aws `eks.NodeGroup` docs make node groups
    depend on the attachments for this reason).
    """

    arn: pulumi.Output[str]
    name: pulumi.Output[str]
    role: aws.iam.Role

    def __init__(self, name: str, opts: pulumi.ResourceOptions | None = None):
        super().__init__(f"{PROJECT}:index:NodeRole", name, None, opts)
        partition = aws.get_partition_output(opts=pulumi.InvokeOutputOptions(parent=self))
        role = aws.iam.Role(
            naming.autonamed_role_resource_name(f"{name}-role"),
            assume_role_policy=node_trust_policy(partition.dns_suffix),
            opts=pulumi.ResourceOptions(parent=self),
        )
        attachments = [
            aws.iam.RolePolicyAttachment(
                f"{name}-{policy}",
                role=role.name,
                policy_arn=partition.partition.apply(functools.partial(regions.aws_managed_policy_arn, name=policy)),
                opts=pulumi.ResourceOptions(parent=self),
            )
            for policy in NODE_ROLE_POLICIES
        ]
        self.arn = once_created(role.arn, attachments)
        self.name = role.name
        self.role = role
        self.register_outputs({"arn": self.arn, "name": self.name, "role": self.role})


def create_managed_node_group(
    name: str,
    spec: ManagedNodeGroupSpec,
    *,
    cluster_name: pulumi.Input[str],
    node_role_arn: pulumi.Input[str],
    subnet_ids: pulumi.Input[list[str]],
    parent: pulumi.Resource,
) -> aws.eks.NodeGroup:
    """Register the launch template and the node group `name` as children of `parent`.

    The node group is named from a prefix (the provider adds a unique suffix), so a change that
    replaces it (instance types, AMI type, capacity type, subnets) creates the new group before the
    old one is deleted, rather than failing on the taken name or emptying the pool first.
    """
    template = aws.ec2.LaunchTemplate(
        f"{name}-lt",
        **launch_template_args(spec),
        opts=pulumi.ResourceOptions(parent=parent),
    )
    return aws.eks.NodeGroup(
        name,
        cluster_name=cluster_name,
        node_group_name_prefix=naming.node_group_name_prefix(name),
        node_role_arn=node_role_arn,
        subnet_ids=subnet_ids,
        instance_types=spec.instance_types,
        ami_type=spec.ami_type,
        capacity_type=spec.capacity_type,
        scaling_config={"min_size": spec.min_size, "desired_size": spec.desired_size, "max_size": spec.max_size},
        update_config={"max_unavailable": spec.max_unavailable},
        labels=spec.labels or None,
        # EKS-spelled taints from facts/contract.py, which stays free of the SDK and cannot name its TypedDict.
        taints=cast("list[aws.eks.NodeGroupTaintArgsDict]", spec.taints) or None,
        node_repair_config={"enabled": True} if spec.node_repair else None,
        launch_template={"id": template.id, "version": template.latest_version.apply(str)},
        # With a launch template that names no image, EKS picks the AMI of this version; a new version is a
        # rolling update of the group (pulumi-aws `eks.NodeGroup` `version`; EKS user guide, "Update a managed
        # node group for your cluster").
        version=spec.kubernetes_version,
        tags=spec.tags or None,
        # An autoscaler owns the desired size once the group exists.
        opts=pulumi.ResourceOptions(parent=parent, ignore_changes=["scalingConfig.desiredSize"]),
    )
