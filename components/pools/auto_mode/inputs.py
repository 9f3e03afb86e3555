"""The inputs of the EKS Auto Mode components (`AutoMode`, `AutoModeNodePool`). How a declaration reads:
components/args/declare.py."""

from __future__ import annotations

from ...args.declare import Args, Own, Take, _args, _placement
from ...settings.node_groups import GpuNodeGroupSettings

ARGS: tuple[Args, ...] = (
    _args(
        "AutoModeArgs",
        "pools/auto_mode/args",
        "Inputs of `AutoMode`: the IAM role of the nodes EKS Auto Mode launches for the GPU pools, and the access "
        "entry that lets them join. Give the cluster `auto_mode=True` (`EksCluster`).",
        Own(
            "cluster_name",
            "pulumi.Input[str]",
            "Name of the EKS cluster (`EksCluster.cluster_name`), where the nodes' access entry is made.",
            required=True,
        ),
        Own("tags", "dict[str, str] | None", "Tags for the IAM role and the access entry. Default none."),
    ),
    _args(
        "AutoModeNodePoolArgs",
        "pools/auto_mode/args",
        "Inputs of `AutoModeNodePool`. Fields without `Input` must be plain values: they shape the NodePool and are "
        "checked when it is constructed, with the rules of the stack config's `gpuNodeGroup` section.",
        Own(
            "node_role_name",
            "pulumi.Input[str]",
            "IAM role of the nodes (`AutoMode.node_role_name`), which has an `EC2` access entry.",
            required=True,
        ),
        Own(
            "subnet_ids",
            "pulumi.Input[list[str]]",
            "Subnets for the nodes, private ones in zones that offer the instance types.",
            required=True,
        ),
        Own(
            "security_group_id",
            "pulumi.Input[str]",
            "Security group of the nodes (`EksCluster.cluster_security_group_id`, the managed node groups' too).",
            required=True,
        ),
        Take(
            GpuNodeGroupSettings,
            only=("instance_types", "capacity_type", "max_size", "disk_size"),
            docs={
                "max_size": "Largest node count of the pool's largest instance type: the NodePool's limits are its "
                "GPUs and vCPUs times this.",
                "disk_size": "Ephemeral storage of each node in GiB, 50-59000 (the NodeClass's `ephemeralStorage`).",
            },
        ),
        _placement("The placement contract: the nodes carry its label, extra labels and taints."),
        Own(
            "name",
            "str | None",
            "Name of the NodePool and its NodeClass, cluster-wide objects: two pools need two names, and not "
            "`default` (Auto Mode's own). Default: the component name.",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the instances Auto Mode launches. Default none."),
    ),
)
