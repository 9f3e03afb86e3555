"""The cold-start trade, per served model: the estimate and the monthly price of today's settings, of the fast
profile its pool and model allow, and of one warm node, side by side, so seconds are weighed against dollars.

- **today**: the start as the stack is configured (facts/cold_start.py), priced by what it keeps running for a
  faster start: Fast Snapshot Restore for the pool's snapshot in each of its zones, and its warm nodes.
- **fast profile**: today's settings with every piece of the fast path the pool's provisioner and AMI family allow
  (`fast_profile`, the chooser `coldStart: fast` deploys: settings/cold_start_profile.py), saying what it chose and
  what it could not: Karpenter's batch and launch where the pool is Karpenter's, the image on a Bottlerocket
  snapshot with Fast Snapshot Restore (or SOCI on AL2023), the streamer's concurrency from the instance's baseline
  where the weights come from S3, probes every second, the compile cache kept in S3, and CUDA graphs captured for
  batches of up to 128 tokens (facts/cuda_graphs.py).
- **one warm node**: today's settings with a warm node (pools/warm_manifests.py) taking the pod.

Prices are in US dollars at 730 hours a month (facts/prices.py); what has no dated price says so.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ...facts import cold_start, cold_start_figures, prices
from ...pools import warm_manifests
from ...settings import cold_start_profile, vllm_flags
from ...vllm.manifests import SERVER_NAME
from .cold_start import start_of
from .warm_cost import node_hour


@dataclass(frozen=True)
class Option:
    """One way to start a model: its estimate, what it costs a month, and what it chose and could not."""

    name: str
    seconds: float
    monthly_usd: float | None
    """What the option keeps running for a faster start, a month; None when a part has no price."""
    chose: tuple[str, ...] = ()
    could_not: tuple[str, ...] = ()
    not_priced: str = ""
    not_estimated: tuple[str, ...] = ()
    """Steps left out for want of a figure: the seconds are then a lower bound."""

    def to_dict(self) -> dict[str, object]:
        return {
            "option": self.name,
            "coldStartSeconds": round(self.seconds, 1),
            "notEstimated": list(self.not_estimated),
            "monthlyUsd": None if self.monthly_usd is None else round(self.monthly_usd, 2),
            "chose": list(self.chose),
            "couldNot": list(self.could_not),
            "notPriced": self.not_priced or None,
        }


@dataclass(frozen=True)
class Trade:
    """One served model's options, and whether the fast profile costs more than a warm node."""

    model: str
    pool: str
    options: tuple[Option, ...]

    @property
    def fast_costs_more_than_a_warm_node(self) -> bool:
        today, fast, warm = self.options
        if None in (today.monthly_usd, fast.monthly_usd, warm.monthly_usd):
            return False
        assert today.monthly_usd is not None and fast.monthly_usd is not None and warm.monthly_usd is not None
        return fast.monthly_usd - today.monthly_usd > warm.monthly_usd - today.monthly_usd

    def to_dict(self) -> dict[str, object]:
        return {
            "model": self.model,
            "pool": self.pool,
            "options": [option.to_dict() for option in self.options],
            "fastCostsMoreThanAWarmNode": self.fast_costs_more_than_a_warm_node,
        }


def fast_profile(
    start: cold_start.Start, pool: Any, server: Any, zones_known: bool
) -> tuple[cold_start.Start, list[str], list[str]]:
    """`start` with the fast path's pieces that `pool` and `server` (their settings) allow, as `coldStart: fast`
    chooses them (settings/cold_start_profile.py); what it chose, what it could not."""
    fast, chose, could_not = cold_start_profile.fast_pool(pool, zones_known)
    changes: dict[str, Any] = {
        "image_cache": fast.image_cache,
        "fast_snapshot_restore": fast.fast_snapshot_restore,
        "volume_throughput_mibps": fast.volume_throughput_mibps,
        "startup_period": cold_start_profile.FAST_PROBE_PERIOD,
        "readiness_period": cold_start_profile.FAST_PROBE_PERIOD,
        "compile_cache": True,
    }
    if start.source == "s3":
        # What the deploy gives the server (vllm/serve_args.py `streamer_concurrency`): the setting, else what fills
        # the baseline where the streamer's own 8 connections do not, else those 8.
        concurrency = start.concurrency or cold_start.default_concurrency(start.network_baseline_gbps)
        changes["concurrency"] = concurrency
        shown = concurrency or cold_start_figures.STREAMER_DEFAULT_CONCURRENCY
        chose.append(f"{shown} streamer connections for the {start.network_baseline_gbps:g} Gbps baseline")
    fast_server, server_chose, server_could_not = cold_start_profile.fast_server(server)
    changes["capture"] = vllm_flags.check(fast_server.extra_args).capture
    return dataclasses.replace(start, **changes), chose + server_chose, could_not + server_could_not


def _priced(
    start: cold_start.Start,
    warm_nodes: int,
    restore: prices.Price | None,
    zones: int,
    node: prices.Price | None,
    node_why: str,
    region: str,
) -> tuple[float | None, str]:
    """What `start` keeps running a month for a faster start: Fast Snapshot Restore in each zone, and `warm_nodes`
    nodes at `node` an hour; None and why when a part has no price."""
    why = []
    total = 0.0
    if start.fast_snapshot_restore:
        if restore is None:
            why.append(f"Fast Snapshot Restore: no dated price in {region}")
        else:
            total += restore.per_month * zones
    if warm_nodes:
        if node is None:
            why.append(f"warm node: {node_why}")
        else:
            total += node.per_month * warm_nodes
    return (None if why else total), "; ".join(why)


def gpu_zone_count(settings: Any) -> int:
    """The zones the GPU nodes may launch in: the stack's network's, or the private subnets given (cost.py's
    count of Fast Snapshot Restore pairs)."""
    own = settings.network.mode == "create"
    return (0 if own else len(settings.cluster.private_subnet_ids)) or settings.network.zone_count


def cold_start_trades(settings: Any, objects: list[Any], region: str, spot_discount: float | None) -> list[Trade]:
    """One trade per served model, in the order of `Settings.servers`."""
    deployments = {(obj.namespace, obj.name): obj.manifest for obj in objects if obj.kind == "Deployment"}
    zones = gpu_zone_count(settings)
    restore = prices.fast_snapshot_restore(region)
    trades = []
    for server in settings.servers:
        pool = server.pool.settings
        name = SERVER_NAME if server.name is None else server.name
        today = start_of(server, deployments.get((server.settings.namespace, name)))
        kind, node, node_why = node_hour(pool, region, spot_discount)
        fast, chose, could_not = fast_profile(today, pool, server.settings, settings.zones_known)
        warm = dataclasses.replace(today, warm=True, placeholder_grace=warm_manifests.GRACE_SECONDS)
        # A pool with `coldStart: fast` deploys the profile: today says what it chose and could not.
        deployed = (tuple(chose), tuple(could_not)) if pool.cold_start == "fast" else ((), ())

        options = []
        for label, start, warm_nodes, picked, missed in (
            ("today", today, pool.warm_nodes, *deployed),
            ("fast profile", fast, pool.warm_nodes, tuple(chose), tuple(could_not)),
            ("one warm node", warm, max(1, pool.warm_nodes), (f"a warm {kind} held by a placeholder",), ()),
        ):
            steps, missing = cold_start.cold_start_steps(start)
            monthly, why = _priced(start, warm_nodes, restore, zones, node, node_why, region)
            seconds = sum(step.seconds for step in steps)
            options.append(Option(label, seconds, monthly, picked, missed, why, tuple(missing)))
        model = server.settings.model if server.name is None else f"{server.name} ({server.settings.model})"
        trades.append(Trade(model, server.pool.resource_name(settings.cluster.name), tuple(options)))
    return trades
