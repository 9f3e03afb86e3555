"""A checker for the `restricted` Pod Security Standard, applied to pod specs the stack would create.

The rules are those of the Pod Security Standards, restricted profile (which includes baseline):
https://kubernetes.io/docs/concepts/security/pod-security-standards/ . Controls covered:
- Host namespaces: spec.hostNetwork, hostPID, hostIPC undefined or false.
- Privileged containers: securityContext.privileged undefined or false.
- HostProcess: windowsOptions.hostProcess undefined or false.
- Host ports: ports[*].hostPort undefined or 0.
- AppArmor: appArmorProfile.type undefined, RuntimeDefault or Localhost.
- SELinux: seLinuxOptions.type undefined, "", container_t, container_init_t, container_kvm_t or
  container_engine_t; seLinuxOptions.user and .role undefined or "".
- Sysctls: only the safe set listed in SAFE_SYSCTLS.
- /proc mount type: procMount undefined or Default.
- Volume types: only configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected,
  secret (so no hostPath).
- Privilege escalation: allowPrivilegeEscalation exactly false on every container.
- Running as non-root: runAsNonRoot true at pod level (no container setting it false), or true on every
  container; "Running as non-root user": runAsUser never 0 at any level.
- Seccomp: seccompProfile.type RuntimeDefault or Localhost at pod level (no container overriding it with
  another type), or on every container.
- Capabilities: drop includes ALL; add is empty or only NET_BIND_SERVICE.
The checks apply to containers, initContainers and ephemeralContainers alike, as the standard's fields do.
"""

from __future__ import annotations

from typing import Any

RESTRICTED_VOLUME_TYPES = frozenset(
    {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"}
)
ALLOWED_SECCOMP_TYPES = ("RuntimeDefault", "Localhost")
ADDABLE_CAPABILITIES = frozenset({"NET_BIND_SERVICE"})
ALLOWED_APPARMOR_TYPES = (None, "RuntimeDefault", "Localhost")
ALLOWED_SELINUX_TYPES = (None, "", "container_t", "container_init_t", "container_kvm_t", "container_engine_t")
SAFE_SYSCTLS = frozenset(
    {
        "kernel.shm_rmid_forced",
        "net.ipv4.ip_local_port_range",
        "net.ipv4.ip_unprivileged_port_start",
        "net.ipv4.tcp_syncookies",
        "net.ipv4.ping_group_range",
        "net.ipv4.ip_local_reserved_ports",
        "net.ipv4.tcp_keepalive_time",
        "net.ipv4.tcp_fin_timeout",
        "net.ipv4.tcp_keepalive_intvl",
        "net.ipv4.tcp_keepalive_probes",
    }
)
CONTAINER_LISTS = ("initContainers", "containers", "ephemeralContainers")
# Where each workload kind keeps its pod template's spec.
POD_SPEC_PATHS = {
    "Pod": ("spec",),
    "Deployment": ("spec", "template", "spec"),
    "DaemonSet": ("spec", "template", "spec"),
    "StatefulSet": ("spec", "template", "spec"),
    "ReplicaSet": ("spec", "template", "spec"),
    "Job": ("spec", "template", "spec"),
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
}


def pod_spec_of(manifest: dict[str, Any]) -> dict[str, Any] | None:
    """The pod spec of a workload manifest, or None for a kind that has none."""
    path = POD_SPEC_PATHS.get(manifest.get("kind", ""))
    if path is None:
        return None
    value: Any = manifest
    for part in path:
        value = (value or {}).get(part)
    return value or {}


def _context_violations(where: str, context: dict[str, Any]) -> list[str]:
    """Baseline controls that read the same at pod and container level: AppArmor, SELinux, HostProcess."""
    found = []
    if (context.get("windowsOptions") or {}).get("hostProcess"):
        found.append(f"{where}.windowsOptions.hostProcess is true; allowed: false or unset")
    apparmor = (context.get("appArmorProfile") or {}).get("type")
    if apparmor not in ALLOWED_APPARMOR_TYPES:
        found.append(f"{where}.appArmorProfile.type is {apparmor!r}; allowed: RuntimeDefault, Localhost or unset")
    selinux = context.get("seLinuxOptions") or {}
    if selinux.get("type") not in ALLOWED_SELINUX_TYPES:
        found.append(f"{where}.seLinuxOptions.type is {selinux['type']!r}; allowed: {ALLOWED_SELINUX_TYPES[2:]}")
    for field in ("user", "role"):
        if selinux.get(field):
            found.append(f"{where}.seLinuxOptions.{field} is {selinux[field]!r}; allowed: unset")
    return found


def restricted_violations(spec: dict[str, Any]) -> list[str]:
    """Every way `spec` (a pod spec) breaks the restricted profile; empty when it meets it."""
    found: list[str] = []
    pod_context = spec.get("securityContext") or {}
    containers = [(list_name, container) for list_name in CONTAINER_LISTS for container in spec.get(list_name) or []]

    for field in ("hostNetwork", "hostPID", "hostIPC"):
        if spec.get(field):
            found.append(f"spec.{field} is {spec[field]!r}; allowed: false or unset")
    found.extend(_context_violations("spec.securityContext", pod_context))
    for sysctl in pod_context.get("sysctls") or []:
        if sysctl.get("name") not in SAFE_SYSCTLS:
            found.append(f"spec.securityContext.sysctls sets {sysctl.get('name')!r}; allowed: {sorted(SAFE_SYSCTLS)}")
    for volume in spec.get("volumes") or []:
        kinds = set(volume) - {"name"}
        if not kinds or not kinds <= RESTRICTED_VOLUME_TYPES:
            found.append(
                f"volume {volume.get('name')!r} is of type {sorted(kinds)}; allowed: {sorted(RESTRICTED_VOLUME_TYPES)}"
            )

    # Running as non-root: the pod's true covers containers that leave it unset; a container's false wins.
    pod_non_root = pod_context.get("runAsNonRoot")
    if pod_non_root is False:
        found.append("spec.securityContext.runAsNonRoot is false; allowed: true or unset")
    if pod_context.get("runAsUser") == 0:
        found.append("spec.securityContext.runAsUser is 0; allowed: non-zero or unset")
    pod_seccomp = (pod_context.get("seccompProfile") or {}).get("type")
    if pod_seccomp is not None and pod_seccomp not in ALLOWED_SECCOMP_TYPES:
        found.append(
            f"spec.securityContext.seccompProfile.type is {pod_seccomp!r}; allowed: {', '.join(ALLOWED_SECCOMP_TYPES)}"
        )

    for list_name, container in containers:
        where = f"{list_name}[{container.get('name')!r}]"
        context = container.get("securityContext") or {}
        if context.get("privileged"):
            found.append(f"{where}.securityContext.privileged is true; allowed: false or unset")
        found.extend(_context_violations(f"{where}.securityContext", context))
        if context.get("procMount") not in (None, "Default"):
            found.append(f"{where}.securityContext.procMount is {context['procMount']!r}; allowed: Default or unset")
        for port in container.get("ports") or []:
            if port.get("hostPort"):
                found.append(
                    f"{where} port {port.get('containerPort')} sets hostPort {port['hostPort']}; allowed: 0 or unset"
                )
        if context.get("allowPrivilegeEscalation") is not False:
            found.append(
                f"{where}.securityContext.allowPrivilegeEscalation is "
                f"{context.get('allowPrivilegeEscalation')!r}; allowed: false"
            )
        non_root = context.get("runAsNonRoot")
        if non_root is False:
            found.append(f"{where}.securityContext.runAsNonRoot is false; allowed: true, or unset under a pod's true")
        elif non_root is None and pod_non_root is not True:
            found.append(f"{where}.securityContext.runAsNonRoot is unset and the pod does not set it true")
        if context.get("runAsUser") == 0:
            found.append(f"{where}.securityContext.runAsUser is 0; allowed: non-zero or unset")
        seccomp = (context.get("seccompProfile") or {}).get("type")
        if seccomp is None and pod_seccomp is None:
            found.append(
                f"{where} has no seccompProfile and the pod sets none; allowed: {', '.join(ALLOWED_SECCOMP_TYPES)}"
            )
        elif seccomp is not None and seccomp not in ALLOWED_SECCOMP_TYPES:
            found.append(
                f"{where}.securityContext.seccompProfile.type is {seccomp!r}; allowed: "
                f"{', '.join(ALLOWED_SECCOMP_TYPES)}"
            )
        capabilities = context.get("capabilities") or {}
        if "ALL" not in (capabilities.get("drop") or []):
            found.append(
                f"{where}.securityContext.capabilities.drop is {capabilities.get('drop')!r}; "
                "allowed: a list including ALL"
            )
        added = set(capabilities.get("add") or []) - ADDABLE_CAPABILITIES
        if added:
            found.append(
                f"{where}.securityContext.capabilities.add has {sorted(added)}; allowed: only NET_BIND_SERVICE"
            )
    return found
