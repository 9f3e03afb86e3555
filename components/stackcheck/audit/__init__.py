"""`python -m components.stackcheck audit`: GPU waste, leaks, pending GPU pods and missing node agents in a running cluster.

Modules: snapshot (reading kubectl's JSON item by item), live (the same objects through the
`kubernetes` client), model (nodes, pods grouped by scheduling shape, DaemonSets), context (the
placement contract, GPU nodes, pools), engine (shared indexes, cached placement results),
checks (the six checks), report (text, markdown, JSON) and run (one audit end to end).
"""

from .report import AuditResult, render
from .run import EXIT_INVALID_INPUT, AuditOptions, run_audit
from .snapshot import SnapshotError

__all__ = ["EXIT_INVALID_INPUT", "AuditOptions", "AuditResult", "SnapshotError", "render", "run_audit"]
