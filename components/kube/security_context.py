"""The locked-down container securityContext every workload of the stack starts from.

No privilege escalation, every capability dropped, not privileged, a read-only root filesystem: what the
restricted Pod Security Standard asks of a container (Kubernetes docs, "Pod Security Standards",
Restricted), plus a read-only root, which checkov asks for (CKV_K8S_22, checkov/kubernetes/checks/resource/k8s/ReadOnlyFilesystem.py). Each component adds what it
needs on top (its user, a seccomp profile, a capability it must keep).
"""

from __future__ import annotations

from typing import Any


def locked_down(**extra: Any) -> dict[str, Any]:
    """The locked-down securityContext, with `extra` fields (camelCase keys) added or replacing the defaults."""
    return {
        "allowPrivilegeEscalation": False,
        "capabilities": {"drop": ["ALL"]},
        "privileged": False,
        "readOnlyRootFilesystem": True,
        **extra,
    }
