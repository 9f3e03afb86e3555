"""The plan's memory and disk verdicts (`container-memory-fits`, `weights-fit-on-disk`): what the stack's servers,
its weights copy Jobs and the agents beside them need of a node's memory and disk, against what the node has.

The memory verdict reads the rendered workloads themselves (their containers' arguments, limits and volumes), with
the weights' size each server reads from the settings. The disk verdict is the settings' arithmetic: each model
cache against the weights downloaded into it, and each pool's worst node (as many server pods as its GPUs hold, the
heaviest combination in a fleet) and the system node that runs the copy Jobs against their volumes.
"""

from __future__ import annotations

from typing import Any

from ...facts import versions
from ...facts.node_disk import ModelCache, NodeDisk, Write
from ...facts.quantity import parse_quantity
from ...placement.disk_fit import NodeLoad
from ...placement.evidence import Serving
from ...vllm import manifests, weights_copy

SYSTEM_POOL_KEY = "systemNodeGroup.diskSize"


def serving_evidence(settings: Any) -> Serving:
    """What the memory and disk verdicts read of this project's stack config: the weights each server reads, its
    model cache, and each pool's worst node."""
    return Serving(weights_by_workload(settings), model_caches(settings), node_loads(settings))


def weights_by_workload(settings: Any) -> dict[str, float]:
    """The bytes of the weights each server reads, by its Deployment's `namespace/name`."""
    found = {}
    for server in settings.servers:
        name = manifests.SERVER_NAME if server.name is None else server.name
        if server.settings.weights_bytes is not None:
            found[f"{server.settings.namespace}/{name}"] = server.settings.weights_bytes
    return found


def _label(server: Any) -> str:
    vllm = server.settings
    return vllm.model if server.name is None else f"{server.name} ({vllm.model})"


def _downloads(vllm: Any) -> bool:
    """Whether the server downloads its weights into its model cache (from the Hub; S3's are streamed)."""
    return vllm.source.type != "s3"


def model_caches(settings: Any) -> list[ModelCache]:
    """Each server that downloads its weights: its model cache against them."""
    return [
        ModelCache(
            _label(server),
            f"{server.config_key}.modelCache.size",
            server.settings.model_cache.type,
            float(parse_quantity(server.settings.model_cache_size)),
            server.settings.weights_bytes,
        )
        for server in settings.servers
        if _downloads(server.settings)
    ]


def _pod_writes(server: Any) -> list[Write]:
    """What one of the server's pods puts on its node's volume: the weights in an emptyDir model cache (unknown for a
    model the catalog and `modelFacts` do not size), and its `/tmp` emptyDir at its size limit."""
    vllm = server.settings
    writes = []
    if _downloads(vllm) and vllm.model_cache.type == "emptyDir":
        writes.append(Write("weights", vllm.weights_bytes))
    writes.append(Write("/tmp", float(parse_quantity(manifests.TMP_SIZE))))
    return writes


def _times(count: int, size: float | None) -> float | None:
    return None if size is None else count * size


def _most_pods(server: Any) -> int:
    vllm = server.settings
    return vllm.autoscaling.max_replicas if vllm.autoscaling.enabled else vllm.replicas


def _heaviest(servers: list[Any], gpus: int) -> dict[int, int]:
    """How many pods of each server (by position) one node of `gpus` GPUs holds that write the most: the servers'
    GPUs per pod within the node's, each at most its replicas."""
    states: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
    for server in servers:
        per_pod = sum(write.bytes or 0 for write in _pod_writes(server))
        need = server.settings.gpus_per_replica
        grown: dict[int, tuple[float, tuple[int, ...]]] = {}
        for used, (written, counts) in states.items():
            for count in range(min(_most_pods(server), (gpus - used) // need) + 1):
                key, value = used + count * need, written + count * per_pod
                if key not in grown or value > grown[key][0]:
                    grown[key] = (value, (*counts, count))
        states = grown
    _, counts = max(states.values())
    return {position: count for position, count in enumerate(counts) if count}


def _copy_holds(server: Any) -> float:
    """What a copy Job writes at most: one file at a time, which is no more than the weights and no more than its
    scratch's size limit (the kubelet evicts the pod past it), and its `/tmp` at its size limit."""
    scratch = float(parse_quantity(weights_copy.WORK_SIZE))
    size = server.settings.weights_bytes
    return (scratch if size is None else min(size, scratch)) + float(parse_quantity(weights_copy.TMP_SIZE))


def node_loads(settings: Any) -> list[NodeLoad]:
    """Each GPU pool's worst node per instance type, and the system node that runs every weights copy Job."""
    loads = []
    for pool in settings.pools:
        servers = [server for server in settings.servers if server.pool == pool and _most_pods(server) > 0]
        family = "autoMode" if pool.settings.auto_mode else pool.settings.ami_family
        for instance in {entry.name: entry for entry in pool.settings.instances}.values():
            counts = _heaviest(servers, instance.gpus)
            if not counts:
                continue
            writes = [
                Write(f"{count} x {servers[position].name or 'vllm'} {write.what}", _times(count, write.bytes))
                for position, count in counts.items()
                for write in _pod_writes(servers[position])
            ]
            holds = ", ".join(f"{count} pod(s) of {_label(servers[position])}" for position, count in counts.items())
            images = [servers[position].settings.image for position in counts]
            disk = NodeDisk(pool.settings.disk_size, family, images, writes)
            loads.append(NodeLoad(f"{pool.label} ({instance.name})", f"{pool.config_key}.diskSize", holds, disk))
    seeding = [server for server in settings.servers if server.settings.seeds]
    if seeding:
        # The Jobs start together on a revision's first deploy; nothing spreads them over the system nodes.
        writes = [Write(f"{server.name or 'vllm'} copy's file and /tmp", _copy_holds(server)) for server in seeding]
        disk = NodeDisk(settings.system_node_group.disk_size, "AL2023", [versions.WEIGHTS_COPY_IMAGE], writes)
        holds = f"{len(seeding)} weights copy Job(s)"
        loads.append(NodeLoad("systemNodeGroup", SYSTEM_POOL_KEY, holds, disk))
    return loads
