"""What the plan shows of the control plane beside its objects: the log group EKS writes to, with the retention
the stack gives it, and the checks that need AWS's answers (the cluster's subnets, the GPU pools' vCPU quotas)
and so are left to the preview."""

from __future__ import annotations

from typing import Any

from ...facts.resource_types import GET_ROLE, GET_SERVICE_QUOTA, GET_SUBNET, LOG_GROUP


def log_groups(resources: list[Any]) -> list[dict[str, Any]]:
    """Every CloudWatch log group the program registers: its name, retention in days and resource name."""
    return [
        {
            "name": resource.inputs.get("name"),
            "retentionDays": _days(resource.inputs.get("retentionInDays")),
            "resource": resource.name,
        }
        for resource in resources
        if resource.type == LOG_GROUP
    ]


def not_checked_offline(calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """The checks the program makes on AWS's answers that the mocks cannot give, one line each.

    The cluster reads each public node subnet (EC2 DescribeSubnets) to see that it assigns public IPv4
    addresses (components/cluster/cluster.py, `_assigning_public_ips`), and the program each EC2 vCPU quota its GPU
    pools draw on (components/pools/quota.py); the mocks answer nothing, so offline those checks are not made, and
    the plan says so rather than pass them. A Karpenter Spot pool looks up the Spot service-linked role
    (components/pools/karpenter/pool.py), which the mocks answer as existing: the plan says that too.
    """
    return (
        [
            f"subnet {args.get('id')}: whether it assigns public IPv4 addresses to nodes (MapPublicIpOnLaunch) is read "
            "from AWS at preview; not checked offline"
            for token, args in calls
            if token == GET_SUBNET
        ]
        + [
            f"EC2 vCPU quota {args.get('quotaCode')}: the GPU pools' vCPUs are judged against it at preview "
            "(components/pools/quota.py), the quota read from Service Quotas; not checked offline"
            for token, args in calls
            if token == GET_SERVICE_QUOTA
        ]
        + [
            f"IAM role {args.get('name')}: looked up at preview, which fails naming the command that creates it when the "
            "account has none (components/pools/karpenter/pool.py); offline the mocks answer that it exists"
            for token, args in calls
            if token == GET_ROLE
        ]
    )


def _days(value: Any) -> int | None:
    # Numbers come back from the mocks as floats (protobuf `Value`); a retention is a whole number of days.
    return int(value) if isinstance(value, int | float) else None
