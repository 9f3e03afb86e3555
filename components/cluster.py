"""The EKS cluster: control plane, an untainted system node group, and a Kubernetes provider.

The system node group exists so that CoreDNS and other add-ons always have somewhere to run
when every GPU node is tainted (aws/containers-roadmap#1930).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pulumi
import pulumi_aws as aws
import pulumi_eks as eks
import pulumi_kubernetes as k8s

from components.cluster_access import access_entries, creator_admin_transform, deployer_access_warning
from components.node_group import ManagedNodeGroupSpec, NodeRole, ami_type, create_managed_node_group, shape
from components.node_monitoring import configuration_json
from components.settings import ClusterSettings, SystemNodeGroupSettings
from facts import naming, versions
from facts.contract import PlacementContract
from facts.identity import PROJECT
from facts.zones import EKS_UNSUPPORTED_ZONE_IDS


@dataclass(frozen=True)
class ClusterNetwork:
    """A VPC made elsewhere in the program (for example by `Network`) for the cluster to run in."""

    vpc_id: pulumi.Input[str]
    """The VPC. Required."""
    private_subnet_ids: pulumi.Input[list[str]]
    """Subnets for the nodes and the control plane's network interfaces. Required."""
    public_subnet_ids: pulumi.Input[list[str]]
    """Subnets for internet-facing load balancers, also given to the control plane. Required."""


@dataclass(frozen=True)
class EksClusterArgs:
    """Inputs of `EksCluster`."""

    cluster: ClusterSettings = field(default_factory=ClusterSettings)
    """Control-plane settings. Default `ClusterSettings()` (see its fields)."""
    system_node_group: SystemNodeGroupSettings = field(default_factory=SystemNodeGroupSettings)
    """The untainted node group for add-ons. Default `SystemNodeGroupSettings()`."""
    node_monitoring_agent: bool = True
    """Install the `eks-node-monitoring-agent` add-on, which node auto repair relies on. Default true."""
    gpu_contract: PlacementContract | None = None
    """The GPU placement contract: the add-on's `dcgm-server` tolerates its taints, so GPU health is
    monitored on the tainted GPU nodes. Default none (the add-on's own tolerations: none for `dcgm-server`)."""
    tags: dict[str, str] = field(default_factory=dict)
    """Tags for the AWS resources. Default none."""
    pod_identity_agent: bool = False
    """Install the `eks-pod-identity-agent` add-on, which gives pods with a Pod Identity association their AWS
    credentials (the Cluster Autoscaler uses it). Default false."""
    network: ClusterNetwork | None = None
    """The VPC and subnets to run in. Default: `cluster.vpcId` and its subnets when set, else the account's
    default VPC."""
    aws_profile: str | None = None
    """AWS CLI profile the Kubernetes provider's kubeconfig authenticates with (`aws eks get-token
    --profile`). Default none: the default credential chain. Set it to the stack's `aws:profile` when the
    credentials come only from that profile."""


def cluster_subnet_args(settings: ClusterSettings, default_subnet_ids: pulumi.Input[list[str]] | None) -> dict:
    """The subnet arguments of `eks.Cluster` for the configured network.

    pulumi-eks takes either `subnetIds` or the `privateSubnetIds`/`publicSubnetIds` pair, never both: it
    throws "subnetIds, and the use of publicSubnetIds and/or privateSubnetIds are mutually exclusive"
    (pulumi/pulumi-eks nodejs/eks/cluster/cluster.ts, createCore). With the pair it gives the control
    plane both sets.
    """
    if settings.private_subnet_ids or settings.public_subnet_ids:
        return {
            "private_subnet_ids": list(settings.private_subnet_ids) or None,
            "public_subnet_ids": list(settings.public_subnet_ids) or None,
        }
    return {"subnet_ids": default_subnet_ids}


def node_subnet_ids(settings: ClusterSettings, default_subnet_ids: pulumi.Input[list[str]] | None):
    """Where nodes run: the private subnets when given, else the public ones, else the default VPC's."""
    return list(settings.private_subnet_ids or settings.public_subnet_ids) or default_subnet_ids


def system_node_group_spec(settings: SystemNodeGroupSettings, tags: dict[str, str]) -> ManagedNodeGroupSpec:
    """The system node group: standard AL2023 AMI, no labels or taints that keep add-ons away."""
    return ManagedNodeGroupSpec(
        **shape(settings), ami_type=ami_type("AL2023", settings.architecture, accelerated=False), tags=tags
    )


class EksCluster(pulumi.ComponentResource):
    """An EKS cluster with access entries, secrets encryption, audit logs and a system node group."""

    cluster_name: pulumi.Output[str]
    kubeconfig: pulumi.Output[str]
    node_role_arn: pulumi.Output[str]
    subnet_ids: pulumi.Output[list[str]]
    system_node_group_name: pulumi.Output[str]
    provider: k8s.Provider

    def __init__(self, name: str, args: EksClusterArgs, opts: pulumi.ResourceOptions | None = None):
        super().__init__(f"{PROJECT}:index:EksCluster", name, None, opts)
        settings = args.cluster
        child = pulumi.ResourceOptions(parent=self)

        if args.network is not None:
            vpc_id, default_subnet_ids = args.network.vpc_id, None
            subnet_args = {
                "private_subnet_ids": args.network.private_subnet_ids,
                "public_subnet_ids": args.network.public_subnet_ids,
            }
            nodes_subnet_ids = args.network.private_subnet_ids
        else:
            vpc_id, default_subnet_ids = self._network(settings)
            subnet_args = cluster_subnet_args(settings, default_subnet_ids)
            nodes_subnet_ids = node_subnet_ids(settings, default_subnet_ids)
        kms_key_arn = settings.secrets_kms_key_arn
        if kms_key_arn is None:
            kms_key_arn = aws.kms.Key(
                f"{name}-secrets",
                description=f"Envelope encryption of Kubernetes Secrets in EKS cluster {settings.name}",
                enable_key_rotation=True,
                deletion_window_in_days=30,
                tags=args.tags or None,
                opts=child,
            ).arn

        self.node_role = NodeRole(f"{name}-nodes", opts=child)
        eks_cluster = eks.Cluster(
            naming.eks_cluster_resource_name(name),
            name=settings.name,
            version=settings.version,
            vpc_id=vpc_id,
            **subnet_args,
            skip_default_node_group=True,
            authentication_mode=eks.AuthenticationMode.API,
            access_entries=access_entries(settings.admin_principal_arns) or None,
            endpoint_private_access=True,
            endpoint_public_access=settings.endpoint_public_access,
            public_access_cidrs=settings.public_access_cidrs if settings.endpoint_public_access else None,
            encryption_config_key_arn=kms_key_arn,
            enabled_cluster_log_types=settings.log_types,
            # The vLLM and device-plugin NetworkPolicies are enforced only with this on.
            vpc_cni_options=eks.VpcCniOptionsArgs(enable_network_policy=True),
            tags=args.tags or None,
            opts=pulumi.ResourceOptions(
                parent=self,
                transforms=[creator_admin_transform(settings.creator_admin, eks.AuthenticationMode.API.value)],
            ),
        )
        self._warn_about_deployer_access(settings)
        # pulumi-eks names the EKS cluster exactly `name` when given; depending on the component
        # makes everything that uses the name wait for the control plane.
        self.cluster_name = pulumi.Output.all(eks_cluster.kubeconfig_json, settings.name).apply(lambda parts: parts[1])
        self.kubeconfig = pulumi.Output.secret(eks_cluster.kubeconfig_json)
        self.node_role_arn = self.node_role.arn
        self.subnet_ids = pulumi.Output.from_input(nodes_subnet_ids)

        system_group = create_managed_node_group(
            f"{name}-system",
            system_node_group_spec(args.system_node_group, args.tags),
            cluster_name=self.cluster_name,
            node_role_arn=self.node_role_arn,
            subnet_ids=self.subnet_ids,
            parent=self,
        )
        self.system_node_group_name = system_group.node_group_name

        if args.node_monitoring_agent:
            aws.eks.Addon(
                f"{name}-node-monitoring-agent",
                cluster_name=self.cluster_name,
                addon_name=versions.NODE_MONITORING_AGENT_ADDON,
                addon_version=versions.NODE_MONITORING_AGENT_VERSION,
                configuration_values=configuration_json(args.gpu_contract) if args.gpu_contract else None,
                # The agent runs on every node, tainted or not; it must wait for nodes to exist.
                opts=pulumi.ResourceOptions(parent=self, depends_on=[system_group]),
            )

        # pulumi-eks's `kubeconfigJson` never names a profile (it is meant to be shared); its own provider
        # uses one rendered with `aws:profile`. Ours asks for the same when a profile is set, or every
        # Kubernetes request fails with 401 for users whose credentials live only in that profile.
        provider_kubeconfig = self.kubeconfig
        if args.aws_profile:
            provider_kubeconfig = pulumi.Output.secret(eks_cluster.get_kubeconfig(profile_name=args.aws_profile))
        self.pod_identity_agent: aws.eks.Addon | None = None
        if args.pod_identity_agent:
            self.pod_identity_agent = aws.eks.Addon(
                f"{name}-pod-identity-agent",
                cluster_name=self.cluster_name,
                addon_name=versions.POD_IDENTITY_AGENT_ADDON,
                opts=pulumi.ResourceOptions(parent=self, depends_on=[system_group]),
            )

        self.provider = k8s.Provider(
            f"{name}-k8s",
            kubeconfig=provider_kubeconfig,
            enable_server_side_apply=True,
            opts=child,
        )
        self.register_outputs(
            {
                "cluster_name": self.cluster_name,
                "kubeconfig": self.kubeconfig,
                "node_role_arn": self.node_role_arn,
                "subnet_ids": self.subnet_ids,
                "system_node_group_name": self.system_node_group_name,
            }
        )

    def _warn_about_deployer_access(self, settings: ClusterSettings) -> None:
        """Warn in the preview when the identity running it will trip over the cluster's admin settings."""
        if settings.creator_admin and not settings.admin_principal_arns:
            return
        caller = aws.get_caller_identity_output(opts=pulumi.InvokeOutputOptions(parent=self))

        def warn(deployer_arn: str | None) -> None:
            warning = deployer_access_warning(deployer_arn, settings.admin_principal_arns, settings.creator_admin)
            if warning:
                # Not tied to `self`: a log tied to a resource is sent later and can be lost at exit.
                pulumi.log.warn(warning)

        caller.arn.apply(warn)

    def _network(self, settings: ClusterSettings):
        """The VPC, and the default VPC's subnets when no VPC is configured (else None)."""
        if settings.vpc_id:
            return settings.vpc_id, None
        invoke = pulumi.InvokeOutputOptions(parent=self)
        default_vpc = aws.ec2.get_vpc_output(default=True, opts=invoke)
        # Only zones EKS supports: a default subnet in another one fails CreateCluster with
        # UnsupportedAvailabilityZoneException (facts/zones.py has the list and its source).
        zones = aws.get_availability_zones_output(
            state="available", exclude_zone_ids=list(EKS_UNSUPPORTED_ZONE_IDS), opts=invoke
        )
        subnets = aws.ec2.get_subnets_output(
            filters=[
                {"name": "vpc-id", "values": [default_vpc.id]},
                {"name": "default-for-az", "values": ["true"]},
                {"name": "availability-zone-id", "values": zones.zone_ids},
            ],
            opts=invoke,
        )
        return default_vpc.id, subnets.ids
