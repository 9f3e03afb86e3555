"""One audit: read the snapshot, settle the contract, run the checks, return an `AuditResult`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .checks import pool_rows, run_checks
from .context import contract_from_stack, infer_contract
from .engine import SEVERITIES, Audit, Grouping
from .model import Snapshot
from .report import AuditResult
from .snapshot import KUBECTL_COMMAND, SnapshotError, read_snapshot

EXIT_INVALID_INPUT = 2


@dataclass(frozen=True)
class AuditOptions:
    """What to audit and against what."""

    project_dir: Path
    """Directory with Pulumi.yaml and the stack files (for `stack`)."""
    snapshot: str | None = None
    """A snapshot file, `-` for stdin, or a directory of files. Default none (then `kubeconfig`)."""
    kubeconfig: Path | None = None
    """Read the cluster live through this kubeconfig instead of a snapshot. Default none."""
    context: str | None = None
    """The kubeconfig context. Default: the kubeconfig's current context."""
    stack: str | None = None
    """Take the placement contract from this stack's config. Default: inferred from the snapshot."""
    fail_on: str = "warning"
    """Lowest severity that makes the exit code 1: error, warning or info. Default warning."""


def load(options: AuditOptions, keep_raw: bool = False) -> Snapshot:
    """The snapshot the options name, checked to hold nodes and pods."""
    snapshot = Snapshot(keep_raw=keep_raw)
    if options.kubeconfig is not None:
        from .live import read_cluster

        snapshot.sources = read_cluster(options.kubeconfig, options.context, snapshot.add)
    else:
        assert options.snapshot is not None  # the command line asks for --snapshot or --kubeconfig
        snapshot.sources = read_snapshot(options.snapshot, snapshot.add)
    where = ", ".join(snapshot.sources)
    missing = [kind for kind, objects in (("Node", snapshot.nodes), ("Pod", snapshot.pods)) if not objects]
    if missing:
        raise SnapshotError(
            f"{where}: no {' and no '.join(missing)} objects; the audit needs nodes, pods and "
            f"DaemonSets, as written by: {KUBECTL_COMMAND}"
        )
    snapshot.finish()
    return snapshot


def audit(snapshot: Snapshot, options: AuditOptions, grouping: Grouping | None = None) -> AuditResult:
    """Run every check on `snapshot`."""
    if options.fail_on not in SEVERITIES:
        raise ValueError(f"fail_on {options.fail_on!r}; allowed: {', '.join(SEVERITIES)}")
    contract = contract_from_stack(options.stack, options.project_dir) if options.stack else infer_contract(snapshot)
    state = Audit(snapshot, contract, grouping)
    findings = run_checks(state)
    notes = []
    if not snapshot.daemonsets:
        notes.append(
            "the snapshot holds no DaemonSet: node agents were not checked (include daemonsets in the kubectl command)"
        )
    if contract.label is None and contract.taint is None:
        notes.append(f"no placement contract ({contract.origin})")
    signatures = len({node.signature for node in snapshot.nodes})
    summary = {
        "nodes": len(snapshot.nodes),
        "gpuNodes": len(state.gpu_nodes),
        "pods": len(snapshot.pods),
        "boundPods": sum(len(pods) for pods in state.pods_on.values()),
        "pendingPods": sum(1 for pod in snapshot.pods if not pod.node_name and pod.phase == "Pending"),
        "daemonsets": len(snapshot.daemonsets),
        "podShapes": len(snapshot.shapes),
        "nodeSignatures": signatures,
    }
    return AuditResult(
        sources=snapshot.sources,
        contract=contract.to_dict(),
        contract_text=contract.describe(),
        summary=summary,
        pools=pool_rows(state),
        findings=findings,
        fail_on=options.fail_on,
        notes=notes,
    )


def run_audit(options: AuditOptions) -> AuditResult:
    """Load and audit; raises SnapshotError (exit 2) on unreadable or invalid input."""
    return audit(load(options), options)
