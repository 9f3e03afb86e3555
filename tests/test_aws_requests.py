"""AWS create requests built from what the program registers, checked against botocore's models and documented rules.

Each case starts from the dev stack's real registered inputs (the session-wide `dev_run`), changes one
value the way a user or a refactoring could, and asserts the member path and rule the check reports.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from components.facts.resource_types import (
    ACCESS_ENTRY,
    ADDON,
    AUTOSCALING_TAG,
    EIP,
    EKS_CLUSTER,
    EKS_CONTROL_PLANE,
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
from components.stackcheck.aws.check import build_stack, check_resources
from components.stackcheck.aws.network_builders import ID_PREFIXES
from components.stackcheck.aws.rules import is_reserved_label
from components.stackcheck.runtime import RegisteredResource, Secret


def gpu_group(resource: RegisteredResource) -> bool:
    return resource.type == NODE_GROUP and bool(resource.inputs.get("taints"))


def gpu_template(run) -> Callable[[RegisteredResource], bool]:
    template_id = next(r for r in run.resources if gpu_group(r)).inputs["launchTemplate"]["id"]
    return lambda resource: resource.type == LAUNCH_TEMPLATE and resource.id == template_id


def edited(
    run, pick: Callable[[RegisteredResource], bool], edit: Callable[[dict], Any], name: str | None = None
) -> tuple[list[RegisteredResource], RegisteredResource]:
    """The run's resources with the one `pick` selects given edited inputs (and optionally another name)."""
    resources, target = [], None
    for resource in run.resources:
        if target is None and pick(resource):
            inputs = copy.deepcopy(resource.inputs)
            edit(inputs)
            resource = target = dataclasses.replace(resource, inputs=inputs, name=name or resource.name)
        resources.append(resource)
    assert target is not None
    return resources, target


def problems_of(resources: list[RegisteredResource], target: RegisteredResource) -> list[tuple[str, str, Any, str]]:
    """(request, member path, value, rule) of every problem the check finds in `target`'s requests."""
    check = next(
        c for c in check_resources(resources) if (c.resource_type, c.resource_name) == (target.type, target.name)
    )
    return [(label, violation.path, violation.value, violation.rule) for label, violation in check.problems]


def only_problem(run, pick, edit, name=None) -> tuple[str, str, Any, str]:
    found = problems_of(*edited(run, pick, edit, name))
    assert len(found) == 1, found
    return found[0]


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
    assert [c.resource_type for c in checks if c.resource_type == ADDON] == [ADDON] * 2


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


def stand_ins(run, resource_type: str) -> dict[str, str]:
    """Mock id -> the stand-in id AWS would give, for the resources of `resource_type`."""
    ids = build_stack(run.resources).ids
    prefix = ID_PREFIXES[resource_type]
    return {r.id: ids[r.id][prefix] for r in run.resources if r.type == resource_type}


def cluster_resource(run) -> RegisteredResource:
    return next(r for r in run.resources if r.type == EKS_CLUSTER)


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
        inputs["tag"]["key"] = "k8s.io/cluster-autoscaler/node-template/label/" + "x" * 90

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


@pytest.mark.parametrize("count, passes", [(50, True), (51, False)])
def test_at_most_50_taints_per_node_group(dev_run, count, passes):
    def edit(inputs):
        inputs["taints"] = [{"key": f"t{n}", "value": "x", "effect": "NO_SCHEDULE"} for n in range(count)]

    found = problems_of(*edited(dev_run, gpu_group, edit))

    assert (found == []) is passes
    if not passes:
        assert found[0][1:3] == ("taints", "51 taints") and "at most 50 taints" in found[0][3]


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
