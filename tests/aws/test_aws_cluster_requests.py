"""AWS create requests of the launch template, the tags, IAM, KMS and the EKS cluster, built from what the program
registers and checked against botocore's models and documented rules; secret values checked but never shown.

Each case starts from the dev stack's real registered inputs (the session-wide `dev_run`), changes one
value, and asserts the member path and rule the check reports (tests/support/aws_request_cases.py).
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from components.facts.gpu_catalog import CLUSTER_AUTOSCALER_TEMPLATE_TAG
from components.facts.resource_types import (
    ACCESS_ENTRY,
    AUTOSCALING_TAG,
    EKS_CLUSTER,
    EKS_CONTROL_PLANE,
    KMS_KEY,
    LAUNCH_TEMPLATE,
    NODE_GROUP,
    ROLE,
    ROLE_POLICY_ATTACHMENT,
)
from components.stackcheck.aws import check as aws_requests
from components.stackcheck.aws.builders import AUTONAME_SUFFIX
from components.stackcheck.aws.check import check_resources
from components.stackcheck.runtime import RegisteredResource, Secret
from tests.support.aws_request_cases import edited, gpu_template, only_problem, problems_of

# --- launch template, tags -------------------------------------------------------------------------


@pytest.mark.parametrize("size, passes", [(65536, True), (70000, False), (0, False)])
def test_gp3_volume_size_limit(dev_run, size, passes):
    def edit(inputs):
        inputs["blockDeviceMappings"][0]["ebs"]["volumeSize"] = float(size)

    found = problems_of(*edited(dev_run, gpu_template(dev_run), edit))

    assert (found == []) is passes
    if not passes:
        assert [(request, path, value) for request, path, value, _ in found] == [
            ("ec2:CreateLaunchTemplate", "LaunchTemplateData.BlockDeviceMappings[0].Ebs.VolumeSize", size)
        ]
        assert found[0][3].startswith("a gp3 volume holds 1 to 65536 GiB (64 TiB)")


def test_launch_template_enum_from_the_ec2_model(dev_run):
    def edit(inputs):
        inputs["metadataOptions"]["httpTokens"] = "mandatory"

    _, path, value, rule = only_problem(dev_run, gpu_template(dev_run), edit)

    assert (path, value) == ("LaunchTemplateData.MetadataOptions.HttpTokens", "mandatory")
    assert rule == "is not one of optional, required (ec2 model, shape LaunchTemplateHttpTokensState)"


@pytest.mark.parametrize(
    "pick_type, edit, path",
    [
        pytest.param(
            NODE_GROUP,
            lambda inputs: inputs["tags"].update({"aws:owner": "me"}),
            'tags["aws:owner"] (key)',
            id="node group tag key starting with aws:",
        ),
        pytest.param(
            LAUNCH_TEMPLATE,
            lambda inputs: inputs["tagSpecifications"][0]["tags"].update({"AWS:owner": "me"}),
            "LaunchTemplateData.TagSpecifications[0].Tags[2].Key",
            id="launch template tag key starting with AWS: in capitals",
        ),
        pytest.param(
            AUTOSCALING_TAG,
            lambda inputs: inputs["tag"].update({"key": "aws:owner"}),
            "Tags[0].Key",
            id="Auto Scaling group tag key starting with aws:",
        ),
        pytest.param(
            KMS_KEY,
            lambda inputs: inputs["tags"].update({"aws:owner": "me"}),
            "Tags[2].TagKey",
            id="KMS key tag key starting with aws:",
        ),
    ],
)
def test_tag_keys_with_the_reserved_aws_prefix(dev_run, pick_type, edit, path):
    _, found_path, _, rule = only_problem(dev_run, lambda r: r.type == pick_type, edit)

    assert found_path == path
    assert rule.startswith("tag keys starting with 'aws:' (any case) are reserved for AWS")


def test_autoscaling_tag_key_longer_than_the_model_allows(dev_run):
    def edit(inputs):
        inputs["tag"]["key"] = f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/label/" + "x" * 90

    _, path, _, rule = only_problem(dev_run, lambda r: r.type == AUTOSCALING_TAG, edit)

    assert path == "Tags[0].Key" and rule == "has 136 characters, allowed 1 to 128 (autoscaling model, shape TagKey)"


# --- IAM, KMS, EKS cluster --------------------------------------------------------------------------


@pytest.mark.parametrize("length, passes", [(56, True), (57, False)])
def test_autonamed_iam_role_counts_pulumis_8_character_suffix(dev_run, length, passes):
    name = "r" * length
    resources, role = edited(dev_run, lambda r: r.type == ROLE, lambda inputs: None, name=name)
    # The role's attachments name it as the mocks report it: its resource name.
    resources = [
        dataclasses.replace(r, inputs={**r.inputs, "role": name}) if r.type == ROLE_POLICY_ATTACHMENT else r
        for r in resources
    ]
    checks = check_resources(resources)

    failing = [(c.resource_type, label, v.path, v.value, v.rule) for c in checks for label, v in c.problems]
    if passes:
        assert failing == []
    else:
        expected = (f"{name}{AUTONAME_SUFFIX}", "has 65 characters, allowed 1 to 64 (iam model, shape roleNameType)")
        assert (ROLE, "iam:CreateRole", "RoleName", *expected) in failing
        assert (
            ROLE_POLICY_ATTACHMENT,
            "iam:AttachRolePolicy",
            "RoleName",
            *expected,
        ) in failing


@pytest.mark.parametrize("length, passes", [(43, True), (44, False)])
def test_pulumi_eks_service_role_name_is_counted(dev_run, length, passes):
    name = "c" * length
    found = problems_of(*edited(dev_run, lambda r: r.type == EKS_CLUSTER, lambda inputs: None, name=name))

    assert (found == []) is passes
    if not passes:
        role_name = f"{name}-eksRole-role{AUTONAME_SUFFIX}"
        assert ("iam:CreateRole", "RoleName", role_name) in [f[:3] for f in found]


@pytest.mark.parametrize(
    "edit, path, rule",
    [
        pytest.param(
            lambda inputs: inputs.update(publicSubnetIds=[], privateSubnetIds=inputs["privateSubnetIds"][:1]),
            "resourcesVpcConfig.subnetIds",
            "EKS needs at least 2 subnets in different Availability Zones",
            id="cluster in one subnet",
        ),
        pytest.param(
            lambda inputs: inputs.update(name="gpu.inference"),
            "name",
            "does not match the pattern",
            id="cluster name with a dot",
        ),
        pytest.param(
            lambda inputs: inputs.update(name="g" * 101),
            "name",
            "has 101 characters, allowed 1 to 100",
            id="cluster name of 101 characters",
        ),
        pytest.param(
            lambda inputs: inputs.update(enabledClusterLogTypes=["api", "kubelet"]),
            "logging.clusterLogging[0].types[1]",
            "is not one of api, audit, authenticator",
            id="unknown control plane log type",
        ),
        pytest.param(
            lambda inputs: inputs.update(authenticationMode="IAM"),
            "accessConfig.authenticationMode",
            "is not one of",
            id="authentication mode IAM, which EKS does not know",
        ),
    ],
)
def test_eks_cluster_create_request(dev_run, edit, path, rule):
    request, found_path, _, found_rule = only_problem(dev_run, lambda r: r.type == EKS_CLUSTER, edit)

    assert (request, found_path) == ("eks:CreateCluster", path)
    assert found_rule.startswith(rule)


def test_eks_cluster_access_entries_become_access_entry_and_policy_requests(dev_run):
    def edit(inputs):
        inputs["accessEntries"] = {
            "ops": {
                "principalArn": "arn:aws:iam::123456789012:role/ops",
                "accessPolicies": {
                    "admin": {
                        "policyArn": "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy",
                        "accessScope": {"type": "account"},
                    }
                },
            }
        }

    resources, cluster = edited(dev_run, lambda r: r.type == EKS_CLUSTER, edit)
    check = next(c for c in check_resources(resources) if c.resource_type == EKS_CLUSTER)

    assert check.request_label == (
        "eks:CreateCluster + iam:CreateRole + iam:AttachRolePolicy + eks:CreateAccessEntry + eks:AssociateAccessPolicy"
    )
    assert [(label, v.path, v.value) for label, v in check.problems] == [
        ("eks:AssociateAccessPolicy", "accessScope.type", "account")
    ]


def test_access_entry_resource_is_checked():
    entry = RegisteredResource(
        ACCESS_ENTRY,
        "admin",
        {
            "clusterName": "gpu-inference",
            "principalArn": "arn:aws:iam::123456789012:role/ops",
            "kubernetesGroups": ["admins"],
            "tags": {"aws:team": "ml"},
        },
        None,
        "urn",
        True,
    )

    check = aws_requests.check_resource(entry)

    assert check.request_label == "eks:CreateAccessEntry"
    assert [(v.path, v.value) for _, v in check.problems] == [('tags["aws:team"] (key)', "aws:team")]


def test_kms_deletion_window_outside_the_model_range(dev_run):
    _, path, value, rule = only_problem(
        dev_run, lambda r: r.type == KMS_KEY, lambda inputs: inputs.update(deletionWindowInDays=400.0)
    )

    assert (path, value) == ("PendingWindowInDays", 400)
    assert rule == "must be 1 to 365 (kms model, shape PendingWindowInDaysType)"


def test_secret_values_are_checked_but_never_shown():
    token = "hf_" + "s" * 300
    tag = RegisteredResource(
        AUTOSCALING_TAG,
        "t",
        {"autoscalingGroupName": "asg", "tag": {"key": "team", "value": Secret(token), "propagateAtLaunch": False}},
        None,
        "urn",
        True,
    )
    group = RegisteredResource(
        NODE_GROUP,
        "g",
        {
            "clusterName": "c",
            "nodeGroupName": "g",
            "subnetIds": ["s"],
            "nodeRoleArn": "r",
            "labels": Secret({"kubernetes.io/team": "x"}),
        },
        None,
        "urn",
        True,
    )

    checks = check_resources([tag, group])

    shown = json.dumps([check.to_dict() for check in checks]) + "\n".join(
        line for check in checks for line in check.failure_lines()
    )
    assert token not in shown and "kubernetes.io/team" not in shown
    assert [(v.path, v.value) for _, v in checks[0].problems] == [("Tags[0].Value", "[secret]")]
    assert "has 303 characters, allowed 0 to 256" in checks[0].problems[0][1].rule
    assert [(v.path, v.value) for _, v in checks[1].problems] == [('labels["[secret]"] (key)', "[secret]")]


def test_plain_eks_cluster_resource_is_checked():
    cluster = RegisteredResource(
        EKS_CONTROL_PLANE,
        "control-plane",
        {
            "roleArn": "arn:aws:iam::123456789012:role/eks",
            "version": "1.34",
            "vpcConfig": {"subnetIds": ["subnet-a"], "endpointPrivateAccess": True},
            "encryptionConfig": {"resources": ["secrets"], "provider": {"keyArn": "arn:aws:kms:us-west-2:1:key/k"}},
            "accessConfig": {"authenticationMode": "API", "bootstrapClusterCreatorAdminPermissions": False},
            "enabledClusterLogTypes": ["audit"],
        },
        None,
        "urn",
        True,
    )

    check = aws_requests.check_resource(cluster)

    assert check.request_label == "eks:CreateCluster"
    params = check.requests[0].params
    assert params["name"] == "control-plane" + AUTONAME_SUFFIX
    assert params["logging"]["clusterLogging"][0] == {"enabled": True, "types": ["audit"]}
    assert [(v.path, v.value) for _, v in check.problems] == [("resourcesVpcConfig.subnetIds", ["subnet-a"])]
