"""The registry of the plan's verdicts: each one once, in the order the report lists them, with its number, its
slug, the function that judges it and what it proves.

The number and the slug are the verdict's names outside the code (the report prints `PASS  1
gpu-workloads-land-on-gpu-pools`, the JSON document carries both, docs/reference/verdicts.md is written from this
table); everywhere else the package names a verdict by its slug, and a `Verdict` takes its number from here.

Each function reads the one `Evidence` the plan gathers (placement/evidence.py) and returns a `Judgement`, or
None when the part of the evidence it reads was not gathered. The checks themselves live in the modules named
beside each function, which take plain arguments and can be called on their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from . import (
    agents,
    budget,
    capacity,
    cold_start,
    disk_fit,
    disruption,
    driver_fit,
    exporter,
    guard,
    memory_fit,
    model_fit,
    ownership,
    provisioners,
    queue,
    scale_from_zero,
    scaling,
    service_accounts,
)
from .evidence import Evidence, Placement
from .verdict import Verdict


@dataclass(frozen=True)
class Judgement:
    """One verdict, and the warnings the plan lists beside the failures (what holds today but may not tomorrow)."""

    verdict: Verdict
    warnings: list[str] = field(default_factory=list)


Judge = Callable[[Evidence], Judgement | None]


@dataclass(frozen=True)
class RegisteredVerdict:
    """One verdict of the registry."""

    id: int
    """Its number, from 1 in the registry's order."""
    slug: str
    """Its name, in kebab case: how the package, the report and the docs name it."""
    judge: Judge
    """Judges the evidence; None when the part it reads was not gathered."""
    proves: str
    """One sentence: what holds when the verdict passes."""

    def run(self, evidence: Evidence) -> Judgement | None:
        """The judgement with its number: the verdict numbered, and each warning (in the warnings and among the
        details) after the verdict's number and slug, as the plan lists them."""
        judged = self.judge(evidence)
        if judged is None:
            return None
        verdict = judged.verdict
        if verdict.name != self.slug:
            raise ValueError(f"the judge of {self.slug!r} returned the verdict {verdict.name!r}")
        verdict.id = self.id
        labelled = {warning: f"verdict {self.id} {self.slug}: {warning}" for warning in judged.warnings}
        verdict.details = [labelled.get(line, line) for line in verdict.details]
        return Judgement(verdict, [labelled[warning] for warning in judged.warnings])


@dataclass(frozen=True)
class Registry:
    """The verdicts in order, and their numbers by slug."""

    entries: tuple[RegisteredVerdict, ...]
    _ids: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_ids", {entry.slug: entry.id for entry in self.entries})

    def __iter__(self) -> Iterator[RegisteredVerdict]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def entry(self, slug: str) -> RegisteredVerdict:
        """The entry of the verdict `slug`; ValueError naming the registered slugs for another."""
        return self.entries[self.id_of(slug) - 1]

    def id_of(self, slug: str) -> int:
        """The number of the verdict `slug`; ValueError naming the registered slugs for another."""
        try:
            return self._ids[slug]
        except KeyError:
            raise ValueError(f"verdict {slug!r} is not registered; allowed: {', '.join(self._ids)}") from None


def _gpu_workloads_land_on_gpu_pools(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    return None if placed is None else Judgement(guard.gpu_workloads_land_on_gpu_pools(placed.guard))


def _plain_pods_stay_off_gpu_pools(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    return None if placed is None else Judgement(guard.plain_pods_stay_off_gpu_pools(placed.guard))


def _device_plugin_covers_gpu_pools(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    return None if placed is None else Judgement(guard.device_plugin_covers_gpu_pools(placed.guard))


def _system_addons_have_a_pool(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    return None if placed is None else Judgement(guard.system_addons_have_a_pool(placed.guard))


def _gpu_requests_fit_one_node(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    return None if placed is None else Judgement(guard.gpu_requests_fit_one_node(placed.guard))


def _node_agents_cover_their_pools(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    if placed is None:
        return None
    return Judgement(agents.node_agents_verdict(placed.agents, placed.pools, placed.agent_notes))


def _gpu_capacity_fits_replicas(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    if placed is None:
        return None
    verdict, warnings = capacity.gpu_capacity(placed.workloads, placed.pools)
    return Judgement(verdict, warnings)


def _gpu_pools_scale_from_zero(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    if placed is None:
        return None
    verdict = scale_from_zero.scale_from_zero_verdict(
        placed.workloads, placed.pools, placed.template_tags, placed.matrix
    )
    return Judgement(verdict)


def _cpu_workloads_stay_off_gpu_pools(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    if placed is None:
        return None
    return Judgement(scale_from_zero.cpu_workloads_verdict(placed.workloads, placed.pools, placed.matrix))


def _dcgm_exporter_covers_gpu_pools(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    if placed is None:
        return None
    verdict = exporter.dcgm_exporter_covers_gpu_pools(placed.workloads, placed.pools, host_engines=placed.host_engines)
    return Judgement(verdict)


def _model_fits_gpu(evidence: Evidence) -> Judgement | None:
    fits = evidence.model_fits
    if fits is None:
        return None
    return Judgement(model_fit.model_fits_verdict(fits), model_fit.not_checked_warnings(fits))


def _provisioners_place_pods_alike(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    if placed is None:
        return None
    return Judgement(provisioners.provisioners_verdict(placed.workloads, placed.specs, placed.resources))


def _replicas_fit_at_max(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    if placed is None:
        return None
    # The Cluster Autoscaler's hold is None exactly when no autoscaler runs: nothing then grows a node group.
    autoscaler = scaling.autoscaler_node_hold(placed.workloads) is not None
    return Judgement(scaling.replicas_fit_verdict(placed.scaled, placed.workloads, placed.pools, autoscaler))


def _scaling_outlasts_startup(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    if placed is None:
        return None
    hold = scaling.autoscaler_node_hold(placed.workloads)
    return Judgement(scaling.scaling_outlasts_startup_verdict(placed.scaled, hold, evidence.workload_cold_starts))


def _cold_start_fits_its_budget(evidence: Evidence) -> Judgement | None:
    if evidence.cold_starts is None:
        return None
    verdict, warnings = cold_start.cold_start_verdict(evidence.cold_starts)
    return Judgement(verdict, warnings)


def _cost_within_budget(evidence: Evidence) -> Judgement | None:
    cost = evidence.cost
    if cost is None:
        return None
    verdict, warnings = budget.budget_verdict(cost.budget, cost.at_desired, cost.at_max, cost.not_priced, cost.currency)
    return Judgement(verdict, warnings)


def _service_accounts_exist(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    if placed is None:
        return None
    verdict = service_accounts.service_accounts_verdict(
        placed.workloads, placed.service_accounts, placed.release_namespaces
    )
    return Judgement(verdict)


def _one_owner_per_attribute(evidence: Evidence) -> Judgement | None:
    owners = evidence.owners
    if owners is None:
        return None
    return Judgement(ownership.ownership_verdict(owners.resources, owners.objects))


def _container_memory_fits(evidence: Evidence) -> Judgement | None:
    placed = evidence.placement
    if placed is None:
        return None
    daemonsets = [agent.workload for agent in placed.agents if agent.workload.get("kind") == "DaemonSet"]
    weights = evidence.serving.weights if evidence.serving is not None else {}
    return Judgement(memory_fit.container_memory_verdict(placed.workloads, placed.pools, weights, daemonsets))


def _weights_fit_on_disk(evidence: Evidence) -> Judgement | None:
    serving = evidence.serving
    if serving is None:
        return None
    return Judgement(disk_fit.disk_verdict(serving.caches, serving.nodes))


def _gpu_driver_knows_the_gpu(evidence: Evidence) -> Judgement | None:
    if evidence.drivers is None:
        return None
    verdict, warnings = driver_fit.driver_verdict(evidence.drivers)
    return Judgement(verdict, warnings)


def _queue_requests_finish(evidence: Evidence) -> Judgement | None:
    if evidence.queues is None:
        return None
    return Judgement(queue.finish_verdict(evidence.queues))


def _queue_retention_outlasts_cold_start(evidence: Evidence) -> Judgement | None:
    if evidence.queues is None:
        return None
    verdict, warnings = queue.retention_verdict(evidence.queues)
    return Judgement(verdict, warnings)


def _queue_failures_reach_dead_letter(evidence: Evidence) -> Judgement | None:
    if evidence.queues is None:
        return None
    return Judgement(queue.dead_letter_verdict(evidence.queues))


def _node_replacement_keeps_models_serving(evidence: Evidence) -> Judgement | None:
    if evidence.served is None:
        return None
    return Judgement(disruption.node_replacement_verdict(evidence.served))


# The numbers are the ones the report has always printed: a new verdict takes the next, none is reused.
VERDICTS = Registry(
    (
        RegisteredVerdict(
            1,
            "gpu-workloads-land-on-gpu-pools",
            _gpu_workloads_land_on_gpu_pools,
            "Every workload that requests `nvidia.com/gpu` lands on a GPU pool, and a taint or node affinity, not "
            "resource fit alone, keeps it off every other pool.",
        ),
        RegisteredVerdict(
            2,
            "plain-pods-stay-off-gpu-pools",
            _plain_pods_stay_off_gpu_pools,
            "A pod with no toleration and no node selector lands on no GPU pool.",
        ),
        RegisteredVerdict(
            3,
            "device-plugin-covers-gpu-pools",
            _device_plugin_covers_gpu_pools,
            "The NVIDIA device plugin lands on every GPU pool whose nodes do not advertise their GPUs themselves, "
            "and on no other pool.",
        ),
        RegisteredVerdict(
            4,
            "system-addons-have-a-pool",
            _system_addons_have_a_pool,
            "A CoreDNS-like system add-on pod lands on a non-GPU pool that has nodes.",
        ),
        RegisteredVerdict(
            5,
            "gpu-requests-fit-one-node",
            _gpu_requests_fit_one_node,
            "Each GPU workload's GPU request fits one node of every GPU pool it can land on.",
        ),
        RegisteredVerdict(
            6,
            "node-agents-cover-their-pools",
            _node_agents_cover_their_pools,
            "Every node agent EKS and its add-ons run lands on every pool its coverage rule names.",
        ),
        RegisteredVerdict(
            7,
            "gpu-capacity-fits-replicas",
            _gpu_capacity_fits_replicas,
            "All replicas of the GPU workloads fit the GPU pools they land on at `maxSize`; a warning when they fit "
            "only above the desired size.",
        ),
        RegisteredVerdict(
            8,
            "gpu-pools-scale-from-zero",
            _gpu_pools_scale_from_zero,
            "Each GPU workload fits the node the Cluster Autoscaler imagines for its pool at zero nodes, whose "
            "node-template tags carry the pool's labels, taints and GPUs.",
        ),
        RegisteredVerdict(
            9,
            "cpu-workloads-stay-off-gpu-pools",
            _cpu_workloads_stay_off_gpu_pools,
            "The stack's workloads that request no GPU, DaemonSets aside, land on no GPU pool.",
        ),
        RegisteredVerdict(
            10,
            "dcgm-exporter-covers-gpu-pools",
            _dcgm_exporter_covers_gpu_pools,
            "Exactly one DCGM exporter lands on every GPU pool and none on another, each reading the DCGM engine "
            "its pool offers.",
        ),
        RegisteredVerdict(
            11,
            "model-fits-gpu",
            _model_fits_gpu,
            "Every served model fits the GPU memory of each instance type of its pool.",
        ),
        RegisteredVerdict(
            12,
            "provisioners-place-pods-alike",
            _provisioners_place_pods_alike,
            "Every workload lands on the same pools whether each pool is a node group, a Karpenter NodePool or an "
            "EKS Auto Mode NodePool.",
        ),
        RegisteredVerdict(
            13,
            "replicas-fit-at-max",
            _replicas_fit_at_max,
            "The GPU pools at `maxSize` hold every scaled workload at its KEDA `maxReplicaCount`.",
        ),
        RegisteredVerdict(
            14,
            "scaling-outlasts-startup",
            _scaling_outlasts_startup,
            "KEDA's scale-down window is longer than a scaled workload's time from a scale-up to a serving replica "
            "(its cold-start estimate, the startup budget at least), and the Cluster Autoscaler's hold on a node it "
            "added is not shorter than its startup budget.",
        ),
        RegisteredVerdict(
            15,
            "cold-start-fits-its-budget",
            _cold_start_fits_its_budget,
            "Each served model's estimated cold start fits its startup probe, the autoscaler's "
            "`maxNodeProvisionTime` and its wait for the weights copy.",
        ),
        RegisteredVerdict(
            16,
            "cost-within-budget",
            _cost_within_budget,
            "The stack at every pool's `maxSize` costs no more a month than `cost.maxMonthlyUsd`.",
        ),
        RegisteredVerdict(
            17,
            "service-accounts-exist",
            _service_accounts_exist,
            "Every pod of the stack's workloads runs as a ServiceAccount the stack registers in its namespace, or "
            "as the namespace's `default`.",
        ),
        RegisteredVerdict(
            18,
            "one-owner-per-attribute",
            _one_owner_per_attribute,
            "No attribute of a resource has two owners in the stack: no tag resource on a resource that manages its "
            "own tags, no tag key set twice, no Kubernetes object or Helm release declared by two resources.",
        ),
        RegisteredVerdict(
            19,
            "container-memory-fits",
            _container_memory_fits,
            "Every container's host memory at its peak (the vLLM server while it loads, with the Run:ai streamer's "
            "buffers; the weights copy Job) is within its limit, and each node's pods' requests within its "
            "allocatable.",
        ),
        RegisteredVerdict(
            20,
            "weights-fit-on-disk",
            _weights_fit_on_disk,
            "Every model cache holds the weights downloaded into it, and every node's volume holds the OS, the "
            "image and what its pods write above the kubelet's eviction threshold.",
        ),
        RegisteredVerdict(
            21,
            "gpu-driver-knows-the-gpu",
            _gpu_driver_knows_the_gpu,
            "Every GPU pool's AMI release loads a driver that brings its GPUs up (the release's driver branches and "
            "supported-device lists), new enough for the CUDA of the vLLM image that runs there.",
        ),
        RegisteredVerdict(
            22,
            "queue-requests-finish",
            _queue_requests_finish,
            "Every queued request can run to its end: its timeout and a visibility timeout fit SQS's 12-hour cap, "
            "the heartbeat comes before the visibility timeout ends, and the pod's grace period (and its NodePool's "
            "drain bound) covers the request and vLLM's shutdown after it.",
        ),
        RegisteredVerdict(
            23,
            "queue-retention-outlasts-cold-start",
            _queue_retention_outlasts_cold_start,
            "Every queue keeps its messages longer than KEDA's poll, SQS's count lag, a cold start from zero and "
            "the drain of the stated backlog at `maxReplicas`.",
        ),
        RegisteredVerdict(
            24,
            "queue-failures-reach-dead-letter",
            _queue_failures_reach_dead_letter,
            "Every queue hands a message that keeps failing to a dead-letter queue of the stack after at least two "
            "receives, and that queue keeps it at least as long.",
        ),
        RegisteredVerdict(
            25,
            "node-replacement-keeps-models-serving",
            _node_replacement_keeps_models_serving,
            "When a pool's nodes are replaced, a PodDisruptionBudget keeps each model's other replicas serving; on "
            "Karpenter and Auto Mode pools the pods' `do-not-disrupt` window covers their cold start from the pod's "
            "start, the drain deadline holds a replacement's start, and Karpenter expires no node.",
        ),
    )
)

GUARD = (
    "gpu-workloads-land-on-gpu-pools",
    "plain-pods-stay-off-gpu-pools",
    "device-plugin-covers-gpu-pools",
    "system-addons-have-a-pool",
    "gpu-requests-fit-one-node",
    "dcgm-exporter-covers-gpu-pools",
)
"""The guard's verdicts: where GPU and other workloads land on the pools, from the workloads and pools alone."""


def gpu_guard(workloads: Iterable[dict], pools: Iterable[dict], host_engines: Iterable[dict] = ()) -> list[Verdict]:
    """The guard's verdicts (`GUARD`) on how GPU and other workloads spread over `pools`, numbered, in the registry's
    order.

    - `gpu-workloads-land-on-gpu-pools`: every workload requesting `nvidia.com/gpu` lands on a GPU pool, and
      taints and node affinity keep it off every non-GPU pool (resource fit alone does not count).
    - `plain-pods-stay-off-gpu-pools`: a plain pod (no tolerations, no nodeSelector) lands on no GPU pool by
      taints and affinity.
    - `device-plugin-covers-gpu-pools`: the device plugin (is_device_plugin) lands, by taints and affinity, on
      every GPU pool (except pools with `gpuAdvertisedByHost`) and on no other pool. With no device plugin at
      all it passes only if every GPU pool's node already advertises `nvidia.com/gpu` (the AMI runs the plugin).
    - `system-addons-have-a-pool`: a CoreDNS-like system add-on pod lands on some non-GPU pool with count > 0.
    - `gpu-requests-fit-one-node`: each GPU workload's `nvidia.com/gpu` request is at most `gpusPerNode` of
      every GPU pool it can land on by taints and affinity.
    - `dcgm-exporter-covers-gpu-pools`: when there is a DCGM exporter (placement.exporter.is_dcgm_exporter),
      exactly one lands by taints and affinity on every GPU pool, host-advertised ones included, and none on
      another pool; it connects to the DCGM engine of `host_engines` (the node monitoring agent's `dcgm-server`)
      where one lands, and embeds its own where none does.

    Pool counts matter only to `system-addons-have-a-pool` (other pools may scale from zero).
    """
    evidence = Evidence(
        placement=Placement(workloads=list(workloads), pools=list(pools), matrix=[], host_engines=list(host_engines))
    )
    judged = [VERDICTS.entry(slug).run(evidence) for slug in GUARD]
    return [judgement.verdict for judgement in judged if judgement is not None]
