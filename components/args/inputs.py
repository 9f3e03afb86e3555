"""The inputs no concern owns: the placement contract every GPU component takes (`PlacementArgs`, `TaintArgs`), and the settings only the offline plan reads. How a declaration reads: components/args/declare.py."""

from __future__ import annotations

from ..settings.cost import CostSettings
from ..settings.gpu_placement import GpuPlacementSettings
from ..settings.node_groups import GpuNodeGroupSettings, TaintSettings
from ..settings.section import SectionModel
from .declare import Args, Take, _args

STACK_ONLY: dict[type[SectionModel], tuple[str, ...]] = {
    # The offline plan's estimate and budget; nothing is registered from them.
    CostSettings: ("spot_discount", "max_monthly_usd"),
}
"""Settings fields of this concern no component takes: the stack config alone has them."""

ARGS: tuple[Args, ...] = (
    _args("TaintArgs", "args/placement", "A node taint in Kubernetes spelling.", Take(TaintSettings)),
    _args(
        "PlacementArgs",
        "args/placement",
        "The GPU placement contract: the label GPU workloads select and the taints that keep other pods off GPU "
        "nodes. Give the same value to the GPU node group and to every GPU workload (device plugin, DCGM exporter, "
        "vLLM server). Every field is plain: it shapes the node group and the pod specs.",
        Take(GpuPlacementSettings),
        Take(GpuNodeGroupSettings, only=("extra_labels", "extra_taints")),
    ),
)
"""This concern's args classes, nested ones before the classes that use them (the generated module evaluates
annotations when a class is defined)."""
