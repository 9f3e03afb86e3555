"""The plan's fits gate: each model the stack config serves, on each instance type of its GPU pool (`model-fits-gpu`).

The stack serves one model (`vllm`) on one pool (`gpuNodeGroup`), or several models (`models`) on several pools
(`gpuPools`); either way `Settings.servers` lists them with their pools. The arithmetic lives in
`facts/model_memory.py`, a function of one model and one instance type, which this step calls per pair.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...facts.model_memory import ModelFit
from ...settings.fleet import pool_fits


def model_fits(settings: Any) -> list[ModelFit]:
    """One row per served model and instance type of its pool, named by the model's stack name in the fleet
    form, the pool by its GpuNodeGroup as the plan's pools are; a pool `auto` chose says why."""
    rows = []
    cluster = settings.cluster.name
    for server in settings.servers:
        model = server.settings.model
        name = model if server.name is None else f"{server.name} ({model})"
        for fit in pool_fits(server.settings, server.pool):
            reason = f"{fit.reason}; {server.pool_reason}" if server.pool_reason else fit.reason
            rows.append(
                dataclasses.replace(
                    fit,
                    name=name,
                    pool=server.pool.resource_name(cluster),
                    reason=reason.replace(model, name, 1) if server.name else reason,
                )
            )
    return rows
