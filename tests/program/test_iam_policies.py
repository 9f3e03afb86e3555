"""Every IAM document the stack writes, pinned whole (actions, resources, conditions, principals) against its upstream
source where one exists, read from what the real program registers under mocks.

Upstream excerpts are test data in tests/data/upstream/, each with its repository, path and tag or commit:
Karpenter's getting-started CloudFormation template at the pinned release, the Cluster Autoscaler's AWS README at the
pinned tags, and the EKS user guide. A policy of the stack's own design (the S3 weights', KEDA's query) is written out
here with the reasoning behind each line.
"""

from __future__ import annotations

import json
import re

import pytest
import yaml
from conftest import PROGRAM, dev_stack_config, merge

from components.facts.identity import PROJECT
from components.pools.karpenter import manifests as karpenter
from components.stackcheck.mock_answers import MOCK_ACCOUNT, MOCK_REGION
from components.stackcheck.runtime import ProgramRun, run_program
from tests.support.iam_documents import (
    AUTOSCALER_README,
    USER_GUIDE,
    json_block,
    listed,
    named_policies,
    resolved,
    semantic,
    template_resources,
    user_guide,
)
from tests.support.orderings import ALL_VARIANTS, picked, variant_run

CLUSTER = "gpu-inference-dev"
# The template's six controller policies, in its order (KarpenterControllerPolicy is split in six since v1.0).
CONTROLLER_POLICIES = (
    "NodeLifecyclePolicy",
    "IAMIntegrationPolicy",
    "EKSIntegrationPolicy",
    "InterruptionPolicy",
    "ZonalShiftPolicy",
    "ResourceDiscoveryPolicy",
)


def one(run: ProgramRun, pick: str):
    [resource] = picked(run, pick)
    return resource


def document(run: ProgramRun, pick: str, key: str = "policy") -> dict:
    return json.loads(one(run, pick).inputs[key])


def attached(run: ProgramRun, role: str) -> set[str]:
    """The AWS-managed policy names attached to `role` (its registered name)."""
    return {
        attachment.inputs["policyArn"].removeprefix("arn:aws:iam::aws:policy/")
        for attachment in picked(run, "RolePolicyAttachment *")
        if attachment.inputs["role"] == role
    }


def variant_run_with(overrides: dict) -> ProgramRun:
    """The dev stack with `overrides` (keys without the project prefix)."""
    config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), overrides).items()}
    return run_program(PROGRAM, config, project=PROJECT, stack="test")


@pytest.fixture(scope="module")
def karpenter_run() -> ProgramRun:
    return variant_run("karpenter")


def karpenter_names(run: ProgramRun) -> dict[str, str]:
    """What the template's parameters and attributes stand for in the dev stack under the mocks: the account and
    region the mocks answer, the node role and queue ARNs they give (components/stackcheck/mock_answers.py)."""
    node_role = one(run, "iam/role:Role karpenter-node-role")
    queue = one(run, "Queue karpenter-interruption")
    return {
        "ClusterName": CLUSTER,
        "AWS::Partition": "aws",
        "AWS::Region": MOCK_REGION,
        "AWS::AccountId": MOCK_ACCOUNT,
        "AWS::URLSuffix": "amazonaws.com",
        "KarpenterNodeRole.Arn": f"arn:aws:iam::{MOCK_ACCOUNT}:role/{node_role.name}",
        "KarpenterInterruptionQueue.Arn": f"arn:aws:sqs:{MOCK_REGION}:{MOCK_ACCOUNT}:{queue.name}",
    }


def template_controller_policy(names: dict[str, str]) -> dict:
    """The template's six controller policies as one document."""
    resources = template_resources()
    statements = [
        statement
        for policy in CONTROLLER_POLICIES
        for statement in json.loads(resolved(resources[policy]["Properties"]["PolicyDocument"], names))["Statement"]
    ]
    return {"Version": "2012-10-17", "Statement": statements}


def test_the_karpenter_controllers_policy_is_the_templates_six_policies(karpenter_run):
    written = document(karpenter_run, "RolePolicy karpenter-controller")
    expected = template_controller_policy(karpenter_names(karpenter_run))

    assert semantic(written) == semantic(expected)
    assert [s["Sid"] for s in written["Statement"]] == [s["Sid"] for s in expected["Statement"]]


def test_the_karpenter_controller_may_terminate_only_its_clusters_nodepool_instances(karpenter_run):
    """Consolidation and expiry terminate instances: without `ec2:TerminateInstances` every node Karpenter tries to
    remove would keep running, and billing."""
    written = document(karpenter_run, "RolePolicy karpenter-controller")
    [deletion] = [s for s in written["Statement"] if "ec2:TerminateInstances" in listed(s["Action"])]

    assert deletion["Resource"] == [
        f"arn:aws:ec2:{MOCK_REGION}:*:instance/*",
        f"arn:aws:ec2:{MOCK_REGION}:*:launch-template/*",
    ]
    assert deletion["Condition"] == {
        "StringEquals": {f"aws:ResourceTag/kubernetes.io/cluster/{CLUSTER}": "owned"},
        "StringLike": {"aws:ResourceTag/karpenter.sh/nodepool": "*"},
    }


def test_the_karpenter_controllers_policy_follows_the_partition_as_the_template_does():
    """In China the template's `${AWS::Partition}` is aws-cn: the policy is the template's there too."""
    names = {
        "ClusterName": "c1",
        "AWS::Partition": "aws-cn",
        "AWS::Region": "cn-north-1",
        "AWS::AccountId": "111122223333",
        "KarpenterNodeRole.Arn": "arn:aws-cn:iam::111122223333:role/nodes",
        "KarpenterInterruptionQueue.Arn": "arn:aws-cn:sqs:cn-north-1:111122223333:c1",
    }
    written = karpenter.controller_policy(
        "c1",
        "aws-cn",
        "cn-north-1",
        "111122223333",
        names["KarpenterNodeRole.Arn"],
        names["KarpenterInterruptionQueue.Arn"],
    )

    assert semantic(written) == semantic(template_controller_policy(names))


def test_the_interruption_queues_policy_is_the_templates(karpenter_run):
    names = karpenter_names(karpenter_run)
    expected = resolved(template_resources()["KarpenterInterruptionQueuePolicy"]["Properties"]["PolicyDocument"], names)
    written = document(karpenter_run, "QueuePolicy karpenter-interruption-policy")

    assert written["Id"] == expected["Id"] == "EC2InterruptionPolicy"
    assert semantic(written) == semantic({"Version": "2012-10-17", **expected})


def test_the_karpenter_node_role_trusts_ec2_and_has_the_templates_managed_policies(karpenter_run):
    names = karpenter_names(karpenter_run)
    role = template_resources()["KarpenterNodeRole"]["Properties"]
    node_role = one(karpenter_run, "iam/role:Role karpenter-node-role")

    assert semantic(json.loads(node_role.inputs["assumeRolePolicy"])) == semantic(
        resolved(role["AssumeRolePolicyDocument"], names)
    )
    managed = {arn.removeprefix("arn:aws:iam::aws:policy/") for arn in resolved(role["ManagedPolicyArns"], names)}
    assert attached(karpenter_run, node_role.name) == managed
    assert managed == {
        "AmazonEKS_CNI_Policy",
        "AmazonEKSWorkerNodePolicy",
        "AmazonEC2ContainerRegistryPullOnly",
        "AmazonSSMManagedInstanceCore",
    }


def readme_policy() -> dict:
    """The README's "Full Cluster Autoscaler Features Policy (Recommended)"."""
    text = AUTOSCALER_README.read_text()
    return json_block(text[text.index("#### Full Cluster Autoscaler Features Policy") :])


def test_the_cluster_autoscalers_policy_is_the_readmes_with_scaling_scoped_to_this_clusters_groups():
    """The README's recommended policy, its second block (the only one to restrict, it says) narrowed by "tag based
    conditionals" to the two tags its auto-discovery example names, `k8s.io/cluster-autoscaler/enabled` and
    `k8s.io/cluster-autoscaler/<cluster-name>`, the ones the autoscaler discovers its groups by."""
    run = variant_run("dev")
    written = document(run, "RolePolicy autoscaler-scaling")
    describe, scale = readme_policy()["Statement"]
    readme = AUTOSCALER_README.read_text()

    assert "asg:tag=k8s.io/cluster-autoscaler/enabled,k8s.io/cluster-autoscaler/<cluster-name>" in readme
    assert semantic(written) == semantic(
        {
            "Version": "2012-10-17",
            "Statement": [
                describe,
                {
                    **scale,
                    "Condition": {
                        "StringEquals": {
                            f"aws:ResourceTag/k8s.io/cluster-autoscaler/{CLUSTER}": "owned",
                            "aws:ResourceTag/k8s.io/cluster-autoscaler/enabled": "true",
                        }
                    },
                },
            ],
        }
    )
    assert sorted(scale["Action"]) == [
        "autoscaling:SetDesiredCapacity",
        "autoscaling:TerminateInstanceInAutoScalingGroup",
    ]


def test_the_managed_node_groups_role_trusts_ec2_and_has_the_user_guides_policies():
    """create-node-role.adoc: trust `ec2.amazonaws.com`; attach AmazonEKSWorkerNodePolicy and
    AmazonEC2ContainerRegistryPullOnly, and AmazonEKS_CNI_Policy (IPv4) to this role or the CNI's own; the stack
    has the CNI use the node role."""
    run = variant_run("dev")
    role = one(run, "iam/role:Role nodes-role")
    guide = user_guide("node_role")

    assert semantic(json.loads(role.inputs["assumeRolePolicy"])) == semantic(json_block(guide))
    assert (
        attached(run, role.name)
        == named_policies(guide)
        == {
            "AmazonEKSWorkerNodePolicy",
            "AmazonEC2ContainerRegistryPullOnly",
            "AmazonEKS_CNI_Policy",
        }
    )


def test_the_auto_mode_node_role_trusts_ec2_with_the_user_guides_policies_and_access_policy():
    run = variant_run("autoMode")
    role = one(run, "iam/role:Role auto-mode-node-role")
    guide = user_guide("auto_mode_node_role")
    [_, trust] = yaml.safe_load(USER_GUIDE.read_text())["auto_mode_node_role"]
    association = one(run, "AccessPolicyAssociation auto-mode-node-policy")

    assert semantic(json.loads(role.inputs["assumeRolePolicy"])) == semantic(json_block(trust["text"]))
    assert (
        attached(run, role.name)
        == named_policies(guide)
        == {
            "AmazonEKSWorkerNodeMinimalPolicy",
            "AmazonEC2ContainerRegistryPullOnly",
        }
    )
    # create-node-class.adoc: a custom NodeClass's role needs `AmazonEKSAutoNodePolicy`, cluster-wide.
    arn = re.search(r"cluster-access-policy/(\w+)", user_guide("auto_mode_node_access_policy")).group(1)
    assert association.inputs["policyArn"] == f"arn:aws:eks::aws:cluster-access-policy/{arn}"
    assert arn == "AmazonEKSAutoNodePolicy"
    assert association.inputs["accessScope"] == {"type": "cluster"}


POD_IDENTITY_ROLES = {
    "dev": ("autoscaler-role",),
    "karpenter": ("karpenter-controller-role",),
    "kedaAmp": ("keda-query-role",),
    "s3Seeded": ("vllm-weights-reader", "vllm-weights-writer"),
    "warmQueue": ("vllm-queue-consumer",),
}


@pytest.mark.parametrize(("variant", "role"), [(v, r) for v, roles in POD_IDENTITY_ROLES.items() for r in roles])
def test_each_pod_identity_role_trusts_the_user_guides_principal_and_actions(variant, role):
    written = json.loads(one(variant_run(variant), f"iam/role:Role {role}").inputs["assumeRolePolicy"])

    assert semantic(written) == semantic(json_block(user_guide("pod_identity_role")))


def test_the_cluster_admins_get_the_user_guides_cluster_admin_access_policy_cluster_wide():
    admin = "arn:aws:iam::123456789012:role/platform-admins"
    run = variant_run_with({"cluster": {"adminPrincipalArns": [admin]}})
    [cluster] = picked(run, "Cluster *")
    [entry] = cluster.inputs["accessEntries"].values()
    name = re.search(r"cluster-access-policy/(\w+)", user_guide("cluster_admin_access_policy")).group(1)

    assert entry["principalArn"] == admin
    assert entry["accessPolicies"] == {
        "cluster-admin": {
            "policyArn": f"arn:aws:eks::aws:cluster-access-policy/{name}",
            "accessScope": {"type": "cluster"},
        }
    }


def test_kedas_role_may_only_query_the_one_workspace():
    """The four actions of the AWS managed policy AmazonPrometheusQueryAccess (AWS Managed Policy Reference, read
    2026-12-02), on the workspace the stack names and nothing else: no remote write, no management."""
    run = variant_run("kedaAmp")

    assert document(run, "RolePolicy keda-query") == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Action": ["aps:GetLabels", "aps:GetMetricMetadata", "aps:GetSeries", "aps:QueryMetrics"],
                "Resource": f"arn:aws:aps:us-west-2:{MOCK_ACCOUNT}:workspace/ws-0123abcd-4567-89ef-0123-456789abcdef",
            }
        ],
    }


# The s3Seeded variant's weights: the stack's bucket (its resource name, which the mocks give as the bucket's
# name) and the prefix `<model>/<revision>` (VllmSettings.weights_prefix): the dev stack's model, the variant's
# revision of forty a's.
BUCKET = "gpu-inference-dev-vllm-weights"
PREFIX = f"Qwen/Qwen2.5-7B-Instruct/{'a' * 40}"


def test_the_servers_s3_role_reads_and_lists_its_prefix_only():
    """GetObject on the prefix's objects; ListBucket on the bucket only for keys under the prefix (Amazon S3 User
    Guide, "Policy examples": listing only a prefix); no write, no other prefix."""
    assert document(variant_run("s3Seeded"), "RolePolicy vllm-weights-read") == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "ReadTheModel",
                "Effect": "Allow",
                "Action": ["s3:GetObject"],
                "Resource": [f"arn:aws:s3:::{BUCKET}/{PREFIX}/*"],
            },
            {
                "Sid": "ListTheModel",
                "Effect": "Allow",
                "Action": ["s3:ListBucket"],
                "Resource": [f"arn:aws:s3:::{BUCKET}"],
                "Condition": {"StringLike": {"s3:prefix": [PREFIX, f"{PREFIX}/*"]}},
            },
        ],
    }


def test_the_copy_jobs_s3_role_writes_its_prefix_and_reads_it_back_only():
    """PutObject (a multipart upload's steps included) and AbortMultipartUpload, which boto3's transfer manager
    calls when an upload fails, on the prefix's objects; GetObject on the same objects, which HeadObject needs (S3
    API Reference, HeadObject, "Permissions"): the completion marker and the size of each file already copied, which
    a retry skips (components/vllm/weights_copy_script.py); no ListBucket, no delete."""
    assert document(variant_run("s3Seeded"), "RolePolicy vllm-weights-write") == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "WriteTheModel",
                "Effect": "Allow",
                "Action": ["s3:PutObject", "s3:AbortMultipartUpload"],
                "Resource": [f"arn:aws:s3:::{BUCKET}/{PREFIX}/*"],
            },
            {
                "Sid": "ReadWhatItWrote",
                "Effect": "Allow",
                "Action": ["s3:GetObject"],
                "Resource": [f"arn:aws:s3:::{BUCKET}/{PREFIX}/*"],
            },
        ],
    }


def test_the_compile_cache_reads_writes_and_lists_its_model_s_cache_prefix_only_with_the_servers_role():
    """The compile cache (`vllm.compileCache`, in the s3Seeded variant) is granted to the role the server's pods
    already take (a ServiceAccount has one Pod Identity association): GetObject, PutObject and
    AbortMultipartUpload (boto3's transfer manager calls it when an upload fails) on
    `compile-cache/<model>/*` of the weights' bucket, ListBucket under that prefix only; no delete, no other
    prefix (the weights' stay read-only)."""
    run = variant_run("s3Seeded")
    cache = "compile-cache/Qwen/Qwen2.5-7B-Instruct"
    [grant] = [item for item in run.resources if item.name.endswith("vllm-compile-cache-access")]
    [reader] = [item for item in run.resources if item.name.endswith("vllm-weights-reader")]

    assert grant.inputs["role"] == reader.name
    assert document(run, "RolePolicy vllm-compile-cache-access") == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "ReadWriteTheCompileCache",
                "Effect": "Allow",
                "Action": ["s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload"],
                "Resource": [f"arn:aws:s3:::{BUCKET}/{cache}/*"],
            },
            {
                "Sid": "ListTheCompileCache",
                "Effect": "Allow",
                "Action": ["s3:ListBucket"],
                "Resource": [f"arn:aws:s3:::{BUCKET}"],
                "Condition": {"StringLike": {"s3:prefix": [cache, f"{cache}/*"]}},
            },
        ],
    }


PINNED = {
    # The queue's, pinned in tests/program/test_queue_iam.py and tests/queue/test_queue_stack.py.
    ("RolePolicy", "vllm-queue-consumer"),
    ("RolePolicy", "vllm-queue-keda-read"),
    ("QueuePolicy", "vllm-queue-requests-policy"),
    ("QueuePolicy", "vllm-queue-dead-letter-policy"),
    ("QueuePolicy", "karpenter-interruption-policy"),
    ("RolePolicy", "karpenter-controller"),
    ("RolePolicy", "autoscaler-scaling"),
    ("RolePolicy", "keda-query"),
    ("RolePolicy", "vllm-weights-read"),
    ("RolePolicy", "vllm-weights-write"),
    ("RolePolicy", "vllm-compile-cache-access"),
    ("Role", "nodes-role"),
    ("Role", "karpenter-node-role"),
    ("Role", "auto-mode-node-role"),
    *(("Role", role) for roles in POD_IDENTITY_ROLES.values() for role in roles),
    ("AccessPolicyAssociation", "auto-mode-node-policy"),
    *(
        ("RolePolicyAttachment", f"nodes-{name}")
        for name in ("AmazonEKSWorkerNodePolicy", "AmazonEC2ContainerRegistryPullOnly", "AmazonEKS_CNI_Policy")
    ),
    *(
        ("RolePolicyAttachment", f"karpenter-node-{name}")
        for name in (
            "AmazonEKSWorkerNodePolicy",
            "AmazonEC2ContainerRegistryPullOnly",
            "AmazonEKS_CNI_Policy",
            "AmazonSSMManagedInstanceCore",
        )
    ),
    *(
        ("RolePolicyAttachment", f"auto-mode-node-{name}")
        for name in ("AmazonEKSWorkerNodeMinimalPolicy", "AmazonEC2ContainerRegistryPullOnly")
    ),
}
"""The IAM documents and policy attachments a test above pins: kind and name without the stack's prefix."""
IAM_KINDS = ("aws:iam/", "aws:sqs/queuePolicy:", "aws:eks/accessPolicyAssociation:")


def test_every_iam_document_the_stack_writes_is_pinned_above():
    """A new role, policy or attachment in any variant must get its test here."""
    written = set()
    for variant in ALL_VARIANTS:
        run = variant_run(variant)
        prefix = f"{one(run, 'Cluster *').name}-"
        written |= {
            (resource.type.rsplit(":", 1)[-1], resource.name.removeprefix(prefix))
            for resource in run.resources
            if resource.type.startswith(IAM_KINDS)
        }

    assert written == PINNED
