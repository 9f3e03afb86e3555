"""Rules AWS and its provider enforce on a VPC's create requests that the EC2 model does not carry.

Each function takes a request in API member names (`stackcheck.aws.network_builders`) and the
`Stack` facts gathered from every resource (VPC CIDR blocks and DNS attributes, subnets), and returns
the `Violation`s it finds. Sources are named next to each rule.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from .api_models import UNKNOWN, Violation
from .builders import Stack
from .network_builders import MEMBER_PREFIXES, PREFIX_KINDS

# "The allowed size for an IPv4 subnet is between a /28 netmask (16 IP addresses) and a /16 netmask
# (65,536 IP addresses)" and "A subnet CIDR block must not overlap the CIDR block of an existing subnet
# in the VPC" (CreateSubnet documentation in botocore's EC2 model); a VPC's IPv4 block has the same
# bounds (Amazon VPC user guide, "VPC CIDR blocks"; terraform-provider-aws vpc_.go validates
# cidr_block with validation.IsCIDRNetwork(VPCCIDRMinIPv4 = 16, VPCCIDRMaxIPv4 = 28)).
CIDR_PREFIX_RANGE = (16, 28)
_CIDR_SOURCE = "EC2 CreateSubnet documentation; Amazon VPC user guide, VPC CIDR blocks"
# The provider validates `cidr_block` of a VPC (IsCIDRNetwork) and of a subnet, route and security group
# rule (verify.ValidIPv4CIDRNetworkAddress) as a network address: no host bits set.
_NETWORK_ADDRESS_SOURCE = "terraform-provider-aws vpc_.go / vpc_subnet.go, cidr_block validation"

# CreateSecurityGroup `GroupName` and `Description`, and the `Description` of IpRange, Ipv6Range,
# PrefixListId and UserIdGroupPair (botocore EC2 model documentation): "Up to 255 characters in length";
# "Valid characters: a-z, A-Z, 0-9, spaces, and ._-:/()#,@[]+=&;{}!$*"; a group name "Can't start with sg-".
SECURITY_GROUP_TEXT = re.compile(r"[a-zA-Z0-9 ._\-:/()#,@\[\]+=&;{}!$*]{0,255}")
_SECURITY_GROUP_SOURCE = "EC2 CreateSecurityGroup / IpRange documentation in the botocore model"

# What each kind of VPC endpoint takes (CreateVpcEndpoint member documentation in the botocore EC2
# model): RouteTableIds "(Gateway endpoint)"; SubnetIds "(Interface, Gateway Load Balancer endpoints,
# Resource, ServiceNetwork, and Tunnel endpoints only)"; SecurityGroupIds "(Interface, Resource,
# ServiceNetwork, and Tunnel endpoints only)"; PrivateDnsEnabled "(Interface endpoint)", and "To use a
# private hosted zone, you must set the following VPC attributes to true: enableDnsHostnames and
# enableDnsSupport".
ENDPOINT_MEMBER_TYPES = {
    "RouteTableIds": ("Gateway",),
    "SubnetIds": ("Interface", "GatewayLoadBalancer", "Resource", "ServiceNetwork", "Tunnel"),
    "SecurityGroupIds": ("Interface", "Resource", "ServiceNetwork", "Tunnel"),
}
_ENDPOINT_SOURCE = "EC2 CreateVpcEndpoint documentation in the botocore model"

# Which resource an id member names: the member documentation of the EC2 model (MEMBER_PREFIXES), where
# GatewayId is "The ID of an internet gateway or virtual private gateway attached to your VPC".
ID_MEMBERS = {**{member: (prefix,) for member, prefix in MEMBER_PREFIXES.items()}, "GatewayId": ("igw-", "vgw-")}

# CreateRoute: "You must specify either a destination CIDR block or a prefix list ID. You must also
# specify exactly one of the resources from the parameter list" (botocore EC2 model); the provider's
# schema makes both ExactlyOneOf (vpc_route.go, routeValidDestinations / routeValidTargets).
ROUTE_DESTINATIONS = ("DestinationCidrBlock", "DestinationIpv6CidrBlock", "DestinationPrefixListId")
ROUTE_TARGETS = (
    "CarrierGatewayId",
    "CoreNetworkArn",
    "EgressOnlyInternetGatewayId",
    "GatewayId",
    "InstanceId",
    "LocalGatewayId",
    "NatGatewayId",
    "NetworkInterfaceId",
    "TransitGatewayId",
    "VpcEndpointId",
    "VpcPeeringConnectionId",
    "OdbNetworkArn",
)


def parse_ipv4_network(text: Any) -> ipaddress.IPv4Network | None:
    """`text` as an IPv4 network, host bits allowed; None when it is not IPv4 CIDR notation."""
    if not isinstance(text, str) or "/" not in text:
        return None
    try:
        return ipaddress.IPv4Network(text, strict=False)
    except ValueError:
        return None


def cidr_block(cidr: Any, path: str, what: str) -> list[Violation]:
    """A VPC or subnet IPv4 block: CIDR notation, a network address, /16 to /28."""
    if cidr is None or cidr == UNKNOWN:
        return []
    network = parse_ipv4_network(cidr)
    if network is None:
        return [
            Violation(
                path, cidr, f"a {what} CIDR block is IPv4 CIDR notation, e.g. 10.0.0.0/16 ({_NETWORK_ADDRESS_SOURCE})"
            )
        ]
    found = []
    if str(network) != cidr:
        found.append(
            Violation(path, cidr, f"has host bits set; the network address is {network} ({_NETWORK_ADDRESS_SOURCE})")
        )
    low, high = CIDR_PREFIX_RANGE
    if not low <= network.prefixlen <= high:
        found.append(
            Violation(
                path,
                cidr,
                f"a {what} IPv4 block is /{low} (65,536 addresses) to /{high} "
                f"(16 addresses), this one is /{network.prefixlen} ({_CIDR_SOURCE})",
            )
        )
    return found


def vpc_request(params: dict, stack: Stack) -> list[Violation]:
    return cidr_block(params.get("CidrBlock"), "CidrBlock", "VPC")


def subnet_request(params: dict, stack: Stack) -> list[Violation]:
    """The subnet's block: well formed, inside its VPC's block, overlapping no other subnet of that VPC."""
    cidr = params.get("CidrBlock")
    found = cidr_block(cidr, "CidrBlock", "subnet")
    network = parse_ipv4_network(cidr)
    vpc = stack.vpcs.get(params.get("VpcId"))
    if network is None or found or vpc is None:
        return found
    vpc_network = parse_ipv4_network(vpc.get("cidr"))
    if vpc_network is not None and not network.subnet_of(vpc_network):
        found.append(
            Violation(
                "CidrBlock",
                cidr,
                f"is not inside the VPC's block {vpc_network} "
                f"({vpc.get('name')}); a subnet's block is the VPC's or a part of it "
                "(EC2 CreateSubnet documentation; Amazon VPC user guide, subnet sizing)",
            )
        )
    for name, vpc_id, other in stack.subnets:
        other_network = parse_ipv4_network(other)
        if (
            vpc_id == params.get("VpcId")
            and other != cidr
            and other_network is not None
            and network.overlaps(other_network)
        ):
            found.append(
                Violation(
                    "CidrBlock",
                    cidr,
                    f"overlaps subnet {name} ({other}) of the same VPC; "
                    "subnet blocks of a VPC must not overlap (EC2 CreateSubnet documentation)",
                )
            )
    same = [name for name, vpc_id, other in stack.subnets if vpc_id == params.get("VpcId") and other == cidr]
    if len(same) > 1:
        found.append(
            Violation(
                "CidrBlock",
                cidr,
                f"is the block of {len(same)} subnets of the same VPC "
                f"({', '.join(same)}); subnet blocks must not overlap (EC2 CreateSubnet documentation)",
            )
        )
    return found


def vpc_attribute(params: dict, stack: Stack) -> list[Violation]:
    """ "You can only enable DNS hostnames if you've enabled DNS support" (ModifyVpcAttribute, EC2 model)."""
    hostnames = (params.get("EnableDnsHostnames") or {}).get("Value")
    vpc = stack.vpcs.get(params.get("VpcId")) or {}
    if hostnames is True and vpc.get("dnsSupport") is False:
        return [
            Violation(
                "EnableDnsHostnames.Value",
                True,
                "DNS hostnames can only be enabled with DNS support "
                "(enableDnsSupport is false) (EC2 ModifyVpcAttribute documentation in the botocore model)",
            )
        ]
    return []


def endpoint_request(params: dict, stack: Stack) -> list[Violation]:
    kind = params.get("VpcEndpointType")
    found = [
        Violation(
            member,
            params[member],
            f"{kind} endpoints take no {member}; only {', '.join(kinds)} endpoints do ({_ENDPOINT_SOURCE})",
        )
        for member, kinds in ENDPOINT_MEMBER_TYPES.items()
        if params.get(member) and kind not in kinds
    ]
    if params.get("PrivateDnsEnabled") is True:
        if kind != "Interface":
            found.append(
                Violation(
                    "PrivateDnsEnabled",
                    True,
                    f"private DNS is for Interface endpoints, this one is {kind} ({_ENDPOINT_SOURCE})",
                )
            )
        vpc = stack.vpcs.get(params.get("VpcId"))
        if vpc is not None and not (vpc.get("dnsSupport") and vpc.get("dnsHostnames")):
            found.append(
                Violation(
                    "PrivateDnsEnabled",
                    True,
                    f"the VPC {vpc.get('name')} needs enableDnsHostnames "
                    "and enableDnsSupport set to true for private DNS "
                    f"(enableDnsHostnames={vpc.get('dnsHostnames')}, "
                    f"enableDnsSupport={vpc.get('dnsSupport')}) ({_ENDPOINT_SOURCE})",
                )
            )
    return found


def route_request(params: dict, stack: Stack | None = None) -> list[Violation]:
    found = []
    for members, what in ((ROUTE_DESTINATIONS, "destination"), (ROUTE_TARGETS, "target")):
        given = [member for member in members if params.get(member)]
        if len(given) != 1:
            found.append(
                Violation(
                    ", ".join(given) or what,
                    [params[m] for m in given] or None,
                    f"a route has exactly one {what} ({', '.join(members)}); this one has "
                    f"{len(given)} (EC2 CreateRoute documentation; terraform-provider-aws "
                    "vpc_route.go, ExactlyOneOf)",
                )
            )
    return found


def association_request(params: dict, stack: Stack) -> list[Violation]:
    given = [member for member in ("SubnetId", "GatewayId") if params.get(member)]
    if len(given) == 1:
        return []
    return [
        Violation(
            ", ".join(given) or "SubnetId",
            [params[m] for m in given] or None,
            "a route table association names exactly one subnet or gateway (terraform-provider-aws "
            "vpc_route_table_association.go, ExactlyOneOf subnet_id / gateway_id)",
        )
    ]


def security_group_request(params: dict, stack: Stack) -> list[Violation]:
    found = []
    for member in ("GroupName", "Description"):
        text = params.get(member)
        if isinstance(text, str) and not SECURITY_GROUP_TEXT.fullmatch(text):
            found.append(
                Violation(
                    member,
                    text,
                    f"up to 255 of a-z, A-Z, 0-9, spaces and ._-:/()#,@[]+=&;{{}}!$* ({_SECURITY_GROUP_SOURCE})",
                )
            )
    name = params.get("GroupName")
    if isinstance(name, str) and name.startswith("sg-"):  # terraform-provider-aws matches `^sg-` the same way
        found.append(
            Violation("GroupName", name, f"a security group name can't start with sg- ({_SECURITY_GROUP_SOURCE})")
        )
    return found


def permission_descriptions(params: dict, stack: Stack) -> list[Violation]:
    found = []
    for index, permission in enumerate(params.get("IpPermissions") or []):
        for kind in ("IpRanges", "Ipv6Ranges", "PrefixListIds", "UserIdGroupPairs"):
            for position, item in enumerate(permission.get(kind) or []):
                text = item.get("Description")
                if isinstance(text, str) and not SECURITY_GROUP_TEXT.fullmatch(text):
                    found.append(
                        Violation(
                            f"IpPermissions[{index}].{kind}[{position}].Description",
                            text,
                            "up to 255 of a-z, A-Z, 0-9, spaces and ._-:/()#,@[]+=&;{}!$* "
                            f"({_SECURITY_GROUP_SOURCE})",
                        )
                    )
                cidr = item.get("CidrIp")
                if isinstance(cidr, str) and parse_ipv4_network(cidr) is None:
                    found.append(
                        Violation(
                            f"IpPermissions[{index}].{kind}[{position}].CidrIp",
                            cidr,
                            f"is not IPv4 CIDR notation ({_NETWORK_ADDRESS_SOURCE})",
                        )
                    )
    return found


def _kind(prefix: str) -> str:
    """What ids that start with `prefix` name, with its prefix: "an internet gateway (igw-)"."""
    return f"{PREFIX_KINDS[prefix]} ({prefix})"


def referenced_kinds(params: dict, stack: Stack) -> list[Violation]:
    """An id member that names another resource of the stack names one of the kind the member takes."""
    ours = {stand_in for kinds in stack.ids.values() for stand_in in kinds.values()}
    found = []
    for member, prefixes in ID_MEMBERS.items():
        value = params.get(member)
        for index, item in enumerate(value if isinstance(value, list) else [value]):
            if isinstance(item, str) and item in ours and not item.startswith(prefixes):
                where = f"{member}[{index}]" if isinstance(value, list) else member
                found.append(
                    Violation(
                        where,
                        item,
                        f"names {_kind(item.rsplit('-', 1)[0] + '-')} of this stack where the API takes the id of "
                        f"{' or '.join(_kind(prefix) for prefix in prefixes)} "
                        "(member documentation in the botocore EC2 model)",
                    )
                )
    return found
