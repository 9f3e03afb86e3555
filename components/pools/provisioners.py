"""What launches a GPU pool's nodes: for each `provisioner` a pool's settings accept (`gpuNodeGroup.provisioner`,
`gpuPools.<name>.provisioner`), the component that builds such a pool, its args class, and the controller the stack
installs once for every pool of that provisioner.

One line per provisioner in `PROVISIONERS`; the program (`__main__.py`) loops over it and names no provisioner.
Classes are written as `module:Class` relative to this package and imported on use, so reading the registry loads
no Pulumi SDK, and a stack loads only what its provisioners need (Karpenter's Helm releases bring the Kubernetes
SDK's Helm module and with it `requests`).

Node groups have no controller of their own: the Cluster Autoscaler that scales them is installed from the
`autoscaler` section when a node-group pool exists (`Settings.installs_autoscaler`), not with the pools.

Not to be confused with `placement/provisioners.py`, the verdict `provisioners-place-pods-alike`: whether workloads land
alike whichever provisioner each pool uses.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .auto_mode.nodes import AutoMode
    from .auto_mode.pool import AutoModeNodePool
    from .gpu_node_group import GpuNodeGroup
    from .karpenter.controller import Karpenter
    from .karpenter.pool import KarpenterNodePool

    GpuPool = GpuNodeGroup | KarpenterNodePool | AutoModeNodePool
    PoolController = Karpenter | AutoMode


@dataclass(frozen=True)
class Controller:
    """What a provisioner installs once for all its pools."""

    component: str
    """The component, `module:Class` relative to this package; its args class is what its constructor takes."""
    suffix: str
    """Its resource name after the cluster's: `<cluster>-<suffix>`."""
    on_cluster: bool = False
    """Whether it installs Kubernetes objects, so it is registered with the cluster's Kubernetes provider."""
    pools_wait_for: str | None = None
    """The attribute of the component its pools depend on (Karpenter's release, which brings its CRDs), if any."""
    pod_identity: bool = False
    """Whether it runs with AWS credentials from EKS Pod Identity, so the cluster installs the agent."""
    cluster_option: str | None = None
    """The `EksClusterArgs` flag it needs set (Auto Mode's compute configuration, pools/auto_mode/cluster.py)."""

    def component_class(self) -> type[PoolController]:
        return _resolve(self.component)

    def args_class(self) -> type:
        return args_class_of(self.component_class())


@dataclass(frozen=True)
class Provisioner:
    """How the stack builds the pools of one `provisioner`."""

    pool: str
    """The pool's component, `module:Class` relative to this package; its args class is what its constructor
    takes, made from the pool's settings section (`args_from_settings`)."""
    controller: Controller | None = None
    """What it installs once for all its pools; None when nothing."""
    on_cluster: bool = False
    """Whether a pool is Kubernetes objects (a NodePool and its node class), registered with the cluster's
    Kubernetes provider."""

    def pool_class(self) -> type[GpuPool]:
        return _resolve(self.pool)

    def args_class(self) -> type:
        return args_class_of(self.pool_class())


KARPENTER = Controller(
    ".karpenter.controller:Karpenter", "karpenter", on_cluster=True, pools_wait_for="release", pod_identity=True
)
AUTO_MODE = Controller(".auto_mode.nodes:AutoMode", "auto-mode", cluster_option="auto_mode")

PROVISIONERS: dict[str, Provisioner] = {
    "nodeGroup": Provisioner(".gpu_node_group:GpuNodeGroup"),
    "karpenter": Provisioner(".karpenter.pool:KarpenterNodePool", KARPENTER, on_cluster=True),
    "autoMode": Provisioner(".auto_mode.pool:AutoModeNodePool", AUTO_MODE, on_cluster=True),
}
"""`provisioner` value -> how its pools are built; exactly the values `GpuNodeGroupSettings.provisioner` accepts."""


def in_use(provisioners: Iterable[str]) -> list[str]:
    """The provisioners of `PROVISIONERS` among `provisioners` (each pool's), each once, in the registry's order."""
    used = set(provisioners)
    return [name for name in PROVISIONERS if name in used]


def controllers(provisioners: Iterable[str]) -> dict[str, Controller]:
    """The controller of each provisioner of `provisioners` that has one, in the registry's order."""
    return {
        name: controller for name in in_use(provisioners) if (controller := PROVISIONERS[name].controller) is not None
    }


def cluster_options(provisioners: Iterable[str]) -> dict[str, Any]:
    """Every cluster flag a controller of the registry needs, true where a provisioner of `provisioners` needs it."""
    used = controllers(provisioners).values()
    return {
        option: any(controller.cluster_option == option for controller in used)
        for provisioner in PROVISIONERS.values()
        if provisioner.controller is not None and (option := provisioner.controller.cluster_option) is not None
    }


def needs_pod_identity(provisioners: Iterable[str]) -> bool:
    """Whether a controller of `provisioners` runs with credentials from EKS Pod Identity."""
    return any(controller.pod_identity for controller in controllers(provisioners).values())


def offered(args_class: type, values: Mapping[str, Any]) -> dict[str, Any]:
    """Those of `values` that `args_class` has a field for: the program offers every pool (and every controller)
    the same values, and each takes what its args declare."""
    fields = {field.name for field in dataclasses.fields(args_class)}
    return {name: value for name, value in values.items() if name in fields}


def args_class_of(component: type) -> type:
    """The args class the constructor of `component` takes (its `args` parameter)."""
    return inspect.signature(component, eval_str=True).parameters["args"].annotation


def _resolve(dotted: str) -> Any:
    module, _, name = dotted.partition(":")
    return getattr(import_module(module, __package__), name)
