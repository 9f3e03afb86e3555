"""The EKS cluster component: the default VPC it looks up when the stack makes no network of its own."""

from __future__ import annotations

from conftest import dev_stack_config, run_stack

from components.facts.zones import EKS_UNSUPPORTED_ZONE_IDS
from components.stackcheck.mock_answers import MOCK_SUBNET_IDS, MOCK_VPC_ID, MOCK_ZONES
from components.stackcheck.runtime import run_program

GET_VPC = "aws:ec2/getVpc:getVpc"
GET_ZONES = "aws:index/getAvailabilityZones:getAvailabilityZones"
GET_SUBNETS = "aws:ec2/getSubnets:getSubnets"


def default_vpc_run():
    config = dev_stack_config()
    config["network"] = {"mode": "defaultVpc"}
    return run_stack(config)


def test_default_vpc_mode_uses_the_default_subnets_of_available_zones_eks_supports():
    run = default_vpc_run()
    calls = {token: args for token, args in run.calls}
    # The account's default VPC, not any VPC the lookup happens to find first.
    assert calls[GET_VPC] == {"default": True}
    # Zones that are up, without the zone IDs EKS rejects (UnsupportedAvailabilityZoneException).
    assert calls[GET_ZONES]["state"] == "available"
    assert sorted(calls[GET_ZONES]["excludeZoneIds"]) == sorted(EKS_UNSUPPORTED_ZONE_IDS)
    # EC2 DescribeSubnets filters: the default VPC's one default subnet per zone, in those zones only.
    assert calls[GET_SUBNETS]["filters"] == [
        {"name": "vpc-id", "values": [MOCK_VPC_ID]},
        {"name": "default-for-az", "values": ["true"]},
        {"name": "availability-zone-id", "values": [zone_id for _, zone_id in MOCK_ZONES]},
    ]
    (cluster,) = run.of_type("eks:index:Cluster")
    assert cluster.inputs["vpcId"] == MOCK_VPC_ID
    assert cluster.inputs["subnetIds"] == list(MOCK_SUBNET_IDS)


PROGRAM_WITH_A_PROVIDER = """
import pulumi
import pulumi_aws as aws

from components.cluster.cluster import EksCluster, EksClusterArgs

provider = aws.Provider("eu", region="eu-west-1")
EksCluster("c", EksClusterArgs(), opts=pulumi.ResourceOptions(providers=[provider]))
"""


def test_lookups_and_aws_resources_use_the_aws_provider_the_cluster_is_given(tmp_path):
    # A caller who hands the component a provider (another region or account) must get every lookup and
    # every AWS resource through it, not through the default provider.
    program = tmp_path / "__main__.py"
    program.write_text(PROGRAM_WITH_A_PROVIDER)
    run = run_program(program, {}, project="eks-gpu-inference", stack="test")
    (provider,) = run.of_type("pulumi:providers:aws")
    reference = f"{provider.urn}::{provider.id}"
    lookups = [p for (token, _), p in zip(run.calls, run.call_providers, strict=True) if token.startswith("aws:")]
    assert len(lookups) >= 3 and set(lookups) == {reference}
    aws_resources = [r for r in run.resources if r.custom and r.type.startswith("aws:")]
    assert aws_resources and {r.provider for r in aws_resources} == {reference}


def test_everything_named_after_the_cluster_waits_for_the_control_plane(dev_run):
    # The configured name is known before EKS has the cluster; node groups and add-ons created with it before
    # the control plane exists would be created against a cluster that is not there, so the name comes
    # through the control plane's output (components/cluster/cluster.py).
    (control_plane,) = dev_run.of_type("eks:index:Cluster")
    users = [r for r in dev_run.resources if r.custom and "clusterName" in r.inputs]
    assert {r.type for r in users} >= {"aws:eks/nodeGroup:NodeGroup", "aws:eks/addon:Addon"}
    for resource in users:
        assert control_plane.urn in resource.dependencies, resource.name
