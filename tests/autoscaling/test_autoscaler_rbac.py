"""The Cluster Autoscaler's ClusterRole: the rules of the upstream AWS example at the release pinned for the
cluster's Kubernetes version (kubernetes/autoscaler, `cluster-autoscaler-<version>`,
cluster-autoscaler/cloudprovider/aws/examples/cluster-autoscaler-autodiscover.yaml)."""

from __future__ import annotations

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.autoscaling.cluster_autoscaler import CLUSTER_RULES, cluster_rules
from components.facts import versions

CLUSTER_ROLE = "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole"
STORAGE = ["storageclasses", "csinodes", "csidrivers", "csistoragecapacities"]
DYNAMIC_RESOURCES = {
    "apiGroups": ["resource.k8s.io"],
    "resources": ["deviceclasses", "resourceslices", "resourceclaims"],
    "verbs": ["watch", "list", "get"],
}


def _storage_resources(rules: list[dict]) -> list[str]:
    (rule,) = [rule for rule in rules if rule["apiGroups"] == ["storage.k8s.io"]]
    return rule["resources"]


# (Kubernetes version, the example's tag, whether it reads volumeattachments, whether it has the DRA rule), as
# read from the example's ClusterRole at each pinned tag.
PINNED = [
    ("1.32", "v1.32.7", False, False),
    ("1.33", "v1.33.6", True, False),
    ("1.34", "v1.34.5", True, False),
    ("1.35", "v1.35.2", True, False),
    ("1.36", "v1.36.1", True, True),
]


def test_the_table_covers_every_pinned_release():
    assert {version: tag for version, tag, _, _ in PINNED} == versions.CLUSTER_AUTOSCALER_VERSIONS


@pytest.mark.parametrize(
    ("version", "tag", "volume_attachments", "dynamic_resources"), PINNED, ids=[p[1] for p in PINNED]
)
def test_each_release_gets_the_rules_of_its_own_example(version, tag, volume_attachments, dynamic_resources):
    rules = cluster_rules(version)
    assert _storage_resources(rules) == STORAGE + (["volumeattachments"] if volume_attachments else [])
    assert (DYNAMIC_RESOURCES in rules) is dynamic_resources
    # Every other rule is the same at every pinned tag.
    others = [r for r in rules if r["apiGroups"] not in (["storage.k8s.io"], ["resource.k8s.io"])]
    assert others == [r for r in CLUSTER_RULES if r["apiGroups"] not in (["storage.k8s.io"], ["resource.k8s.io"])]
    assert len(rules) == len(CLUSTER_RULES) - (0 if dynamic_resources else 1)


def test_the_cluster_role_a_stack_registers_follows_its_cluster_version():
    run = run_stack(merge(dev_stack_config(), {"cluster": {"version": "1.33"}}))
    (role,) = [r for r in run.of_type(CLUSTER_ROLE) if r.inputs["metadata"]["name"] == "cluster-autoscaler"]
    assert role.inputs["rules"] == cluster_rules("1.33")
    assert DYNAMIC_RESOURCES not in role.inputs["rules"]
    assert "volumeattachments" in _storage_resources(role.inputs["rules"])
