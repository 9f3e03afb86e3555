"""The guarded GPU node group: accelerated AMI, the placement contract's label and taint.

Autoscaler tags on its Auto Scaling group describe the labels, taints and GPUs of nodes that do
not exist yet, so a group at zero nodes can still be scaled up for a pending GPU pod (docs/traps.md#scale-from-zero).
"""

import re
from collections.abc import Sequence

import pulumi
import pulumi_aws as aws

from ..args.validate import Validation, args_path, coerce, placement_contract
from ..facts.contract import (
    KUBERNETES_TAINT_EFFECT_OF_EKS,
    NVIDIA_GPU_PRODUCT_LABEL,
    NVIDIA_GPU_RESOURCE,
    PlacementContract,
)
from ..facts.gpu_catalog import (
    CLUSTER_AUTOSCALER_GPU_LABEL,
    CLUSTER_AUTOSCALER_TEMPLATE_TAG,
    accelerator_label_value,
)
from ..facts.identity import PROJECT
from ..settings import GpuNodeGroupSettings
from .args import GpuNodeGroupArgs
from .node_group import ManagedNodeGroupSpec, ami_type, create_managed_node_group, shape
from .warm import register_warm_nodes


def validated(name: str, args: GpuNodeGroupArgs) -> tuple[GpuNodeGroupSettings, PlacementContract]:
    """The node group's settings and contract from `args`; raises `ConfigError` naming every bad argument."""
    where = args_path("GpuNodeGroup", name)
    validation = Validation(where, args)
    args = validation.known(args)
    settings = validation.section(GpuNodeGroupSettings, args)
    contract, _ = placement_contract(args.placement, validation)
    validation.tags(args.tags)
    validation.done()
    return settings, contract


def gpu_node_labels(settings: GpuNodeGroupSettings, contract: PlacementContract) -> dict[str, str]:
    """The contract's labels, with the GPU facts of this group's own instance types.

    `nvidia.com/gpu.product` is the product every instance type of this group shares, and absent
    when they differ; the contract's `gpu_product` is not used, so one contract reused for groups of
    different GPU models labels each group with its own model.
    """
    labels = {key: value for key, value in contract.node_labels().items() if key != NVIDIA_GPU_PRODUCT_LABEL}
    if settings.gpu_product:
        labels[NVIDIA_GPU_PRODUCT_LABEL] = settings.gpu_product
    labels[CLUSTER_AUTOSCALER_GPU_LABEL] = accelerator_label_value(settings.instances)
    return labels


def gpu_node_group_spec(
    settings: GpuNodeGroupSettings,
    contract: PlacementContract,
    tags: dict[str, str],
    kubernetes_version: pulumi.Input[str] | None = None,
) -> ManagedNodeGroupSpec:
    """The GPU node group's shape: label and taints from the contract, GPU facts from its instance types."""
    return ManagedNodeGroupSpec(
        **shape(settings),
        ami_type=ami_type(settings.ami_family, settings.architecture, accelerated=True),
        ami_family=settings.ami_family,
        capacity_type=settings.capacity_type,
        labels=gpu_node_labels(settings, contract),
        taints=contract.eks_taints(),
        max_unavailable=settings.update_max_unavailable,
        node_repair=settings.node_repair,
        tags=tags,
        kubernetes_version=kubernetes_version,
        image_cache=settings.image_cache,
        snapshot_id=settings.snapshot_id,
        volume_throughput=settings.volume_throughput_mibps,
    )


def autoscaler_tags(spec: ManagedNodeGroupSpec, gpus_per_node: int) -> dict[str, str]:
    """Cluster Autoscaler node-template tags, from the node group's own labels and taints: labels, taints
    (`value:Effect`, Kubernetes spelling) and GPUs per node, so a group at zero is scaled up for the pods
    it fits (cluster-autoscaler/cloudprovider/aws/README.md, "Auto-Discovery Setup")."""
    tags = {f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/label/{key}": value for key, value in spec.labels.items()}
    tags.update(
        {
            f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/taint/{taint['key']}": f"{taint['value']}:{KUBERNETES_TAINT_EFFECT_OF_EKS[taint['effect']]}"
            for taint in spec.taints
        }
    )
    tags[f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/resources/{NVIDIA_GPU_RESOURCE}"] = str(gpus_per_node)
    return tags


class GpuNodeGroup(pulumi.ComponentResource):
    """A managed node group of NVIDIA GPU instances that only GPU workloads may use."""

    node_group_name: pulumi.Output[str]
    """Name of the EKS node group (a prefix from the component name plus a suffix AWS adds)."""
    ami_type: str
    """EKS AMI type of the nodes, for example `AL2023_x86_64_NVIDIA`."""
    labels: dict[str, str]
    """Every label the nodes carry: the contract's, the GPU product and the autoscaler's accelerator label."""
    taints: list[dict[str, str]]
    """Every taint the nodes carry, EKS API spelling (`NO_SCHEDULE`)."""

    def __init__(self, name: str, args: GpuNodeGroupArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(GpuNodeGroupArgs, args, args_path("GpuNodeGroup", name))
        # Checked before anything is registered: a bad argument leaves no half-built group behind.
        settings, contract = validated(name, args)
        super().__init__(f"{PROJECT}:index:GpuNodeGroup", name, None, opts)
        spec = gpu_node_group_spec(settings, contract, dict(args.tags or {}), args.kubernetes_version)
        node_group = create_managed_node_group(
            name,
            spec,
            cluster_name=args.cluster_name,
            node_role_arn=args.node_role_arn,
            subnet_ids=args.subnet_ids,
            parent=self,
        )
        asg_name = node_group.resources.apply(_autoscaling_group_name)
        for key, value in sorted(autoscaler_tags(spec, settings.gpus_per_instance).items()):
            # Named after the tag key, so adding a label does not rename the others' resources.
            slug = re.sub(r"[^A-Za-z0-9]+", "-", key.removeprefix(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/")).strip("-")
            aws.autoscaling.Tag(
                f"{name}-ca-{slug}",
                autoscaling_group_name=asg_name,
                tag={"key": key, "value": value, "propagate_at_launch": False},
                opts=pulumi.ResourceOptions(parent=self),
            )
        self.node_group_name = node_group.node_group_name
        self.ami_type = spec.ami_type
        self.labels = spec.labels
        self.taints = spec.taints
        # Placeholders are Kubernetes objects: the group is then given the cluster's provider (`providers`).
        register_warm_nodes(self, name, settings, contract, spec.labels)
        self.register_outputs(
            {
                "node_group_name": self.node_group_name,
                "ami_type": self.ami_type,
                "labels": self.labels,
                "taints": self.taints,
            }
        )


def _autoscaling_group_name(resources: "Sequence[aws.eks.outputs.NodeGroupResource]") -> str:
    # EKS creates the node group's Auto Scaling group with it; the SDK types both the list and the name optional.
    groups = resources[0].autoscaling_groups
    assert groups and groups[0].name is not None
    return groups[0].name
