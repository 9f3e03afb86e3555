"""The EKS cluster: control plane, an untainted system node group, and a Kubernetes provider.

The system node group exists so that CoreDNS and other add-ons always have somewhere to run
when every GPU node is tainted (aws/containers-roadmap#1930).
"""

import json
from typing import Any

import pulumi
import pulumi_aws as aws
import pulumi_eks as eks
import pulumi_kubernetes as k8s

from ..args.validate import Validation, args_path, coerce, placement_contract
from ..facts import naming, versions
from ..facts.identity import PROJECT
from ..facts.node_agents import SYSTEM_POOL_LABEL
from ..facts.zones import EKS_UNSUPPORTED_ZONE_IDS
from ..ordering import once_created
from ..pools.auto_mode.cluster import auto_mode_args, bootstrap_addons_transform
from ..pools.node_group import ManagedNodeGroupSpec, NodeRole, ami_type, create_managed_node_group, shape
from ..settings import ClusterSettings, ConfigProblem, SystemNodeGroupSettings
from ..settings.cluster import DEFAULT_LOG_TYPES
from .access import access_entries, creator_admin_transform, deployer_access_warning
from .addons import ManagedAddon, child_urn, coredns_configuration, create_addon
from .args import EksClusterArgs, SystemNodeGroupArgs
from .node_monitoring import configuration_json


def validated(name: str, args: EksClusterArgs):
    """The cluster settings, system node group settings and GPU contract (or None) from `args`; raises
    `ConfigError` naming every bad argument."""
    where = args_path("EksCluster", name)
    validation = Validation(where, args)
    args = validation.known(args)
    cluster = validation.section(ClusterSettings, args, defaults={"name": name})
    if cluster is not None:
        cluster_warnings(cluster, args.network is not None, validation)
    system = validation.section(
        SystemNodeGroupSettings, args.system_node_group or SystemNodeGroupArgs(), "systemNodeGroup"
    )
    contract = None
    if args.gpu_placement is not None:
        contract, _ = placement_contract(args.gpu_placement, validation, "gpuPlacement")
    if args.network is not None and args.vpc_id:
        validation.add(
            [
                ConfigProblem(
                    f"{where}.network",
                    f"is set while vpcId {args.vpc_id!r} names a VPC; allowed: one of network and vpcId",
                    namespace=None,
                )
            ]
        )
    validation.tags(args.tags)
    validation.done()
    return cluster, system, contract


def cluster_warnings(settings: ClusterSettings, network_given: bool, validation: Validation) -> None:
    """Warns of settings that are valid but weaken the cluster or cost more than they need to; `network_given`
    when the nodes' subnets come from the `network` argument."""
    support = versions.support_warning(settings.version, versions.today())
    if support:
        validation.warn(f"{validation.key('version')} {settings.version!r}: {support}")
    if settings.endpoint_public_access and "0.0.0.0/0" in settings.public_access_cidrs:
        validation.warn(
            f"{validation.key('public_access_cidrs')} includes 0.0.0.0/0: the Kubernetes API endpoint is reachable "
            "from the whole internet; restrict it to your networks"
        )
    missing_logs = [log for log in DEFAULT_LOG_TYPES if log not in settings.log_types]
    if missing_logs:
        validation.warn(
            f"{validation.key('log_types')} leaves out {', '.join(missing_logs)}: control-plane activity will not "
            "be auditable"
        )
    if network_given or settings.vpc_id:
        return
    # Without a VPC the cluster takes the default VPC's default subnets (`_network`), which give every instance
    # launched in them a public IPv4 address (Amazon VPC user guide, "Default subnets").
    public = "the nodes run in the default VPC's default subnets, which are public and give each node a public IP"
    if validation.config_section is not None:
        # This repository's stack gives no network exactly when its config asks for the default VPC.
        validation.warn(
            f"{validation.key('vpc_id')} is unset and no network is given (network.mode 'defaultVpc'): {public}; "
            "use the default network.mode 'create', or set cluster.vpcId and privateSubnetIds, for anything but a "
            "test"
        )
    else:
        validation.warn(
            f"{validation.where}.network and vpc_id are not given: {public}; pass a Network's outputs as network, "
            "or vpc_id with private_subnet_ids, for anything but a test"
        )


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


def public_subnets_problem(public_key: str, private_key: str, subnet_ids: list[str]) -> str:
    """The error for node subnets that are public but give instances no public IPv4 address; the keys name the
    public and private subnet arguments as the caller wrote them (`Validation.key`)."""
    return (
        f"{public_key}: {subnet_ids!r} do not assign public IPv4 addresses (MapPublicIpOnLaunch is "
        f"false), and nodes there without {private_key} never reach EKS to join; allowed: subnets with "
        f"MapPublicIpOnLaunch true (aws ec2 modify-subnet-attribute --map-public-ip-on-launch), or {private_key} "
        "with a NAT route for the nodes"
    )


class PublicSubnetsError(pulumi.RunError):
    """Node subnets that assign no public IPv4 address. A `RunError` and not a `ValueError`: the SDK rewraps a
    `ValueError` raised in an apply as a plain `ValueError` (pulumi/runtime/rpc.py, resource.py "has risen"), which
    the language host prints with its traceback; a `RunError` reaches it as itself and is printed alone."""


def control_plane_log_group(cluster_name: str) -> str:
    """The CloudWatch log group EKS sends a cluster's control-plane logs to (EKS user guide, "Send control plane
    logs to CloudWatch Logs": `/aws/eks/<cluster-name>/cluster`)."""
    return f"/aws/eks/{cluster_name}/cluster"


def system_node_group_spec(
    settings: SystemNodeGroupSettings, tags: dict[str, str], kubernetes_version: pulumi.Input[str] | None = None
) -> ManagedNodeGroupSpec:
    """The system node group: standard AL2023 AMI, no taints that keep add-ons away, and the label CoreDNS selects."""
    key, value = SYSTEM_POOL_LABEL
    return ManagedNodeGroupSpec(
        **shape(settings),
        ami_type=ami_type("AL2023", settings.architecture, accelerated=False),
        labels={key: value},
        tags=tags,
        kubernetes_version=kubernetes_version,
    )


class EksCluster(pulumi.ComponentResource):
    """An EKS cluster with access entries, secrets encryption, audit logs and a system node group."""

    cluster_name: pulumi.Output[str]
    """Name of the EKS cluster; resolves once the control plane exists."""
    kubeconfig: pulumi.Output[str]
    """Kubeconfig (JSON, secret) that authenticates with `aws eks get-token`."""
    node_role_arn: pulumi.Output[str]
    """ARN of the nodes' IAM role, for `GpuNodeGroup`; resolves once its policies are attached."""
    subnet_ids: pulumi.Output[list[str]]
    """Subnets the nodes run in."""
    system_node_group_name: pulumi.Output[str]
    """Name of the untainted system node group."""
    eks_cluster: eks.Cluster
    """The pulumi-eks cluster, for callers who need more of it (its `eks_cluster`, OIDC provider, ...)."""
    provider: k8s.Provider
    """Kubernetes provider of the cluster (server-side apply), for Kubernetes resources on it."""
    node_role: aws.iam.Role
    """IAM role of every node of the cluster's managed node groups."""
    cluster_security_group_id: pulumi.Output[str]
    """The security group EKS creates for the cluster (`eks-cluster-sg-*`): on the control plane's network
    interfaces and on every node of the managed node groups (their launch templates name no security group).
    Add ingress rules to it to reach the nodes."""
    control_plane_security_group_id: pulumi.Output[str]
    """The additional security group pulumi-eks creates for the control plane (`clusterSecurityGroupId`)."""
    kubernetes_version: pulumi.Output[str]
    """The control plane's Kubernetes version, for node groups' `version`; resolves once the add-ons nodes need
    (VPC CNI, kube-proxy) are at the versions EKS offers for it, so node groups are created and upgraded after them."""

    def __init__(self, name: str, args: EksClusterArgs, opts: pulumi.ResourceOptions | None = None):
        where = args_path("EksCluster", name)
        args = coerce(EksClusterArgs, args, where)
        # Checked before anything is registered.
        settings, system_settings, gpu_contract = validated(name, args)
        # Names arguments in messages as the caller wrote them.
        keys = Validation(where, args)
        super().__init__(f"{PROJECT}:index:EksCluster", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        tags = dict(args.tags or {})

        if args.network is not None:
            vpc_id, default_subnet_ids = args.network.vpc_id, None
            subnet_args: dict[str, Any] = {
                "private_subnet_ids": args.network.private_subnet_ids,
                "public_subnet_ids": args.network.public_subnet_ids,
            }
            nodes_subnet_ids = args.network.private_subnet_ids
        else:
            vpc_id, default_subnet_ids = self._network(settings)
            subnet_args = cluster_subnet_args(settings, default_subnet_ids)
            nodes_subnet_ids = node_subnet_ids(settings, default_subnet_ids)
            if settings.public_subnet_ids and not settings.private_subnet_ids:
                nodes_subnet_ids = self._assigning_public_ips(
                    list(settings.public_subnet_ids), keys.key("public_subnet_ids"), keys.key("private_subnet_ids")
                )
        kms_key_arn = settings.secrets_kms_key_arn
        if kms_key_arn is None:
            kms_key_arn = aws.kms.Key(
                f"{name}-secrets",
                description=f"Envelope encryption of Kubernetes Secrets in EKS cluster {settings.name}",
                enable_key_rotation=True,
                deletion_window_in_days=30,
                tags=tags or None,
                opts=child,
            ).arn

        node_role = NodeRole(f"{name}-nodes", opts=child)
        log_group = self._log_group(name, settings, tags)
        partition = aws.get_partition_output(opts=pulumi.InvokeOutputOptions(parent=self)).partition
        eks_cluster = eks.Cluster(
            naming.eks_cluster_resource_name(name),
            name=settings.name,
            version=settings.version,
            vpc_id=vpc_id,
            **subnet_args,
            skip_default_node_group=True,
            authentication_mode=eks.AuthenticationMode.API,
            access_entries=access_entries(settings.admin_principal_arns, partition) or None,
            endpoint_private_access=True,
            endpoint_public_access=settings.endpoint_public_access,
            public_access_cidrs=settings.public_access_cidrs if settings.endpoint_public_access else None,
            encryption_config_key_arn=kms_key_arn,
            # Through this input the control plane waits for its log group (see `_log_group`): pulumi-eks hands
            # it unchanged to the `aws.eks.Cluster` inside the component (nodejs/eks/cluster/cluster.ts).
            enabled_cluster_log_types=once_created(settings.log_types, [log_group]) if log_group else [],
            # CoreDNS, kube-proxy and the VPC CNI are the stack's own `aws.eks.Addon`s (components/cluster/addons.py), which
            # previews and the offline plan see; pulumi-eks's would be children of its remote component, hidden
            # from both (pulumi/pulumi-eks nodejs/eks/cluster/cluster.ts: kube-proxy and the VPC CNI are on unless
            # disabled, CoreDNS only with a default node group).
            use_default_vpc_cni=True,
            kube_proxy_addon_options=eks.KubeProxyAddonOptionsArgs(enabled=False),
            coredns_addon_options=eks.CoreDnsAddonOptionsArgs(enabled=False),
            **auto_mode_args(bool(args.auto_mode)),
            tags=tags or None,
            opts=pulumi.ResourceOptions(
                parent=self,
                depends_on=[log_group] if log_group else None,
                transforms=[
                    creator_admin_transform(settings.creator_admin, eks.AuthenticationMode.API.value),
                    *([bootstrap_addons_transform()] if args.auto_mode else []),
                ],
            ),
        )
        self._warn_about_deployer_access(settings, (keys.key("admin_principal_arns"), keys.key("creator_admin")))
        # pulumi-eks names the EKS cluster exactly `name` when given; depending on the component
        # makes everything that uses the name wait for the control plane.
        self.cluster_name = pulumi.Output.all(eks_cluster.kubeconfig_json, settings.name).apply(lambda parts: parts[1])
        self.kubeconfig = pulumi.Output.secret(eks_cluster.kubeconfig_json)
        self.node_role_arn = node_role.arn
        self.node_role = node_role.role
        self.eks_cluster = eks_cluster
        self.control_plane_security_group_id = eks_cluster.cluster_security_group_id
        # EKS puts managed nodes whose launch template names no security group in the cluster security group
        # it creates (EKS user guide, "Customize managed nodes with launch templates"; cloudposse/
        # terraform-aws-eks-cluster#139). pulumi-eks's `clusterSecurityGroupId` is its additional group, not
        # this one, so it is read back from the cluster (DescribeCluster `resourcesVpcConfig`) once it exists.
        described = aws.eks.get_cluster_output(
            name=self.cluster_name, opts=pulumi.InvokeOutputOptions(parent=self, depends_on=[eks_cluster])
        )
        self.cluster_security_group_id = described.vpc_config.cluster_security_group_id
        self.subnet_ids = pulumi.Output.from_input(nodes_subnet_ids)

        def addon(
            suffix: str,
            spec: ManagedAddon,
            after: list[pulumi.Resource] | None = None,
            aliases: list[pulumi.Alias] | None = None,
        ) -> aws.eks.Addon:
            return create_addon(
                f"{name}-{suffix}",
                spec,
                cluster_name=self.cluster_name,
                kubernetes_version=settings.version,
                parent=self,
                depends_on=after,
                aliases=aliases,
                tags=tags,
            )

        # Earlier releases left kube-proxy and the VPC CNI to pulumi-eks, which registers them as
        # `<cluster>-kube-proxy` under its Cluster and `<cluster>-vpc-cni` under its `eks:index:VpcCniAddon` of the
        # same name (pulumi/pulumi-eks nodejs/eks/cluster/cluster.ts, createCore; nodejs/eks/addons/cni-addon.ts).
        # The aliases make those the stack's own add-ons, updated in place.
        eks_name = naming.eks_cluster_resource_name(name)
        cni_component = eks_cluster.urn.apply(
            lambda urn: child_urn(urn, "eks:index:VpcCniAddon", f"{eks_name}-vpc-cni")
        )

        # The vLLM and device-plugin NetworkPolicies are enforced only with `enableNetworkPolicy` on; the add-on
        # takes it as the string "true" (pulumi/pulumi-eks nodejs/eks/addons/cni-addon.ts, mergeConfigurationValues).
        vpc_cni = addon(
            "vpc-cni",
            ManagedAddon(versions.VPC_CNI_ADDON, {"enableNetworkPolicy": "true"}, before_nodes=True),
            aliases=[pulumi.Alias(name=f"{eks_name}-vpc-cni", parent=cni_component)],
        )
        kube_proxy = addon(
            "kube-proxy",
            ManagedAddon(versions.KUBE_PROXY_ADDON, before_nodes=True),
            aliases=[pulumi.Alias(name=f"{eks_name}-kube-proxy", parent=eks_cluster)],
        )
        self.kubernetes_version = pulumi.Output.all(vpc_cni.addon_version, kube_proxy.addon_version).apply(
            lambda _: settings.version
        )
        system_group = create_managed_node_group(
            f"{name}-system",
            system_node_group_spec(system_settings, tags, self.kubernetes_version),
            cluster_name=self.cluster_name,
            node_role_arn=self.node_role_arn,
            subnet_ids=self.subnet_ids,
            parent=self,
        )
        self.system_node_group_name = system_group.node_group_name

        # CoreDNS is a Deployment: created before any node, the add-on would wait for pods that cannot run.
        self.coredns = addon("coredns", ManagedAddon(versions.COREDNS_ADDON, coredns_configuration()), [system_group])
        if args.node_monitoring_agent is not False:
            # The agent runs on every node, tainted or not; it must wait for nodes to exist.
            addon(
                "node-monitoring-agent",
                ManagedAddon(
                    versions.NODE_MONITORING_AGENT_ADDON,
                    json.loads(configuration_json(gpu_contract)) if gpu_contract else None,
                ),
                [system_group],
            )

        # pulumi-eks's `kubeconfigJson` never names a profile (it is meant to be shared); its own provider
        # uses one rendered with `aws:profile`. Ours asks for the same when a profile is set, or every
        # Kubernetes request fails with 401 for users whose credentials live only in that profile.
        provider_kubeconfig = self.kubeconfig
        if args.aws_profile:
            provider_kubeconfig = pulumi.Output.secret(eks_cluster.get_kubeconfig(profile_name=args.aws_profile))
        self.pod_identity_agent: aws.eks.Addon | None = None
        if args.pod_identity_agent:
            self.pod_identity_agent = addon(
                "pod-identity-agent", ManagedAddon(versions.POD_IDENTITY_AGENT_ADDON), [system_group]
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
                "eks_cluster": self.eks_cluster,
                "provider": self.provider,
                "node_role": self.node_role,
                "cluster_security_group_id": self.cluster_security_group_id,
                "control_plane_security_group_id": self.control_plane_security_group_id,
                "kubernetes_version": self.kubernetes_version,
            }
        )

    def _log_group(self, name: str, settings: ClusterSettings, tags: dict[str, str]) -> aws.cloudwatch.LogGroup | None:
        """The control plane's log group, owned by the stack so that it has a retention and goes with the stack.

        EKS writes control-plane logs to `/aws/eks/<cluster>/cluster` and, when that group does not exist, creates
        it without a retention (logs kept for ever) and outside the stack, so `pulumi destroy` leaves it behind
        (EKS user guide, https://docs.aws.amazon.com/eks/latest/userguide/control-plane-logs.html). Created before
        the cluster, EKS uses it;
        terraform-aws-modules/terraform-aws-eks does the same (main.tf `aws_cloudwatch_log_group.this`, the
        cluster `depends_on` it; `cloudwatch_log_group_retention_in_days` default 90). None when no log type is
        enabled: EKS then writes nothing.
        """
        if not settings.log_types:
            return None
        return aws.cloudwatch.LogGroup(
            f"{name}-control-plane-logs",
            name=control_plane_log_group(settings.name),
            retention_in_days=settings.log_retention_days,
            tags=tags or None,
            opts=pulumi.ResourceOptions(parent=self),
        )

    def _assigning_public_ips(
        self, subnet_ids: list[str], public_key: str, private_key: str
    ) -> pulumi.Output[list[str]]:
        """`subnet_ids`, once each of them is read to assign public IPv4 addresses at launch; raises naming those
        that do not.

        Nodes go to the public subnets when no private ones are given. A node there reaches EKS, ECR and S3 only
        with a public IP, and managed node groups give one only where the subnet's `MapPublicIpOnLaunch` is true,
        so elsewhere the nodes never join (EKS user guide, https://docs.aws.amazon.com/eks/latest/userguide/
        network-reqs.html: "If you want to deploy nodes to a public subnet, the subnet must auto-assign IPv4
        public addresses"; the change is announced in https://aws.amazon.com/blogs/containers/
        upcoming-changes-to-ip-assignment-for-eks-managed-node-groups/ and aws/containers-roadmap#607). The
        subnets are read at preview (EC2 DescribeSubnets), so the preview fails before anything is created. A
        subnet whose attribute cannot be read (the offline plan's mocks answer nothing) is not judged.
        """
        invoke = pulumi.InvokeOutputOptions(parent=self)
        assigned = [
            aws.ec2.get_subnet_output(id=subnet_id, opts=invoke).map_public_ip_on_launch for subnet_id in subnet_ids
        ]

        def checked(values: list[bool | None]) -> list[str]:
            refused = [subnet_id for subnet_id, value in zip(subnet_ids, values, strict=True) if value is False]
            if refused:
                raise PublicSubnetsError(public_subnets_problem(public_key, private_key, refused))
            return subnet_ids

        return pulumi.Output.all(*assigned).apply(checked)

    def _warn_about_deployer_access(self, settings: ClusterSettings, keys: tuple[str, str]) -> None:
        """Warn in the preview when the identity running it will trip over the cluster's admin settings, `keys`
        naming them as the caller wrote them."""
        if settings.creator_admin and not settings.admin_principal_arns:
            return
        caller = aws.get_caller_identity_output(opts=pulumi.InvokeOutputOptions(parent=self))

        def warn(deployer_arn: str | None) -> None:
            warning = deployer_access_warning(deployer_arn, settings.admin_principal_arns, settings.creator_admin, keys)
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
                {"name": "vpc-id", "values": [default_vpc.id]},  # type: ignore[list-item]  # Outputs as filter values: the SDK types them str
                {"name": "default-for-az", "values": ["true"]},
                {"name": "availability-zone-id", "values": zones.zone_ids},  # type: ignore[list-item]  # Outputs as filter values: the SDK types them str
            ],
            opts=invoke,
        )
        return default_vpc.id, subnets.ids
