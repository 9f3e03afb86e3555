"""How the plan reads a node group pool's replacement (stackcheck/plan/disruption.py `pool_replacement`), which
`node-replacement-keeps-models-serving` names in its messages: from the EKS node group registered under the pool's
own component, by that component's name."""

from __future__ import annotations

from types import SimpleNamespace

from components.facts.karpenter import DO_NOT_DISRUPT
from components.facts.resource_types import KARPENTER_NODE_POOL, NODE_GROUP
from components.placement.disruption import PoolReplacement, ServedModel
from components.settings.stack import parse_settings
from components.stackcheck.plan.disruption import pool_replacement, served_models
from components.stackcheck.runtime import RegisteredResource
from tests.conftest import dev_stack_config, merge

COMPONENT_URN = "urn:pulumi:dev::eks-gpu-inference::eks-gpu-inference:index:GpuNodeGroup::"


def node_group(component: str, max_unavailable: int) -> RegisteredResource:
    inputs = {"updateConfig": {"maxUnavailable": max_unavailable}}
    return RegisteredResource(
        NODE_GROUP, f"{component}-ng", inputs, COMPONENT_URN + component, f"urn:{component}", True
    )


def test_a_node_group_pool_is_named_by_its_component_and_read_from_its_own_node_group():
    """Pulumi.dev.yaml's cluster is `gpu-inference-dev` and its one pool is in the one-pool form, whose
    `GpuNodeGroup` keeps the name deployed stacks have: `gpu-inference-dev-gpu`. Its node group says
    `maxUnavailable: 1`; another component's node group (3) is not read."""
    settings = parse_settings(dev_stack_config())
    [server] = settings.servers
    registered = [node_group("other-cluster-gpu", 3), node_group("gpu-inference-dev-gpu", 1)]

    found = pool_replacement(settings, server.pool, registered)

    assert found == PoolReplacement("gpu-inference-dev-gpu", "nodeGroup", max_unavailable=1)


def test_a_node_group_pool_without_an_update_pace_or_a_node_group_reads_none():
    """EKS's own default applies to a node group without `updateConfig` (the plan reads none); a node group with no
    parent is no pool's, and a pool whose node group is not registered is named with nothing read."""
    settings = parse_settings(dev_stack_config())
    [server] = settings.servers
    bare = RegisteredResource(
        NODE_GROUP, "ng", {}, COMPONENT_URN + "gpu-inference-dev-gpu", "urn:gpu-inference-dev-gpu", True
    )
    orphan = RegisteredResource(NODE_GROUP, "orphan", {"updateConfig": {"maxUnavailable": 2}}, None, "urn:o", True)

    assert pool_replacement(settings, server.pool, [orphan, bare]) == PoolReplacement(
        "gpu-inference-dev-gpu", "nodeGroup"
    )
    assert pool_replacement(settings, server.pool, [orphan]) == PoolReplacement("gpu-inference-dev-gpu", "nodeGroup")


def node_pool(name: str, template: dict) -> RegisteredResource:
    inputs = {"metadata": {"name": name}, "spec": {"template": {"spec": template}}}
    return RegisteredResource(KARPENTER_NODE_POOL, name, inputs, None, f"urn:{name}", True)


def karpenter_settings(vllm: dict | None = None):
    return parse_settings(merge(dev_stack_config(), {"gpuNodeGroup": {"provisioner": "karpenter"}, "vllm": vllm or {}}))


def test_a_karpenter_pool_is_read_from_its_own_node_pool_by_name():
    """The one-pool form's NodePool is `gpu` (settings.fleet `node_pool_name`): its template's `expireAfter` and
    `terminationGracePeriod` are read; another NodePool's are not, and a pool with no NodePool registered is
    named with nothing read."""
    settings = karpenter_settings()
    [server] = settings.servers
    registered = [
        node_pool("gpu-other", {"expireAfter": "24h", "terminationGracePeriod": "5m"}),
        node_pool("gpu", {"expireAfter": "720h", "terminationGracePeriod": "1h"}),
    ]

    assert pool_replacement(settings, server.pool, registered) == PoolReplacement(
        "gpu", "karpenter", expire_after="720h", termination_grace_period="1h"
    )
    assert pool_replacement(settings, server.pool, registered[:1]) == PoolReplacement("gpu", "karpenter")


def deployment_object(namespace: str, name: str, annotations: dict, grace: int | None) -> SimpleNamespace:
    pod = {} if grace is None else {"terminationGracePeriodSeconds": grace}
    template = {"metadata": {"labels": {"app": "vllm-server"}, "annotations": annotations}, "spec": pod}
    return SimpleNamespace(kind="Deployment", namespace=namespace, name=name, manifest={"spec": {"template": template}})


def budget_object(namespace: str, match: dict, name: str) -> SimpleNamespace:
    manifest = {
        "metadata": {"namespace": namespace, "name": name},
        "spec": {"selector": {"matchLabels": match}, "maxUnavailable": 1, "name": name},
    }
    return SimpleNamespace(kind="PodDisruptionBudget", namespace=namespace, name=name, manifest=manifest)


def test_a_served_model_reads_its_deployment_its_budgets_its_cold_start_and_its_pool():
    """The one-model form's server is the Deployment `vllm/vllm-server` (vllm/manifests.py `SERVER_NAME`); only a
    budget in its namespace whose `matchLabels` select its pods counts (an empty selector selects nothing here:
    the stack's budgets always name labels); with autoscaling its fewest replicas are `minReplicas`."""
    settings = karpenter_settings({"autoscaling": {"enabled": True, "minReplicas": 2, "maxReplicas": 3}})
    start = SimpleNamespace(seconds=300.0)
    objects = [
        deployment_object("vllm", "vllm-server", {DO_NOT_DISRUPT: "900s"}, 45),
        deployment_object("other", "vllm-server", {}, 5),
        budget_object("vllm", {"app": "vllm-server"}, "selects"),
        budget_object("other", {"app": "vllm-server"}, "elsewhere"),
        budget_object("vllm", {"app": "another"}, "selects-another"),
        budget_object("vllm", {}, "selects-nothing"),
    ]
    pools = [node_pool("gpu", {"expireAfter": "720h"})]

    [served] = served_models(settings, objects, pools, [start])

    assert served == ServedModel(
        workload="vllm/vllm-server",
        pool=PoolReplacement("gpu", "karpenter", expire_after="720h"),
        cold_start=start,
        replicas=2,
        do_not_disrupt="900s",
        grace_seconds=45,
        budgets=[{"selector": {"matchLabels": {"app": "vllm-server"}}, "maxUnavailable": 1, "name": "selects"}],
    )


def test_a_served_model_without_autoscaling_or_a_grace_period_takes_its_replicas_and_kubernetes_default():
    """Kubernetes' default `terminationGracePeriodSeconds` is 30 (PodSpec); without a Deployment registered, or a
    cold start, the server is left out."""
    settings = karpenter_settings({"replicas": 3})
    start = SimpleNamespace(seconds=300.0)
    objects = [deployment_object("vllm", "vllm-server", {}, None)]

    [served] = served_models(settings, objects, [], [start])

    assert (served.replicas, served.grace_seconds, served.do_not_disrupt, served.budgets) == (3, 30, None, [])
    assert served_models(settings, [], [], [start]) == []
    assert served_models(settings, objects, [], []) == []
