"""Whether AWS would accept the requests a stack's resources make when created.

Each AWS resource the program registers (`stackcheck.runtime.RegisteredResource`: type, name,
camelCase inputs, mock id) becomes the create requests its provider sends (`stackcheck.aws.builders`),
for example `aws:eks/nodeGroup:NodeGroup` -> EKS CreateNodegroup. Each request is checked against
botocore's model (`stackcheck.aws.api_models`) and the rules the models do not carry (`stackcheck.aws.rules`).
AWS resources without a mapping are listed as not checked; secret values are checked but never shown.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...facts.resource_types import LAUNCH_TEMPLATE, ROLE, ROLE_POLICY, SUBNET, VPC
from ..mock_answers import mock_role_arn
from ..runtime import Secret
from . import network_rules, rules
from .api_models import Violation, validate
from .builders import BUILDERS, Request, Stack, launch_template_request, ref, resource_name_of
from .eks_builders import EKS_BUILDERS
from .messaging_builders import MESSAGING_BUILDERS
from .network_builders import NETWORK_BUILDERS, stand_in_ids

SECRET_SHOWN = "[secret]"


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
        return [
            f"{self.resource_type} {self.resource_name}: {label} {violation.describe()}"
            for label, violation in self.problems
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.resource_type,
            "name": self.resource_name,
            "requests": [r.label for r in self.requests],
            "checked": self.checked,
            "passed": self.passed,
            "notes": self.notes,
            "problems": [
                {"request": label, "path": v.path, "value": v.value, "rule": v.rule} for label, v in self.problems
            ],
        }


def is_aws_resource(resource: Any) -> bool:
    """Resources the AWS provider or pulumi-eks create: everything else is Kubernetes, a provider or a component."""
    return resource.type.startswith("aws:") or resource.type.startswith("eks:")


def check_resources(resources: list[Any], partition: str = "aws") -> list[RequestCheck]:
    """The request check of every AWS resource in registration order, deployed to `partition`."""
    stack = build_stack(resources, partition)
    return [_checked(resource, stack) for resource in stack.resources]


def build_stack(resources: list[Any], partition: str = "aws") -> Stack:
    """What requests need to know of other resources: real role names and ARNs, launch template data,
    stand-in ids of network resources, VPC blocks and DNS attributes, subnets, inline policies per role."""
    stack = Stack([resource for resource in resources if is_aws_resource(resource)], partition)
    stack.ids = stand_in_ids(stack.resources)
    for resource in stack.resources:
        inputs = plain(resource.inputs)
        if not isinstance(inputs, dict):
            continue
        if resource.type == ROLE:
            role_name = resource_name_of(inputs, resource.name)
            # Under mocks a role's name and id are its resource name and `<name>-id`; AWS uses the role name.
            stack.role_names[resource.name] = stack.role_names[resource.id] = role_name
            stack.role_arns[mock_role_arn(resource.name, partition)] = mock_role_arn(role_name, partition)
            for policy in inputs.get("inlinePolicies") or []:
                if isinstance(policy, dict) and policy.get("policy"):
                    stack.inline_policies.setdefault(role_name, []).append(
                        (f"{resource.name} inlinePolicies", policy["policy"])
                    )
        elif resource.type == ROLE_POLICY:
            role = inputs.get("role")
            stack.inline_policies.setdefault(stack.role_names.get(role, role), []).append(
                (resource.name, inputs.get("policy"))
            )
        elif resource.type == VPC:
            stack.vpcs[ref(stack, resource.id, "vpc-")] = {
                "name": resource.name,
                "cidr": inputs.get("cidrBlock"),
                # the provider's defaults (vpc_.go): DNS support on, DNS hostnames off
                "dnsSupport": inputs.get("enableDnsSupport", True),
                "dnsHostnames": inputs.get("enableDnsHostnames", False),
            }
        elif resource.type == SUBNET:
            stack.subnets.append((resource.name, ref(stack, inputs.get("vpcId"), "vpc-"), inputs.get("cidrBlock")))
        elif resource.type == LAUNCH_TEMPLATE:
            data = launch_template_request(inputs, resource.name).params["LaunchTemplateData"]
            stack.templates[resource.id] = data
            stack.templates[resource_name_of(inputs, resource.name)] = data
    return stack


def _checked(resource: Any, stack: Stack) -> RequestCheck:
    """`check_resource`, with inputs of a shape no builder expects reported as not checked instead of a crash."""
    try:
        return check_resource(resource, stack)
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        return RequestCheck(
            resource.type,
            resource.name,
            checked=False,
            notes=[f"not checked: the inputs could not be read as a request ({type(error).__name__}: {error})"],
        )


def check_resource(resource: Any, stack: Stack | None = None) -> RequestCheck:
    """Build and check the requests of one resource; `stack` lets it see the resources it refers to."""
    stack = stack or build_stack([resource])
    result = RequestCheck(resource.type, resource.name)
    builder = (
        BUILDERS.get(resource.type)
        or EKS_BUILDERS.get(resource.type)
        or NETWORK_BUILDERS.get(resource.type)
        or MESSAGING_BUILDERS.get(resource.type)
    )
    if builder is None:
        result.checked = False
        result.notes.append("not checked: no request mapping for this resource type")
        return result
    inputs = plain(resource.inputs)
    secrets = secret_values(resource.inputs)
    result.requests = builder(inputs, resource, stack, result.notes)
    for request in result.requests:
        found = validate(request.service, request.operation, request.params)
        found += rules.reserved_tag_keys(request.params)
        found += _RULES.get(request.label, lambda params, _stack: [])(request.params, stack)
        if request.service == "ec2":
            found += network_rules.referenced_kinds(request.params, stack)
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


def _nodegroup_rules(params: dict, stack: Stack) -> list[Violation]:
    template = params.get("launchTemplate") or {}
    data = stack.templates.get(template.get("id")) or stack.templates.get(template.get("name"))
    return (
        rules.nodegroup_name(params)
        + rules.node_labels(params)
        + rules.taint_count(params)
        + rules.nodegroup_with_launch_template(params, data)
    )


def _role_policy_rules(params: dict, stack: Stack) -> list[Violation]:
    role = params.get("RoleName")
    return rules.policy_document(params.get("PolicyDocument")) + rules.role_inline_policies(
        role, stack.inline_policies.get(role, [])
    )


_RULES: dict[str, Callable[[dict, Stack], list[Violation]]] = {
    "eks:CreateNodegroup": _nodegroup_rules,
    "eks:CreateCluster": lambda params, stack: rules.cluster_subnets(params) + rules.auto_mode(params),
    "ec2:CreateLaunchTemplate": lambda params, stack: rules.block_devices(params.get("LaunchTemplateData") or {}),
    "ec2:CreateVpc": network_rules.vpc_request,
    "ec2:ModifyVpcAttribute": network_rules.vpc_attribute,
    "ec2:CreateSubnet": network_rules.subnet_request,
    "ec2:CreateRoute": network_rules.route_request,
    "ec2:AssociateRouteTable": network_rules.association_request,
    "ec2:CreateVpcEndpoint": network_rules.endpoint_request,
    "ec2:CreateSecurityGroup": network_rules.security_group_request,
    "ec2:AuthorizeSecurityGroupIngress": network_rules.permission_descriptions,
    "ec2:AuthorizeSecurityGroupEgress": network_rules.permission_descriptions,
    "iam:PutRolePolicy": _role_policy_rules,
    "eks:CreatePodIdentityAssociation": lambda params, stack: rules.pod_identity_names(params),
}
