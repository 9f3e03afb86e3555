"""The AWS API requests a stack's resources make when created, built from what the program registers.

Each AWS resource (`stackcheck.runtime.RegisteredResource`: type, name, camelCase inputs, mock id)
becomes the create request its provider sends, as hashicorp/terraform-provider-aws (under
pulumi-aws) builds it, for example `aws:eks/nodeGroup:NodeGroup` -> EKS CreateNodegroup; the
remote `eks:index:Cluster` component becomes the requests pulumi-eks makes from its inputs. Each
request is checked against botocore's model (`stackcheck.aws_models`) and the rules the models do
not carry (`stackcheck.aws_rules`). AWS resources without a mapping are listed as not checked.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stackcheck import aws_rules
from stackcheck.aws_models import UNKNOWN, ServiceModel, Violation, service_model, validate
from stackcheck.runtime import Secret

# Names the provider generates. Pulumi autonames an input named `name` (pulumi-aws
# provider/autonaming.go, up to 255 characters) as the resource name + "-" + 7 random hex characters
# (pulumi/pulumi-terraform-bridge pkg/tfbridge/info/autonaming.go, AutoName: Separator "-", Randlen 7).
# A `*NamePrefix` becomes prefix + a 26-character unique id, and a name the provider must invent is
# "terraform-" + that id (hashicorp/terraform-plugin-sdk helper/id/id.go: UniqueIDSuffixLength = 26;
# terraform-provider-aws internal/create/naming.go, Name). Stand-ins of those lengths are used.
AUTONAME_SUFFIX = "-" + "x" * 7
UNIQUE_ID = "0" * 26
TERRAFORM_NAME = "terraform-" + UNIQUE_ID
# An account id for ARNs of roles the stack creates: only lengths and patterns are checked.
PLACEHOLDER_ACCOUNT = "000000000000"
SECRET_SHOWN = "[secret]"


@dataclass(frozen=True)
class Request:
    """One API call: `service` and `operation` as botocore names them, and its parameters."""

    service: str
    operation: str
    params: dict[str, Any]

    @property
    def label(self) -> str:
        return f"{self.service}:{self.operation}"


@dataclass
class RequestCheck:
    """The requests one registered resource makes, and what AWS would reject in them."""

    resource_type: str
    resource_name: str
    requests: list[Request] = field(default_factory=list)
    problems: list[tuple[str, Violation]] = field(default_factory=list)
    """(request label, violation) pairs."""
    notes: list[str] = field(default_factory=list)
    """What was not checked and why, and generated names."""
    checked: bool = True
    """False when no request mapping exists for the resource type."""

    @property
    def passed(self) -> bool:
        return not self.problems

    @property
    def request_label(self) -> str:
        return " + ".join(dict.fromkeys(request.label for request in self.requests)) or "-"

    def failure_lines(self) -> list[str]:
        return [f"{self.resource_type} {self.resource_name}: {label} {violation.describe()}"
                for label, violation in self.problems]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.resource_type, "name": self.resource_name, "requests": [r.label for r in self.requests],
                "checked": self.checked, "passed": self.passed, "notes": self.notes,
                "problems": [{"request": label, "path": v.path, "value": v.value, "rule": v.rule}
                             for label, v in self.problems]}


@dataclass
class _Stack:
    """What one resource's request needs to know about the others."""

    resources: list[Any]
    role_names: dict[str, str] = field(default_factory=dict)
    """Name the mocks report for each IAM role -> the name AWS receives."""
    templates: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Launch template id or name -> its LaunchTemplateData."""


def is_aws_resource(resource: Any) -> bool:
    """Resources the AWS provider or pulumi-eks create: everything else is Kubernetes, a provider or a component."""
    return resource.type.startswith("aws:") or resource.type.startswith("eks:")


def check_resources(resources: list[Any]) -> list[RequestCheck]:
    """The request check of every AWS resource in registration order."""
    stack = _Stack([resource for resource in resources if is_aws_resource(resource)])
    for resource in stack.resources:
        inputs = plain(resource.inputs)
        if resource.type == "aws:iam/role:Role":
            stack.role_names[resource.name] = _name(inputs, resource.name, autonamed=True)
        elif resource.type == "aws:ec2/launchTemplate:LaunchTemplate":
            data = _launch_template_request(inputs, resource.name).params["LaunchTemplateData"]
            stack.templates[resource.id] = data
            stack.templates[_name(inputs, resource.name, autonamed=True)] = data
    return [check_resource(resource, stack) for resource in stack.resources]


def check_resource(resource: Any, stack: _Stack | None = None) -> RequestCheck:
    """Build and check the requests of one resource; `stack` lets it see the resources it refers to."""
    stack = stack or _Stack([resource])
    result = RequestCheck(resource.type, resource.name)
    builder = BUILDERS.get(resource.type)
    if builder is None:
        result.checked = False
        result.notes.append("not checked: no request mapping for this resource type")
        return result
    inputs = plain(resource.inputs)
    secrets = secret_values(resource.inputs)
    result.requests = builder(inputs, resource, stack, result)
    for request in result.requests:
        found = validate(request.service, request.operation, request.params)
        found += aws_rules.reserved_tag_keys(request.params)
        found += _RULES.get(request.label, lambda params, _stack: [])(request.params, stack)
        result.problems += [(request.label, _redacted(violation, secrets)) for violation in found]
    return result


def plain(value: Any) -> Any:
    """Inputs with secrets unwrapped: a request is checked with the values AWS would receive."""
    if isinstance(value, Secret):
        return plain(value.value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def secret_values(value: Any, inside: bool = False) -> set[Any]:
    """Every value (and map key) the program registered as secret, so that no report shows one."""
    if isinstance(value, Secret):
        return secret_values(value.value, True)
    if isinstance(value, dict):
        found = {key for key in value if inside}
        for item in value.values():
            found |= secret_values(item, inside)
        return found
    if isinstance(value, list):
        return set().union(*(secret_values(item, inside) for item in value)) if value else set()
    return {value} if inside and isinstance(value, (str, int, float)) and not isinstance(value, bool) else set()


def _redacted(violation: Violation, secrets: set[Any]) -> Violation:
    if not secrets:
        return violation
    path, rule = violation.path, violation.rule
    for text in (secret for secret in secrets if isinstance(secret, str) and secret):
        path = path.replace(json.dumps(text, ensure_ascii=False), '"[secret]"').replace(f'"{text}"', '"[secret]"')
        rule = rule.replace(text, "[secret]") if len(text) > 3 else rule
    return Violation(path, SECRET_SHOWN if _mentions(violation.value, secrets) else violation.value, rule)


def _mentions(value: Any, secrets: set[Any]) -> bool:
    if isinstance(value, dict):
        return any(_mentions(key, secrets) or _mentions(item, secrets) for key, item in value.items())
    if isinstance(value, list):
        return any(_mentions(item, secrets) for item in value)
    try:
        return value in secrets
    except TypeError:
        return False


def _name(inputs: dict, resource_name: str, *, autonamed: bool, key: str = "name", prefix_key: str = "namePrefix",
          notes: list[str] | None = None, member: str = "name") -> str:
    """The name AWS receives: given, from a prefix, autonamed by Pulumi, or invented by the provider."""
    if inputs.get(key):
        return inputs[key]
    if inputs.get(prefix_key):
        if notes is not None:
            notes.append(f"{member}: {prefix_key} + a 26-character unique id (terraform-plugin-sdk helper/id)")
        return inputs[prefix_key] + UNIQUE_ID
    if autonamed:
        if notes is not None:
            notes.append(f"{member}: autonamed by Pulumi, resource name + '-' + 7 random characters")
        return resource_name + AUTONAME_SUFFIX
    if notes is not None:
        notes.append(f"{member}: generated by the provider as 'terraform-' + a 26-character unique id")
    return TERRAFORM_NAME


def _taken(inputs: dict, mapping: dict[str, str], result: RequestCheck, *, ignored: tuple[str, ...] = ()) -> dict:
    """Request members from the inputs `mapping` names (input -> member); other inputs are noted as not checked."""
    _note_unmapped(inputs, set(mapping) | set(ignored), result)
    return {member: inputs[key] for key, member in mapping.items() if inputs.get(key) is not None}


def _note_unmapped(inputs: dict, mapped: set[str], result: RequestCheck) -> None:
    rest = sorted(set(inputs) - mapped - {"region", "tagsAll"})
    if rest:
        result.notes.append(f"inputs not checked: {', '.join(rest)}")


def _tag_list(tags: Any, key: str = "Key", value: str = "Value") -> list[dict[str, Any]] | None:
    if not isinstance(tags, dict) or not tags:
        return None
    return [{key: tag_key, value: tag_value} for tag_key, tag_value in tags.items()]


def _role_arn(role_name: str) -> str:
    return f"arn:aws:iam::{PLACEHOLDER_ACCOUNT}:role/{role_name}"


# --- EKS -------------------------------------------------------------------------------------------

def _nodegroup(inputs: dict, resource: Any, stack: _Stack, result: RequestCheck) -> list[Request]:
    """terraform-provider-aws internal/service/eks/node_group.go, resourceNodeGroupCreate."""
    params = _taken(inputs, {
        "clusterName": "clusterName", "nodeRoleArn": "nodeRole", "subnetIds": "subnets", "tags": "tags",
        "amiType": "amiType", "capacityType": "capacityType", "diskSize": "diskSize", "instanceTypes": "instanceTypes",
        "labels": "labels", "releaseVersion": "releaseVersion", "scalingConfig": "scalingConfig", "taints": "taints",
        "updateConfig": "updateConfig", "version": "version", "nodeRepairConfig": "nodeRepairConfig",
    }, result, ignored=("nodeGroupName", "nodeGroupNamePrefix", "launchTemplate", "remoteAccess",
                        "forceUpdateVersion"))
    params["nodegroupName"] = _name(inputs, resource.name, autonamed=False, key="nodeGroupName",
                                    prefix_key="nodeGroupNamePrefix", notes=result.notes, member="nodegroupName")
    if inputs.get("launchTemplate"):
        params["launchTemplate"] = dict(inputs["launchTemplate"])
    remote = inputs.get("remoteAccess")
    if remote:
        params["remoteAccess"] = {"ec2SshKey": remote.get("ec2SshKey"),
                                  "sourceSecurityGroups": remote.get("sourceSecurityGroupIds")}
        params["remoteAccess"] = {k: v for k, v in params["remoteAccess"].items() if v is not None}
    return [Request("eks", "CreateNodegroup", params)]


def _nodegroup_rules(params: dict, stack: _Stack) -> list[Violation]:
    template = params.get("launchTemplate") or {}
    data = stack.templates.get(template.get("id")) or stack.templates.get(template.get("name"))
    return (aws_rules.nodegroup_name(params) + aws_rules.node_labels(params) + aws_rules.taint_count(params)
            + aws_rules.nodegroup_with_launch_template(params, data))


def _addon(inputs: dict, resource: Any, stack: _Stack, result: RequestCheck) -> list[Request]:
    """terraform-provider-aws internal/service/eks/addon.go, resourceAddonCreate."""
    params = _taken(inputs, {
        "clusterName": "clusterName", "addonName": "addonName", "addonVersion": "addonVersion",
        "serviceAccountRoleArn": "serviceAccountRoleArn", "resolveConflictsOnCreate": "resolveConflicts",
        "configurationValues": "configurationValues", "tags": "tags", "podIdentityAssociations": "podIdentityAssociations",
    }, result, ignored=("resolveConflictsOnUpdate", "preserve"))
    return [Request("eks", "CreateAddon", params)]


def _access_entry(inputs: dict, resource: Any, stack: _Stack, result: RequestCheck) -> list[Request]:
    """terraform-provider-aws internal/service/eks/access_entry.go, resourceAccessEntryCreate."""
    params = _taken(inputs, {"clusterName": "clusterName", "principalArn": "principalArn",
                             "kubernetesGroups": "kubernetesGroups", "tags": "tags", "userName": "username",
                             "type": "type"}, result)
    return [Request("eks", "CreateAccessEntry", params)]


def _access_policy_association(inputs: dict, resource: Any, stack: _Stack, result: RequestCheck) -> list[Request]:
    """terraform-provider-aws internal/service/eks/access_policy_association.go."""
    params = _taken(inputs, {"clusterName": "clusterName", "principalArn": "principalArn", "policyArn": "policyArn",
                             "accessScope": "accessScope"}, result)
    return [Request("eks", "AssociateAccessPolicy", params)]


def _eks_cluster(inputs: dict, resource: Any, stack: _Stack, result: RequestCheck) -> list[Request]:
    """What pulumi-eks creates from an `eks:index:Cluster`'s inputs (nodejs/eks/cluster/cluster.ts, createCore).

    The control plane `${name}-eksCluster` (aws.eks.Cluster, autonamed unless `name` is given), its
    service role `ServiceRole("${name}-eksRole")`, whose `aws.iam.Role` is `${name}-eksRole-role`
    (nodejs/eks/servicerole.ts) with AmazonEKSClusterPolicy attached, and one access entry per
    `accessEntries` key with its policy associations (nodejs/eks/cluster/authenticationMode.ts,
    createAccessEntries). Security groups, add-ons and node groups it also creates are not checked.
    """
    requests: list[Request] = []
    cluster_name = _name(inputs, f"{resource.name}-eksCluster", autonamed=True, notes=result.notes, member="name")
    role_arn = inputs.get("serviceRole")
    if not role_arn:
        role_name = f"{resource.name}-eksRole-role{AUTONAME_SUFFIX}"
        result.notes.append("service role: RoleName autonamed by Pulumi from "
                            f"{resource.name}-eksRole-role + '-' + 7 random characters")
        role_arn = _role_arn(role_name)
        trust = {"Version": "2012-10-17", "Statement": [{
            "Action": ["sts:AssumeRole", "sts:TagSession"], "Effect": "Allow",
            "Principal": {"Service": ["eks.amazonaws.com"]}}]}
        requests.append(Request("iam", "CreateRole", _drop_none({
            "RoleName": role_name, "AssumeRolePolicyDocument": json.dumps(trust),
            "Description": "Allows EKS to manage clusters on your behalf.", "Tags": _tag_list(inputs.get("tags"))})))
        requests.append(Request("iam", "AttachRolePolicy", {
            "RoleName": role_name, "PolicyArn": "arn:aws:iam::aws:policy/AmazonEKSClusterPolicy"}))
    if isinstance(role_arn, dict):  # a role resource passed by reference resolves to its outputs
        role_arn = role_arn.get("arn", UNKNOWN)

    subnets = inputs.get("subnetIds")
    if subnets is None and (inputs.get("publicSubnetIds") is not None or inputs.get("privateSubnetIds") is not None):
        subnets = list(inputs.get("publicSubnetIds") or []) + list(inputs.get("privateSubnetIds") or [])
    vpc_config = _drop_none({
        "subnetIds": subnets,
        "securityGroupIds": None if inputs.get("skipDefaultSecurityGroups") else [UNKNOWN],
        "endpointPrivateAccess": inputs.get("endpointPrivateAccess"),
        "endpointPublicAccess": inputs.get("endpointPublicAccess"),
        "publicAccessCidrs": inputs.get("publicAccessCidrs"),
    })
    network = _drop_none({"serviceIpv4Cidr": inputs.get("kubernetesServiceIpAddressRange"),
                          "ipFamily": inputs.get("ipFamily")})
    log_types = inputs.get("enabledClusterLogTypes")
    key_arn = inputs.get("encryptionConfigKeyArn")
    mode = inputs.get("authenticationMode")
    requests.insert(0, Request("eks", "CreateCluster", _drop_none({
        "name": cluster_name,
        "version": inputs.get("version"),
        "roleArn": role_arn,
        "resourcesVpcConfig": vpc_config,
        "kubernetesNetworkConfig": network or None,
        "logging": _logging(log_types or []),
        "encryptionConfig": [{"resources": ["secrets"], "provider": {"keyArn": key_arn}}] if key_arn else None,
        "accessConfig": {"authenticationMode": mode, "bootstrapClusterCreatorAdminPermissions": True} if mode else None,
        "tags": {"Name": f"{resource.name}-eksCluster", **(inputs.get("clusterTags") or {}), **(inputs.get("tags") or {})},
        "bootstrapSelfManagedAddons": inputs.get("bootstrapSelfManagedAddons", True),
        "upgradePolicy": inputs.get("upgradePolicy"),
        "deletionProtection": inputs.get("deletionProtection"),
    })))
    for entry in (inputs.get("accessEntries") or {}).values():
        requests.append(Request("eks", "CreateAccessEntry", _drop_none({
            "clusterName": cluster_name, "principalArn": entry.get("principalArn"),
            "kubernetesGroups": entry.get("kubernetesGroups"), "tags": entry.get("tags"),
            "username": entry.get("username"), "type": entry.get("type")})))
        for association in (entry.get("accessPolicies") or {}).values():
            requests.append(Request("eks", "AssociateAccessPolicy", _drop_none({
                "clusterName": cluster_name, "principalArn": entry.get("principalArn"),
                "policyArn": association.get("policyArn"), "accessScope": association.get("accessScope")})))
    mapped = {"name", "version", "serviceRole", "subnetIds", "publicSubnetIds", "privateSubnetIds",
              "skipDefaultSecurityGroups", "endpointPrivateAccess", "endpointPublicAccess", "publicAccessCidrs",
              "kubernetesServiceIpAddressRange", "ipFamily", "enabledClusterLogTypes", "encryptionConfigKeyArn",
              "authenticationMode", "tags", "clusterTags", "bootstrapSelfManagedAddons", "upgradePolicy",
              "deletionProtection", "accessEntries", "vpcId", "skipDefaultNodeGroup"}
    rest = sorted(set(inputs) - mapped)
    if rest:
        result.notes.append(f"inputs not checked (requests of other resources pulumi-eks creates): {', '.join(rest)}")
    return requests


def _aws_eks_cluster(inputs: dict, resource: Any, stack: _Stack, result: RequestCheck) -> list[Request]:
    """terraform-provider-aws internal/service/eks/cluster.go, resourceClusterCreate (an `aws.eks.Cluster`)."""
    params = _taken(inputs, {
        "roleArn": "roleArn", "version": "version", "vpcConfig": "resourcesVpcConfig", "tags": "tags",
        "accessConfig": "accessConfig", "kubernetesNetworkConfig": "kubernetesNetworkConfig",
        "bootstrapSelfManagedAddons": "bootstrapSelfManagedAddons", "upgradePolicy": "upgradePolicy",
        "deletionProtection": "deletionProtection", "zonalShiftConfig": "zonalShiftConfig",
        "computeConfig": "computeConfig", "storageConfig": "storageConfig", "remoteNetworkConfig": "remoteNetworkConfig",
        "outpostConfig": "outpostConfig",
    }, result, ignored=("name", "enabledClusterLogTypes", "encryptionConfig", "forceUpdateVersion",
                        "defaultAddonsToRemoves"))
    params["name"] = _name(inputs, resource.name, autonamed=True, notes=result.notes, member="name")
    params["logging"] = _logging(inputs.get("enabledClusterLogTypes") or [])
    if inputs.get("encryptionConfig"):
        params["encryptionConfig"] = [inputs["encryptionConfig"]]
    return [Request("eks", "CreateCluster", params)]


def _logging(enabled: list[str]) -> dict[str, Any]:
    """terraform-provider-aws internal/service/eks/cluster.go, expandLogging: the enabled types, then every
    other LogType of the model disabled."""
    model = service_model("eks")
    every = model.shape("LogType")["enum"]
    return {"clusterLogging": [{"enabled": True, "types": enabled},
                               {"enabled": False, "types": [kind for kind in every if kind not in enabled]}]}


# --- EC2, Auto Scaling ------------------------------------------------------------------------------

def _launch_template(inputs: dict, resource: Any, stack: _Stack, result: RequestCheck) -> list[Request]:
    return [_launch_template_request(inputs, resource.name, result)]


def _launch_template_request(inputs: dict, resource_name: str, result: RequestCheck | None = None) -> Request:
    """terraform-provider-aws internal/service/ec2/ec2_launch_template.go, resourceLaunchTemplateCreate.

    The template's own inputs become `LaunchTemplateData` members (camelCase -> PascalCase, with the
    provider's renames); the provider's "true"/"false" strings become booleans where the model wants one.
    """
    own = {"name", "namePrefix", "description", "tags", "updateDefaultVersion", "defaultVersion", "region", "tagsAll"}
    renames = {"vpcSecurityGroupIds": "SecurityGroupIds", "securityGroupNames": "SecurityGroups"}
    notes = result.notes if result is not None else None
    data = {}
    for key, value in inputs.items():
        if key in own or value is None:
            continue
        data[renames.get(key, key[:1].upper() + key[1:])] = value
    model = service_model("ec2")
    data_shape = model.shape(model.input_shape("CreateLaunchTemplate"))["members"]["LaunchTemplateData"]["shape"]
    data = _to_model(model, data_shape, data, notes, "LaunchTemplateData")
    params = _drop_none({
        "LaunchTemplateName": _name(inputs, resource_name, autonamed=True, notes=notes, member="LaunchTemplateName"),
        "VersionDescription": inputs.get("description"),
        "LaunchTemplateData": data,
        "TagSpecifications": [{"ResourceType": "launch-template", "Tags": _tag_list(inputs["tags"])}]
        if inputs.get("tags") else None,
    })
    return Request("ec2", "CreateLaunchTemplate", params)


def _to_model(model: ServiceModel, shape_name: str, value: Any, notes: list[str] | None, where: str) -> Any:
    """Pulumi inputs in the model's member names: keys PascalCased, maps of tags made tag lists.

    A key with no member of that name is dropped and noted as not checked: it is a gap in this
    mapping, not something the user wrote wrong (Pulumi's own schema rejects unknown inputs).
    """
    shape = model.shape(shape_name)
    kind = shape.get("type")
    if kind == "boolean" and value in ("true", "false"):
        return value == "true"
    if kind == "list" and isinstance(value, dict):  # `tags = {k: v}` -> [{Key, Value}]
        return _tag_list(value)
    if kind == "list" and isinstance(value, list):
        return [_to_model(model, shape["member"]["shape"], item, notes, f"{where}[{index}]")
                for index, item in enumerate(value)]
    if kind != "structure" or not isinstance(value, dict):
        return value
    converted = {}
    for key, item in value.items():
        member = key[:1].upper() + key[1:]
        ref = shape.get("members", {}).get(member)
        if ref is None:
            if notes is not None:
                notes.append(f"{where}.{key}: no member {member} in the model; not checked")
            continue
        converted[member] = _to_model(model, ref["shape"], item, notes, f"{where}.{member}")
    return converted


def _autoscaling_tag(inputs: dict, resource: Any, stack: _Stack, result: RequestCheck) -> list[Request]:
    """terraform-provider-aws internal/service/autoscaling/group_tag.go: one CreateOrUpdateTags call."""
    tag = inputs.get("tag") or {}
    _note_unmapped(inputs, {"autoscalingGroupName", "tag"}, result)
    return [Request("autoscaling", "CreateOrUpdateTags", {"Tags": [_drop_none({
        "ResourceId": inputs.get("autoscalingGroupName"), "ResourceType": "auto-scaling-group",
        "Key": tag.get("key"), "Value": tag.get("value"), "PropagateAtLaunch": tag.get("propagateAtLaunch")})]})]


# --- IAM, KMS --------------------------------------------------------------------------------------

def _iam_role(inputs: dict, resource: Any, stack: _Stack, result: RequestCheck) -> list[Request]:
    """terraform-provider-aws internal/service/iam/role.go, resourceRoleCreate."""
    params = _taken(inputs, {"description": "Description", "maxSessionDuration": "MaxSessionDuration",
                             "path": "Path", "permissionsBoundary": "PermissionsBoundary"},
                    result, ignored=("name", "namePrefix", "assumeRolePolicy", "tags", "forceDetachPolicies",
                                     "inlinePolicies", "managedPolicyArns"))
    params["RoleName"] = _name(inputs, resource.name, autonamed=True, notes=result.notes, member="RoleName")
    policy = inputs.get("assumeRolePolicy")
    params["AssumeRolePolicyDocument"] = policy if isinstance(policy, str) or policy is None else json.dumps(policy)
    if _tag_list(inputs.get("tags")):
        params["Tags"] = _tag_list(inputs["tags"])
    return [Request("iam", "CreateRole", params)]


def _role_policy_attachment(inputs: dict, resource: Any, stack: _Stack, result: RequestCheck) -> list[Request]:
    """terraform-provider-aws internal/service/iam/role_policy_attachment.go: AttachRolePolicy."""
    _note_unmapped(inputs, {"role", "policyArn"}, result)
    role = inputs.get("role")
    # Under mocks a role reports its resource name; AWS receives the name the role was created with.
    role = stack.role_names.get(role, role)
    return [Request("iam", "AttachRolePolicy", {"RoleName": role, "PolicyArn": inputs.get("policyArn")})]


def _kms_key(inputs: dict, resource: Any, stack: _Stack, result: RequestCheck) -> list[Request]:
    """terraform-provider-aws internal/service/kms/key.go, resourceKeyCreate (CreateKey, then EnableKeyRotation)."""
    params = _taken(inputs, {"description": "Description", "keyUsage": "KeyUsage",
                             "customerMasterKeySpec": "KeySpec", "policy": "Policy",
                             "bypassPolicyLockoutSafetyCheck": "BypassPolicyLockoutSafetyCheck",
                             "multiRegion": "MultiRegion", "customKeyStoreId": "CustomKeyStoreId",
                             "xksKeyId": "XksKeyId"},
                    result, ignored=("tags", "enableKeyRotation", "rotationPeriodInDays", "deletionWindowInDays",
                                     "isEnabled"))
    if _tag_list(inputs.get("tags")):
        params["Tags"] = _tag_list(inputs["tags"], "TagKey", "TagValue")
    requests = [Request("kms", "CreateKey", params)]
    if inputs.get("enableKeyRotation"):
        requests.append(Request("kms", "EnableKeyRotation", _drop_none({
            "KeyId": UNKNOWN, "RotationPeriodInDays": inputs.get("rotationPeriodInDays")})))
    if inputs.get("deletionWindowInDays") is not None:  # sent when the key is destroyed
        requests.append(Request("kms", "ScheduleKeyDeletion", {
            "KeyId": UNKNOWN, "PendingWindowInDays": inputs["deletionWindowInDays"]}))
    return requests


def _drop_none(params: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in params.items() if value is not None}


Builder = Callable[[dict, Any, _Stack, RequestCheck], list[Request]]
BUILDERS: dict[str, Builder] = {
    "aws:eks/nodeGroup:NodeGroup": _nodegroup,
    "aws:eks/addon:Addon": _addon,
    "aws:eks/accessEntry:AccessEntry": _access_entry,
    "aws:eks/accessPolicyAssociation:AccessPolicyAssociation": _access_policy_association,
    "eks:index:Cluster": _eks_cluster,
    "aws:eks/cluster:Cluster": _aws_eks_cluster,
    "aws:ec2/launchTemplate:LaunchTemplate": _launch_template,
    "aws:autoscaling/tag:Tag": _autoscaling_tag,
    "aws:iam/role:Role": _iam_role,
    "aws:iam/rolePolicyAttachment:RolePolicyAttachment": _role_policy_attachment,
    "aws:kms/key:Key": _kms_key,
}
_RULES: dict[str, Callable[[dict, _Stack], list[Violation]]] = {
    "eks:CreateNodegroup": _nodegroup_rules,
    "eks:CreateCluster": lambda params, stack: aws_rules.cluster_subnets(params),
    "ec2:CreateLaunchTemplate": lambda params, stack: aws_rules.gp3_volume_sizes(params.get("LaunchTemplateData") or {}),
}
