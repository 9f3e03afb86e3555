"""Availability zones and subnet ranges of the stack's VPC: pure functions the `Network` component uses.

Zone choice and address plan are plain data, so they are tested without Pulumi and shared by the
settings (which refuse unsupported zones early) and the component (which applies them to the zones
the region reports).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

# Zone IDs where EKS places no control-plane network interfaces; subnets there make CreateCluster fail
# with UnsupportedAvailabilityZoneException. Source: EKS user guide, "View Amazon EKS networking
# requirements for VPC and subnets", section "Subnet requirements for clusters" (checked 2026-12-01).
EKS_UNSUPPORTED_ZONE_IDS = ("use1-az3", "usw1-az2", "cac1-az3")
# Each zone's private subnet is an eighth of the VPC (/19 of a /16): slots 0-5 hold up to six zones'
# private subnets, slot 6 stays free for growth, and slot 7 is cut into eighths for the public subnets.
_PRIVATE_SPLIT_BITS = 3
_PUBLIC_SLOT = 7
_PUBLIC_SPLIT_BITS = 3


@dataclass(frozen=True)
class Zone:
    """An availability zone: its name in this account (`us-west-2a`) and its ID, the same for everyone."""

    name: str
    zone_id: str


@dataclass(frozen=True)
class SubnetRanges:
    """The CIDR blocks of one zone's subnets."""

    private: str
    public: str


def subnet_ranges(vpc_cidr: str, zone_count: int) -> list[SubnetRanges]:
    """One private and one public CIDR block per zone, none overlapping, all inside `vpc_cidr`."""
    vpc = ipaddress.IPv4Network(vpc_cidr)
    slots = list(vpc.subnets(prefixlen_diff=_PRIVATE_SPLIT_BITS))
    if zone_count > _PUBLIC_SLOT - 1:
        raise ValueError(f"{zone_count} zones; at most {_PUBLIC_SLOT - 1} fit the address plan")
    public = list(slots[_PUBLIC_SLOT].subnets(prefixlen_diff=_PUBLIC_SPLIT_BITS))
    return [SubnetRanges(str(slots[index]), str(public[index])) for index in range(zone_count)]


def choose_zones(
    available: list[Zone], count: int, *, gpu_zone_ids: set[str] | None = None, pinned: list[str] | None = None
) -> list[Zone]:
    """The `count` zones to use, in zone-ID order, never one EKS does not support.

    `pinned` (names or IDs) are taken as given. Otherwise zones that offer the GPU instance types
    (`gpu_zone_ids`, when known) come first, then the others, each group in zone-ID order; ordering by
    ID keeps the choice the same for every account and every run.
    """
    usable = sorted(
        (zone for zone in available if zone.zone_id not in EKS_UNSUPPORTED_ZONE_IDS), key=lambda zone: zone.zone_id
    )
    if pinned:
        by_key = {key: zone for zone in usable for key in (zone.name, zone.zone_id)}
        missing = [key for key in pinned if key not in by_key]
        if missing:
            raise ValueError(
                f"network.availabilityZones: {missing} not among the region's usable zones "
                f"{[zone.name for zone in usable]}"
            )
        chosen = {by_key[key].zone_id: by_key[key] for key in pinned}
        if len(chosen) != len(pinned):
            raise ValueError(
                f"network.availabilityZones: {pinned} names one zone twice (by name and by ID); allowed: each zone once"
            )
        return sorted(chosen.values(), key=lambda zone: zone.zone_id)
    if len(usable) < count:
        raise ValueError(
            f"network.azCount: {count} zones asked for, the region offers {len(usable)} that EKS "
            f"supports ({[zone.name for zone in usable]}); allowed: at most {len(usable)}"
        )
    offered = gpu_zone_ids or set()
    preferred = [zone for zone in usable if zone.zone_id in offered] + [
        zone for zone in usable if zone.zone_id not in offered
    ]
    return sorted(preferred[:count], key=lambda zone: zone.zone_id)
