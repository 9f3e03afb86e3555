"""The stack's own VPC: private node subnets, public ones for NAT and load balancers, zones EKS supports."""

from __future__ import annotations

import ipaddress

import pytest
from conftest import PROGRAM, dev_stack_config, merge
from hypothesis import given
from hypothesis import strategies as st

from components.facts.resource_types import (
    EIP,
    EKS_CLUSTER,
    GET_SUBNETS,
    GET_VPC,
    INTERNET_GATEWAY,
    LAUNCH_TEMPLATE,
    NODE_GROUP,
    ROUTE,
    SECURITY_GROUP,
    SUBNET,
    VPC,
)
from components.facts.resource_types import (
    GET_AVAILABILITY_ZONES as ZONES,
)
from components.facts.resource_types import (
    GET_INSTANCE_TYPE_OFFERINGS as OFFERINGS,
)
from components.facts.resource_types import (
    NAT_GATEWAY as NAT,
)
from components.facts.resource_types import (
    ROUTE_TABLE_ASSOCIATION as ASSOCIATION,
)
from components.facts.resource_types import (
    VPC_ENDPOINT as ENDPOINT,
)
from components.facts.zones import EKS_UNSUPPORTED_ZONE_IDS, Zone, choose_zones, subnet_ranges
from components.settings import parse_settings
from components.stackcheck.plan.network_check import network_problems
from components.stackcheck.runtime import RegisteredResource, run_program

GPU_GROUP = "gpu-inference-dev-gpu"


def run_network(overrides: dict | None = None, call_answers: dict | None = None):
    config = merge(dev_stack_config(), overrides or {})
    return run_program(
        PROGRAM,
        {f"eks-gpu-inference:{key}": value for key, value in config.items()},
        project="eks-gpu-inference",
        stack="test",
        call_answers=call_answers,
    )


@pytest.fixture(scope="module")
def dev_network():
    return run_network()


def subnets_by_role(run) -> tuple[list[RegisteredResource], list[RegisteredResource]]:
    subnets = run.of_type(SUBNET)
    private = [s for s in subnets if "kubernetes.io/role/internal-elb" in s.inputs["tags"]]
    public = [s for s in subnets if "kubernetes.io/role/elb" in s.inputs["tags"]]
    assert len(private) + len(public) == len(subnets)
    return private, public


def test_dev_stack_creates_a_vpc_with_dns_and_no_default_vpc_lookup(dev_network):
    (vpc,) = dev_network.of_type(VPC)
    assert vpc.inputs["cidrBlock"] == "10.0.0.0/16"
    assert vpc.inputs["enableDnsHostnames"] is True and vpc.inputs["enableDnsSupport"] is True
    tokens = {token for token, _ in dev_network.calls}
    assert not tokens & {GET_VPC, GET_SUBNETS}


def test_one_private_and_one_public_subnet_per_zone_without_overlap(dev_network):
    private, public = subnets_by_role(dev_network)
    assert len(private) == len(public) == 3
    vpc = ipaddress.IPv4Network(dev_network.of_type(VPC)[0].inputs["cidrBlock"])
    blocks = [ipaddress.IPv4Network(s.inputs["cidrBlock"]) for s in private + public]
    assert all(block.subnet_of(vpc) for block in blocks)
    assert not any(a.overlaps(b) for i, a in enumerate(blocks) for b in blocks[i + 1 :])
    assert all(block.prefixlen == 19 for block in blocks[:3])  # room for a pod IP per VPC CNI address
    private_zones = sorted(s.inputs["availabilityZoneId"] for s in private)
    assert private_zones == sorted(s.inputs["availabilityZoneId"] for s in public)
    assert len(set(private_zones)) == 3


def test_node_groups_use_only_private_subnets_and_the_control_plane_gets_both(dev_network):
    private, public = subnets_by_role(dev_network)
    private_ids = {s.id for s in private}
    for group in dev_network.of_type(NODE_GROUP):
        assert set(group.inputs["subnetIds"]) <= private_ids and group.inputs["subnetIds"], group.name
    (cluster,) = dev_network.of_type(EKS_CLUSTER)
    assert cluster.inputs["vpcId"] == dev_network.of_type(VPC)[0].id
    assert set(cluster.inputs["privateSubnetIds"]) == private_ids
    assert set(cluster.inputs["publicSubnetIds"]) == {s.id for s in public}
    assert "subnetIds" not in cluster.inputs
    assert network_problems(dev_network.resources) == []


def test_single_nat_gateway_serves_every_private_route_table(dev_network):
    (nat,) = dev_network.of_type(NAT)
    _, public = subnets_by_role(dev_network)
    assert nat.inputs["subnetId"] in {s.id for s in public}
    defaults = [r for r in dev_network.of_type(ROUTE) if r.inputs["destinationCidrBlock"] == "0.0.0.0/0"]
    to_nat = [r for r in defaults if "natGatewayId" in r.inputs]
    to_internet = [r for r in defaults if "gatewayId" in r.inputs]
    assert len(to_nat) == 3 and {r.inputs["natGatewayId"] for r in to_nat} == {nat.id}
    assert len(to_internet) == 1


def test_private_subnets_route_through_their_own_tables_and_s3_skips_the_nat(dev_network):
    private, _ = subnets_by_role(dev_network)
    associations = {a.inputs["subnetId"]: a.inputs["routeTableId"] for a in dev_network.of_type(ASSOCIATION)}
    private_tables = {associations[s.id] for s in private}
    assert len(private_tables) == 3
    (s3,) = dev_network.of_type(ENDPOINT)
    assert s3.inputs["vpcEndpointType"] == "Gateway"
    assert s3.inputs["serviceName"] == "com.amazonaws.us-west-2.s3"
    assert set(s3.inputs["routeTableIds"]) == private_tables


def test_nat_per_zone_gives_each_zone_its_own_gateway():
    run = run_network({"network": {"natGateways": "perAz"}})
    nats = run.of_type(NAT)
    assert len(nats) == 3
    _, public = subnets_by_role(run)
    zone_of_public = {s.id: s.inputs["availabilityZoneId"] for s in public}
    assert sorted(zone_of_public[n.inputs["subnetId"]] for n in nats) == sorted(zone_of_public.values())
    targets = [r.inputs["natGatewayId"] for r in run.of_type(ROUTE) if "natGatewayId" in r.inputs]
    assert sorted(targets) == sorted(n.id for n in nats)


def test_unsupported_zone_is_never_used_even_when_the_lookup_returns_it():
    zones = {
        "id": "us-east-1",
        "names": ["us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d"],
        "zoneIds": ["use1-az1", "use1-az2", "use1-az3", "use1-az4"],
    }
    offerings = {
        "id": "us-east-1",
        "instanceTypes": ["g5.xlarge"] * 4,
        "locations": zones["zoneIds"],
        "locationTypes": ["availability-zone-id"] * 4,
    }
    run = run_network(call_answers={ZONES: zones, OFFERINGS: offerings})

    used = {s.inputs["availabilityZoneId"] for s in run.of_type(SUBNET)}
    assert used == {"use1-az1", "use1-az2", "use1-az4"}
    (lookup,) = [args for token, args in run.calls if token == ZONES]
    assert set(lookup["excludeZoneIds"]) == set(EKS_UNSUPPORTED_ZONE_IDS)


def test_gpu_node_group_stays_in_zones_that_offer_its_instance_type():
    # The mocks offer the GPU type in every zone but the last (usw2-az4); four zones take all of them.
    run = run_network({"network": {"azCount": 4}})
    private, _ = subnets_by_role(run)
    zone_of = {s.id: s.inputs["availabilityZoneId"] for s in private}
    groups = {g.name: g for g in run.of_type(NODE_GROUP)}
    assert sorted(zone_of[i] for i in groups[GPU_GROUP].inputs["subnetIds"]) == ["usw2-az1", "usw2-az2", "usw2-az3"]
    assert len(groups["gpu-inference-dev-system"].inputs["subnetIds"]) == 4


def test_pinned_zones_are_used_as_given():
    run = run_network({"network": {"availabilityZones": ["us-west-2d", "usw2-az2"], "azCount": None}})
    assert {s.inputs["availabilityZoneId"] for s in run.of_type(SUBNET)} == {"usw2-az4", "usw2-az2"}


def test_interface_endpoints_sit_in_private_subnets_behind_an_https_only_group():
    run = run_network({"network": {"interfaceEndpoints": True}})
    interface = [e for e in run.of_type(ENDPOINT) if e.inputs["vpcEndpointType"] == "Interface"]
    assert sorted(
        e.inputs["serviceName"].rsplit(".", 2)[-1]
        if "ecr" not in e.inputs["serviceName"]
        else e.inputs["serviceName"].split("us-west-2.", 1)[1]
        for e in interface
    ) == ["ecr.api", "ecr.dkr", "eks-auth", "sts"]
    private, _ = subnets_by_role(run)
    (group,) = run.of_type(SECURITY_GROUP)
    # One rule, HTTPS from the VPC's range only, with the protocol spelt as EC2 reports it (`IpProtocol`).
    assert group.inputs["ingress"] == [
        {
            "protocol": "tcp",
            "fromPort": 443,
            "toPort": 443,
            "cidrBlocks": ["10.0.0.0/16"],
            "description": "HTTPS from the VPC",
        }
    ]
    for endpoint in interface:
        assert set(endpoint.inputs["subnetIds"]) == {s.id for s in private}
        assert endpoint.inputs["privateDnsEnabled"] is True


def test_bring_your_own_vpc_creates_no_network():
    run = run_network(
        {
            "network": None,
            "cluster": {
                "vpcId": "vpc-0123456789abcdef0",
                "privateSubnetIds": ["subnet-0aaaaaaaaaaaaaaa1", "subnet-0aaaaaaaaaaaaaaa2"],
            },
        }
    )
    assert not [r for r in run.resources if r.type.startswith("aws:ec2/") and r.type != LAUNCH_TEMPLATE]
    assert not run.of_type("eks-gpu-inference:index:Network")


# Pure parts ------------------------------------------------------------------------------------------


@given(
    st.integers(min_value=16, max_value=20),
    st.integers(min_value=2, max_value=6),
    st.integers(min_value=0, max_value=255),
)
def test_subnet_ranges_fit_the_vpc_and_never_overlap(prefix, zones, second_octet):
    vpc = ipaddress.IPv4Network(f"10.{second_octet}.0.0/{prefix}", strict=False)
    ranges = subnet_ranges(str(vpc), zones)
    blocks = [ipaddress.IPv4Network(block) for r in ranges for block in (r.private, r.public)]
    assert len(ranges) == zones
    assert all(block.subnet_of(vpc) for block in blocks)
    assert not any(a.overlaps(b) for i, a in enumerate(blocks) for b in blocks[i + 1 :])


REGION = [Zone("r-1a", "r1-az1"), Zone("r-1b", "r1-az2"), Zone("r-1c", "r1-az3"), Zone("r-1d", "use1-az3")]


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        pytest.param({"count": 2}, ["r1-az1", "r1-az2"], id="no offerings known: first zones by ID"),
        pytest.param({"count": 2, "gpu_zone_ids": {"r1-az3"}}, ["r1-az1", "r1-az3"], id="GPU zones come first"),
        pytest.param({"count": 2, "pinned": ["r-1c", "r1-az2"]}, ["r1-az2", "r1-az3"], id="pinned by name or ID"),
        pytest.param(
            {"count": 3, "gpu_zone_ids": {"use1-az3"}},
            ["r1-az1", "r1-az2", "r1-az3"],
            id="an unsupported zone is never chosen, even when it offers the GPUs",
        ),
    ],
)
def test_zone_choice(kwargs, expected):
    assert [zone.zone_id for zone in choose_zones(REGION, **kwargs)] == expected


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        pytest.param({"count": 4}, "the region offers 3 that EKS supports", id="more zones than the region has"),
        pytest.param({"count": 2, "pinned": ["r-1d"]}, "not among the region's usable zones", id="pinned unsupported"),
        pytest.param({"count": 2, "pinned": ["r-1a", "r1-az1"]}, "names one zone twice", id="one zone by name and ID"),
    ],
)
def test_zone_choice_errors_name_the_setting(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment) as error:
        choose_zones(REGION, **kwargs)
    assert str(error.value).startswith("network.")


def test_network_settings_default_to_a_created_vpc():
    settings = parse_settings({})
    assert settings.creates_network and settings.network.zone_count == 3
    assert not parse_settings(
        {
            "cluster": {
                "vpcId": "vpc-0123456789abcdef0",
                "privateSubnetIds": ["subnet-0aaaaaaaaaaaaaaa1", "subnet-0aaaaaaaaaaaaaaa2"],
            }
        }
    ).creates_network


def test_network_check_names_a_node_group_in_a_public_subnet():
    def resource(type_, name, inputs):
        return RegisteredResource(type_, name, inputs, None, f"urn:{name}", True, id=f"{name}-id")

    resources = [
        resource(VPC, "vpc", {"cidrBlock": "10.0.0.0/16"}),
        resource(
            SUBNET,
            "private-0",
            {"vpcId": "vpc-id", "availabilityZoneId": "a1", "tags": {"kubernetes.io/role/internal-elb": "1"}},
        ),
        resource(
            SUBNET, "public-0", {"vpcId": "vpc-id", "availabilityZoneId": "a1", "tags": {"kubernetes.io/role/elb": "1"}}
        ),
        resource(NODE_GROUP, "gpu", {"subnetIds": ["private-0-id", "public-0-id"]}),
        resource(EKS_CLUSTER, "c", {"privateSubnetIds": ["private-0-id"], "publicSubnetIds": ["public-0-id"]}),
    ]
    problems = network_problems(resources)
    assert len(problems) == 2
    assert "node group 'gpu' uses subnets ['public-0-id']" in problems[0]
    assert "1 availability zone(s) ['a1']" in problems[1]


def test_zones_eks_does_not_support_are_the_documented_three():
    # EKS user guide, network requirements: no control-plane subnets in these zone IDs.
    assert set(EKS_UNSUPPORTED_ZONE_IDS) == {"use1-az3", "usw1-az2", "cac1-az3"}
    for zone in ("use1-az3", "usw1-az2", "cac1-az3"):
        with pytest.raises(Exception, match="unsupported zone"):
            parse_settings({"network": {"availabilityZones": [zone, "use1-az1"]}})


def test_subnets_keep_their_zone_and_public_subnets_give_no_public_ips(dev_network):
    _, public = subnets_by_role(dev_network)
    assert all(s.inputs["mapPublicIpOnLaunch"] is False for s in public)
    assert all(s.ignore_changes == ("availabilityZoneId",) for s in dev_network.of_type(SUBNET))
    (lookup,) = [args for token, args in dev_network.calls if token == ZONES]
    assert {"name": "opt-in-status", "values": ["opt-in-not-required"]} in lookup["filters"]


def test_the_internet_gateway_is_attached_to_the_vpc_and_the_nat_gateway_has_a_vpc_address(dev_network):
    (vpc,) = dev_network.of_type(VPC)
    (gateway,) = dev_network.of_type(INTERNET_GATEWAY)
    assert gateway.inputs["vpcId"] == vpc.id
    # A NAT gateway's public IP is an Elastic IP for use in a VPC (EC2 AllocateAddress, Domain "vpc").
    (address,) = dev_network.of_type(EIP)
    assert address.inputs["domain"] == "vpc"
    (nat,) = dev_network.of_type(NAT)
    assert nat.inputs["allocationId"] == address.id


def test_nat_gateway_waits_for_the_internet_gateway(dev_network):
    (gateway,) = dev_network.of_type(INTERNET_GATEWAY)
    (nat,) = dev_network.of_type(NAT)
    assert gateway.urn in nat.dependencies


def test_network_check_names_a_node_group_without_subnets():
    def resource(type_, name, inputs):
        return RegisteredResource(type_, name, inputs, None, f"urn:{name}", True, id=f"{name}-id")

    problems = network_problems([resource(VPC, "vpc", {}), resource(NODE_GROUP, "gpu", {"subnetIds": []})])
    assert problems == ["node group 'gpu' has no subnets"]


def test_plan_fails_when_a_node_group_lands_in_a_public_subnet(capsys, tmp_path, monkeypatch):
    import json
    from pathlib import Path

    from conftest import change_registrations

    from components.stackcheck.__main__ import main

    def public_gpu_nodes(args):
        if args.typ == NODE_GROUP and args.name == GPU_GROUP:
            args.inputs["subnetIds"] = ["gpu-inference-dev-network-public-0-id"]
            return True
        return False

    changed = change_registrations(monkeypatch, public_gpu_nodes)
    root = Path(__file__).resolve().parents[2]
    code = main(["plan", "--project-dir", str(root), "--format", "json", "--out", str(tmp_path)])
    document = json.loads(capsys.readouterr().out)
    assert code == 1 and changed == [GPU_GROUP]
    assert any(
        line.startswith(f"network: node group '{GPU_GROUP}' uses subnets ['gpu-inference-dev-network-public-0-id']")
        for line in document["failures"]
    ), document["failures"]
    assert document["networkProblems"]


def test_every_network_resource_is_a_child_of_the_network_tagged_with_its_name_and_the_stack():
    # Children of the component, so a stack reads (and `pulumi destroy --target` removes) the network as one
    # unit; the Name tag is what the EC2 console lists; the stack's tags say who owns each resource.
    run = run_network({"network": {"interfaceEndpoints": True}})
    cluster = dev_stack_config()["cluster"]["name"]
    (network,) = run.of_type("eks-gpu-inference:index:Network")
    children = [r for r in run.resources if r.name.startswith(f"{cluster}-network-")]
    assert {r.type for r in children} >= {VPC, SUBNET, NAT, ENDPOINT, "aws:ec2/securityGroup:SecurityGroup"}
    for resource in children:
        assert resource.parent == network.urn, resource.name
        if resource.type in (ROUTE, ASSOCIATION):
            continue  # EC2 routes and associations take no tags
        tags = resource.inputs["tags"]
        assert tags["app.kubernetes.io/part-of"] == "eks-gpu-inference" and tags["pulumi:stack"] == "test"
        label = resource.name.removeprefix(f"{cluster}-network-")
        assert tags["Name"].replace(".", "-") == f"{cluster}-{label}", resource.name


def test_interface_endpoints_group_keeps_its_description():
    # EC2 cannot change a security group's description: another text replaces the group, and with it the
    # endpoints' network interfaces (AWS CloudFormation reference, AWS::EC2::SecurityGroup GroupDescription:
    # "Update requires: Replacement"; the Terraform AWS provider that pulumi-aws bridges forces a new
    # resource on it, hashicorp/terraform#14330).
    run = run_network({"network": {"interfaceEndpoints": True}})
    (group,) = run.of_type("aws:ec2/securityGroup:SecurityGroup")
    assert group.inputs["description"] == "HTTPS from the VPC to its interface endpoints"


def test_the_network_looks_up_zones_that_are_up_without_opt_in_or_eks_refusal_and_where_its_gpu_types_run():
    # Whole arguments: a zone state misspelt would match no zone, and a dropped filter would pick Local Zones
    # (opt-in, no EKS control plane) or zone IDs EKS rejects (UnsupportedAvailabilityZoneException).
    calls = dict(run_network().calls)
    assert calls["aws:index/getAvailabilityZones:getAvailabilityZones"] == {
        "state": "available",
        "excludeZoneIds": list(EKS_UNSUPPORTED_ZONE_IDS),
        "filters": [{"name": "opt-in-status", "values": ["opt-in-not-required"]}],
    }
    assert calls["aws:ec2/getInstanceTypeOfferings:getInstanceTypeOfferings"] == {
        "filters": [{"name": "instance-type", "values": ["g5.xlarge"]}],
        "locationType": "availability-zone-id",
    }
