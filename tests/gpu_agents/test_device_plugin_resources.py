"""What the device plugin component registers besides its DaemonSet: a token-less ServiceAccount and a
NetworkPolicy, all children of the component."""

from __future__ import annotations

from components.facts.resource_types import DAEMONSET, NETWORK_POLICY, SERVICE_ACCOUNT

PLUGIN_TYPE = "eks-gpu-inference:index:NvidiaDevicePlugin"


def test_the_plugin_resources_are_children_of_the_component_and_its_account_has_no_token(stack):
    run = stack()
    (component,) = run.of_type(PLUGIN_TYPE)
    children = [r for r in run.resources if r.parent == component.urn]
    assert sorted(r.type for r in children) == [
        DAEMONSET,
        SERVICE_ACCOUNT,
        NETWORK_POLICY,
    ]
    (account,) = [r for r in children if r.type == SERVICE_ACCOUNT]
    assert account.inputs["automountServiceAccountToken"] is False
    assert account.inputs["metadata"]["namespace"] == "kube-system"
