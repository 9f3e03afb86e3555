"""Node pools: node groups as the nodes EKS makes of them, and the GPUs the device plugin advertises."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..facts import auto_mode, gpu_catalog, karpenter
from ..facts.contract import KUBERNETES_TAINT_EFFECTS
from ..facts.eks_node import (
    CAPACITY_TYPES,
    DEFAULT_CAPACITY_TYPE,
    EKS_DEFAULT_DISK_GIB,
    allocatable_cpu_millicores,
    allocatable_ephemeral_bytes,
    allocatable_memory_mebibytes,
    kube_reserved_cpu_millicores,  # noqa: F401 re-exported
    kube_reserved_memory_mebibytes,  # noqa: F401 re-exported
)
from ..facts.quantity import format_quantity
from .explain import NODE_AFFINITY, NODE_UNSCHEDULABLE, TAINT_TOLERATION, filter_failures
from .resources import GPU_RESOURCE
from .workloads import daemonset_pod, is_device_plugin

# Placement without resource fit: where a pod may go if the node had room.
PLACEMENT_FILTERS = (NODE_UNSCHEDULABLE, TAINT_TOLERATION, NODE_AFFINITY)

# Labels EKS and the kubelet set on every node, as opposed to the ones a node group chose.
SYSTEM_LABEL_PREFIXES = ("kubernetes.io/", "node.kubernetes.io/", "beta.kubernetes.io/", "eks.amazonaws.com/")


@dataclass(frozen=True)
class NodeGroupSpec:
    """The settings of one EKS managed node group that decide where pods land."""

    name: str
    """Node group name; also the pool name and the `eks.amazonaws.com/nodegroup` label."""
    instance_type: str
    """EC2 instance type, looked up in facts.gpu_catalog."""
    desired_size: int
    """Nodes the group runs; 0 for a group that scales from zero."""
    labels: dict[str, str] = field(default_factory=dict)
    """Kubernetes labels the node group sets on its nodes."""
    taints: list[dict] = field(default_factory=list)
    """Taints in Kubernetes spelling (`{"key", "value", "effect": "NoSchedule"}`), not EKS's `NO_SCHEDULE`."""
    capacity_type: str = DEFAULT_CAPACITY_TYPE
    """ON_DEMAND (default), SPOT or CAPACITY_BLOCK; becomes `eks.amazonaws.com/capacityType`."""
    gpu_advertised_by_host: bool = False
    """True when the AMI runs the device plugin on the host (Bottlerocket NVIDIA); default False."""
    disk_size_gib: int = EKS_DEFAULT_DISK_GIB
    """Root volume size; EKS's default is 20 GiB. Sets the ephemeral-storage allocatable."""
    max_size: int | None = None
    """Most nodes the group may scale to. Default None: the desired size."""
    instance_types: tuple[str, ...] = ()
    """Every instance type the group may start (GPUs per node are counted for each). Default (): `instance_type` only."""
    provisioner: str = "nodeGroup"
    """`nodeGroup` (an EKS managed node group), `karpenter` (a Karpenter NodePool: its nodes carry Karpenter's
    well-known labels instead of the node group's) or `autoMode` (an EKS Auto Mode NodePool: Karpenter's pool and
    capacity-type labels and Auto Mode's `eks.amazonaws.com/` ones)."""


def pools_for_node_groups(
    node_groups: Iterable[NodeGroupSpec],
    device_plugin_pools: Iterable[str] | None = None,
    *,
    lookup: Callable[[str], Any] | None = None,
) -> list[dict]:
    """Pools for `node_groups`, with each node as EKS labels, taints and sizes it.

    A pool is `{"name", "instanceType", "count", "maxCount", "gpusPerNode",
    "gpusPerNodeByType", "unknown", "gpuAdvertisedByHost", "node"}`; `gpusPerNodeByType` maps each
    of the group's instance types to its GPUs (None when not in the catalog). Node labels: the group's labels, then
    `kubernetes.io/arch`, `kubernetes.io/os`, `node.kubernetes.io/instance-type`,
    `eks.amazonaws.com/nodegroup`, `eks.amazonaws.com/capacityType` and
    `kubernetes.io/hostname` (`<name>-0`), which win over the group's own.
    Allocatable: cpu, memory and pods from the catalog after the EKS AMI's
    kube-reserved and eviction threshold (see eks_allocatable), and
    `nvidia.com/gpu` only where the GPUs are advertised: pools with
    `gpu_advertised_by_host`, and GPU pools named in `device_plugin_pools` (or
    use advertise_gpus to derive them from the device plugin's placement).

    An instance type missing from the catalog gives a pool with `"unknown": True`,
    `gpusPerNode` 0 and no allocatable at all (so nothing fits there;
    placement_matrix says why). `lookup` replaces facts.gpu_catalog.lookup.
    Raises ValueError on a taint effect in EKS spelling, an unknown capacity
    type, a negative size or a repeated name.
    """
    lookup = lookup or gpu_catalog.lookup
    plugin_pools = set(device_plugin_pools or ())
    pools: list[dict] = []
    seen: set[str] = set()
    for group in node_groups:
        _validate(group, seen)
        seen.add(group.name)
        instance = lookup(group.instance_type)
        gpus = int(getattr(instance, "gpus", 0) or 0) if instance is not None else 0
        labels = dict(group.labels)
        hostname = f"{group.name}-0"
        if instance is not None:
            arch = instance.kubernetes_arch
            labels.update({"kubernetes.io/arch": arch, "beta.kubernetes.io/arch": arch})
        labels.update(
            {
                "kubernetes.io/os": "linux",
                "beta.kubernetes.io/os": "linux",
                "node.kubernetes.io/instance-type": group.instance_type,
                **_provisioner_labels(group, instance),
                "kubernetes.io/hostname": hostname,
            }
        )
        allocatable = eks_allocatable(instance, group.disk_size_gib) if instance is not None else {}
        if gpus and (group.gpu_advertised_by_host or group.name in plugin_pools):
            allocatable[GPU_RESOURCE] = str(gpus)
        node = {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {"name": hostname, "labels": labels},
            "spec": {"taints": [dict(t) for t in group.taints]},
            "status": {"allocatable": allocatable},
        }
        pools.append(
            {
                "name": group.name,
                "instanceType": group.instance_type,
                "count": group.desired_size,
                "maxCount": group.desired_size if group.max_size is None else group.max_size,
                "gpusPerNode": gpus,
                "gpusPerNodeByType": _gpus_by_type(group, lookup),
                "unknown": instance is None,
                "gpuAdvertisedByHost": group.gpu_advertised_by_host,
                "provisioner": group.provisioner,
                "node": node,
            }
        )
    return pools


def _provisioner_labels(group: NodeGroupSpec, instance: Any) -> dict[str, str]:
    """The labels a node has from what launched it: the node group's, or Karpenter's well-known ones."""
    if group.provisioner == auto_mode.PROVISIONER:
        return _auto_mode_labels(group, instance)
    if group.provisioner != karpenter.PROVISIONER:
        return {"eks.amazonaws.com/nodegroup": group.name, "eks.amazonaws.com/capacityType": group.capacity_type}
    labels = {
        karpenter.NODE_POOL_LABEL: group.name,
        karpenter.CAPACITY_TYPE_LABEL: karpenter.CAPACITY_TYPES.get(group.capacity_type, group.capacity_type),
        karpenter.INSTANCE_FAMILY_LABEL: group.instance_type.split(".", 1)[0],
    }
    if instance is not None and int(getattr(instance, "gpus", 0) or 0):
        labels[karpenter.INSTANCE_GPU_COUNT_LABEL] = str(instance.gpus)
    return labels


def _auto_mode_labels(group: NodeGroupSpec, instance: Any) -> dict[str, str]:
    """The labels an Auto Mode node has from what launched it (facts/auto_mode.py)."""
    labels = {
        karpenter.NODE_POOL_LABEL: group.name,
        karpenter.CAPACITY_TYPE_LABEL: karpenter.CAPACITY_TYPES.get(group.capacity_type, group.capacity_type),
        auto_mode.COMPUTE_TYPE_LABEL: auto_mode.COMPUTE_TYPE,
        auto_mode.INSTANCE_FAMILY_LABEL: group.instance_type.split(".", 1)[0],
    }
    if instance is not None and int(getattr(instance, "gpus", 0) or 0):
        labels[auto_mode.INSTANCE_GPU_COUNT_LABEL] = str(instance.gpus)
        labels[auto_mode.INSTANCE_GPU_MANUFACTURER_LABEL] = "nvidia"
    return labels


def advertise_gpus(pools: Iterable[dict], workloads: Iterable[dict]) -> list[dict]:
    """`pools` with `nvidia.com/gpu` allocatable set on each GPU pool the device plugin lands on.

    The device plugin is any workload is_device_plugin() accepts; landing means
    passing taints and node affinity (resource fit is ignored for it). GPU pools
    that already advertise GPUs keep them; nothing is removed. Copies; the input
    pools are not modified.
    """
    plugins = [daemonset_pod(w) for w in workloads if is_device_plugin(w)]
    result = []
    for pool in pools:
        gpus = pool_gpus(pool)
        allocatable = pool_allocatable(pool)
        if (
            gpus > 0
            and GPU_RESOURCE not in allocatable
            and any(not filter_failures(plugin, pool["node"], filters=PLACEMENT_FILTERS) for plugin in plugins)
        ):
            pool = copy.deepcopy(pool)
            status = pool["node"].setdefault("status", {})
            status["allocatable"] = {**(status.get("allocatable") or {}), GPU_RESOURCE: str(gpus)}
        result.append(pool)
    return result


def eks_allocatable(instance: Any, disk_size_gib: int = EKS_DEFAULT_DISK_GIB) -> dict[str, str]:
    """cpu, memory, pods and ephemeral-storage allocatable of an EKS AMI node of `instance`.

    cpu: vCPUs less 6% of the first core, 1% of the second, 0.5% of cores 3-4
    and 0.25% of each core above 4 (in whole millicores per band, as the AMI
    computes it). memory: the instance's memory less 11Mi per max pod + 255Mi
    kube-reserved and the 100Mi hard eviction threshold. pods: max pods.
    ephemeral-storage: the root volume less 1Gi kube-reserved and the 10%
    nodefs eviction threshold. `instance` is a catalog InstanceType.
    """
    memory_mi = allocatable_memory_mebibytes(instance.memory_gib, instance.max_pods)
    return {
        "cpu": format_quantity("cpu", Fraction(allocatable_cpu_millicores(instance.vcpus), 1000)),
        "memory": f"{memory_mi}Mi",
        "pods": str(instance.max_pods),
        "ephemeral-storage": format_quantity("ephemeral-storage", allocatable_ephemeral_bytes(disk_size_gib)),
    }


def gpu_pool_label_hint(pools: Iterable[dict]) -> str | None:
    """A `key=value` label every GPU pool has and no other pool has, to suggest as a nodeSelector."""
    pools = list(pools)
    gpu = [pool_labels(p) for p in pools if pool_gpus(p) > 0]
    other = [pool_labels(p) for p in pools if pool_gpus(p) <= 0]
    if not gpu:
        return None
    common = set(gpu[0].items()).intersection(*(set(labels.items()) for labels in gpu[1:]))
    candidates = sorted(
        (key, value)
        for key, value in common
        if not key.startswith(SYSTEM_LABEL_PREFIXES) and all(labels.get(key) != value for labels in other)
    )
    return f"{candidates[0][0]}={candidates[0][1]}" if candidates else None


def pool_gpus(pool: dict) -> int:
    """GPUs per node of `pool` (0 for a CPU pool)."""
    return int(pool.get("gpusPerNode") or 0)


def pool_labels(pool: dict) -> dict:
    """The labels of `pool`'s node."""
    return ((pool.get("node") or {}).get("metadata") or {}).get("labels") or {}


def pool_allocatable(pool: dict) -> dict:
    """The `status.allocatable` of `pool`'s node ({} when it has none)."""
    return ((pool.get("node") or {}).get("status") or {}).get("allocatable") or {}


def pool_taints(pool: dict) -> list[dict]:
    """The taints of `pool`'s node, in Kubernetes spelling."""
    return ((pool.get("node") or {}).get("spec") or {}).get("taints") or []


def _gpus_by_type(group: NodeGroupSpec, lookup: Callable[[str], Any]) -> dict[str, int | None]:
    result = {}
    for name in group.instance_types or (group.instance_type,):
        entry = lookup(name)
        result[name] = int(getattr(entry, "gpus", 0) or 0) if entry is not None else None
    return result


def _validate(group: NodeGroupSpec, seen: set[str]) -> None:
    if group.name in seen:
        raise ValueError(f"node group name {group.name!r} is repeated")
    if group.desired_size < 0:
        raise ValueError(f"node group {group.name}: desired_size {group.desired_size} must be >= 0")
    if group.max_size is not None and group.max_size < group.desired_size:
        raise ValueError(
            f"node group {group.name}: max_size {group.max_size} must be >= desired_size {group.desired_size}"
        )
    if group.capacity_type not in CAPACITY_TYPES:
        raise ValueError(
            f"node group {group.name}: capacity_type {group.capacity_type!r} must be one of {', '.join(CAPACITY_TYPES)}"
        )
    for taint in group.taints:
        effect = taint.get("effect")
        if effect not in KUBERNETES_TAINT_EFFECTS:
            raise ValueError(
                f"node group {group.name}: taint {taint.get('key')!r} has effect {effect!r}; "
                f"use Kubernetes spelling, one of {', '.join(KUBERNETES_TAINT_EFFECTS)} (EKS's NO_SCHEDULE is for the EKS API)"
            )
        if not taint.get("key"):
            raise ValueError(f"node group {group.name}: taint {taint!r} has no key")
