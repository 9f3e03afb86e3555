"""The inputs of Karpenter's controller and of a GPU pool it provisions. How a declaration reads: components/args/declare.py."""

from __future__ import annotations

from ...args.declare import Args, Own, Take, _args, _placement
from ...settings.node_groups import GpuNodeGroupSettings

ARGS: tuple[Args, ...] = (
    _args(
        "KarpenterArgs",
        "pools/karpenter/args",
        "Inputs of `Karpenter`: its controller, the controller's AWS access and interruption queue, and the node role "
        "its GPU pools launch nodes with.",
        Own(
            "cluster_name",
            "pulumi.Input[str]",
            "Name of the EKS cluster (`EksCluster.cluster_name`): the controller's `settings.clusterName`, the scope of "
            "its IAM policy and the value of the discovery tags.",
            required=True,
        ),
        Own(
            "node_security_group_id",
            "pulumi.Input[str]",
            "Security group of the nodes (`EksCluster.cluster_security_group_id`), tagged for discovery.",
            required=True,
        ),
        Own(
            "subnet_ids",
            "list[pulumi.Input[str]] | None",
            "Private subnets for the nodes that this stack does not create, each tagged for discovery with an "
            "`aws.ec2.Tag` (and a warning: their owner may strip the tag). Subnets the stack creates carry the tag in "
            "their own tags instead (`NetworkArgs.private_subnet_tags` from `manifests.discovery_tags`): a tag "
            "resource beside a subnet's own tags is removed by the next refresh. Karpenter launches in those of the "
            "tagged subnets' zones that offer an instance type. Default none.",
        ),
        Own(
            "pod_identity_agent",
            "aws.eks.Addon | None",
            "The `eks-pod-identity-agent` add-on that serves the controller's credentials; the controller starts after "
            "it. Default none (the add-on is managed elsewhere).",
        ),
        Own(
            "coredns",
            "aws.eks.Addon | None",
            "The `coredns` add-on (`EksCluster.coredns`); the controller starts after it, as it reads the kube-dns "
            "Service's address once, when it starts. Default none (CoreDNS is managed elsewhere).",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the AWS resources. Default none."),
    ),
    _args(
        "KarpenterNodePoolArgs",
        "pools/karpenter/args",
        "Inputs of `KarpenterNodePool`. Fields without `Input` must be plain values: they shape the NodePool and are "
        "checked when it is constructed, with the rules of the stack config's `gpuNodeGroup` section.",
        Own(
            "cluster_name",
            "pulumi.Input[str]",
            "Name of the EKS cluster: the subnets and security groups tagged `karpenter.sh/discovery` with it are the "
            "nodes'.",
            required=True,
        ),
        Own(
            "node_role_name",
            "pulumi.Input[str]",
            "IAM role of the nodes (`Karpenter.node_role_name`).",
            required=True,
        ),
        Take(
            GpuNodeGroupSettings,
            only=(
                "instance_types",
                "ami_family",
                "capacity_type",
                "max_size",
                "disk_size",
                "image_cache",
                "snapshot_id",
                "volume_throughput",
                "warm_nodes",
            ),
            docs={
                "max_size": "Largest node count of the pool's largest instance type: the NodePool's limits are its "
                "GPUs and vCPUs times this."
            },
        ),
        _placement("The placement contract: the nodes carry its label, extra labels and taints."),
        Own(
            "name",
            "str | None",
            "Name of the NodePool and its EC2NodeClass, cluster-wide objects: two pools need two names. Default: the "
            "component name.",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the instances and volumes Karpenter launches. Default none."),
    ),
)
"""This concern's args classes, nested ones before the classes that use them (the generated module evaluates
annotations when a class is defined)."""
