"""What the verdicts on a server's disruption read from a plan: each served model's cold start by its Deployment,
which `scaling-outlasts-startup` compares with the server's scale-down window, and what
`node-replacement-keeps-models-serving` (placement/disruption.py) judges: each served model's Deployment, the
PodDisruptionBudgets that select its pods, its cold start, and how its pool's nodes are replaced, from the NodePool
or node group the program registered for the pool."""

from __future__ import annotations

from typing import Any

from ...facts.cold_start import ColdStart
from ...facts.karpenter import DO_NOT_DISRUPT
from ...facts.resource_types import KARPENTER_NODE_POOL, NODE_GROUP
from ...placement.disruption import PoolReplacement, ServedModel
from ...vllm.manifests import SERVER_NAME


def server_workload(server: Any) -> str:
    """The `namespace/name` of a server's Deployment (settings.fleet.Server), as placement's `workload_id` gives it."""
    name = SERVER_NAME if server.name is None else server.name
    return f"{server.settings.namespace}/{name}"


def cold_starts_by_workload(settings: Any, starts: list[ColdStart]) -> dict[str, ColdStart]:
    """Each server's cold start by its Deployment; `starts` are `stackcheck.plan.cold_start.cold_starts`, one per
    server of `settings.servers` in their order."""
    return {server_workload(server): start for server, start in zip(settings.servers, starts, strict=False)}


def _selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    """Whether a label selector's `matchLabels` select `labels` (the budgets the stack registers use no expressions)."""
    wanted = selector.get("matchLabels") or {}
    return bool(wanted) and all(labels.get(key) == value for key, value in wanted.items())


def pool_replacement(settings: Any, pool: Any, resources: list[Any]) -> PoolReplacement:
    """How the nodes of `pool` (settings.fleet.Pool) are replaced: its NodePool's expiry and drain deadline, or its
    node group's update pace, as registered."""
    provisioner = pool.settings.provisioner
    if provisioner == "nodeGroup":
        component = pool.resource_name(settings.cluster.name)
        for resource in resources:
            if resource.type == NODE_GROUP and str(resource.parent or "").endswith(f"::{component}"):
                update = resource.inputs.get("updateConfig") or {}
                unavailable = update.get("maxUnavailable")
                return PoolReplacement(
                    component, provisioner, max_unavailable=None if unavailable is None else int(unavailable)
                )
        return PoolReplacement(component, provisioner)
    for resource in resources:
        metadata = resource.inputs.get("metadata") or {}
        if resource.type == KARPENTER_NODE_POOL and metadata.get("name") == pool.node_pool_name:
            template = ((resource.inputs.get("spec") or {}).get("template") or {}).get("spec") or {}
            return PoolReplacement(
                pool.node_pool_name,
                provisioner,
                expire_after=template.get("expireAfter"),
                termination_grace_period=template.get("terminationGracePeriod"),
            )
    return PoolReplacement(pool.node_pool_name, provisioner)


def served_models(
    settings: Any, objects: list[Any], resources: list[Any], starts: list[ColdStart]
) -> list[ServedModel]:
    """One `ServedModel` per server of the stack config whose Deployment the program registered."""
    deployments = {(obj.namespace, obj.name): obj.manifest for obj in objects if obj.kind == "Deployment"}
    budgets = [obj.manifest for obj in objects if obj.kind == "PodDisruptionBudget"]
    by_workload = cold_starts_by_workload(settings, starts)
    found = []
    for server in settings.servers:
        vllm = server.settings
        name = SERVER_NAME if server.name is None else server.name
        deployment = deployments.get((vllm.namespace, name))
        start = by_workload.get(server_workload(server))
        if deployment is None or start is None:
            continue
        template = (deployment.get("spec") or {}).get("template") or {}
        labels = (template.get("metadata") or {}).get("labels") or {}
        pod = template.get("spec") or {}
        selecting = [
            budget.get("spec") or {}
            for budget in budgets
            if (budget.get("metadata") or {}).get("namespace") == vllm.namespace
            and _selects((budget.get("spec") or {}).get("selector") or {}, labels)
        ]
        found.append(
            ServedModel(
                workload=server_workload(server),
                pool=pool_replacement(settings, server.pool, resources),
                cold_start=start,
                replicas=vllm.autoscaling.min_replicas if vllm.autoscaling.enabled else vllm.replicas,
                do_not_disrupt=((template.get("metadata") or {}).get("annotations") or {}).get(DO_NOT_DISRUPT),
                grace_seconds=int(pod.get("terminationGracePeriodSeconds", 30)),
                budgets=selecting,
            )
        )
    return found
