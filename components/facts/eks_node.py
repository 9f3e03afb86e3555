"""What an EKS node offers to pods, as plain numbers: kube-reserved, eviction thresholds, capacity types.

The EKS AMIs compute kube-reserved and set the hard eviction thresholds in their bootstrap
(awslabs/amazon-eks-ami: bootstrap.sh for AL2, nodeadm for AL2023). placement/pools.py turns these
numbers into a node's `status.allocatable`; components/vllm/server.py sizes vLLM's memory from them.
Standard library only.
"""

from __future__ import annotations

import math
from fractions import Fraction

# kube-reserved CPU: (cores in the band, reserved 1/10000 of a core per core) (amazon-eks-ami bootstrap.sh).
_CPU_RESERVE_BANDS = ((1, 600), (1, 100), (2, 50), (math.inf, 25))
_MEMORY_RESERVE_PER_POD_MI = 11
_MEMORY_RESERVE_BASE_MI = 255
MEMORY_EVICTION_MIB = 100
"""evictionHard memory.available<100Mi."""
EPHEMERAL_RESERVED_BYTES = 2**30
"""kube-reserved ephemeral-storage 1Gi."""
NODEFS_EVICTION = Fraction(1, 10)
"""evictionHard nodefs.available<10%."""

NODE_ROLE_POLICIES = ("AmazonEKSWorkerNodePolicy", "AmazonEC2ContainerRegistryPullOnly", "AmazonEKS_CNI_Policy")
"""The AWS-managed policies a node role needs to join the cluster, pull images and run the VPC CNI (EKS user guide,
"Amazon EKS node IAM role"). Their ARNs name the partition (`arn:aws-cn:iam::aws:policy/...` in China,
`arn:aws-us-gov:` in GovCloud; IAM User Guide, "Identify AWS resources with Amazon Resource Names (ARNs)",
"ARN format"), so they are built from the partition the provider
reports."""

EKS_DEFAULT_DISK_GIB = 20
"""EKS's root volume when a node group sets no disk size (EKS API CreateNodegroup, `diskSize`)."""

CAPACITY_TYPES = ("ON_DEMAND", "SPOT", "CAPACITY_BLOCK")
"""The EKS API's CapacityTypes enum (botocore data/eks/2017-11-01/service-2.json); tests hold it to the model."""
DEFAULT_CAPACITY_TYPE = "ON_DEMAND"
"""What EKS uses when a node group sets no capacity type (EKS API CreateNodegroup, `capacityType`)."""


def kube_reserved_cpu_millicores(vcpus: int) -> int:
    """CPU the EKS AMI reserves for the kubelet and runtime, in millicores.

    6% of the first core, 1% of the second, 0.5% of cores 3-4 and 0.25% of each core above 4, in whole
    millicores per band, as the AMI computes it.
    """
    reserved = 0
    start: float = 0  # the last band is unbounded: math.inf cores
    for cores, per_ten_thousand in _CPU_RESERVE_BANDS:
        in_band = max(0, min(vcpus, start + cores) - start)
        reserved += int(in_band * 1000 * per_ten_thousand) // 10000
        start += cores
    return reserved


def kube_reserved_memory_mebibytes(max_pods: int) -> int:
    """Memory the EKS AMI reserves for the kubelet and runtime: 11Mi per max pod + 255Mi."""
    return _MEMORY_RESERVE_PER_POD_MI * max_pods + _MEMORY_RESERVE_BASE_MI


def allocatable_cpu_millicores(vcpus: int) -> int:
    """The node's allocatable CPU: its vCPUs less kube-reserved, in millicores."""
    return vcpus * 1000 - kube_reserved_cpu_millicores(vcpus)


def allocatable_memory_mebibytes(memory_gib: float, max_pods: int) -> int:
    """The node's allocatable memory in MiB: the instance's memory less kube-reserved and the hard eviction
    threshold, never below 0."""
    memory_mi = math.floor(Fraction(str(memory_gib)) * 1024) - kube_reserved_memory_mebibytes(max_pods)
    return max(memory_mi - MEMORY_EVICTION_MIB, 0)


def allocatable_ephemeral_bytes(disk_size_gib: int = EKS_DEFAULT_DISK_GIB) -> int:
    """The node's allocatable ephemeral storage in bytes: the root volume less the 10% nodefs eviction
    threshold and 1Gi kube-reserved, never below 0."""
    disk = disk_size_gib * 2**30
    return max(math.floor(disk * (1 - NODEFS_EVICTION)) - EPHEMERAL_RESERVED_BYTES, 0)


HOST_DEVICE_PLUGIN_AMI_FAMILY = "Bottlerocket"
"""The AMI family whose NVIDIA AMIs run the NVIDIA device plugin on the host, so the node advertises
`nvidia.com/gpu` without a DaemonSet (Bottlerocket docs, "settings.kubelet-device-plugins": the NVIDIA
variants configure the host's nvidia-k8s-device-plugin)."""


def ami_family_runs_device_plugin(ami_family: str) -> bool:
    """Whether GPU nodes of `ami_family` (`AL2023`, `Bottlerocket`) run the device plugin on the host."""
    return ami_family == HOST_DEVICE_PLUGIN_AMI_FAMILY


def ami_type_runs_device_plugin(ami_type: str) -> bool:
    """Whether nodes of the EKS AMI type `ami_type` (EKS API AMITypes, e.g. `BOTTLEROCKET_x86_64_NVIDIA`) run
    the device plugin on the host: Bottlerocket's NVIDIA AMI types."""
    return ami_type.startswith(HOST_DEVICE_PLUGIN_AMI_FAMILY.upper() + "_") and ami_type.endswith("_NVIDIA")
