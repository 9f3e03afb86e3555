"""Node agents the cluster runs besides the stack's own workloads, and whether each covers its pools.

An agent is a workload (DaemonSet or Deployment) with a coverage rule: on every node, on every
NVIDIA GPU node its own node affinity admits, or on some non-GPU pool with nodes. The guard's verdict
`node-agents-cover-their-pools` holds when every agent lands where its rule says, by taints and node affinity (and, for an agent
that must find a non-GPU pool, by resources too). Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..facts import auto_mode
from ..facts.node_agents import A_NON_GPU_POOL, COVERAGE, EVERY_NVIDIA_NODE
from .explain import NODE_AFFINITY, TAINT_TOLERATION, filter_failures
from .guard import _reasons
from .pools import PLACEMENT_FILTERS, pool_gpus
from .resources import pod_requests
from .verdict import Verdict, _summary
from .workloads import pod_of

VERDICT_NAME = "node-agents-cover-their-pools"


@dataclass(frozen=True)
class Agent:
    """A node agent to place: its name, where it must land, and its workload."""

    name: str
    """The workload's name, e.g. `dcgm-server`."""
    coverage: str
    """One of COVERAGE."""
    workload: dict
    """The DaemonSet or Deployment, as placement_matrix reads workloads."""
    origin: str = "eks"
    """Who creates it: `eks` (EKS or an EKS add-on), never rendered by the stack."""


@dataclass
class AgentFindings:
    """What `node-agents-cover-their-pools` found: problems fail it, notes are reported with it."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    covered: list[str] = field(default_factory=list)


def node_agents_verdict(agents: Iterable[Agent], pools: Iterable[dict], notes: Iterable[str] = ()) -> Verdict:
    """`node-agents-cover-their-pools`: every agent lands on every pool its coverage rule names.

    EVERY_NODE: every pool, by taints and node affinity. EVERY_NVIDIA_NODE: every GPU pool; an
    untolerated taint fails, a pool outside the agent's own node affinity is a note. A_NON_GPU_POOL:
    some non-GPU pool with count > 0, resources included. `notes` (agents not installed or not
    modelled) are reported in the details and the message but never fail the verdict.
    """
    pools = list(pools)
    found = AgentFindings(notes=list(notes))
    agents = list(agents)
    for agent in agents:
        if agent.coverage not in COVERAGE:
            raise ValueError(f"agent {agent.name}: coverage {agent.coverage!r}; known: {', '.join(COVERAGE)}")
        pod = pod_of(agent.workload)
        if agent.coverage == A_NON_GPU_POOL:
            _check_non_gpu_home(agent, pod, pools, found)
        else:
            _check_every_pool(agent, pod, pools, found)
    details = found.problems + found.covered + found.notes
    if found.problems:
        return Verdict(VERDICT_NAME, False, _summary(found.problems), details)
    if not agents:
        return Verdict(VERDICT_NAME, True, "no node agent modelled" + _noted(found.notes), details)
    message = "every node agent lands on every pool it must cover: " + "; ".join(found.covered)
    return Verdict(VERDICT_NAME, True, message + _noted(found.notes), details)


def _check_every_pool(agent: Agent, pod: dict, pools: list[dict], found: AgentFindings) -> None:
    nvidia_only = agent.coverage == EVERY_NVIDIA_NODE
    landed = []
    for pool in pools:
        if nvidia_only and pool_gpus(pool) <= 0:
            continue
        failures = filter_failures(pod, pool["node"], filters=PLACEMENT_FILTERS)
        if not failures:
            landed.append(pool["name"])
        elif pool.get("provisioner") == auto_mode.PROVISIONER and set(failures) == {NODE_AFFINITY}:
            # EKS keeps its add-ons off Auto Mode nodes, which run networking and node monitoring themselves
            # (facts/auto_mode.py).
            found.notes.append(
                f"{agent.name} does not run on EKS Auto Mode pool {pool['name']}: outside its own node affinity, "
                "and Auto Mode's nodes do its work themselves"
            )
        elif nvidia_only and set(failures) == {NODE_AFFINITY}:
            found.notes.append(
                f"{agent.name} does not run on GPU pool {pool['name']}: outside the add-on's own "
                f"node affinity (its supported instance types and architectures), so its GPU "
                f"health is not monitored there"
            )
        else:
            found.problems.append(
                f"node agent {agent.name} does not land on pool {pool['name']}: {'; '.join(failures.values())}"
                + _agent_fix(failures)
            )
    if landed:
        found.covered.append(f"{agent.name} on {', '.join(landed)}")
    elif nvidia_only and not any(pool_gpus(p) > 0 for p in pools):
        found.covered.append(f"{agent.name}: no GPU pool to cover")


def _agent_fix(failures: dict[str, str]) -> str:
    """What the add-on's pod template needs to land on the pool, for the filters that refused it; "" for others."""
    needs = []
    if TAINT_TOLERATION in failures:
        needs.append("the pool's tolerations")
    if NODE_AFFINITY in failures:
        needs.append("a node selector and affinity that the pool's labels match")
    return f" (give the add-on {' and '.join(needs)})" if needs else ""


def _check_non_gpu_home(agent: Agent, pod: dict, pools: list[dict], found: AgentFindings) -> None:
    requests = pod_requests(pod)
    homes, misses = [], []
    for pool in pools:
        if pool_gpus(pool) > 0:
            continue
        reasons = _reasons(pod, requests, pool)
        if reasons:
            misses.append(f"{pool['name']}: {'; '.join(reasons)}")
        elif int(pool.get("count") or 0) <= 0:
            misses.append(f"{pool['name']}: count {pool.get('count') or 0}, no node to land on")
        else:
            homes.append(pool["name"])
    if homes:
        found.covered.append(f"{agent.name} on non-GPU pool(s) {', '.join(homes)}")
    else:
        where = " | ".join(misses) if misses else "there is no non-GPU pool"
        found.problems.append(f"node agent {agent.name} lands on no non-GPU pool with nodes ({where})")


def _noted(notes: list[str]) -> str:
    return f"; noted: {' | '.join(notes)}" if notes else ""
