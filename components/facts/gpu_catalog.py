"""A catalogue of the EC2 instance types this stack schedules onto: NVIDIA GPU types and common CPU types.

The stack and the pure-Python scheduler model both read it, so it depends on the standard library
only. Each entry records vCPUs, memory, architecture, the EKS max-pods figure and, for GPU types, the
number, model and memory of the GPUs and the `nvidia.com/gpu.product` label value.

Sources of the facts (the table itself is written here, not copied):

- vCPUs, memory, GPU count, GPU model and GPU memory: the AWS EC2 accelerated-computing instance
  type pages and the "Amazon EC2 instance types" specifications.
- max pods: the eni-max-pods table shipped with the Amazon EKS AMIs (amazon-eks-ami
  `templates/shared/runtime/eni-max-pods.txt`, also used by `nodeadm`), i.e. the VPC CNI without
  prefix delegation: ENIs * (IPv4 addresses per ENI - 1) + 2.
- network baseline: the AWS docs' accelerated computing network specifications, as Karpenter v1.14.1
  generates them (`NETWORK_BASELINE_MBPS`, facts/gpu_network.py).
- g7, g7e, p3dn, p6-b200 and p6-b300 (read 2026-12-04): vCPUs, memory, GPU count and GPU memory (MiB per GPU, here
  in whole GiB) from EC2's DescribeInstanceTypes as Karpenter publishes it for each type
  (aws/karpenter-provider-aws website/content/en/docs/reference/instance-types.md at 1d927085, the docs of v1.14.1:
  `karpenter.k8s.aws/instance-cpu`, `-memory`, `-gpu-count`, `-gpu-memory`, `-gpu-name`); max pods from the ENIs
  and addresses of each type in awslabs/amazon-eks-ami nodeadm/internal/kubelet/instance-info.jsonl at v20260714,
  by nodeadm's formula (ENIs x (addresses - 1) + 2, `CalcMaxPods` in eni_max_pods.go), which is also Karpenter's
  `pods` for each.
- the GPU's PCI device id: the line of NVIDIA's supported-GPU list whose name is the GPU's NVML name, as
  awslabs/amazon-eks-ami ships it (templates/al2023/runtime/gpu/nvidia-open-supported-devices-595.txt, generated
  from NVIDIA-Linux-x86_64-595.71.05.run); the RTX PRO 4500 Blackwell Server Edition's is also g7's in
  awslabs/amazon-eks-ami#2768. The compute capability and architecture: NVIDIA's CUDA GPUs table
  (developer.nvidia.com/cuda-gpus, read 2026-12-04). What the driver of each AMI release does with them:
  facts/nvidia_driver.py.
- gpu_product: NVIDIA GPU feature discovery's product label, the NVML device name with spaces
  replaced by dashes (for example "Tesla T4" becomes "Tesla-T4").

Left out on purpose:

- g6f and gr6f: they carry a fraction of an L4, which an integer GPU count cannot describe, and the
  device name they report is not established here.
- p6e-gb200 and p6e-gb300: Grace-hosted NVL72 racks (UltraServers), not launched as a node group's or NodePool's
  single instances; not recorded.
- g4ad and other non-NVIDIA accelerators: the stack runs NVIDIA software only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, NamedTuple, get_args

from .gpu_network import NETWORK_BASELINE_MBPS

Architecture = Literal["x86_64", "arm64"]  # EKS/AMI spelling; kubernetes.io/arch is "amd64"/"arm64"

ARCHITECTURES: tuple[Architecture, ...] = get_args(Architecture)
_KUBERNETES_ARCH: dict[str, str] = {"x86_64": "amd64", "arm64": "arm64"}

# family "." size, e.g. "g5.xlarge", "c7i-flex.large", "m7i.metal-24xl", "u-12tb1.metal".
_NAME_RE = re.compile(
    r"(?P<family>[a-z][a-z0-9]*(?:-[a-z0-9]+)*)"
    r"\.(?P<size>nano|micro|small|medium|large|[0-9]*xlarge|metal(?:-[0-9]+xl)?)"
)
# Graviton families put a "g" right after the generation digit (m7g, c6gn, t4g, x2gd, im4gn, g5g).
_GRAVITON_RE = re.compile(r"[a-z]+[0-9]+g")
# First-generation Graviton predates the "g" naming.
_ARM64_FAMILIES_WITHOUT_G = frozenset({"a1"})
# Grace-Blackwell accelerators (e.g. p6e-gb200) are hosted by an Arm Grace CPU.
_GRACE_RE = re.compile(r"-gb[0-9]")


@dataclass(frozen=True)
class InstanceType:
    """One EC2 instance type as the node groups and the scheduler model see it."""

    name: str  # "g5.xlarge"
    architecture: Architecture
    vcpus: int
    memory_gib: float  # instance memory in GiB
    max_pods: int  # EKS max pods with the VPC CNI, no prefix delegation (eni-max-pods)
    gpus: int = 0  # NVIDIA GPUs per instance; 0 for CPU-only types
    gpu_model: str | None = None  # "NVIDIA A10G"
    gpu_memory_gib: int | None = None  # memory per GPU, GiB
    gpu_product: str | None = None  # the value GPU feature discovery puts in nvidia.com/gpu.product
    # Memory per GPU as CUDA and NVML report it (nvidia-smi's total), GiB: less than the nominal figure, and what
    # vLLM's `gpu_memory_utilization` multiplies (vllm/v1/worker/utils.py `request_memory` at v0.32.0 takes
    # `total_memory` from the device's memory info). None where no source gives it.
    gpu_memory_visible_gib: float | None = None
    gpu_device_id: int | None = None  # the GPU's PCI device id (vendor 10de), 0x2237 for the A10G; None when unknown
    gpu_compute_capability: tuple[int, int] | None = None  # CUDA compute capability, (8, 6) for the A10G
    gpu_architecture: str | None = None  # NVIDIA's architecture name: "Ampere", "Blackwell", ...
    # Baseline network bandwidth, Gbps (NETWORK_BASELINE_MBPS); None for the CPU types, not recorded.
    network_baseline_gbps: float | None = None

    def __post_init__(self) -> None:
        if _NAME_RE.fullmatch(self.name) is None:
            raise ValueError(f"malformed instance type name {self.name!r}")
        if self.architecture not in ARCHITECTURES:
            raise ValueError(f"{self.name}: architecture {self.architecture!r} is not one of {ARCHITECTURES}")
        if self.vcpus <= 0 or self.memory_gib <= 0 or self.max_pods <= 0:
            raise ValueError(f"{self.name}: vcpus, memory_gib and max_pods must be positive")
        if self.gpus < 0:
            raise ValueError(f"{self.name}: gpus must not be negative")
        gpu_fields = (self.gpu_model, self.gpu_memory_gib, self.gpu_product)
        if self.gpus and any(value is None for value in gpu_fields):
            raise ValueError(f"{self.name}: a GPU type needs gpu_model, gpu_memory_gib and gpu_product")
        if not self.gpus and any(value is not None for value in gpu_fields):
            raise ValueError(f"{self.name}: a CPU-only type cannot have GPU fields")
        if self.gpu_memory_gib is not None and self.gpu_memory_gib <= 0:
            raise ValueError(f"{self.name}: gpu_memory_gib must be positive")
        object.__setattr__(self, "memory_gib", float(self.memory_gib))

    @property
    def family(self) -> str:
        """The instance family, e.g. "g5" for "g5.xlarge"."""
        return self.name.split(".", 1)[0]

    @property
    def kubernetes_arch(self) -> str:
        """The architecture in `kubernetes.io/arch` spelling: "amd64" or "arm64"."""
        return _KUBERNETES_ARCH[self.architecture]

    @property
    def is_gpu(self) -> bool:
        """Whether the type has NVIDIA GPUs."""
        return self.gpus > 0


# The Cluster Autoscaler's AWS provider treats nodes labelled `k8s.amazonaws.com/accelerator` as GPU nodes
# and waits for their GPUs to be advertised instead of adding more nodes; its GPU type names spell T4 and
# A100 with "tesla" (kubernetes/autoscaler cluster-autoscaler/cloudprovider/aws/aws_cloud_provider.go,
# `GPULabel` and `availableGPUTypes`, tag cluster-autoscaler-1.36.1).
CLUSTER_AUTOSCALER_GPU_LABEL = "k8s.amazonaws.com/accelerator"
# The key prefix of the Auto Scaling group tags that describe a node group's nodes to the autoscaler while it
# has none: `<prefix>/label/<key>`, `<prefix>/taint/<key>`, `<prefix>/resources/<name>`
# (cluster-autoscaler/cloudprovider/aws/README.md, "Auto-Discovery Setup", at the same tag).
CLUSTER_AUTOSCALER_TEMPLATE_TAG = "k8s.io/cluster-autoscaler/node-template"
_AUTOSCALER_GPU_TYPE_SPELLING = {"NVIDIA T4": "nvidia-tesla-t4", "NVIDIA A100": "nvidia-tesla-a100"}


def accelerator_label_value(instances: Iterable[InstanceType]) -> str:
    """The `k8s.amazonaws.com/accelerator` value for a node group's instance types: their GPU model
    (`nvidia-a10g`), or `nvidia` when they mix models (the label's presence is what the autoscaler reads)."""
    models = {instance.gpu_model for instance in instances}
    model = models.pop() if len(models) == 1 else None
    if model is None:
        return "nvidia"
    return _AUTOSCALER_GPU_TYPE_SPELLING.get(model, model.lower().replace(" ", "-"))


class _Gpu(NamedTuple):
    model: str
    memory_gib: int
    product: str
    visible_mib: int | None
    """nvidia-smi's total memory (MiB), which CUDA reports too; None where no source gives it."""
    device_id: int | None
    """The PCI device id; None where no list names the GPU (the T4G)."""
    compute_capability: tuple[int, int]
    architecture: str


# Visible totals, read 2026-12-02: nvidia-smi totals per GPU type in modal-labs/modal-client#2797 (2025-01-23:
# T4 15360 MiB, A10 23028, L4 23034, L40S 46068, A100 40GB 40960, A100 80GB 81920, H100 81559), and on AWS's
# A10G (g5) in NVIDIA/DCGM#232 (23028 MiB); the B200's 183359 MiB in the nvidia-smi tables of several public
# repositories (read 2026-12-04, drivers 570 and 595 alike). None found for the T4G, the H200, the V100, the B300 or
# the RTX PRO GPUs. The product label of the newer GPUs is their NVML name with dashes (the names in NVIDIA's list;
# aws/sagemaker-hyperpod-cli#390 shows `NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition` on a g7e node).
_T4 = _Gpu("NVIDIA T4", 16, "Tesla-T4", 15360, 0x1EB8, (7, 5), "Turing")
_T4G = _Gpu("NVIDIA T4G", 16, "NVIDIA-T4G", None, None, (7, 5), "Turing")
_A10G = _Gpu("NVIDIA A10G", 24, "NVIDIA-A10G", 23028, 0x2237, (8, 6), "Ampere")
_L4 = _Gpu("NVIDIA L4", 24, "NVIDIA-L4", 23034, 0x27B8, (8, 9), "Ada Lovelace")
_L40S = _Gpu("NVIDIA L40S", 48, "NVIDIA-L40S", 46068, 0x26B9, (8, 9), "Ada Lovelace")
_A100_40 = _Gpu("NVIDIA A100", 40, "NVIDIA-A100-SXM4-40GB", 40960, 0x20B0, (8, 0), "Ampere")
_A100_80 = _Gpu("NVIDIA A100", 80, "NVIDIA-A100-SXM4-80GB", 81920, 0x20B2, (8, 0), "Ampere")
_H100 = _Gpu("NVIDIA H100", 80, "NVIDIA-H100-80GB-HBM3", 81559, 0x2330, (9, 0), "Hopper")
_H200 = _Gpu("NVIDIA H200", 141, "NVIDIA-H200", None, 0x2335, (9, 0), "Hopper")
_V100 = _Gpu("NVIDIA V100", 32, "Tesla-V100-SXM2-32GB", None, 0x1DB5, (7, 0), "Volta")
_B200 = _Gpu("NVIDIA B200", 179, "NVIDIA-B200", 183359, 0x2901, (10, 0), "Blackwell")
_B300 = _Gpu("NVIDIA B300", 268, "NVIDIA-B300-SXM6-AC", None, 0x3182, (10, 3), "Blackwell")
_RTX_PRO_6000 = _Gpu(
    "NVIDIA RTX PRO 6000", 96, "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition", None, 0x2BB5, (12, 0), "Blackwell"
)
_RTX_PRO_4500 = _Gpu(
    "NVIDIA RTX PRO 4500", 32, "NVIDIA-RTX-PRO-4500-Blackwell-Server-Edition", None, 0x2C3A, (12, 0), "Blackwell"
)


def _gpu_family(
    family: str,
    gpu: _Gpu,
    sizes: Iterable[tuple[str, int, float, int, int]],
    architecture: Architecture = "x86_64",
) -> list[InstanceType]:
    """GPU types of one family from (size, vcpus, memory GiB, GPUs, max pods) rows."""
    return [
        InstanceType(
            name=f"{family}.{size}",
            architecture=architecture,
            vcpus=vcpus,
            memory_gib=memory,
            max_pods=max_pods,
            gpus=gpus,
            gpu_model=gpu.model,
            gpu_memory_gib=gpu.memory_gib,
            gpu_memory_visible_gib=gpu.visible_mib / 1024 if gpu.visible_mib else None,
            gpu_product=gpu.product,
            gpu_device_id=gpu.device_id,
            gpu_compute_capability=gpu.compute_capability,
            gpu_architecture=gpu.architecture,
            network_baseline_gbps=NETWORK_BASELINE_MBPS[family][size] / 1000,
        )
        for size, vcpus, memory, gpus, max_pods in sizes
    ]


def _cpu_family(
    family: str,
    sizes: Iterable[tuple[str, int, float, int]],
    architecture: Architecture = "x86_64",
) -> list[InstanceType]:
    """CPU-only types of one family from (size, vcpus, memory GiB, max pods) rows."""
    return [
        InstanceType(
            name=f"{family}.{size}",
            architecture=architecture,
            vcpus=vcpus,
            memory_gib=memory,
            max_pods=max_pods,
        )
        for size, vcpus, memory, max_pods in sizes
    ]


def _read_only(entries: Iterable[InstanceType]) -> Mapping[str, InstanceType]:
    table: dict[str, InstanceType] = {}
    for entry in entries:
        if entry.name in table:
            raise ValueError(f"duplicate instance type {entry.name}")
        table[entry.name] = entry
    return MappingProxyType(table)


# Rows: (size, vCPUs, memory GiB, GPUs, max pods).
GPU_INSTANCE_TYPES: Mapping[str, InstanceType] = _read_only(
    [
        *_gpu_family(
            "g4dn",
            _T4,
            [
                ("xlarge", 4, 16, 1, 29),
                ("2xlarge", 8, 32, 1, 29),
                ("4xlarge", 16, 64, 1, 29),
                ("8xlarge", 32, 128, 1, 58),
                ("12xlarge", 48, 192, 4, 234),
                ("16xlarge", 64, 256, 1, 58),
                ("metal", 96, 384, 8, 737),
            ],
        ),
        *_gpu_family(
            "g5",
            _A10G,
            [
                ("xlarge", 4, 16, 1, 58),
                ("2xlarge", 8, 32, 1, 58),
                ("4xlarge", 16, 64, 1, 234),
                ("8xlarge", 32, 128, 1, 234),
                ("12xlarge", 48, 192, 4, 737),
                ("16xlarge", 64, 256, 1, 234),
                ("24xlarge", 96, 384, 4, 737),
                ("48xlarge", 192, 768, 8, 345),
            ],
        ),
        *_gpu_family(
            "g5g",
            _T4G,
            [
                ("xlarge", 4, 8, 1, 58),
                ("2xlarge", 8, 16, 1, 58),
                ("4xlarge", 16, 32, 1, 234),
                ("8xlarge", 32, 64, 1, 234),
                ("16xlarge", 64, 128, 2, 737),
                ("metal", 64, 128, 2, 737),
            ],
            architecture="arm64",
        ),
        *_gpu_family(
            "g6",
            _L4,
            [
                ("xlarge", 4, 16, 1, 58),
                ("2xlarge", 8, 32, 1, 58),
                ("4xlarge", 16, 64, 1, 234),
                ("8xlarge", 32, 128, 1, 234),
                ("12xlarge", 48, 192, 4, 234),
                ("16xlarge", 64, 256, 1, 737),
                ("24xlarge", 96, 384, 4, 737),
                ("48xlarge", 192, 768, 8, 737),
            ],
        ),
        *_gpu_family(
            "g6e",
            _L40S,
            [
                ("xlarge", 4, 32, 1, 58),
                ("2xlarge", 8, 64, 1, 58),
                ("4xlarge", 16, 128, 1, 234),
                ("8xlarge", 32, 256, 1, 234),
                ("12xlarge", 48, 384, 4, 292),
                ("16xlarge", 64, 512, 1, 737),
                ("24xlarge", 96, 768, 4, 492),
                ("48xlarge", 192, 1536, 8, 492),
            ],
        ),
        *_gpu_family(
            "gr6",
            _L4,
            [
                ("4xlarge", 16, 128, 1, 234),
                ("8xlarge", 32, 256, 1, 234),
            ],
        ),
        *_gpu_family(
            "g7",
            _RTX_PRO_4500,
            [
                ("2xlarge", 8, 32, 1, 254),
                ("4xlarge", 16, 64, 1, 506),
                ("8xlarge", 32, 128, 1, 632),
                ("12xlarge", 48, 192, 2, 758),
                ("24xlarge", 96, 384, 4, 1514),
                ("48xlarge", 192, 768, 8, 758),
            ],
        ),
        *_gpu_family(
            "g7e",
            _RTX_PRO_6000,
            [
                ("2xlarge", 8, 64, 1, 254),
                ("4xlarge", 16, 128, 1, 506),
                ("8xlarge", 32, 256, 1, 506),
                ("12xlarge", 48, 512, 2, 632),
                ("24xlarge", 96, 1024, 4, 632),
                ("48xlarge", 192, 2048, 8, 632),
            ],
        ),
        *_gpu_family("p3dn", _V100, [("24xlarge", 96, 768, 8, 737)]),
        *_gpu_family("p4d", _A100_40, [("24xlarge", 96, 1152, 8, 737)]),
        *_gpu_family("p4de", _A100_80, [("24xlarge", 96, 1152, 8, 737)]),
        # The p5 family has several network cards; eni-max-pods counts the default card (index 0) only,
        # hence max pods below what its total ENI count would give.
        *_gpu_family(
            "p5",
            _H100,
            [
                ("4xlarge", 16, 256, 1, 118),
                ("48xlarge", 192, 2048, 8, 100),
            ],
        ),
        *_gpu_family("p5e", _H200, [("48xlarge", 192, 2048, 8, 100)]),
        *_gpu_family("p5en", _H200, [("48xlarge", 192, 2048, 8, 198)]),
        # p6-b200 and p6-b300 count the default network card only, as p5 does.
        *_gpu_family("p6-b200", _B200, [("48xlarge", 192, 2048, 8, 198)]),
        *_gpu_family("p6-b300", _B300, [("48xlarge", 192, 4096, 8, 198)]),
    ]
)

_GENERAL_PURPOSE_SIZES = [  # m-series, 4 GiB per vCPU
    ("large", 2, 8, 29),
    ("xlarge", 4, 16, 58),
    ("2xlarge", 8, 32, 58),
    ("4xlarge", 16, 64, 234),
]
_BURSTABLE_SIZES = [  # t3, t3a, t4g: own ENI limits, e.g. t3.large has 3 ENIs of 12 addresses (35 pods)
    ("medium", 2, 4, 17),
    ("large", 2, 8, 35),
    ("xlarge", 4, 16, 58),
    ("2xlarge", 8, 32, 58),
]
_COMPUTE_SIZES = [  # c-series, 2 GiB per vCPU
    ("large", 2, 4, 29),
    ("xlarge", 4, 8, 58),
    ("2xlarge", 8, 16, 58),
    ("4xlarge", 16, 32, 234),
]
_MEMORY_SIZES = [  # r-series, 8 GiB per vCPU
    ("large", 2, 16, 29),
    ("xlarge", 4, 32, 58),
    ("2xlarge", 8, 64, 58),
]

# Rows: (size, vCPUs, memory GiB, max pods).
CPU_INSTANCE_TYPES: Mapping[str, InstanceType] = _read_only(
    [
        *_cpu_family("m5", _GENERAL_PURPOSE_SIZES),
        *_cpu_family("m6i", _GENERAL_PURPOSE_SIZES),
        *_cpu_family("m6a", _GENERAL_PURPOSE_SIZES),
        *_cpu_family("m7i", _GENERAL_PURPOSE_SIZES),
        *_cpu_family("m7a", _GENERAL_PURPOSE_SIZES),
        *_cpu_family("m6g", _GENERAL_PURPOSE_SIZES, architecture="arm64"),
        *_cpu_family("m7g", _GENERAL_PURPOSE_SIZES, architecture="arm64"),
        *_cpu_family("t3", _BURSTABLE_SIZES),
        *_cpu_family("t3a", _BURSTABLE_SIZES),
        *_cpu_family("t4g", _BURSTABLE_SIZES, architecture="arm64"),
        *_cpu_family("c5", _COMPUTE_SIZES),
        *_cpu_family("c6i", _COMPUTE_SIZES),
        *_cpu_family("c7g", _COMPUTE_SIZES, architecture="arm64"),
        *_cpu_family("r6i", _MEMORY_SIZES),
    ]
)

_overlap = GPU_INSTANCE_TYPES.keys() & CPU_INSTANCE_TYPES.keys()
if _overlap:
    raise ValueError(f"instance types in both tables: {sorted(_overlap)}")
del _overlap


def lookup(name: str) -> InstanceType | None:
    """The catalogue entry for `name` from either table, or None when it is not catalogued."""
    return GPU_INSTANCE_TYPES.get(name) or CPU_INSTANCE_TYPES.get(name)


def smallest(entries: Iterable[InstanceType]) -> InstanceType:
    """The entry with the fewest vCPUs, then the least memory: what a node group may start, and what
    workloads must fit."""
    return min(entries, key=lambda entry: (entry.vcpus, entry.memory_gib))


def gpu_instance_type(name: str) -> InstanceType | None:
    """The GPU catalogue entry for `name`, or None when it is not a catalogued GPU type."""
    return GPU_INSTANCE_TYPES.get(name)


def is_gpu_instance_type(name: str) -> bool:
    """Whether `name` is a catalogued NVIDIA GPU type (uncatalogued names are not)."""
    return name in GPU_INSTANCE_TYPES


def architecture_of(name: str) -> Architecture | None:
    """The CPU architecture of `name`: from the tables, else inferred from EC2 family naming.

    Uncatalogued names are arm64 when their family is a Graviton one (a "g" right after the generation
    digit, as in m8g or c6gn; a1) or a Grace-hosted one (p6e-gb200), otherwise x86_64. Names that are
    not of the form family.size give None.
    """
    entry = lookup(name)
    if entry is not None:
        return entry.architecture
    match = _NAME_RE.fullmatch(name) if isinstance(name, str) else None
    if match is None or not any(char.isdigit() for char in match["family"]):
        return None
    family = match["family"]
    if _GRAVITON_RE.match(family) or family in _ARM64_FAMILIES_WITHOUT_G or _GRACE_RE.search(family):
        return "arm64"
    return "x86_64"


def gpu_families() -> list[str]:
    """The GPU families in the catalogue, sorted."""
    return sorted({entry.family for entry in GPU_INSTANCE_TYPES.values()})
