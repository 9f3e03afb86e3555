"""EC2's vCPU quotas that GPU instances draw on, per Region: which quota an instance type counts against, by its
instance class and capacity type.

EC2 counts running On-Demand instances in vCPUs per Region, one quota per instance class, and Spot requests in
vCPUs per class too: G instances (g4dn, g5, g6, g6e, gr6) against "Running On-Demand G and VT instances" and
"All G and VT Spot Instance Requests", P instances (p4d, p4de, p5, p5e, p5en) against "Running On-Demand P
instances" and "All P Spot Instance Requests" (Amazon EC2 User Guide, "Amazon EC2 instance quotas",
docs.aws.amazon.com/ec2/latest/instancetypes/ec2-instance-quotas.html). The quota codes are those the Service
Quotas API and console give them (service code `ec2`), as of 2026-12-02. A launch beyond the quota fails: an
EKS managed node group then ends `CREATE_FAILED` with `AsgInstanceLaunchFailures` ("You've reached your quota
..."), and Terraform and Pulumi fail waiting for it to be ACTIVE (terraform-aws-modules/terraform-aws-eks#2149).
Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

SERVICE_CODE = "ec2"


@dataclass(frozen=True)
class VcpuQuota:
    """One Service Quotas quota of EC2, counted in vCPUs."""

    code: str
    name: str


_ON_DEMAND = {
    "g": VcpuQuota("L-DB2E81BA", "Running On-Demand G and VT instances"),
    "p": VcpuQuota("L-417A185B", "Running On-Demand P instances"),
}
_SPOT = {
    "g": VcpuQuota("L-3819A6DF", "All G and VT Spot Instance Requests"),
    "p": VcpuQuota("L-7212CCBC", "All P Spot Instance Requests"),
}


def vcpu_quota(instance_type: str, capacity_type: str) -> VcpuQuota | None:
    """The quota a node of `instance_type` counts against with `capacity_type` (`ON_DEMAND` or `SPOT`), or None
    for a class this table does not cover."""
    table = _SPOT if capacity_type == "SPOT" else _ON_DEMAND
    return table.get(instance_type[:1])


def increase_command(quota: VcpuQuota, vcpus: int, region: str) -> str:
    """The AWS CLI line that asks for `quota` to be raised to `vcpus` in `region`."""
    return (
        f"aws service-quotas request-service-quota-increase --service-code {SERVICE_CODE} --quota-code {quota.code} "
        f"--desired-value {vcpus} --region {region}"
    )
