"""The inputs of a GPU pool as an EKS managed node group (`GpuNodeGroup`). How a declaration reads: components/args/declare.py."""

from __future__ import annotations

from ..args.declare import Args, Own, Take, _args, _placement
from ..settings.node_groups import GpuNodeGroupSettings
from ..settings.section import SectionModel

STACK_ONLY: dict[type[SectionModel], tuple[str, ...]] = {
    # Which component the stack builds for a pool: `GpuNodeGroup`, `KarpenterNodePool` or `AutoModeNodePool`.
    # The stack registers Fast Snapshot Restore for the snapshot (pools/fast_snapshot_restore.py), and resolves the
    # cold-start profile into the pool's and its servers' settings (settings/cold_start_profile.py).
    GpuNodeGroupSettings: ("provisioner", "fast_snapshot_restore", "cold_start"),
}
"""Settings fields of this concern no component takes: the stack config alone has them."""

ARGS: tuple[Args, ...] = (
    _args(
        "GpuNodeGroupArgs",
        "pools/args",
        "Inputs of `GpuNodeGroup`. Fields without `Input` must be plain values: they shape the node group and are "
        "checked when it is constructed, with the rules of the stack config's `gpuNodeGroup` section.",
        Own(
            "cluster_name",
            "pulumi.Input[str]",
            "Name of the EKS cluster to join (`EksCluster.cluster_name`).",
            required=True,
        ),
        Own("node_role_arn", "pulumi.Input[str]", "IAM role of the nodes (`EksCluster.node_role_arn`).", required=True),
        Own(
            "subnet_ids",
            "pulumi.Input[list[str]]",
            "Subnets for the nodes, private ones in zones that offer the instance types.",
            required=True,
        ),
        Own(
            "kubernetes_version",
            "pulumi.Input[str] | None",
            "Kubernetes version of the nodes (`EksCluster.kubernetes_version`: the control plane's, once the add-ons "
            "the nodes need are at the versions EKS offers for it). Default none: EKS uses the control plane's at "
            "creation and leaves the nodes there when it is upgraded.",
        ),
        # The extra labels and taints are the contract's: every GPU workload given it tolerates them.
        Take(GpuNodeGroupSettings, without=("extra_labels", "extra_taints")),
        _placement("The placement contract: the nodes carry its label, extra labels and taints."),
        Own("tags", "dict[str, str] | None", "Tags for the AWS resources. Default none."),
    ),
)
"""This concern's args classes, nested ones before the classes that use them (the generated module evaluates
annotations when a class is defined)."""
