"""A dedicated VPC for the cluster: private subnets for nodes and pods, public ones for NAT and load balancers.

Built from plain `aws.ec2` resources rather than a packaged component (awsx's `ec2.Vpc` is a remote
component): every CIDR block, zone, route and tag is then an input that previews under mocks, the
offline plan, its AWS request check and the tests can see.

Zones come from the region's list, without the zone IDs EKS does not support, preferring zones that
offer the GPU instance types (`GetInstanceTypeOfferings`, answered at preview with credentials; the
offline plan sees mock data). Pin `network.availabilityZones` to choose them yourself. Subnets keep the
zone they were created in (`ignoreChanges` on the zone), so a later change in offerings never moves them.
"""

import functools

import pulumi
import pulumi_aws as aws

from ..args.validate import Validation, args_path, coerce
from ..facts.identity import PROJECT
from ..facts.regions import eks_regions
from ..facts.zones import EKS_UNSUPPORTED_ZONE_IDS, Zone, choose_zones, subnet_ranges
from ..ordering import once_created
from ..settings import NetworkSettings, arguments
from ..settings.network import for_region, region_zone_problems
from .args import NetworkArgs

# Subnet tags the AWS Load Balancer Controller uses to find subnets for internet-facing and internal load
# balancers (AWS Load Balancer Controller docs, "Subnet auto-discovery"; EKS user guide, "Route internet
# traffic with AWS Load Balancer Controller").
PUBLIC_ELB_TAG = "kubernetes.io/role/elb"
INTERNAL_ELB_TAG = "kubernetes.io/role/internal-elb"
# Interface endpoints that let nodes pull images and get credentials without NAT: ECR's API and registry,
# STS, and EKS Auth (Pod Identity). EKS user guide, "Deploy private clusters with limited internet access".
INTERFACE_ENDPOINT_SERVICES = ("ecr.api", "ecr.dkr", "sts", "eks-auth")


def validated(name: str, args: NetworkArgs) -> NetworkSettings:
    """The network settings from `args`; raises `ConfigError` naming every bad argument."""
    where = args_path("Network", name)
    validation = Validation(where, args)
    args = validation.known(args)
    settings = validation.section(NetworkSettings, args)
    region = pulumi.Config("aws").get("region")
    if settings is not None and region in eks_regions():
        # The zones against the provider's configured region here, before anything registers, rather than in
        # the apply that chooses them (where a mistake surfaces as a failed update and its tracebacks).
        settings = for_region(settings, region)
        validation.add([problem.written(arguments(where)) for problem in region_zone_problems(settings, region)])
    validation.tags(args.tags)
    validation.tags(args.private_subnet_tags, "private_subnet_tags")
    validation.done()
    return settings


class ZoneError(pulumi.RunError):
    """The region's zones, known only once the provider answers (a stack without `aws:region` takes the region
    from the deployment's environment), cannot hold the network. A `RunError`, not a `ValueError`: the SDK rewraps
    a `ValueError` raised in an apply as a plain `ValueError` (pulumi/runtime/rpc.py, resource.py "has risen"),
    which the language host prints with its traceback; a `RunError` is printed alone."""


class Network(pulumi.ComponentResource):
    """A VPC with one private and one public subnet per zone, internet and NAT gateways, and endpoints."""

    vpc_id: pulumi.Output[str]
    """The VPC."""
    private_subnet_ids: pulumi.Output[list[str]]
    """One private subnet per zone, for nodes and pods (routed through NAT); resolves once their NAT routes
    and route-table associations exist."""
    public_subnet_ids: pulumi.Output[list[str]]
    """One public subnet per zone, for NAT gateways and internet-facing load balancers; resolves once their
    internet route and route-table associations exist."""
    gpu_subnet_ids: pulumi.Output[list[str]]
    """The private subnets in zones that offer the GPU instance types, for `GpuNodeGroupArgs.subnet_ids`;
    resolves once the private subnets' NAT routes and route-table associations exist."""
    availability_zones: pulumi.Output[list[str]]
    """Zone IDs of the subnets, in subnet order."""

    def __init__(self, name: str, args: NetworkArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(NetworkArgs, args, args_path("Network", name))
        # Checked before anything is registered.
        settings = validated(name, args)
        super().__init__(f"{PROJECT}:index:Network", name, None, opts)
        name_tag = args.name_tag or name
        tags = dict(args.tags or {})
        private_subnet_tags = dict(args.private_subnet_tags or {})
        gpu_instance_types = list(args.gpu_instance_types or [])
        child = pulumi.ResourceOptions(parent=self)
        invoke = pulumi.InvokeOutputOptions(parent=self)

        def tagged(label: str, **extra: str) -> dict[str, str]:
            return {**tags, "Name": f"{name_tag}-{label}", **extra}

        available = aws.get_availability_zones_output(
            state="available",
            exclude_zone_ids=list(EKS_UNSUPPORTED_ZONE_IDS),
            # Local Zones and Wavelength Zones need opting in; EKS places no control plane there.
            filters=[{"name": "opt-in-status", "values": ["opt-in-not-required"]}],
            opts=invoke,
        )
        offered_zone_ids = _zones_offering(gpu_instance_types, invoke)

        def chosen_zones(found: list) -> list[Zone]:
            try:
                chosen = choose_zones(
                    [Zone(n, z) for n, z in zip(found[0], found[1], strict=True)],
                    settings.zone_count,
                    gpu_zone_ids=set(found[2]),
                    pinned=list(settings.availability_zones),
                )
            except ValueError as error:
                raise ZoneError(str(error)) from None
            # Checked here, where the lookups are known in a preview, rather than only once subnet ids exist
            # (after `pulumi up` created the VPC): the GPU node group needs a zone that offers its types.
            if gpu_instance_types and not {zone.zone_id for zone in chosen} & set(found[2]):
                raise ZoneError(
                    f"none of the network's zones {[zone.name for zone in chosen]} offers {gpu_instance_types}; "
                    "pin network.availabilityZones to zones that do, or choose other instance types"
                )
            return chosen

        zones = pulumi.Output.all(available.names, available.zone_ids, offered_zone_ids).apply(chosen_zones)

        vpc = aws.ec2.Vpc(
            f"{name}-vpc",
            cidr_block=settings.cidr,
            enable_dns_hostnames=True,
            enable_dns_support=True,
            tags=tagged("vpc"),
            opts=child,
        )
        gateway = aws.ec2.InternetGateway(f"{name}-igw", vpc_id=vpc.id, tags=tagged("igw"), opts=child)
        public_routes = aws.ec2.RouteTable(f"{name}-public", vpc_id=vpc.id, tags=tagged("public"), opts=child)
        public_internet = aws.ec2.Route(
            f"{name}-public-internet",
            route_table_id=public_routes.id,
            destination_cidr_block="0.0.0.0/0",
            gateway_id=gateway.id,
            opts=child,
        )

        private_subnets, public_subnets, private_route_tables, nat_gateways = [], [], [], []
        # What makes each kind of subnet reach the internet: its default route and its table's association.
        public_routing: list[pulumi.CustomResource] = [public_internet]
        private_routing: list[pulumi.CustomResource] = []
        for index, ranges in enumerate(subnet_ranges(settings.cidr, settings.zone_count)):
            zone_id = zones.apply(functools.partial(_zone_id, index))
            # The zone is fixed at creation; see the module docstring.
            keep_zone = pulumi.ResourceOptions(parent=self, ignore_changes=["availabilityZoneId"])
            public = aws.ec2.Subnet(
                f"{name}-public-{index}",
                vpc_id=vpc.id,
                cidr_block=ranges.public,
                availability_zone_id=zone_id,
                map_public_ip_on_launch=False,
                tags=tagged(f"public-{index}", **{PUBLIC_ELB_TAG: "1"}),
                opts=keep_zone,
            )
            public_routing.append(
                aws.ec2.RouteTableAssociation(
                    f"{name}-public-{index}", subnet_id=public.id, route_table_id=public_routes.id, opts=child
                )
            )
            private = aws.ec2.Subnet(
                f"{name}-private-{index}",
                vpc_id=vpc.id,
                cidr_block=ranges.private,
                availability_zone_id=zone_id,
                # The subnet's own tags hold every tag it carries: a tag resource beside them would be removed
                # by the next refresh (pulumi-aws `aws.ec2.Tag`).
                tags=tagged(f"private-{index}", **{INTERNAL_ELB_TAG: "1"}, **private_subnet_tags),
                opts=keep_zone,
            )
            if settings.nat_gateways == "perAz" or index == 0:
                address = aws.ec2.Eip(f"{name}-nat-{index}", domain="vpc", tags=tagged(f"nat-{index}"), opts=child)
                # A NAT gateway in a public subnet reaches the internet through the internet gateway.
                nat_gateways.append(
                    aws.ec2.NatGateway(
                        f"{name}-nat-{index}",
                        allocation_id=address.id,
                        subnet_id=public.id,
                        tags=tagged(f"nat-{index}"),
                        opts=pulumi.ResourceOptions(parent=self, depends_on=[gateway]),
                    )
                )
            routes = aws.ec2.RouteTable(
                f"{name}-private-{index}", vpc_id=vpc.id, tags=tagged(f"private-{index}"), opts=child
            )
            private_routing.append(
                aws.ec2.Route(
                    f"{name}-private-{index}-nat",
                    route_table_id=routes.id,
                    destination_cidr_block="0.0.0.0/0",
                    nat_gateway_id=nat_gateways[-1].id,
                    opts=child,
                )
            )
            private_routing.append(
                aws.ec2.RouteTableAssociation(
                    f"{name}-private-{index}", subnet_id=private.id, route_table_id=routes.id, opts=child
                )
            )
            private_subnets.append(private)
            public_subnets.append(public)
            private_route_tables.append(routes)

        region = aws.get_region_output(opts=invoke).region
        # Image layers (ECR stores them in S3) and model files from S3 skip the NAT's data charge; gateway
        # endpoints for S3 cost nothing (Amazon VPC docs, "Gateway endpoints for Amazon S3").
        aws.ec2.VpcEndpoint(
            f"{name}-s3",
            vpc_id=vpc.id,
            vpc_endpoint_type="Gateway",
            service_name=pulumi.Output.concat("com.amazonaws.", region, ".s3"),
            route_table_ids=[table.id for table in private_route_tables],
            tags=tagged("s3"),
            opts=child,
        )
        if settings.interface_endpoints:
            self._interface_endpoints(name, vpc, settings.cidr, private_subnets, region, tagged)

        self.vpc_id = vpc.id
        # The subnet ids resolve only once the subnets are routed, so node groups given them are created after
        # the routes (a node that boots without its NAT route cannot reach EKS, ECR or S3, and never joins)
        # and deleted before them (draining nodes keep their egress until they are gone): a change to
        # `natGateways` or a destroy never leaves running nodes without a way out.
        self.private_subnet_ids = once_created(
            pulumi.Output.all(*(subnet.id for subnet in private_subnets)), private_routing
        )
        self.public_subnet_ids = once_created(
            pulumi.Output.all(*(subnet.id for subnet in public_subnets)), public_routing
        )
        self.availability_zones = pulumi.Output.all(*(subnet.availability_zone_id for subnet in private_subnets))
        self.gpu_subnet_ids = once_created(
            _subnets_in_zones(private_subnets, offered_zone_ids, gpu_instance_types), private_routing
        )
        self.register_outputs(
            {
                "vpc_id": self.vpc_id,
                "private_subnet_ids": self.private_subnet_ids,
                "public_subnet_ids": self.public_subnet_ids,
                "gpu_subnet_ids": self.gpu_subnet_ids,
                "availability_zones": self.availability_zones,
            }
        )

    def _interface_endpoints(self, name, vpc, cidr, private_subnets, region, tagged) -> None:
        endpoints_group = aws.ec2.SecurityGroup(
            f"{name}-endpoints",
            vpc_id=vpc.id,
            description="HTTPS from the VPC to its interface endpoints",
            ingress=[
                {
                    "protocol": "tcp",
                    "from_port": 443,
                    "to_port": 443,
                    "cidr_blocks": [cidr],
                    "description": "HTTPS from the VPC",
                }
            ],
            tags=tagged("endpoints"),
            opts=pulumi.ResourceOptions(parent=self),
        )
        for service in INTERFACE_ENDPOINT_SERVICES:
            aws.ec2.VpcEndpoint(
                f"{name}-{service.replace('.', '-')}",
                vpc_id=vpc.id,
                vpc_endpoint_type="Interface",
                service_name=pulumi.Output.concat("com.amazonaws.", region, f".{service}"),
                subnet_ids=[subnet.id for subnet in private_subnets],
                security_group_ids=[endpoints_group.id],
                private_dns_enabled=True,
                tags=tagged(service),
                opts=pulumi.ResourceOptions(parent=self),
            )


def _zones_offering(instance_types: list[str], invoke: pulumi.InvokeOutputOptions) -> pulumi.Output[list[str]]:
    """Zone IDs of the region where at least one of `instance_types` is offered (all zones when none given)."""
    if not instance_types:
        return pulumi.Output.from_input([])
    offerings = aws.ec2.get_instance_type_offerings_output(
        location_type="availability-zone-id",
        filters=[{"name": "instance-type", "values": list(instance_types)}],
        opts=invoke,
    )
    return offerings.locations.apply(lambda locations: sorted(set(locations or [])))


def _subnets_in_zones(
    subnets: list[aws.ec2.Subnet], offered_zone_ids: pulumi.Output[list[str]], instance_types: list[str]
) -> pulumi.Output[list[str]]:
    """The ids of `subnets` in zones that offer `instance_types`; a node group elsewhere gets no instances."""

    def pick(values: list) -> list[str]:
        offered, pairs = set(values[0]), values[1:]
        # Never empty: the zones were chosen so that one at least offers the types (`chosen_zones`).
        return [
            subnet_id
            for subnet_id, zone_id in zip(pairs[::2], pairs[1::2], strict=True)
            if not instance_types or zone_id in offered
        ]

    parts = [item for subnet in subnets for item in (subnet.id, subnet.availability_zone_id)]
    return pulumi.Output.all(offered_zone_ids, *parts).apply(pick)


def _zone_id(index: int, chosen: list[Zone]) -> str:
    return chosen[index].zone_id
