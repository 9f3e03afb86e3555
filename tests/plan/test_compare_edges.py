"""`plan --compare` at its edges: counts of zero in the earlier plan, and the refusals of a previous document,
whole. (The comparison of whole plans is in test_plan_compare.py, its rules in test_compare_rules.py.)"""

from __future__ import annotations

import json

import pytest

from components.stackcheck.plan.compare import compare, load_previous
from components.stackcheck.plan.rolling import EvictedWorkload, RollingUpdate, rolling_update
from components.stackcheck.stack_config import UsageError

DEPLOYMENT = "kubernetes:apps/v1:Deployment"


def _document(replicas: int) -> dict:
    server = {"type": DEPLOYMENT, "name": "server", "inputs": {"spec": {"replicas": replicas}}}
    row = {"workload": "ml/server", "pool": "gpu", "lands": True, "resource": f"{DEPLOYMENT}::server"}
    return {"resources": [server], "matrix": [row]}


def test_a_node_group_at_zero_nodes_replaces_zero_nodes_and_a_deployment_at_zero_replicas_evicts_none():
    """A node group scaled to zero (`scalingConfig.desiredSize` 0, which EKS allows: "desiredSize ... Minimum value
    of 0", EKS API reference, NodegroupScalingConfig) has 0 nodes to replace, not an unknown count; a Deployment
    scaled to zero (`spec.replicas` 0) runs 0 pods, not the default one (Kubernetes API, DeploymentSpec.replicas:
    "Defaults to 1" only when the field is not given). No `updateConfig`: the pace is not known."""
    before = {"name": "gpu", "inputs": {"scalingConfig": {"desiredSize": 0}}}
    after = {"name": "gpu", "inputs": {"releaseVersion": "1.36.0-20261201"}}

    update = rolling_update(before, after, _document(replicas=0))

    assert update == RollingUpdate(0, None, (EvictedWorkload("ml/server", 0),))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(
            '{"schemaVersion": 2, "resources": []}',
            "schemaVersion 2 is not one this plan reads; allowed: schemaVersion 1",
            id="schema-version-2",
        ),
        pytest.param(
            '{"schemaVersion": 1}',
            "has no `resources` list, so it is not a plan's document; "
            "allowed: a JSON document written by `plan --format json`",
            id="no-resources",
        ),
    ],
)
def test_a_previous_document_this_plan_cannot_read_is_refused_whole(tmp_path, content, message):
    """The refusal names `--compare`, the file, what is wrong and what is allowed (the plan's JSON document is
    schemaVersion 1, `plan --format json`)."""
    previous = tmp_path / "previous.json"
    previous.write_text(content)

    with pytest.raises(UsageError) as refused:
        load_previous(previous)

    assert str(refused.value) == f"--compare {previous}: {message}"


def test_a_readable_previous_document_is_returned_as_read(tmp_path):
    previous = tmp_path / "previous.json"
    document = {"schemaVersion": 1, "resources": [{"type": DEPLOYMENT, "name": "server"}]}
    previous.write_text(json.dumps(document))

    assert load_previous(previous) == document


def _resource(resource_type: str, name: str, inputs: dict) -> dict:
    urn = f"urn:pulumi:dev::p::{resource_type}::{name}"
    return {"type": resource_type, "name": name, "urn": urn, "id": f"{name}-id", "inputs": inputs}


def _env_deployment(name: str, value: str) -> dict:
    container = {"name": "main", "env": [{"name": "UPSTREAM", "value": value}]}
    return _resource(DEPLOYMENT, name, {"spec": {"template": {"spec": {"containers": [container]}}}})


def test_a_resource_updated_in_place_keeps_its_id_so_what_takes_its_id_does_not_change():
    """A new `cidrBlock` replaces the VPC (terraform-provider-aws, vpc.go: cidr_block ForceNew), so it gets a new
    id; a Deployment holding the VPC's id in a container's env changes with it, in place (a container's env is no
    force-new path of pulumi-kubernetes' Deployment: only metadata.name, metadata.namespace and spec.selector). An
    in-place update keeps the Deployment's own id, so a second Deployment holding that id changes nothing."""
    vpc_before = _resource("aws:ec2/vpc:Vpc", "vpc", {"cidrBlock": "10.0.0.0/16"})
    vpc_after = _resource("aws:ec2/vpc:Vpc", "vpc", {"cidrBlock": "10.1.0.0/16"})
    follower = _env_deployment("follower", "vpc-id")
    second = _env_deployment("second", "follower-id")
    before = {"schemaVersion": 1, "resources": [vpc_before, follower, second]}
    after = {"schemaVersion": 1, "resources": [vpc_after, follower, second]}

    changed = compare(before, after, "base.json").changed

    assert sorted((change.name, change.action) for change in changed) == [("follower", "update"), ("vpc", "replace")]
    [followed] = next(change for change in changed if change.name == "follower").changes
    assert (followed.follows, followed.replaces) == ("vpc", False)


def test_a_replacement_reaches_what_takes_the_id_of_what_it_replaces_in_turn():
    """A new `cidrBlock` replaces the VPC; its subnet holds the VPC's id in `vpcId`, which replaces a subnet
    (terraform-provider-aws, subnet.go: vpc_id ForceNew), so the subnet gets a new id too; the node group holds the
    subnet's id in `subnetIds`, which replaces a node group (node_group.go: subnet_ids ForceNew). Each id is the
    same in both plans (the mocks' ids): only following the replacements finds the subnet and the node group."""
    vpc_before = _resource("aws:ec2/vpc:Vpc", "vpc", {"cidrBlock": "10.0.0.0/16"})
    vpc_after = _resource("aws:ec2/vpc:Vpc", "vpc", {"cidrBlock": "10.1.0.0/16"})
    subnet = _resource("aws:ec2/subnet:Subnet", "private-0", {"vpcId": "vpc-id"})
    nodes = _resource("aws:eks/nodeGroup:NodeGroup", "gpu", {"subnetIds": ["private-0-id"]})
    before = {"schemaVersion": 1, "resources": [vpc_before, subnet, nodes]}
    after = {"schemaVersion": 1, "resources": [vpc_after, subnet, nodes]}

    changed = {change.name: change for change in compare(before, after, "base.json").changed}

    assert {name: change.action for name, change in changed.items()} == {
        "vpc": "replace",
        "private-0": "replace",
        "gpu": "replace",
    }
    assert [(item.path, item.follows) for item in changed["gpu"].changes] == [("subnetIds[0]", "private-0")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        # Python's json module's own words for the first bad character (json.JSONDecodeError).
        pytest.param(
            b"{not json",
            "not JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1)); "
            "allowed: a JSON document written by `plan --format json`",
            id="not-json",
        ),
        # A file that is not UTF-8: the codec's own words (UnicodeDecodeError).
        pytest.param(
            b"\xff",
            "not JSON ('utf-8' codec can't decode byte 0xff in position 0: invalid start byte); "
            "allowed: a JSON document written by `plan --format json`",
            id="not-utf-8",
        ),
        pytest.param(
            b"[]",
            "has no `resources` list, so it is not a plan's document; "
            "allowed: a JSON document written by `plan --format json`",
            id="a-list",
        ),
        pytest.param(
            b'{"resources": []}',
            "schemaVersion None is not one this plan reads; allowed: schemaVersion 1",
            id="no-schema-version",
        ),
    ],
)
def test_a_previous_file_that_is_no_plan_document_is_refused_whole(tmp_path, content, message):
    previous = tmp_path / "previous.json"
    previous.write_bytes(content)

    with pytest.raises(UsageError) as refused:
        load_previous(previous)

    assert str(refused.value) == f"--compare {previous}: {message}"


def test_a_missing_previous_file_is_refused_naming_the_os_error(tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(UsageError) as refused:
        load_previous(missing)
    assert str(refused.value) == (
        f"--compare {missing}: cannot read it: No such file or directory; "
        "allowed: a JSON document written by `plan --format json`"
    )


def test_resources_only_one_plan_has_are_listed_costliest_first_by_type_and_name():
    """`ResourceChange`'s ranks: 0 a GPU node group (a pool the plan models with GPUs), 2 a VPC, 3 another node
    group, 4 anything else; within a rank by type, then name. Each is named by its URN without stack and project."""
    kept = _resource("aws:ec2/vpc:Vpc", "vpc", {})
    old = _resource(DEPLOYMENT, "old", {})
    before = {"schemaVersion": 1, "resources": [kept, old]}
    added = [
        _resource(DEPLOYMENT, "web", {}),
        _resource("kubernetes:core/v1:Service", "api", {}),
        _resource(DEPLOYMENT, "api", {}),
        _resource("aws:eks/nodeGroup:NodeGroup", "system", {}),
        _resource("aws:ec2/vpc:Vpc", "edge", {}),
        _resource("aws:eks/nodeGroup:NodeGroup", "gpu", {}),
    ]
    after = {"schemaVersion": 1, "resources": [kept, *added], "pools": [{"name": "gpu", "gpusPerNode": 1}]}

    comparison = compare(before, after, "base.json")

    assert [(ref.rank, ref.type, ref.name, ref.urn) for ref in comparison.added] == [
        (0, "aws:eks/nodeGroup:NodeGroup", "gpu", "aws:eks/nodeGroup:NodeGroup::gpu"),
        (2, "aws:ec2/vpc:Vpc", "edge", "aws:ec2/vpc:Vpc::edge"),
        (3, "aws:eks/nodeGroup:NodeGroup", "system", "aws:eks/nodeGroup:NodeGroup::system"),
        (4, DEPLOYMENT, "api", f"{DEPLOYMENT}::api"),
        (4, DEPLOYMENT, "web", f"{DEPLOYMENT}::web"),
        (4, "kubernetes:core/v1:Service", "api", "kubernetes:core/v1:Service::api"),
    ]
    assert [(ref.rank, ref.type, ref.name) for ref in comparison.removed] == [(4, DEPLOYMENT, "old")]
