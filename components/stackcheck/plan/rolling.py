"""What an in-place update that replaces every node of a node group does to the workloads on it (`plan --compare`).

terraform-provider-aws applies a change of a node group's launch template version, release version or Kubernetes
version with `UpdateNodegroupVersion` (`facts/replace_rules.py`, `ROLLING_UPDATE_ON_CHANGE`), and EKS performs it
as a rolling replacement: it launches new nodes, then cordons and drains the old ones, `updateConfig.maxUnavailable`
at a time (EKS user guide, "Understand each phase of node updates"). Every pod on the group is evicted once and
starts again on a new node: a Deployment of one replica there is down from its eviction until its new pod is
ready, a whole cold start for a model server.

Pure functions of the plans' JSON documents: the node count is the earlier plan's `scalingConfig.desiredSize` (the
nodes running), the workloads are the Deployments this plan's placement matrix lands on the group's pool.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...facts.resource_types import DEPLOYMENT

SERVED_MODEL_NAME_FLAG = "--served-model-name"
"""The vLLM server's flag naming the model it serves (vLLM's `vllm serve` CLI), which the stack's servers pass."""
DEFAULT_REPLICAS = 1
"""A Deployment without `spec.replicas` runs one (Kubernetes API, DeploymentSpec.replicas: "Defaults to 1")."""


@dataclass(frozen=True)
class EvictedWorkload:
    """A Deployment whose pods a rolling update of their node group evicts."""

    workload: str
    """`namespace/name`."""
    replicas: int
    model: str | None = None
    """The model it serves (`--served-model-name`), when it is a model server."""

    @property
    def goes_down(self) -> bool:
        """One replica: nothing serves while its pod moves to a new node."""
        return self.replicas <= 1


@dataclass(frozen=True)
class RollingUpdate:
    """An in-place update of a node group that replaces each of its nodes."""

    nodes: int | None
    """The nodes replaced: the group's desired size in the earlier plan; None when it does not give one."""
    max_unavailable: int | None
    """How many nodes are replaced at once (`updateConfig.maxUnavailable`); None when not set."""
    workloads: tuple[EvictedWorkload, ...]


def rolling_update(before: Mapping[str, Any], after: Mapping[str, Any], document: Mapping[str, Any]) -> RollingUpdate:
    """The rolling update of the node group `before` -> `after`, with the workloads `document`'s matrix lands on
    its pool."""
    old, new = _inputs(before), _inputs(after)
    desired = (old.get("scalingConfig") or {}).get("desiredSize")
    unavailable = (new.get("updateConfig") or {}).get("maxUnavailable")
    return RollingUpdate(
        desired if _count(desired) else None,
        unavailable if _count(unavailable) else None,
        workloads_on(str(after.get("name")), document),
    )


def workloads_on(pool: str, document: Mapping[str, Any]) -> tuple[EvictedWorkload, ...]:
    """The stack's Deployments that the placement matrix of `document` lands on `pool`, with their replicas and
    the model each serves."""
    resources = {
        f"{entry.get('type')}::{entry.get('name')}": entry
        for entry in document.get("resources") or []
        if isinstance(entry, Mapping)
    }
    found = {}
    for row in document.get("matrix") or []:
        if not isinstance(row, Mapping) or row.get("pool") != pool or not row.get("lands"):
            continue
        resource = resources.get(str(row.get("resource")))
        if resource is None or resource.get("type") != DEPLOYMENT:
            continue  # what EKS runs, or not a Deployment: DaemonSets start on every new node by themselves
        spec = _inputs(resource).get("spec") or {}
        replicas = spec.get("replicas", DEFAULT_REPLICAS)
        found[str(row.get("workload"))] = EvictedWorkload(
            str(row.get("workload")), replicas if _count(replicas) else DEFAULT_REPLICAS, served_model(spec)
        )
    return tuple(found[name] for name in sorted(found))


def served_model(spec: Mapping[str, Any]) -> str | None:
    """The value of `--served-model-name` in a container's args of the Deployment spec `spec`, if any."""
    containers = ((spec.get("template") or {}).get("spec") or {}).get("containers") or []
    for container in containers:
        args = container.get("args") if isinstance(container, Mapping) else None
        if isinstance(args, list) and SERVED_MODEL_NAME_FLAG in args:
            index = args.index(SERVED_MODEL_NAME_FLAG) + 1
            if index < len(args) and isinstance(args[index], str):
                return args[index]
    return None


def _inputs(resource: Mapping[str, Any]) -> Mapping[str, Any]:
    inputs = resource.get("inputs")
    return inputs if isinstance(inputs, Mapping) else {}


def _count(value: Any) -> bool:
    # bool is an int to Python, and no count.
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
