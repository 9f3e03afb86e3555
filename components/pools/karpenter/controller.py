"""Karpenter, the node provisioner of the GPU pools whose `provisioner` is `karpenter`.

The controller is installed from its official chart (`facts/versions.py`, `KARPENTER_VERSION`) on the system nodes,
with its AWS side as Karpenter's getting-started guide builds it with CloudFormation at that release
(components/pools/karpenter/manifests.py): the controller's permissions through EKS Pod Identity, scoped to this cluster;
a node role of its own with an EKS access entry of type `EC2_LINUX` (a managed node group's role already has the
entry EKS made for it, and a principal has only one); the interruption queue with the EventBridge rules that feed
it; and the `karpenter.sh/discovery` tag on the nodes' security group and on subnets the stack does not create
(with a warning that their owner may remove it; the subnets the stack creates carry it in their own tags,
`manifests.discovery_tags`). Each pool's NodePool and
EC2NodeClass are `KarpenterNodePool`s (components/pools/karpenter/pool.py).

`kubernetes.helm.v3.Release` rather than a v4 `Chart`: Helm installs the release as the guide's `helm upgrade
--install` does. A v4 Chart would register every rendered object as a Pulumi resource of this stack, the controller's
Deployment and RBAC included, which Helm's own upgrade path then no longer owns.

The CRDs are a release of their own, of the `karpenter-crd` chart at the same pin, and the controller's release skips
its chart's `crds/`: Helm installs a chart's `crds/` only on the first install and never upgrades them, while the
`karpenter-crd` chart has them as templates, which every upgrade applies (Karpenter's upgrade guide at v1.14.1,
"CRD Upgrades", website/content/en/v1.14/upgrading/upgrade-guide.md at 1d927085, read 2026-12-02). The controller's
release waits for the CRDs' and the NodePools for the controller's, so a new pin rolls the CRDs first.
"""

import json

import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s

from ...args.validate import Validation, args_path, coerce
from ...facts import naming, pod_identity, versions
from ...facts.identity import PROJECT
from ...facts.node_agents import SYSTEM_POOL_LABEL
from ..node_group import launched_node_role
from . import manifests as manifests
from .args import KarpenterArgs


class Karpenter(pulumi.ComponentResource):
    """Karpenter's controller and its AWS side, for the GPU pools it provisions (`KarpenterNodePool`)."""

    node_role_name: pulumi.Output[str]
    """Name of the IAM role of the nodes Karpenter launches (an EC2NodeClass's `role`)."""
    node_role_arn: pulumi.Output[str]
    """ARN of that role, which has an `EC2_LINUX` access entry."""
    interruption_queue: pulumi.Output[str]
    """Name of the SQS queue of interruption events the controller reads."""
    release: k8s.helm.v3.Release
    """The controller's Helm release; a NodePool depends on it, and through it on Karpenter's CRDs."""
    crd_release: k8s.helm.v3.Release
    """The Helm release of Karpenter's CRDs (the `karpenter-crd` chart), which the controller's release waits for."""

    def __init__(self, name: str, args: KarpenterArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(KarpenterArgs, args, args_path("Karpenter", name))
        validation = Validation(args_path("Karpenter", name), args)
        validation.tags(args.tags)
        # Subnets made elsewhere; the stack's own carry the tag in their own tags (`manifests.discovery_tags`).
        brought_subnets = list(args.subnet_ids or [])
        if brought_subnets:
            validation.warn(manifests.subnet_tag_warning(brought_subnets))
        validation.done()
        super().__init__(f"{PROJECT}:index:Karpenter", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        invoke = pulumi.InvokeOutputOptions(parent=self)
        tags = dict(args.tags or {})
        partition = aws.get_partition_output(opts=invoke)
        region = aws.get_region_output(opts=invoke).region
        account = aws.get_caller_identity_output(opts=invoke).account_id
        cluster_name = pulumi.Output.from_input(args.cluster_name)

        nodes = launched_node_role(
            name,
            launcher="Karpenter",
            cluster_name=args.cluster_name,
            policies=manifests.NODE_ROLE_POLICIES,
            access_entry_type="EC2_LINUX",
            partition=partition,
            tags=tags,
            opts=child,
        )
        node_role, attachments, access_entry = nodes.role, nodes.attachments, nodes.access_entry

        queue = aws.sqs.Queue(
            naming.autonamed_resource_name(f"{name}-interruption", naming.SQS_QUEUE_NAME_MAX),
            message_retention_seconds=manifests.QUEUE_RETENTION_SECONDS,
            sqs_managed_sse_enabled=True,
            tags=tags or None,
            opts=child,
        )
        aws.sqs.QueuePolicy(
            f"{name}-interruption-policy",
            queue_url=queue.url,
            policy=queue.arn.apply(lambda arn: json.dumps(manifests.queue_policy(arn))),
            opts=child,
        )
        for event, (source, detail_type) in manifests.INTERRUPTION_EVENTS.items():
            rule = aws.cloudwatch.EventRule(
                naming.autonamed_resource_name(f"{name}-{event}", naming.EVENT_RULE_NAME_MAX),
                description=f"{detail_type} events for Karpenter's interruption queue",
                event_pattern=json.dumps(manifests.event_pattern(source, detail_type)),
                tags=tags or None,
                opts=child,
            )
            aws.cloudwatch.EventTarget(
                f"{name}-{event}-target",
                rule=rule.name,
                target_id="KarpenterInterruptionQueueTarget",
                arn=queue.arn,
                opts=child,
            )

        role = aws.iam.Role(
            naming.autonamed_role_resource_name(f"{name}-controller-role"),
            description=pulumi.Output.concat(
                "Karpenter controller of EKS cluster ", cluster_name, " (EKS Pod Identity)"
            ),
            assume_role_policy=json.dumps(pod_identity.trust_policy()),
            tags=tags or None,
            opts=child,
        )
        policy = aws.iam.RolePolicy(
            f"{name}-controller",
            role=role.id,
            policy=pulumi.Output.all(
                cluster_name, partition.partition, region, account, node_role.arn, queue.arn
            ).apply(lambda values: json.dumps(manifests.controller_policy(*values))),
            opts=child,
        )
        association = aws.eks.PodIdentityAssociation(
            f"{name}-pod-identity",
            cluster_name=args.cluster_name,
            namespace=manifests.NAMESPACE,
            service_account=manifests.SERVICE_ACCOUNT,
            role_arn=role.arn,
            tags=tags or None,
            opts=child,
        )

        aws.ec2.Tag(
            f"{name}-discovery-security-group",
            resource_id=args.node_security_group_id,
            key=manifests.DISCOVERY_TAG,
            value=cluster_name,
            opts=child,
        )
        for index, subnet_id in enumerate(brought_subnets):
            aws.ec2.Tag(
                f"{name}-discovery-subnet-{index}",
                resource_id=subnet_id,
                key=manifests.DISCOVERY_TAG,
                value=cluster_name,
                opts=child,
            )

        key, value = SYSTEM_POOL_LABEL
        self.crd_release = k8s.helm.v3.Release(
            f"{name}-crd-release",
            name=manifests.CRD_RELEASE_NAME,
            chart=versions.KARPENTER_CRD_CHART,
            version=versions.KARPENTER_VERSION,
            namespace=manifests.NAMESPACE,
            opts=child,
        )
        self.release = k8s.helm.v3.Release(
            f"{name}-release",
            name=manifests.RELEASE_NAME,
            chart=versions.KARPENTER_CHART,
            version=versions.KARPENTER_VERSION,
            namespace=manifests.NAMESPACE,
            # The CRDs are the karpenter-crd release's, which upgrades them with the pin.
            skip_crds=True,
            values=pulumi.Output.all(cluster_name, queue.name, region).apply(
                lambda values: manifests.helm_values(values[0], values[1], {key: value}, values[2])
            ),
            opts=pulumi.ResourceOptions(
                parent=self,
                # The controller needs its credentials and its queue from its first start, and its nodes need
                # their role's policies and access entry to join. It reads the kube-dns Service's address once, as
                # it starts, and goes on without it when CoreDNS is not there yet (pkg/operator/operator.go at
                # v1.14.1, `KubeDNSIP`: "unable to detect the IP of the kube-dns service"), so it waits for CoreDNS.
                depends_on=[
                    self.crd_release,
                    association,
                    policy,
                    access_entry,
                    *attachments,
                    *filter(None, [args.pod_identity_agent, args.coredns]),
                ],
            ),
        )
        self.node_role_name = node_role.name
        self.node_role_arn = node_role.arn
        self.interruption_queue = queue.name
        self.register_outputs(
            {
                "node_role_name": self.node_role_name,
                "node_role_arn": self.node_role_arn,
                "interruption_queue": self.interruption_queue,
                "release": self.release,
                "crd_release": self.crd_release,
            }
        )
