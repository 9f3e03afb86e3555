"""The verdict `cold-start-fits-its-budget`: each served model's cold start, estimated from the dated figures of
facts/cold_start.py, fits the time the stack gives it.

Two budgets can kill a start that would have succeeded. The kubelet restarts a container whose startup probe has
failed `failureThreshold` times (Kubernetes docs, "Configure Liveness, Readiness and Startup Probes": the probe
gets `failureThreshold * periodSeconds` to succeed), and vLLM answers `/health` only once the weights are loaded
and the model compiled, so an allowance shorter than those steps restarts the pod while it loads, again and
again. The Cluster Autoscaler gives up on a node that has not registered within `maxNodeProvisionTime`
(cluster-autoscaler/FAQ.md at cluster-autoscaler-1.36.1) and tries elsewhere, so a bound shorter than the
node's launch never lets a GPU node join. A server whose weights the stack copies to S3 (`vllm.source.seed`) must
wait for the copy at least as long as it takes. A pool that scales from zero makes its first request wait for every
step: a warning says how long.
"""

from __future__ import annotations

from ..facts.cold_start import ColdStart
from .verdict import Verdict

VERDICT_NAME = "cold-start-fits-its-budget"


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s (about {seconds / 60:.1f} min)"


def cold_start_verdict(entries: list[ColdStart]) -> tuple[Verdict, list[str]]:
    """The verdict over every served model, and the plan's warnings (one per model whose pool scales from zero,
    and one per model with steps left out of its estimate)."""
    if not entries:
        return Verdict(VERDICT_NAME, True, "no vLLM server is served from the stack config"), []
    failed = []
    warnings = []
    for entry in entries:
        where = f"{entry.name} on {entry.pool}"
        if entry.startup_allowance is not None and entry.startup_allowance < entry.in_probe:
            failed.append(
                f"{where}: the startup probe allows {entry.startup_allowance:.0f} s but vLLM's start, the weights, "
                f"profiling, compiling and CUDA graphs take about {entry.in_probe:.0f} s, so the pod is restarted while it loads; "
                f"raise vllm.startupTimeoutSeconds to at least {entry.in_probe:.0f}"
            )
        if entry.max_node_provision is not None and entry.max_node_provision < entry.node_launch:
            failed.append(
                f"{where}: autoscaler.maxNodeProvisionTime is {entry.max_node_provision:.0f} s but a GPU node takes "
                f"about {entry.node_launch:.0f} s to launch and join, so the autoscaler gives up on it; raise it to "
                f"at least {entry.node_launch:.0f}s"
            )
        copy = entry.weights_copy
        if copy is not None and (entry.weights_wait is None or entry.weights_wait < copy.seconds):
            waits = "does not wait for it" if entry.weights_wait is None else f"waits {entry.weights_wait:.0f} s"
            failed.append(
                f"{where}: the weights copy to S3 takes about {copy.seconds:.0f} s on a revision's first start but "
                f"the server {waits}, so it starts on a prefix that is still being written"
            )
        if entry.scales_from_zero:
            warnings.append(
                f"{where} scales from zero: a first request waits about {_minutes(entry.total)} from the pending "
                "pod to a server that answers and is ready (the Cold start section has each step)"
            )
        if entry.not_estimated:
            warnings.append(f"{where}: the cold-start estimate leaves out {'; '.join(entry.not_estimated)}")
    if failed:
        return Verdict(VERDICT_NAME, False, "; ".join(failed), [*failed, *warnings]), warnings
    fits = "; ".join(
        f"{entry.name} on {entry.pool}: "
        + (
            "no startup probe"
            if entry.startup_allowance is None
            else f"the startup probe allows {entry.startup_allowance:.0f} s"
        )
        + f" for the {entry.in_probe:.0f} s from vLLM's start to its CUDA graphs (cold start {entry.total:.0f} s)"
        for entry in entries
    )
    return Verdict(VERDICT_NAME, True, f"every cold start fits its budget: {fits}", warnings), warnings
