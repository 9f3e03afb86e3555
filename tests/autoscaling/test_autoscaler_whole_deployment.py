"""Every other object the Cluster Autoscaler registers, whole, with its parent and provider: the Deployment (its
metadata and whole pod spec), the ServiceAccount, the ClusterRole and Role with every rule, both bindings, the
PodDisruptionBudget, the IAM role's trust policy and the Pod Identity association. The dev stack, and one stack
whose cluster, release and autoscaler settings all differ, so that no value can come from a spelling fixed in code.

Sources, read 2026-12-02: kubernetes/autoscaler@cluster-autoscaler-1.36.1:
cluster-autoscaler/cloudprovider/aws/examples/cluster-autoscaler-autodiscover.yaml (RBAC, resources, pod security
context, priority class, `--cloud-provider=aws`, `--skip-nodes-with-local-storage=false`, the auto-discovery tag
form); cluster-autoscaler/config/flags/flags.go (`--address` default ":8085") and main.go (`/health-check`).
"""

from __future__ import annotations

import json

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.autoscaling.cluster_autoscaler import priorities_document
from components.facts import resource_types, versions
from tests.support.autoscaler_whole_deployment import (
    AUTOSCALER,
    STACKS,
    child,
    in_kube_system,
    instance,
    kubernetes_provider,
    labels,
    selector,
)

DEPLOYMENT = resource_types.DEPLOYMENT
SERVICE_ACCOUNT = resource_types.SERVICE_ACCOUNT
CLUSTER_ROLE = "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole"
CLUSTER_ROLE_BINDING = "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding"
ROLE = "kubernetes:rbac.authorization.k8s.io/v1:Role"
ROLE_BINDING = "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding"
BUDGET = resource_types.POD_DISRUPTION_BUDGET
IAM_ROLE = resource_types.ROLE
ASSOCIATION = resource_types.POD_IDENTITY_ASSOCIATION
STACK_TAGS = {"app.kubernetes.io/part-of": "eks-gpu-inference", "pulumi:stack": "test"}

# A stack unlike the dev one in everything the autoscaler's objects are built from.
OTHER = {
    "cluster": {"name": "inference-prod", "version": "1.33"},
    "autoscaler": {
        "expander": "most-pods",
        "scaleDownUnneededTime": "15m",
        "scaleDownDelayAfterAdd": "5m",
        "maxNodeProvisionTime": "25m",
    },
}


@pytest.fixture(scope="module")
def other_run():
    return run_stack(merge(dev_stack_config(), OTHER))


@pytest.fixture(params=sorted(STACKS))
def case(request, dev_run, other_run):
    run = dev_run if request.param == "dev" else other_run
    return run, STACKS[request.param]


def command(stack: dict) -> list[str]:
    expander, unneeded, delay, provision = stack["settings"]
    return [
        "./cluster-autoscaler",
        "--cloud-provider=aws",
        "--node-group-auto-discovery=asg:tag=k8s.io/cluster-autoscaler/enabled,"
        f"k8s.io/cluster-autoscaler/{stack['cluster']}",
        "--balance-similar-node-groups",
        f"--expander={expander}",
        "--skip-nodes-with-local-storage=false",
        f"--scale-down-unneeded-time={unneeded}",
        f"--scale-down-delay-after-add={delay}",
        f"--max-node-provision-time={provision}",
        "--stderrthreshold=info",
        "--v=2",
    ]


CHECKOV_ANNOTATIONS = {
    "checkov.io/skip1": "CKV_K8S_38=the autoscaler watches pods and nodes and evicts pods: it needs its "
    "service-account token",
    "checkov.io/skip2": "CKV_K8S_43=the image is pinned to the release matching the cluster version (facts/versions.py)",
    "checkov.io/skip3": "CKV_K8S_15=a pinned release tag needs no re-pull; a registry outage must not stop the "
    "autoscaler restarting",
}
HEALTH_CHECK = {"path": "/health-check", "port": 8085}


def container(stack: dict) -> dict:
    return {
        "name": "cluster-autoscaler",
        "image": f"registry.k8s.io/autoscaling/cluster-autoscaler:{versions.CLUSTER_AUTOSCALER_VERSIONS[stack['minor']]}",
        "imagePullPolicy": "IfNotPresent",
        "command": command(stack),
        # The region of the stack's AWS provider (the mocks answer getRegion with us-west-2).
        "env": [{"name": "AWS_REGION", "value": "us-west-2"}],
        "ports": [{"name": "metrics", "containerPort": 8085, "protocol": "TCP"}],
        "resources": {"requests": {"cpu": "100m", "memory": "600Mi"}, "limits": {"cpu": "100m", "memory": "600Mi"}},
        "livenessProbe": {"httpGet": HEALTH_CHECK, "initialDelaySeconds": 60, "periodSeconds": 30},
        "readinessProbe": {"httpGet": HEALTH_CHECK, "periodSeconds": 10},
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "capabilities": {"drop": ["ALL"]},
            "privileged": False,
            "readOnlyRootFilesystem": True,
            "runAsNonRoot": True,
        },
    }


def test_the_deployment_is_registered_whole_with_its_parent_and_provider(case):
    run, stack = case
    deployment = child(run, DEPLOYMENT)

    assert deployment.inputs["metadata"] == {**in_kube_system(stack), "annotations": CHECKOV_ANNOTATIONS}
    # No nodeSelector, affinity or tolerations: it never tolerates the GPU taint, so it stays off GPU nodes.
    assert deployment.inputs["spec"] == {
        "replicas": 1,
        "selector": {"matchLabels": selector(stack)},
        "template": {
            "metadata": {"labels": labels(stack)},
            "spec": {
                "serviceAccountName": "cluster-autoscaler",
                "priorityClassName": "system-cluster-critical",
                "securityContext": {
                    "runAsNonRoot": True,
                    "runAsUser": 65534,
                    "runAsGroup": 65534,
                    "fsGroup": 65534,
                    "seccompProfile": {"type": "RuntimeDefault"},
                },
                "containers": [container(stack)],
            },
        },
    }
    assert deployment.provider == kubernetes_provider(run)


def test_the_deployment_waits_for_its_credentials_and_account(dev_run):
    deployment = child(dev_run, DEPLOYMENT)
    association, account = child(dev_run, ASSOCIATION), child(dev_run, SERVICE_ACCOUNT)
    agent = dev_run.named("gpu-inference-dev-pod-identity-agent")

    assert set(deployment.dependencies) == {association.urn, account.urn, agent.urn}


def test_the_service_account_is_registered_whole(case):
    run, stack = case
    account = child(run, SERVICE_ACCOUNT)

    assert account.inputs == {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": in_kube_system(stack)}
    assert account.provider == kubernetes_provider(run)


def rules_of(minor: str) -> list[dict]:
    """The ClusterRole rules of the upstream AWS example at the release pinned for `minor`."""
    storage = ["storageclasses", "csinodes", "csidrivers", "csistoragecapacities"]
    watch = ["watch", "list", "get"]
    dynamic = [{"apiGroups": ["resource.k8s.io"], "resources": ["deviceclasses", "resourceslices", "resourceclaims"]}]
    return [
        {"apiGroups": [""], "resources": ["events", "endpoints"], "verbs": ["create", "patch"]},
        {"apiGroups": [""], "resources": ["pods/eviction"], "verbs": ["create"]},
        {"apiGroups": [""], "resources": ["pods/status"], "verbs": ["update"]},
        {
            "apiGroups": [""],
            "resources": ["endpoints"],
            "resourceNames": ["cluster-autoscaler"],
            "verbs": ["get", "update"],
        },
        {"apiGroups": [""], "resources": ["nodes"], "verbs": ["watch", "list", "get", "update"]},
        {
            "apiGroups": [""],
            "resources": [
                "namespaces",
                "pods",
                "services",
                "replicationcontrollers",
                "persistentvolumeclaims",
                "persistentvolumes",
            ],
            "verbs": watch,
        },
        {"apiGroups": ["extensions"], "resources": ["replicasets", "daemonsets"], "verbs": watch},
        {"apiGroups": ["policy"], "resources": ["poddisruptionbudgets"], "verbs": ["watch", "list"]},
        {"apiGroups": ["apps"], "resources": ["statefulsets", "replicasets", "daemonsets"], "verbs": watch},
        # Dynamic resource allocation from 1.36, volumeattachments from 1.33 (absent at 1.32.7).
        *[{**rule, "verbs": watch} for rule in (dynamic if minor >= "1.36" else [])],
        {
            "apiGroups": ["storage.k8s.io"],
            "resources": storage + (["volumeattachments"] if minor >= "1.33" else []),
            "verbs": watch,
        },
        {"apiGroups": ["batch", "extensions"], "resources": ["jobs"], "verbs": ["get", "list", "watch", "patch"]},
        {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "verbs": ["create"]},
        {
            "apiGroups": ["coordination.k8s.io"],
            "resources": ["leases"],
            "resourceNames": ["cluster-autoscaler"],
            "verbs": ["get", "update"],
        },
    ]


def test_the_cluster_role_is_registered_whole_with_the_rules_of_its_release(case):
    run, stack = case
    role = child(run, CLUSTER_ROLE)

    assert role.inputs == {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {"name": "cluster-autoscaler", "labels": labels(stack)},
        "rules": rules_of(stack["minor"]),
    }
    assert role.provider == kubernetes_provider(run)


def test_the_namespaced_role_is_registered_whole(case):
    run, stack = case
    role = child(run, ROLE)

    assert role.inputs == {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "Role",
        "metadata": in_kube_system(stack),
        "rules": [
            {"apiGroups": [""], "resources": ["configmaps"], "verbs": ["create", "list", "watch"]},
            {
                "apiGroups": [""],
                "resources": ["configmaps"],
                # Its status ConfigMap, and the priority expander's (expander/priority/readme.md).
                "resourceNames": ["cluster-autoscaler-status", "cluster-autoscaler-priority-expander"],
                "verbs": ["delete", "get", "update", "watch"],
            },
        ],
    }
    assert role.provider == kubernetes_provider(run)


@pytest.mark.parametrize(
    ("binding_type", "role_type", "kind", "namespaced"),
    [
        pytest.param(CLUSTER_ROLE_BINDING, CLUSTER_ROLE, "ClusterRole", False, id="cluster-role-binding"),
        pytest.param(ROLE_BINDING, ROLE, "Role", True, id="role-binding"),
    ],
)
def test_each_binding_is_registered_whole_after_its_role(case, binding_type, role_type, kind, namespaced):
    run, stack = case
    binding = child(run, binding_type)
    metadata = in_kube_system(stack) if namespaced else {"name": "cluster-autoscaler", "labels": labels(stack)}

    assert binding.inputs == {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": binding_type.rsplit(":", 1)[1],
        "metadata": metadata,
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": kind, "name": "cluster-autoscaler"},
        "subjects": [{"kind": "ServiceAccount", "name": "cluster-autoscaler", "namespace": "kube-system"}],
    }
    assert binding.provider == kubernetes_provider(run)
    assert child(run, role_type).urn in binding.dependencies


def test_the_disruption_budget_is_registered_whole(case):
    run, stack = case
    budget = child(run, BUDGET)

    assert budget.inputs == {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": in_kube_system(stack),
        "spec": {"maxUnavailable": 1, "selector": {"matchLabels": selector(stack)}},
    }
    assert budget.provider == kubernetes_provider(run)


def test_the_iam_role_trusts_eks_pod_identity_only(case):
    run, stack = case
    role = child(run, IAM_ROLE)

    # EKS user guide, "Create an IAM role for EKS Pod Identity": the service principal, AssumeRole and TagSession.
    assert json.loads(role.inputs["assumeRolePolicy"]) == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": {"Service": "pods.eks.amazonaws.com"},
                "Action": ["sts:AssumeRole", "sts:TagSession"],
            }
        ],
    }
    assert role.inputs == {
        "assumeRolePolicy": role.inputs["assumeRolePolicy"],
        "description": f"Cluster Autoscaler of EKS cluster {stack['cluster']} (EKS Pod Identity)",
        "tags": STACK_TAGS,
    }
    assert role.provider == ""  # the stack's default AWS provider


def test_the_pod_identity_association_is_registered_whole(case):
    run, stack = case
    association = child(run, ASSOCIATION)
    role = child(run, IAM_ROLE)

    assert association.inputs == {
        "clusterName": stack["cluster"],
        "namespace": "kube-system",
        "serviceAccount": "cluster-autoscaler",
        "roleArn": f"arn:aws:iam::123456789012:role/{role.name}",
        "tags": STACK_TAGS,
    }
    assert association.provider == ""
    # The cluster's name as its output: the association waits for the cluster, for the role it names, and for the
    # role's policy (credentials handed out before their permissions would be denied).
    (eks,) = run.of_type("eks:index:Cluster")
    policy = child(run, "aws:iam/rolePolicy:RolePolicy")
    assert set(association.dependencies) == {eks.urn, role.urn, policy.urn}


def test_the_scaling_policy_belongs_to_the_autoscalers_role(case):
    run, stack = case
    (policy,) = [r for r in run.of_type("aws:iam/rolePolicy:RolePolicy") if r.name == f"{instance(stack)}-scaling"]
    (autoscaler,) = run.of_type(AUTOSCALER)

    assert policy.parent == autoscaler.urn
    assert policy.inputs["role"] == f"{child(run, IAM_ROLE).name}-id"
    assert policy.provider == ""


@pytest.mark.parametrize(
    ("priorities", "document"),
    [
        # Numeric order, not text order: "9" sorts after "10" as text.
        pytest.param({"9": ["a"], "10": ["b"]}, '10:\n  - "b"\n9:\n  - "a"\n', id="numeric-order"),
        pytest.param({"0": [".*"]}, '0:\n  - ".*"\n', id="priority-zero"),
        # A pattern is a YAML double-quoted string, its quotes and backslashes escaped.
        pytest.param({"5": ['a"b', "c\\d"]}, '5:\n  - "a\\"b"\n  - "c\\\\d"\n', id="escaped-patterns"),
    ],
)
def test_the_priority_document_lists_priorities_highest_first(priorities, document):
    assert priorities_document(priorities) == document


def test_the_autoscaler_outputs_its_deployments_name_and_its_roles_arn(case):
    run, _ = case
    (autoscaler,) = run.of_type(AUTOSCALER)
    role = child(run, IAM_ROLE)

    assert run.component_outputs[autoscaler.urn] == {
        "deployment_name": "cluster-autoscaler",
        "role_arn": f"arn:aws:iam::123456789012:role/{role.name}",
    }
