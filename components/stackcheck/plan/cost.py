"""The plan's cost estimate: what the registered resources cost an hour and a month, from `facts/prices.py`.

The estimate reads what the program registered, not the stack config, so it prices any number of node groups:
each EKS node group at its `minSize`, `desiredSize` and `maxSize` with the EBS volumes its launch template gives
every node, and the fixed costs that run whatever the traffic (the control plane, NAT gateways and their public
addresses, interface endpoints in each of their zones, KMS keys). The "idle floor" is the fixed costs and every pool
at `minSize`: what the stack costs with no traffic once the autoscaler has scaled in. What is billed by use (data a
NAT gateway processes, control-plane log ingestion, S3 storage, SQS requests, snapshot storage) is listed beside the
totals with its rate, never counted. Anything with no price is named as not priced, and totals are lower bounds.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from ...facts import auto_mode, prices, versions
from ...facts.eks_node import DEFAULT_CAPACITY_TYPE
from ...facts.resource_types import (
    CLUSTER_TYPES,
    EIP,
    EKS_CLUSTER,
    KARPENTER_NODE_POOL,
    KMS_KEY,
    LAUNCH_TEMPLATE,
    NAT_GATEWAY,
    NODE_GROUP,
    SQS_QUEUE,
    VPC_ENDPOINT,
)
from .cost_items import FixedCost, UsageCost
from .usage_cost import usage_costs
from .warm_cost import warm_node_costs

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
    """The node's hourly price in the estimate's currency (the field keeps its name: US dollars but in China)."""
    not_priced: str = ""
    """Why the pool's nodes have no price, when they have none."""
    disk_per_node_month: float | None = None
    """The EBS volumes of one node a month, when priced."""
    disk_not_priced: str = ""
    """Why the nodes' volumes are not priced, when they are not."""
    extra_not_priced: tuple[str, ...] = ()
    """Other per-node charges with no price (EKS Auto Mode's management fee)."""

    def monthly(self, size: str) -> float | None:
        """The pool's nodes and their priced volumes a month at `size`, or None when the nodes are not priced."""
        if self.usd_per_node_hour is None:
            return None
        per_node = self.usd_per_node_hour * prices.HOURS_PER_MONTH + (self.disk_per_node_month or 0.0)
        return per_node * self.sizes[size]

    @property
    def missing(self) -> list[tuple[str, str]]:
        """What of the pool is not priced: (short name, why)."""
        found = []
        if self.not_priced:
            found.append((f"{self.name} nodes", self.not_priced))
        if self.disk_not_priced:
            found.append((f"{self.name} node volumes", self.disk_not_priced))
        found.extend(
            (f"{self.name} {name}", why) for name, why in (item.split(": ", 1) for item in self.extra_not_priced)
        )
        return found


@dataclass
class CostEstimate:
    """The stack's cost: per pool, the fixed costs, the totals at each size, and what is billed by use."""

    region: str
    pools: list[PoolCost] = field(default_factory=list)
    fixed: list[FixedCost] = field(default_factory=list)
    spot_discount: float | None = None
    budget: float | None = None
    """`cost.maxMonthlyUsd`, when the stack sets one."""
    currency: str = "USD"
    """The currency the region is billed in: every figure of the estimate is in it (yuan in the China regions)."""
    usage: list[UsageCost] = field(default_factory=list)
    queue_fed: bool = False
    """Whether a server is fed from an SQS queue, so its GPU pool may stand at zero while the queue is empty."""

    def total(self, size: str) -> float:
        """Every priced pool at `size` and the priced fixed costs, a month (a lower bound when `not_priced`)."""
        pools = sum(cost for pool in self.pools if (cost := pool.monthly(size)) is not None)
        return pools + sum(item.monthly for item in self.fixed if item.monthly is not None)

    @property
    def queue_empty_floor(self) -> float | None:
        """With queue-fed servers, what the stack costs while the queue is empty and every queue-fed model is at
        zero replicas: the fixed costs and the pools without GPUs at `minSize`, every GPU pool at zero nodes (a GPU
        pool whose `minSize` is above zero keeps its nodes, so this floor is reached only at `minSize: 0`)."""
        if not self.queue_fed:
            return None
        pools = sum(
            cost
            for pool in self.pools
            if not _has_gpus(pool.instance_type) and (cost := pool.monthly("min")) is not None
        )
        return pools + sum(item.monthly for item in self.fixed if item.monthly is not None)

    @property
    def missing(self) -> list[tuple[str, str]]:
        """What the totals leave out: (short name, why), pools first."""
        return [entry for pool in self.pools for entry in pool.missing] + [
            (item.item, item.not_priced) for item in self.fixed if item.not_priced
        ]

    @property
    def not_priced(self) -> list[str]:
        """What the totals leave out, one line each, naming the pool or item and why."""
        return [f"{name}: {why}" for name, why in self.missing]

    def to_dict(self) -> dict[str, Any]:
        """The JSON document's `cost`: prices per hour, costs per month (730 hours), in US dollars."""
        return {
            "region": self.region,
            "currency": self.currency,
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
                    "volumesPerNodeMonth": _rounded(pool.disk_per_node_month),
                    "monthlyUsd": {size: _rounded(pool.monthly(size)) for size in SIZES},
                    "notPriced": pool.not_priced or None,
                    "volumesNotPriced": pool.disk_not_priced or None,
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
            "queueEmptyMonthlyUsd": _rounded(self.queue_empty_floor),
            "notPriced": self.not_priced,
            "usage": [
                {
                    "item": entry.item,
                    "rate": entry.rate.amount if entry.rate else None,
                    "unit": entry.rate.unit if entry.rate else None,
                    "note": entry.note or None,
                    "notPriced": entry.not_priced or None,
                }
                for entry in self.usage
            ],
            "sources": _sources(),
        }


def estimate(
    resources: list[RegisteredResource],
    region: str,
    partition: str,
    spot_discount: float | None = None,
    budget: float | None = None,
    today: date | None = None,
    weights_gb: float | None = None,
    fast_snapshot_restores: int = 0,
) -> CostEstimate:
    """The cost of what `resources` registers in `region`, with Spot nodes at `spot_discount` off on-demand;
    `weights_gb` is what one cold start downloads, to state what it costs through a NAT gateway;
    `fast_snapshot_restores` the (snapshot, zone) pairs the GPU pools have Fast Snapshot Restore on for."""
    currency = prices.CHINA_SOURCE.currency if partition == "aws-cn" else "USD"
    result = CostEstimate(region, spot_discount=spot_discount, budget=budget, currency=currency)
    by_urn = {resource.urn: resource for resource in resources}
    templates = {
        key: resource
        for resource in resources
        if resource.type == LAUNCH_TEMPLATE
        for key in (resource.id, f"{resource.name}-id", resource.name)
        if key
    }
    clusters = 0
    extended = False
    for resource in resources:
        if resource.type == NODE_GROUP:
            pool = _pool(resource, region, spot_discount, currency)
            result.pools.append(_with_volumes(pool, resource.inputs, templates, region, currency))
        elif resource.type == KARPENTER_NODE_POOL:
            result.pools.append(_node_pool(resource, region, spot_discount, currency))
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
    keys = sum(1 for resource in resources if resource.type == KMS_KEY)
    if keys:
        price = prices.kms_key(partition)
        result.fixed.append(_fixed("KMS key", keys, price, f"no price for the {partition} partition"))
    if fast_snapshot_restores:
        price = prices.fast_snapshot_restore(region)
        label = "EBS Fast Snapshot Restore (snapshot x zone)"
        result.fixed.append(_fixed(label, fast_snapshot_restores, price, f"no dated price in {region}"))
    result.fixed = [_in_currency(item, currency) for item in result.fixed]

    result.usage = usage_costs(resources, region, nat, weights_gb)
    result.queue_fed = any(resource.type == SQS_QUEUE for resource in resources)
    return result


def _has_gpus(instance_type: str) -> bool:
    """Whether `instance_type` is a GPU type of the catalogue (facts/gpu_catalog.py)."""
    from ...facts.gpu_catalog import GPU_INSTANCE_TYPES

    return instance_type in GPU_INSTANCE_TYPES


def _in_currency(item: FixedCost, currency: str) -> FixedCost:
    """Fixed prices are in US dollars: in a region billed in another currency they are not priced."""
    if currency == "USD" or item.usd_per_unit_hour is None:
        return item
    return FixedCost(item.item, item.count, None, f"its price is in US dollars, the region is billed in {currency}")


def _with_volumes(
    pool: PoolCost, inputs: dict[str, Any], templates: dict[str, RegisteredResource], region: str, currency: str
) -> PoolCost:
    """The pool with the EBS volumes its launch template (or `diskSize`) gives each node priced."""
    template = templates.get(str((inputs.get("launchTemplate") or {}).get("id") or ""))
    volumes = []
    if template is not None:
        volumes = [mapping.get("ebs") or {} for mapping in template.inputs.get("blockDeviceMappings") or ()]
    elif inputs.get("diskSize"):
        # Without a launch template EKS gives each node one gp3 root volume of `diskSize` (EKS API, CreateNodegroup).
        volumes = [{"volumeSize": inputs["diskSize"], "volumeType": "gp3"}]
    if not volumes:
        return dataclasses.replace(pool, disk_not_priced="no volume size registered (EKS's default root volume)")
    if currency != "USD":
        return dataclasses.replace(
            pool, disk_not_priced=f"EBS prices are in US dollars, the region is billed in {currency}"
        )
    total = 0.0
    for volume in volumes:
        kind = volume.get("volumeType") or "gp3"
        month = None
        if kind == "gp3":
            month = prices.gp3_volume_month(
                region, float(volume.get("volumeSize") or 0), volume.get("throughput"), volume.get("iops")
            )
        if month is None:
            missing = "IOPS or throughput above the free baseline" if kind == "gp3" and region in prices.GP3 else kind
            return dataclasses.replace(pool, disk_not_priced=f"no dated {missing} price for {region}")
        total += month
    return dataclasses.replace(pool, disk_per_node_month=total)


def _pool(resource: RegisteredResource, region: str, spot_discount: float | None, currency: str = "USD") -> PoolCost:
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
                zip(instance_types, spot, strict=True), key=lambda pair: pair[1].per_hour if pair[1] else 0
            )
        else:
            instance_type = next(kind for kind, one in zip(instance_types, spot, strict=True) if one is None)
    elif capacity == "ON_DEMAND":
        price = prices.list_price(instance_type, region)
    else:
        why = f"{capacity} capacity is reserved and paid up front, not by the hour"
    if price is None and not why:
        reason = prices.not_priced_reason(instance_type, region) or "not in the price table (facts/price_table.py)"
        why = f"no on-demand price for {instance_type} in {region}: {reason}"
    if price is not None and price.currency != currency:
        why, price = f"its price is in {price.currency}, the region is billed in {currency}", None
    return PoolCost(name, instance_type, capacity, sizes, price.per_hour if price else None, why)


def _node_pool(
    resource: RegisteredResource, region: str, spot_discount: float | None, currency: str = "USD"
) -> PoolCost:
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
        priced = [(kind, price) for kind in instance_types if (price := prices.list_price(kind, region)) is not None]
        if priced:
            instance_types = [min(priced, key=lambda pair: pair[1].per_hour)[0]]
    inputs = {
        "nodeGroupName": spec.name,
        "instanceTypes": instance_types,
        "capacityType": spec.capacity_type,
        "scalingConfig": {"minSize": 0, "desiredSize": 0, "maxSize": spec.max_size or 0},
    }
    pool = _pool(dataclasses.replace(resource, inputs=inputs), region, spot_discount, currency)
    # The node class sizes a NodePool's volumes; EKS Auto Mode adds a management fee per node by instance type.
    extra: tuple[str, ...] = ()
    if spec.provisioner == auto_mode.PROVISIONER:
        extra = (f"Auto Mode fee: not priced for {pool.instance_type}: {prices.AUTO_MODE_FEE_GAP}",)
    return dataclasses.replace(
        pool, disk_not_priced="the node class sizes the volumes; not priced", extra_not_priced=extra
    )


def _fixed(item: str, count: int, price: prices.Price | None, why: str) -> FixedCost:
    return FixedCost(item, count, price.per_hour if price else None, "" if price else why)


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


CURRENCY_SIGNS = {"USD": "$", "CNY": "CN¥"}


def usd(value: float | None, currency: str = "USD") -> str:
    """`$1,234.56` (`CN¥1,234.56` in yuan), or `not priced`."""
    return "not priced" if value is None else f"{CURRENCY_SIGNS.get(currency, currency + ' ')}{value:,.2f}"


def stack_cost(resources: list[Any], values: dict[str, Any], settings: Any) -> CostEstimate:
    """What the registered resources cost, priced in the config's region, against the stack's budget."""
    from ..mock_answers import mock_partition, mock_region

    region = mock_region(values)
    cost = settings.cost if settings is not None else None
    sizes = [size for server in settings.servers if (size := server.settings.weights_bytes)] if settings else []
    result = estimate(
        resources,
        region,
        mock_partition(region),
        spot_discount=cost.spot_discount if cost else None,
        budget=cost.max_monthly_usd if cost else None,
        weights_gb=max(sizes) / 1e9 if sizes else None,
        fast_snapshot_restores=fast_snapshot_restores(settings) if settings else 0,
    )
    if settings is not None:
        result.fixed += warm_node_costs(settings, region, result.spot_discount, result.currency)
    return result


def fast_snapshot_restores(settings: Any) -> int:
    """The (snapshot, zone) pairs the GPU pools count on Fast Snapshot Restore for: each snapshot once, in every
    zone the stack's network spans (the zones its GPU nodes may launch in), or of the private subnets given."""
    snapshots = {pool.settings.snapshot_id for pool in settings.pools if pool.settings.fast_snapshot_restore}
    if not snapshots:
        return 0
    # As the program registers them (pools/fast_snapshot_restore.py `zone_names`): a VPC given by `cluster.vpcId`
    # keeps `network.mode` at its default `create`, so whether the stack creates its network is the test.
    zones = settings.network.zone_count if settings.creates_network else len(settings.cluster.private_subnet_ids)
    return len(snapshots) * zones
