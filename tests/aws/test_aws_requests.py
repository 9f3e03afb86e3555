"""AWS create requests built from what the program registers, checked against botocore's models and documented rules:
the requests themselves, the node groups', and what the check leaves unchecked.

Each case starts from the dev stack's real registered inputs (the session-wide `dev_run`), changes one
value the way a user or a refactoring could, and asserts the member path and rule the check reports
(tests/support/aws_request_cases.py). The launch template, tags, IAM, KMS and the EKS cluster are in
tests/aws/test_aws_cluster_requests.py, the network in tests/aws/test_aws_network_requests.py.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from components.facts.resource_types import (
    ADDON,
    AUTOSCALING_TAG,
    EIP,
    EKS_CLUSTER,
    INTERNET_GATEWAY,
    KMS_KEY,
    LAUNCH_TEMPLATE,
    NAT_GATEWAY,
    NODE_GROUP,
    POD_IDENTITY_ASSOCIATION,
    ROLE,
    ROLE_POLICY,
    ROLE_POLICY_ATTACHMENT,
    ROUTE,
    ROUTE_TABLE,
    ROUTE_TABLE_ASSOCIATION,
    SUBNET,
    VPC,
    VPC_ENDPOINT,
)
from components.stackcheck.aws import check as aws_requests
from components.stackcheck.aws.api_models import pattern_matcher, validate
from components.stackcheck.aws.builders import AUTONAME_SUFFIX, UNIQUE_ID
from components.stackcheck.aws.check import check_resources
from components.stackcheck.aws.rules import is_reserved_label
from components.stackcheck.runtime import RegisteredResource
from tests.support.aws_request_cases import (
    cluster_resource,
    edited,
    gpu_group,
    gpu_template,
    only_problem,
    problems_of,
    stand_ins,
)


def set_name(inputs: dict, name: str) -> None:
    inputs.pop("nodeGroupNamePrefix", None)
    inputs["nodeGroupName"] = name


def set_prefix(inputs: dict, prefix: str) -> None:
    inputs.pop("nodeGroupName", None)
    inputs["nodeGroupNamePrefix"] = prefix


def test_every_aws_resource_of_the_dev_stack_makes_valid_requests(dev_run):
    checks = check_resources(dev_run.resources)

    assert [(c.resource_type, c.resource_name) for c in checks] == [
        (r.type, r.name) for r in dev_run.resources if r.type.startswith(("aws:", "eks:"))
    ]
    assert [c.failure_lines() for c in checks if not c.passed] == []
    assert all(c.checked for c in checks)
    labels = {c.resource_type: c.request_label for c in checks}
    assert labels[NODE_GROUP] == "eks:CreateNodegroup"
    assert labels[LAUNCH_TEMPLATE] == "ec2:CreateLaunchTemplate"
    assert labels[ADDON] == "eks:CreateAddon"
    assert labels[AUTOSCALING_TAG] == "autoscaling:CreateOrUpdateTags"
    assert labels[ROLE] == "iam:CreateRole"
    assert labels[ROLE_POLICY_ATTACHMENT] == "iam:AttachRolePolicy"
    assert labels[KMS_KEY].startswith("kms:CreateKey + kms:EnableKeyRotation")
    assert labels[EKS_CLUSTER] == "eks:CreateCluster + iam:CreateRole + iam:AttachRolePolicy"
    assert labels[ROLE_POLICY] == "iam:PutRolePolicy"
    assert labels[POD_IDENTITY_ASSOCIATION] == "eks:CreatePodIdentityAssociation"
    # The dev network: DNS support is on in a new VPC, so only DNS hostnames are switched on.
    assert labels[VPC] == "ec2:CreateVpc + ec2:ModifyVpcAttribute"
    assert labels[SUBNET] == "ec2:CreateSubnet"
    assert labels[INTERNET_GATEWAY] == "ec2:CreateInternetGateway + ec2:AttachInternetGateway"
    assert labels[ROUTE_TABLE] == "ec2:CreateRouteTable"
    assert labels[ROUTE] == "ec2:CreateRoute"
    assert labels[ROUTE_TABLE_ASSOCIATION] == "ec2:AssociateRouteTable"
    assert labels[EIP] == "ec2:AllocateAddress"
    assert labels[NAT_GATEWAY] == "ec2:CreateNatGateway"
    assert labels[VPC_ENDPOINT] == "ec2:CreateVpcEndpoint"
    # The VPC CNI, kube-proxy, CoreDNS, the node monitoring agent and the pod identity agent.
    assert [c.resource_type for c in checks if c.resource_type == ADDON] == [ADDON] * 5


def test_requests_carry_the_registered_values_in_api_member_names(dev_run):
    checks = {(c.resource_type, c.resource_name): c for c in check_resources(dev_run.resources)}
    group = next(r for r in dev_run.resources if gpu_group(r))
    nodegroup = checks[(group.type, group.name)].requests[0].params
    assert nodegroup["taints"] == [{"key": "GPU", "value": "true", "effect": "NO_SCHEDULE"}]
    # Subnet ids are the stand-ins (`subnet-` + 17 hex digits) of the subnets the network registers.
    subnet_ids = stand_ins(dev_run, SUBNET)
    assert nodegroup["subnets"] == [subnet_ids[mock_id] for mock_id in group.inputs["subnetIds"]]
    assert all(re.fullmatch(r"subnet-[0-9a-f]{17}", subnet) for subnet in nodegroup["subnets"])
    assert nodegroup["nodeRole"] == group.inputs["nodeRoleArn"]
    template = next(r for r in dev_run.resources if gpu_template(dev_run)(r))
    data = checks[(template.type, template.name)].requests[0].params["LaunchTemplateData"]
    assert data["MetadataOptions"] == {
        "HttpTokens": "required",
        "HttpEndpoint": "enabled",
        "HttpPutResponseHopLimit": 1,
    }
    assert data["BlockDeviceMappings"][0]["Ebs"] == {
        "VolumeSize": 100,
        "VolumeType": "gp3",
        "Encrypted": True,
        "DeleteOnTermination": True,
    }
    cluster = next(c for c in checks.values() if c.resource_type == EKS_CLUSTER).requests
    cluster_inputs = cluster_resource(dev_run).inputs
    assert cluster[0].params["resourcesVpcConfig"]["subnetIds"] == [
        subnet_ids[mock_id] for mock_id in cluster_inputs["publicSubnetIds"] + cluster_inputs["privateSubnetIds"]
    ]
    assert cluster[0].params["encryptionConfig"][0]["resources"] == ["secrets"]
    assert cluster[1].params["RoleName"] == f"{cluster_resource(dev_run).name}-eksRole-role{AUTONAME_SUFFIX}"


# --- node group ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, passes", [("a" * 63, True), ("a" * 64, False), ("-gpu", False), ("gpu.pool", False), ("9_gpu-pool", True)]
)
def test_node_group_name_syntax_and_length(dev_run, name, passes):
    found = problems_of(*edited(dev_run, gpu_group, lambda inputs: set_name(inputs, name)))

    if passes:
        assert found == []
    else:
        assert [(path, value) for _, path, value, _ in found] == [("nodegroupName", name)]
        assert "1-63 letters, digits, '-' or '_', starting with a letter or digit" in found[0][3]


@pytest.mark.parametrize("prefix, passes", [("p" * 37, True), ("p" * 38, False)])
def test_node_group_name_prefix_counts_the_26_character_unique_suffix(dev_run, prefix, passes):
    found = problems_of(*edited(dev_run, gpu_group, lambda inputs: set_prefix(inputs, prefix)))

    assert (found == []) is passes
    if not passes:
        assert found[0][1:3] == ("nodegroupName", prefix + UNIQUE_ID)
        assert "this one has 64 characters" in found[0][3]


def test_taint_effect_in_kubernetes_spelling_is_rejected_by_the_model(dev_run):
    def edit(inputs):
        inputs["taints"][0]["effect"] = "NoSchedule"

    request, path, value, rule = only_problem(dev_run, gpu_group, edit)

    assert (request, path, value) == ("eks:CreateNodegroup", "taints[0].effect", "NoSchedule")
    assert rule.startswith("is not one of NO_SCHEDULE, NO_EXECUTE, PREFER_NO_SCHEDULE (eks model, shape TaintEffect)")


@pytest.mark.parametrize(
    "member, value, rule",
    [
        ("maxSize", 2**31, "is outside the 32-bit integer range -2147483648 to 2147483647"),
        ("minSize", -1, "must be at least 0 (eks model, shape ZeroCapacity)"),
        ("maxSize", 0, "must be at least 1 (eks model, shape Capacity)"),
        ("desiredSize", 1.5, "must be an integer"),
    ],
)
def test_scaling_sizes_must_be_32_bit_integers_in_the_model_ranges(dev_run, member, value, rule):
    def edit(inputs):
        inputs["scalingConfig"][member] = float(value)

    _, path, shown_value, found_rule = only_problem(dev_run, gpu_group, edit)

    assert path == f"scalingConfig.{member}" and shown_value == value
    assert found_rule.startswith(rule)


@pytest.mark.parametrize(
    "key, passes",
    [
        ("kubernetes.io/foo", False),
        ("k8s.io/foo", False),
        ("team.k8s.io/pool", False),
        ("node-role.kubernetes.io/gpu", False),
        ("node.kubernetes.io/pool", True),
        ("kubernetes.io/arch", True),
        ("topology.kubernetes.io/zone", True),
        ("nvidia.com/gpu.present", True),
        ("example.com/kubernetes.io", True),
    ],
)
def test_node_labels_in_reserved_kubernetes_namespaces_are_rejected(dev_run, key, passes):
    def edit(inputs):
        inputs["labels"][key] = "x"

    found = problems_of(*edited(dev_run, gpu_group, edit))

    assert is_reserved_label(key) is not passes
    if passes:
        assert found == []
    else:
        assert [(path, value) for _, path, value, _ in found] == [(f'labels["{key}"] (key)', key)]
        assert "the kubelet refuses node labels in the kubernetes.io and k8s.io namespaces" in found[0][3]


def test_label_key_longer_than_the_model_allows(dev_run):
    key = "gpu-" + "x" * 60

    def edit(inputs):
        inputs["labels"][key] = "x"

    _, path, value, rule = only_problem(dev_run, gpu_group, edit)

    assert (path, value) == (f'labels["{key}"] (key)', key)
    assert rule == "has 64 characters, allowed 1 to 63 (eks model, shape labelKey)"


@pytest.mark.parametrize(
    "member, value",
    [
        pytest.param("diskSize", 100.0, id="diskSize beside a launch template"),
        pytest.param("remoteAccess", {"ec2SshKey": "admin"}, id="remoteAccess beside a launch template"),
    ],
)
def test_disk_size_and_remote_access_next_to_a_launch_template(dev_run, member, value):
    def edit(inputs):
        inputs[member] = value

    _, path, _, rule = only_problem(dev_run, gpu_group, edit)

    assert path == member
    assert rule.startswith("must not be set next to a launch template, or the node group deployment fails")


@pytest.mark.parametrize("ami_type, passes", [("AL2023_x86_64_NVIDIA", False), ("CUSTOM", True)])
def test_image_id_in_the_launch_template_needs_no_ami_type_or_custom(dev_run, ami_type, passes):
    pick_template = gpu_template(dev_run)
    resources = [
        dataclasses.replace(r, inputs={**r.inputs, "imageId": "ami-0123456789abcdef0"}) if pick_template(r) else r
        for r in dev_run.resources
    ]
    resources = [
        dataclasses.replace(r, inputs={**r.inputs, "amiType": ami_type}) if gpu_group(r) else r for r in resources
    ]
    group = next(r for r in resources if gpu_group(r))

    found = problems_of(resources, group)

    assert (found == []) is passes
    if not passes:
        assert found[0][1:3] == ("amiType", ami_type)
        assert "the launch template names an image (ami-0123456789abcdef0), so amiType must be left out" in found[0][3]


def test_missing_required_member_wrong_type_and_bad_enum(dev_run):
    def edit(inputs):
        del inputs["subnetIds"]
        inputs["capacityType"] = "RESERVED"
        inputs["updateConfig"] = {"maxUnavailable": "1"}

    found = {path: rule for _, path, _, rule in problems_of(*edited(dev_run, gpu_group, edit))}

    assert found == {
        "subnets": "is required (eks model, shape CreateNodegroupRequest)",
        "capacityType": "is not one of ON_DEMAND, SPOT, CAPACITY_BLOCK (eks model, shape CapacityTypes)",
        "updateConfig.maxUnavailable": "must be an integer (eks model, shape NonZeroInteger)",
    }


def test_unknown_members_are_rejected_by_the_model_and_unmapped_inputs_noted():
    violations = validate(
        "eks",
        "CreateNodegroup",
        {"clusterName": "c", "nodegroupName": "n", "subnets": ["s"], "nodeRole": "r", "gpuSharing": True},
    )
    assert [(v.path, v.rule.split(";")[0]) for v in violations] == [
        ("gpuSharing", "is not a member of CreateNodegroupRequest")
    ]

    group = RegisteredResource(
        NODE_GROUP,
        "g",
        {"clusterName": "c", "nodeGroupName": "g", "subnetIds": ["s"], "nodeRoleArn": "r", "gpuSharing": True},
        None,
        "urn",
        True,
    )
    check = aws_requests.check_resource(group)
    assert check.passed and "inputs not checked: gpuSharing" in check.notes


@pytest.mark.parametrize("count, passes", [(50, True), (51, False)])
def test_at_most_50_taints_per_node_group(dev_run, count, passes):
    def edit(inputs):
        inputs["taints"] = [{"key": f"t{n}", "value": "x", "effect": "NO_SCHEDULE"} for n in range(count)]

    found = problems_of(*edited(dev_run, gpu_group, edit))

    assert (found == []) is passes
    if not passes:
        assert found[0][1:3] == ("taints", "51 taints") and "at most 50 taints" in found[0][3]


def test_resource_types_without_a_mapping_are_listed_as_not_checked():
    bucket = RegisteredResource("aws:s3/bucket:Bucket", "models", {"bucket": "models"}, None, "urn", True)

    (check,) = check_resources([bucket])

    assert (check.checked, check.passed, check.requests) == (False, True, [])
    assert check.notes == ["not checked: no request mapping for this resource type"]


def test_model_patterns_are_matched_whole_with_java_forms_translated():
    iam_tag_key = pattern_matcher(r"[\p{L}\p{Z}\p{N}_.:/=+\-@]+")
    assert iam_tag_key("app.kubernetes.io/part-of") and iam_tag_key("Grüße 1")
    assert not iam_tag_key("a*b") and not iam_tag_key("")
    xml_string = pattern_matcher(r"[\u0020-\uD7FF\uE000-\uFFFD\uD800\uDC00-\uDBFF\uDFFF\r\n\t]*")
    assert xml_string("GPU 🚀") and not xml_string("bell\x07")
    role_name = pattern_matcher(r"[\w+=,.@-]+")
    assert role_name("gpu-nodes-role") and not role_name("gpu nodes") and not role_name("gpü")


def test_inputs_no_builder_expects_are_reported_as_not_checked_not_raised():
    group = RegisteredResource(
        NODE_GROUP,
        "g",
        {"clusterName": "c", "nodeGroupName": "g", "subnetIds": ["s"], "nodeRoleArn": "r", "remoteAccess": "ssh"},
        None,
        "urn",
        True,
    )

    (check,) = check_resources([group])

    assert not check.checked and check.passed
    assert check.notes[0].startswith("not checked: the inputs could not be read as a request (AttributeError")
