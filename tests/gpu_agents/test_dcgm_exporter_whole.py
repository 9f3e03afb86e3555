"""The DCGM exporter's container as the dev stack registers it, whole, in each DCGM mode: connected to the node
monitoring agent's engine where `dcgm-server` runs, its own engine elsewhere (components/gpu_agents/dcgm_exporter.py cites
the exporter's source at the pinned tag for each setting). A test that reads one variable lets the others change
unread: the exporter's Hostname label falls back to the pod's name without NODE_NAME."""

from __future__ import annotations

import pytest

from components.facts import resource_types, versions

DAEMONSET = resource_types.DAEMONSET
PROBE = {"httpGet": {"path": "/health", "port": "metrics"}, "initialDelaySeconds": 45, "periodSeconds": 10}
COMMON_ENV = [
    {"name": "DCGM_EXPORTER_LISTEN", "value": ":9400"},
    {"name": "DCGM_EXPORTER_KUBERNETES", "value": "true"},
    {"name": "NODE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
]
ENGINE_ENV = {
    "dcgm-exporter": [
        {"name": "NODE_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.hostIP"}}},
        {"name": "DCGM_REMOTE_HOSTENGINE_INFO", "value": "$(NODE_IP):5555"},
    ],
    "dcgm-exporter-embedded": [{"name": "DCGM_EXPORTER_ENABLE_DCGM_LOG", "value": "true"}],
}
# CAP_SYS_ADMIN for the embedded engine only (components/gpu_agents/dcgm_exporter.py, security_context and its module
# docstring, say why); none when the node's engine does the reading.
CAPABILITIES = {"dcgm-exporter": {"drop": ["ALL"]}, "dcgm-exporter-embedded": {"drop": ["ALL"], "add": ["SYS_ADMIN"]}}


def expected_container(daemonset: str) -> dict:
    return {
        "name": "dcgm-exporter",
        "image": versions.DCGM_EXPORTER_IMAGE,
        "imagePullPolicy": "IfNotPresent",
        "args": ["-f", "/etc/dcgm-exporter/default-counters.csv"],
        "env": [*COMMON_ENV, *ENGINE_ENV[daemonset]],
        "ports": [{"name": "metrics", "containerPort": 9400, "protocol": "TCP"}],
        "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"cpu": "200m", "memory": "256Mi"}},
        "livenessProbe": PROBE,
        "readinessProbe": PROBE,
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "privileged": False,
            "readOnlyRootFilesystem": True,
            "runAsNonRoot": False,
            "runAsUser": 0,
            "seccompProfile": {"type": "RuntimeDefault"},
            "capabilities": CAPABILITIES[daemonset],
        },
        "volumeMounts": [
            {"name": "pod-resources", "mountPath": "/var/lib/kubelet/pod-resources", "readOnly": True},
            {"name": "tmp", "mountPath": "/tmp"},
        ],
    }


@pytest.mark.parametrize("daemonset", sorted(ENGINE_ENV))
def test_the_exporter_container_of_each_dcgm_mode_is_registered_whole(dev_run, daemonset):
    (registered,) = [d for d in dev_run.of_type(DAEMONSET) if d.inputs["metadata"]["name"] == daemonset]

    assert registered.inputs["spec"]["template"]["spec"]["containers"] == [expected_container(daemonset)]


@pytest.mark.parametrize("daemonset", sorted(ENGINE_ENV))
def test_on_bottlerocket_each_exporter_runs_privileged_with_nothing_else_changed(stack, daemonset):
    run = stack({"gpuNodeGroup": {"amiFamily": "Bottlerocket"}})
    (registered,) = [d for d in run.of_type(DAEMONSET) if d.inputs["metadata"]["name"] == daemonset]
    expected = expected_container(daemonset)
    # The API server refuses privileged with allowPrivilegeEscalation false (ValidateSecurityContext), and a
    # privileged container holds every capability, so the list goes.
    context = {key: value for key, value in expected["securityContext"].items() if key != "capabilities"}
    expected["securityContext"] = {**context, "privileged": True, "allowPrivilegeEscalation": True}

    assert registered.inputs["spec"]["template"]["spec"]["containers"] == [expected]
