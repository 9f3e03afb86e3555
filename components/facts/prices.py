"""What AWS charges by the hour for what a stack registers: nodes, the EKS control plane, NAT gateways, their
public IPv4 addresses and interface endpoints, each price with its source and the date it was read.

Prices are on-demand list prices in US dollars (Linux, shared tenancy), checked 2026-12-01 against the sources
below. A month is 730 hours, the month AWS's own Pricing Calculator bills (`HOURS_PER_MONTH`). A price this
table does not have is None, never 0: the plan shows it as not priced. Spot prices move with demand, so a Spot
node is priced only from a discount the stack gives (`cost.spotDiscount`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import price_table

HOURS_PER_MONTH = 730
"""Hours in the month the costs are given for (the AWS Pricing Calculator's month, 24 x 365 / 12)."""
CHECKED = "2026-12-01"


@dataclass(frozen=True)
class PriceSource:
    """Where a price was read, and when the source was made."""

    name: str
    where: str
    as_of: str


GPU_SOURCE = PriceSource(
    "instances.vantage.sh (the AWS Price List's on-demand Linux prices), as committed in tsaol/aws-gpu",
    "github.com/tsaol/aws-gpu data/all_gpu_instances.js, commit 7412fd256c5eda04a70a17742a68e8e44824b2cb",
    "2026-01-21",
)
"""The GPU types' prices, every region listed. Their us-east-1 prices equal `CPU_SOURCE`'s (2026-07-20) for
every type both list."""
CPU_SOURCE = PriceSource(
    "the AWS Price List as Karpenter generates it for its initial prices",
    "github.com/aws/karpenter-provider-aws pkg/providers/pricing/zz_generated.pricing_aws.go (us-east-1) and "
    "zz_generated.pricing_aws_us_gov.go (us-gov-east-1, us-gov-west-1), commit 6fc13b5236fd04fd16ff3f9dc7490d0813994099",
    "2026-07-20",
)
"""The system node types' prices; Karpenter generates the commercial table for us-east-1 only."""
EKS_SOURCE = PriceSource(
    "Amazon EKS extended support for Kubernetes versions pricing (AWS Containers blog): $0.10 per cluster hour "
    "in standard support, $0.60 in all in extended support, from the April 2024 billing cycle",
    "https://aws.amazon.com/blogs/containers/amazon-eks-extended-support-for-kubernetes-versions-pricing/",
    "2024-04-01",
)
NAT_SOURCE = PriceSource(
    "Amazon VPC pricing, NAT gateway hour ($0.045 in US East and US West (Oregon)), as quoted by "
    "cloudpipelines.pages.dev/guides/aws-nat-gateway-pricing-2026 and basavytix.com/blog/aws-nat-gateway-pricing",
    "https://aws.amazon.com/vpc/pricing/",
    "2026-02-24",
)
ENDPOINT_SOURCE = PriceSource(
    "AWS PrivateLink pricing: an interface endpoint is billed per hour in each Availability Zone it is "
    "provisioned in; $0.01 an hour in US East (N. Virginia), as quoted by usage.ai/blogs/aws-network-costs "
    "(May 2026) and egresscost.com/nat-gateway ($7.20 a month per zone)",
    "https://aws.amazon.com/privatelink/pricing/",
    "2026-05-01",
)

IPV4_SOURCE = PriceSource(
    "AWS charges for every public IPv4 address it provides, Elastic IPs included, from 2024-02-01 (AWS "
    'Networking & Content Delivery blog, "Identify and optimize public IPv4 address usage on AWS"): $0.005 per '
    "address hour, as quoted by doit.com/aws-public-ipv4-price-increase-the-complete-guide",
    "https://aws.amazon.com/blogs/networking-and-content-delivery/identify-and-optimize-public-ipv4-address-usage-on-aws/",
    "2024-02-01",
)

EKS_STANDARD_USD_PER_HOUR = 0.10
EKS_EXTENDED_USD_PER_HOUR = 0.60
"""The whole control-plane hour in extended support, not a surcharge on top of the standard one."""
EKS_PRICED_PARTITIONS = ("aws",)
"""The partitions whose regions the EKS price above is for; China and GovCloud have their own price lists."""
PUBLIC_IPV4_USD_PER_HOUR = 0.005
IPV4_PRICED_PARTITIONS = ("aws",)
NAT_GATEWAY_USD_PER_HOUR: dict[str, float] = {"us-east-1": 0.045, "us-east-2": 0.045, "us-west-2": 0.045}
INTERFACE_ENDPOINT_USD_PER_ZONE_HOUR: dict[str, float] = {"us-east-1": 0.01}

SOURCES: tuple[PriceSource, ...] = (GPU_SOURCE, CPU_SOURCE, EKS_SOURCE, NAT_SOURCE, IPV4_SOURCE, ENDPOINT_SOURCE)
"""Every source of the table, in the order the plan cites them."""


@dataclass(frozen=True)
class Price:
    """An hourly price and where it comes from."""

    usd_per_hour: float
    source: PriceSource

    @property
    def usd_per_month(self) -> float:
        """The price of `HOURS_PER_MONTH` hours."""
        return self.usd_per_hour * HOURS_PER_MONTH


@lru_cache(maxsize=1)
def _instance_prices() -> dict[str, tuple[dict[str, float], PriceSource]]:
    """Each instance type's prices by region, and their source, parsed once from the table's rows."""
    table: dict[str, tuple[dict[str, float], PriceSource]] = {}
    for rows, source in ((price_table.GPU_ROWS, GPU_SOURCE), (price_table.CPU_ROWS, CPU_SOURCE)):
        for row in rows:
            name, *pairs = row.split()
            if name in table:
                raise ValueError(f"instance type {name} is priced twice")
            by_region = {}
            for pair in pairs:
                region, _, usd = pair.partition("=")
                by_region[region] = float(usd)
            table[name] = (by_region, source)
    return table


def priced_instance_types() -> frozenset[str]:
    """Every instance type the table has a row for (priced in some region or in none)."""
    return frozenset(_instance_prices())


def on_demand(instance_type: str, region: str) -> Price | None:
    """The on-demand hourly price of `instance_type` in `region`, or None when the table has none."""
    by_region, source = _instance_prices().get(instance_type, ({}, CPU_SOURCE))
    usd = by_region.get(region)
    return Price(usd, source) if usd is not None else None


def spot(instance_type: str, region: str, discount: float | None) -> Price | None:
    """A Spot node's price from the on-demand one less `discount` (a fraction), or None without a discount."""
    price = on_demand(instance_type, region)
    if price is None or discount is None:
        return None
    return Price(price.usd_per_hour * (1 - discount), price.source)


def control_plane(partition: str, extended: bool) -> Price | None:
    """The EKS control plane's hour in a region of `partition`: the extended-support rate when `extended`."""
    if partition not in EKS_PRICED_PARTITIONS:
        return None
    return Price(EKS_EXTENDED_USD_PER_HOUR if extended else EKS_STANDARD_USD_PER_HOUR, EKS_SOURCE)


def nat_gateway(region: str) -> Price | None:
    """One NAT gateway's hour in `region` (data processed is billed per GB on top, and not counted here)."""
    usd = NAT_GATEWAY_USD_PER_HOUR.get(region)
    return Price(usd, NAT_SOURCE) if usd is not None else None


def public_ipv4(partition: str) -> Price | None:
    """One public IPv4 address's hour (an Elastic IP, such as a NAT gateway's) in a region of `partition`."""
    if partition not in IPV4_PRICED_PARTITIONS:
        return None
    return Price(PUBLIC_IPV4_USD_PER_HOUR, IPV4_SOURCE)


def interface_endpoint(region: str) -> Price | None:
    """One interface endpoint's hour in one Availability Zone of `region` (data processed not counted)."""
    usd = INTERFACE_ENDPOINT_USD_PER_ZONE_HOUR.get(region)
    return Price(usd, ENDPOINT_SOURCE) if usd is not None else None
