"""The EC2 requests terraform-provider-aws (under pulumi-aws) makes to create a VPC and its network.

Each builder mirrors the provider's create function named in its docstring (read in
hashicorp/terraform-provider-aws internal/service/ec2/) and returns the calls in botocore's member
names. Ids of other resources of the stack are replaced by stand-ins of the shape AWS gives them
(`subnet-00000000000000003`), so that a request reads as AWS would receive it and a rule can tell
which resource an id names. Tags go in `TagSpecifications` with the resource type the provider
passes (getTagSpecificationsIn with types.ResourceType*).
"""

from __future__ import annotations

from typing import Any

from ...facts.resource_types import (
    EIP,
    INTERNET_GATEWAY,
    NAT_GATEWAY,
    ROUTE,
    ROUTE_TABLE,
    ROUTE_TABLE_ASSOCIATION,
    SECURITY_GROUP,
    SUBNET,
    VPC,
    VPC_ENDPOINT,
)
from .builders import (
    UNIQUE_ID,
    Builder,
    Request,
    Stack,
    _drop_none,
    _name,
    _note_unmapped,
    _tag_list,
    _taken,
    ref,
)

# The provider files were read at these commits of hashicorp/terraform-provider-aws: vpc_.go 00081ce4,
# vpc_subnet.go 00cda125, vpc_internet_gateway.go 08923b68, vpc_route_table.go 02209241, vpc_route.go
# 0128541e, vpc_route_table_association.go (create unchanged across the versions read), ec2_eip.go 01606926,
# vpc_nat_gateway.go 04088eaa, vpc_endpoint.go 008db85a, vpc_security_group.go 01606926.

# The prefix of each resource type's id (the ids AWS returns, e.g. the provider's eipID.IsVPC tests
# "eipalloc-"; an `aws.ec2.Eip`'s id is its allocation id, an `aws.ec2.Route`'s is table + destination).
ID_PREFIXES = {
    VPC: "vpc-",
    SUBNET: "subnet-",
    INTERNET_GATEWAY: "igw-",
    ROUTE_TABLE: "rtb-",
    ROUTE_TABLE_ASSOCIATION: "rtbassoc-",
    EIP: "eipalloc-",
    NAT_GATEWAY: "nat-",
    VPC_ENDPOINT: "vpce-",
    SECURITY_GROUP: "sg-",
}

# What each id prefix names, with its article, for messages ("an internet gateway (igw-)").
PREFIX_KINDS = {
    "vpc-": "a VPC",
    "subnet-": "a subnet",
    "igw-": "an internet gateway",
    "vgw-": "a virtual private gateway",
    "rtb-": "a route table",
    "rtbassoc-": "a route table association",
    "eipalloc-": "an Elastic IP allocation",
    "nat-": "a NAT gateway",
    "vpce-": "a VPC endpoint",
    "sg-": "a security group",
}

# Route destinations and targets: Pulumi input -> CreateRoute member (vpc_route.go, resourceRouteCreate;
# the inline `route` blocks of a route table use `cidrBlock`/`ipv6CidrBlock` for the destination).
ROUTE_DESTINATIONS = {
    "destinationCidrBlock": "DestinationCidrBlock",
    "cidrBlock": "DestinationCidrBlock",
    "destinationIpv6CidrBlock": "DestinationIpv6CidrBlock",
    "ipv6CidrBlock": "DestinationIpv6CidrBlock",
    "destinationPrefixListId": "DestinationPrefixListId",
}
ROUTE_TARGETS = {
    "carrierGatewayId": "CarrierGatewayId",
    "coreNetworkArn": "CoreNetworkArn",
    "egressOnlyGatewayId": "EgressOnlyInternetGatewayId",
    "gatewayId": "GatewayId",
    "instanceId": "InstanceId",
    "localGatewayId": "LocalGatewayId",
    "natGatewayId": "NatGatewayId",
    "networkInterfaceId": "NetworkInterfaceId",
    "transitGatewayId": "TransitGatewayId",
    "vpcEndpointId": "VpcEndpointId",
    "vpcPeeringConnectionId": "VpcPeeringConnectionId",
}

# The kind of id each request member takes (its documentation in the botocore EC2 model: "The ID of the
# VPC", "The ID of a NAT gateway", "The ID of an internet gateway or virtual private gateway ...").
MEMBER_PREFIXES = {
    "VpcId": "vpc-",
    "SubnetId": "subnet-",
    "SubnetIds": "subnet-",
    "RouteTableId": "rtb-",
    "RouteTableIds": "rtb-",
    "NatGatewayId": "nat-",
    "AllocationId": "eipalloc-",
    "SecondaryAllocationIds": "eipalloc-",
    "InternetGatewayId": "igw-",
    "GatewayId": "igw-",
    "SecurityGroupIds": "sg-",
    "GroupId": "sg-",
    "VpcEndpointId": "vpce-",
}


def _refs(params: dict, stack: Stack) -> dict:
    """`params` with every id member that names a resource of the stack given that resource's stand-in id."""
    return {
        member: ref(stack, value, MEMBER_PREFIXES[member]) if member in MEMBER_PREFIXES else value
        for member, value in params.items()
    }


# The pulumi_aws SDK gives `aws.ec2.SecurityGroup` the description "Managed by Pulumi" when none is set
# (pulumi_aws/ec2/security_group.py, 7.51.1; Terraform's own default is "Managed by Terraform"); the
# stand-in matters only for resources registered without the SDK.
DEFAULT_SECURITY_GROUP_DESCRIPTION = "Managed by Pulumi"


def stand_in_ids(resources: list[Any]) -> dict[str, dict[str, str]]:
    """Mock id -> {prefix: an id of the AWS shape (prefix + 17 hex digits)} for every network resource."""
    ids: dict[str, dict[str, str]] = {}
    for number, resource in enumerate(resources, start=1):
        prefix = ID_PREFIXES.get(resource.type)
        if prefix and resource.id:
            ids.setdefault(resource.id, {})[prefix] = f"{prefix}{number:017x}"
    return ids


def _own_id(resource: Any, stack: Stack) -> str:
    prefix = ID_PREFIXES.get(resource.type, "")
    return (stack.ids.get(resource.id) or {}).get(prefix) or f"{prefix}{0:017x}"


def _tags(inputs: dict, resource_type: str) -> list[dict[str, Any]] | None:
    tags = _tag_list(inputs.get("tags"))
    return [{"ResourceType": resource_type, "Tags": tags}] if tags else None


def _vpc(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """internal/service/ec2/vpc_.go, resourceVPCCreate, then modifyVPCAttributesOnCreate.

    CreateVpc always carries AmazonProvidedIpv6CidrBlock and InstanceTenancy (default "default"). A new
    VPC has DNS hostnames off, DNS support on and address usage metrics off; the provider sends one
    ModifyVpcAttribute per attribute that differs, hostnames first (the API takes one attribute a call).
    """
    params = _taken(
        inputs,
        {
            "cidrBlock": "CidrBlock",
            "ipv4IpamPoolId": "Ipv4IpamPoolId",
            "ipv4NetmaskLength": "Ipv4NetmaskLength",
            "ipv6CidrBlock": "Ipv6CidrBlock",
            "ipv6CidrBlockNetworkBorderGroup": "Ipv6CidrBlockNetworkBorderGroup",
            "ipv6IpamPoolId": "Ipv6IpamPoolId",
            "ipv6NetmaskLength": "Ipv6NetmaskLength",
        },
        notes,
        ignored=(
            "assignGeneratedIpv6CidrBlock",
            "instanceTenancy",
            "tags",
            "enableDnsHostnames",
            "enableDnsSupport",
            "enableNetworkAddressUsageMetrics",
        ),
    )
    params["AmazonProvidedIpv6CidrBlock"] = bool(inputs.get("assignGeneratedIpv6CidrBlock", False))
    params["InstanceTenancy"] = inputs.get("instanceTenancy") or "default"
    if _tags(inputs, "vpc"):
        params["TagSpecifications"] = _tags(inputs, "vpc")
    requests = [Request("ec2", "CreateVpc", params)]
    vpc_id = _own_id(resource, stack)
    for key, member, initial in (
        ("enableDnsHostnames", "EnableDnsHostnames", False),
        ("enableDnsSupport", "EnableDnsSupport", True),
        ("enableNetworkAddressUsageMetrics", "EnableNetworkAddressUsageMetrics", False),
    ):
        wanted = inputs.get(key)
        if wanted is not None and wanted != initial:
            requests.append(Request("ec2", "ModifyVpcAttribute", {"VpcId": vpc_id, member: {"Value": wanted}}))
    return requests


def _subnet(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """internal/service/ec2/vpc_subnet.go, resourceSubnetCreate, then modifySubnetAttributesOnCreate
    (a subnet starts with MapPublicIpOnLaunch off, so only `true` is sent)."""
    params = _taken(
        inputs,
        {
            "vpcId": "VpcId",
            "availabilityZone": "AvailabilityZone",
            "availabilityZoneId": "AvailabilityZoneId",
            "cidrBlock": "CidrBlock",
            "ipv4IpamPoolId": "Ipv4IpamPoolId",
            "ipv4NetmaskLength": "Ipv4NetmaskLength",
            "ipv6CidrBlock": "Ipv6CidrBlock",
            "ipv6IpamPoolId": "Ipv6IpamPoolId",
            "ipv6NetmaskLength": "Ipv6NetmaskLength",
            "outpostArn": "OutpostArn",
        },
        notes,
        ignored=("tags", "ipv6Native", "mapPublicIpOnLaunch"),
    )
    params = _refs(params, stack)
    if inputs.get("ipv6Native"):
        params["Ipv6Native"] = True
    if _tags(inputs, "subnet"):
        params["TagSpecifications"] = _tags(inputs, "subnet")
    requests = [Request("ec2", "CreateSubnet", params)]
    if inputs.get("mapPublicIpOnLaunch"):
        requests.append(
            Request(
                "ec2",
                "ModifySubnetAttribute",
                {"SubnetId": _own_id(resource, stack), "MapPublicIpOnLaunch": {"Value": True}},
            )
        )
    return requests


def _internet_gateway(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """internal/service/ec2/vpc_internet_gateway.go, resourceInternetGatewayCreate: create, then attach."""
    _note_unmapped(inputs, {"vpcId", "tags"}, notes)
    requests = [
        Request("ec2", "CreateInternetGateway", _drop_none({"TagSpecifications": _tags(inputs, "internet-gateway")}))
    ]
    if inputs.get("vpcId"):
        requests.append(
            Request(
                "ec2",
                "AttachInternetGateway",
                {"InternetGatewayId": _own_id(resource, stack), "VpcId": ref(stack, inputs["vpcId"], "vpc-")},
            )
        )
    return requests


def _route_table(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """internal/service/ec2/vpc_route_table.go, resourceRouteTableCreate: the table, then each inline route
    (routeTableAddRoute -> CreateRoute) and each propagating gateway (EnableVgwRoutePropagation)."""
    _note_unmapped(inputs, {"vpcId", "tags", "routes", "propagatingVgws"}, notes)
    table_id = _own_id(resource, stack)
    requests = [
        Request(
            "ec2",
            "CreateRouteTable",
            _drop_none(
                {"VpcId": ref(stack, inputs.get("vpcId"), "vpc-"), "TagSpecifications": _tags(inputs, "route-table")}
            ),
        )
    ]
    for gateway in inputs.get("propagatingVgws") or []:
        requests.append(Request("ec2", "EnableVgwRoutePropagation", {"RouteTableId": table_id, "GatewayId": gateway}))
    for route in inputs.get("routes") or []:
        requests.append(Request("ec2", "CreateRoute", {"RouteTableId": table_id, **_route_members(route, stack)}))
    return requests


def _route_members(route: dict, stack: Stack) -> dict[str, Any]:
    members = {}
    for key, value in route.items():
        member = ROUTE_DESTINATIONS.get(key) or ROUTE_TARGETS.get(key)
        if member and value:  # the provider sends the one destination and the one target that are set
            members[member] = ref(stack, value, MEMBER_PREFIXES.get(member, ""))
    return members


def _route(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """internal/service/ec2/vpc_route.go, resourceRouteCreate: one CreateRoute with its destination and target."""
    _note_unmapped(inputs, {"routeTableId", *ROUTE_DESTINATIONS, *ROUTE_TARGETS}, notes)
    return [
        Request(
            "ec2",
            "CreateRoute",
            {"RouteTableId": ref(stack, inputs.get("routeTableId"), "rtb-"), **_route_members(inputs, stack)},
        )
    ]


def _route_table_association(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """internal/service/ec2/vpc_route_table_association.go, resourceRouteTableAssociationCreate:
    AssociateRouteTable with the table and the subnet or gateway."""
    params = _taken(inputs, {"routeTableId": "RouteTableId", "subnetId": "SubnetId", "gatewayId": "GatewayId"}, notes)
    return [Request("ec2", "AssociateRouteTable", _refs(params, stack))]


def _eip(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """internal/service/ec2/ec2_eip.go, resourceEIPCreate: AllocateAddress, then AssociateAddress when an
    instance or network interface is given."""
    params = _taken(
        inputs,
        {
            "address": "Address",
            "customerOwnedIpv4Pool": "CustomerOwnedIpv4Pool",
            "domain": "Domain",
            "ipamPoolId": "IpamPoolId",
            "networkBorderGroup": "NetworkBorderGroup",
            "publicIpv4Pool": "PublicIpv4Pool",
        },
        notes,
        ignored=("tags", "instance", "networkInterface", "associateWithPrivateIp"),
    )
    if _tags(inputs, "elastic-ip"):
        params["TagSpecifications"] = _tags(inputs, "elastic-ip")
    requests = [Request("ec2", "AllocateAddress", params)]
    if inputs.get("instance") or inputs.get("networkInterface"):
        requests.append(
            Request(
                "ec2",
                "AssociateAddress",
                _drop_none(
                    {
                        "AllocationId": _own_id(resource, stack),
                        "InstanceId": inputs.get("instance"),
                        "NetworkInterfaceId": inputs.get("networkInterface"),
                        "PrivateIpAddress": inputs.get("associateWithPrivateIp"),
                    }
                ),
            )
        )
    return requests


def _nat_gateway(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """internal/service/ec2/vpc_nat_gateway.go, resourceNATGatewayCreate (ClientToken: a 26-character unique
    id; ConnectivityType defaults to "public")."""
    params = _taken(
        inputs,
        {
            "allocationId": "AllocationId",
            "privateIp": "PrivateIpAddress",
            "secondaryAllocationIds": "SecondaryAllocationIds",
            "secondaryPrivateIpAddressCount": "SecondaryPrivateIpAddressCount",
            "secondaryPrivateIpAddresses": "SecondaryPrivateIpAddresses",
            "subnetId": "SubnetId",
            "availabilityMode": "AvailabilityMode",
            "vpcId": "VpcId",
        },
        notes,
        ignored=("tags", "connectivityType"),
    )
    params = _refs(params, stack)
    params["ClientToken"] = UNIQUE_ID
    params["ConnectivityType"] = inputs.get("connectivityType") or "public"
    if _tags(inputs, "natgateway"):
        params["TagSpecifications"] = _tags(inputs, "natgateway")
    return [Request("ec2", "CreateNatGateway", params)]


def _vpc_endpoint(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """internal/service/ec2/vpc_endpoint.go, resourceVPCEndpointCreate. PrivateDnsEnabled is always sent
    (false unless set); the endpoint type defaults to Gateway."""
    params = _taken(
        inputs,
        {
            "vpcId": "VpcId",
            "serviceName": "ServiceName",
            "ipAddressType": "IpAddressType",
            "policy": "PolicyDocument",
            "resourceConfigurationArn": "ResourceConfigurationArn",
            "routeTableIds": "RouteTableIds",
            "securityGroupIds": "SecurityGroupIds",
            "serviceNetworkArn": "ServiceNetworkArn",
            "subnetIds": "SubnetIds",
            "serviceRegion": "ServiceRegion",
        },
        notes,
        ignored=("tags", "vpcEndpointType", "privateDnsEnabled", "dnsOptions", "autoAccept", "subnetConfigurations"),
    )
    params = _refs(params, stack)
    params["ClientToken"] = UNIQUE_ID
    params["PrivateDnsEnabled"] = bool(inputs.get("privateDnsEnabled", False))
    params["VpcEndpointType"] = inputs.get("vpcEndpointType") or "Gateway"
    options = inputs.get("dnsOptions")
    if isinstance(options, dict) and options:
        params["DnsOptions"] = _drop_none(
            {
                "DnsRecordIpType": options.get("dnsRecordIpType"),
                "PrivateDnsOnlyForInboundResolverEndpoint": options.get("privateDnsOnlyForInboundResolverEndpoint"),
            }
        )
    if inputs.get("subnetConfigurations"):
        params["SubnetConfigurations"] = [
            _drop_none(
                {
                    "SubnetId": ref(stack, item.get("subnetId"), "subnet-"),
                    "Ipv4": item.get("ipv4"),
                    "Ipv6": item.get("ipv6"),
                }
            )
            for item in inputs["subnetConfigurations"]
        ]
    if _tags(inputs, "vpc-endpoint"):
        params["TagSpecifications"] = _tags(inputs, "vpc-endpoint")
    return [Request("ec2", "CreateVpcEndpoint", params)]


def _security_group(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """internal/service/ec2/vpc_security_group.go, resourceSecurityGroupCreate: CreateSecurityGroup; the
    default allow-all egress revoked (IPv4, then IPv6); then the `ingress` and `egress` rules authorized
    (updateSecurityGroupRules). With no `egress` the group allows no outbound traffic."""
    _note_unmapped(
        inputs,
        {"name", "namePrefix", "description", "vpcId", "tags", "ingress", "egress", "revokeRulesOnDelete"},
        notes,
    )
    group_id = _own_id(resource, stack)
    requests = [
        Request(
            "ec2",
            "CreateSecurityGroup",
            _drop_none(
                {
                    "GroupName": _name(inputs, resource.name, autonamed=True, notes=notes, member="GroupName"),
                    "Description": inputs.get("description", DEFAULT_SECURITY_GROUP_DESCRIPTION),
                    "VpcId": ref(stack, inputs.get("vpcId"), "vpc-"),
                    "TagSpecifications": _tags(inputs, "security-group"),
                }
            ),
        )
    ]
    for ranges in ({"IpRanges": [{"CidrIp": "0.0.0.0/0"}]}, {"Ipv6Ranges": [{"CidrIpv6": "::/0"}]}):
        requests.append(
            Request(
                "ec2",
                "RevokeSecurityGroupEgress",
                {"GroupId": group_id, "IpPermissions": [{"FromPort": 0, "ToPort": 0, "IpProtocol": "-1", **ranges}]},
            )
        )
    for key, operation in (("ingress", "AuthorizeSecurityGroupIngress"), ("egress", "AuthorizeSecurityGroupEgress")):
        rules = inputs.get(key) or []
        if rules:
            requests.append(
                Request(
                    "ec2",
                    operation,
                    {"GroupId": group_id, "IpPermissions": [_ip_permission(rule, group_id, stack) for rule in rules]},
                )
            )
    return requests


def _ip_permission(rule: dict, group_id: str, stack: Stack) -> dict[str, Any]:
    """One `ingress`/`egress` block as an IpPermission (vpc_security_group.go, expandIPPerm): protocol "all"
    is sent as "-1"; each CIDR, prefix list and group carries the rule's description; `self` adds the group."""
    description = rule.get("description")
    protocol = str(rule.get("protocol"))
    groups = list(ref(stack, rule.get("securityGroups") or [], "sg-")) + ([group_id] if rule.get("self") else [])
    return _drop_none(
        {
            "IpProtocol": "-1" if protocol.lower() == "all" else protocol,
            "FromPort": rule.get("fromPort"),
            "ToPort": rule.get("toPort"),
            "IpRanges": [
                _drop_none({"CidrIp": cidr, "Description": description}) for cidr in rule.get("cidrBlocks") or []
            ]
            or None,
            "Ipv6Ranges": [
                _drop_none({"CidrIpv6": cidr, "Description": description}) for cidr in rule.get("ipv6CidrBlocks") or []
            ]
            or None,
            "PrefixListIds": [
                _drop_none({"PrefixListId": item, "Description": description})
                for item in rule.get("prefixListIds") or []
            ]
            or None,
            "UserIdGroupPairs": [_drop_none({"GroupId": group, "Description": description}) for group in groups]
            or None,
        }
    )


NETWORK_BUILDERS: dict[str, Builder] = {
    VPC: _vpc,
    SUBNET: _subnet,
    INTERNET_GATEWAY: _internet_gateway,
    ROUTE_TABLE: _route_table,
    ROUTE: _route,
    ROUTE_TABLE_ASSOCIATION: _route_table_association,
    EIP: _eip,
    NAT_GATEWAY: _nat_gateway,
    VPC_ENDPOINT: _vpc_endpoint,
    SECURITY_GROUP: _security_group,
}
