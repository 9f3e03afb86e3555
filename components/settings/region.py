"""The ARNs a stack config names against the configured region: the partition they belong to, and the region
of the KMS key. `reader.parse_stack_config` calls these once `aws:region` is known to be an EKS region."""

from __future__ import annotations

from ..facts.regions import BOTOCORE_VERSION, eks_regions, service_regions
from .cluster import ClusterSettings
from .errors import ConfigProblem
from .observability import PrometheusSettings


def arn_problems(cluster: ClusterSettings, region: str) -> list[ConfigProblem]:
    """ARNs of `cluster` outside `region`'s partition, and a secrets key outside `region`; keys inside `cluster`.

    An ARN names its partition (IAM User Guide, "Identify AWS resources with Amazon Resource Names (ARNs)", "ARN
    format": a partition is a group of Regions, and each account is scoped to one), and an access entry or key of
    another partition does not exist for the cluster's. EKS takes only a KMS key of the cluster's own region (EKS API
    reference, `Provider.keyArn`: "created in the same AWS Region as the cluster").
    """
    partition = eks_regions()[region]
    problems = [
        ConfigProblem(
            "adminPrincipalArns",
            f"{arn!r} is an ARN of partition {arn.split(':')[1]!r}, not of {region}'s; allowed: arn:{partition}:iam::...",
        )
        for arn in cluster.admin_principal_arns
        if arn.split(":")[1] != partition
    ]
    key = cluster.secrets_kms_key_arn
    if key:
        key_partition, key_region = key.split(":")[1], key.split(":")[3]
        if (key_partition, key_region) != (partition, region):
            problems.append(
                ConfigProblem(
                    "secretsKmsKeyArn",
                    f"{key!r} is a key in {key_region} ({key_partition}); allowed: a key of {region} "
                    f"(arn:{partition}:kms:{region}:...), the cluster's region",
                )
            )
    return problems


def amp_problems(prometheus: PrometheusSettings, region: str) -> list[ConfigProblem]:
    """An `ampWorkspace` ARN of another partition than `region`'s, or of a region where the service has no endpoint;
    keys inside `prometheus`. The query-only policy names the ARN, and the role the stack creates acts in the
    region's partition only (IAM User Guide, "Identify AWS resources with Amazon Resource Names (ARNs)", "ARN
    format": each account is scoped to one partition). A workspace of another region of the partition is
    allowed: KEDA signs for the ARN's region, which must then be one where Amazon Managed Service for Prometheus
    runs (botocore's endpoint data lists its `aps` endpoints)."""
    partition = eks_regions()[region]
    given = prometheus.amp_partition()
    parts = prometheus.amp_parts(region)
    if given is None or parts is None:
        return []
    if given != partition:
        return [
            ConfigProblem(
                "ampWorkspace",
                f"{prometheus.amp_workspace!r} is a workspace of partition {given!r}, not of {region}'s; allowed: "
                f"a workspace ID, or an ARN arn:{partition}:aps:...",
            )
        ]
    amp_regions = [name for name, of in service_regions("aps").items() if of == partition]
    if parts[1] in amp_regions:
        return []
    return [
        ConfigProblem(
            "ampWorkspace",
            f"{prometheus.amp_workspace!r} names region {parts[1]!r}, where Amazon Managed Service for Prometheus has "
            f"no endpoint (botocore {BOTOCORE_VERSION}'s endpoint data); allowed: a workspace ID in {region}, or an "
            f"ARN of a region where it runs, such as arn:{partition}:aps:{region if region in amp_regions else amp_regions[0]}:...",
        )
    ]
