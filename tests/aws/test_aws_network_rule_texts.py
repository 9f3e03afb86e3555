"""Every rule of `stackcheck.aws.network_rules` on a request it refuses: each violation's place, value and whole
rule text, and no other violation, against a stack of one VPC (DNS support without DNS hostnames) and three
subnets, two of which share a block."""

from __future__ import annotations

import pytest

from components.stackcheck.aws import network_rules as rules
from components.stackcheck.aws.builders import Stack

VPC = "vpc-0123456789abcdef0"
SUBNET = "subnet-0123456789abcdef0"
TABLE = "rtb-0123456789abcdef0"
STACK = Stack(
    resources=[],
    vpcs={VPC: {"name": "gpu-vpc", "cidr": "10.0.0.0/16", "dnsSupport": True, "dnsHostnames": False}},
    subnets=[("a", VPC, "10.0.0.0/24"), ("b", VPC, "10.0.0.0/24"), ("c", VPC, "10.0.1.0/24")],
    ids={"x-id": {"subnet-": SUBNET, "rtb-": TABLE}},
)
_ADDRESS = "(terraform-provider-aws vpc_.go / vpc_subnet.go, cidr_block validation)"
_ENDPOINT = "(EC2 CreateVpcEndpoint documentation in the botocore model)"
_GROUP_TEXT = (
    "up to 255 of a-z, A-Z, 0-9, spaces and ._-:/()#,@[]+=&;{}!$* (EC2 CreateSecurityGroup / IpRange documentation "
    "in the botocore model)"
)
_PRIVATE_DNS = (
    "PrivateDnsEnabled",
    True,
    "the VPC gpu-vpc needs enableDnsHostnames and enableDnsSupport set to true for private DNS "
    f"(enableDnsHostnames=False, enableDnsSupport=True) {_ENDPOINT}",
)
_TARGETS = (
    "CarrierGatewayId, CoreNetworkArn, EgressOnlyInternetGatewayId, GatewayId, InstanceId, LocalGatewayId, "
    "NatGatewayId, NetworkInterfaceId, TransitGatewayId, VpcEndpointId, VpcPeeringConnectionId, OdbNetworkArn"
)
_ROUTE = "(EC2 CreateRoute documentation; terraform-provider-aws vpc_route.go, ExactlyOneOf)"
_ASSOCIATION = (
    "a route table association names exactly one subnet or gateway (terraform-provider-aws "
    "vpc_route_table_association.go, ExactlyOneOf subnet_id / gateway_id)"
)
_KIND = "(member documentation in the botocore EC2 model)"


@pytest.mark.parametrize(
    ("rule", "params", "expected"),
    [
        pytest.param(
            rules.vpc_request,
            {"CidrBlock": "10.0.0.0"},
            [("CidrBlock", "10.0.0.0", f"a VPC CIDR block is IPv4 CIDR notation, e.g. 10.0.0.0/16 {_ADDRESS}")],
            id="a VPC block without its prefix length",
        ),
        pytest.param(
            rules.vpc_request,
            {"CidrBlock": "10.0.0.1/15"},
            [
                ("CidrBlock", "10.0.0.1/15", f"has host bits set; the network address is 10.0.0.0/15 {_ADDRESS}"),
                (
                    "CidrBlock",
                    "10.0.0.1/15",
                    "a VPC IPv4 block is /16 (65,536 addresses) to /28 (16 addresses), this one is /15 (EC2 "
                    "CreateSubnet documentation; Amazon VPC user guide, VPC CIDR blocks)",
                ),
            ],
            id="a VPC block with host bits, wider than /16",
        ),
        pytest.param(
            rules.subnet_request,
            {"CidrBlock": "10.1.0.0/24", "VpcId": VPC},
            [
                (
                    "CidrBlock",
                    "10.1.0.0/24",
                    "is not inside the VPC's block 10.0.0.0/16 (gpu-vpc); a subnet's block is the VPC's or a part of "
                    "it (EC2 CreateSubnet documentation; Amazon VPC user guide, subnet sizing)",
                )
            ],
            id="a subnet outside its VPC",
        ),
        pytest.param(
            rules.subnet_request,
            {"CidrBlock": "10.0.0.0/24", "VpcId": VPC},
            [
                (
                    "CidrBlock",
                    "10.0.0.0/24",
                    "is the block of 2 subnets of the same VPC (a, b); subnet blocks must not overlap (EC2 "
                    "CreateSubnet documentation)",
                )
            ],
            id="two subnets of one block",
        ),
        pytest.param(
            rules.subnet_request,
            {"CidrBlock": "10.0.1.0/25", "VpcId": VPC},
            [
                (
                    "CidrBlock",
                    "10.0.1.0/25",
                    "overlaps subnet c (10.0.1.0/24) of the same VPC; subnet blocks of a VPC must not overlap (EC2 "
                    "CreateSubnet documentation)",
                )
            ],
            id="a subnet inside another",
        ),
        pytest.param(
            rules.endpoint_request,
            {
                "VpcEndpointType": "Gateway",
                "SubnetIds": ["s"],
                "SecurityGroupIds": ["g"],
                "PrivateDnsEnabled": True,
                "VpcId": VPC,
            },
            [
                (
                    "SubnetIds",
                    ["s"],
                    "Gateway endpoints take no SubnetIds; only Interface, GatewayLoadBalancer, Resource, "
                    f"ServiceNetwork, Tunnel endpoints do {_ENDPOINT}",
                ),
                (
                    "SecurityGroupIds",
                    ["g"],
                    "Gateway endpoints take no SecurityGroupIds; only Interface, Resource, ServiceNetwork, Tunnel "
                    f"endpoints do {_ENDPOINT}",
                ),
                ("PrivateDnsEnabled", True, f"private DNS is for Interface endpoints, this one is Gateway {_ENDPOINT}"),
                _PRIVATE_DNS,
            ],
            id="a gateway endpoint with an interface endpoint's members",
        ),
        pytest.param(
            rules.endpoint_request,
            {"VpcEndpointType": "Interface", "RouteTableIds": ["r"], "PrivateDnsEnabled": True, "VpcId": VPC},
            [
                (
                    "RouteTableIds",
                    ["r"],
                    f"Interface endpoints take no RouteTableIds; only Gateway endpoints do {_ENDPOINT}",
                ),
                _PRIVATE_DNS,
            ],
            id="an interface endpoint with route tables, private DNS without DNS hostnames",
        ),
        pytest.param(
            rules.route_request,
            {},
            [
                (
                    "destination",
                    None,
                    "a route has exactly one destination (DestinationCidrBlock, DestinationIpv6CidrBlock, "
                    f"DestinationPrefixListId); this one has 0 {_ROUTE}",
                ),
                ("target", None, f"a route has exactly one target ({_TARGETS}); this one has 0 {_ROUTE}"),
            ],
            id="a route of nothing to nowhere",
        ),
        pytest.param(
            rules.route_request,
            {"DestinationCidrBlock": "0.0.0.0/0", "GatewayId": "igw-1", "NatGatewayId": "nat-1"},
            [
                (
                    "GatewayId, NatGatewayId",
                    ["igw-1", "nat-1"],
                    f"a route has exactly one target ({_TARGETS}); this one has 2 {_ROUTE}",
                )
            ],
            id="a route to two targets",
        ),
        pytest.param(rules.association_request, {}, [("SubnetId", None, _ASSOCIATION)], id="an association of none"),
        pytest.param(
            rules.association_request,
            {"SubnetId": "s", "GatewayId": "g"},
            [("SubnetId, GatewayId", ["s", "g"], _ASSOCIATION)],
            id="an association of a subnet and a gateway",
        ),
        pytest.param(
            rules.security_group_request,
            {"GroupName": "sg-x", "Description": "é"},
            [
                ("Description", "é", _GROUP_TEXT),
                (
                    "GroupName",
                    "sg-x",
                    "a security group name can't start with sg- (EC2 CreateSecurityGroup / IpRange documentation in "
                    "the botocore model)",
                ),
            ],
            id="a group named sg-, described with an accent",
        ),
        pytest.param(
            rules.permission_descriptions,
            {
                "IpPermissions": [
                    {},
                    {
                        "UserIdGroupPairs": [{"Description": "ok"}, {"Description": "<b>"}],
                        "IpRanges": [{"CidrIp": "10.0.0.0"}],
                        "Ipv6Ranges": [{"Description": "<v6>"}],
                        "PrefixListIds": [{"Description": "<pl>"}],
                    },
                ]
            },
            [
                ("IpPermissions[1].IpRanges[0].CidrIp", "10.0.0.0", f"is not IPv4 CIDR notation {_ADDRESS}"),
                ("IpPermissions[1].Ipv6Ranges[0].Description", "<v6>", _GROUP_TEXT),
                ("IpPermissions[1].PrefixListIds[0].Description", "<pl>", _GROUP_TEXT),
                ("IpPermissions[1].UserIdGroupPairs[1].Description", "<b>", _GROUP_TEXT),
            ],
            id="a rule's CIDR without its length, descriptions with '<' in each kind of range",
        ),
        pytest.param(
            rules.referenced_kinds,
            {"SubnetId": TABLE, "RouteTableIds": [TABLE, SUBNET]},
            [
                (
                    "SubnetId",
                    TABLE,
                    f"names a route table (rtb-) of this stack where the API takes the id of a subnet (subnet-) {_KIND}",
                ),
                (
                    "RouteTableIds[1]",
                    SUBNET,
                    f"names a subnet (subnet-) of this stack where the API takes the id of a route table (rtb-) {_KIND}",
                ),
            ],
            id="a route table named as a subnet, a subnet among route tables",
        ),
        pytest.param(
            rules.referenced_kinds,
            {"GatewayId": SUBNET},
            [
                (
                    "GatewayId",
                    SUBNET,
                    "names a subnet (subnet-) of this stack where the API takes the id of an internet gateway (igw-) or a "
                    f"virtual private gateway (vgw-) {_KIND}",
                )
            ],
            id="a subnet named as a gateway, which takes either of two kinds",
        ),
    ],
)
def test_each_violation_has_its_place_value_and_whole_rule(rule, params, expected):
    assert [(found.path, found.value, found.rule) for found in rule(params, STACK)] == expected


def test_dns_hostnames_without_dns_support_is_refused_with_its_reason():
    stack = Stack(resources=[], vpcs={"v": {"dnsSupport": False}})

    found = rules.vpc_attribute({"EnableDnsHostnames": {"Value": True}, "VpcId": "v"}, stack)

    assert [(violation.path, violation.value, violation.rule) for violation in found] == [
        (
            "EnableDnsHostnames.Value",
            True,
            "DNS hostnames can only be enabled with DNS support (enableDnsSupport is false) (EC2 ModifyVpcAttribute "
            "documentation in the botocore model)",
        )
    ]


def test_every_id_prefix_a_rule_can_name_has_its_kind_in_words():
    from components.stackcheck.aws.network_builders import ID_PREFIXES, PREFIX_KINDS

    prefixes = {prefix for kinds in rules.ID_MEMBERS.values() for prefix in kinds} | set(ID_PREFIXES.values())

    assert prefixes == set(PREFIX_KINDS)
    assert rules._kind("eipalloc-") == "an Elastic IP allocation (eipalloc-)"
