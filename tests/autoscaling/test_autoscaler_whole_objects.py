"""The Cluster Autoscaler's IAM policy, its NetworkPolicy and the priority expander's ConfigMap, each as registered
and whole: a test that reads one statement or one key lets the rest of the object change unread (the namespace
the expander reads its priorities from, an egress rule, an element name of the policy grammar)."""

from __future__ import annotations

import json

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.facts import resource_types
from components.facts.resource_types import CONFIG_MAP, ROLE_POLICY
from tests.support.autoscaler_whole_deployment import (
    AUTOSCALER,
    STACKS,
    child,
    in_kube_system,
    kubernetes_provider,
    labels,
    selector,
)

NETWORK_POLICY = resource_types.NETWORK_POLICY
DEV = STACKS["dev"]
PRIORITIES = {"autoscaler": {"expander": "priority", "expanderPriorities": {"10": [".*-gpu-.*"], "1": [".*"]}}}


@pytest.fixture(scope="module")
def priority_run():
    return run_stack(merge(dev_stack_config(), PRIORITIES))


def test_the_scaling_policy_is_registered_whole(dev_run):
    policy = child(dev_run, ROLE_POLICY)

    # The actions of the autoscaler's AWS README (cloudprovider/aws/README.md, "Minimal IAM Permissions Policy"
    # and the EKS managed node group addition), the mutating ones only on groups tagged for this cluster.
    assert json.loads(policy.inputs["policy"]) == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "Describe",
                "Effect": "Allow",
                "Action": [
                    "autoscaling:DescribeAutoScalingGroups",
                    "autoscaling:DescribeAutoScalingInstances",
                    "autoscaling:DescribeLaunchConfigurations",
                    "autoscaling:DescribeScalingActivities",
                    "ec2:DescribeImages",
                    "ec2:DescribeInstanceTypes",
                    "ec2:DescribeLaunchTemplateVersions",
                    "ec2:GetInstanceTypesFromInstanceRequirements",
                    "eks:DescribeNodegroup",
                ],
                "Resource": "*",
            },
            {
                "Sid": "ScaleThisClustersGroups",
                "Effect": "Allow",
                "Action": ["autoscaling:SetDesiredCapacity", "autoscaling:TerminateInstanceInAutoScalingGroup"],
                "Resource": "*",
                "Condition": {
                    "StringEquals": {
                        "aws:ResourceTag/k8s.io/cluster-autoscaler/gpu-inference-dev": "owned",
                        "aws:ResourceTag/k8s.io/cluster-autoscaler/enabled": "true",
                    }
                },
            },
        ],
    }


def test_the_network_policy_is_registered_whole(dev_run):
    policy = child(dev_run, NETWORK_POLICY)

    assert policy.inputs["metadata"] == in_kube_system(DEV)
    # Nothing in; out only to CoreDNS, HTTPS (the Kubernetes and AWS APIs) and the EKS Pod Identity agent's
    # link-local address (EKS user guide, "pod-id-agent-setup": 169.254.170.23, port 80).
    assert policy.inputs["spec"] == {
        "podSelector": {"matchLabels": selector(DEV)},
        "policyTypes": ["Ingress", "Egress"],
        "egress": [
            {
                "to": [
                    {
                        "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}},
                        "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}},
                    }
                ],
                "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}],
            },
            {"ports": [{"protocol": "TCP", "port": 443}]},
            {"to": [{"ipBlock": {"cidr": "169.254.170.23/32"}}], "ports": [{"protocol": "TCP", "port": 80}]},
        ],
    }


def test_the_priority_configmap_is_registered_whole_in_the_autoscalers_namespace_through_the_stacks_cluster(
    priority_run,
):
    configmap = child(priority_run, CONFIG_MAP)

    # The priority expander reads the ConfigMap of this name in its own namespace (expander/priority/readme.md).
    assert configmap.inputs["metadata"] == {
        "name": "cluster-autoscaler-priority-expander",
        "namespace": "kube-system",
        "labels": labels(DEV),
    }
    assert configmap.inputs["data"] == {"priorities": '10:\n  - ".*-gpu-.*"\n1:\n  - ".*"\n'}
    assert configmap.provider == kubernetes_provider(priority_run)


def test_without_the_priority_expander_no_configmap_is_the_autoscalers(dev_run):
    (autoscaler,) = dev_run.of_type(AUTOSCALER)

    assert [r.name for r in dev_run.of_type(CONFIG_MAP) if r.parent == autoscaler.urn] == []
