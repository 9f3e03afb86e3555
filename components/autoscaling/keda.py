"""KEDA, which scales each autoscaled vLLM server's Deployment on the server's queue, from its official chart.

Installed as one Helm release (kedacore/charts `keda`, pinned in facts/versions.py) into a namespace of its own
that enforces the restricted Pod Security Standard. The chart's pods carry no tolerations and no nodeSelector
(kedacore/charts v2.20.2 keda/values.yaml: `tolerations: []`, `nodeSelector: {}`), so the GPU taint keeps them
on the system node group. The chart installs KEDA's CRDs (values.yaml `crds.install: true`), so the servers'
ScaledObjects are created after the release.

With `amp_workspace_arn`, KEDA's operator queries an Amazon Managed Service for Prometheus workspace as an IAM
role allowed only to query it, through an EKS Pod Identity association on the operator's ServiceAccount
(keda_manifests.py says why that account). The release waits for the association: the Pod Identity webhook gives
credentials to pods created after it (aws/amazon-eks-pod-identity-webhook README: it modifies "new pods launched
using this Service Account"), so an operator pod started before it (a stack that adds the workspace later)
queries unsigned until it is restarted.

With `operator_role` (servers fed from SQS queues, components/vllm/queue/), the operator gets the same role without the
workspace's policy; each queue adds to it the one grant its trigger needs, reading that queue's attributes.
"""

import json

import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s

from ..args.validate import Validation, args_path, argument_problem, coerce
from ..facts import naming, pod_identity, versions
from ..facts.identity import PROJECT
from ..ordering import once_created
from ..settings.fields import is_release_tag
from .args import KedaArgs
from .keda_manifests import NAMESPACE, OPERATOR_SERVICE_ACCOUNT, amp_query_policy, keda_namespace


def validated(name: str, args: KedaArgs) -> str:
    """The chart version `args` name; raises `ConfigError` naming a version that is not a release."""
    where = args_path("Keda", name)
    validation = Validation(where, args)
    args = validation.known(args)
    version = args.version or versions.KEDA_VERSION
    if not is_release_tag(f"v{version}"):
        validation.add(
            [
                argument_problem(
                    f"{where}.version",
                    f"{version!r} is not a chart release; allowed: X.Y.Z such as {versions.KEDA_VERSION}",
                )
            ]
        )
    for given in ("amp_workspace_arn", "operator_role"):
        if getattr(args, given) not in (None, False) and args.cluster_name is None:
            validation.add(
                [
                    argument_problem(
                        f"{where}.cluster_name",
                        f"none, given {given}; allowed: the EKS cluster's name, for the operator's Pod Identity "
                        "association",
                    )
                ]
            )
            break
    validation.done()
    return version


class Keda(pulumi.ComponentResource):
    """KEDA's operator, metrics server and admission webhooks on the system nodes, from its official chart."""

    namespace: pulumi.Output[str]
    """Namespace of KEDA's pods, known once the chart's release is installed."""
    operator_role_name: pulumi.Output[str]
    """Name of the IAM role KEDA's operator runs as, which queue-fed servers grant reading their queues; empty
    without `amp_workspace_arn` or `operator_role`."""

    def __init__(self, name: str, args: KedaArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(KedaArgs, args, args_path("Keda", name))
        # Checked before anything is registered.
        version = validated(name, args)
        super().__init__(f"{PROJECT}:index:Keda", name, None, opts)
        manifest = keda_namespace(name)
        ns = k8s.core.v1.Namespace(
            f"{name}-ns", metadata=manifest["metadata"], opts=pulumi.ResourceOptions(parent=self)
        )
        needs: list[pulumi.Resource] = [ns]
        self.operator_role_name = pulumi.Output.from_input("")
        if args.amp_workspace_arn is not None or args.operator_role:
            needs += self._operator_identity(name, args)
        release = k8s.helm.v3.Release(
            f"{name}-release",
            name="keda",
            chart=versions.KEDA_CHART,
            version=version,
            repository_opts=k8s.helm.v3.RepositoryOptsArgs(repo=versions.KEDA_CHART_REPOSITORY),
            namespace=NAMESPACE,
            opts=pulumi.ResourceOptions(parent=self, depends_on=needs),
        )
        # Resolves once the release (with KEDA's CRDs) exists, so the ScaledObjects given it wait for it.
        self.namespace = once_created(NAMESPACE, [release])
        self.register_outputs({"namespace": self.namespace, "operator_role_name": self.operator_role_name})

    def _operator_identity(self, name: str, args: KedaArgs) -> list[pulumi.Resource]:
        """The operator's IAM role, its query-only policy on the workspace (when given) and its Pod Identity
        association; what the release waits for. Queue-fed servers add their own read grants to the role."""
        child = pulumi.ResourceOptions(parent=self)
        role = aws.iam.Role(
            naming.autonamed_role_resource_name(f"{name}-query-role"),
            description="KEDA operator: reads the demand its ScaledObjects scale on (EKS Pod Identity)"
            if args.amp_workspace_arn is None
            else "KEDA operator: queries one Amazon Managed Service for Prometheus workspace (EKS Pod Identity)",
            assume_role_policy=json.dumps(pod_identity.trust_policy()),
            tags=args.tags or None,
            opts=child,
        )
        self.operator_role_name = role.name
        needs: list[pulumi.Resource] = []
        if args.amp_workspace_arn is not None:
            workspace_arn: pulumi.Input[str] = args.amp_workspace_arn
            needs.append(
                aws.iam.RolePolicy(
                    f"{name}-query",
                    role=role.id,
                    policy=pulumi.Output.from_input(workspace_arn).apply(lambda arn: json.dumps(amp_query_policy(arn))),
                    opts=child,
                )
            )
        association = aws.eks.PodIdentityAssociation(
            f"{name}-pod-identity",
            cluster_name=args.cluster_name,
            namespace=NAMESPACE,
            service_account=OPERATOR_SERVICE_ACCOUNT,
            role_arn=role.arn,
            tags=args.tags or None,
            opts=child,
        )
        return [*needs, association, *filter(None, [args.pod_identity_agent])]
