"""The plan's driver verdict (`gpu-driver-knows-the-gpu`): each GPU pool's AMI and release, read from the node
groups, Karpenter EC2NodeClasses and Auto Mode NodePools the stack registers, with the images of the GPU workloads
that land on it."""

from __future__ import annotations

from typing import Any

from ...facts import auto_mode, gpu_catalog, karpenter
from ...facts.resource_types import KARPENTER_NODE_CLASS as KARPENTER_NODE_CLASS_TYPE
from ...facts.resource_types import KARPENTER_NODE_POOL as KARPENTER_NODE_POOL_TYPE
from ...facts.resource_types import LAUNCH_TEMPLATE as LAUNCH_TEMPLATE_TYPE
from ...facts.resource_types import NODE_GROUP as NODE_GROUP_TYPE
from ...placement import GPU_RESOURCE, PlacementRow
from ...placement.driver_fit import GpuPoolAmi
from ...placement.workloads import workload_id
from ..runtime import RegisteredResource

AL2023_ALIAS_PREFIX = "al2023@"


def gpu_pool_amis(
    resources: list[RegisteredResource],
    workloads: list[dict] | None = None,
    declaring: list[str] | None = None,
    matrix: list[PlacementRow] | None = None,
) -> list[GpuPoolAmi]:
    """Every pool with a GPU instance type, its AMI and release, and the images of the GPU containers the placement
    `matrix` lands on it (none without a placement)."""
    images = _images_by_pool(workloads or [], declaring or [], matrix or [])
    pools = _node_groups(resources) + _node_pools(resources)
    return [
        GpuPoolAmi(pool.pool, pool.ami, pool.release, pool.source, pool.instance_types, images.get(pool.pool, ()))
        for pool in pools
        if any(gpu_catalog.is_gpu_instance_type(name) for name in pool.instance_types)
    ]


def _node_groups(resources: list[RegisteredResource]) -> list[GpuPoolAmi]:
    custom_templates = {
        reference
        for resource in resources
        if resource.type == LAUNCH_TEMPLATE_TYPE and resource.inputs.get("imageId")
        for reference in (resource.id, resource.inputs.get("name") or resource.name)
        if reference
    }
    found = []
    for resource in resources:
        if resource.type != NODE_GROUP_TYPE:
            continue
        inputs = resource.inputs
        name = inputs.get("nodeGroupName") or resource.name
        ami_type = str(inputs.get("amiType") or "")
        release = inputs.get("releaseVersion") or None
        template = inputs.get("launchTemplate") or {}
        if template.get("id") in custom_templates or template.get("name") in custom_templates:
            ami, source = "custom", "node group: a launch template's image"
        elif ami_type.endswith("_NVIDIA") and ami_type.startswith(("AL2023_", "BOTTLEROCKET_")):
            ami = "AL2023" if ami_type.startswith("AL2023_") else "Bottlerocket"
            source = f"node group: amiType {ami_type}, " + (
                f"releaseVersion {release}" if release else "no releaseVersion (EKS's latest for its version)"
            )
        else:
            ami, source = "none", f"node group: amiType {ami_type or 'unset'}"
        types = tuple(inputs.get("instanceTypes") or ())
        found.append(GpuPoolAmi(name, ami, release, source, types))
    return found


def _node_pools(resources: list[RegisteredResource]) -> list[GpuPoolAmi]:
    classes = {
        (resource.inputs.get("metadata") or {}).get("name"): resource.inputs.get("spec") or {}
        for resource in resources
        if resource.type == KARPENTER_NODE_CLASS_TYPE
    }
    found = []
    for resource in resources:
        if resource.type != KARPENTER_NODE_POOL_TYPE:
            continue
        name = (resource.inputs.get("metadata") or {}).get("name") or resource.name
        node_spec = ((resource.inputs.get("spec") or {}).get("template") or {}).get("spec") or {}
        types = tuple(
            value
            for item in node_spec.get("requirements") or ()
            if item.get("key") == "node.kubernetes.io/instance-type" and item.get("operator") == "In"
            for value in item.get("values") or ()
        )
        reference = node_spec.get("nodeClassRef") or {}
        if reference.get("group") == auto_mode.NODE_CLASS_GROUP:
            found.append(GpuPoolAmi(name, "autoMode", None, f"Auto Mode NodeClass {reference.get('name')}", types))
            continue
        ami, release, source = _alias(reference.get("name"), classes.get(reference.get("name")) or {})
        found.append(GpuPoolAmi(name, ami, release, source, types))
    return found


def _alias(class_name: Any, node_class: dict) -> tuple[str, str | None, str]:
    """(AMI, release, source) of an EC2NodeClass: its alias's family and version (`latest` is EKS's latest)."""
    terms = [term for term in node_class.get("amiSelectorTerms") or () if isinstance(term, dict)]
    aliases = [str(term["alias"]) for term in terms if term.get("alias")]
    source = f"EC2NodeClass {class_name}: " + (f"alias {aliases[0]}" if aliases else "AMIs selected by id or tags")
    if not aliases:
        return "custom", None, source
    family, _, version = aliases[0].partition("@")
    release = None if version in ("", "latest") else version
    if aliases[0].startswith(AL2023_ALIAS_PREFIX):
        return "AL2023", release, source
    if aliases[0].startswith(karpenter.BOTTLEROCKET_ALIAS_PREFIX):
        return "Bottlerocket", release, source
    return family, release, source


def _pod_spec(workload: dict) -> dict:
    spec = workload.get("spec") or {}
    if workload.get("kind") == "Pod":
        return spec
    if workload.get("kind") == "CronJob":
        spec = ((spec.get("jobTemplate") or {}).get("spec")) or {}
    return ((spec.get("template") or {}).get("spec")) or {}


def _gpu_images(workload: dict) -> list[str]:
    """The images of the workload's containers that ask for `nvidia.com/gpu`."""
    found = []
    for container in _pod_spec(workload).get("containers") or ():
        resources = container.get("resources") or {}
        asked = (resources.get("limits") or {}).get(GPU_RESOURCE) or (resources.get("requests") or {}).get(GPU_RESOURCE)
        if asked and str(asked) != "0" and container.get("image"):
            found.append(str(container["image"]))
    return found


def _images_by_pool(
    workloads: list[dict], declaring: list[str], matrix: list[PlacementRow]
) -> dict[str, tuple[str, ...]]:
    images_of = {
        (workload_id(workload), declaring[position] if position < len(declaring) else ""): _gpu_images(workload)
        for position, workload in enumerate(workloads)
    }
    found: dict[str, dict[str, None]] = {}
    for row in matrix:
        if row.lands:
            for image in images_of.get((row.workload, row.resource), ()):
                found.setdefault(row.pool, {})[image] = None
    return {pool: tuple(images) for pool, images in found.items()}
