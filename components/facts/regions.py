"""AWS regions and their availability zones: where EKS runs, in which partition, and which zones a region has.

Regions come from the endpoint data botocore bundles (`botocore/data/endpoints.json`, botocore 1.44.8 as
pinned in requirements.txt): a region is one where that data lists an EKS endpoint, and its partition is
the partition listing it (`aws`, `aws-cn`, `aws-us-gov`, ...). The file is read as data on first use, never
at import, as `eks_model` reads the EKS model.

Zones are not in botocore. `ZONES` is a dated table (checked 2026-12-01) of each region's zone names and
zone IDs: for the commercial regions, one account's `DescribeAvailabilityZones` answers as committed in
networknext/next (`terraform/prod/relays/amazon/generated.tf`, commit b4efefc, 2026-03-12); for China and
GovCloud, the zone IDs the AWS docs list per region (Amazon EMR Serverless user guide, "Endpoints and
quotas"; Amazon MemoryDB developer guide, "Subnets and subnet groups"; WorkSpaces administration guide,
"Availability Zones for WorkSpaces Personal"). In the oldest regions the name a zone has differs from
account to account (AWS Regions and Availability Zones guide, "AZ IDs"), so names and IDs are each checked
against the region's set and their pairing here only feeds the offline mocks. A region botocore knows but
this table does not (`ap-east-2`, the isolated partitions) is accepted with its zones checked at deploy.
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import os
from functools import cache, lru_cache

from .zones import EKS_UNSUPPORTED_ZONE_IDS, Zone

BOTOCORE_VERSION = "1.44.8"
"""The botocore release whose endpoint data the regions were last compared with (tests/settings/test_regions.py)."""
ZONES_CHECKED = "2026-12-01"

ZONES: dict[str, tuple[Zone, ...]] = {
    "af-south-1": (Zone("af-south-1a", "afs1-az1"), Zone("af-south-1b", "afs1-az2"), Zone("af-south-1c", "afs1-az3")),
    "ap-east-1": (Zone("ap-east-1a", "ape1-az1"), Zone("ap-east-1b", "ape1-az2"), Zone("ap-east-1c", "ape1-az3")),
    "ap-northeast-1": (
        Zone("ap-northeast-1a", "apne1-az4"),
        Zone("ap-northeast-1c", "apne1-az1"),
        Zone("ap-northeast-1d", "apne1-az2"),
    ),
    "ap-northeast-2": (
        Zone("ap-northeast-2a", "apne2-az1"),
        Zone("ap-northeast-2b", "apne2-az2"),
        Zone("ap-northeast-2c", "apne2-az3"),
        Zone("ap-northeast-2d", "apne2-az4"),
    ),
    "ap-northeast-3": (
        Zone("ap-northeast-3a", "apne3-az3"),
        Zone("ap-northeast-3b", "apne3-az1"),
        Zone("ap-northeast-3c", "apne3-az2"),
    ),
    "ap-south-1": (Zone("ap-south-1a", "aps1-az1"), Zone("ap-south-1b", "aps1-az3"), Zone("ap-south-1c", "aps1-az2")),
    "ap-south-2": (Zone("ap-south-2a", "aps2-az1"), Zone("ap-south-2b", "aps2-az2"), Zone("ap-south-2c", "aps2-az3")),
    "ap-southeast-1": (
        Zone("ap-southeast-1a", "apse1-az1"),
        Zone("ap-southeast-1b", "apse1-az2"),
        Zone("ap-southeast-1c", "apse1-az3"),
    ),
    "ap-southeast-2": (
        Zone("ap-southeast-2a", "apse2-az1"),
        Zone("ap-southeast-2b", "apse2-az3"),
        Zone("ap-southeast-2c", "apse2-az2"),
    ),
    "ap-southeast-3": (
        Zone("ap-southeast-3a", "apse3-az1"),
        Zone("ap-southeast-3b", "apse3-az2"),
        Zone("ap-southeast-3c", "apse3-az3"),
    ),
    "ap-southeast-4": (
        Zone("ap-southeast-4a", "apse4-az1"),
        Zone("ap-southeast-4b", "apse4-az2"),
        Zone("ap-southeast-4c", "apse4-az3"),
    ),
    "ap-southeast-5": (
        Zone("ap-southeast-5a", "apse5-az1"),
        Zone("ap-southeast-5b", "apse5-az2"),
        Zone("ap-southeast-5c", "apse5-az3"),
    ),
    "ap-southeast-6": (
        Zone("ap-southeast-6a", "apse6-az1"),
        Zone("ap-southeast-6b", "apse6-az2"),
        Zone("ap-southeast-6c", "apse6-az3"),
    ),
    "ap-southeast-7": (
        Zone("ap-southeast-7a", "apse7-az1"),
        Zone("ap-southeast-7b", "apse7-az2"),
        Zone("ap-southeast-7c", "apse7-az3"),
    ),
    "ca-central-1": (
        Zone("ca-central-1a", "cac1-az1"),
        Zone("ca-central-1b", "cac1-az2"),
        Zone("ca-central-1d", "cac1-az4"),
    ),
    "ca-west-1": (Zone("ca-west-1a", "caw1-az1"), Zone("ca-west-1b", "caw1-az2"), Zone("ca-west-1c", "caw1-az3")),
    "cn-north-1": (Zone("cn-north-1a", "cnn1-az1"), Zone("cn-north-1b", "cnn1-az2")),
    "cn-northwest-1": (
        Zone("cn-northwest-1a", "cnnw1-az1"),
        Zone("cn-northwest-1b", "cnnw1-az2"),
        Zone("cn-northwest-1c", "cnnw1-az3"),
    ),
    "eu-central-1": (
        Zone("eu-central-1a", "euc1-az2"),
        Zone("eu-central-1b", "euc1-az3"),
        Zone("eu-central-1c", "euc1-az1"),
    ),
    "eu-central-2": (
        Zone("eu-central-2a", "euc2-az1"),
        Zone("eu-central-2b", "euc2-az2"),
        Zone("eu-central-2c", "euc2-az3"),
    ),
    "eu-north-1": (Zone("eu-north-1a", "eun1-az1"), Zone("eu-north-1b", "eun1-az2"), Zone("eu-north-1c", "eun1-az3")),
    "eu-south-1": (Zone("eu-south-1a", "eus1-az1"), Zone("eu-south-1b", "eus1-az2"), Zone("eu-south-1c", "eus1-az3")),
    "eu-south-2": (Zone("eu-south-2a", "eus2-az1"), Zone("eu-south-2b", "eus2-az2"), Zone("eu-south-2c", "eus2-az3")),
    "eu-west-1": (Zone("eu-west-1a", "euw1-az2"), Zone("eu-west-1b", "euw1-az3"), Zone("eu-west-1c", "euw1-az1")),
    "eu-west-2": (Zone("eu-west-2a", "euw2-az2"), Zone("eu-west-2b", "euw2-az3"), Zone("eu-west-2c", "euw2-az1")),
    "eu-west-3": (Zone("eu-west-3a", "euw3-az1"), Zone("eu-west-3b", "euw3-az2"), Zone("eu-west-3c", "euw3-az3")),
    "il-central-1": (
        Zone("il-central-1a", "ilc1-az1"),
        Zone("il-central-1b", "ilc1-az2"),
        Zone("il-central-1c", "ilc1-az3"),
    ),
    "me-central-1": (
        Zone("me-central-1a", "mec1-az1"),
        Zone("me-central-1b", "mec1-az2"),
        Zone("me-central-1c", "mec1-az3"),
    ),
    "me-south-1": (Zone("me-south-1a", "mes1-az1"), Zone("me-south-1b", "mes1-az2"), Zone("me-south-1c", "mes1-az3")),
    "mx-central-1": (
        Zone("mx-central-1a", "mxc1-az1"),
        Zone("mx-central-1b", "mxc1-az2"),
        Zone("mx-central-1c", "mxc1-az3"),
    ),
    "sa-east-1": (Zone("sa-east-1a", "sae1-az1"), Zone("sa-east-1b", "sae1-az2"), Zone("sa-east-1c", "sae1-az3")),
    "us-east-1": (
        Zone("us-east-1a", "use1-az4"),
        Zone("us-east-1b", "use1-az6"),
        Zone("us-east-1c", "use1-az1"),
        Zone("us-east-1d", "use1-az2"),
        Zone("us-east-1e", "use1-az3"),
        Zone("us-east-1f", "use1-az5"),
    ),
    "us-east-2": (Zone("us-east-2a", "use2-az1"), Zone("us-east-2b", "use2-az2"), Zone("us-east-2c", "use2-az3")),
    "us-gov-east-1": (
        Zone("us-gov-east-1a", "usge1-az1"),
        Zone("us-gov-east-1b", "usge1-az2"),
        Zone("us-gov-east-1c", "usge1-az3"),
    ),
    "us-gov-west-1": (
        Zone("us-gov-west-1a", "usgw1-az1"),
        Zone("us-gov-west-1b", "usgw1-az2"),
        Zone("us-gov-west-1c", "usgw1-az3"),
    ),
    "us-west-1": (Zone("us-west-1a", "usw1-az1"), Zone("us-west-1c", "usw1-az3")),
    "us-west-2": (
        Zone("us-west-2a", "usw2-az2"),
        Zone("us-west-2b", "usw2-az1"),
        Zone("us-west-2c", "usw2-az3"),
        Zone("us-west-2d", "usw2-az4"),
    ),
}


def _botocore_data(file_name: str) -> dict:
    spec = importlib.util.find_spec("botocore")
    if spec is None or spec.origin is None:
        raise RuntimeError("botocore is not installed; it provides the AWS endpoint data (see requirements.txt)")
    with open(os.path.join(os.path.dirname(spec.origin), "data", file_name), encoding="utf-8") as data_file:
        return json.load(data_file)


@lru_cache(maxsize=1)
def eks_regions() -> dict[str, str]:
    """Every region where botocore's endpoint data lists EKS, with its partition (`us-west-2` -> `aws`).

    FIPS aliases (`fips-us-east-1`) are endpoints of another region, not regions, and are left out.
    """
    regions: dict[str, str] = {}
    for partition in _botocore_data("endpoints.json")["partitions"]:
        endpoints = partition["services"].get("eks", {}).get("endpoints", {})
        for region in partition["regions"]:
            if region in endpoints:
                regions[region] = partition["partition"]
    return dict(sorted(regions.items()))


@cache
def service_regions(service: str) -> dict[str, str]:
    """Every region where botocore's endpoint data lists `service` (its endpoint prefix, such as `aps` for Amazon
    Managed Service for Prometheus), with its partition; FIPS endpoints (`us-east-1-fips`) are no regions."""
    regions: dict[str, str] = {}
    for partition in _botocore_data("endpoints.json")["partitions"]:
        for region in partition["services"].get(service, {}).get("endpoints", {}):
            if region in partition["regions"]:
                regions[region] = partition["partition"]
    return dict(sorted(regions.items()))


@lru_cache(maxsize=1)
def _all_regions() -> set[str]:
    """Every region botocore names, with EKS or without (`partitions.json` also lists announced ones)."""
    return {
        region
        for partition in _botocore_data("partitions.json")["partitions"]
        for region in partition["regions"]
        if not region.endswith("-global")
    }


def dns_suffix(partition: str) -> str:
    """The DNS suffix of `partition`'s endpoints (`amazonaws.com.cn` in `aws-cn`), from botocore's data."""
    for entry in _botocore_data("partitions.json")["partitions"]:
        if entry["id"] == partition:
            return str(entry["outputs"]["dnsSuffix"])
    raise ValueError(f"unknown partition {partition!r}")


def region_problem(region: str) -> str | None:
    """Why `region` is no EKS region, with the nearest ones, or None when it is one."""
    regions = eks_regions()
    if region in regions:
        return None
    if region[:-1] in regions and region[-1:].isalpha():
        return f"{region!r} is a zone, not a region; allowed: its region {region[:-1]!r}"
    if region in _all_regions():
        return f"{region!r} has no EKS endpoint in botocore {BOTOCORE_VERSION}'s endpoint data; allowed: {_nearest(region)}"
    return f"unknown region {region!r}; did you mean {_nearest(region)}? allowed: a region where EKS runs"


def _nearest(region: str) -> str:
    close = difflib.get_close_matches(region.strip().lower(), list(eks_regions()), n=3, cutoff=0.0)
    return " or ".join(repr(name) for name in close)


def region_zones(region: str) -> tuple[Zone, ...] | None:
    """The zones of `region` in the dated table, or None when the table does not know the region."""
    return ZONES.get(region)


def eks_zones(region: str) -> tuple[Zone, ...] | None:
    """The zones of `region` that can hold EKS control-plane subnets, in zone-ID order (None: unknown)."""
    zones = ZONES.get(region)
    if zones is None:
        return None
    return tuple(sorted((zone for zone in zones if zone.zone_id not in EKS_UNSUPPORTED_ZONE_IDS), key=_by_id))


def _by_id(zone: Zone) -> str:
    return zone.zone_id


def aws_managed_policy_arn(partition: str, name: str) -> str:
    """The ARN of an AWS managed IAM policy in `partition` (`arn:aws-cn:iam::aws:policy/<name>` in China)."""
    return f"arn:{partition}:iam::aws:policy/{name}"


def eks_access_policy_arn(partition: str, name: str) -> str:
    """The ARN of an EKS access policy in `partition` (EKS user guide, "Review access policy permissions")."""
    return f"arn:{partition}:eks::aws:cluster-access-policy/{name}"
