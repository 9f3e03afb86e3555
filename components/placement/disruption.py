"""The verdict `node-replacement-keeps-models-serving`: when a GPU pool's nodes are replaced, each served model
keeps serving by the means its pool's provisioner honours, and a replica that is still loading is not moved.

Every pool's nodes are replaced sooner or later: a node group's by EKS's rolling update when its AMI release,
Kubernetes version or launch template changes; a Karpenter or EKS Auto Mode pool's by Karpenter's disruption.
Karpenter's graceful methods (drift, consolidation) respect the NodePool's budgets, launch the new node first and
wait for pods whose `karpenter.sh/do-not-disrupt` window is active; its forceful ones (expiry, interruption,
repair) do none of that (aws/karpenter-provider-aws website/content/en/v1.14/concepts/disruption.md at 1d927085).
Every drain evicts through the Eviction API, which a PodDisruptionBudget rate-limits; Karpenter honours it until the
NodePool's `terminationGracePeriod` runs out, EKS's node group update for 15 minutes before it fails (EKS user
guide, "Understand each phase of node updates", upgrade phase: `PodEvictionFailure`).

Per server, the verdict holds that:
- a PodDisruptionBudget selects its pods and lets at least one go while keeping the others (`maxUnavailable: 1`);
- on a Karpenter or Auto Mode pool, its pods carry `do-not-disrupt` for at least their cold start from the pod's
  start time (`from_pod_start`: the image on the node, the weights copy, loading), since the window counts from
  `status.startTime` (facts/karpenter.py);
- there, the NodePool's `terminationGracePeriod` is set and holds a replacement replica's start (its pull and the
  longer of its startup allowance and loading) and the draining pod's own grace, so the budget keeps a replica
  serving until the new one is, rather than the drain deleting it at the deadline;
- a Karpenter NodePool expires no node (`expireAfter: Never`): nodes move by drift. Auto Mode keeps an expiry
  (its nodes live 21 days at most, facts/auto_mode.py), said in the details.
A node group's update pace (`updateConfig`) is listed. A model with a single replica goes down at every replacement
whatever the pool: the program warns of it (settings/stack_warnings.py), naming the fix.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..facts.cold_start import DECISION, DEVICE_PLUGIN, IMAGE, LAUNCH, PREEMPT, ColdStart
from ..facts.go_duration import parse_go_duration
from ..facts.karpenter import NEVER_EXPIRE
from .verdict import Verdict, _summary

VERDICT_NAME = "node-replacement-keeps-models-serving"
NANOSECONDS = 1_000_000_000
# EKS gives a node group update's drain this long per node before the update fails with PodEvictionFailure (EKS user
# guide, managed-node-update-behavior, "Upgrade phase": "If the pods don't leave the node within 15 minutes").
NODE_GROUP_EVICTION_SECONDS = 15 * 60


BEFORE_THE_POD = (DECISION, LAUNCH, DEVICE_PLUGIN, PREEMPT)
"""The cold start's steps before the kubelet acknowledges the pod and sets its `status.startTime`: the pod is bound
only to a node whose device plugin advertises the GPUs it requests (and, on a warm node, once the placeholder
yields it). The image and everything after it run after the start time."""


def from_pod_start(start: ColdStart) -> float:
    """Seconds from the pod's `status.startTime` to a server that answers: the image on the node, on a revision's
    first start the weights copy the init container waits for, fetching, loading and compiling, the probes. What
    Karpenter's `do-not-disrupt` window counts against (facts/karpenter.py, `DO_NOT_DISRUPT`)."""
    copy = start.weights_copy.seconds if start.weights_copy is not None else 0.0
    return copy + sum(step.seconds for step in start.steps if step.name not in BEFORE_THE_POD)


def pull_seconds(start: ColdStart) -> float:
    """Seconds of the image on the node, after the pod's start and before its container's."""
    return sum(step.seconds for step in start.steps if step.name == IMAGE)


@dataclass(frozen=True)
class PoolReplacement:
    """How a GPU pool's nodes are replaced, as its registered objects say."""

    name: str
    """The NodePool's or node group's name."""
    provisioner: str
    """`nodeGroup`, `karpenter` or `autoMode`."""
    expire_after: str | None = None
    """The NodePool's `expireAfter`; None for a node group."""
    termination_grace_period: str | None = None
    """The NodePool's `terminationGracePeriod`; None when unset, or for a node group."""
    max_unavailable: int | None = None
    """A node group's `updateConfig.maxUnavailable`; None when unset, or for a NodePool."""


@dataclass(frozen=True)
class ServedModel:
    """One vLLM server on its pool, with what protects it while the pool's nodes are replaced."""

    workload: str
    """The server's Deployment as `namespace/name`."""
    pool: PoolReplacement
    cold_start: ColdStart
    replicas: int
    """The fewest replicas that serve: `replicas`, or `autoscaling.minReplicas`."""
    do_not_disrupt: str | None = None
    """The pod template's `karpenter.sh/do-not-disrupt` value; None without one."""
    grace_seconds: int = 30
    """The pod's `terminationGracePeriodSeconds` (Kubernetes' default 30)."""
    budgets: list[dict] = field(default_factory=list)
    """The `spec` of each PodDisruptionBudget that selects the server's pods."""


def duration_seconds(value: str | None) -> float | None:
    """A Go duration (`2h`, `2088s`) in seconds; None for none, `true` (for ever) as infinity."""
    if value is None:
        return None
    if value == "true":
        return float("inf")
    return parse_go_duration(value) / NANOSECONDS


def _budget_problems(model: ServedModel) -> tuple[list[str], list[str]]:
    if not model.budgets:
        return [
            f"{model.workload}: no PodDisruptionBudget selects its pods, so a drain evicts every replica on the node at "
            "once; the vLLM server registers one (maxUnavailable: 1)"
        ], []
    problems, held = [], []
    for budget in model.budgets:
        unavailable = budget.get("maxUnavailable")
        available = budget.get("minAvailable")
        if unavailable == 0 or (isinstance(available, int) and available >= model.replicas >= 1):
            problems.append(
                f"{model.workload}: its PodDisruptionBudget lets no replica go (maxUnavailable {unavailable}, "
                f"minAvailable {available}, {model.replicas} replica(s)), so a drain waits until it is forced: "
                f"Karpenter's terminationGracePeriod, or EKS's update failing after {NODE_GROUP_EVICTION_SECONDS // 60} "
                "minutes; use maxUnavailable: 1"
            )
        else:
            held.append(f"{model.workload}: PodDisruptionBudget maxUnavailable {unavailable}, minAvailable {available}")
    return problems, held


def _karpenter_problems(model: ServedModel) -> tuple[list[str], list[str]]:
    problems, held = [], []
    pool, start = model.pool, model.cold_start
    window = duration_seconds(model.do_not_disrupt)
    needed = from_pod_start(start)
    if window is None or window < needed:
        has = "no karpenter.sh/do-not-disrupt" if window is None else f"karpenter.sh/do-not-disrupt {window:.0f}s"
        problems.append(
            f"{model.workload} on {pool.name}: {has}, but from the pod's start its cold start takes about "
            f"{needed:.0f}s (image pull, weights, loading; the window counts from status.startTime), so Karpenter may "
            "move a replica that is still loading; give the pods a window of at least that"
        )
    else:
        held.append(f"{model.workload}: do-not-disrupt {window:.0f}s >= {needed:.0f}s from the pod's start")
    grace = duration_seconds(pool.termination_grace_period)
    allowance = start.startup_allowance if start.startup_allowance is not None else 0.0
    replacement = pull_seconds(start) + max(allowance, start.in_probe) + model.grace_seconds
    if grace is None:
        problems.append(
            f"{pool.name}: no terminationGracePeriod, so a drain that a budget or do-not-disrupt blocks never ends "
            "(disruption.md: not recommended with do-not-disrupt pods); set one"
        )
    elif grace < replacement:
        problems.append(
            f"{pool.name}: terminationGracePeriod {grace:.0f}s is shorter than {model.workload}'s "
            f"{replacement:.0f}s (a new replica's pull, startup allowance or loading, and the draining pod's "
            f"{model.grace_seconds}s grace): the drain deletes the replica its budget keeps before the new one "
            "serves; lower startupTimeoutSeconds"
        )
    else:
        held.append(f"{pool.name}: terminationGracePeriod {grace:.0f}s >= {replacement:.0f}s for {model.workload}")
    if pool.provisioner == "karpenter":
        if pool.expire_after != NEVER_EXPIRE:
            problems.append(
                f"{pool.name}: expireAfter {pool.expire_after} expires nodes by force (not budgeted, no new node "
                f"first, do-not-disrupt ignored); set {NEVER_EXPIRE} and roll AMI changes through drift"
            )
        else:
            held.append(f"{pool.name}: expireAfter {NEVER_EXPIRE}; nodes move by drift, one at a time, new node first")
    else:
        held.append(
            f"{pool.name}: EKS Auto Mode expires nodes after {pool.expire_after} (forceful; 21 days at most), "
            "where only the PodDisruptionBudget keeps a replica serving"
        )
    return problems, held


def node_replacement_verdict(models: list[ServedModel]) -> Verdict:
    """`node-replacement-keeps-models-serving` over every served model (the module's docstring)."""
    if not models:
        return Verdict(VERDICT_NAME, True, "no vLLM server is served from the stack config")
    problems, held = [], []
    for model in models:
        found, kept = _budget_problems(model)
        problems += found
        held += kept
        if model.pool.provisioner == "nodeGroup":
            pace = model.pool.max_unavailable
            held.append(
                f"{model.pool.name}: EKS's update replaces {pace if pace is not None else 'its default of'} node(s) "
                f"at a time and drains each for {NODE_GROUP_EVICTION_SECONDS // 60} minutes at most"
            )
        else:
            found, kept = _karpenter_problems(model)
            problems += found
            held += kept
    held = list(dict.fromkeys(held))
    if problems:
        return Verdict(VERDICT_NAME, False, _summary(problems), problems + held)
    names = ", ".join(dict.fromkeys(model.workload for model in models))
    return Verdict(VERDICT_NAME, True, f"node replacement keeps every model's loading replicas: {names}", held)
