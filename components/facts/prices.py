"""What AWS charges for what a stack registers: nodes, their EBS volumes, the EKS control plane, NAT gateways,
their public IPv4 addresses, interface endpoints and KMS keys by the hour or month, and what is billed by use
(data a NAT gateway processes, control-plane log ingestion, S3 storage, SQS requests) per unit; each price with its
source and the date that source was made.

Nodes are priced from `price_table.py`, generated from a dated extract of public price datasets
(`scripts/price_table.py`): on-demand Linux list prices, shared tenancy, in each source's currency (US dollars, or
yuan in the China regions). A month is 730 hours, the month AWS's own Pricing Calculator bills (`HOURS_PER_MONTH`).
A price this module does not have is None, never 0: the plan names it as not priced. Spot prices move with demand,
so a Spot node is priced only from a discount the stack gives (`cost.spotDiscount`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import price_table, usage_price_table

HOURS_PER_MONTH = 730
"""Hours in the month the costs are given for (the AWS Pricing Calculator's month, 24 x 365 / 12)."""
CHECKED = "2026-12-01"


@dataclass(frozen=True)
class PriceSource:
    """Where a price was read, and when the source was made."""

    name: str
    where: str
    as_of: str
    currency: str = "USD"


INSTANCE_SOURCES: dict[str, PriceSource] = {
    key: PriceSource(
        source["name"],
        f"{source['repository']} {source['path']}, commit {source['commit']}",
        source["date"],
        source["currency"],
    )
    for key, source in price_table.SOURCES.items()
}
"""The node prices' sources, by the key of their rows in `price_table.ROWS`."""
GPU_SOURCE = INSTANCE_SOURCES["gpu"]
CPU_SOURCE = INSTANCE_SOURCES["karpenter"]
REGIONAL_SOURCE = INSTANCE_SOURCES["regional"]
"""The 2024 dataset: every region the newer ones do not price. Where both price a type, its prices equal
`CPU_SOURCE`'s of 2026-07-20 (tests/facts/test_price_table.py)."""
CHINA_SOURCE = INSTANCE_SOURCES["china"]
NOT_OFFERED = "not offered there as of its price source's date (the source covers the region and lists no price)"
UNCOVERED = "no price source covers the region (it opened after the sources were made)"
USAGE_SOURCE = PriceSource(
    "the FinOps Foundation's FOCUS 1.0 sample data: a month of anonymized real AWS billing whose charge descriptions "
    "are the AWS Price List's (e.g. '$0.50 per GB custom log data ingested in Standard log class - US West "
    "(Oregon)'), as extracted into scripts/data/usage_prices.json",
    f"{usage_price_table.SOURCE['repository']} {usage_price_table.SOURCE['path']}, commit "
    f"{usage_price_table.SOURCE['commit']}",
    usage_price_table.SOURCE["date"],
)
"""The usage-priced items' rates where no newer source gives one (`usage_price_table.py`), billed September 2024."""
EKS_SOURCE = PriceSource(
    "Amazon EKS extended support for Kubernetes versions pricing (AWS Containers blog): $0.10 per cluster hour "
    "in standard support, $0.60 in all in extended support, from the April 2024 billing cycle",
    "https://aws.amazon.com/blogs/containers/amazon-eks-extended-support-for-kubernetes-versions-pricing/",
    "2024-04-01",
)
NAT_SOURCE = PriceSource(
    "Amazon VPC pricing, NAT gateway hour and data processed ($0.045 an hour and per GB in US East (N. Virginia, "
    "Ohio) and US West (Oregon)), as quoted by cloudpipelines.pages.dev/guides/aws-nat-gateway-pricing-2026 and "
    "basavytix.com/blog/aws-nat-gateway-pricing",
    "https://aws.amazon.com/vpc/pricing/",
    "2026-02-24",
)
NAT_APAC_SOURCE = PriceSource(
    "Amazon VPC pricing, NAT gateway hour and data processed outside the US: $0.062 in Asia Pacific (Tokyo) "
    "(awsi.click/en/articles/nat-gateway-cost-structure-avoidance, undated, read 2026-12-04), $0.059 in Asia "
    "Pacific (Singapore) (basavytix.com/blog/aws-nat-gateway-pricing), $0.093 in South America (Sao Paulo) "
    "(costpatrol.io/blog/reduce-aws-nat-gateway-costs)",
    "https://aws.amazon.com/vpc/pricing/",
    "2026-02-24",
)
NAT_IRELAND_SOURCE = PriceSource(
    "AWS Price List, AmazonEC2 offer file version 20260925174521 for eu-west-1 (publicationDate "
    "2026-09-25T17:45:21Z): EU-NatGateway-Hours $0.048 per hour, EU-NatGateway-Bytes $0.048 per GB, as "
    "extracted verbatim into a public pricing-tool fixture read 2026-12-04",
    "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/20260925174521/eu-west-1/index.json",
    "2026-09-25",
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
EBS_SOURCE = PriceSource(
    "Amazon EBS pricing, gp3 in US East (N. Virginia): $0.08 per GB-month, 3,000 IOPS and 125 MB/s free, then "
    "$0.005 per provisioned IOPS-month and $0.04 per provisioned MB/s-month, as quoted by "
    "saisci.com/aws/gp2-vs-gp3-cost-comparison-ebs-volumes (updated 2021-02-04)",
    "https://aws.amazon.com/ebs/pricing/",
    "2021-02-04",
)
GP3_OREGON_SOURCE = PriceSource(
    "AWS Price List, AmazonEC2 offer file for us-west-2, usage type USW2-EBS:VolumeUsage.gp3: $0.08 per "
    "GB-month (the same list prices the NAT gateway hour at $0.045), as read from the public offer file on "
    "2026-10-04 by a public EKS lab's cost page",
    "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/us-west-2/index.csv",
    "2026-10-04",
)
GP3_IRELAND_SOURCE = PriceSource(
    "AWS Price List, AmazonEC2 eu-west-1, gp3 storage SKU TXACT7E3PV6ZX2NM: '$0.088 per GB-month of General "
    "Purpose (gp3) provisioned storage - EU (Ireland)', effective 2026-04-01 (the Price List API's answer of "
    "2026-05-01, quoted in a public cost-audit report)",
    "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/eu-west-1/index.json",
    "2026-04-01",
)
GP3_TOKYO_SOURCE = PriceSource(
    "AWS Price List, AmazonEC2 ap-northeast-1 (version 20260910195514, effective 2026-09-01): gp3 storage SKU "
    "C8Y3GJZBQTH8T5JV $0.096 per GB-month, IOPS SKU 7TFGMV47Q2PEQ9W7 $0.006 per IOPS-month, throughput SKU "
    "PCKHHBTPD7TEQ3K4 $49.152 per GiBps-month ($0.048 per MiBps-month), as pinned in a public cost script on "
    "2026-09-13; the storage price also in qiita.com/tsukamoto/items/bd6b7cbf164e71beeba2 (Tokyo, 2021-06-01)",
    "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/20260910195514/ap-northeast-1/index.json",
    "2026-09-01",
)
FSR_SOURCE = PriceSource(
    "How AWS Pricing Works (AWS whitepaper), Amazon EBS: Fast Snapshot Restore is charged in Data Services "
    "Unit-Hours for each Availability Zone in which it is enabled, billed per minute with a one-hour minimum; one "
    "FSR DSU-hour is $0.75 per Availability Zone (us-east-1), one DSU for each snapshot and zone",
    "https://docs.aws.amazon.com/whitepapers/latest/how-aws-pricing-works/amazon-ebs.html",
    "2026-12-04",
)
KMS_SOURCE = PriceSource(
    "AWS KMS pricing: each KMS key costs $1 a month (prorated hourly), the same in every commercial region; with "
    "automatic rotation each newly generated backing key adds $1 a month (aws.amazon.com/kms/pricing; "
    "cloudburn.io/blog/aws-kms-pricing, current as of March 2026)",
    "https://aws.amazon.com/kms/pricing/",
    "2026-03-14",
)
LOGS_SOURCE = PriceSource(
    "Amazon CloudWatch pricing, Logs standard class in US East (N. Virginia): ingestion $0.50 per GB, storage $0.03 "
    "per GB-month (c3x.dev/blog/cloudwatch-logs-cost-optimization, 'us-east-1, June 2026'); Asia Pacific (Tokyo): "
    "$0.76 per GB ingested (awsi.click/en/articles/cloudwatch-logs-cost-structure-surprise, undated, read 2026-12-04)",
    "https://aws.amazon.com/cloudwatch/pricing/",
    "2026-06-01",
)
SQS_SOURCE = PriceSource(
    "Amazon SQS pricing, standard queues in US East (N. Virginia): $0.40 per million requests after the first "
    "million a month, each 64 KB of a payload a request (cloudburn.io/blog/amazon-sqs-pricing, March 2026)",
    "https://aws.amazon.com/sqs/pricing/",
    "2026-03-14",
)
LOGS_IRELAND_SOURCE = PriceSource(
    "AWS Price List, AmazonCloudWatch offer for eu-west-1 published 2026-09-22T02:17:15Z, usage type "
    "EU-DataProcessing-Bytes: '$0.57 per GB custom log data ingested in Standard log class - EU (Ireland)', as "
    "extracted from the offer file on 2026-10-02 into github.com/mamtha4u/SDLC backend/config/pricing_eu-west-1.json, "
    "commit 45b7bae453281a7599bcbe863f7e547e2fd5e1ef",
    "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonCloudWatch/current/eu-west-1/index.json",
    "2026-09-22",
)
SQS_IRELAND_SOURCE = PriceSource(
    "AWS Price List, AWSQueueService offer for eu-west-1 published 2026-09-11T12:46:07Z: usage type "
    "EU-Requests-Tier1 '$0.40 per million Amazon SQS standard requests in Tier1 in EU (Ireland)', and "
    "Global-Requests 'First 1,000,000 Amazon SQS Requests per month are free', as extracted on 2026-10-02 into "
    "github.com/mamtha4u/SDLC backend/config/pricing_eu-west-1.json, commit 45b7bae453281a7599bcbe863f7e547e2fd5e1ef",
    "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AWSQueueService/current/eu-west-1/index.json",
    "2026-09-11",
)

EKS_STANDARD_USD_PER_HOUR = 0.10
EKS_EXTENDED_USD_PER_HOUR = 0.60
"""The whole control-plane hour in extended support, not a surcharge on top of the standard one."""
EKS_PRICED_PARTITIONS = ("aws",)
"""The partitions whose regions the EKS price above is for; China and GovCloud have their own price lists."""
PUBLIC_IPV4_USD_PER_HOUR = 0.005
IPV4_PRICED_PARTITIONS = ("aws",)
NAT_GATEWAY_USD_PER_HOUR: dict[str, tuple[float, PriceSource]] = {
    "us-east-1": (0.045, NAT_SOURCE),
    "us-east-2": (0.045, NAT_SOURCE),
    "us-west-2": (0.045, NAT_SOURCE),
    "eu-west-1": (0.048, NAT_IRELAND_SOURCE),
    "ap-northeast-1": (0.062, NAT_APAC_SOURCE),
    "ap-southeast-1": (0.059, NAT_APAC_SOURCE),
    "sa-east-1": (0.093, NAT_APAC_SOURCE),
}
"""One NAT gateway's hour; in every region listed AWS bills the same amount per GB it processes."""
INTERFACE_ENDPOINT_USD_PER_ZONE_HOUR: dict[str, float] = {"us-east-1": 0.01}


@dataclass(frozen=True)
class Gp3Price:
    """A gp3 volume's month in one region: per GB, and per MB/s and IOPS provisioned above the free baseline
    (None where the source gives the storage price alone: such a volume is priced only at the baseline)."""

    per_gb: float
    per_mbps: float | None
    per_iops: float | None
    source: PriceSource


GP3: dict[str, Gp3Price] = {
    "us-east-1": Gp3Price(0.08, 0.04, 0.005, EBS_SOURCE),
    "us-west-2": Gp3Price(0.08, None, None, GP3_OREGON_SOURCE),
    "eu-west-1": Gp3Price(0.088, None, None, GP3_IRELAND_SOURCE),
    "ap-northeast-1": Gp3Price(0.096, 0.048, 0.006, GP3_TOKYO_SOURCE),
}
"""gp3 by region."""
GP3_FREE_THROUGHPUT_MBPS = 125
GP3_FREE_IOPS = 3000
FSR_USD_PER_ZONE_HOUR: dict[str, float] = {"us-east-1": 0.75}
"""Fast Snapshot Restore of one snapshot in one zone, an hour, by region."""
KMS_KEY_USD_PER_MONTH = 1.0
KMS_PRICED_PARTITIONS = ("aws",)
LOG_INGESTION_USD_PER_GB: dict[str, tuple[float, PriceSource]] = {
    "us-east-1": (0.50, LOGS_SOURCE),
    "eu-west-1": (0.57, LOGS_IRELAND_SOURCE),
    "ap-northeast-1": (0.76, LOGS_SOURCE),
}
"""Ingestion into a standard-class log group, per GB, by region."""
SQS_USD_PER_MILLION_REQUESTS: dict[str, tuple[float, PriceSource]] = {
    "us-east-1": (0.40, SQS_SOURCE),
    "eu-west-1": (0.40, SQS_IRELAND_SOURCE),
}
"""Standard-queue requests beyond the free million a month, per million, by region."""
SQS_FREE_REQUESTS_PER_MONTH = 1_000_000
"""Requests a month AWS does not bill, across the account's queues (the Price List's Global-Requests)."""
AUTO_MODE_FEE_GAP = (
    "the AmazonEKS Price List prices EKS Auto Mode's management fee per instance type (its AutoMode products, "
    "operation EKSAutoUsage) and no dated extract of those products is published: instances.vantage.sh reads them "
    "since July 2026 (vantage-sh/ec2instances.info pull request #968, merged in "
    "8e64e6eaefe16999bf209650f4d2ab4ec8845c6a) and awslabs/eks-node-viewer asks the Pricing API at run time "
    "(pkg/aws/pricing.go at a410d6fa6d4bd0ab8eba3553dfd3e244565667b7), neither committing the prices; guides that "
    "quote the fee as about 12% of the EC2 price predate its cut for GPU types in July 2026"
)
"""Why no node of an Auto Mode pool has its management fee priced (read 2026-12-04)."""

SOURCES: tuple[PriceSource, ...] = (
    GPU_SOURCE,
    CPU_SOURCE,
    REGIONAL_SOURCE,
    CHINA_SOURCE,
    EKS_SOURCE,
    NAT_SOURCE,
    NAT_APAC_SOURCE,
    NAT_IRELAND_SOURCE,
    IPV4_SOURCE,
    ENDPOINT_SOURCE,
    EBS_SOURCE,
    GP3_OREGON_SOURCE,
    GP3_IRELAND_SOURCE,
    GP3_TOKYO_SOURCE,
    FSR_SOURCE,
    KMS_SOURCE,
    LOGS_SOURCE,
    LOGS_IRELAND_SOURCE,
    SQS_SOURCE,
    SQS_IRELAND_SOURCE,
    USAGE_SOURCE,
)
"""Every source of the prices, in the order the plan cites them."""


@dataclass(frozen=True)
class Price:
    """An hourly price, in its source's currency, and where it comes from."""

    per_hour: float
    source: PriceSource

    @property
    def currency(self) -> str:
        return self.source.currency

    @property
    def per_month(self) -> float:
        """The price of `HOURS_PER_MONTH` hours."""
        return self.per_hour * HOURS_PER_MONTH

    @property
    def usd_per_hour(self) -> float:
        """The hourly price in US dollars; a price in another currency has none."""
        if self.currency != "USD":
            raise ValueError(f"a price in {self.currency} has no US dollar amount ({self.source.name})")
        return self.per_hour

    @property
    def usd_per_month(self) -> float:
        return self.usd_per_hour * HOURS_PER_MONTH


@dataclass(frozen=True)
class Rate:
    """A price per unit used (`GB`, `million requests`) or per unit a month (`GB-month`), and its source."""

    amount: float
    unit: str
    source: PriceSource


@lru_cache(maxsize=1)
def _instance_prices() -> dict[tuple[str, str], Price]:
    """Each (instance type, region) the table prices, parsed once from its rows."""
    table: dict[tuple[str, str], Price] = {}
    for key, rows in price_table.ROWS.items():
        source = INSTANCE_SOURCES[key]
        for row in rows:
            name, *pairs = row.split()
            for pair in pairs:
                region, _, amount = pair.partition("=")
                if (name, region) in table:
                    raise ValueError(f"instance type {name} is priced twice in {region}")
                table[name, region] = Price(float(amount), source)
    return table


@lru_cache(maxsize=1)
def _gaps() -> dict[tuple[str, str], str]:
    """Why each (instance type, region) the table names as not priced has no price."""
    gaps: dict[tuple[str, str], str] = {}
    for rows, why in ((price_table.NOT_OFFERED_ROWS, NOT_OFFERED), (price_table.UNCOVERED_ROWS, UNCOVERED)):
        for row in rows:
            regions, _, names = row.partition(": ")
            gaps.update(((name, region), why) for name in names.split() for region in regions.split())
    return gaps


def priced_instance_types() -> frozenset[str]:
    """Every instance type the table prices in some region."""
    return frozenset(name for name, _ in _instance_prices())


def list_price(instance_type: str, region: str) -> Price | None:
    """The on-demand hourly price of `instance_type` in `region` in the currency the region is billed in (yuan in
    the China regions), or None when the table has none."""
    return _instance_prices().get((instance_type, region))


def on_demand(instance_type: str, region: str) -> Price | None:
    """The on-demand hourly price of `instance_type` in `region` in US dollars, or None when the table has none
    or prices the region in another currency."""
    price = list_price(instance_type, region)
    return price if price is not None and price.currency == "USD" else None


def not_priced_reason(instance_type: str, region: str) -> str | None:
    """Why the table has no price for `instance_type` in `region` when it names the pair as not priced, else None."""
    return _gaps().get((instance_type, region))


def spot(instance_type: str, region: str, discount: float | None) -> Price | None:
    """A Spot node's price from the on-demand one less `discount` (a fraction), or None without a discount."""
    price = list_price(instance_type, region)
    if price is None or discount is None:
        return None
    return Price(price.per_hour * (1 - discount), price.source)


def control_plane(partition: str, extended: bool) -> Price | None:
    """The EKS control plane's hour in a region of `partition`: the extended-support rate when `extended`."""
    if partition not in EKS_PRICED_PARTITIONS:
        return None
    return Price(EKS_EXTENDED_USD_PER_HOUR if extended else EKS_STANDARD_USD_PER_HOUR, EKS_SOURCE)


def nat_gateway(region: str) -> Price | None:
    """One NAT gateway's hour in `region` (data processed is billed per GB on top: `nat_processing`)."""
    entry = NAT_GATEWAY_USD_PER_HOUR.get(region)
    return Price(*entry) if entry is not None else None


def nat_processing(region: str) -> Rate | None:
    """What a NAT gateway in `region` charges per GB it processes, either direction."""
    entry = NAT_GATEWAY_USD_PER_HOUR.get(region)
    return Rate(entry[0], "GB", entry[1]) if entry is not None else None


def public_ipv4(partition: str) -> Price | None:
    """One public IPv4 address's hour (an Elastic IP, such as a NAT gateway's) in a region of `partition`."""
    if partition not in IPV4_PRICED_PARTITIONS:
        return None
    return Price(PUBLIC_IPV4_USD_PER_HOUR, IPV4_SOURCE)


def interface_endpoint(region: str) -> Price | None:
    """One interface endpoint's hour in one Availability Zone of `region` (data processed not counted)."""
    usd = INTERFACE_ENDPOINT_USD_PER_ZONE_HOUR.get(region)
    return Price(usd, ENDPOINT_SOURCE) if usd is not None else None


def gp3_volume_month(region: str, size_gb: float, throughput_mbps: float | None, iops: float | None) -> float | None:
    """One gp3 volume's month in `region` in US dollars: its size, and the throughput and IOPS provisioned above
    the free baseline (125 MB/s, 3,000 IOPS); None where no gp3 price is known, or the volume provisions more than
    the baseline where only the storage price is."""
    price = GP3.get(region)
    if price is None:
        return None
    extra_throughput = max(0.0, (throughput_mbps or GP3_FREE_THROUGHPUT_MBPS) - GP3_FREE_THROUGHPUT_MBPS)
    extra_iops = max(0.0, (iops or GP3_FREE_IOPS) - GP3_FREE_IOPS)
    if (extra_throughput and price.per_mbps is None) or (extra_iops and price.per_iops is None):
        return None
    return size_gb * price.per_gb + extra_throughput * (price.per_mbps or 0.0) + extra_iops * (price.per_iops or 0.0)


def fast_snapshot_restore(region: str) -> Price | None:
    """Fast Snapshot Restore of one snapshot in one Availability Zone of `region`, an hour."""
    usd = FSR_USD_PER_ZONE_HOUR.get(region)
    return Price(usd, FSR_SOURCE) if usd is not None else None


def kms_key(partition: str) -> Price | None:
    """One customer managed KMS key's hour (its $1 a month prorated over 730 hours) in a region of `partition`."""
    if partition not in KMS_PRICED_PARTITIONS:
        return None
    return Price(KMS_KEY_USD_PER_MONTH / HOURS_PER_MONTH, KMS_SOURCE)


def log_ingestion(region: str) -> Rate | None:
    """What CloudWatch Logs charges per GB ingested into a standard-class log group in `region`."""
    return _usage_rate("log_ingestion", region, LOG_INGESTION_USD_PER_GB)


def sqs_requests(region: str) -> Rate | None:
    """What a standard SQS queue in `region` charges per million requests beyond the free million a month."""
    return _usage_rate("sqs_requests", region, SQS_USD_PER_MILLION_REQUESTS)


def snapshot_storage(region: str) -> Rate | None:
    """What a standard-tier EBS snapshot in `region` costs per GB-month of the data it holds."""
    return _usage_rate("snapshot_storage", region, {})


def s3_standard_storage(region: str) -> Rate | None:
    """What S3 Standard storage in `region` costs per GB-month, in the first 50 TB a month."""
    return _usage_rate("s3_standard_storage", region, {})


def _usage_rate(item: str, region: str, newer: dict[str, tuple[float, PriceSource]]) -> Rate | None:
    """`item`'s rate in `region`: from a newer dated source where one gives it, else from the usage table."""
    unit = usage_price_table.UNITS[item]
    if region in newer:
        return Rate(newer[region][0], unit, newer[region][1])
    tabled = usage_price_table.RATES[item].get(region)
    return Rate(tabled, unit, USAGE_SOURCE) if tabled is not None else None
