"""Create requests of the dedicated network, the autoscaler's inline policy and its Pod Identity association.

Each case starts from what the dev stack really registers (the session-wide `dev_run`, or one run with
`network.interfaceEndpoints: true`), changes one input the way a user or a refactoring could, and
asserts the request, member path and rule the check reports.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.facts.resource_types import (
    EIP,
    INTERNET_GATEWAY,
    NAT_GATEWAY,
    ROLE_POLICY,
    ROUTE,
    ROUTE_TABLE,
    SECURITY_GROUP,
    SUBNET,
    VPC,
)
from components.facts.resource_types import (
    POD_IDENTITY_ASSOCIATION as POD_IDENTITY,
)
from components.facts.resource_types import (
    ROUTE_TABLE_ASSOCIATION as ASSOCIATION,
)
from components.facts.resource_types import (
    VPC_ENDPOINT as ENDPOINT,
)
from components.stackcheck.aws.check import check_resources
from components.stackcheck.runtime import RegisteredResource
from tests.support.aws_request_cases import edited, only_problem, problems_of


def named(resource_type: str, suffix: str = "") -> Callable[[RegisteredResource], bool]:
    return lambda resource: resource.type == resource_type and resource.name.endswith(suffix)


@pytest.fixture(scope="module")
def endpoints_run():
    """The dev stack with interface endpoints (ECR, STS, EKS Auth) and their security group."""
    return run_stack(merge(dev_stack_config(), {"network": {"interfaceEndpoints": True}}))


def test_interface_endpoints_stack_makes_only_valid_checked_requests(endpoints_run):
    checks = check_resources(endpoints_run.resources)

    assert [c.failure_lines() for c in checks if not c.passed] == []
    assert all(c.checked for c in checks)
    group = next(c for c in checks if c.resource_type == SECURITY_GROUP)
    assert group.request_label == (
        "ec2:CreateSecurityGroup + ec2:RevokeSecurityGroupEgress + ec2:AuthorizeSecurityGroupIngress"
    )
    create, *_, ingress = group.requests
    vpc_cidr = next(r for r in endpoints_run.resources if r.type == VPC).inputs["cidrBlock"]
    assert ingress.params["IpPermissions"] == [
        {
            "IpProtocol": "tcp",
            "FromPort": 443,
            "ToPort": 443,
            "IpRanges": [{"CidrIp": vpc_cidr, "Description": "HTTPS from the VPC"}],
        }
    ]
    assert ingress.params["GroupId"].startswith("sg-") and create.params["VpcId"].startswith("vpc-")
    interface = [
        c.requests[0].params
        for c in checks
        if c.resource_type == ENDPOINT and c.requests[0].params["VpcEndpointType"] == "Interface"
    ]
    assert sorted(p["ServiceName"] for p in interface) == [
        f"com.amazonaws.us-west-2.{service}" for service in ("ecr.api", "ecr.dkr", "eks-auth", "sts")
    ]
    assert all(
        p["PrivateDnsEnabled"] is True
        and p["SecurityGroupIds"] == [ingress.params["GroupId"]]
        and len(p["SubnetIds"]) == 3
        for p in interface
    )


def test_network_requests_carry_the_registered_values_and_consistent_stand_in_ids(dev_run):
    checks = check_resources(dev_run.resources)
    requests = [request for c in checks for request in c.requests]
    (vpc_id,) = {r.params["VpcId"] for r in requests if r.label == "ec2:ModifyVpcAttribute"}
    subnets = [r.params for r in requests if r.label == "ec2:CreateSubnet"]
    registered = [r.inputs for r in dev_run.resources if r.type == SUBNET]

    assert re.fullmatch(r"vpc-[0-9a-f]{17}", vpc_id)
    assert [(s["VpcId"], s["CidrBlock"], s["AvailabilityZoneId"]) for s in subnets] == [
        (vpc_id, inputs["cidrBlock"], inputs["availabilityZoneId"]) for inputs in registered
    ]
    assert subnets[0]["TagSpecifications"] == [
        {
            "ResourceType": "subnet",
            "Tags": [{"Key": key, "Value": value} for key, value in registered[0]["tags"].items()],
        }
    ]
    modify = [r.params for r in requests if r.label == "ec2:ModifyVpcAttribute"]
    assert modify == [{"VpcId": vpc_id, "EnableDnsHostnames": {"Value": True}}]
    routes = [r.params for r in requests if r.label == "ec2:CreateRoute"]
    targets = sorted(
        (member, value.split("-")[0])
        for params in routes
        for member, value in params.items()
        if member in ("GatewayId", "NatGatewayId")
    )
    assert targets == [("GatewayId", "igw")] + [("NatGatewayId", "nat")] * 3
    nat = next(r.params for r in requests if r.label == "ec2:CreateNatGateway")
    assert nat["AllocationId"].startswith("eipalloc-") and nat["SubnetId"] in {
        a.params["SubnetId"] for a in requests if a.label == "ec2:AssociateRouteTable"
    }
    endpoint = next(r.params for r in requests if r.label == "ec2:CreateVpcEndpoint")
    assert endpoint["VpcEndpointType"] == "Gateway" and endpoint["PrivateDnsEnabled"] is False
    assert len(endpoint["RouteTableIds"]) == 3 and all(t.startswith("rtb-") for t in endpoint["RouteTableIds"])


# --- VPC and subnets ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cidr, passes, rule",
    [
        ("10.0.0.0/16", True, None),
        ("10.0.0.0/15", False, "a VPC IPv4 block is /16 (65,536 addresses) to /28 (16 addresses), this one is /15"),
        ("10.0.0.1/16", False, "has host bits set; the network address is 10.0.0.0/16"),
        ("10.0.0.0", False, "a VPC CIDR block is IPv4 CIDR notation"),
    ],
)
def test_vpc_cidr_block_size_and_form(dev_run, cidr, passes, rule):
    found = problems_of(*edited(dev_run, named(VPC), lambda inputs: inputs.update(cidrBlock=cidr)))

    assert (found == []) is passes
    if not passes:
        assert [(request, path, value) for request, path, value, _ in found] == [("ec2:CreateVpc", "CidrBlock", cidr)]
        assert found[0][3].startswith(rule)


@pytest.mark.parametrize(
    "cidr, rule",
    [
        ("10.1.0.0/24", "is not inside the VPC's block 10.0.0.0/16 (gpu-inference-dev-network-vpc)"),
        ("10.0.240.0/30", "a subnet IPv4 block is /16 (65,536 addresses) to /28 (16 addresses), this one is /30"),
        ("10.0.32.0/20", "overlaps subnet gpu-inference-dev-network-private-1 (10.0.32.0/19) of the same VPC"),
        ("10.0.64.0/19", "is the block of 2 subnets of the same VPC"),
    ],
)
def test_subnet_cidr_inside_its_vpc_sized_and_not_overlapping(dev_run, cidr, rule):
    request, path, value, found_rule = only_problem(
        dev_run, named(SUBNET, "-private-0"), lambda inputs: inputs.update(cidrBlock=cidr)
    )

    assert (request, path, value) == ("ec2:CreateSubnet", "CidrBlock", cidr)
    assert found_rule.startswith(rule)


def test_a_free_28_block_inside_the_vpc_is_a_valid_subnet(dev_run):
    assert (
        problems_of(
            *edited(dev_run, named(SUBNET, "-private-0"), lambda inputs: inputs.update(cidrBlock="10.0.240.0/28"))
        )
        == []
    )


def test_dns_hostnames_need_dns_support(dev_run):
    request, path, value, rule = only_problem(dev_run, named(VPC), lambda inputs: inputs.update(enableDnsSupport=False))

    assert (request, path, value) == ("ec2:ModifyVpcAttribute", "EnableDnsHostnames.Value", True)
    assert rule.startswith("DNS hostnames can only be enabled with DNS support")


# --- routes, associations, gateways ------------------------------------------------------------------


@pytest.mark.parametrize(
    "edit, path, rule",
    [
        pytest.param(
            lambda inputs: inputs.update(gatewayId="gpu-inference-dev-network-igw-id"),
            "GatewayId, NatGatewayId",
            "a route has exactly one target",
            id="route with both a gateway and a NAT gateway target",
        ),
        pytest.param(
            lambda inputs: inputs.pop("natGatewayId"),
            "target",
            "a route has exactly one target",
            id="route without a target",
        ),
        pytest.param(
            lambda inputs: inputs.update(destinationPrefixListId="pl-63a5400a"),
            "DestinationCidrBlock, DestinationPrefixListId",
            "a route has exactly one destination",
            id="route with both a CIDR and a prefix list destination",
        ),
    ],
)
def test_route_has_one_destination_and_one_target(dev_run, edit, path, rule):
    request, found_path, _, found_rule = only_problem(dev_run, named(ROUTE, "-private-0-nat"), edit)

    assert (request, found_path) == ("ec2:CreateRoute", path)
    assert found_rule.startswith(rule)


def test_route_to_an_id_of_the_wrong_kind_of_resource(dev_run):
    # nat_gateway_id given a subnet's id: the member takes a NAT gateway.
    request, path, value, rule = only_problem(
        dev_run, named(ROUTE, "-private-0-nat"), lambda inputs: inputs.update(natGatewayId=inputs["routeTableId"])
    )

    assert (request, path) == ("ec2:CreateRoute", "NatGatewayId") and value.startswith("rtb-")
    assert rule.startswith(
        "names a route table (rtb-) of this stack where the API takes the id of a NAT gateway (nat-)"
    )


def test_route_table_association_names_one_subnet_or_gateway(dev_run):
    request, path, _, rule = only_problem(
        dev_run,
        named(ASSOCIATION, "-public-0"),
        lambda inputs: inputs.update(gatewayId="gpu-inference-dev-network-igw-id"),
    )

    assert (request, path) == ("ec2:AssociateRouteTable", "SubnetId, GatewayId")
    assert rule.startswith("a route table association names exactly one subnet or gateway")


@pytest.mark.parametrize(
    "resource_type, edit, expected",
    [
        pytest.param(
            EIP,
            lambda inputs: inputs.update(domain="classic"),
            ("ec2:AllocateAddress", "Domain", "is not one of vpc, standard (ec2 model, shape DomainType)"),
            id="Elastic IP in the classic domain",
        ),
        pytest.param(
            NAT_GATEWAY,
            lambda inputs: inputs.update(connectivityType="internet"),
            (
                "ec2:CreateNatGateway",
                "ConnectivityType",
                "is not one of private, public (ec2 model, shape ConnectivityType)",
            ),
            id="NAT gateway with an unknown connectivity type",
        ),
        pytest.param(
            INTERNET_GATEWAY,
            lambda inputs: inputs["tags"].update({"aws:owner": "me"}),
            ("ec2:CreateInternetGateway", "TagSpecifications[0].Tags[3].Key", "tag keys starting with 'aws:'"),
            id="internet gateway tag key starting with aws:",
        ),
        pytest.param(
            ROUTE_TABLE,
            lambda inputs: inputs.pop("vpcId"),
            ("ec2:CreateRouteTable", "VpcId", "is required (ec2 model, shape CreateRouteTableRequest)"),
            id="route table without a VPC",
        ),
    ],
)
def test_gateway_address_and_route_table_requests_against_the_model(dev_run, resource_type, edit, expected):
    request, path, _, rule = only_problem(dev_run, named(resource_type), edit)

    assert (request, path) == expected[:2]
    assert rule.startswith(expected[2])


# --- VPC endpoints, security group ---------------------------------------------------------------------


def test_gateway_endpoint_takes_no_subnets(dev_run):
    request, path, _, rule = only_problem(
        dev_run,
        named(ENDPOINT, "-s3"),
        lambda inputs: inputs.update(subnetIds=["gpu-inference-dev-network-private-0-id"]),
    )

    assert (request, path) == ("ec2:CreateVpcEndpoint", "SubnetIds")
    assert rule.startswith("Gateway endpoints take no SubnetIds; only Interface, GatewayLoadBalancer")


def test_private_dns_of_interface_endpoints_needs_the_vpc_dns_attributes(endpoints_run):
    resources, endpoint = edited(endpoints_run, named(VPC), lambda inputs: inputs.update(enableDnsHostnames=False))
    checks = [c for c in check_resources(resources) if c.resource_type == ENDPOINT and not c.passed]

    assert len(checks) == 4  # ecr.api, ecr.dkr, sts, eks-auth; the S3 gateway endpoint has no private DNS
    assert all(
        [(label, v.path) for label, v in c.problems] == [("ec2:CreateVpcEndpoint", "PrivateDnsEnabled")] for c in checks
    )
    assert all(c.problems[0][1].value is True for c in checks)  # the value the request asks for, which fails
    assert (
        checks[0]
        .problems[0][1]
        .rule.startswith(
            "the VPC gpu-inference-dev-network-vpc needs enableDnsHostnames "
            "and enableDnsSupport set to true for private DNS"
        )
    )


@pytest.mark.parametrize(
    "edit, expected",
    [
        pytest.param(
            lambda inputs: inputs.update(name="sg-endpoints"),
            ("ec2:CreateSecurityGroup", "GroupName", "a security group name can't start with sg-"),
            id="security group name starting with sg-",
        ),
        pytest.param(
            lambda inputs: inputs.update(description="HTTPS → endpoints"),
            ("ec2:CreateSecurityGroup", "Description", "up to 255 of a-z, A-Z, 0-9, spaces"),
            id="security group description with an arrow",
        ),
        pytest.param(
            lambda inputs: inputs["ingress"][0].update(description="HTTPS from the VPC's nodes"),
            ("ec2:AuthorizeSecurityGroupIngress", "IpPermissions[0].IpRanges[0].Description", "up to 255 of a-z"),
            id="ingress rule description with an apostrophe",
        ),
        pytest.param(
            lambda inputs: inputs["ingress"][0].update(fromPort=443.5),
            ("ec2:AuthorizeSecurityGroupIngress", "IpPermissions[0].FromPort", "must be an integer"),
            id="ingress port that is not an integer",
        ),
    ],
)
def test_security_group_name_description_and_rules(endpoints_run, edit, expected):
    request, path, _, rule = only_problem(endpoints_run, named(SECURITY_GROUP), edit)

    assert (request, path) == expected[:2]
    assert rule.startswith(expected[2])


# --- IAM inline policy, Pod Identity association ----------------------------------------------------------


def padded_policy(non_whitespace: int, spaces: int = 0) -> str:
    """A policy document of `non_whitespace` characters that are not white space, plus `spaces` spaces."""
    base = {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "ec2:DescribeImages", "Resource": "*", "Sid": ""}],
    }
    filler = non_whitespace - len(json.dumps(base, separators=(",", ":")))
    base["Statement"][0]["Sid"] = "S" * filler
    return json.dumps(base, separators=(",", ":")) + " " * spaces


@pytest.mark.parametrize("non_whitespace, spaces, passes", [(10240, 0, True), (10240, 5000, True), (10241, 0, False)])
def test_inline_role_policy_within_the_iam_quota_not_counting_white_space(dev_run, non_whitespace, spaces, passes):
    policy = padded_policy(non_whitespace, spaces)
    found = problems_of(*edited(dev_run, named(ROLE_POLICY), lambda inputs: inputs.update(policy=policy)))

    assert (found == []) is passes
    if not passes:
        assert [(request, path, value) for request, path, value, _ in found] == [
            ("iam:PutRolePolicy", "PolicyDocument", "10241 characters")
        ]
        assert "IAM allows 10240 per role (IAM user guide, IAM and AWS STS quotas)" in found[0][3]


def test_inline_policies_of_one_role_count_together(dev_run):
    policy = next(r for r in dev_run.resources if named(ROLE_POLICY)(r))
    # Each document alone is within the quota; together with the autoscaler's scaling policy they are not.
    second = RegisteredResource(
        ROLE_POLICY,
        "extra",
        {"role": policy.inputs["role"], "policy": padded_policy(10000)},
        None,
        "urn",
        True,
        id="extra-id",
    )
    checks = {c.resource_name: c for c in check_resources(list(dev_run.resources) + [second])}
    alone = check_resources([r for r in dev_run.resources if r is not policy] + [second])

    assert [v.path for _, v in checks["extra"].problems] == ["PolicyDocument"]
    assert f"{policy.name} " in checks["extra"].problems[0][1].rule
    assert [v.path for _, v in checks[policy.name].problems] == ["PolicyDocument"]
    assert all(c.passed for c in alone)


def test_inline_policy_over_the_model_size_and_not_json(dev_run):
    found = problems_of(*edited(dev_run, named(ROLE_POLICY), lambda inputs: inputs.update(policy="{" * 131073)))

    rules = {rule.split(" (")[0] for _, path, _, rule in found if path == "PolicyDocument"}
    assert "has 131073 characters, allowed 1 to 131072" in rules
    assert any(rule.startswith("is not JSON") for rule in rules)


@pytest.mark.parametrize(
    "member, value, passes",
    [
        ("namespace", "kube-system", True),
        ("namespace", "Kube_System", False),
        ("namespace", "n" * 64, False),
        ("serviceAccount", "cluster-autoscaler.v1", True),
        ("serviceAccount", "cluster_autoscaler", False),
    ],
)
def test_pod_identity_association_names_kubernetes_can_have(dev_run, member, value, passes):
    found = problems_of(*edited(dev_run, named(POD_IDENTITY), lambda inputs: inputs.update({member: value})))

    assert (found == []) is passes
    if not passes:
        assert [(request, path, found_value) for request, path, found_value, _ in found] == [
            ("eks:CreatePodIdentityAssociation", member, value)
        ]
        assert "so no pod matches this association" in found[0][3]


def test_pod_identity_association_request_names_the_role_aws_creates(dev_run):
    association = next(c for c in check_resources(dev_run.resources) if c.resource_type == POD_IDENTITY)
    role_policy = next(c for c in check_resources(dev_run.resources) if c.resource_type == ROLE_POLICY)

    params = association.requests[0].params
    role_name = role_policy.requests[0].params["RoleName"]
    assert params["roleArn"].endswith(f":role/{role_name}") and role_name.endswith("-xxxxxxx")
    assert (params["namespace"], params["serviceAccount"], params["disableSessionTags"]) == (
        "kube-system",
        "cluster-autoscaler",
        False,
    )
    assert len(params["clientRequestToken"]) == 26
