"""The plan's cold-start budget: each served model's start from a pending pod, step by step (facts/cold_start.py),
against the startup probe its Deployment registers and the autoscaler's `maxNodeProvisionTime`, which
`cold-start-fits-its-budget` (placement/cold_start.py) judges.

The stack serves one model (`vllm`) or several (`models`); either way `Settings.servers` lists them with their
pools, and the Deployment of each is found among the objects the program registered, so the allowance checked is
the probe the cluster would run.
"""

from __future__ import annotations

from typing import Any

from ...facts import cold_start, system_nodes
from ...facts.go_duration import parse_go_duration
from ...pools import warm_manifests
from ...settings import vllm_flags
from ...vllm.manifests import SERVER_NAME
from ...vllm.serve_args import streamer_concurrency
from ...vllm.weights_copy import WAIT_CONTAINER

NANOSECONDS = 1_000_000_000


def startup_allowance(deployment: dict[str, Any] | None) -> float | None:
    """Seconds the first container's startup probe allows before the kubelet restarts it: its initial delay plus
    `failureThreshold` periods (Kubernetes defaults: 0, 3 and 10 s)."""
    if deployment is None:
        return None
    containers = deployment.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}]
    probe = containers[0].get("startupProbe")
    if not probe:
        return None
    return float(
        probe.get("initialDelaySeconds", 0) + probe.get("failureThreshold", 3) * probe.get("periodSeconds", 10)
    )


def probe_periods(deployment: dict[str, Any] | None) -> tuple[float, float]:
    """The periods of the server container's startup and readiness probes (Kubernetes' default 10 s each)."""
    containers = (deployment or {}).get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}]
    startup, readiness = (
        float((containers[0].get(probe) or {}).get("periodSeconds", 10)) for probe in ("startupProbe", "readinessProbe")
    )
    return startup, readiness


def start_of(server: Any, deployment: dict[str, Any] | None) -> cold_start.Start:
    """What shapes `server`'s cold start: its pool's provisioner, AMI family, image cache and volume, the type the
    pool starts first (as the fits gate sizes it), the server's weights, source, compile cache and CUDA graph
    arguments, and its registered probes."""
    vllm, pool = server.settings, server.pool.settings
    instance = pool.smallest_instance
    startup, readiness = probe_periods(deployment)
    return cold_start.Start(
        provisioner=pool.provisioner,
        ami_family=pool.ami_family,
        image=vllm.image,
        image_cache=pool.image_cache,
        fast_snapshot_restore=pool.fast_snapshot_restore,
        volume_throughput_mibps=pool.volume_throughput_mibps,
        instance=instance.name,
        network_baseline_gbps=instance.network_baseline_gbps,
        weights_bytes=vllm.weights_bytes,
        source=vllm.source.type,
        concurrency=streamer_concurrency(vllm, instance.network_baseline_gbps) if vllm.source.type == "s3" else None,
        compile_cache=vllm.compile_cache.enabled,
        capture=vllm_flags.check(vllm.extra_args).capture,
        startup_period=startup,
        readiness_period=readiness,
        warm=has_warm_node(pool),
        placeholder_grace=warm_manifests.GRACE_SECONDS if has_warm_node(pool) else 0,
    )


def has_warm_node(pool: Any) -> bool:
    """Whether the pool keeps a warm node for a first replica: a replica fits one node (`gpu-requests-fit-one-node`),
    so one warm node starts it; among several models of one pool, the first to start takes it."""
    return pool.warm_nodes >= 1


def weights_wait(deployment: dict[str, Any] | None) -> float | None:
    """Seconds the server's init container waits for the seeding Job's marker (its `--timeout`), or None."""
    pod = (deployment or {}).get("spec", {}).get("template", {}).get("spec", {})
    for container in pod.get("initContainers") or []:
        command = container.get("command") or []
        if container.get("name") == WAIT_CONTAINER and "--timeout" in command[:-1]:
            return float(command[command.index("--timeout") + 1])
    return None


def cold_starts(settings: Any, objects: list[Any]) -> list[cold_start.ColdStart]:
    """One entry per served model, named as the fits gate names it, the pool by its GpuNodeGroup."""
    deployments = {(obj.namespace, obj.name): obj.manifest for obj in objects if obj.kind == "Deployment"}
    autoscaler = settings.autoscaler
    max_provision = (
        parse_go_duration(autoscaler.max_node_provision_time) / NANOSECONDS if settings.installs_autoscaler else None
    )
    entries = []
    for server in settings.servers:
        vllm = server.settings
        pool = server.pool.settings
        object_name = SERVER_NAME if server.name is None else server.name
        deployment = deployments.get((vllm.namespace, object_name))
        steps, missing = cold_start.cold_start_steps(start_of(server, deployment))
        size = vllm.weights_bytes
        system_types = settings.system_node_group.instance_types
        copy = system_nodes.weights_copy_step(size, system_types) if vllm.seeds and size is not None else None
        entries.append(
            cold_start.ColdStart(
                name=vllm.model if server.name is None else f"{server.name} ({vllm.model})",
                pool=server.pool.resource_name(settings.cluster.name),
                steps=tuple(steps),
                scales_from_zero=pool.min_size == 0 and not has_warm_node(pool),
                startup_allowance=startup_allowance(deployment),
                # The Cluster Autoscaler's bound is for the node groups it scales, not Karpenter's or Auto Mode's nodes.
                max_node_provision=max_provision if pool.node_group else None,
                not_estimated=tuple(missing),
                weights_copy=copy,
                weights_wait=weights_wait(deployment) if copy is not None else None,
            )
        )
    return entries
