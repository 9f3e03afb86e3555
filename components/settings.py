"""Stack settings: the typed, validated form of the stack config.

Every key of the config namespace is described here once, with its default. `parse_settings`
checks the whole config before any resource exists and raises `ConfigError` listing every
problem, each naming the key, the bad value and what is allowed. This module does not import
Pulumi, so the offline tools and the tests use it directly.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import re
from collections.abc import Collection, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator
from pydantic.alias_generators import to_camel

from components import vllm_args
from facts import eks_model, gpu_catalog, versions
from facts.contract import (
    KUBERNETES_TAINT_EFFECT_OF_EKS,
    KUBERNETES_TAINT_EFFECTS,
    NVIDIA_GPU_PRESENT_LABEL,
    NVIDIA_GPU_PRODUCT_LABEL,
    REPELLING_EFFECTS,
    PlacementContract,
    Taint,
    kubelet_refuses_node_label,
)
from facts.identity import PROJECT
from facts.principals import iam_principal
from facts.zones import EKS_UNSUPPORTED_ZONE_IDS

# Accelerated AMIs and the vLLM image need room; below this a GPU node fills its disk pulling them.
MIN_GPU_DISK_GIB = 50
MIN_SYSTEM_DISK_GIB = 20
# Node volumes are gp3 (components/node_group.py).
MAX_GP3_DISK_GIB = eks_model.MAX_GP3_VOLUME_GIB
DEFAULT_LOG_TYPES = ("api", "audit", "authenticator")
# Flags the vLLM component sets itself from settings; `extraArgs` may not set them again.
VLLM_MANAGED_FLAGS = (
    "--model",
    "--served-model-name",
    "--tensor-parallel-size",
    "--max-model-len",
    "--gpu-memory-utilization",
    "--port",
    "--shutdown-timeout",
)
# Flags that carry a secret: as container args they would be plain text in the pod spec and the state.
VLLM_SECRET_FLAGS = {"--api-key": "vllmApiKey"}

_QUALIFIED_NAME = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$")
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_INSTANCE_TYPE = re.compile(r"^[a-z][a-z0-9-]*\.[a-z0-9-]+$")
_KUBERNETES_VERSION = re.compile(r"^1\.\d{1,2}$")
_QUANTITY = re.compile(r"^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|k|M|G|T|P)?$")
_SEMVER_TAG = re.compile(r"^v\d+\.\d+\.\d+$")
_DURATION = re.compile(r"^(\d+h)?(\d+m)?(\d+s)?$")
_ZONE_NAME = re.compile(r"^[a-z]{2}(-[a-z]+)+-\d[a-z]$")
_ZONE_ID = re.compile(r"^[a-z]{3,5}\d-az\d{1,2}$")
# A VPC of /16 (AWS's largest) to /20: a zone's private subnet is an eighth of it, /23 at the smallest.
MIN_VPC_PREFIX = 16
MAX_VPC_PREFIX = 20
MAX_AZ_COUNT = 6


class ConfigProblem(ValueError):
    """One bad setting: the key (dotted path inside the project namespace) and what is wrong.

    A key of another namespace (a misspelt project name) is given whole, with `namespace=None`.
    """

    def __init__(self, key: str, message: str, namespace: str | None = PROJECT):
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message
        self.namespace = namespace

    def __str__(self) -> str:
        key = f"{self.namespace}:{self.key}" if self.namespace else self.key
        return f"{key}: {self.message}"


class ConfigError(ValueError):
    """The stack config is invalid; `problems` lists every bad setting at once."""

    def __init__(self, problems: list[ConfigProblem]):
        self.problems = problems
        lines = "\n".join(f"  - {problem}" for problem in problems)
        super().__init__(f"invalid stack config ({len(problems)} problem(s)):\n{lines}")


def _bad(value: Any, allowed: str, reason: str = "invalid value") -> ValueError:
    return ValueError(f"{reason} {value!r}; allowed: {allowed}")


def check_label_key(key: str) -> None:
    """A node label or taint key as both Kubernetes and the EKS API accept it."""
    low, high = eks_model.length_limits("labelKey")
    allowed = (
        f"{low}-{high} characters, an optional DNS-subdomain prefix and '/', then a name of letters, "
        "digits, '-', '_' or '.', starting and ending with a letter or digit"
    )
    if not isinstance(key, str) or not low <= len(key) <= high:
        raise _bad(key, allowed, "bad length of key")
    prefix, _, name = key.rpartition("/")
    if (prefix and not _DNS_SUBDOMAIN.match(prefix)) or not _QUALIFIED_NAME.match(name):
        raise _bad(key, allowed, "invalid key")


def check_label_value(value: str, shape: str = "labelValue") -> None:
    """A node label value (`labelValue`, 1-63 for EKS) or taint value (`taintValue`, 0-63)."""
    low, high = eks_model.length_limits(shape)
    allowed = f"{low}-{high} characters of letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
    if not isinstance(value, str) or not low <= len(value) <= high:
        raise _bad(value, allowed, "bad length of value" if value else "empty value")
    if value and not _QUALIFIED_NAME.match(value):
        raise _bad(value, allowed)


def check_labels(labels: dict[str, str]) -> dict[str, str]:
    """A map of node or pod labels, every key and value checked; returned unchanged."""
    for key, value in labels.items():
        check_label_key(key)
        check_label_value(value)
    return labels


def check_node_label_key(key: str) -> None:
    """A label key a node group may give its nodes: also outside the namespaces the kubelet refuses."""
    check_label_key(key)
    if kubelet_refuses_node_label(key):
        raise _bad(
            key,
            "a key outside kubernetes.io and k8s.io (for example example.com/gpu), or under node.kubernetes.io/",
            "the kubelet refuses node labels in the kubernetes.io and k8s.io "
            "namespaces, so the nodes would never join:",
        )


def check_node_labels(labels: dict[str, str]) -> dict[str, str]:
    """A map of node labels (see `check_node_label_key`); returned unchanged."""
    for key, value in labels.items():
        check_node_label_key(key)
        check_label_value(value)
    return labels


def check_kubernetes_taint_effect(effect: str, allowed_effects: tuple[str, ...] = KUBERNETES_TAINT_EFFECTS) -> None:
    """A taint effect in Kubernetes spelling, with a hint when the EKS spelling was used."""
    if effect in allowed_effects:
        return
    allowed = ", ".join(allowed_effects)
    kubernetes_spelling = KUBERNETES_TAINT_EFFECT_OF_EKS.get(effect)
    if kubernetes_spelling in allowed_effects:
        raise _bad(effect, allowed, f"EKS API spelling; write {kubernetes_spelling!r} instead of")
    if effect == "PreferNoSchedule":
        raise _bad(effect, allowed, "PreferNoSchedule does not keep pods off GPU nodes:")
    raise _bad(effect, allowed, "unknown taint effect")


# Namespaces the cluster owns: the vLLM server would relabel them restricted, and delete them on destroy.
SYSTEM_NAMESPACES = ("default", "kube-system", "kube-public", "kube-node-lease")


def check_namespace_name(value: str) -> None:
    if len(value) > 63 or not _DNS_LABEL.match(value):
        raise _bad(value, "a DNS label: 1-63 lowercase letters, digits or '-'")


class _Settings(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        strict=True,
        frozen=True,
        # The docstring under each field documents it for readers; pydantic need not parse the source for
        # them (nothing reads `Field.description`), which saves a fifth of this module's import time.
        use_attribute_docstrings=False,
    )

    def problems(self, key: str) -> list[ConfigProblem]:
        """Checks across the fields of this object; `key` is its path in the config."""
        return []


class ClusterSettings(_Settings):
    """The EKS control plane (`cluster`)."""

    name: str = "gpu-inference"
    """EKS cluster name. Default `gpu-inference`."""
    version: str = versions.DEFAULT_KUBERNETES_VERSION
    """Kubernetes minor version, for example "1.34". Default in `components/versions.py`."""
    vpc_id: str | None = None
    """VPC to run in. Default: the account's default VPC (needs `privateSubnetIds` or `publicSubnetIds` when set)."""
    private_subnet_ids: list[str] = []
    """Subnets for the nodes and the private endpoint. Default: none (the default VPC's subnets)."""
    public_subnet_ids: list[str] = []
    """Subnets for public load balancers. Default: none."""
    endpoint_public_access: bool = True
    """Whether the Kubernetes API is reachable from the internet (from `publicAccessCidrs`). Default true,
    since `pulumi up` talks to the API from wherever it runs."""
    public_access_cidrs: list[str] = ["0.0.0.0/0"]
    """IPv4 CIDRs allowed to reach the public endpoint. Default `0.0.0.0/0` (a warning says so)."""
    admin_principal_arns: list[str] = []
    """IAM role or user ARNs given cluster-admin through access entries. Default: none."""
    creator_admin: bool = True
    """Whether EKS makes the identity that creates the cluster a cluster admin (an access entry outside the
    stack). Default true. With false, `adminPrincipalArns` must list the admins, including the identity that
    runs `pulumi up`. Read only when the cluster is created; changing it later does not replace the cluster."""
    secrets_kms_key_arn: str | None = None
    """KMS key for envelope encryption of Secrets. Default: a key created with rotation on."""
    log_types: list[str] = list(DEFAULT_LOG_TYPES)
    """Control-plane log types sent to CloudWatch. Default `api`, `audit`, `authenticator`."""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not re.match(r"^[0-9A-Za-z][A-Za-z0-9\-_]{0,99}$", value):
            raise _bad(value, "1-100 letters, digits, '-' or '_', starting with a letter or digit")
        return value

    @field_validator("version")
    @classmethod
    def _version(cls, value: str) -> str:
        allowed = ", ".join(versions.SUPPORTED_KUBERNETES_VERSIONS)
        if not _KUBERNETES_VERSION.match(value):
            raise _bad(value, f'a Kubernetes minor version such as "1.34": {allowed}', "malformed version")
        if value not in versions.SUPPORTED_KUBERNETES_VERSIONS:
            raise _bad(value, allowed, "unsupported version")
        if versions.support_ended(value, versions.today()):
            end = versions.EKS_VERSION_BY_NAME[value].end_of_extended_support
            current = [
                v for v in versions.SUPPORTED_KUBERNETES_VERSIONS if not versions.support_ended(v, versions.today())
            ]
            raise _bad(value, ", ".join(current), f"EKS support ended on {end} for version")
        return value

    @field_validator("vpc_id")
    @classmethod
    def _vpc_id(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"^vpc-[0-9a-f]{8,17}$", value):
            raise _bad(value, "a VPC id such as vpc-0123456789abcdef0")
        return value

    @field_validator("private_subnet_ids", "public_subnet_ids")
    @classmethod
    def _subnets(cls, value: list[str]) -> list[str]:
        for subnet in value:
            if not re.match(r"^subnet-[0-9a-f]{8,17}$", subnet):
                raise _bad(subnet, "subnet ids such as subnet-0123456789abcdef0")
        if len(set(value)) != len(value):
            raise _bad(value, "each subnet once", "duplicate subnets in")
        return value

    @field_validator("public_access_cidrs")
    @classmethod
    def _cidrs(cls, value: list[str]) -> list[str]:
        for cidr in value:
            try:
                ipaddress.IPv4Network(cidr, strict=True)
            except ValueError:
                raise _bad(cidr, "IPv4 CIDR blocks such as 203.0.113.0/24") from None
        return value

    @field_validator("admin_principal_arns")
    @classmethod
    def _admins(cls, value: list[str]) -> list[str]:
        seen = {}
        for arn in value:
            principal = iam_principal(arn)
            if principal is None:
                raise _bad(
                    arn,
                    "IAM role or user ARNs such as arn:aws:iam::123456789012:role/admins "
                    "(EKS takes no STS session ARNs)",
                )
            if principal in seen:
                raise _bad(
                    arn,
                    "each principal once (EKS allows one access entry per principal; a role's path "
                    "does not make it another role)",
                    f"same principal as {seen[principal]!r}:",
                )
            seen[principal] = arn
        return value

    @field_validator("secrets_kms_key_arn")
    @classmethod
    def _kms(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key/[\w-]+$", value):
            raise _bad(value, "a KMS key ARN such as arn:aws:kms:us-west-2:123456789012:key/<id>")
        return value

    @field_validator("log_types")
    @classmethod
    def _log_types(cls, value: list[str]) -> list[str]:
        allowed = eks_model.log_types()
        for log_type in value:
            if log_type not in allowed:
                raise _bad(log_type, ", ".join(allowed), "unknown log type")
        if len(set(value)) != len(value):
            raise _bad(value, "each log type once", "duplicate log types in")
        return value

    def problems(self, key: str) -> list[ConfigProblem]:
        problems = []
        subnets = self.private_subnet_ids or self.public_subnet_ids
        if self.vpc_id and not subnets:
            problems.append(
                ConfigProblem(
                    f"{key}.vpcId",
                    f"{self.vpc_id!r} is set without subnets; allowed: "
                    "set privateSubnetIds (or publicSubnetIds) of that VPC too",
                )
            )
        if subnets and not self.vpc_id:
            problems.append(
                ConfigProblem(f"{key}.vpcId", "missing while subnets are set; allowed: the id of the subnets' VPC")
            )
        # EKS places control-plane network interfaces in subnets of at least two availability zones
        # (EKS user guide, "View Amazon EKS networking requirements for VPC and subnets"). Zones cannot
        # be known offline; fewer than two subnets can never meet the rule.
        control_plane_subnets = set(self.private_subnet_ids) | set(self.public_subnet_ids)
        if self.vpc_id and len(control_plane_subnets) == 1:
            subnet_key = "privateSubnetIds" if self.private_subnet_ids else "publicSubnetIds"
            problems.append(
                ConfigProblem(
                    f"{key}.{subnet_key}",
                    f"{sorted(control_plane_subnets)!r} is one subnet; "
                    "allowed: subnets in at least two availability zones (EKS needs two for "
                    "the control plane)",
                )
            )
        if self.endpoint_public_access and not self.public_access_cidrs:
            problems.append(
                ConfigProblem(
                    f"{key}.publicAccessCidrs",
                    "[] with endpointPublicAccess true; allowed: at least one CIDR, or endpointPublicAccess false",
                )
            )
        if not self.creator_admin and not self.admin_principal_arns:
            problems.append(
                ConfigProblem(
                    f"{key}.creatorAdmin",
                    "false with no adminPrincipalArns: nobody could "
                    "administer the cluster or install its workloads; allowed: true, or list "
                    "the admins (the identity running pulumi up among them) in "
                    "adminPrincipalArns",
                )
            )
        return problems

    def warnings(self) -> list[str]:
        """Settings that are valid but weaken the cluster or cost more than they need to."""
        found = []
        support = versions.support_warning(self.version, versions.today())
        if support:
            found.append(f"{PROJECT}:cluster.version {self.version!r}: {support}")
        if self.endpoint_public_access and "0.0.0.0/0" in self.public_access_cidrs:
            found.append(
                f"{PROJECT}:cluster.publicAccessCidrs includes 0.0.0.0/0: the Kubernetes API endpoint is "
                "reachable from the whole internet; restrict it to your networks"
            )
        missing_logs = [log for log in DEFAULT_LOG_TYPES if log not in self.log_types]
        if missing_logs:
            found.append(
                f"{PROJECT}:cluster.logTypes leaves out {', '.join(missing_logs)}: "
                "control-plane activity will not be auditable"
            )
        return found


class _NodeGroupSettings(_Settings):
    instance_types: list[str]
    min_size: int
    desired_size: int
    max_size: int
    disk_size: int

    @field_validator("instance_types")
    @classmethod
    def _instance_types(cls, value: list[str]) -> list[str]:
        if not value:
            raise _bad(value, "one or more EC2 instance types", "empty list")
        for name in value:
            if not _INSTANCE_TYPE.match(name):
                raise _bad(name, "EC2 instance type names such as g5.xlarge", "malformed instance type")
        if len(set(value)) != len(value):
            raise _bad(value, "each instance type once", "duplicates in")
        return value

    @field_validator("min_size", "desired_size", "max_size")
    @classmethod
    def _size(cls, value: int) -> int:
        if value < 0:
            raise _bad(value, "an integer >= 0", "negative size")
        if value > eks_model.INT32_MAX:
            raise _bad(
                value, f"an integer up to {eks_model.INT32_MAX} (the EKS API's 32-bit integers)", "size out of range:"
            )
        return value

    @field_validator("disk_size")
    @classmethod
    def _disk_max(cls, value: int) -> int:
        if value > MAX_GP3_DISK_GIB:
            raise _bad(value, f"at most {MAX_GP3_DISK_GIB} GiB (the largest gp3 volume)", "disk too large:")
        return value

    def problems(self, key: str) -> list[ConfigProblem]:
        problems = []
        if self.max_size < 1:
            problems.append(
                ConfigProblem(f"{key}.maxSize", f"{self.max_size!r}; allowed: an integer >= 1 (EKS rejects 0)")
            )
        if self.min_size > self.desired_size:
            problems.append(
                ConfigProblem(
                    f"{key}.minSize",
                    f"{self.min_size!r} is greater than desiredSize "
                    f"{self.desired_size!r}; allowed: minSize <= desiredSize <= maxSize",
                )
            )
        if self.desired_size > self.max_size:
            problems.append(
                ConfigProblem(
                    f"{key}.desiredSize",
                    f"{self.desired_size!r} is greater than maxSize "
                    f"{self.max_size!r}; allowed: minSize <= desiredSize <= maxSize",
                )
            )
        return problems


class SystemNodeGroupSettings(_NodeGroupSettings):
    """The untainted node group where CoreDNS and other add-ons run (`systemNodeGroup`)."""

    instance_types: list[str] = ["m6i.large"]
    """Non-GPU instance types, one architecture. Default `m6i.large`."""
    min_size: int = 2
    """Smallest node count; at least 1 so add-ons always have a node. Default 2."""
    desired_size: int = 2
    """Node count at creation. Default 2 (CoreDNS runs two replicas)."""
    max_size: int = 3
    """Largest node count. Default 3."""
    disk_size: int = 50
    """Root volume size in GiB. Default 50."""

    @field_validator("disk_size")
    @classmethod
    def _disk(cls, value: int) -> int:
        if value < MIN_SYSTEM_DISK_GIB:
            raise _bad(value, f"at least {MIN_SYSTEM_DISK_GIB} GiB", "disk too small:")
        return value

    def problems(self, key: str) -> list[ConfigProblem]:
        problems = super().problems(key)
        if self.min_size < 1:
            problems.append(
                ConfigProblem(
                    f"{key}.minSize",
                    f"{self.min_size!r}; allowed: an integer >= 1, or CoreDNS "
                    "and other add-ons have no untainted node to run on",
                )
            )
        gpu_types = [name for name in self.instance_types if gpu_catalog.is_gpu_instance_type(name)]
        if gpu_types:
            problems.append(
                ConfigProblem(
                    f"{key}.instanceTypes",
                    f"GPU instance types {gpu_types!r} in the system "
                    "node group; allowed: non-GPU types such as m6i.large (GPU nodes belong "
                    "in gpuNodeGroup)",
                )
            )
        architectures = {gpu_catalog.architecture_of(name) for name in self.instance_types}
        if len(architectures) > 1:
            problems.append(
                ConfigProblem(
                    f"{key}.instanceTypes",
                    f"{self.instance_types!r} mix architectures "
                    f"{sorted(map(str, architectures))}; allowed: one architecture",
                )
            )
        return problems

    @property
    def architecture(self) -> str:
        return gpu_catalog.architecture_of(self.instance_types[0]) or "x86_64"


class TaintSettings(_Settings):
    """A taint in Kubernetes spelling (an item of `gpuNodeGroup.extraTaints`)."""

    key: str
    """Taint key, 1-63 characters. Required."""
    value: str = ""
    """Taint value, 0-63 characters. Default empty."""
    effect: str = "NoSchedule"
    """`NoSchedule`, `NoExecute` or `PreferNoSchedule`. Default `NoSchedule`."""

    @field_validator("key")
    @classmethod
    def _key(cls, value: str) -> str:
        check_label_key(value)
        return value

    @field_validator("value")
    @classmethod
    def _value(cls, value: str) -> str:
        check_label_value(value, "taintValue")
        return value

    @field_validator("effect")
    @classmethod
    def _effect(cls, value: str) -> str:
        check_kubernetes_taint_effect(value)
        return value

    def to_taint(self) -> Taint:
        return Taint(self.key, self.value, self.effect)


class GpuNodeGroupSettings(_NodeGroupSettings):
    """The guarded GPU node group (`gpuNodeGroup`)."""

    instance_types: list[str] = ["g5.xlarge"]
    """NVIDIA GPU instance types from the catalog, one architecture and one GPU count. Default `g5.xlarge`."""
    ami_family: Literal["AL2023", "Bottlerocket"] = "AL2023"
    """`AL2023` or `Bottlerocket`; the NVIDIA AMI type follows from it and the architecture. Default `AL2023`."""
    capacity_type: Literal["ON_DEMAND", "SPOT"] = "ON_DEMAND"
    """`ON_DEMAND` or `SPOT`. Default `ON_DEMAND`."""
    min_size: int = 0
    """Smallest node count; 0 lets an autoscaler park the group. Default 0."""
    desired_size: int = 1
    """Node count at creation. Default 1."""
    max_size: int = 2
    """Largest node count. Default 2."""
    disk_size: int = 100
    """Root volume size in GiB, at least 50 for the accelerated AMI and the vLLM image. Default 100."""
    extra_labels: dict[str, str] = {}
    """Labels besides the contract label. Default none."""
    extra_taints: list[TaintSettings] = []
    """Taints besides the contract taint, Kubernetes spelling; the device plugin and vLLM tolerate them.
    Default none."""
    update_max_unavailable: int = 1
    """Nodes replaced at once during a node group update, 1-100. Default 1."""
    node_repair: bool = True
    """EKS node auto repair (with the node monitoring agent add-on). Default true."""

    @field_validator("disk_size")
    @classmethod
    def _disk(cls, value: int) -> int:
        if value < MIN_GPU_DISK_GIB:
            raise _bad(
                value, f"at least {MIN_GPU_DISK_GIB} GiB for an accelerated AMI and the vLLM image", "disk too small:"
            )
        return value

    @field_validator("extra_labels")
    @classmethod
    def _labels(cls, value: dict[str, str]) -> dict[str, str]:
        return check_node_labels(value)

    @field_validator("update_max_unavailable")
    @classmethod
    def _max_unavailable(cls, value: int) -> int:
        if not 1 <= value <= 100:
            raise _bad(value, "an integer from 1 to 100")
        return value

    def problems(self, key: str) -> list[ConfigProblem]:
        problems = super().problems(key)
        unknown = [name for name in self.instance_types if not gpu_catalog.is_gpu_instance_type(name)]
        if unknown:
            families = ", ".join(gpu_catalog.gpu_families())
            problems.append(
                ConfigProblem(
                    f"{key}.instanceTypes",
                    f"{unknown!r} not NVIDIA GPU instance types; "
                    f"allowed: sizes of {families} (components/gpu_catalog.py)",
                )
            )
            return problems
        entries = [gpu_catalog.gpu_instance_type(name) for name in self.instance_types]
        architectures = sorted({entry.architecture for entry in entries})
        if len(architectures) > 1:
            problems.append(
                ConfigProblem(
                    f"{key}.instanceTypes",
                    f"{self.instance_types!r} mix architectures "
                    f"{architectures}; allowed: one architecture per node group",
                )
            )
        gpu_counts = sorted({entry.gpus for entry in entries})
        if len(gpu_counts) > 1:
            problems.append(
                ConfigProblem(
                    f"{key}.instanceTypes",
                    f"{self.instance_types!r} mix GPU counts {gpu_counts}; allowed: one GPU count per node group",
                )
            )
        taint_keys = [taint.key for taint in self.extra_taints]
        duplicates = sorted({k for k in taint_keys if taint_keys.count(k) > 1})
        if duplicates:
            problems.append(
                ConfigProblem(f"{key}.extraTaints", f"duplicate taint keys {duplicates}; allowed: each key once")
            )
        return problems

    @property
    def instances(self) -> list[gpu_catalog.InstanceType]:
        return [gpu_catalog.gpu_instance_type(name) for name in self.instance_types]

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


_DEFAULT_CONTRACT = PlacementContract()


class GpuPlacementSettings(_Settings):
    """The placement contract (`gpuPlacement`): the label and taint that guard GPU nodes."""

    label_key: str = _DEFAULT_CONTRACT.label_key
    """Label that GPU workloads select. Default `GPU` (`PlacementContract`)."""
    label_value: str = _DEFAULT_CONTRACT.label_value
    """Value of that label, 1-63 characters. Default `true`."""
    taint_key: str = _DEFAULT_CONTRACT.taint.key
    """Key of the taint that repels other pods. Default `GPU`."""
    taint_value: str = _DEFAULT_CONTRACT.taint.value
    """Value of that taint, 0-63 characters. Default `true`."""
    taint_effect: str = _DEFAULT_CONTRACT.taint.effect
    """`NoSchedule` or `NoExecute`, Kubernetes spelling. Default `NoSchedule`."""
    require_node_affinity: bool = False
    """Also give GPU workloads a required node-affinity term on the label. Default false."""

    @field_validator("label_key")
    @classmethod
    def _label_key(cls, value: str) -> str:
        check_node_label_key(value)
        return value

    @field_validator("taint_key")
    @classmethod
    def _taint_key(cls, value: str) -> str:
        check_label_key(value)
        return value

    @field_validator("label_value")
    @classmethod
    def _label_value(cls, value: str) -> str:
        check_label_value(value)
        return value

    @field_validator("taint_value")
    @classmethod
    def _taint_value(cls, value: str) -> str:
        check_label_value(value, "taintValue")
        return value

    @field_validator("taint_effect")
    @classmethod
    def _effect(cls, value: str) -> str:
        check_kubernetes_taint_effect(value, REPELLING_EFFECTS)
        return value


class ModelCacheSettings(_Settings):
    """Where vLLM caches model weights (`vllm.modelCache`)."""

    type: Literal["emptyDir", "pvc"] = "emptyDir"
    """`emptyDir` (node disk, lost with the pod) or `pvc` (a PersistentVolumeClaim). Default `emptyDir`."""
    size: str = "100Gi"
    """Size limit of the emptyDir or size of the claim, a Kubernetes quantity. Default `100Gi`."""
    storage_class: str | None = None
    """Storage class of the claim. Default: the cluster's default class."""

    @field_validator("size")
    @classmethod
    def _size(cls, value: str) -> str:
        if not _QUANTITY.match(value):
            raise _bad(value, "a Kubernetes quantity such as 100Gi")
        return value


class VllmSettings(_Settings):
    """The vLLM OpenAI-compatible server (`vllm`)."""

    enabled: bool = True
    """Deploy the server. Default true."""
    namespace: str = "vllm"
    """Namespace of the server. Default `vllm`."""
    model: str = "Qwen/Qwen2.5-7B-Instruct"
    """Hugging Face model id. Default `Qwen/Qwen2.5-7B-Instruct` (ungated, fits one 24 GB GPU)."""
    served_model_name: str | None = None
    """Model name clients send in requests. Default: the model id."""
    image: str = versions.VLLM_IMAGE
    """Pinned vLLM image `vllm/vllm-openai:vX.Y.Z`, at least `versions.VLLM_MIN_VERSION`, or a digest (taken as
    recent enough). Default in `components/versions.py`."""
    tensor_parallel_size: int = 1
    """GPUs per replica, at most the GPUs per instance. Default 1."""
    max_model_len: int = 8192
    """Context length in tokens. Default 8192."""
    gpu_memory_utilization: float = 0.9
    """Share of GPU memory vLLM may use, 0 < x <= 1. Default 0.9."""
    replicas: int = 1
    """Server replicas. Default 1."""
    extra_args: list[str] = []
    """More vLLM flags, appended after the ones built from settings. Default none."""
    require_gpu_product: str | None = None
    """Also require this `nvidia.com/gpu.product` (for example `NVIDIA-A10G`), which the GPU node group must
    provide. Default: not required."""
    model_cache: ModelCacheSettings = ModelCacheSettings()
    """Model weight cache. Default an emptyDir of 100Gi."""
    startup_timeout_seconds: int = 1800
    """Time allowed to download and load the weights before the pod restarts. Default 1800."""
    shutdown_timeout_seconds: int = 30
    """Time vLLM gives in-flight requests on shutdown. Default 30."""
    allowed_client_namespaces: list[str] = []
    """Namespaces whose pods may call the server. Default: only the server's namespace."""
    allowed_client_pod_labels: dict[str, str] = {}
    """Labels of pods (in the allowed namespaces) that may call the server. Default: any pod there."""

    @field_validator("namespace")
    @classmethod
    def _namespace(cls, value: str) -> str:
        check_namespace_name(value)
        if value in SYSTEM_NAMESPACES:
            # The server's Namespace object is owned by the stack: taking over a system namespace
            # would relabel it for Pod Security and delete it on `pulumi destroy`.
            raise _bad(value, f"a namespace of its own, not {', '.join(SYSTEM_NAMESPACES)}", "system namespace")
        return value

    @field_validator("allowed_client_namespaces")
    @classmethod
    def _client_namespaces(cls, value: list[str]) -> list[str]:
        for namespace in value:
            check_namespace_name(namespace)
        return value

    @field_validator("allowed_client_pod_labels")
    @classmethod
    def _client_labels(cls, value: dict[str, str]) -> dict[str, str]:
        return check_labels(value)

    @field_validator("model")
    @classmethod
    def _model(cls, value: str) -> str:
        if not re.match(r"^[\w.-]+/[\w.-]+$", value):
            raise _bad(value, "a Hugging Face model id such as Qwen/Qwen2.5-7B-Instruct")
        return value

    @field_validator("image")
    @classmethod
    def _image(cls, value: str) -> str:
        allowed = f"a pinned image such as {versions.VLLM_IMAGE} (tag vX.Y.Z, or a @sha256 digest)"
        if "@sha256:" in value:
            return value
        repository, _, tag = value.rpartition(":")
        if not repository or "/" in tag:
            raise _bad(value, allowed, "untagged image")
        if tag == "latest":
            raise _bad(value, allowed, "unpinned image")
        if not _SEMVER_TAG.match(tag):
            raise _bad(value, allowed, "tag is not a release version in")
        floor = "v" + ".".join(map(str, versions.VLLM_MIN_VERSION))
        if _release(tag) < versions.VLLM_MIN_VERSION:
            raise _bad(
                value,
                f"{floor} or newer, the first image with the non-root vllm user (UID "
                f"{versions.VLLM_USER_ID}) the server runs as",
                "image too old:",
            )
        return value

    @field_validator("tensor_parallel_size")
    @classmethod
    def _tensor_parallel(cls, value: int) -> int:
        if value < 1:
            raise _bad(value, "an integer >= 1, at most the GPUs per instance")
        return value

    @field_validator("max_model_len")
    @classmethod
    def _max_model_len(cls, value: int) -> int:
        if value < 16:
            raise _bad(value, "an integer >= 16")
        return value

    @field_validator("gpu_memory_utilization")
    @classmethod
    def _utilization(cls, value: float) -> float:
        if not 0 < value <= 1:
            raise _bad(value, "a number with 0 < x <= 1")
        return value

    @field_validator("replicas")
    @classmethod
    def _replicas(cls, value: int) -> int:
        if value < 0:
            raise _bad(value, "an integer >= 0")
        return value

    @field_validator("startup_timeout_seconds")
    @classmethod
    def _startup(cls, value: int) -> int:
        if value < 60:
            raise _bad(value, "at least 60 seconds (weights take time to download and load)")
        return value

    @field_validator("shutdown_timeout_seconds")
    @classmethod
    def _shutdown(cls, value: int) -> int:
        if not 0 <= value <= 3600:
            raise _bad(value, "0-3600 seconds")
        return value

    @field_validator("extra_args")
    @classmethod
    def _extra_args(cls, value: list[str]) -> list[str]:
        # Checked as vLLM's parser reads them: `--tensor_parallel_size=8` and `-tp 8` set --tensor-parallel-size.
        for arg in value:
            secret = vllm_args.settings_flag(arg, tuple(VLLM_SECRET_FLAGS))
            if secret:
                raise _bad(
                    arg,
                    f"no {secret}: it would be plain text in the pod spec and the state; set it with "
                    f"`pulumi config set --secret {VLLM_SECRET_FLAGS[secret]} <value>`",
                    "secret flag in",
                )
            flag = vllm_args.settings_flag(arg, VLLM_MANAGED_FLAGS)
            if flag:
                spelled = "" if arg.split("=", 1)[0] == flag else f" (read by vLLM as {flag})"
                raise _bad(
                    arg,
                    f"flags other than {', '.join(VLLM_MANAGED_FLAGS)} in any spelling, which come from vllm settings",
                    f"flag set by settings{spelled}:",
                )
        return value

    def problems(self, key: str) -> list[ConfigProblem]:
        if self.model_cache.type == "pvc" and self.replicas > 1:
            return [
                ConfigProblem(
                    f"{key}.modelCache.type",
                    f"'pvc' with replicas {self.replicas}: a ReadWriteOnce "
                    "claim attaches to one node only; allowed: 'emptyDir', or replicas 1",
                )
            ]
        return []

    @property
    def model_name(self) -> str:
        return self.served_model_name or self.model


def _release(tag: str) -> tuple[int, ...]:
    """(major, minor, patch) of a `vX.Y.Z` tag."""
    return tuple(int(part) for part in tag[1:].split("."))


class NetworkSettings(_Settings):
    """The VPC the stack creates when `cluster.vpcId` is not set (`network`)."""

    mode: Literal["create", "defaultVpc"] = "create"
    """`create` a dedicated VPC with private node subnets, or use the account's `defaultVpc` (public subnets:
    every node gets a public IP; for throwaway tests only, and a warning says so). Default `create`."""
    cidr: str = "10.0.0.0/16"
    """IPv4 range of the VPC, /16 to /20: each zone gets a private subnet of an eighth of it for nodes and
    pods, and a smaller public one for NAT and load balancers. Default `10.0.0.0/16`."""
    az_count: int = 3
    """Availability zones to spread over, 2-6 (EKS needs two). Default 3."""
    nat_gateways: Literal["single", "perAz"] = "single"
    """One NAT gateway for all zones (cheaper; a zone outage cuts the others' egress), or one per zone.
    Default `single`."""
    interface_endpoints: bool = False
    """Also create interface endpoints for ECR, STS and EKS Auth, so nodes reach them without NAT (each costs
    per hour and zone). Default false. An S3 gateway endpoint (free) is always created."""
    availability_zones: list[str] = []
    """Zones to use, by name (`us-west-2a`) or ID (`usw2-az1`); their number sets the zone count. Default:
    chosen from the region, preferring zones that offer the GPU instance types."""

    @field_validator("cidr")
    @classmethod
    def _cidr(cls, value: str) -> str:
        allowed = f"an IPv4 CIDR block from /{MIN_VPC_PREFIX} to /{MAX_VPC_PREFIX}, such as 10.0.0.0/16"
        try:
            network = ipaddress.IPv4Network(value, strict=True)
        except ValueError:
            raise _bad(value, allowed, "invalid CIDR") from None
        if not MIN_VPC_PREFIX <= network.prefixlen <= MAX_VPC_PREFIX:
            raise _bad(value, allowed, "VPC size out of range:")
        return value

    @field_validator("az_count")
    @classmethod
    def _az_count(cls, value: int) -> int:
        if not 2 <= value <= MAX_AZ_COUNT:
            raise _bad(value, f"2-{MAX_AZ_COUNT} (EKS needs subnets in two zones)")
        return value

    @field_validator("availability_zones")
    @classmethod
    def _zones(cls, value: list[str]) -> list[str]:
        for zone in value:
            if not (_ZONE_NAME.match(zone) or _ZONE_ID.match(zone)):
                raise _bad(zone, "zone names such as us-west-2a or zone IDs such as usw2-az1", "invalid zone")
            if zone in EKS_UNSUPPORTED_ZONE_IDS:
                raise _bad(
                    zone,
                    f"zones other than {', '.join(EKS_UNSUPPORTED_ZONE_IDS)}, where EKS places no control plane",
                    "unsupported zone",
                )
        if len(set(value)) != len(value):
            raise _bad(value, "each zone once", "duplicate zones in")
        if value and not 2 <= len(value) <= MAX_AZ_COUNT:
            raise _bad(value, f"2-{MAX_AZ_COUNT} zones (EKS needs subnets in two zones)", "wrong number of zones:")
        return value

    def problems(self, key: str) -> list[ConfigProblem]:
        if (
            self.availability_zones
            and "az_count" in self.model_fields_set
            and self.az_count != len(self.availability_zones)
        ):
            return [
                ConfigProblem(
                    f"{key}.azCount",
                    f"{self.az_count!r} but availabilityZones lists "
                    f"{len(self.availability_zones)}; allowed: leave azCount out, or match the list",
                )
            ]
        return []

    @property
    def zone_count(self) -> int:
        return len(self.availability_zones) or self.az_count


class AutoscalerSettings(_Settings):
    """The Cluster Autoscaler, which scales the node groups (the GPU one from zero) with pending pods (`autoscaler`)."""

    enabled: bool = True
    """Install the Cluster Autoscaler. Default true; without it node group sizes change only by hand."""
    expander: Literal["least-waste", "priority", "most-pods", "random"] = "least-waste"
    """How it picks among node groups that fit a pending pod. `priority` follows `expanderPriorities`.
    Default `least-waste` (the group left with the least idle CPU and memory)."""
    expander_priorities: dict[str, list[str]] = {}
    """For the `priority` expander: priority (an integer, higher wins) to node group name patterns (regular
    expressions), as the autoscaler's priority ConfigMap takes them. Default none."""
    scale_down_unneeded_time: str = "30m"
    """How long a node stays unneeded before it is removed. Default `30m` (the autoscaler's is 10m): removing a
    GPU node throws away a loaded model, which takes minutes to download and load again."""
    scale_down_delay_after_add: str = "20m"
    """How long after a scale-up scale-down is considered again. Default `20m` (the autoscaler's is 10m)."""
    max_node_provision_time: str = "20m"
    """How long a new node may take to register before the autoscaler gives up on it. Default `20m` (the
    autoscaler's is 15m): GPU nodes boot larger AMIs and may wait for capacity."""

    @field_validator("scale_down_unneeded_time", "scale_down_delay_after_add", "max_node_provision_time")
    @classmethod
    def _duration(cls, value: str) -> str:
        if not _DURATION.match(value) or value in ("", "0"):
            raise _bad(value, "a duration such as 10m, 1h or 1h30m (hours, minutes, seconds)", "invalid duration")
        return value

    @field_validator("expander_priorities")
    @classmethod
    def _priorities(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        for priority, patterns in value.items():
            if not re.match(r"^-?\d+$", priority):
                raise _bad(priority, "integer priorities such as '10'", "invalid priority")
            for pattern in patterns:
                try:
                    re.compile(pattern)
                except re.error:
                    raise _bad(pattern, "regular expressions matching node group names", "invalid pattern") from None
        return value

    def problems(self, key: str) -> list[ConfigProblem]:
        if self.expander == "priority" and not self.expander_priorities:
            return [
                ConfigProblem(
                    f"{key}.expanderPriorities",
                    "empty with expander 'priority'; allowed: at least one "
                    "priority with node group name patterns, or another expander",
                )
            ]
        return []


class DevicePluginSettings(_Settings):
    """The NVIDIA device plugin DaemonSet (`devicePlugin`)."""

    enabled: bool | None = None
    """Deploy the plugin. Default: true, unless the GPU node group runs Bottlerocket, whose AMI runs it."""
    version: str = versions.DEVICE_PLUGIN_VERSION
    """Image tag of nvcr.io/nvidia/k8s-device-plugin. Default in `components/versions.py`."""

    @field_validator("version")
    @classmethod
    def _version(cls, value: str) -> str:
        if not _SEMVER_TAG.match(value):
            raise _bad(value, f"a release tag such as {versions.DEVICE_PLUGIN_VERSION}")
        return value


# A Prometheus duration, as the prometheus-operator CRDs pattern `interval` (ServiceMonitor
# `spec.endpoints[].interval`, monitoring.coreos.com_servicemonitors.yaml at v0.93.0), without the bare `0`.
_PROMETHEUS_DURATION = re.compile(
    r"^(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?"
    r"(([0-9]+)ms)?$"
)


class DcgmExporterSettings(_Settings):
    """NVIDIA's DCGM exporter on the GPU nodes (`observability.dcgmExporter`)."""

    enabled: bool = True
    """Deploy the exporter DaemonSet on every GPU node. Default true."""


class ObservabilitySettings(_Settings):
    """GPU and model-server metrics, scrape configuration, dashboard and alerts (`observability`)."""

    dcgm_exporter: DcgmExporterSettings = DcgmExporterSettings()
    """The DCGM exporter. Default: enabled."""
    monitoring_namespace: str = "monitoring"
    """Namespace of the Prometheus (or agent) that scrapes the metrics: the only one the exporter's and the
    vLLM server's NetworkPolicies admit scrapes from; the ServiceMonitors and the PrometheusRule go there.
    Default `monitoring`."""
    prometheus_operator: bool = False
    """The cluster runs the Prometheus operator (its CRDs exist): create ServiceMonitor and PrometheusRule
    objects. Otherwise the pods carry `prometheus.io/scrape` annotations. Default false."""
    scrape_interval: str = "30s"
    """How often the ServiceMonitors scrape, a Prometheus duration such as `30s` or `1m`. Default `30s`."""
    monitor_labels: dict[str, str] = {}
    """Labels on the ServiceMonitors and the PrometheusRule, for a Prometheus whose selectors require them
    (kube-prometheus-stack selects `release: <its release name>` unless its `*SelectorNilUsesHelmValues` are
    false; prometheus-community/helm-charts#1631). Default none."""

    @field_validator("monitoring_namespace")
    @classmethod
    def _monitoring_namespace(cls, value: str) -> str:
        check_namespace_name(value)
        return value

    @field_validator("scrape_interval")
    @classmethod
    def _scrape_interval(cls, value: str) -> str:
        if not value or not _PROMETHEUS_DURATION.match(value) or not re.search(r"[1-9]", value):
            raise _bad(value, "a non-zero Prometheus duration such as 15s, 30s or 1m")
        return value

    @field_validator("monitor_labels")
    @classmethod
    def _monitor_labels(cls, value: dict[str, str]) -> dict[str, str]:
        return check_labels(value)


class Settings(_Settings):
    """The whole stack config, every section resolved to its defaults."""

    cluster: ClusterSettings = ClusterSettings()
    system_node_group: SystemNodeGroupSettings = SystemNodeGroupSettings()
    gpu_node_group: GpuNodeGroupSettings = GpuNodeGroupSettings()
    gpu_placement: GpuPlacementSettings = GpuPlacementSettings()
    vllm: VllmSettings = VllmSettings()
    device_plugin: DevicePluginSettings = DevicePluginSettings()
    network: NetworkSettings = NetworkSettings()
    autoscaler: AutoscalerSettings = AutoscalerSettings()
    observability: ObservabilitySettings = ObservabilitySettings()
    hf_token: str | None = None
    """Hugging Face token for gated models; set it with `pulumi config set --secret hfToken`. Default none."""
    vllm_api_key: str | None = None
    """Key vLLM requires from clients (`VLLM_API_KEY`, from a Secret); set it with
    `pulumi config set --secret vllmApiKey`. A top-level key because Pulumi.yaml can declare only whole
    keys secret, not a value inside the `vllm` object. Default none (no key)."""

    @property
    def contract(self) -> PlacementContract:
        """The placement contract every GPU consumer derives from."""
        placement = self.gpu_placement
        return PlacementContract(
            label_key=placement.label_key,
            label_value=placement.label_value,
            taint=Taint(placement.taint_key, placement.taint_value, placement.taint_effect),
            extra_labels=dict(self.gpu_node_group.extra_labels),
            extra_taints=tuple(taint.to_taint() for taint in self.gpu_node_group.extra_taints),
            gpu_product=self.gpu_node_group.gpu_product,
        )

    @property
    def device_plugin_enabled(self) -> bool:
        if self.device_plugin.enabled is not None:
            return self.device_plugin.enabled
        return self.gpu_node_group.ami_family != "Bottlerocket"

    @property
    def creates_network(self) -> bool:
        """Whether the stack creates its own VPC (no `cluster.vpcId`, `network.mode` `create`)."""
        return not self.cluster.vpc_id and self.network.mode == "create"

    def warnings(self) -> list[str]:
        found = self.cluster.warnings()
        if not self.cluster.vpc_id and self.network.mode == "defaultVpc":
            found.append(
                f"{PROJECT}:network.mode is 'defaultVpc': the nodes run in the default VPC's default "
                "subnets, which are public and give each node a public IP; use the default mode "
                "'create', or set cluster.vpcId and privateSubnetIds, for anything but a test"
            )
        return found


SECTIONS: dict[str, type[_Settings]] = {
    "cluster": ClusterSettings,
    "systemNodeGroup": SystemNodeGroupSettings,
    "gpuNodeGroup": GpuNodeGroupSettings,
    "gpuPlacement": GpuPlacementSettings,
    "vllm": VllmSettings,
    "devicePlugin": DevicePluginSettings,
    "network": NetworkSettings,
    "autoscaler": AutoscalerSettings,
    "observability": ObservabilitySettings,
}
SECRET_KEYS = ("hfToken", "vllmApiKey")
TOP_LEVEL_KEYS = (*SECTIONS, *SECRET_KEYS)


def parse_settings(values: Mapping[str, Any]) -> Settings:
    """Build `Settings` from the config namespace's keys (without the `project:` prefix).

    Each section is checked on its own, so one bad section does not hide another's problems;
    checks across sections run on the sections that parsed.
    """
    problems: list[ConfigProblem] = []
    parsed: dict[str, Any] = {}
    for key, value in values.items():
        if key in SECTIONS:
            try:
                section = SECTIONS[key].model_validate(value)
            except ValidationError as error:
                problems.extend(_problems_from(error, key, SECTIONS[key]))
                continue
            problems.extend(section.problems(key))
            parsed[key] = section
        elif key in SECRET_KEYS:
            if value is not None and not isinstance(value, str):
                problems.append(
                    ConfigProblem(
                        key,
                        f"{type(value).__name__} value; allowed: a string (pulumi config set --secret {key} <value>)",
                    )
                )
            elif value == "":
                # The value is secret: the message names the key only.
                problems.append(ConfigProblem(key, "empty value; allowed: a non-empty string, or leave the key unset"))
            else:
                parsed[key] = value
        else:
            problems.append(
                ConfigProblem(
                    key, f"unknown key{_suggestion(key, TOP_LEVEL_KEYS)}; allowed: {', '.join(TOP_LEVEL_KEYS)}"
                )
            )
    bad_sections = {problem.key.split(".", 1)[0] for problem in problems}
    if not bad_sections & {"gpuNodeGroup", "gpuPlacement", "vllm", "devicePlugin", "systemNodeGroup"}:
        problems.extend(_cross_section_problems(Settings.model_validate(parsed)))
    if problems:
        raise ConfigError(problems)
    return Settings.model_validate(parsed)


def _cross_section_problems(settings: Settings) -> list[ConfigProblem]:
    problems = []
    gpu = settings.gpu_node_group
    contract = settings.contract
    vllm = settings.vllm
    if vllm.enabled and vllm.tensor_parallel_size > gpu.gpus_per_instance:
        problems.append(
            ConfigProblem(
                "vllm.tensorParallelSize",
                f"{vllm.tensor_parallel_size!r} is more than the "
                f"{gpu.gpus_per_instance} GPU(s) per {gpu.instance_types[0]}; allowed: "
                f"1-{gpu.gpus_per_instance}, or larger GPU instance types",
            )
        )
    if vllm.enabled and vllm.require_gpu_product and vllm.require_gpu_product != gpu.gpu_product:
        provided = f"{gpu.gpu_product!r}" if gpu.gpu_product else "no single product (mixed GPU models)"
        problems.append(
            ConfigProblem(
                "vllm.requireGpuProduct",
                f"{vllm.require_gpu_product!r} is not what the GPU node group provides; allowed: {provided}",
            )
        )
    reserved = {contract.label_key, NVIDIA_GPU_PRESENT_LABEL, NVIDIA_GPU_PRODUCT_LABEL}
    for key in sorted(reserved & set(gpu.extra_labels)):
        problems.append(
            ConfigProblem(
                f"gpuNodeGroup.extraLabels.{key}",
                f"{gpu.extra_labels[key]!r} overrides a label the placement contract sets; allowed: other keys",
            )
        )
    if contract.taint.key in {taint.key for taint in gpu.extra_taints}:
        problems.append(
            ConfigProblem(
                "gpuNodeGroup.extraTaints",
                f"repeats the contract taint key {contract.taint.key!r} (gpuPlacement.taintKey); allowed: other keys",
            )
        )
    taint_count = len(contract.node_taints())
    if taint_count > eks_model.MAX_TAINTS_PER_NODE_GROUP:
        problems.append(
            ConfigProblem(
                "gpuNodeGroup.extraTaints",
                f"{taint_count} taints with the contract taint; "
                f"allowed: at most {eks_model.MAX_TAINTS_PER_NODE_GROUP} per node group",
            )
        )
    if settings.cluster.vpc_id and settings.network.model_fields_set:
        problems.append(
            ConfigProblem(
                "network",
                f"is set while cluster.vpcId {settings.cluster.vpc_id!r} brings its "
                "own VPC; allowed: remove network, or unset cluster.vpcId to let the stack "
                "create the VPC",
            )
        )
    if settings.autoscaler.enabled and settings.cluster.version not in versions.CLUSTER_AUTOSCALER_VERSIONS:
        known = ", ".join(versions.CLUSTER_AUTOSCALER_VERSIONS)
        problems.append(
            ConfigProblem(
                "cluster.version",
                f"{settings.cluster.version!r} has no Cluster Autoscaler "
                f"release pinned (components/versions.py); allowed: {known}, or "
                "autoscaler.enabled false",
            )
        )
    if settings.device_plugin.enabled and gpu.ami_family == "Bottlerocket":
        problems.append(
            ConfigProblem(
                "devicePlugin.enabled",
                "true with gpuNodeGroup.amiFamily 'Bottlerocket', whose "
                "AMI runs the device plugin itself; allowed: false or unset",
            )
        )
    return problems


def _problems_from(error: ValidationError, section: str, model: type[BaseModel]) -> list[ConfigProblem]:
    problems = []
    for detail in error.errors():
        location = [section, *(_camel(part) for part in detail["loc"])]
        key = ".".join(str(part) for part in location)
        if detail["type"] == "extra_forbidden":
            known = _known_keys(model, detail["loc"][:-1])
            problems.append(
                ConfigProblem(
                    key, f"unknown key{_suggestion(str(detail['loc'][-1]), known)}; allowed: {', '.join(known)}"
                )
            )
            continue
        message = detail["msg"].removeprefix("Value error, ")
        if detail["type"] != "value_error":
            message = f"{message}; got {detail['input']!r}"
        problems.append(ConfigProblem(key, message))
    return problems


def _camel(part: str | int) -> str | int:
    return to_camel(part) if isinstance(part, str) else part


def _known_keys(model: type[BaseModel], location: tuple) -> list[str]:
    """The config keys allowed at `location` inside `model` (field aliases, in declaration order)."""
    for part in location:
        if isinstance(part, int):
            continue
        field = model.model_fields.get(part) or next((f for f in model.model_fields.values() if f.alias == part), None)
        annotation = getattr(field, "annotation", None)
        candidates = [annotation, *getattr(annotation, "__args__", ())]
        model = next((c for c in candidates if isinstance(c, type) and issubclass(c, BaseModel)), None)
        if model is None:
            return []
    return [field.alias or name for name, field in model.model_fields.items()]


def _suggestion(key: str, known: list[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.5)
    if not close:
        lowered = {k.lower(): k for k in known}
        close = [lowered[key.lower()]] if key.lower() in lowered else []
    return f" {key!r}; did you mean {close[0]!r}?" if close else f" {key!r}"


# Namespaces at least this similar to the project's are taken for a misspelling of it.
_NAMESPACE_SIMILARITY = 0.8


def parse_stack_config(
    config: Mapping[str, Any], secret_keys: Collection[str] = (), project: str = PROJECT
) -> Settings:
    """Build `Settings` from a whole stack config (`namespace:key` -> value), as Pulumi hands it over.

    Beyond `parse_settings`, this catches what only the whole config shows: keys under a namespace
    that is a misspelling of the project's (their section would be silently ignored), and a secret
    key such as `hfToken` given in plain text (the Pulumi CLI refuses that for keys `Pulumi.yaml`
    declares secret). Every problem is reported at once.
    """
    problems: list[ConfigProblem] = []
    values: dict[str, Any] = {}
    for full_key, value in config.items():
        namespace, _, key = full_key.rpartition(":")
        if namespace == project:
            values[key] = value
        elif namespace and difflib.SequenceMatcher(None, namespace, project).ratio() >= _NAMESPACE_SIMILARITY:
            problems.append(
                ConfigProblem(
                    full_key,
                    f"namespace {namespace!r} is not this project's; did you mean "
                    f"{project}:{key}? allowed: keys under {project}: (other namespaces, such as "
                    "aws:, belong to their providers)",
                    namespace=None,
                )
            )
    for key in SECRET_KEYS:
        if values.get(key) is not None and f"{project}:{key}" not in secret_keys:
            problems.append(
                ConfigProblem(
                    key,
                    f"is set in plain text (value not shown); allowed: a secret value, "
                    f"set with pulumi config set --secret {key} <value>",
                )
            )
    try:
        settings = parse_settings(values)
    except ConfigError as error:
        problems.extend(error.problems)
    if problems:
        raise ConfigError(problems)
    return settings


def config_from_pulumi() -> tuple[dict[str, Any], set[str]]:
    """The running Pulumi program's whole stack config as Python values, and the keys that are secret.

    Objects arrive as JSON text (that is how Pulumi passes structured config); secret keys stay text.
    """
    from pulumi.runtime import config as runtime_config

    keys = {*runtime_config.CONFIG.get(), *runtime_config.get_config_env()}
    secret_keys = {key for key in keys if runtime_config.is_config_secret(key)}
    values: dict[str, Any] = {}
    for full_key in sorted(keys):
        raw = runtime_config.get_config(full_key)
        if full_key in secret_keys or not isinstance(raw, str):
            values[full_key] = raw
            continue
        try:
            values[full_key] = json.loads(raw)
        except json.JSONDecodeError:
            values[full_key] = raw
    return values, secret_keys
