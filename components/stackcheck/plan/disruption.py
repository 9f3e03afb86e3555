"""What the verdicts on a server's disruption read from a plan: each served model's cold start by its Deployment,
which `scaling-outlasts-startup` compares with the server's scale-down window."""

from __future__ import annotations

from typing import Any

from ...facts.cold_start import ColdStart
from ...vllm.manifests import SERVER_NAME


def server_workload(server: Any) -> str:
    """The `namespace/name` of a server's Deployment (settings.fleet.Server), as placement's `workload_id` gives it."""
    name = SERVER_NAME if server.name is None else server.name
    return f"{server.settings.namespace}/{name}"


def cold_starts_by_workload(settings: Any, starts: list[ColdStart]) -> dict[str, ColdStart]:
    """Each server's cold start by its Deployment; `starts` are `stackcheck.plan.cold_start.cold_starts`, one per
    server of `settings.servers` in their order."""
    return {server_workload(server): start for server, start in zip(settings.servers, starts, strict=False)}
