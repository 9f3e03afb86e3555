"""The Cluster Autoscaler: scales this cluster's node groups only, runs on the system pool, and the GPU pool's
node-template tags let it scale that pool from zero."""

from __future__ import annotations

import json

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.autoscaling.cluster_autoscaler import (
    CLUSTER_RULES,
    NAMESPACE_RULES,
    container_command,
    priorities_document,
)
from components.facts import versions
from components.facts.gpu_catalog import CLUSTER_AUTOSCALER_TEMPLATE_TAG
from components.facts.resource_types import (
    ADDON,
    CONFIG_MAP,
    DEPLOYMENT,
    NODE_GROUP,
    ROLE,
    ROLE_POLICY,
    SERVICE_ACCOUNT,
)
from components.facts.resource_types import (
    AUTOSCALING_TAG as TAG,
)
from components.facts.resource_types import (
    POD_IDENTITY_ASSOCIATION as ASSOCIATION,
)
from components.placement.scale_from_zero import (
    cpu_workloads_verdict,
    scale_from_zero_verdict,
)
from components.settings import AutoscalerSettings, ConfigError, parse_settings
from components.stackcheck.plan import pools as plan_pools
from components.stackcheck.plan.render import kubernetes_objects

GPU_GROUP = "gpu-inference-dev-gpu"


def autoscaler_deployment(run) -> dict:
    (deployment,) = [d for d in run.of_type(DEPLOYMENT) if d.inputs["metadata"]["name"] == "cluster-autoscaler"]
    return deployment.inputs


def autoscaler_container(run) -> dict:
    (container,) = autoscaler_deployment(run)["spec"]["template"]["spec"]["containers"]
    return container


def test_autoscaler_runs_the_release_of_the_cluster_minor(dev_run):
    image = autoscaler_container(dev_run)["image"]
    assert image == "registry.k8s.io/autoscaling/cluster-autoscaler:v1.36.1"
    for minor, release in versions.CLUSTER_AUTOSCALER_VERSIONS.items():
        assert release.startswith(f"v{minor}."), (minor, release)
    assert set(versions.CLUSTER_AUTOSCALER_VERSIONS) == set(versions.SUPPORTED_KUBERNETES_VERSIONS)


def test_autoscaler_discovers_this_clusters_groups_and_keeps_gpu_nodes_with_emptydirs_scalable(dev_run):
    command = autoscaler_container(dev_run)["command"]
    assert "--cloud-provider=aws" in command
    assert (
        "--node-group-auto-discovery=asg:tag=k8s.io/cluster-autoscaler/enabled,"
        "k8s.io/cluster-autoscaler/gpu-inference-dev"
    ) in command
    assert "--skip-nodes-with-local-storage=false" in command
    assert "--balance-similar-node-groups" in command
    assert "--expander=least-waste" in command
    assert "--scale-down-unneeded-time=30m" in command


def test_scale_down_timing_comes_from_settings():
    command = container_command(
        "c",
        AutoscalerSettings(
            scale_down_unneeded_time="1h",
            scale_down_delay_after_add="5m",
            max_node_provision_time="25m",
            expander="most-pods",
        ),
    )
    assert {
        "--scale-down-unneeded-time=1h",
        "--scale-down-delay-after-add=5m",
        "--max-node-provision-time=25m",
        "--expander=most-pods",
    } <= set(command)


def test_pod_identity_association_names_the_deployments_service_account_and_the_role(dev_run):
    (association,) = dev_run.of_type(ASSOCIATION)
    spec = autoscaler_deployment(dev_run)["spec"]["template"]["spec"]
    assert association.inputs["namespace"] == autoscaler_deployment(dev_run)["metadata"]["namespace"] == "kube-system"
    assert association.inputs["serviceAccount"] == spec["serviceAccountName"]
    (role,) = [r for r in dev_run.of_type(ROLE) if r.name.startswith("gpu-inference-dev-autoscaler")]
    assert association.inputs["roleArn"].endswith(f":role/{role.name}")
    assert association.inputs["clusterName"] == "gpu-inference-dev"
    addons = {addon.inputs["addonName"] for addon in dev_run.of_type(ADDON)}
    assert "eks-pod-identity-agent" in addons


def test_role_is_trusted_by_eks_pod_identity_only(dev_run):
    (role,) = [r for r in dev_run.of_type(ROLE) if r.name.startswith("gpu-inference-dev-autoscaler")]
    (statement,) = json.loads(role.inputs["assumeRolePolicy"])["Statement"]
    assert statement["Principal"] == {"Service": "pods.eks.amazonaws.com"}
    assert sorted(statement["Action"]) == ["sts:AssumeRole", "sts:TagSession"]


def test_scaling_actions_are_limited_to_groups_tagged_for_this_cluster(dev_run):
    (policy,) = dev_run.of_type(ROLE_POLICY)
    statements = json.loads(policy.inputs["policy"])["Statement"]
    mutating = {"autoscaling:SetDesiredCapacity", "autoscaling:TerminateInstanceInAutoScalingGroup"}
    for statement in statements:
        actions = set(statement["Action"])
        if actions & mutating:
            assert statement["Condition"] == {
                "StringEquals": {
                    "aws:ResourceTag/k8s.io/cluster-autoscaler/gpu-inference-dev": "owned",
                    "aws:ResourceTag/k8s.io/cluster-autoscaler/enabled": "true",
                }
            }
        else:
            assert all(action.split(":")[1].startswith(("Describe", "Get")) for action in actions), actions
    assert mutating <= {action for statement in statements for action in statement["Action"]}


def test_rbac_grants_what_the_autoscaler_does_and_no_wildcards(dev_run):
    def allows(rules, group, resource, verb, name=None):
        return any(
            group in rule["apiGroups"]
            and resource in rule["resources"]
            and verb in rule["verbs"]
            and (name is None or name in rule.get("resourceNames", [name]))
            for rule in rules
        )

    cluster_role = next(
        r
        for r in dev_run.of_type("kubernetes:rbac.authorization.k8s.io/v1:ClusterRole")
        if r.inputs["metadata"]["name"] == "cluster-autoscaler"
    )
    rules = cluster_role.inputs["rules"]
    assert rules == CLUSTER_RULES
    assert allows(rules, "", "pods/eviction", "create")  # drains nodes it removes
    assert allows(rules, "", "nodes", "update")  # taints nodes it is about to remove
    assert allows(rules, "coordination.k8s.io", "leases", "update", "cluster-autoscaler")  # leader election
    assert allows(NAMESPACE_RULES, "", "configmaps", "update", "cluster-autoscaler-status")
    for rule in CLUSTER_RULES + NAMESPACE_RULES:
        assert "*" not in rule["verbs"] + rule["resources"] + rule["apiGroups"]
    assert not allows(rules, "", "secrets", "get")


def test_autoscaler_pod_is_locked_down_and_critical(dev_run):
    spec = autoscaler_deployment(dev_run)["spec"]["template"]["spec"]
    assert spec["priorityClassName"] == "system-cluster-critical"
    assert spec["securityContext"]["runAsNonRoot"] is True and spec["securityContext"]["runAsUser"] == 65534
    (container,) = spec["containers"]
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["securityContext"]["capabilities"] == {"drop": ["ALL"]}
    assert "tolerations" not in spec and "volumes" not in spec


def test_autoscaler_lands_on_the_system_pool_only_and_gpu_pools_scale_from_zero(dev_run):
    workloads, node_pools, tags, matrix = plan_inputs(dev_run)
    rows = {(row.pool, row.lands) for row in matrix if row.workload == "kube-system/cluster-autoscaler"}
    assert rows == {("gpu-inference-dev-system", True), (GPU_GROUP, False)}
    verdict = scale_from_zero_verdict(workloads, node_pools, tags, matrix)
    assert verdict.passed and "vllm/vllm-server on gpu-inference-dev-gpu" in verdict.message
    assert cpu_workloads_verdict(workloads, node_pools, matrix).passed


def plan_inputs(run):
    from components import placement

    objects = kubernetes_objects(run.resources)
    workloads = [obj.workload() for obj in objects if obj.kind in ("Deployment", "DaemonSet")]
    node_pools = placement.advertise_gpus(plan_pools.build_pools(plan_pools.node_group_specs(run.resources)), workloads)
    matrix = placement.placement_matrix(workloads, node_pools)
    return workloads, node_pools, plan_pools.template_tags(run.resources), matrix


@pytest.mark.parametrize(
    "missing",
    [
        pytest.param(
            f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/taint/GPU", id="without the taint tag plain pods would scale GPU nodes"
        ),
        pytest.param(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/resources/nvidia.com/gpu", id="without the GPU resource tag"),
        pytest.param(
            f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/label/GPU", id="without the contract label tag GPU pods never scale up"
        ),
    ],
)
def test_scale_from_zero_fails_naming_the_missing_tag(dev_run, missing):
    workloads, node_pools, tags, matrix = plan_inputs(dev_run)
    assert missing in tags[GPU_GROUP]
    del tags[GPU_GROUP][missing]

    verdict = scale_from_zero_verdict(workloads, node_pools, tags, matrix)
    assert not verdict.passed
    assert any(f"missing tag {missing}=" in detail for detail in verdict.details), verdict.details


def test_a_gpu_pool_without_any_template_tag_fails_naming_each_tag_and_the_workload_it_keeps_at_zero(dev_run):
    workloads, node_pools, tags, matrix = plan_inputs(dev_run)
    del tags[GPU_GROUP]  # a node group registered without the autoscaler's node-template tags

    verdict = scale_from_zero_verdict(workloads, node_pools, tags, matrix)
    template = CLUSTER_AUTOSCALER_TEMPLATE_TAG
    assert not verdict.passed
    assert verdict.details == [
        *(
            f"{GPU_GROUP}: missing tag {template}/{tag}"
            for tag in (
                "label/GPU=true",
                "label/k8s.amazonaws.com/accelerator=nvidia-a10g",
                "label/nvidia.com/gpu.present=true",
                "label/nvidia.com/gpu.product=NVIDIA-A10G",
                "taint/GPU=true:NoSchedule",
                "resources/nvidia.com/gpu=1",
            )
        ),
        f"vllm/vllm-server does not fit {GPU_GROUP} at zero nodes: node affinity/selector mismatch: nodeSelector "
        "GPU=true (node has no label GPU)",
    ]


def test_gpu_workload_too_big_for_the_template_node_fails():
    run = run_stack(merge(dev_stack_config(), {"gpuNodeGroup": {"instanceTypes": ["g5.xlarge"]}}))
    workloads, node_pools, tags, matrix = plan_inputs(run)
    tags[GPU_GROUP][f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/resources/memory"] = "4Gi"  # the autoscaler would believe 4Gi

    verdict = scale_from_zero_verdict(workloads, node_pools, tags, matrix)
    assert not verdict.passed and "vllm/vllm-server does not fit gpu-inference-dev-gpu at zero nodes" in verdict.message
    assert "Insufficient memory" in verdict.message


def test_a_workload_the_template_node_is_short_for_twice_names_both_shortfalls(dev_run):
    workloads, node_pools, tags, matrix = plan_inputs(dev_run)
    tags[GPU_GROUP][f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/resources/memory"] = "4Gi"
    tags[GPU_GROUP][f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/resources/cpu"] = "1"

    verdict = scale_from_zero_verdict(workloads, node_pools, tags, matrix)
    assert not verdict.passed
    assert verdict.details == [
        f"vllm/vllm-server does not fit {GPU_GROUP} at zero nodes: Insufficient cpu: requests 3, free 1; Insufficient "
        "memory: requests 13107Mi, free 4Gi"
    ]


def test_a_workload_the_template_node_refuses_by_two_filters_names_both(dev_run):
    workloads, node_pools, tags, matrix = plan_inputs(dev_run)
    tags[GPU_GROUP][f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/resources/memory"] = "4Gi"
    del tags[GPU_GROUP][f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/label/GPU"]

    verdict = scale_from_zero_verdict(workloads, node_pools, tags, matrix)
    assert verdict.details == [
        f"{GPU_GROUP}: missing tag {CLUSTER_AUTOSCALER_TEMPLATE_TAG}/label/GPU=true",
        f"vllm/vllm-server does not fit {GPU_GROUP} at zero nodes: node affinity/selector mismatch: nodeSelector "
        "GPU=true (node has no label GPU); Insufficient memory: requests 13107Mi, free 4Gi",
    ]


def test_gpu_pool_labels_taints_and_template_tags_agree(dev_run):
    (group,) = [g for g in dev_run.of_type(NODE_GROUP) if g.name == GPU_GROUP]
    tags = plan_pools.template_tags(dev_run.resources)[GPU_GROUP]
    labels = {
        key.removeprefix(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/label/"): value
        for key, value in tags.items()
        if "/label/" in key
    }
    assert labels == group.inputs["labels"]
    assert labels["k8s.amazonaws.com/accelerator"] == "nvidia-a10g"
    taints = {
        key.removeprefix(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/taint/"): value
        for key, value in tags.items()
        if "/taint/" in key
    }
    assert taints == {t["key"]: f"{t['value']}:NoSchedule" for t in group.inputs["taints"]}


def test_plain_pods_do_not_fit_the_gpu_template_node(dev_run):
    from components.placement import explain, plain_pod
    from components.placement.scale_from_zero import template_node

    node = template_node(GPU_GROUP, "g5.xlarge", plan_pools.template_tags(dev_run.resources)[GPU_GROUP])
    assert any("untolerated taint GPU=true:NoSchedule" in reason for reason in explain(plain_pod(), node))


def test_disabled_autoscaler_registers_none_of_it_and_the_stack_still_plans():
    run = run_stack(merge(dev_stack_config(), {"autoscaler": {"enabled": False}}))
    assert not [d for d in run.of_type(DEPLOYMENT) if d.inputs["metadata"]["name"] == "cluster-autoscaler"]
    assert not run.of_type(ASSOCIATION) and not run.of_type(ROLE_POLICY)
    assert "eks-pod-identity-agent" not in {addon.inputs["addonName"] for addon in run.of_type(ADDON)}
    assert run.of_type(TAG)  # the node-template tags stay for an autoscaler installed another way


def test_priority_expander_gets_its_configmap():
    run = run_stack(
        merge(
            dev_stack_config(),
            {"autoscaler": {"expander": "priority", "expanderPriorities": {"10": [".*-gpu-.*"], "1": [".*"]}}},
        )
    )
    (configmap,) = [
        c for c in run.of_type(CONFIG_MAP) if c.inputs["metadata"]["name"] == "cluster-autoscaler-priority-expander"
    ]
    assert configmap.inputs["data"]["priorities"] == '10:\n  - ".*-gpu-.*"\n1:\n  - ".*"\n'
    (deployment,) = [d for d in run.of_type(DEPLOYMENT) if d.inputs["metadata"]["name"] == "cluster-autoscaler"]
    assert configmap.inputs["metadata"]["labels"] == deployment.inputs["metadata"]["labels"]
    assert configmap.inputs["metadata"]["labels"]["app.kubernetes.io/name"] == "cluster-autoscaler"
    assert "--expander=priority" in autoscaler_container(run)["command"]


def test_priorities_document_orders_highest_first():
    assert priorities_document({"1": ["a"], "20": ["b", "c"]}) == '20:\n  - "b"\n  - "c"\n1:\n  - "a"\n'


def test_cluster_version_without_an_autoscaler_release_is_refused(monkeypatch):
    table = dict(versions.CLUSTER_AUTOSCALER_VERSIONS)
    del table["1.36"]
    monkeypatch.setattr(versions, "CLUSTER_AUTOSCALER_VERSIONS", table)
    with pytest.raises(ConfigError) as error:
        parse_settings({})
    (problem,) = error.value.problems
    assert problem.key == "cluster.version" and "no Cluster Autoscaler release" in problem.message
    assert parse_settings({"autoscaler": {"enabled": False}}).cluster.version == "1.36"


def test_autoscaler_is_told_its_region_since_pods_cannot_read_instance_metadata(dev_run):
    # The launch templates allow one IMDS hop, so the region must come from the environment.
    env = {variable["name"]: variable["value"] for variable in autoscaler_container(dev_run)["env"]}
    assert env == {"AWS_REGION": "us-west-2"}


def test_bindings_give_the_autoscalers_service_account_its_own_roles(dev_run):
    def named(type_token):
        (found,) = [
            r.inputs for r in dev_run.of_type(type_token) if r.inputs["metadata"]["name"] == "cluster-autoscaler"
        ]
        return found

    account = {"kind": "ServiceAccount", "name": "cluster-autoscaler", "namespace": "kube-system"}
    cluster_binding = named("kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding")
    assert cluster_binding["roleRef"] == {
        "apiGroup": "rbac.authorization.k8s.io",
        "kind": "ClusterRole",
        "name": "cluster-autoscaler",
    }
    assert cluster_binding["subjects"] == [account]
    binding = named("kubernetes:rbac.authorization.k8s.io/v1:RoleBinding")
    assert binding["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "cluster-autoscaler"}
    assert binding["subjects"] == [account] and binding["metadata"]["namespace"] == "kube-system"
    role = named("kubernetes:rbac.authorization.k8s.io/v1:Role")
    assert any(
        "configmaps" in rule["resources"]
        and "update" in rule["verbs"]
        and "cluster-autoscaler-status" in rule.get("resourceNames", [])
        for rule in role["rules"]
    )
    spec = autoscaler_deployment(dev_run)["spec"]["template"]["spec"]
    assert spec["serviceAccountName"] == account["name"]


def test_autoscaler_starts_only_once_its_credentials_and_account_exist(dev_run):
    (deployment,) = [d for d in dev_run.of_type(DEPLOYMENT) if d.inputs["metadata"]["name"] == "cluster-autoscaler"]
    (association,) = dev_run.of_type(ASSOCIATION)
    (account,) = [a for a in dev_run.of_type(SERVICE_ACCOUNT) if a.inputs["metadata"]["name"] == "cluster-autoscaler"]
    assert {association.urn, account.urn} <= set(deployment.dependencies)
    (addon,) = [a for a in dev_run.of_type(ADDON) if a.inputs["addonName"] == "eks-pod-identity-agent"]
    assert addon.urn in deployment.dependencies


def test_node_groups_leave_the_desired_size_to_the_autoscaler(dev_run):
    assert {group.name: group.ignore_changes for group in dev_run.of_type(NODE_GROUP)} == {
        "gpu-inference-dev-system": ("scalingConfig.desiredSize",),
        "gpu-inference-dev-gpu": ("scalingConfig.desiredSize",),
    }


def test_every_resource_of_the_autoscaler_is_its_child_and_its_kubernetes_objects_go_to_the_stacks_cluster(dev_run):
    # A resource registered without the component's options sits outside its tree (a targeted destroy of the
    # autoscaler leaves it behind) and, for a Kubernetes object, goes through the default provider, that is to
    # whatever cluster the ambient kubeconfig names.
    (autoscaler,) = dev_run.of_type("eks-gpu-inference:index:ClusterAutoscaler")
    (provider,) = dev_run.of_type("pulumi:providers:kubernetes")
    named = [r for r in dev_run.resources if r.name.startswith(f"{autoscaler.name}-")]
    assert {r.type.rsplit(":", 1)[1] for r in named} == {
        "ClusterRole",
        "ClusterRoleBinding",
        "Deployment",
        "NetworkPolicy",
        "PodDisruptionBudget",
        "PodIdentityAssociation",
        "Role",
        "RoleBinding",
        "RolePolicy",
        "ServiceAccount",
    }
    for resource in named:
        assert resource.parent == autoscaler.urn, resource.name
        if resource.type.startswith("kubernetes:"):
            assert resource.provider == f"{provider.urn}::{provider.id}", resource.name
