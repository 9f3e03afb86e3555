"""Checks on the network a stack registers: nodes only in private subnets of the stack's own VPC, and a
control plane with subnets in at least two availability zones.

Runs on the registered inputs, so it sees what `pulumi up` would send. When the stack creates no VPC (it
brings its own, or uses the default one), there is nothing of its own to check and no problem is reported.
"""

from __future__ import annotations

from typing import Any

from ...facts.resource_types import CLUSTER_TYPES, NODE_GROUP, SUBNET, VPC

# The tag that marks a private subnet (components/cluster/network.py): internal load balancers go there.
PRIVATE_SUBNET_TAG = "kubernetes.io/role/internal-elb"


def network_problems(resources: list[Any]) -> list[str]:
    """Every way the registered node groups and control plane miss the network rules, one line each."""
    vpc_ids = {resource.id for resource in resources if resource.type == VPC}
    if not vpc_ids:
        return []
    subnets = {resource.id: resource for resource in resources if resource.type == SUBNET}
    private = {
        subnet_id
        for subnet_id, subnet in subnets.items()
        if PRIVATE_SUBNET_TAG in (subnet.inputs.get("tags") or {}) and subnet.inputs.get("vpcId") in vpc_ids
    }
    problems = []
    for group in (resource for resource in resources if resource.type == NODE_GROUP):
        outside = [subnet_id for subnet_id in group.inputs.get("subnetIds") or [] if subnet_id not in private]
        if outside:
            problems.append(
                f"node group {group.name!r} uses subnets {outside} that are not private subnets of the "
                "stack's VPC; nodes there get public addresses or no route; allowed: the private subnets"
            )
        if not group.inputs.get("subnetIds"):
            problems.append(f"node group {group.name!r} has no subnets")
    for cluster in (resource for resource in resources if resource.type in CLUSTER_TYPES):
        given = [
            *(cluster.inputs.get("privateSubnetIds") or []),
            *(cluster.inputs.get("publicSubnetIds") or []),
            *(cluster.inputs.get("subnetIds") or []),
        ]
        zones = {subnets[subnet_id].inputs.get("availabilityZoneId") for subnet_id in given if subnet_id in subnets}
        if len(zones - {None}) < 2:
            problems.append(
                f"cluster {cluster.name!r} reaches subnets in {len(zones - {None})} availability zone(s) "
                f"{sorted(zones - {None})}; EKS needs subnets in at least two zones for the control plane"
            )
    return problems
