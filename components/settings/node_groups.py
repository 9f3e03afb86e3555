"""Settings of the node groups: the untainted system group (`systemNodeGroup`, components/cluster/cluster.py) and the
guarded GPU group (`gpuNodeGroup`, components/pools/gpu_node_group.py), both built by components/pools/node_group.py."""

from __future__ import annotations

from typing import Annotated, Literal

from ..facts import auto_mode, gpu_catalog, image_cache
from ..facts.contract import Taint
from .errors import ConfigProblem
from .fields import (
    Gp3DiskSize,
    InstanceTypes,
    LabelKey,
    NodeCount,
    NodeLabels,
    TaintEffect,
    TaintValue,
    rule,
)
from .section import SectionModel

# Accelerated AMIs and the vLLM image need room; below this a GPU node fills its disk pulling them.
MIN_GPU_DISK_GIB = 50
MIN_SYSTEM_DISK_GIB = 20

SystemDiskSize = Annotated[
    Gp3DiskSize,
    rule(lambda size: size >= MIN_SYSTEM_DISK_GIB, f"at least {MIN_SYSTEM_DISK_GIB} GiB", "disk too small:"),
]
GpuDiskSize = Annotated[
    Gp3DiskSize,
    rule(
        lambda size: size >= MIN_GPU_DISK_GIB,
        f"at least {MIN_GPU_DISK_GIB} GiB for an accelerated AMI and the vLLM image",
        "disk too small:",
    ),
]
SnapshotId = Annotated[str, rule(image_cache.is_snapshot_id, image_cache.SNAPSHOT_ID_RULE)]
VolumeThroughput = Annotated[
    int,
    rule(
        lambda mibps: image_cache.GP3_INCLUDED_THROUGHPUT_MIBPS <= mibps <= image_cache.GP3_MAX_THROUGHPUT_MIBPS,
        f"an integer from {image_cache.GP3_INCLUDED_THROUGHPUT_MIBPS} to {image_cache.GP3_MAX_THROUGHPUT_MIBPS} "
        "MiB/s (gp3)",
    ),
]


class _NodeGroupSettings(SectionModel):
    instance_types: InstanceTypes
    min_size: NodeCount
    desired_size: NodeCount
    max_size: NodeCount
    disk_size: Gp3DiskSize

    def problems(self) -> list[ConfigProblem]:
        problems = []
        if self.max_size < 1:
            problems.append(ConfigProblem("maxSize", f"{self.max_size!r}; allowed: an integer >= 1 (EKS rejects 0)"))
        if self.min_size > self.desired_size:
            problems.append(
                ConfigProblem(
                    "minSize",
                    f"{self.min_size!r} is greater than desiredSize "
                    f"{self.desired_size!r}; allowed: minSize <= desiredSize <= maxSize",
                )
            )
        if self.desired_size > self.max_size:
            problems.append(
                ConfigProblem(
                    "desiredSize",
                    f"{self.desired_size!r} is greater than maxSize "
                    f"{self.max_size!r}; allowed: minSize <= desiredSize <= maxSize",
                )
            )
        return problems


class SystemNodeGroupSettings(_NodeGroupSettings):
    """The untainted node group where CoreDNS and other add-ons run (`systemNodeGroup`)."""

    instance_types: InstanceTypes = ["m6i.large"]
    """Non-GPU instance types, one architecture."""
    min_size: NodeCount = 2
    """Smallest node count, at least 1 so add-ons always have a node; `minSize <= desiredSize <= maxSize`."""
    desired_size: NodeCount = 2
    """Node count at creation (CoreDNS runs two replicas)."""
    max_size: NodeCount = 3
    """Largest node count, 1 to 2147483647 (the EKS API's 32-bit integers)."""
    disk_size: SystemDiskSize = 100
    """Root volume size in GiB, 20-65536 (gp3): the default holds the weights copy Job (`source.seed`) beside the
    OS, which the plan's disk verdict (`weights-fit-on-disk`) checks."""

    def problems(self) -> list[ConfigProblem]:
        problems = super().problems()
        if self.min_size < 1:
            problems.append(
                ConfigProblem(
                    "minSize",
                    f"{self.min_size!r}; allowed: an integer >= 1, or CoreDNS "
                    "and other add-ons have no untainted node to run on",
                )
            )
        gpu_types = [name for name in self.instance_types if gpu_catalog.is_gpu_instance_type(name)]
        if gpu_types:
            problems.append(
                ConfigProblem(
                    "instanceTypes",
                    f"GPU instance types {gpu_types!r} in the system "
                    "node group; allowed: non-GPU types such as m6i.large (GPU nodes belong "
                    "in gpuNodeGroup)",
                )
            )
        architectures = {gpu_catalog.architecture_of(name) for name in self.instance_types}
        if len(architectures) > 1:
            problems.append(
                ConfigProblem(
                    "instanceTypes",
                    f"{self.instance_types!r} mix architectures "
                    f"{sorted(map(str, architectures))}; allowed: one architecture",
                )
            )
        return problems

    @property
    def architecture(self) -> str:
        return gpu_catalog.architecture_of(self.instance_types[0]) or "x86_64"


class TaintSettings(SectionModel):
    """A taint in Kubernetes spelling (an item of `gpuNodeGroup.extraTaints`)."""

    key: LabelKey
    """Taint key, 1-63 characters with an optional DNS-subdomain prefix."""
    value: TaintValue = ""
    """Taint value, 0-63 characters."""
    effect: TaintEffect = "NoSchedule"
    """`NoSchedule`, `NoExecute` or `PreferNoSchedule`."""

    def to_taint(self) -> Taint:
        return Taint(self.key, self.value, self.effect)


class GpuNodeGroupSettings(_NodeGroupSettings):
    """The guarded GPU node group (`gpuNodeGroup`)."""

    instance_types: InstanceTypes = ["g5.xlarge"]
    """NVIDIA GPU instance types from the catalog (`facts/gpu_catalog.py`), one architecture and one GPU count."""
    ami_family: Literal["AL2023", "Bottlerocket"] = "AL2023"
    """`AL2023` or `Bottlerocket`; the NVIDIA AMI type follows from it and the architecture."""
    capacity_type: Literal["ON_DEMAND", "SPOT"] = "ON_DEMAND"
    """`ON_DEMAND` or `SPOT`."""
    min_size: NodeCount = 0
    """Smallest node count; 0 lets an autoscaler park the group. `minSize <= desiredSize <= maxSize`."""
    desired_size: NodeCount = 1
    """Node count at creation (an autoscaler owns it afterwards)."""
    max_size: NodeCount = 2
    """Largest node count, 1 to 2147483647 (the EKS API's 32-bit integers)."""
    disk_size: GpuDiskSize = 100
    """Root volume size in GiB, 50-65536 (gp3): the accelerated AMI and the vLLM image need room."""
    extra_labels: NodeLabels = {}
    """Labels the GPU nodes carry besides the contract label; not the contract's own labels, and no keys under
    `kubernetes.io/` or `k8s.io/` (the kubelet refuses them) other than `node.kubernetes.io/`."""
    extra_taints: list[TaintSettings] = []
    """Taints the GPU nodes carry besides the contract taint, Kubernetes spelling, each key once and 50 taints at
    most with the contract's; GPU workloads tolerate them."""
    update_max_unavailable: Annotated[int, rule(lambda value: 1 <= value <= 100, "an integer from 1 to 100")] = 1
    """Nodes replaced at once during a node group update, 1-100."""
    node_repair: bool = True
    """EKS node auto repair, with the node monitoring agent add-on that `EksCluster` installs."""
    provisioner: Literal["nodeGroup", "karpenter", "autoMode"] = "nodeGroup"
    """What launches the pool's nodes: `nodeGroup` (an EKS managed node group, scaled by the Cluster Autoscaler),
    `karpenter` (a Karpenter NodePool and EC2NodeClass, launching an instance per pending pod; `minSize`,
    `desiredSize`, `updateMaxUnavailable` and `nodeRepair` do not apply, `maxSize` caps the pool at maxSize x GPUs
    per instance) or `autoMode` (EKS Auto Mode: a NodePool and an
    `eks.amazonaws.com` NodeClass, nodes whose AMI, NVIDIA driver, device plugin and repair EKS runs; `maxSize`
    caps it as for `karpenter`, `amiFamily` stays `AL2023` (unused) and `nodeRepair` `true`)."""
    image_cache: Literal["none", "soci", "snapshot"] = "none"
    """How the vLLM image reaches a new node: `none` (the kubelet pulls it), `soci` (SOCI parallel pull, AL2023 only:
    nodeadm's `FastImagePull` gate, with the root volume's throughput raised to 600 MiB/s; instance types of at least
    4 vCPUs and 8 GiB) or `snapshot` (Bottlerocket only: the data volume is restored from `snapshotId`, an EBS
    snapshot holding the pulled image; docs/gpu-pools.md says how to build it)."""
    snapshot_id: SnapshotId | None = None
    """The EBS snapshot of a Bottlerocket data volume holding the vLLM image, `snap-` and 8 or 17 hexadecimal
    digits; required with `imageCache: snapshot` and refused otherwise. Default none."""
    fast_snapshot_restore: bool = False
    """With `imageCache: snapshot`: the stack turns EBS Fast Snapshot Restore on for `snapshotId` in each zone of
    its network or of `cluster.privateSubnetIds` (one `aws.ebs.FastSnapshotRestore` each; not in a default VPC) and
    the pool waits for it, so a new node's data volume is initialized at creation rather than read from S3 block by
    block. The plan counts the image as ready and prices it per zone-hour in its cost section."""
    volume_throughput: VolumeThroughput | None = None
    """Throughput of the GPU nodes' gp3 volume (AL2023's root, Bottlerocket's data volume) in MiB/s, 125-1000,
    billed above gp3's included 125 (the plan's cost section prices it); its IOPS are raised to a quarter MiB/s
    each where it needs more than the included 3,000. The image pull and the weights written and read are bounded
    by it and by the instance's EBS baseline. Default: gp3's 125, or 600 with `imageCache: soci`."""
    cold_start: Literal["default", "fast"] = "default"
    """`fast` turns on every piece of the fast start the pool's provisioner and AMI family allow
    (settings/cold_start_profile.py): Fast Snapshot Restore for a Bottlerocket `snapshotId`, SOCI's parallel pull on
    AL2023, and for the pool's servers 1 s probes and the compile cache in S3; the plan's cold-start section says
    what it chose and what it could not. `default` leaves the settings as they are."""
    warm_nodes: NodeCount = 0
    """GPU nodes kept running and empty for the pool's servers, at most `maxSize`: placeholder pods of the lowest
    priority that still holds a node (pools/warm_manifests.py) request each node's GPUs and run the vLLM image, so
    the node has pulled it; a server's pod preempts one and starts with no node to wait for, and the placeholder,
    pending again, asks for the next node. Node groups and Karpenter pools; billed as running nodes (the plan's cost
    section)."""

    def problems(self) -> list[ConfigProblem]:
        problems = super().problems()
        refused = [name for name in self.instance_types if not gpu_catalog.is_gpu_instance_type(name)]
        if refused:
            allowed = f"allowed: sizes of {', '.join(gpu_catalog.gpu_families())} (facts/gpu_catalog.py)"
            # A CPU type the catalog knows is refused for what it is; only a name no table has is unknown.
            cpu = [name for name in refused if gpu_catalog.lookup(name) is not None]
            unknown = [name for name in refused if name not in cpu]
            if cpu:
                problems.append(ConfigProblem("instanceTypes", f"{cpu!r} have no NVIDIA GPU (CPU types); {allowed}"))
            if unknown:
                problems.append(ConfigProblem("instanceTypes", f"{unknown!r} not in the GPU catalog; {allowed}"))
            return problems
        entries = [gpu_catalog.GPU_INSTANCE_TYPES[name] for name in self.instance_types]
        architectures = sorted({entry.architecture for entry in entries})
        if len(architectures) > 1:
            problems.append(
                ConfigProblem(
                    "instanceTypes",
                    f"{self.instance_types!r} mix architectures "
                    f"{architectures}; allowed: one architecture per node group",
                )
            )
        gpu_counts = sorted({entry.gpus for entry in entries})
        if len(gpu_counts) > 1:
            problems.append(
                ConfigProblem(
                    "instanceTypes",
                    f"{self.instance_types!r} mix GPU counts {gpu_counts}; allowed: one GPU count per node group",
                )
            )
        problems += self._image_cache_problems()
        problems += self._auto_mode_problems()
        if self.warm_nodes > self.max_size:
            problems.append(
                ConfigProblem(
                    "warmNodes",
                    f"{self.warm_nodes!r} is greater than maxSize {self.max_size!r}; allowed: 0 to maxSize (the warm "
                    "nodes are among the pool's nodes)",
                )
            )
        taint_keys = [taint.key for taint in self.extra_taints]
        duplicates = sorted({k for k in taint_keys if taint_keys.count(k) > 1})
        if duplicates:
            problems.append(ConfigProblem("extraTaints", f"duplicate taint keys {duplicates}; allowed: each key once"))
        return problems

    def _image_cache_problems(self) -> list[ConfigProblem]:
        problems = []
        families = image_cache.FAMILIES[self.image_cache]
        if not image_cache.supports(self.image_cache, self.ami_family):
            problems.append(
                ConfigProblem(
                    "imageCache",
                    f"{self.image_cache!r} with amiFamily {self.ami_family!r}; allowed: 'none', or "
                    f"{self.image_cache!r} with amiFamily {' or '.join(map(repr, families))}",
                )
            )
        if self.image_cache == "snapshot" and self.snapshot_id is None:
            problems.append(
                ConfigProblem(
                    "snapshotId",
                    "missing with imageCache 'snapshot'; allowed: the EBS snapshot of a Bottlerocket data volume "
                    "holding the vLLM image ('snap-' and 8 or 17 hexadecimal digits)",
                )
            )
        if self.fast_snapshot_restore and self.image_cache != "snapshot":
            problems.append(
                ConfigProblem(
                    "fastSnapshotRestore",
                    f"true with imageCache {self.image_cache!r}; allowed: false, or imageCache 'snapshot'",
                )
            )
        if self.image_cache != "snapshot" and self.snapshot_id is not None:
            problems.append(
                ConfigProblem(
                    "snapshotId",
                    f"{self.snapshot_id!r} with imageCache {self.image_cache!r}; allowed: no snapshotId, or "
                    "imageCache 'snapshot'",
                )
            )
        if self.image_cache == "soci" and (self.volume_throughput or 0) not in (0, *range(600, 1001)):
            problems.append(
                ConfigProblem(
                    "volumeThroughput",
                    f"{self.volume_throughput!r} with imageCache 'soci'; allowed: at least "
                    f"{image_cache.SOCI_ROOT_THROUGHPUT_MIBPS} MiB/s (nodeadm's fast image pull asks for it), or leave "
                    "it out",
                )
            )
        if self.image_cache == "soci":
            small = [
                entry.name
                for entry in self.instances
                if entry.vcpus < image_cache.SOCI_MIN_VCPUS or entry.memory_gib < image_cache.SOCI_MIN_MEMORY_GIB
            ]
            if small:
                problems.append(
                    ConfigProblem(
                        "imageCache",
                        f"'soci' with instance types {small!r}; allowed: instance types of at least "
                        f"{image_cache.SOCI_MIN_VCPUS} vCPUs and {image_cache.SOCI_MIN_MEMORY_GIB} GiB (nodeadm "
                        "ignores FastImagePull below 4 vCPUs and 7 GiB), or imageCache 'none'",
                    )
                )
        return problems

    def _auto_mode_problems(self) -> list[ConfigProblem]:
        if self.provisioner != auto_mode.PROVISIONER:
            return []
        problems = []
        unsupported = [name for name in self.instance_types if not auto_mode.supports(name)]
        if unsupported:
            families = ", ".join(sorted(auto_mode.GPU_FAMILIES))
            problems.append(
                ConfigProblem(
                    "instanceTypes",
                    f"{unsupported!r} with provisioner 'autoMode', which does not launch them; allowed: sizes of "
                    f"{families} (EKS Auto Mode's accelerated families), or provisioner 'nodeGroup'",
                )
            )
        if self.ami_family != "AL2023":
            problems.append(
                ConfigProblem(
                    "amiFamily",
                    f"{self.ami_family!r} with provisioner 'autoMode'; allowed: 'AL2023' or unset (EKS Auto Mode "
                    "chooses its nodes' AMI itself), or provisioner 'nodeGroup'",
                )
            )
        high = auto_mode.EPHEMERAL_STORAGE_GIB[1]
        if self.disk_size > high:
            problems.append(
                ConfigProblem(
                    "diskSize",
                    f"{self.disk_size!r} with provisioner 'autoMode'; allowed: at most {high} GiB (the NodeClass's "
                    "ephemeral storage)",
                )
            )
        if not self.node_repair:
            problems.append(
                ConfigProblem(
                    "nodeRepair",
                    "false with provisioner 'autoMode', whose nodes EKS always monitors and repairs; allowed: true "
                    "or unset, or provisioner 'nodeGroup'",
                )
            )
        if self.image_cache != "none":
            problems.append(
                ConfigProblem(
                    "imageCache",
                    f"{self.image_cache!r} with provisioner 'autoMode', whose nodes' AMI and volumes EKS manages; "
                    "allowed: 'none' or unset, or provisioner 'nodeGroup' or 'karpenter'",
                )
            )
        if self.volume_throughput is not None:
            problems.append(
                ConfigProblem(
                    "volumeThroughput",
                    f"{self.volume_throughput!r} with provisioner 'autoMode', whose nodes' volumes EKS manages; "
                    "allowed: unset, or provisioner 'nodeGroup' or 'karpenter'",
                )
            )
        if self.warm_nodes:
            problems.append(
                ConfigProblem(
                    "warmNodes",
                    f"{self.warm_nodes!r} with provisioner 'autoMode': warm nodes are not supported there (the "
                    "placeholders are registered for node groups and Karpenter pools only); allowed: 0 or unset, or "
                    "provisioner 'nodeGroup' or 'karpenter'",
                )
            )
        return problems

    @property
    def volume_throughput_mibps(self) -> int | None:
        """The throughput the GPU nodes' volume provisions: `volumeThroughput`, else 600 with SOCI, else None
        (gp3's included 125 MiB/s)."""
        if self.volume_throughput is not None:
            return self.volume_throughput
        return image_cache.SOCI_ROOT_THROUGHPUT_MIBPS if self.image_cache == "soci" else None

    @property
    def auto_mode(self) -> bool:
        """Whether EKS Auto Mode launches the pool's nodes (`provisioner: autoMode`)."""
        return self.provisioner == auto_mode.PROVISIONER

    @property
    def node_group(self) -> bool:
        """Whether an EKS managed node group holds the pool's nodes (the Cluster Autoscaler's to scale)."""
        return self.provisioner == "nodeGroup"

    @property
    def karpenter(self) -> bool:
        """Whether Karpenter launches the pool's nodes (`provisioner: karpenter`)."""
        return self.provisioner == "karpenter"

    @property
    def instances(self) -> list[gpu_catalog.InstanceType]:
        return [gpu_catalog.GPU_INSTANCE_TYPES[name] for name in self.instance_types]

    @property
    def architecture(self) -> str:
        return self.instances[0].architecture

    @property
    def gpus_per_instance(self) -> int:
        return self.instances[0].gpus

    @property
    def gpu_product(self) -> str | None:
        """The GPU product all instance types share, or None when they differ."""
        products = {entry.gpu_product for entry in self.instances}
        return products.pop() if len(products) == 1 else None

    @property
    def smallest_instance(self) -> gpu_catalog.InstanceType:
        """The instance type with the least CPU and memory: workloads are sized to fit it."""
        return gpu_catalog.smallest(self.instances)
