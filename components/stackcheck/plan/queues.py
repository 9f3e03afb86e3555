"""What the queue verdicts (placement/queue.py) read of each server fed from an SQS queue: the queue and its
dead-letter queue as the program registers them, the server's Deployment and ScaledObject and its pool's
NodePool as the plan renders them, and the server's cold start as the plan estimates it (stackcheck/plan/
cold_start.py). Every figure is one the stack states; a figure not found is None, and the verdict says so.
"""

from __future__ import annotations

import json
from typing import Any

from ...facts.go_duration import parse_go_duration
from ...facts.identity import PROJECT
from ...facts.resource_types import SQS_QUEUE
from ...placement.queue import QueuedServer
from ...vllm.manifests import SERVER_NAME
from ...vllm.queue.consumer_script import HEARTBEAT_FRACTION
from ...vllm.queue.manifests import CONTAINER

SERVING_QUEUE = f"{PROJECT}:index:ServingQueue"
NANOSECONDS = 1_000_000_000


def _consumer_env(deployment: dict[str, Any] | None) -> dict[str, str]:
    pod = (deployment or {}).get("spec", {}).get("template", {}).get("spec", {})
    for container in pod.get("containers") or []:
        if container.get("name") == CONTAINER:
            return {item.get("name"): item.get("value") for item in container.get("env") or [] if "value" in item}
    return {}


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _queues(resources: list[Any], component_name: str) -> tuple[dict | None, dict[str, dict]]:
    """The inputs of the requests queue of the ServingQueue `component_name`, and every queue's inputs by the name
    its ARN ends with."""
    component = next((r for r in resources if r.type == SERVING_QUEUE and r.name == component_name), None)
    by_name = {r.inputs.get("name", r.name): r.inputs for r in resources if r.type == SQS_QUEUE}
    if component is None:
        return None, by_name
    children = [r for r in resources if r.type == SQS_QUEUE and r.parent == component.urn]
    requests = next((r.inputs for r in children if r.inputs.get("redrivePolicy")), None)
    if requests is None:
        requests = next((r.inputs for r in children if r.name.endswith("-requests")), None)
    return requests, by_name


def _drain_bound(pool: Any, node_pools: dict[str, dict]) -> tuple[str, int] | None:
    """The pool's Karpenter or EKS Auto Mode NodePool and its `terminationGracePeriod`, when it sets one."""
    if pool.settings.node_group:
        return None
    node_pool = node_pools.get(pool.node_pool_name) or {}
    period = node_pool.get("spec", {}).get("template", {}).get("spec", {}).get("terminationGracePeriod")
    if not period:
        return None
    return f"NodePool {pool.node_pool_name}", int(parse_go_duration(period) // NANOSECONDS)


def queued_servers(
    settings: Any, resources: list[Any], objects: list[Any], cold_starts: list[Any]
) -> list[QueuedServer]:
    """One entry per server with `queue.enabled`, named as the cold-start budget names it; `cold_starts` are the
    plan's, one per server in `settings.servers` order."""
    deployments = {(o.namespace, o.name): o.manifest for o in objects if o.kind == "Deployment"}
    scalers = {(o.namespace, o.name): o.manifest for o in objects if o.kind == "ScaledObject"}
    node_pools = {o.name: o.manifest for o in objects if o.kind == "NodePool"}
    entries = []
    for server, start in zip(settings.servers, [*cold_starts, *[None] * len(settings.servers)], strict=False):
        vllm = server.settings
        if not vllm.queue.enabled:
            continue
        object_name = SERVER_NAME if server.name is None else server.name
        deployment = deployments.get((vllm.namespace, object_name))
        env = _consumer_env(deployment)
        pod = (deployment or {}).get("spec", {}).get("template", {}).get("spec", {})
        scaler = (scalers.get((vllm.namespace, object_name)) or {}).get("spec", {})
        requests, by_name = _queues(resources, f"{server.resource_name(settings.cluster.name)}-queue")
        requests = requests or {}
        visibility = _int(requests.get("visibilityTimeoutSeconds"))
        redrive = requests.get("redrivePolicy")
        policy = json.loads(redrive) if isinstance(redrive, str) and redrive else {}
        target = str(policy.get("deadLetterTargetArn") or "").rpartition(":")[2]
        dead_letter = by_name.get(target) if target else None
        entries.append(
            QueuedServer(
                name=f"{start.name} on {start.pool}" if start is not None else object_name,
                request_timeout=_int(env.get("REQUEST_TIMEOUT_SECONDS")),
                grace_period=_int(pod.get("terminationGracePeriodSeconds")),
                shutdown_timeout=vllm.shutdown_timeout_seconds,
                visibility_timeout=visibility,
                heartbeat=None if visibility is None else visibility / HEARTBEAT_FRACTION,
                retention=_int(requests.get("messageRetentionSeconds")),
                max_receive_count=_int(policy.get("maxReceiveCount")) if dead_letter is not None else None,
                dead_letter_retention=_int(dead_letter.get("messageRetentionSeconds")) if dead_letter else None,
                drain_bound=_drain_bound(server.pool, node_pools),
                cold_start=start.total if start is not None else None,
                polling_interval=_int(scaler.get("pollingInterval")),
                max_replicas=_int(scaler.get("maxReplicaCount")),
                concurrency=_int(env.get("CONCURRENCY")),
                expected_backlog=vllm.queue.expected_backlog,
            )
        )
    return entries
