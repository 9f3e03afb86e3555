"""The inputs of the Cluster Autoscaler and KEDA. How a declaration reads: components/args/declare.py."""

from __future__ import annotations

from ..args.declare import Args, Own, Take, _args
from ..facts import versions
from ..settings.autoscaler import AutoscaledClusterSettings, AutoscalerSettings
from ..settings.section import SectionModel

STACK_ONLY: dict[type[SectionModel], tuple[str, ...]] = {
    AutoscalerSettings: ("enabled",),
}
"""Settings fields of this concern no component takes: the stack config alone has them."""

ARGS: tuple[Args, ...] = (
    _args(
        "ClusterAutoscalerArgs",
        "autoscaling/args",
        "Inputs of `ClusterAutoscaler`. Fields without `Input` must be plain values (they go into the IAM policy "
        "and the autoscaler's flags) and are checked when it is constructed, with the rules of the stack config's "
        "`autoscaler` section.",
        Take(AutoscaledClusterSettings),
        Take(AutoscalerSettings),
        Own(
            "eks_cluster_name",
            "pulumi.Input[str] | None",
            "The cluster name as an output (`EksCluster.cluster_name`), so the Pod Identity association waits for "
            "the cluster. Default `cluster_name`.",
        ),
        Own(
            "region",
            "pulumi.Input[str] | None",
            "AWS region of the cluster, given to the autoscaler as `AWS_REGION`: with IMDSv2's hop limit of 1 (the "
            "node groups' launch templates) a pod cannot read it from instance metadata. Default: the provider's "
            "region.",
        ),
        Own(
            "pod_identity_agent",
            "aws.eks.Addon | None",
            "The `eks-pod-identity-agent` add-on that serves the credentials; the autoscaler starts after it. "
            "Default none (the add-on is managed elsewhere).",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the IAM role and the Pod Identity association. Default none."),
    ),
    _args(
        "KedaArgs",
        "autoscaling/args",
        "Inputs of `Keda`. Fields without `Input` must be plain values; they are checked when the component is "
        "constructed.",
        Own(
            "version",
            "str | None",
            "Version of KEDA's official chart (kedacore/charts), whose ScaledObject schema the plan checks.",
            default=versions.KEDA_VERSION,
        ),
        Own(
            "amp_workspace_arn",
            "pulumi.Input[str] | None",
            "ARN of the Amazon Managed Service for Prometheus workspace the ScaledObjects query: KEDA's operator gets "
            "an IAM role allowed only to query it, through EKS Pod Identity. Needs `cluster_name`. Default none.",
        ),
        Own(
            "operator_role",
            "bool | None",
            "Give KEDA's operator an IAM role through EKS Pod Identity (`operator_role_name`) even without "
            "`amp_workspace_arn`, for servers fed from SQS queues to grant reading their queues' attributes "
            "(`VllmServer`'s `keda_operator_role`). Needs `cluster_name`. Default false.",
        ),
        Own(
            "cluster_name",
            "pulumi.Input[str] | None",
            "Name of the EKS cluster, for the Pod Identity association of KEDA's operator. Default none.",
        ),
        Own(
            "pod_identity_agent",
            "aws.eks.Addon | None",
            "The `eks-pod-identity-agent` add-on that serves the operator's credentials; KEDA starts after it. "
            "Default none (the add-on is managed elsewhere).",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the IAM role and the Pod Identity association. Default none."),
    ),
)
"""This concern's args classes, nested ones before the classes that use them (the generated module evaluates
annotations when a class is defined)."""
