"""Every pod the stack would run in a namespace that enforces the `restricted` Pod Security Standard
meets it, checked over the whole plan's objects, at pod and container level."""

from __future__ import annotations

import copy

import pytest
from conftest import _shared_run_scope, dev_stack_config, merge, run_stack

from components.stackcheck.plan.render import kubernetes_objects
from components.stackcheck.runtime import ProgramRun
from tests.support.pod_security import pod_spec_of, restricted_violations

ENFORCE = "pod-security.kubernetes.io/enforce"

STACK_VARIANTS = [
    pytest.param({}, (), id="the dev stack"),
    pytest.param(
        {"vllm": {"modelCache": {"type": "pvc", "size": "200Gi"}}, "hfToken": "hf_examplenotreal000"},
        ("hfToken",),
        id="a server with a claim for its cache and a token Secret",
    ),
    pytest.param(
        {
            "gpuPlacement": {"requireNodeAffinity": True, "taintEffect": "NoExecute"},
            "vllm": {"namespace": "inference", "replicas": 2},
        },
        (),
        id="a server in its own namespace with node affinity and two replicas",
    ),
    pytest.param({"gpuNodeGroup": {"instanceTypes": ["g5g.xlarge"]}}, (), id="a Graviton GPU node group"),
]


def restricted_pod_specs(run: ProgramRun) -> dict[str, dict]:
    """Pod specs of every workload in a namespace the plan labels `enforce: restricted`, by object id."""
    objects = kubernetes_objects(run.resources)
    restricted = {
        obj.name
        for obj in objects
        if obj.kind == "Namespace" and (obj.manifest["metadata"].get("labels") or {}).get(ENFORCE) == "restricted"
    }
    return {
        obj.id: spec
        for obj in objects
        if obj.namespace in restricted and (spec := pod_spec_of(obj.manifest)) is not None
    }


@pytest.mark.parametrize(("overrides", "secret_keys"), STACK_VARIANTS)
def test_every_pod_in_a_restricted_namespace_meets_the_restricted_standard(overrides, secret_keys):
    run = run_stack(merge(dev_stack_config(), overrides), secret_keys)
    specs = restricted_pod_specs(run)
    namespace = overrides.get("vllm", {}).get("namespace", "vllm")
    assert f"Deployment {namespace}/vllm-server" in specs, sorted(specs)
    for object_id, spec in specs.items():
        assert restricted_violations(spec) == [], object_id


def test_the_device_plugin_needs_host_access_so_it_runs_outside_restricted_namespaces(dev_run):
    # It registers a socket in the kubelet's device-plugins directory, a hostPath volume the restricted
    # (and baseline) profile forbids; kube-system is not labelled by the stack.
    objects = kubernetes_objects(dev_run.resources)
    (plugin,) = [obj for obj in objects if obj.kind == "DaemonSet" and obj.name == "nvidia-device-plugin"]
    assert plugin.namespace == "kube-system"
    assert not [obj for obj in objects if obj.kind == "Namespace" and obj.name == "kube-system"]
    assert plugin.id not in restricted_pod_specs(dev_run)
    assert any("hostPath" in violation for violation in restricted_violations(pod_spec_of(plugin.manifest)))


@pytest.fixture(scope=_shared_run_scope)
def server_spec() -> dict:
    specs = restricted_pod_specs(run_stack(dev_stack_config()))
    return specs["Deployment vllm/vllm-server"]


def _container(spec: dict) -> dict:
    return spec["containers"][0]


def _set(path: tuple, value):
    """A change to the server's pod spec: set `path` (a None value deletes the key)."""

    def change(spec: dict) -> None:
        target = spec
        for part in path[:-1]:
            target = target[part] if isinstance(part, int) else target.setdefault(part, {})
        if value is None:
            target.pop(path[-1], None)
        else:
            target[path[-1]] = value

    return change


CONTAINER = ("containers", 0, "securityContext")
POD = ("securityContext",)

VIOLATIONS = [
    pytest.param(
        _set((*CONTAINER, "runAsNonRoot"), False),
        "runAsNonRoot is false",
        id="a container's runAsNonRoot false overrides the pod's true and is rejected",
    ),
    pytest.param(
        _set((*POD, "runAsNonRoot"), False),
        "runAsNonRoot is false",
        id="a pod's runAsNonRoot false is rejected even when its containers set true",
    ),
    pytest.param(
        lambda spec: (_set((*POD, "runAsNonRoot"), None)(spec), _set((*CONTAINER, "runAsNonRoot"), None)(spec)),
        "runAsNonRoot is unset",
        id="runAsNonRoot set at no level is rejected",
    ),
    pytest.param(_set((*CONTAINER, "runAsUser"), 0), "runAsUser is 0", id="a container running as UID 0 is rejected"),
    pytest.param(_set((*POD, "runAsUser"), 0), "runAsUser is 0", id="a pod running as UID 0 is rejected"),
    pytest.param(
        _set((*CONTAINER, "seccompProfile"), {"type": "Unconfined"}),
        "'Unconfined'",
        id="an Unconfined seccomp profile on a container is rejected",
    ),
    pytest.param(
        lambda spec: (_set((*POD, "seccompProfile"), None)(spec), _set((*CONTAINER, "seccompProfile"), None)(spec)),
        "no seccompProfile",
        id="no seccomp profile at any level is rejected",
    ),
    pytest.param(
        _set((*CONTAINER, "allowPrivilegeEscalation"), True),
        "allowPrivilegeEscalation is True",
        id="a container allowing privilege escalation is rejected",
    ),
    pytest.param(
        _set((*CONTAINER, "allowPrivilegeEscalation"), None),
        "allowPrivilegeEscalation is None",
        id="a container leaving privilege escalation unset is rejected",
    ),
    pytest.param(
        _set((*CONTAINER, "capabilities"), {"drop": ["NET_RAW"]}),
        "capabilities.drop",
        id="a container that does not drop ALL capabilities is rejected",
    ),
    pytest.param(
        _set((*CONTAINER, "capabilities"), {"drop": ["ALL"], "add": ["SYS_ADMIN"]}),
        "SYS_ADMIN",
        id="a container adding a capability other than NET_BIND_SERVICE is rejected",
    ),
    pytest.param(_set((*CONTAINER, "privileged"), True), "privileged is true", id="a privileged container is rejected"),
    pytest.param(_set((*CONTAINER, "procMount"), "Unmasked"), "procMount", id="an unmasked /proc is rejected"),
    pytest.param(
        _set((*CONTAINER, "seLinuxOptions"), {"type": "spc_t"}),
        "seLinuxOptions.type",
        id="a custom SELinux type is rejected",
    ),
    pytest.param(
        _set((*POD, "appArmorProfile"), {"type": "Unconfined"}),
        "appArmorProfile",
        id="an Unconfined AppArmor profile is rejected",
    ),
    pytest.param(
        _set((*POD, "sysctls"), [{"name": "kernel.msgmax", "value": "1"}]),
        "kernel.msgmax",
        id="an unsafe sysctl is rejected",
    ),
    pytest.param(
        lambda spec: spec["volumes"].append({"name": "host", "hostPath": {"path": "/"}}),
        "hostPath",
        id="a hostPath volume is rejected",
    ),
    pytest.param(
        lambda spec: spec["volumes"].append({"name": "nfs", "nfs": {"server": "a", "path": "/"}}),
        "nfs",
        id="a volume type outside the restricted list is rejected",
    ),
    pytest.param(_set(("hostNetwork",), True), "hostNetwork", id="a pod on the host network is rejected"),
    pytest.param(_set(("hostPID",), True), "hostPID", id="a pod in the host PID namespace is rejected"),
    pytest.param(_set(("hostIPC",), True), "hostIPC", id="a pod in the host IPC namespace is rejected"),
    pytest.param(
        lambda spec: _container(spec)["ports"][0].update(hostPort=8000),
        "hostPort",
        id="a container port bound on the host is rejected",
    ),
    pytest.param(
        lambda spec: spec.setdefault("initContainers", []).append(
            {
                "name": "init",
                "securityContext": {
                    "allowPrivilegeEscalation": False,
                    "capabilities": {"drop": ["ALL"]},
                    "runAsNonRoot": False,
                },
            }
        ),
        "initContainers['init']",
        id="an init container is held to the same rules as the main one",
    ),
]


@pytest.mark.parametrize(("change", "fragment"), VIOLATIONS)
def test_the_checker_rejects_each_breach_of_the_restricted_standard(server_spec, change, fragment):
    assert restricted_violations(server_spec) == []
    spec = copy.deepcopy(server_spec)
    change(spec)
    violations = restricted_violations(spec)
    assert any(fragment in violation for violation in violations), violations


ALLOWED = [
    pytest.param(_set((*CONTAINER, "runAsNonRoot"), None), id="a container may leave runAsNonRoot to the pod's true"),
    pytest.param(
        lambda spec: (_set((*POD, "runAsNonRoot"), None)(spec), _set((*CONTAINER, "runAsNonRoot"), True)(spec)),
        id="a pod may leave runAsNonRoot unset when every container sets it true",
    ),
    pytest.param(_set((*CONTAINER, "seccompProfile"), None), id="a container may leave seccomp to the pod's profile"),
    pytest.param(
        _set((*POD, "seccompProfile"), {"type": "Localhost", "localhostProfile": "p.json"}),
        id="a Localhost seccomp profile is allowed",
    ),
    pytest.param(
        _set((*CONTAINER, "capabilities"), {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}),
        id="adding back NET_BIND_SERVICE is allowed",
    ),
    pytest.param(
        lambda spec: spec["volumes"].append({"name": "c", "configMap": {"name": "c"}}),
        id="a configMap volume is allowed",
    ),
]


@pytest.mark.parametrize("change", ALLOWED)
def test_the_checker_accepts_what_the_restricted_standard_allows(server_spec, change):
    spec = copy.deepcopy(server_spec)
    change(spec)
    assert restricted_violations(spec) == []
