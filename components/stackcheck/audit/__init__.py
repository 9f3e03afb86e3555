"""`python -m components.stackcheck audit`: GPU waste, leaks, pending GPU pods and missing node agents in a running cluster.

Modules: cli (the command's arguments and its run), snapshot (reading kubectl's JSON item by item), live (the
same objects through the `kubernetes` client), model (nodes, pods grouped by scheduling shape, DaemonSets),
kubeconfig (a kubeconfig checked before the client reads it), context (the placement contract, GPU nodes,
pools), engine (shared indexes, cached placement results), checks (idle GPUs, leaks, pending GPU pods, model
mismatches; findings grouped by owner), agents (the node agents' checks), advice (near-miss tolerations,
instance types that hold a request, container states), report (text, markdown, JSON) and run (one audit end to
end).

The names below load on first use: the command line imports `cli` alone, so that `--help` and usage errors
answer before orjson and the placement model load.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "AuditResult": "report",
    "render": "report",
    "EXIT_INVALID_INPUT": "run",
    "AuditOptions": "run",
    "run_audit": "run",
    "SnapshotError": "snapshot",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
