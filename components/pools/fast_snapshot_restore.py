"""EBS Fast Snapshot Restore for the GPU pools' image snapshots (`fastSnapshotRestore: true`): one
`aws.ebs.FastSnapshotRestore` per snapshot and zone the GPU nodes may launch in, so the plan's count of an image
restored initialized (facts/cold_start.py) is a resource the stack registers, priced per snapshot and zone-hour in
the cost section; the pools that use a snapshot wait for it (their node class or launch template).

The zones are the stack's network's (its private subnets', by zone ID, named through the region's zone list:
`aws.ebs.FastSnapshotRestore` takes a zone's name, pulumi-aws 7.51.1 `ebs/fast_snapshot_restore.py`) or those of the
private subnets the stack is given, looked up one by one. A default VPC's subnets are known only at deploy, so the
settings refuse the switch there (settings/stack.py). A restore is optimized at "60 minutes per TiB" (Amazon EBS
User Guide, "Check the fast snapshot restore state", read 2026-12-04): an image volume of a few hundred GiB at
most, so the resource's create timeout (its own `timeouts` input) is an hour.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pulumi
import pulumi_aws as aws

CREATE_TIMEOUT = "60m"


def zone_names(settings: Any, network: Any) -> list[pulumi.Output[str]]:
    """The name of each zone the GPU nodes may launch in, in the order of the stack's private subnets."""
    if network is not None:
        listed = aws.get_availability_zones_output(state="available")
        names_by_id = pulumi.Output.all(listed.zone_ids, listed.names).apply(
            lambda parts: dict(zip(parts[0], parts[1], strict=True))
        )
        zones = pulumi.Output.all(network.availability_zones, names_by_id).apply(
            lambda parts: [parts[1][zone_id] for zone_id in parts[0]]
        )
        return [zones.apply(_item(index)) for index in range(settings.network.zone_count)]
    return [
        aws.ec2.get_subnet_output(id=subnet_id).availability_zone for subnet_id in settings.cluster.private_subnet_ids
    ]


def register_fast_snapshot_restores(
    cluster_name: str, snapshot_ids: list[str], zones: list[pulumi.Output[str]]
) -> dict[str, list[pulumi.Resource]]:
    """One restore per snapshot and zone; the restores of each snapshot, for its pools to wait for."""
    restores: dict[str, list[pulumi.Resource]] = {}
    for snapshot_id in dict.fromkeys(snapshot_ids):
        restores[snapshot_id] = [
            aws.ebs.FastSnapshotRestore(
                f"{cluster_name}-fsr-{snapshot_id}-{index}",
                snapshot_id=snapshot_id,
                availability_zone=zone,
                timeouts={"create": CREATE_TIMEOUT},
            )
            for index, zone in enumerate(zones)
        ]
    return restores


def _item(index: int) -> Callable[[list[str]], str]:
    return lambda names: names[index]
