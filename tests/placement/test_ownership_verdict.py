"""The ownership verdict, `one-owner-per-attribute`, on plain data: a tag resource on a resource that manages its own
tags, two tag resources of one key, an object or a Helm release declared twice.

Expected outcomes come from the sources the verdict's module cites: pulumi-aws's `aws.ec2.Tag` docs (v7.15.0: "This
tagging resource should not be combined with the providers resource for managing the parent resource ... will cause
a perpetual difference"), the cluster's one object per API group, kind, namespace and name, and Helm's one release
per name in a namespace.
"""

from __future__ import annotations

import pytest

from components.facts.resource_types import AUTOSCALING_TAG, EC2_TAG, HELM_RELEASE, SUBNET
from components.placement.ownership import VERDICT_NAME, Declared, ownership_verdict

SUBNET_ID = "subnet-0a1b2c3d4e5f60711"


def subnet(inputs: dict) -> dict:
    return {"type": SUBNET, "name": "private-0", "id": SUBNET_ID, "inputs": inputs}


def tag(name: str, resource_id: str = SUBNET_ID, key: str = "karpenter.sh/discovery") -> dict:
    return {
        "type": EC2_TAG,
        "name": name,
        "id": f"{resource_id},{key}",
        "inputs": {"resourceId": resource_id, "key": key, "value": "ml"},
    }


def release(name: str, release_name: str, namespace: str | None) -> dict:
    inputs = {"name": release_name, "chart": "c"} | ({"namespace": namespace} if namespace else {})
    return {"type": HELM_RELEASE, "name": name, "id": name, "inputs": inputs}


def config_map(resource_name: str, namespace: str = "apps", group: str = "") -> Declared:
    return Declared(group, "ConfigMap", namespace, "settings", "kubernetes:core/v1:ConfigMap", resource_name)


@pytest.mark.parametrize(
    ("resources", "objects", "passed"),
    [
        # The double owner of the issue: the subnet's own `tags` and a tag resource on the same subnet.
        pytest.param([subnet({"tags": {"Name": "private-0"}}), tag("discovery")], [], False, id="tag-on-own-tags"),
        # An empty `tags` manages them all the same: the provider removes every tag it does not list.
        pytest.param([subnet({"tags": {}}), tag("discovery")], [], False, id="tag-on-empty-own-tags"),
        # A subnet registered without `tags` leaves its tags alone.
        pytest.param([subnet({"cidrBlock": "10.0.0.0/19"}), tag("discovery")], [], True, id="parent-without-tags"),
        # A subnet the stack does not register (brought by the user): the tag resource is its only owner here.
        pytest.param([tag("discovery", "subnet-0fffffffffffffff0")], [], True, id="brought-subnet"),
        # The discovery tag in the subnet's own tags and no tag resource: one owner.
        pytest.param([subnet({"tags": {"karpenter.sh/discovery": "ml"}})], [], True, id="own-tags-only"),
        # A tag resource whose target is not known at preview (no `resourceId` recorded) is passed over, and the
        # tag resources after it are still judged.
        pytest.param(
            [tag("pending") | {"inputs": {"key": "Name"}}, subnet({"tags": {}}), tag("discovery")],
            [],
            False,
            id="after-a-tag-resource-of-unknown-target",
        ),
        pytest.param([tag("a", "sg-1"), tag("b", "sg-1")], [], False, id="two-tag-resources-one-key"),
        pytest.param([tag("a", "sg-1"), tag("b", "sg-1", key="Name")], [], True, id="two-tag-resources-two-keys"),
        # An Auto Scaling group may be named like an EC2 id: its tag and an EC2 tag of that id tag two resources.
        pytest.param(
            [
                tag("a", "sg-1", key="Name"),
                {
                    "type": AUTOSCALING_TAG,
                    "name": "b",
                    "id": "sg-1,Name",
                    "inputs": {"autoscalingGroupName": "sg-1", "tag": {"key": "Name"}},
                },
            ],
            [],
            True,
            id="an-ec2-tag-and-an-auto-scaling-tag-of-one-name",
        ),
        pytest.param([], [config_map("a"), config_map("b")], False, id="object-twice"),
        pytest.param([], [config_map("a"), config_map("b", namespace="other")], True, id="two-namespaces"),
        # Same kind and name in another API group is another object.
        pytest.param([], [config_map("a"), config_map("b", group="example.com")], True, id="two-groups"),
        pytest.param(
            [release("r1", "karpenter", "kube-system"), release("r2", "karpenter", "kube-system")],
            [],
            False,
            id="release-twice",
        ),
        pytest.param(
            [release("r1", "karpenter", None), release("r2", "karpenter", "default")],
            [],
            False,
            id="release-twice-default-namespace",
        ),
        pytest.param(
            [release("r1", "karpenter", "kube-system"), release("r2", "karpenter", "karpenter")],
            [],
            True,
            id="releases-in-two-namespaces",
        ),
        pytest.param([], [], True, id="nothing"),
    ],
)
def test_the_verdict_fails_exactly_on_a_double_owner(resources, objects, passed):
    verdict = ownership_verdict(resources, objects)
    assert (verdict.name, verdict.passed) == (VERDICT_NAME, passed)
    assert bool(verdict.details) is not passed


def test_a_tag_resource_on_a_subnet_that_owns_its_tags_is_named_with_the_fix():
    verdict = ownership_verdict([subnet({"tags": {}}), tag("gpu-karpenter-discovery-subnet-0")], [])

    assert verdict.details == [
        f"{EC2_TAG} 'gpu-karpenter-discovery-subnet-0' sets tag karpenter.sh/discovery on {SUBNET} 'private-0', "
        "whose own `tags` the stack manages too: the next refresh reads karpenter.sh/discovery into them and the "
        "update after removes it, while the tag resource still believes it is set; put karpenter.sh/discovery in "
        "private-0's `tags` and drop the tag resource"
    ]
    assert verdict.message == verdict.details[0]


def test_two_tag_resources_of_one_key_on_an_auto_scaling_group_are_named():
    group = "eks-gpu-asg"
    tags = [
        {
            "type": AUTOSCALING_TAG,
            "name": name,
            "id": name,
            "inputs": {"autoscalingGroupName": group, "tag": {"key": "k8s.io/cluster-autoscaler/enabled"}},
        }
        for name in ("a", "b")
    ]
    verdict = ownership_verdict(tags, [])

    assert verdict.details == [
        f"tag k8s.io/cluster-autoscaler/enabled on {group} is set by {AUTOSCALING_TAG} 'a' and by "
        f"{AUTOSCALING_TAG} 'b': each update of one overwrites the other's value; allowed: one tag resource per key"
    ]


def test_every_double_owner_is_listed_and_the_message_counts_the_rest():
    verdict = ownership_verdict(
        [subnet({"tags": {}}), tag("a"), release("r1", "x", "ns"), release("r2", "x", "ns")],
        [config_map("c1"), config_map("c2")],
    )

    assert [line.split(" ", 2)[:2] for line in verdict.details] == [
        [EC2_TAG, "'a'"],
        ["ConfigMap", "apps/settings"],
        ["Helm", "release"],
    ]
    assert verdict.message.endswith(" (and 2 more)")
    assert verdict.details[1] == (
        "ConfigMap apps/settings is declared twice: by kubernetes:core/v1:ConfigMap 'c1' and by "
        "kubernetes:core/v1:ConfigMap 'c2'; allowed: one resource per object"
    )
    assert verdict.details[2] == (
        f"Helm release ns/x is declared twice: by {HELM_RELEASE} 'r1' and by {HELM_RELEASE} 'r2': each upgrade "
        "replaces the other's chart and values; allowed: one resource per release"
    )


def test_a_passing_verdict_counts_the_tag_resources_it_looked_at():
    assert ownership_verdict([tag("a", "sg-1")], []).message == (
        "every tag, Kubernetes object and Helm release the stack manages has one owner (1 tag resource(s), each on "
        "a resource whose tags the stack does not manage)"
    )
    assert ownership_verdict([], []).message == (
        "every tag, Kubernetes object and Helm release the stack manages has one owner"
    )


def test_a_cluster_scoped_object_declared_twice_is_named_without_a_namespace():
    role = Declared("rbac.authorization.k8s.io", "ClusterRole", None, "reader", "kubernetes:rbac/v1:ClusterRole", "a")

    verdict = ownership_verdict([], [role, Declared(**{**role.__dict__, "resource_name": "b"})])

    assert verdict.details == [
        "ClusterRole reader is declared twice: by kubernetes:rbac/v1:ClusterRole 'a' and by "
        "kubernetes:rbac/v1:ClusterRole 'b'; allowed: one resource per object"
    ]


def test_only_helm_releases_and_tag_resources_are_judged_as_such():
    """A resource of another type with release-like or tag-like inputs owns nothing of the kind."""
    chart_like = {"type": "kubernetes:core/v1:ConfigMap", "name": "x", "id": "x", "inputs": {"name": "karpenter"}}

    verdict = ownership_verdict([chart_like, release("r2", "karpenter", None)], [])

    assert verdict.passed is True
