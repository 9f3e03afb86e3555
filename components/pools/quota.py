"""The GPU pools' vCPUs against the account's EC2 quotas, read from Service Quotas at preview.

A node group whose instances the quota refuses does not come up empty: EKS marks it `CREATE_FAILED`, `pulumi up`
fails after waiting for it, and the failed group stays in the stack's state (facts/ec2_quotas.py). So the quota
each pool draws on is read at preview (`aws.servicequotas.get_service_quota_output`), and the GPU node groups
wait for the check: the pools' vCPUs at `desiredSize`, summed per quota, must fit (the preview fails naming the
quota and the command that asks for more); at `maxSize`, or twice a pool during a create-first replacement
(Pulumi's default for a node group, which runs both groups for a while), they warn. The quota is the limit for
the account and Region, not what is free: instances already running elsewhere count against it too. A quota
that is not answered (the offline plan's mocks answer nothing) is not judged; the plan says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pulumi
import pulumi_aws as aws

from ..facts import gpu_catalog
from ..facts.ec2_quotas import SERVICE_CODE, VcpuQuota, increase_command, vcpu_quota


class QuotaError(pulumi.RunError):
    """GPU pools whose nodes at `desiredSize` exceed an EC2 vCPU quota; a `RunError`, printed without a traceback
    (see `cluster.PublicSubnetsError`)."""


@dataclass(frozen=True)
class PoolDemand:
    """What one GPU pool asks of the quotas."""

    config_key: str
    """Where the stack config (or the caller) sets the pool: `eks-gpu-inference:gpuNodeGroup`."""
    instance_types: tuple[str, ...]
    capacity_type: str
    desired_size: int
    max_size: int

    @property
    def vcpus_per_node(self) -> int:
        """The vCPUs of the largest instance type the pool may launch: what a node may count against the quota."""
        return max(gpu_catalog.GPU_INSTANCE_TYPES[name].vcpus for name in self.instance_types)

    @property
    def quota(self) -> VcpuQuota | None:
        return vcpu_quota(self.instance_types[0], self.capacity_type)


def quota_findings(
    demands: Sequence[PoolDemand], limits: dict[str, float | None], region: str
) -> tuple[list[str], list[str]]:
    """(errors, warnings) of `demands` against `limits` (quota code -> vCPUs, None when not read), per quota."""
    errors: list[str] = []
    warnings: list[str] = []
    by_code: dict[str, list[PoolDemand]] = {}
    quotas: dict[str, VcpuQuota] = {}
    for demand in demands:
        if demand.quota is not None:
            by_code.setdefault(demand.quota.code, []).append(demand)
            quotas[demand.quota.code] = demand.quota
    for code, pools in by_code.items():
        limit = limits.get(code)
        if limit is None:
            continue
        quota = quotas[code]
        named = f"{code} ({quota.name}) is {limit:g} vCPUs in {region}"

        def need(size: str, pools: list[PoolDemand] = pools) -> int:
            return sum(getattr(pool, size) * pool.vcpus_per_node for pool in pools)

        desired = need("desired_size")
        if desired > limit:
            asked = " + ".join(
                f"{pool.config_key}.desiredSize {pool.desired_size} x {pool.vcpus_per_node} vCPUs" for pool in pools
            )
            errors.append(
                f"{asked} = {desired} vCPUs, but quota {named}: the node group would end CREATE_FAILED; request "
                f"{desired} or more: {increase_command(quota, desired, region)}"
            )
            continue
        maximum = need("max_size")
        if maximum > limit:
            warnings.append(
                f"the pools on quota {code} reach {maximum} vCPUs at maxSize, and quota {named}: the autoscaler "
                f"cannot add nodes beyond {int(limit)} vCPUs; {increase_command(quota, maximum, region)}"
            )
        for pool in pools:
            replacing = desired + pool.desired_size * pool.vcpus_per_node
            if replacing > limit:
                warnings.append(
                    f"replacing {pool.config_key} (a new instance type, subnets or disk) creates the new group "
                    f"before the old one is deleted: {replacing} vCPUs for a while, and quota {named}"
                )
    return errors, warnings


def checked_quotas(demands: Sequence[PoolDemand], opts: pulumi.InvokeOutputOptions | None = None) -> pulumi.Output[str]:
    """The Region, once every quota the pools draw on is read and judged: raises `QuotaError` listing every
    shortfall at `desiredSize`, and warns of the rest. What takes this waits for the check."""
    codes = sorted({demand.quota.code for demand in demands if demand.quota is not None})
    values = [
        aws.servicequotas.get_service_quota_output(service_code=SERVICE_CODE, quota_code=code, opts=opts).value
        for code in codes
    ]
    region = aws.get_region_output(opts=opts).region

    def judged(answers: list) -> str:
        where, *read = answers
        limits = {code: (None if value is None else float(value)) for code, value in zip(codes, read, strict=True)}
        errors, warnings = quota_findings(demands, limits, where)
        if errors:
            raise QuotaError("GPU vCPU quota too small:\n" + "\n".join(f"  - {error}" for error in errors))
        for warning in warnings:
            pulumi.log.warn(warning)
        return where

    return pulumi.Output.all(region, *values).apply(judged)
