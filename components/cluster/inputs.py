"""The inputs of the network and the cluster (`Network`, `EksCluster` and its parts). How a declaration reads: components/args/declare.py."""

from __future__ import annotations

from ..args.declare import Args, Own, Take, _args
from ..settings.cluster import ClusterSettings
from ..settings.network import NetworkSettings
from ..settings.node_groups import SystemNodeGroupSettings
from ..settings.section import SectionModel

STACK_ONLY: dict[type[SectionModel], tuple[str, ...]] = {
    # The stack's choice between its own VPC and the default one; `Network` always creates one.
    NetworkSettings: ("mode",),
}
"""Settings fields of this concern no component takes: the stack config alone has them."""

ARGS: tuple[Args, ...] = (
    _args(
        "NetworkArgs",
        "cluster/args",
        "Inputs of `Network`. Every field is plain (it shapes the VPC) and checked when the component is "
        "constructed, with the rules of the stack config's `network` section.",
        Take(NetworkSettings),
        Own(
            "gpu_instance_types",
            "list[str] | None",
            "Instance types whose zones are preferred, and whose zones hold `gpu_subnet_ids`. Default none.",
        ),
        Own(
            "name_tag",
            "str | None",
            "Prefix of the `Name` tag of each network resource, usually the cluster name. Default: the component name.",
        ),
        Own("tags", "dict[str, str] | None", "Tags for every network resource. Default none."),
        Own(
            "private_subnet_tags",
            "dict[str, str] | None",
            "Tags for the private subnets alone, beside `tags`, such as Karpenter's `karpenter.sh/discovery` "
            "(`pools.karpenter.manifests.discovery_tags`): the subnets own their tags, so a tag another resource adds "
            "to them is removed by the next refresh. Default none.",
        ),
    ),
    _args(
        "ClusterNetwork",
        "cluster/args",
        "A VPC made elsewhere in the program (for example by `Network`) for the cluster to run in.",
        Own("vpc_id", "pulumi.Input[str]", "The VPC.", required=True),
        Own(
            "private_subnet_ids",
            "pulumi.Input[list[str]]",
            "Subnets for the nodes and the control plane's network interfaces.",
            required=True,
        ),
        Own(
            "public_subnet_ids",
            "pulumi.Input[list[str]]",
            "Subnets for internet-facing load balancers, also given to the control plane.",
            required=True,
        ),
    ),
    _args(
        "SystemNodeGroupArgs",
        "cluster/args",
        "The untainted node group where CoreDNS and other add-ons run. Every field is plain and checked with the "
        "rules of the stack config's `systemNodeGroup` section.",
        Take(SystemNodeGroupSettings),
    ),
    _args(
        "EksClusterArgs",
        "cluster/args",
        "Inputs of `EksCluster`. Fields without `Input` must be plain values: they shape the control plane and are "
        "checked when it is constructed, with the rules of the stack config's `cluster` section.",
        Take(
            ClusterSettings,
            defaults={
                "name": "Default: the component name.",
                "vpc_id": "Default: `network` when given, else the account's default VPC.",
            },
        ),
        Own(
            "network",
            "ClusterNetwork | None",
            "A VPC made in the same program (its ids may be unknown until deployed), instead of `vpcId`. Default none.",
            after="public_subnet_ids",
        ),
        Own(
            "system_node_group",
            "SystemNodeGroupArgs | None",
            "The untainted node group for add-ons. Default: the defaults of its fields.",
        ),
        Own(
            "node_monitoring_agent",
            "bool | None",
            "Install the `eks-node-monitoring-agent` add-on, which node auto repair relies on. Default true.",
        ),
        Own(
            "gpu_placement",
            "PlacementArgs | None",
            "The GPU placement contract: the node monitoring agent's `dcgm-server` tolerates its taints, so GPU health "
            "is monitored on the tainted GPU nodes. Default none (the add-on's own tolerations).",
        ),
        Own(
            "pod_identity_agent",
            "bool | None",
            "Install the `eks-pod-identity-agent` add-on, which the Cluster Autoscaler's credentials come through. "
            "Default false.",
        ),
        Own(
            "auto_mode",
            "bool | None",
            "Enable EKS Auto Mode's compute, block storage and load balancing together (pulumi-eks `autoMode`), "
            "for GPU pools of `AutoModeNodePool`s, without the built-in node pools: the system node group keeps "
            "CoreDNS and the controllers. Default false.",
        ),
        Own(
            "aws_profile",
            "str | None",
            "AWS CLI profile the Kubernetes provider's kubeconfig authenticates with (`aws eks get-token "
            "--profile`). Default none: the default credential chain.",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the AWS resources. Default none."),
    ),
)
"""This concern's args classes, nested ones before the classes that use them (the generated module evaluates
annotations when a class is defined)."""
