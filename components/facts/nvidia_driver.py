"""Which NVIDIA driver each EKS AMI a GPU pool boots installs, and whether that driver brings the pool's GPU up.

A GPU the driver does not initialise is the quiet failure: the node joins the cluster healthy, the device plugin
registers 0 GPUs and every GPU pod stays Pending (awslabs/amazon-eks-ami#2768, g7 on release v20260714). The facts
below are dated tables with their sources; `driver_for` applies them to one instance type. Standard library only.

EKS-optimized AL2023 NVIDIA AMIs (awslabs/amazon-eks-ami, read 2026-12-04):

- From v20251120 (templates/al2023/variables-default.json at that tag: `nvidia_driver_major_version` 580, only the
  1.28 variables pin 570) until v20260917, a release installs one driver branch, 580. At first boot
  `nvidia-kmod-load.sh` loads the open kernel module when every NVIDIA device of the instance is in
  `/etc/eks/nvidia-open-supported-devices-<branch>.txt`, else the proprietary module; g4dn, g5 and g5g always get the
  proprietary one with the GSP disabled (templates/al2023/runtime/gpu/nvidia-kmod-load.sh at v20260714).
- From v20260917 a release bakes two driver trees, an LTS one (580) and a production-branch one (595), and
  `resolve-nvidia-driver.sh` picks at first boot: LTS open when the LTS list names every device, else PB open when
  the PB list does, else LTS proprietary; g4dn, g5 and g5g LTS proprietary (awslabs/amazon-eks-ami#2819, merged
  2026-09-15; templates/al2023/runtime/gpu/resolve-nvidia-driver.sh as stored at 46d3c70a; "The EKS AMIs now include
  two NVIDIA driver versions and select the correct one based on the instance type at first boot", the maintainers
  on awslabs/amazon-eks-ami#2768 naming release v20260917, 2026-09-21).
- The proprietary module does not drive Blackwell GPUs, which need the open modules ("requires use of the NVIDIA
  open kernel modules", the driver's own message on g7 in awslabs/amazon-eks-ami#2769), and 595 no longer drives
  Volta ("Driver 595 is not compatible with P3, P3dn, and G6f instances", doc/usage/g7-ami.md at v20260714), so 580
  is the last branch for the V100.

Bottlerocket's NVIDIA variants install the 580 branch (580.159.03; the r580 and r595 kmods of bottlerocket-kernel-kit
6.2.2, the variants taking r580, as quoted in NVIDIA/aicr#2743 from the EKS user guide). The instance families they
serve are the EKS user guide's table (ml-eks-optimized-ami.md, "Bottlerocket x86_64 aws-k8s-nvidia" and "aarch64/arm64
aws-k8s-nvidia", read 2026-12-04); g7 is not among them and fails to boot (bottlerocket-os/bottlerocket#4889, open
on 2026-12-04: its driver selection picks the proprietary `tesla` driver for 10de:2c3a). EKS Auto Mode runs its own
AMIs and driver (facts/auto_mode.py `GPU_FAMILIES`), its branch not published.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from . import auto_mode
from .gpu_catalog import InstanceType

AS_OF = date(2026, 12, 4)
"""The day the tables below were last read against their sources."""


@dataclass(frozen=True)
class DeviceList:
    """One `nvidia-open-supported-devices-<branch>.txt` as an AMI release ships it: the GPUs of NVIDIA's
    supported-GPU list (`supported-gpus.json` of the driver's runfile) whose features include `kernelopen`.

    Only the catalog's GPUs (facts/gpu_catalog.py `gpu_device_id`) are recorded: a GPU added to the catalog is
    looked up in the list again and its id added here when the list names it."""

    branch: int
    runfile: str
    """The driver runfile the list was generated from (its header line)."""
    devices: frozenset[int]
    """The PCI device ids of the catalog's GPUs the list names."""
    source: str


# awslabs/amazon-eks-ami templates/al2023/runtime/gpu/nvidia-open-supported-devices-580.txt: unchanged from 3cb8b058
# (2025-10-21) through v20260724. It names T4 0x1EB8, A10G 0x2237, L4 0x27B8, L40S 0x26B9, A100 0x20B0 and 0x20B2,
# H100 0x2330, H200 0x2335, B200 0x2901, B300 0x3182 and RTX PRO 6000 Blackwell Server Edition 0x2BB5; not the V100
# (0x1DB5) nor the RTX PRO 4500 Blackwell Server Edition (0x2C3A, g7's GPU: awslabs/amazon-eks-ami#2768, whose fix
# for the 580 list, #2769, was closed unmerged).
OPEN_580 = DeviceList(
    580,
    "NVIDIA-Linux-x86_64-580.82.07.run",
    frozenset({0x1EB8, 0x2237, 0x27B8, 0x26B9, 0x20B0, 0x20B2, 0x2330, 0x2335, 0x2901, 0x3182, 0x2BB5}),
    "awslabs/amazon-eks-ami templates/al2023/runtime/gpu/nvidia-open-supported-devices-580.txt (3cb8b058 to v20260724)",
)
# The 595 list as regenerated from NVIDIA-Linux-x86_64-595.71.05.run (Turing and later; the blob stored at 48853716):
# every GPU of OPEN_580 and g7's 0x2C3A; not the V100.
OPEN_595 = DeviceList(
    595,
    "NVIDIA-Linux-x86_64-595.71.05.run",
    OPEN_580.devices | {0x2C3A},
    "awslabs/amazon-eks-ami templates/al2023/runtime/gpu/nvidia-open-supported-devices-595.txt (595.71.05 revision)",
)

# The architectures each branch's proprietary module drives: the fallback for a GPU no open list names.
PROPRIETARY_ARCHITECTURES = {
    580: frozenset({"Volta", "Turing", "Ampere", "Ada Lovelace", "Hopper"}),
    595: frozenset({"Turing", "Ampere", "Ada Lovelace", "Hopper"}),
}
# Families whose instances always load the LTS proprietary module (their GSP is disabled, only possible there).
GSP_DISABLED_FAMILIES = frozenset({"g4dn", "g5", "g5g"})


@dataclass(frozen=True)
class Al2023Era:
    """The AL2023 NVIDIA AMI releases from `first` (a release tag, `vYYYYMMDD`) until the next era's first."""

    first: str
    lts: DeviceList
    """The branch the AMI falls back to (the only one before the two-tree releases)."""
    production: DeviceList | None
    """The second driver tree, tried when the LTS list does not name the GPU; None for one-branch releases."""
    source: str


AL2023_ERAS = (
    Al2023Era(
        "v20251120",
        OPEN_580,
        None,
        "amazon-eks-ami v20251120 to v20260917: one 580 branch, nvidia-kmod-load.sh (v20260714)",
    ),
    Al2023Era(
        "v20260917",
        OPEN_580,
        OPEN_595,
        "amazon-eks-ami v20260917 and later: LTS 580 and PB 595 trees, resolve-nvidia-driver.sh (#2819)",
    ),
)
AL2023_LATEST = AL2023_ERAS[-1].first
"""The newest release the table knows: what a node group without `releaseVersion` or an `al2023@latest` alias gets
stands for it."""

# The EKS user guide's table of the GPU families each Bottlerocket NVIDIA variant serves (ml-eks-optimized-ami.md).
BOTTLEROCKET_GPU_FAMILIES = frozenset(
    {"p6-b300", "p6-b200", "p5", "p5e", "p5en", "p4d", "p4de", "p3", "p3dn", "g7e", "gr6", "g6", "g6e", "g5", "g4dn"}
    | {"g5g"}
)
BOTTLEROCKET_BRANCH = 580
BOTTLEROCKET_FAILS = {
    0x2C3A: "bottlerocket-os/bottlerocket#4889 (open): the variant picks the proprietary `tesla` driver for g7's GPU, "
    "which needs the open modules, and the node never joins"
}

_RELEASE_DATE = re.compile(r"(?:^v|-)(\d{8})$")


def release_date(release: str) -> str | None:
    """The `YYYYMMDD` of an AL2023 release as an EC2NodeClass alias (`v20260917`) or a node group's `releaseVersion`
    (`1.36.0-20260917`) spells it; None for another spelling."""
    match = _RELEASE_DATE.search(release)
    return match.group(1) if match else None


def al2023_era(release: str | None) -> Al2023Era | None:
    """The era of an AL2023 release; the newest for None or `latest` (EKS's latest); None before the table."""
    if release in (None, "latest"):
        return AL2023_ERAS[-1]
    day = release_date(release)
    if day is None:
        return None
    found = None
    for era in AL2023_ERAS:
        if day >= era.first[1:]:
            found = era
    return found


@dataclass(frozen=True)
class DriverChoice:
    """The driver an AMI loads for one instance type and whether it brings the GPU up."""

    branch: int | None
    """The driver branch, None where the AMI does not publish it (Auto Mode)."""
    flavor: str
    """`open`, `proprietary`, `variant` (Bottlerocket picks it at boot) or `managed` (Auto Mode)."""
    works: bool | None
    """True when the driver initialises the GPU, False when it does not, None when the tables cannot tell."""
    why: str
    """One sentence with the facts and their sources."""


def _gpu(entry: InstanceType) -> str:
    device = f", PCI 10de:{entry.gpu_device_id:04x}" if entry.gpu_device_id is not None else ""
    return f"{entry.name} ({entry.gpu_model}, {entry.gpu_architecture}{device})"


def _al2023(entry: InstanceType, release: str, era: Al2023Era) -> DriverChoice:
    lists = [era.lts] + ([era.production] if era.production else [])
    names = " and ".join(f"the {item.branch} list" for item in lists)
    where = f"AL2023 {release}"
    if entry.family in GSP_DISABLED_FAMILIES:
        works = entry.gpu_architecture in PROPRIETARY_ARCHITECTURES[era.lts.branch]
        why = f"{_gpu(entry)} on {where}: {entry.family} always loads the proprietary {era.lts.branch} module"
        return DriverChoice(era.lts.branch, "proprietary", works, why)
    if entry.gpu_device_id is None:
        why = f"{_gpu(entry)} on {where}: the GPU's device id is not recorded, so {names} cannot be consulted"
        return DriverChoice(None, "open", None, why)
    for item in lists:
        if entry.gpu_device_id in item.devices:
            why = (
                f"{_gpu(entry)} on {where}: named by the {item.branch} list ({item.source}), open {item.branch} module"
            )
            return DriverChoice(item.branch, "open", True, why)
    works = entry.gpu_architecture in PROPRIETARY_ARCHITECTURES[era.lts.branch]
    why = (
        f"{_gpu(entry)} on {where}: not named by {names} ({'; '.join(item.source for item in lists)}), so the AMI "
        f"loads the proprietary {era.lts.branch} module, which "
        + ("drives it" if works else f"does not drive {entry.gpu_architecture} GPUs")
    )
    return DriverChoice(era.lts.branch, "proprietary", works, why)


def driver_for(entry: InstanceType, ami: str, release: str | None) -> DriverChoice:
    """The driver the AMI `ami` (`AL2023`, `Bottlerocket` or `autoMode`) of `release` (None: EKS's latest) loads for
    the GPU instance type `entry`, and whether the GPU comes up."""
    if ami == "AL2023":
        era = al2023_era(release)
        spelled = release or f"latest ({AL2023_LATEST} or later)"
        if era is None:
            why = f"{entry.name} on AL2023 {release}: a release before {AL2023_ERAS[0].first}, not in the driver table"
            return DriverChoice(None, "open", None, why)
        return _al2023(entry, spelled if release in (None, "latest") else release, era)
    if ami == "Bottlerocket":
        where = f"{_gpu(entry)} on Bottlerocket {release or 'latest'}"
        if entry.gpu_device_id in BOTTLEROCKET_FAILS:
            return DriverChoice(
                BOTTLEROCKET_BRANCH, "proprietary", False, f"{where}: {BOTTLEROCKET_FAILS[entry.gpu_device_id]}"
            )
        served = entry.family in BOTTLEROCKET_GPU_FAMILIES
        why = f"{where}: " + (
            f"a family the NVIDIA variants serve (EKS user guide), driver {BOTTLEROCKET_BRANCH}"
            if served
            else "not a family the NVIDIA variants serve (EKS user guide, ml-eks-optimized-ami)"
        )
        return DriverChoice(BOTTLEROCKET_BRANCH, "variant", served or None, why)
    if ami == "autoMode":
        served = entry.family in auto_mode.GPU_FAMILIES
        why = f"{_gpu(entry)} on EKS Auto Mode: " + (
            "a family Auto Mode launches, with the driver AWS installs"
            if served
            else "not a family Auto Mode launches (automode-learn-instances)"
        )
        return DriverChoice(None, "managed", served, why)
    return DriverChoice(None, "open", None, f"{entry.name} on a {ami} AMI: its driver is not in the table")
