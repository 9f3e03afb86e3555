"""Settings of the EKS control plane (`cluster`), configured by components/cluster/cluster.py."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator

from ..facts import eks_model, versions
from ..facts.principals import iam_principal
from .errors import ConfigProblem, _bad
from .fields import Ipv4Cidr, SubnetIds, each_once, rule
from .section import SectionModel

DEFAULT_LOG_TYPES = ("api", "audit", "authenticator")
_KUBERNETES_VERSION = re.compile(r"^1\.\d{1,2}$")


def _version(value: str) -> str:
    allowed = ", ".join(versions.SUPPORTED_KUBERNETES_VERSIONS)
    if not _KUBERNETES_VERSION.match(value):
        raise _bad(value, f'a Kubernetes minor version such as "1.34": {allowed}', "malformed version")
    if value not in versions.SUPPORTED_KUBERNETES_VERSIONS:
        raise _bad(value, allowed, "unsupported version")
    if versions.support_ended(value, versions.today()):
        end = versions.EKS_VERSION_BY_NAME[value].end_of_extended_support
        current = [v for v in versions.SUPPORTED_KUBERNETES_VERSIONS if not versions.support_ended(v, versions.today())]
        raise _bad(value, ", ".join(current), f"EKS support ended on {end} for version")
    return value


def _admins(value: list[str]) -> list[str]:
    seen: dict[object, str] = {}
    for arn in value:
        principal = iam_principal(arn)
        if principal is None:
            raise _bad(
                arn,
                "IAM role or user ARNs such as arn:aws:iam::123456789012:role/admins (EKS takes no STS session ARNs)",
            )
        if principal in seen:
            raise _bad(
                arn,
                "each principal once (EKS allows one access entry per principal; a role's path "
                "does not make it another role)",
                f"same principal as {seen[principal]!r}:",
            )
        seen[principal] = arn
    return value


def _known_log_type(log_type: str) -> str:
    allowed = eks_model.log_types()
    if log_type not in allowed:
        raise _bad(log_type, ", ".join(allowed), "unknown log type")
    return log_type


def _retention_days(days: int) -> int:
    allowed = eks_model.log_retention_days()
    if days not in allowed:
        raise _bad(days, ", ".join(str(period) for period in allowed), "retention period CloudWatch Logs refuses:")
    return days


ClusterName = Annotated[
    str,
    rule(
        lambda value: bool(re.match(r"^[0-9A-Za-z][A-Za-z0-9\-_]{0,99}$", value)),
        "1-100 letters, digits, '-' or '_', starting with a letter or digit",
    ),
]
KubernetesVersion = Annotated[str, AfterValidator(_version)]
VpcId = Annotated[
    str, rule(lambda value: bool(re.match(r"^vpc-[0-9a-f]{8,17}$", value)), "a VPC id such as vpc-0123456789abcdef0")
]
KmsKeyArn = Annotated[
    str,
    rule(
        lambda value: bool(re.match(r"^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key/[\w-]+$", value)),
        "a KMS key ARN such as arn:aws:kms:us-west-2:123456789012:key/<id>",
    ),
]
LogTypes = Annotated[
    list[Annotated[str, AfterValidator(_known_log_type)]], each_once("log type", "duplicate log types in")
]

# CloudWatch Logs takes only these periods (PutRetentionPolicy `retentionInDays`; botocore's logs model).
LogRetentionDays = Annotated[int, AfterValidator(_retention_days)]


class ClusterSettings(SectionModel):
    """The EKS control plane (`cluster`)."""

    name: ClusterName = "gpu-inference"
    """EKS cluster name, 1-100 letters, digits, '-' or '_', starting with a letter or digit; names derived from it
    (IAM roles, node groups) are shortened with a stable hash where they would pass AWS's limits."""
    version: KubernetesVersion = versions.DEFAULT_KUBERNETES_VERSION
    """Kubernetes minor version such as "1.34", one EKS supports (`facts/versions.py`); one in extended support
    is accepted with a warning, as EKS bills its control plane at a higher rate."""
    vpc_id: VpcId | None = None
    """An existing VPC to run in (`vpc-...`), with `privateSubnetIds` (or `publicSubnetIds`) of it; `network`
    must then be unset. Default: a VPC of the stack's own (`network`)."""
    private_subnet_ids: SubnetIds = []
    """Subnets of `vpcId` for the nodes (with a NAT route) and the private endpoint, each once; with
    `publicSubnetIds` at least two, in two availability zones (EKS needs two for the control plane)."""
    public_subnet_ids: SubnetIds = []
    """Subnets of `vpcId` for public load balancers, each once; the control plane gets them too."""
    endpoint_public_access: bool = True
    """Whether the Kubernetes API is reachable from the internet (from `publicAccessCidrs`), as `pulumi up`
    needs when it runs outside the VPC."""
    public_access_cidrs: list[Ipv4Cidr] = ["0.0.0.0/0"]
    """IPv4 CIDRs allowed to reach the public endpoint; while they include 0.0.0.0/0 a warning says so."""
    admin_principal_arns: Annotated[list[str], AfterValidator(_admins)] = []
    """IAM role or user ARNs (no STS session ARNs), each principal once, given cluster-admin through access
    entries."""
    creator_admin: bool = True
    """Whether EKS makes the identity that creates the cluster a cluster admin (an access entry outside the
    stack). With false, `adminPrincipalArns` must list the admins, including the identity that runs
    `pulumi up`. Read only when the cluster is created; changing it later does not replace the cluster."""
    secrets_kms_key_arn: KmsKeyArn | None = None
    """KMS key ARN for envelope encryption of Secrets. Default: a key created with rotation on."""
    log_types: LogTypes = list(DEFAULT_LOG_TYPES)
    """Control-plane log types sent to CloudWatch, EKS `LogType` values, each once; leaving out one of the
    defaults warns."""
    log_retention_days: LogRetentionDays = 90
    """Days CloudWatch keeps the control-plane logs, in the log group `/aws/eks/<name>/cluster` that the stack
    creates before the cluster and deletes with it; one of the periods CloudWatch Logs accepts (1, 3, 5, 7, 14,
    30, 60, 90, ... 3653; a refused value is reported with them all)."""

    def problems(self) -> list[ConfigProblem]:
        problems = []
        subnets = self.private_subnet_ids or self.public_subnet_ids
        if self.vpc_id and not subnets:
            problems.append(
                ConfigProblem(
                    "vpcId",
                    f"{self.vpc_id!r} is set without subnets; allowed: "
                    "set privateSubnetIds (or publicSubnetIds) of that VPC too",
                )
            )
        if subnets and not self.vpc_id:
            problems.append(
                ConfigProblem("vpcId", "missing while subnets are set; allowed: the id of the subnets' VPC")
            )
        # EKS places control-plane network interfaces in subnets of at least two availability zones
        # (EKS user guide, "View Amazon EKS networking requirements for VPC and subnets"). Zones cannot
        # be known offline; fewer than two subnets can never meet the rule.
        control_plane_subnets = set(self.private_subnet_ids) | set(self.public_subnet_ids)
        if self.vpc_id and len(control_plane_subnets) == 1:
            subnet_key = "privateSubnetIds" if self.private_subnet_ids else "publicSubnetIds"
            problems.append(
                ConfigProblem(
                    subnet_key,
                    f"{sorted(control_plane_subnets)!r} is one subnet; "
                    "allowed: subnets in at least two availability zones (EKS needs two for "
                    "the control plane)",
                )
            )
        if self.endpoint_public_access and not self.public_access_cidrs:
            problems.append(
                ConfigProblem(
                    "publicAccessCidrs",
                    "[] with endpointPublicAccess true; allowed: at least one CIDR, or endpointPublicAccess false",
                )
            )
        if not self.creator_admin and not self.admin_principal_arns:
            problems.append(
                ConfigProblem(
                    "creatorAdmin",
                    "false with no adminPrincipalArns: nobody could "
                    "administer the cluster or install its workloads; allowed: true, or list "
                    "the admins (the identity running pulumi up among them) in "
                    "adminPrincipalArns",
                )
            )
        return problems
