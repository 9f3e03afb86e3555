"""Every AWS object the `Network` component registers, whole: the VPC, each subnet (CIDR, zone, public IPs, tags with
the load balancer role), the route tables, routes, Elastic IPs, NAT gateways, associations and endpoints, each the
network's child on the default AWS provider; for the dev stack (one NAT gateway) and a stack of two zones with a NAT
gateway in each and its own CIDR. Then the zone lookups' exact arguments, and the interface endpoints.

Subnet role tags: AWS Load Balancer Controller docs, "Subnet auto-discovery" (`kubernetes.io/role/elb` on public,
`kubernetes.io/role/internal-elb` on private subnets, value "1"); read 2026-12-02. The mocks' region is us-west-2,
its zones usw2-az1 to usw2-az3.
"""

from __future__ import annotations

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.cluster.network import ZoneError
from tests.support.network_gpu_zones import offered_in, run_pinned

NETWORK = "eks-gpu-inference:index:Network"
PREFIX = "gpu-inference-dev-network"
TAGS = {"app.kubernetes.io/part-of": "eks-gpu-inference", "pulumi:stack": "test"}
PER_ZONE = {"network": {"natGateways": "perAz", "azCount": 2, "cidr": "10.8.0.0/16"}}
ZONES = ["usw2-az1", "usw2-az2", "usw2-az3"]
# The private /19s from the bottom of the /16, the public /22s from its last /19 (facts/zones.py subnet_ranges).
STACKS = {
    "single": {"octets": "10.0", "zones": 3, "nat_per_zone": False},
    "per-zone": {"octets": "10.8", "zones": 2, "nat_per_zone": True},
}


@pytest.fixture(scope="module")
def per_zone_run():
    return run_stack(merge(dev_stack_config(), PER_ZONE))


@pytest.fixture(params=sorted(STACKS))
def case(request, dev_run, per_zone_run):
    return (dev_run if request.param == "single" else per_zone_run), STACKS[request.param]


def tagged(label: str, **extra: str) -> dict[str, str]:
    return {**TAGS, "Name": f"gpu-inference-dev-{label}", **extra}


def rid(name: str) -> str:
    """The id the mocks give the resource of that name."""
    return f"{PREFIX}-{name}-id"


def expected(stack: dict) -> dict[str, tuple[str, dict]]:
    """Each resource of the network, by name: its type and inputs."""
    octets, zones = stack["octets"], stack["zones"]
    resources: dict[str, tuple[str, dict]] = {
        "vpc": (
            "aws:ec2/vpc:Vpc",
            {
                "cidrBlock": f"{octets}.0.0/16",
                "enableDnsHostnames": True,
                "enableDnsSupport": True,
                "tags": tagged("vpc"),
            },
        ),
        "igw": ("aws:ec2/internetGateway:InternetGateway", {"vpcId": rid("vpc"), "tags": tagged("igw")}),
        "public": ("aws:ec2/routeTable:RouteTable", {"vpcId": rid("vpc"), "tags": tagged("public")}),
        "public-internet": (
            "aws:ec2/route:Route",
            {"routeTableId": rid("public"), "destinationCidrBlock": "0.0.0.0/0", "gatewayId": rid("igw")},
        ),
        "s3": (
            "aws:ec2/vpcEndpoint:VpcEndpoint",
            {
                "vpcId": rid("vpc"),
                "vpcEndpointType": "Gateway",
                "serviceName": "com.amazonaws.us-west-2.s3",
                "routeTableIds": [rid(f"private-{index}") for index in range(zones)],
                "tags": tagged("s3"),
            },
        ),
    }
    for index in range(zones):
        zone = ZONES[index]
        resources[f"public-{index}"] = (
            "aws:ec2/subnet:Subnet",
            {
                "vpcId": rid("vpc"),
                "cidrBlock": f"{octets}.{224 + 4 * index}.0/22",
                "availabilityZoneId": zone,
                # Public only for NAT gateways and load balancers: no instance gets a public address.
                "mapPublicIpOnLaunch": False,
                "tags": tagged(f"public-{index}", **{"kubernetes.io/role/elb": "1"}),
            },
        )
        resources[f"private-{index}"] = (
            "aws:ec2/subnet:Subnet",
            {
                "vpcId": rid("vpc"),
                "cidrBlock": f"{octets}.{32 * index}.0/19",
                "availabilityZoneId": zone,
                "tags": tagged(f"private-{index}", **{"kubernetes.io/role/internal-elb": "1"}),
            },
        )
        nat = index if stack["nat_per_zone"] else 0
        if nat == index:
            resources[f"eip nat-{index}"] = ("aws:ec2/eip:Eip", {"domain": "vpc", "tags": tagged(f"nat-{index}")})
            resources[f"natgw nat-{index}"] = (
                "aws:ec2/natGateway:NatGateway",
                {
                    "allocationId": rid(f"nat-{index}"),
                    "subnetId": rid(f"public-{index}"),
                    "tags": tagged(f"nat-{index}"),
                },
            )
        resources[f"table private-{index}"] = (
            "aws:ec2/routeTable:RouteTable",
            {"vpcId": rid("vpc"), "tags": tagged(f"private-{index}")},
        )
        resources[f"private-{index}-nat"] = (
            "aws:ec2/route:Route",
            {
                "routeTableId": rid(f"private-{index}"),
                "destinationCidrBlock": "0.0.0.0/0",
                "natGatewayId": rid(f"nat-{nat}"),
            },
        )
        resources[f"association public-{index}"] = (
            "aws:ec2/routeTableAssociation:RouteTableAssociation",
            {"subnetId": rid(f"public-{index}"), "routeTableId": rid("public")},
        )
        resources[f"association private-{index}"] = (
            "aws:ec2/routeTableAssociation:RouteTableAssociation",
            {"subnetId": rid(f"private-{index}"), "routeTableId": rid(f"private-{index}")},
        )
    return resources


def registered(run) -> dict[str, tuple[str, dict]]:
    """The network's children by (type-qualified where names repeat) name, each checked to be its child on the
    default AWS provider."""
    (network,) = run.of_type(NETWORK)
    children = [r for r in run.resources if r.parent == network.urn]
    assert {r.provider for r in children} == {""}
    qualifier = {
        "aws:ec2/eip:Eip": "eip ",
        "aws:ec2/natGateway:NatGateway": "natgw ",
        "aws:ec2/routeTableAssociation:RouteTableAssociation": "association ",
    }
    found = {}
    for resource in children:
        short = resource.name.removeprefix(f"{PREFIX}-")
        if resource.type == "aws:ec2/routeTable:RouteTable" and short != "public":
            short = f"table {short}"
        found[qualifier.get(resource.type, "") + short] = (resource.type, resource.inputs)
    return found


def test_every_object_of_the_network_is_registered_whole(case):
    run, stack = case

    assert registered(run) == expected(stack)


def test_subnets_keep_their_zone_and_nat_gateways_wait_for_the_internet_gateway(case):
    run, stack = case
    subnets = [r for r in run.of_type("aws:ec2/subnet:Subnet") if r.name.startswith(PREFIX)]
    gateways = [r for r in run.of_type("aws:ec2/natGateway:NatGateway") if r.name.startswith(PREFIX)]
    internet = run.named(f"{PREFIX}-igw")

    assert len(subnets) == 2 * stack["zones"]
    assert {r.ignore_changes for r in subnets} == {("availabilityZoneId",)}
    assert len(gateways) == (stack["zones"] if stack["nat_per_zone"] else 1)
    assert all(internet.urn in r.dependencies for r in gateways)


def test_the_zone_lookups_ask_for_eks_zones_and_the_gpu_types_offerings(dev_run):
    calls = [
        (token, arguments, provider)
        for (token, arguments), provider in zip(dev_run.calls, dev_run.call_providers, strict=True)
        if token
        in (
            "aws:index/getAvailabilityZones:getAvailabilityZones",
            "aws:ec2/getInstanceTypeOfferings:getInstanceTypeOfferings",
        )
    ]

    # Zones EKS refuses left out (EKS user guide, "Cluster VPC and subnet requirements"); no opt-in zones.
    assert calls == [
        (
            "aws:index/getAvailabilityZones:getAvailabilityZones",
            {
                "state": "available",
                "excludeZoneIds": ["use1-az3", "usw1-az2", "cac1-az3"],
                "filters": [{"name": "opt-in-status", "values": ["opt-in-not-required"]}],
            },
            "",
        ),
        (
            "aws:ec2/getInstanceTypeOfferings:getInstanceTypeOfferings",
            {"locationType": "availability-zone-id", "filters": [{"name": "instance-type", "values": ["g5.xlarge"]}]},
            "",
        ),
    ]


def test_interface_endpoints_are_registered_whole(stack):
    run = stack({"network": {"interfaceEndpoints": True}})
    (network,) = run.of_type(NETWORK)
    endpoints = {
        r.name.removeprefix(f"{PREFIX}-"): r.inputs
        for r in run.of_type("aws:ec2/vpcEndpoint:VpcEndpoint")
        if r.parent == network.urn and r.inputs["vpcEndpointType"] == "Interface"
    }
    (group,) = [r for r in run.of_type("aws:ec2/securityGroup:SecurityGroup") if r.parent == network.urn]

    assert group.inputs == {
        "vpcId": rid("vpc"),
        "description": "HTTPS from the VPC to its interface endpoints",
        "ingress": [
            {
                "protocol": "tcp",
                "fromPort": 443,
                "toPort": 443,
                "cidrBlocks": ["10.0.0.0/16"],
                "description": "HTTPS from the VPC",
            }
        ],
        "tags": tagged("endpoints"),
    }
    # ECR's API and registry, STS and EKS Auth (EKS user guide, "Deploy private clusters with limited internet access").
    assert endpoints == {
        service.replace(".", "-"): {
            "vpcId": rid("vpc"),
            "vpcEndpointType": "Interface",
            "serviceName": f"com.amazonaws.us-west-2.{service}",
            "subnetIds": [rid(f"private-{index}") for index in range(3)],
            "securityGroupIds": [f"{PREFIX}-endpoints-id"],
            "privateDnsEnabled": True,
            "tags": tagged(service),
        }
        for service in ("ecr.api", "ecr.dkr", "sts", "eks-auth")
    }


def network_outputs(run) -> dict:
    (network,) = run.of_type(NETWORK)
    return run.component_outputs[network.urn]


def subnet_ids(role: str, *indexes: int) -> list[str]:
    return [rid(f"{role}-{index}") for index in indexes]


def test_the_network_outputs_every_subnet_and_zone_in_order(dev_run):
    # The mocks offer the GPU types in every zone: every private subnet is a GPU subnet.
    assert network_outputs(dev_run) == {
        "vpc_id": rid("vpc"),
        "private_subnet_ids": subnet_ids("private", 0, 1, 2),
        "public_subnet_ids": subnet_ids("public", 0, 1, 2),
        "gpu_subnet_ids": subnet_ids("private", 0, 1, 2),
        "availability_zones": ZONES,
    }


def test_only_the_private_subnets_in_zones_offering_the_gpu_types_are_gpu_subnets():
    run = run_pinned(["us-east-1a", "us-east-1c", "us-east-1d"], offered_in("use1-az5", "use1-az4"))

    assert network_outputs(run) == {
        "vpc_id": rid("vpc"),
        "private_subnet_ids": subnet_ids("private", 0, 1, 2),
        "public_subnet_ids": subnet_ids("public", 0, 1, 2),
        "gpu_subnet_ids": subnet_ids("private", 1, 2),
        "availability_zones": ["use1-az1", "use1-az4", "use1-az5"],
    }


def test_pinned_zones_offering_none_of_the_gpu_types_fail_with_the_whole_message():
    with pytest.raises(ZoneError) as raised:
        run_pinned(["us-east-1a", "us-east-1b"], offered_in("use1-az4"))

    assert str(raised.value) == (
        "none of the network's zones ['us-east-1a', 'us-east-1b'] offers ['g5.xlarge']; pin network.availabilityZones "
        "to zones that do, or choose other instance types"
    )
