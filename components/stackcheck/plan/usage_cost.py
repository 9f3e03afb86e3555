"""What the stack registers that AWS bills by use, listed beside the cost section's totals and never counted in
them: data a NAT gateway processes, control-plane log ingestion, S3 storage, SQS requests and the storage of the
EBS snapshots the launch templates restore. Each item carries its rate where `facts/prices.py` has a dated one for
the region, and what the stack's own figures make of it (the weights a cold start pulls through a NAT gateway);
otherwise it is named as not priced, with why."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...facts import prices
from ...facts.resource_types import LAUNCH_TEMPLATE, LOG_GROUP, S3_BUCKET, SQS_QUEUE
from .cost_items import UsageCost

if TYPE_CHECKING:  # the runtime loads the Pulumi SDK; the report imports the cost modules for any plan
    from ..runtime import RegisteredResource


def usage_costs(
    resources: list[RegisteredResource], region: str, nat_gateways: int, weights_gb: float | None
) -> list[UsageCost]:
    """What `resources` bills by use in `region`: each item with its rate where a dated source gives one."""
    usage = []
    if nat_gateways:
        rate = prices.nat_processing(region)
        note = ""
        if rate is not None and weights_gb:
            note = f"a cold start downloads {weights_gb:.2f} GB of weights through it: ${weights_gb * rate.amount:,.2f}"
        usage.append(UsageCost("NAT gateway data processed", rate, note, _why(rate, f"no rate in {region}")))
    for resource in resources:
        if resource.type == LOG_GROUP:
            rate = prices.log_ingestion(region)
            name = resource.inputs.get("name") or resource.name
            why = _why(rate, f"no dated per-GB rate for {region}")
            usage.append(UsageCost(f"log ingestion ({name})", rate, "", why))
        elif resource.type == S3_BUCKET:
            rate = prices.s3_standard_storage(region)
            why = _why(rate, f"no dated per-GB-month rate of S3 Standard for {region}")
            usage.append(UsageCost(f"S3 storage ({resource.name})", rate, "", why))
        elif resource.type == SQS_QUEUE:
            rate = prices.sqs_requests(region)
            # The free million is the account's, across every queue and Region, so it is stated, not subtracted.
            note = f"the first {prices.SQS_FREE_REQUESTS_PER_MONTH:,} requests a month of the account are free"
            why = _why(rate, f"no dated rate for {region}")
            usage.append(UsageCost(f"SQS requests ({resource.name})", rate, note if rate else "", why))
        elif resource.type == LAUNCH_TEMPLATE:
            usage.extend(_snapshots(resource, region))
    return usage


def _snapshots(template: RegisteredResource, region: str) -> list[UsageCost]:
    """The snapshots a launch template's volumes are restored from: billed per GB-month of the data each holds,
    which the program does not know (a snapshot stores the blocks written, not the volume's size)."""
    rate = prices.snapshot_storage(region)
    why = _why(rate, f"no dated per-GB-month rate for {region}")
    return [
        UsageCost(f"EBS snapshot storage ({snapshot})", rate, "", why)
        for mapping in template.inputs.get("blockDeviceMappings") or ()
        if (snapshot := (mapping.get("ebs") or {}).get("snapshotId"))
    ]


def _why(rate: prices.Rate | None, missing: str) -> str:
    return "" if rate is not None else missing
