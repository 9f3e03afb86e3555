"""The verdict `service-accounts-exist`: every pod the stack's workloads make runs as a ServiceAccount the stack
registers in the pod's namespace, or as that namespace's `default`.

The API server's ServiceAccount admission plugin sets an unnamed ServiceAccount to `default` and ensures the one a
pod names exists, refusing the pod otherwise (`plugin/pkg/admission/serviceaccount`, `NewServiceAccount`; the
plugin is on by default in kube-apiserver's `--enable-admission-plugins`). A DaemonSet or Deployment naming a
missing one is accepted all the same; it is its controller's pods that are refused (`FailedCreate` events), so
nothing runs, and `pulumi up` waits for a rollout that never comes until its timeout (pulumi-kubernetes awaits
Deployments, and DaemonSets since pulumi/pulumi-kubernetes#2953), 10 minutes by default, then reports the workload
not ready rather than the missing ServiceAccount. Every namespace has a `default` ServiceAccount, which the
ServiceAccount controller makes (Kubernetes documentation, "Configure Service Accounts for Pods", read 2026-12-02).

What the stack cannot see is said, not failed: ServiceAccounts in `kube-system`, where EKS and its add-ons make
their own (`aws-node`, `coredns`, ...), and in a namespace the stack installs a Helm release into, whose chart
may make them. Pure: the workloads and ServiceAccounts come in as manifests.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..facts.kubernetes import KUBE_SYSTEM
from .verdict import Verdict, _summary
from .workloads import pod_of

VERDICT_NAME = "service-accounts-exist"
DEFAULT_SERVICE_ACCOUNT = "default"
"""The ServiceAccount a pod that names none runs as; every namespace has one."""
EKS_MANAGED_NAMESPACE = KUBE_SYSTEM
"""Where EKS and its add-ons make ServiceAccounts the stack does not register."""


def service_accounts_verdict(
    workloads: Iterable[dict], service_accounts: Iterable[dict], release_namespaces: Iterable[str] = ()
) -> Verdict:
    """Each workload's pod against the ServiceAccounts registered (manifests) and the namespaces Helm releases
    install into (`release_namespaces`), whose charts may make ServiceAccounts the stack cannot see."""
    registered = {(_namespace(account), (account.get("metadata") or {}).get("name")) for account in service_accounts}
    unseen = {EKS_MANAGED_NAMESPACE, *release_namespaces}
    uses, notes, missing = [], [], []
    for workload in workloads:
        pod = pod_of(workload)
        spec = pod.get("spec") or {}
        # `serviceAccount` is the deprecated alias the API server still reads when the name is unset.
        account = spec.get("serviceAccountName") or spec.get("serviceAccount") or DEFAULT_SERVICE_ACCOUNT
        namespace = _namespace(pod)
        who = f"{workload.get('kind')} {namespace}/{pod['metadata'].get('name')}"
        if account == DEFAULT_SERVICE_ACCOUNT:
            uses.append(f"{who}: {namespace}/{account} (every namespace has it)")
        elif (namespace, account) in registered:
            uses.append(f"{who}: {namespace}/{account}")
        elif namespace in unseen:
            made_by = "EKS and its add-ons" if namespace == EKS_MANAGED_NAMESPACE else "a Helm release's chart"
            notes.append(
                f"{who}: {namespace}/{account} is not registered by the stack; not checked ({made_by} may make it)"
            )
        else:
            missing.append(
                f"{who} runs as ServiceAccount {namespace}/{account}, which the stack does not register: the API "
                "server refuses its pods (ServiceAccount admission), so none would run; register it, or name one that "
                "exists"
            )
    if missing:
        return Verdict(VERDICT_NAME, False, _summary(missing), [*missing, *notes])
    if not uses and not notes:
        return Verdict(VERDICT_NAME, True, "the stack registers no workload")
    return Verdict(
        VERDICT_NAME,
        True,
        f"each of {len(uses) + len(notes)} workload(s) runs as a ServiceAccount of its namespace"
        + (f" ({len(notes)} not checked)" if notes else ""),
        [*uses, *notes],
    )


def _namespace(obj: dict) -> str:
    return (obj.get("metadata") or {}).get("namespace") or "default"
