"""What the verdicts of the registry (placement/verdicts.py) judge: plain data the offline plan gathers from the
program it ran, in one object every verdict's function reads.

Each part is None when it was not gathered, and the verdicts that read it are then not judged. The plan leaves
out the placement when the node pools cannot be built or the workloads not read, and the sizing (model fits, cold
starts) without a placement or without this project's stack config; it always prices the cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..facts.cold_start import ColdStart
from ..facts.model_memory import ModelFit
from ..facts.node_disk import ModelCache
from .agents import Agent
from .disk_fit import NodeLoad
from .disruption import ServedModel
from .driver_fit import GpuPoolAmi
from .guard import GuardView, PlacementRow, guard_view
from .ownership import Declared
from .pools import NodeGroupSpec
from .queue import QueuedServer
from .scaling import Scaled, scaled_workloads


@dataclass(frozen=True)
class Placement:
    """The stack's workloads and node pools, and what else the placement verdicts read beside them."""

    workloads: list[dict]
    """The workloads the stack declares, as `kubectl get -o json` prints them."""
    pools: list[dict]
    """The node pools, as configured (placement.pools)."""
    matrix: list[PlacementRow]
    """Whether each of `workloads` lands on each pool (placement_matrix)."""
    specs: list[NodeGroupSpec] = field(default_factory=list)
    """The node groups and NodePools the pools were built from."""
    resources: list[str] = field(default_factory=list)
    """The resource that declares each of `workloads`, in the same order: a workload declared twice is two."""
    agents: list[Agent] = field(default_factory=list)
    """The node agents EKS and its add-ons run, which the stack renders none of."""
    agent_notes: list[str] = field(default_factory=list)
    """What could not be modelled of the node agents: reported, never failed."""
    host_engines: list[dict] = field(default_factory=list)
    """The workloads of the DCGM host engines the node agents run (the node monitoring agent's `dcgm-server`)."""
    template_tags: dict[str, dict[str, str]] = field(default_factory=dict)
    """The Cluster Autoscaler's node-template tags of each node group, by the group's name."""
    scaled_objects: list[dict] = field(default_factory=list)
    """The KEDA ScaledObjects the stack renders."""
    service_accounts: list[dict] = field(default_factory=list)
    """The ServiceAccounts the stack registers."""
    release_namespaces: list[str] = field(default_factory=list)
    """The namespaces the stack's Helm releases install into, whose charts may make ServiceAccounts."""

    @cached_property
    def guard(self) -> GuardView:
        """The guard's reading of the workloads on the pools, shared by its verdicts."""
        return guard_view(self.workloads, self.pools)

    @cached_property
    def scaled(self) -> list[Scaled]:
        """The workloads the ScaledObjects scale, with their bounds and windows."""
        return scaled_workloads(self.scaled_objects, self.workloads)


@dataclass(frozen=True)
class CostTotals:
    """The stack's monthly cost, priced by the plan, and the budget it sets."""

    budget: float | None
    """`cost.maxMonthlyUsd`, or None when unset."""
    at_desired: float
    """US dollars a month with every pool at its desired size."""
    at_max: float
    """US dollars a month with every pool at its maximum size."""
    not_priced: list[str] = field(default_factory=list)
    """What the totals leave out, one line each: the totals are then lower bounds."""
    currency: str = "USD"
    """The currency the totals are in: the one the region is billed in (yuan in the China regions)."""


@dataclass(frozen=True)
class Owners:
    """What the stack registers, for who owns each attribute: every resource and every Kubernetes object."""

    resources: list[dict]
    """Each registered resource's `type`, `name`, `id` and `inputs`."""
    objects: list[Declared]
    """Each Kubernetes object and the resource that declares it."""


@dataclass(frozen=True)
class Serving:
    """What the memory and disk verdicts read of the served models beside the placement, from the stack config."""

    weights: dict[str, float] = field(default_factory=dict)
    """The bytes of the weights each vLLM server reads, by its Deployment's `namespace/name`."""
    caches: list[ModelCache] = field(default_factory=list)
    """Each server that downloads its weights: its model cache against them."""
    nodes: list[NodeLoad] = field(default_factory=list)
    """Each GPU pool's worst node per instance type, and the system node that runs the weights copy Jobs."""


@dataclass(frozen=True)
class Evidence:
    """Everything the verdicts judge; a part left None is not judged."""

    placement: Placement | None = None
    model_fits: list[ModelFit] | None = None
    """Each served model on each instance type of its pool (facts/model_memory.py)."""
    cold_starts: list[ColdStart] | None = None
    """Each served model's cold start, step by step, against its budgets (facts/cold_start.py)."""
    workload_cold_starts: dict[str, ColdStart] | None = None
    """The same cold starts by the server Deployment's `namespace/name`, how the verdicts on a workload find its own."""
    cost: CostTotals | None = None
    owners: Owners | None = None
    """Every resource and object the stack registers, gathered whatever else could be read."""
    serving: Serving | None = None
    """The served models' weights, caches and nodes; None without this project's stack config."""
    drivers: list[GpuPoolAmi] | None = None
    """Each GPU pool's AMI and release, with the images of the GPU workloads that land on it."""
    queues: list[QueuedServer] | None = None
    """Each server fed from an SQS queue, with its queue, pod and cold start; None without this project's stack
    config or a placement."""
    served: list[ServedModel] | None = None
    """Each served model on its pool, with what protects it while the pool's nodes are replaced; None without a
    placement or without this project's stack config."""
