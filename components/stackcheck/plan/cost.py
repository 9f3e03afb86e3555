"""The plan's cost estimate: what the registered resources cost an hour and a month, from `facts/prices.py`.

The estimate reads what the program registered, not the stack config, so it prices any number of node groups:
each EKS node group at its `minSize`, `desiredSize` and `maxSize`, and the fixed costs that run whatever the
traffic (the control plane, NAT gateways and their public addresses, interface endpoints in each of their zones). The "idle floor" is the
fixed costs and every pool at `minSize`: what the stack costs with no traffic once the autoscaler has scaled in.
Data processed, EBS volumes, load balancers and log storage are billed by use and not counted. Anything the
price table has no price for is listed as not priced, and totals are then lower bounds.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from ...facts import prices, versions
from ...facts.eks_node import DEFAULT_CAPACITY_TYPE
from ...facts.resource_types import (
    CLUSTER_TYPES,
    EIP,
    EKS_CLUSTER,
    KARPENTER_NODE_POOL,
    NAT_GATEWAY,
    NODE_GROUP,
    VPC_ENDPOINT,
)

if TYPE_CHECKING:  # the runtime loads the Pulumi SDK; the report imports this module for any plan
    from ..runtime import RegisteredResource

SIZES = ("min", "desired", "max")
"""The sizes every pool and total is given at."""
# The EKS API's default when a cluster sets no upgradePolicy.supportType (botocore eks 2017-11-01
# UpgradePolicyRequest: "The default value is EXTENDED").
DEFAULT_SUPPORT_TYPE = "EXTENDED"


@dataclass(frozen=True)
class PoolCost:
    """One node group: its nodes' price and the monthly cost at each size (None when not priced)."""

    name: str
    instance_type: str
    capacity_type: str
    sizes: dict[str, int]
    """Node counts at `min`, `desired` and `max`."""
    usd_per_node_hour: float | None
    not_priced: str = ""
    """Why the pool has no price, when it has none."""

    def monthly(self, size: str) -> float | None:
        """The pool's cost a month at `size`, or None when not priced."""
        if self.usd_per_node_hour is None:
            return None
        return self.usd_per_node_hour * self.sizes[size] * prices.HOURS_PER_MONTH


@dataclass(frozen=True)
class FixedCost:
    """A charge that runs whatever the traffic: `count` units of one hourly price."""

    item: str
    count: int
    usd_per_unit_hour: float | None
    not_priced: str = ""

    @property
    def monthly(self) -> float | None:
        return None if self.usd_per_unit_hour is None else self.usd_per_unit_hour * self.count * prices.HOURS_PER_MONTH


@dataclass
class CostEstimate:
    """The stack's cost: per pool, the fixed costs, and the totals at each size."""

    region: str
    pools: list[PoolCost] = field(default_factory=list)
    fixed: list[FixedCost] = field(default_factory=list)
    spot_discount: float | None = None
    budget: float | None = None
    """`cost.maxMonthlyUsd`, when the stack sets one."""

    def total(self, size: str) -> float:
        """Every priced pool at `size` and the priced fixed costs, a month (a lower bound when `not_priced`)."""
        pools = sum(cost for pool in self.pools if (cost := pool.monthly(size)) is not None)
        return pools + sum(item.monthly for item in self.fixed if item.monthly is not None)

    @property
    def not_priced(self) -> list[str]:
        """What the totals leave out, one line each, naming the pool or item and why."""
        return [f"{pool.name}: {pool.not_priced}" for pool in self.pools if pool.not_priced] + [
            f"{item.item}: {item.not_priced}" for item in self.fixed if item.not_priced
        ]

    def to_dict(self) -> dict[str, Any]:
        """The JSON document's `cost`: prices per hour, costs per month (730 hours), in US dollars."""
        return {
            "region": self.region,
            "currency": "USD",
            "hoursPerMonth": prices.HOURS_PER_MONTH,
            "spotDiscount": self.spot_discount,
            "maxMonthlyUsd": self.budget,
            "pools": [
                {
                    "name": pool.name,
                    "instanceType": pool.instance_type,
                    "capacityType": pool.capacity_type,
                    "nodes": dict(pool.sizes),
                    "usdPerNodeHour": pool.usd_per_node_hour,
                    "monthlyUsd": {size: _rounded(pool.monthly(size)) for size in SIZES},
                    "notPriced": pool.not_priced or None,
                }
                for pool in self.pools
            ],
            "fixed": [
                {
                    "item": item.item,
                    "count": item.count,
                    "usdPerUnitHour": item.usd_per_unit_hour,
                    "monthlyUsd": _rounded(item.monthly),
                    "notPriced": item.not_priced or None,
                }
                for item in self.fixed
            ],
            "monthlyUsd": {size: _rounded(self.total(size)) for size in SIZES},
            "idleFloorMonthlyUsd": _rounded(self.total("min")),
            "notPriced": self.not_priced,
            "sources": _sources(),
        }


def estimate(
    resources: list[RegisteredResource],
    region: str,
    partition: str,
    spot_discount: float | None = None,
    budget: float | None = None,
    today: date | None = None,
) -> CostEstimate:
    """The cost of what `resources` registers in `region`, with Spot nodes at `spot_discount` off on-demand."""
    result = CostEstimate(region, spot_discount=spot_discount, budget=budget)
    by_urn = {resource.urn: resource for resource in resources}
    clusters = 0
    extended = False
    for resource in resources:
        if resource.type == NODE_GROUP:
            result.pools.append(_pool(resource, region, spot_discount))
        elif resource.type == KARPENTER_NODE_POOL:
            result.pools.append(_node_pool(resource, region, spot_discount))
        elif resource.type in CLUSTER_TYPES and not _inside_cluster_component(resource, by_urn):
            clusters += 1
            extended = extended or _extended_support(resource.inputs, today or versions.today())
    if clusters:
        price = prices.control_plane(partition, extended)
        label = "EKS control plane" + (" (extended support)" if extended else "")
        result.fixed.append(_fixed(label, clusters, price, f"no EKS price for the {partition} partition"))
    nat = sum(1 for resource in resources if resource.type == NAT_GATEWAY)
    if nat:
        result.fixed.append(_fixed("NAT gateway", nat, prices.nat_gateway(region), f"no price in {region}"))
    addresses = sum(1 for resource in resources if resource.type == EIP)
    if addresses:
        price = prices.public_ipv4(partition)
        result.fixed.append(
            _fixed("public IPv4 address (Elastic IP)", addresses, price, f"no price for the {partition} partition")
        )
    # An interface endpoint is billed in each zone it has a subnet in (AWS PrivateLink pricing); gateway
    # endpoints (S3) cost nothing.
    zones = sum(
        len(resource.inputs.get("subnetIds") or ())
        for resource in resources
        if resource.type == VPC_ENDPOINT and resource.inputs.get("vpcEndpointType") == "Interface"
    )
    if zones:
        price = prices.interface_endpoint(region)
        result.fixed.append(_fixed("interface endpoint (per zone)", zones, price, f"no price in {region}"))
    return result


def _pool(resource: RegisteredResource, region: str, spot_discount: float | None) -> PoolCost:
    from .pools import EKS_DEFAULT_INSTANCE_TYPE

    inputs = resource.inputs
    scaling = inputs.get("scalingConfig") or {}
    sizes = {size: int(scaling.get(f"{size}Size") or 0) for size in SIZES}
    # EKS fills On-Demand capacity of a group with several types in the order given (EKS user guide, "Managed
    # node groups", capacity types; quoted in cloudposse/terraform-aws-eks-node-group#135): the first type is
    # priced. Spot capacity goes to whichever type the allocation strategy picks, so the dearest is priced.
    instance_types = list(inputs.get("instanceTypes") or [EKS_DEFAULT_INSTANCE_TYPE])
    instance_type = instance_types[0]
    capacity = inputs.get("capacityType") or DEFAULT_CAPACITY_TYPE
    name = inputs.get("nodeGroupName") or resource.name
    price: prices.Price | None = None
    why = ""
    if capacity == "SPOT":
        spot = [prices.spot(kind, region, spot_discount) for kind in instance_types]
        if spot_discount is None:
            why = "Spot prices move; set cost.spotDiscount to price Spot nodes"
        elif all(spot):
            instance_type, price = max(
                zip(instance_types, spot, strict=True), key=lambda pair: pair[1].usd_per_hour if pair[1] else 0
            )
        else:
            instance_type = next(kind for kind, one in zip(instance_types, spot, strict=True) if one is None)
    elif capacity == "ON_DEMAND":
        price = prices.on_demand(instance_type, region)
    else:
        why = f"{capacity} capacity is reserved and paid up front, not by the hour"
    if price is None and not why:
        why = f"no on-demand price for {instance_type} in {region} in the price table (facts/price_table.py)"
    return PoolCost(name, instance_type, capacity, sizes, price.usd_per_hour if price else None, why)


def _node_pool(resource: RegisteredResource, region: str, spot_discount: float | None) -> PoolCost:
    """A Karpenter NodePool: no node until a pod needs one, at most its GPU limit over the GPUs per node. EC2 Fleet
    fills On-Demand capacity at the lowest price (Karpenter FAQ at v1.14.1: "effectively equivalent to the
    `lowest-price` allocation strategy"), so the cheapest type it allows is priced; Spot as a node group's."""
    from .pools import node_pool_specs

    specs = node_pool_specs([resource]).specs
    if not specs:
        return PoolCost(resource.name, "", "", dict.fromkeys(SIZES, 0), None, "no instance-type requirement")
    spec = specs[0]
    instance_types = list(spec.instance_types)
    if spec.capacity_type == "ON_DEMAND":
        priced = [(kind, price) for kind in instance_types if (price := prices.on_demand(kind, region)) is not None]
        if priced:
            instance_types = [min(priced, key=lambda pair: pair[1].usd_per_hour)[0]]
    inputs = {
        "nodeGroupName": spec.name,
        "instanceTypes": instance_types,
        "capacityType": spec.capacity_type,
        "scalingConfig": {"minSize": 0, "desiredSize": 0, "maxSize": spec.max_size or 0},
    }
    return _pool(dataclasses.replace(resource, inputs=inputs), region, spot_discount)


def _fixed(item: str, count: int, price: prices.Price | None, why: str) -> FixedCost:
    return FixedCost(item, count, price.usd_per_hour if price else None, "" if price else why)


def _extended_support(inputs: dict[str, Any], today: date) -> bool:
    """Whether the cluster is billed at the extended-support rate today: past its version's standard support,
    and not on the STANDARD policy (with which EKS upgrades the cluster instead)."""
    entry = versions.EKS_VERSION_BY_NAME.get(str(inputs.get("version") or ""))
    support_type = (inputs.get("upgradePolicy") or {}).get("supportType") or DEFAULT_SUPPORT_TYPE
    return entry is not None and support_type != "STANDARD" and today > entry.end_of_standard_support


def _inside_cluster_component(resource: RegisteredResource, by_urn: dict[str, RegisteredResource]) -> bool:
    """A control plane that a pulumi-eks Cluster registered is that cluster, already counted."""
    parent = by_urn.get(resource.parent or "")
    return parent is not None and parent.type == EKS_CLUSTER


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def _sources() -> list[dict[str, str]]:
    return [{"name": source.name, "where": source.where, "asOf": source.as_of} for source in prices.SOURCES]


def usd(value: float | None) -> str:
    """`$1,234.56`, or `not priced`."""
    return "not priced" if value is None else f"${value:,.2f}"
