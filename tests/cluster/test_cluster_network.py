"""The cluster's network inputs as configured: private subnets for the nodes, public ones for load balancers."""

from __future__ import annotations

from components.facts.resource_types import EKS_CLUSTER, NODE_GROUP

PRIVATE = ["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"]
PUBLIC = ["subnet-0fedcba9876543210"]


def test_configured_subnets_reach_the_cluster_and_the_node_groups(stack):
    run = stack(
        {
            "network": None,
            "cluster": {"vpcId": "vpc-0123456789abcdef0", "privateSubnetIds": PRIVATE, "publicSubnetIds": PUBLIC},
        }
    )
    (cluster,) = run.of_type(EKS_CLUSTER)
    assert cluster.inputs["vpcId"] == "vpc-0123456789abcdef0"
    assert cluster.inputs["privateSubnetIds"] == PRIVATE
    assert cluster.inputs["publicSubnetIds"] == PUBLIC
    assert "subnetIds" not in cluster.inputs
    assert cluster.inputs["authenticationMode"] == "API"
    for group in run.of_type(NODE_GROUP):
        assert group.inputs["subnetIds"] == PRIVATE
