"""Settings of the VPC the stack creates when `cluster.vpcId` is not set (`network`), components/cluster/network.py."""

from __future__ import annotations

import ipaddress
import re
from typing import Annotated, Literal

from pydantic import AfterValidator

from ..facts.regions import ZONES_CHECKED, eks_zones, region_zones
from ..facts.zones import EKS_UNSUPPORTED_ZONE_IDS
from .errors import ConfigProblem, _bad
from .fields import each_once, rule
from .section import SectionModel

# A VPC of /16 (AWS's largest) to /20: a zone's private subnet is an eighth of it, /23 at the smallest.
MIN_VPC_PREFIX = 16
MAX_VPC_PREFIX = 20
MAX_AZ_COUNT = 6
_ZONE_NAME = re.compile(r"^[a-z]{2}(-[a-z]+)+-\d[a-z]$")
_ZONE_ID = re.compile(r"^[a-z]{3,5}\d-az\d{1,2}$")


def _vpc_cidr(value: str) -> str:
    allowed = f"an IPv4 CIDR block from /{MIN_VPC_PREFIX} to /{MAX_VPC_PREFIX}, such as 10.0.0.0/16"
    try:
        network = ipaddress.IPv4Network(value, strict=True)
    except ValueError:
        raise _bad(value, allowed, "invalid CIDR") from None
    if not MIN_VPC_PREFIX <= network.prefixlen <= MAX_VPC_PREFIX:
        raise _bad(value, allowed, "VPC size out of range:")
    return value


def _zone(zone: str) -> str:
    if not (_ZONE_NAME.match(zone) or _ZONE_ID.match(zone)):
        raise _bad(zone, "zone names such as us-west-2a or zone IDs such as usw2-az1", "invalid zone")
    if zone in EKS_UNSUPPORTED_ZONE_IDS:
        raise _bad(
            zone,
            f"zones other than {', '.join(EKS_UNSUPPORTED_ZONE_IDS)}, where EKS places no control plane",
            "unsupported zone",
        )
    return zone


Zones = Annotated[
    list[Annotated[str, AfterValidator(_zone)]],
    each_once("zone", "duplicate zones in"),
    rule(
        lambda zones: not zones or 2 <= len(zones) <= MAX_AZ_COUNT,
        f"2-{MAX_AZ_COUNT} zones (EKS needs subnets in two zones)",
        "wrong number of zones:",
    ),
]


class NetworkSettings(SectionModel):
    """The VPC the stack creates when `cluster.vpcId` is not set (`network`)."""

    mode: Literal["create", "defaultVpc"] = "create"
    """`create` a dedicated VPC with private node subnets, or use the account's `defaultVpc` (public subnets: every
    node gets a public IP; for throwaway tests only, and a warning says so)."""
    cidr: Annotated[str, AfterValidator(_vpc_cidr)] = "10.0.0.0/16"
    """IPv4 range of the VPC, /16 to /20: each zone gets a private subnet of an eighth of it for nodes and pods,
    and a smaller public one for NAT and load balancers."""
    az_count: Annotated[
        int, rule(lambda count: 2 <= count <= MAX_AZ_COUNT, f"2-{MAX_AZ_COUNT} (EKS needs subnets in two zones)")
    ] = 3
    """Availability zones to spread over, 2-6 (EKS needs two) and at most as many as the region has; left out in
    a region with fewer zones than the default, all of them."""
    availability_zones: Zones = []
    """2-6 zones to use, by name (`us-west-2a`) or ID (`usw2-az1`), each once, not `use1-az3`, `usw1-az2` or
    `cac1-az3` (EKS places no control plane there); their number sets the zone count. Default: chosen from the
    region, preferring zones that offer the GPU instance types."""
    nat_gateways: Literal["single", "perAz"] = "single"
    """`single` NAT gateway for all zones (cheaper; a zone outage cuts the others' egress), or one per zone
    (`perAz`)."""
    interface_endpoints: bool = False
    """Also create interface endpoints for ECR, STS and EKS Auth, so nodes reach them without NAT (each costs
    per hour and zone). An S3 gateway endpoint (free) is always created."""

    def problems(self) -> list[ConfigProblem]:
        if (
            self.availability_zones
            and "az_count" in self.model_fields_set
            and self.az_count != len(self.availability_zones)
        ):
            return [
                ConfigProblem(
                    "azCount",
                    f"{self.az_count!r} but availabilityZones lists "
                    f"{len(self.availability_zones)}; allowed: leave azCount out, or match the list",
                )
            ]
        return []

    @property
    def zone_count(self) -> int:
        return len(self.availability_zones) or self.az_count


def region_zone_problems(network: NetworkSettings, region: str) -> list[ConfigProblem]:
    """`azCount` and `availabilityZones` against the zones `region` has (facts/regions.py), keys inside the
    network section, one problem per bad value; none when the zone table does not know the region.

    A zone name is checked against the region's names and a zone ID against its IDs that EKS supports: in
    the oldest regions a name points at a different zone in each account, so which ID a name has is left
    to the deployment's own lookup.
    """
    usable = eks_zones(region)
    every = region_zones(region)
    if usable is None or every is None:
        return []
    listing = ", ".join(f"{zone.name} ({zone.zone_id})" for zone in usable)
    source = f"zone table of {ZONES_CHECKED}"
    problems = []
    if network.availability_zones:
        names = {zone.name for zone in every}
        ids = {zone.zone_id for zone in usable}
        for zone in network.availability_zones:
            if zone in EKS_UNSUPPORTED_ZONE_IDS or zone in names or zone in ids:
                continue
            problems.append(
                ConfigProblem(
                    "availabilityZones",
                    f"{zone!r} is not a zone of {region} that EKS supports ({source}); allowed: {listing}",
                )
            )
    elif network.az_count > len(usable):
        problems.append(
            ConfigProblem(
                "azCount",
                f"{network.az_count!r} but {region} has {len(usable)} zones that EKS supports ({listing}; "
                f"{source}); allowed: {'2' if len(usable) == 2 else f'2-{len(usable)}'}",
            )
        )
    return problems


def for_region(network: NetworkSettings, region: str) -> NetworkSettings:
    """`network` with the default zone count lowered to what `region` offers when it offers fewer (two zones
    in us-west-1 and cn-north-1); a count the user wrote is left as written, for `region_zone_problems`."""
    usable = eks_zones(region)
    if usable is None or network.availability_zones or "az_count" in network.model_fields_set:
        return network
    if 2 <= len(usable) < network.az_count:
        return network.model_copy(update={"az_count": len(usable)})
    return network
