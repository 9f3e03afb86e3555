"""The EKS node monitoring agent add-on as registered, whole: its `configurationValues` text (the tolerations
`dcgm-server` needs on the contract's GPU nodes, nothing else), version, conflict resolution, `preserve`, tags,
parent and provider, and the version lookup it makes; for the dev stack, a contract unlike the default, and node
repair off (no add-on and no lookup). Then `configuration_json` on contracts whose taints sit on each side of the
repelling boundary (NoSchedule and NoExecute are tolerated, PreferNoSchedule is not: it repels nothing).

The add-on's chart ships `dcgmAgent.tolerations: []` (aws/eks-node-monitoring-agent v1.7.0,
charts/eks-node-monitoring-agent/values.yaml, components/cluster/node_monitoring.py cites it, read 2026-12-02);
`OVERWRITE` is CreateAddon's `resolveConflicts` value that takes over the fields (EKS API reference).
"""

from __future__ import annotations

import pytest
from conftest import CUSTOM_CONTRACT

from components.cluster.node_monitoring import configuration_json
from components.facts import resource_types
from components.facts.contract import PlacementContract, Taint

ADDON = resource_types.ADDON
CLUSTER = "eks-gpu-inference:index:EksCluster"
LOOKUP = resource_types.GET_ADDON_VERSION
STACK_TAGS = {"app.kubernetes.io/part-of": "eks-gpu-inference", "pulumi:stack": "test"}

CONFIGURATIONS = {
    "dev": '{"dcgmAgent":{"tolerations":[{"effect":"NoSchedule","key":"GPU","operator":"Equal","value":"true"}]}}',
    "custom-contract": (
        '{"dcgmAgent":{"tolerations":['
        '{"effect":"NoExecute","key":"nvidia.com/gpu","operator":"Equal","value":"present"},'
        '{"effect":"NoSchedule","key":"dedicated","operator":"Equal","value":"inference"}]}}'
    ),
}
OVERRIDES = {"dev": {}, "custom-contract": CUSTOM_CONTRACT}


def monitoring_addons(run) -> list:
    return [r for r in run.of_type(ADDON) if r.name == "gpu-inference-dev-node-monitoring-agent"]


@pytest.mark.parametrize("case", sorted(CONFIGURATIONS))
def test_the_addon_is_registered_whole(stack, case):
    run = stack(OVERRIDES[case])
    (addon,) = monitoring_addons(run)
    (cluster,) = run.of_type(CLUSTER)

    assert addon.inputs == {
        "addonName": "eks-node-monitoring-agent",
        # The version of the committed configuration schema, whatever EKS offers (components/cluster/addons.py).
        "addonVersion": "v1.7.0-eksbuild.1",
        "clusterName": "gpu-inference-dev",
        "configurationValues": CONFIGURATIONS[case],
        # Deleting it may remove the agent: nodes keep running without it (only kube-proxy and the CNI are kept).
        "preserve": False,
        "resolveConflictsOnCreate": "OVERWRITE",
        "resolveConflictsOnUpdate": "OVERWRITE",
        "tags": STACK_TAGS,
    }
    assert addon.parent == cluster.urn
    assert addon.provider == ""
    # It runs on every node, so it waits for the system node group (a DaemonSet with no node never becomes ready).
    assert run.named("gpu-inference-dev-system").urn in addon.dependencies


def test_the_addon_looks_its_version_up_for_the_clusters_kubernetes_version(dev_run):
    lookups = [
        (arguments, provider)
        for (token, arguments), provider in zip(dev_run.calls, dev_run.call_providers, strict=True)
        if token == LOOKUP and arguments["addonName"] == "eks-node-monitoring-agent"
    ]

    assert lookups == [
        ({"addonName": "eks-node-monitoring-agent", "kubernetesVersion": "1.36", "mostRecent": True}, "")
    ]


def test_without_node_repair_there_is_neither_addon_nor_lookup(stack):
    run = stack({"gpuNodeGroup": {"nodeRepair": False}})

    assert monitoring_addons(run) == []
    assert [a for token, a in run.calls if token == LOOKUP and a["addonName"] == "eks-node-monitoring-agent"] == []
    # The other add-ons stay.
    assert sorted(r.name for r in run.of_type(ADDON)) == [
        "gpu-inference-dev-coredns",
        "gpu-inference-dev-kube-proxy",
        "gpu-inference-dev-pod-identity-agent",
        "gpu-inference-dev-vpc-cni",
    ]


def toleration_json(key: str, value: str, effect: str) -> str:
    return f'{{"effect":"{effect}","key":"{key}","operator":"Equal","value":"{value}"}}'


@pytest.mark.parametrize(
    ("contract", "tolerations"),
    [
        pytest.param(PlacementContract(), [toleration_json("GPU", "true", "NoSchedule")], id="default"),
        pytest.param(
            PlacementContract(taint=Taint("gpu", "yes", "NoExecute")),
            [toleration_json("gpu", "yes", "NoExecute")],
            id="no-execute",
        ),
        pytest.param(
            PlacementContract(extra_taints=(Taint("soft", "x", "PreferNoSchedule"), Taint("hard", "y", "NoExecute"))),
            [toleration_json("GPU", "true", "NoSchedule"), toleration_json("hard", "y", "NoExecute")],
            id="prefer-no-schedule-left-out",
        ),
        pytest.param(
            PlacementContract(extra_taints=(Taint("dedicated", "", "NoSchedule"),)),
            [
                toleration_json("GPU", "true", "NoSchedule"),
                '{"effect":"NoSchedule","key":"dedicated","operator":"Exists"}',
            ],
            id="valueless-taint-exists",
        ),
        # A contract whose only taint repels nothing: the chart's empty list, said explicitly.
        pytest.param(PlacementContract(taint=Taint("GPU", "true", "PreferNoSchedule")), [], id="nothing-repels"),
    ],
)
def test_configuration_json_tolerates_exactly_the_repelling_taints(contract, tolerations):
    assert configuration_json(contract) == '{"dcgmAgent":{"tolerations":[' + ",".join(tolerations) + "]}}"
