"""Node pools from the node groups and the Karpenter and EKS Auto Mode NodePools a stack registers: the nodes the placement model
schedules onto."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...facts import auto_mode, gpu_catalog, karpenter
from ...facts.contract import KUBERNETES_TAINT_EFFECT_OF_EKS, Taint
from ...facts.eks_node import DEFAULT_CAPACITY_TYPE, EKS_DEFAULT_DISK_GIB, ami_type_runs_device_plugin
from ...facts.gpu_catalog import CLUSTER_AUTOSCALER_TEMPLATE_TAG
from ...facts.image_cache import ROOT_DEVICES
from ...facts.quantity import parse_quantity
from ...facts.resource_types import AUTO_MODE_NODE_CLASS as AUTO_MODE_NODE_CLASS_TYPE
from ...facts.resource_types import AUTOSCALING_TAG as TAG_TYPE
from ...facts.resource_types import KARPENTER_NODE_CLASS as KARPENTER_NODE_CLASS_TYPE
from ...facts.resource_types import KARPENTER_NODE_POOL as KARPENTER_NODE_POOL_TYPE
from ...facts.resource_types import LAUNCH_TEMPLATE as LAUNCH_TEMPLATE_TYPE
from ...facts.resource_types import NODE_GROUP as NODE_GROUP_TYPE
from ...placement import GPU_RESOURCE, NodeGroupSpec, format_taint, pools_for_node_groups
from ...placement.pools import SYSTEM_LABEL_PREFIXES, pool_allocatable, pool_gpus, pool_labels, pool_taints
from ..runtime import RegisteredResource

# What EKS uses when a node group sets no instance type (EKS API CreateNodegroup).
EKS_DEFAULT_INSTANCE_TYPE = "t3.medium"


@dataclass(frozen=True)
class NodeGroups:
    """The node groups of a run as the placement model reads them, and what could not be read."""

    specs: list[NodeGroupSpec]
    problems: list[str]
    """Node group inputs EKS would reject or the model cannot use, one line each."""


def node_group_specs(resources: list[RegisteredResource]) -> NodeGroups:
    """A `NodeGroupSpec` per registered `aws:eks/nodeGroup:NodeGroup`, taints in Kubernetes spelling.

    A group with several instance types is modelled by its smallest (least vCPU, then memory): a
    workload must fit the smallest node the group may start. NVIDIA Bottlerocket AMIs advertise
    GPUs without a device plugin DaemonSet.
    """
    templates = _launch_templates(resources)
    specs, problems = [], []
    for resource in resources:
        if resource.type != NODE_GROUP_TYPE:
            continue
        inputs = resource.inputs
        name = inputs.get("nodeGroupName") or resource.name
        taints = []
        for taint in inputs.get("taints") or ():
            effect = KUBERNETES_TAINT_EFFECT_OF_EKS.get(taint.get("effect"))
            if effect is None:
                problems.append(
                    f"node group {name}: taint {taint.get('key')!r} has effect {taint.get('effect')!r}; "
                    f"the EKS API takes {', '.join(KUBERNETES_TAINT_EFFECT_OF_EKS)}"
                )
                continue
            taints.append(Taint(taint.get("key"), taint.get("value") or "", effect).to_kubernetes())
        ami_type = inputs.get("amiType") or ""
        specs.append(
            NodeGroupSpec(
                name=name,
                instance_type=_smallest(inputs.get("instanceTypes") or [EKS_DEFAULT_INSTANCE_TYPE]),
                desired_size=int((inputs.get("scalingConfig") or {}).get("desiredSize") or 0),
                max_size=_max_size(inputs),
                instance_types=tuple(inputs.get("instanceTypes") or [EKS_DEFAULT_INSTANCE_TYPE]),
                labels=dict(inputs.get("labels") or {}),
                taints=taints,
                capacity_type=inputs.get("capacityType") or DEFAULT_CAPACITY_TYPE,
                gpu_advertised_by_host=ami_type_runs_device_plugin(ami_type),
                disk_size_gib=_disk_size(inputs, templates),
            )
        )
    # Karpenter's NodePools are pools too: the nodes they can launch.
    node_pools = node_pool_specs(resources)
    return NodeGroups(specs + node_pools.specs, problems + node_pools.problems)


def node_pool_specs(resources: list[RegisteredResource]) -> NodeGroups:
    """A `NodeGroupSpec` per registered Karpenter `NodePool`: the nodes it can launch.

    Its nodes carry the template's labels and taints; the instance types are those of its
    `node.kubernetes.io/instance-type` requirement (modelled by the smallest, as a node group), the capacity type
    that of `karpenter.sh/capacity-type` (on-demand when it allows several, Karpenter's own preference), and the
    most nodes it launches its `nvidia.com/gpu` limit over the GPUs per node. The disk is the root volume of its
    EC2NodeClass. A NodePool starts no node until a pod needs one: zero nodes now.

    A NodePool whose `nodeClassRef` names an `eks.amazonaws.com` NodeClass is EKS Auto Mode's: its nodes run the
    device plugin themselves (facts/auto_mode.py) and their disk is the NodeClass's ephemeral storage.
    """
    classes = {
        (resource.type, (resource.inputs.get("metadata") or {}).get("name")): resource.inputs.get("spec") or {}
        for resource in resources
        if resource.type in (KARPENTER_NODE_CLASS_TYPE, AUTO_MODE_NODE_CLASS_TYPE)
    }
    specs, problems = [], []
    for resource in resources:
        if resource.type != KARPENTER_NODE_POOL_TYPE:
            continue
        name = (resource.inputs.get("metadata") or {}).get("name") or resource.name
        spec = resource.inputs.get("spec") or {}
        template = spec.get("template") or {}
        node_spec = template.get("spec") or {}
        requirements = {
            item.get("key"): list(item.get("values") or ())
            for item in node_spec.get("requirements") or ()
            if item.get("operator") == "In"
        }
        instance_types = requirements.get("node.kubernetes.io/instance-type") or []
        if not instance_types:
            problems.append(
                f"NodePool {name}: no node.kubernetes.io/instance-type requirement; the plan models a "
                "NodePool by the instance types it allows"
            )
            continue
        capacity = requirements.get(karpenter.CAPACITY_TYPE_LABEL) or ["on-demand"]
        capacity_type = karpenter.EKS_CAPACITY_TYPES.get(
            "on-demand" if "on-demand" in capacity else capacity[0], DEFAULT_CAPACITY_TYPE
        )
        smallest = _smallest(instance_types)
        entry = gpu_catalog.lookup(smallest)
        gpu_limit = (spec.get("limits") or {}).get(GPU_RESOURCE)
        max_size = None
        if gpu_limit is not None and entry is not None and entry.gpus:
            max_size = int(gpu_limit) // entry.gpus
        reference = node_spec.get("nodeClassRef") or {}
        auto = reference.get("group") == auto_mode.NODE_CLASS_GROUP
        class_type = AUTO_MODE_NODE_CLASS_TYPE if auto else KARPENTER_NODE_CLASS_TYPE
        node_class = classes.get((class_type, reference.get("name"))) or {}
        specs.append(
            NodeGroupSpec(
                name=name,
                instance_type=smallest,
                desired_size=0,
                max_size=max_size,
                instance_types=tuple(instance_types),
                labels=dict((template.get("metadata") or {}).get("labels") or {}),
                taints=[dict(taint) for taint in node_spec.get("taints") or ()],
                capacity_type=capacity_type,
                gpu_advertised_by_host=auto or _boots_bottlerocket(node_class),
                disk_size_gib=_auto_mode_disk(node_class) if auto else _node_class_disk(node_class),
                provisioner=auto_mode.PROVISIONER if auto else karpenter.PROVISIONER,
            )
        )
    return NodeGroups(specs, problems)


def template_tags(resources: list[RegisteredResource]) -> dict[str, dict[str, str]]:
    """The Cluster Autoscaler's node-template tags registered for each node group, by the node group's resource
    name: what the scale-from-zero verdict (placement/scale_from_zero.py) reads.

    The tags and their node group are children of the same component, which is how they are paired.
    """
    groups_by_parent = {resource.parent: resource.name for resource in resources if resource.type == NODE_GROUP_TYPE}
    tags: dict[str, dict[str, str]] = {}
    for resource in resources:
        tag = resource.inputs.get("tag") or {}
        if resource.type == TAG_TYPE and str(tag.get("key", "")).startswith(CLUSTER_AUTOSCALER_TEMPLATE_TAG):
            group = groups_by_parent.get(resource.parent)
            if group is not None:
                tags.setdefault(group, {})[tag["key"]] = str(tag.get("value", ""))
    return tags


def build_pools(node_groups: NodeGroups) -> list[dict]:
    """The placement model's pools for `node_groups` (GPUs not yet advertised by a device plugin)."""
    return pools_for_node_groups(node_groups.specs)


def pool_summary(pool: dict) -> dict[str, Any]:
    """What a reader needs of a pool: size, GPUs, the labels and taints the node group chose."""
    labels = pool_labels(pool)
    allocatable = pool_allocatable(pool)
    return {
        "name": pool["name"],
        "instanceType": pool.get("instanceType"),
        "count": pool.get("count"),
        "maxCount": pool.get("maxCount"),
        "gpusPerNode": pool_gpus(pool),
        "gpusAdvertised": int(allocatable.get(GPU_RESOURCE, 0)),
        "gpuAdvertisedByHost": bool(pool.get("gpuAdvertisedByHost")),
        "provisioner": pool.get("provisioner", "nodeGroup"),
        "labels": {key: value for key, value in sorted(labels.items()) if not key.startswith(SYSTEM_LABEL_PREFIXES)},
        "taints": [format_taint(taint) for taint in pool_taints(pool)],
    }


def _max_size(inputs: dict) -> int | None:
    value = (inputs.get("scalingConfig") or {}).get("maxSize")
    return int(value) if value is not None else None


def _smallest(instance_types: list[str]) -> str:
    known = [entry for entry in map(gpu_catalog.lookup, instance_types) if entry is not None]
    return gpu_catalog.smallest(known).name if known else instance_types[0]


def _launch_templates(resources: list[RegisteredResource]) -> dict[str, RegisteredResource]:
    """Launch templates by the ids and names a node group may refer to them with."""
    by_reference = {}
    for resource in resources:
        if resource.type == LAUNCH_TEMPLATE_TYPE:
            if resource.id:
                by_reference[resource.id] = resource
            by_reference[resource.inputs.get("name") or resource.name] = resource
    return by_reference


def _node_class_disk(node_class: dict) -> int:
    """The node's ephemeral storage as Karpenter sizes it: the mapping marked `rootVolume`, else the AMI family's
    ephemeral device (`/dev/xvdb`, the data volume, for Bottlerocket; `/dev/xvda` otherwise), else the default
    (pkg/providers/instancetype/types.go at v1.14.1, `ephemeralStorage`)."""
    mappings = [mapping for mapping in node_class.get("blockDeviceMappings") or () if isinstance(mapping, dict)]
    device = ROOT_DEVICES["Bottlerocket" if _boots_bottlerocket(node_class) else "AL2023"]
    chosen = [mapping for mapping in mappings if mapping.get("rootVolume")] or [
        mapping for mapping in mappings if mapping.get("deviceName") == device
    ]
    size = (chosen[0].get("ebs") or {}).get("volumeSize") if chosen else None
    return int(parse_quantity(str(size)) // 2**30) if size else EKS_DEFAULT_DISK_GIB


def _auto_mode_disk(node_class: dict) -> int:
    size = (node_class.get("ephemeralStorage") or {}).get("size")
    return int(parse_quantity(str(size)) // 2**30) if size else EKS_DEFAULT_DISK_GIB


def _disk_size(inputs: dict, templates: dict[str, RegisteredResource]) -> int:
    if inputs.get("diskSize"):
        return int(inputs["diskSize"])
    reference = inputs.get("launchTemplate") or {}
    template = templates.get(reference.get("id") or "") or templates.get(reference.get("name") or "")
    for mapping in (template.inputs.get("blockDeviceMappings") or ()) if template else ():
        size = (mapping.get("ebs") or {}).get("volumeSize")
        if size:
            return int(size)
    return EKS_DEFAULT_DISK_GIB


def _boots_bottlerocket(node_class: dict[str, Any]) -> bool:
    """Whether an EC2NodeClass's AMI alias names a Bottlerocket release."""
    return any(
        str(term.get("alias", "")).startswith(karpenter.BOTTLEROCKET_ALIAS_PREFIX)
        for term in node_class.get("amiSelectorTerms") or ()
    )
