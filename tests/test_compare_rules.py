"""The comparison of two plan documents, written by hand: the replace rules, verdicts, cost, added and removed."""

from __future__ import annotations

import pytest

from components.facts.replace_rules import COMPONENT_REPLACE_ON_CHANGE, REPLACE_ON_CHANGE, SOURCES
from components.facts.resource_types import NODE_GROUP
from components.stackcheck.plan.compare import compare, cost_delta, replaces_on_change
from components.stackcheck.plan.inputs import recorded_inputs
from components.stackcheck.plan.report.compare import comparison_section, summary
from components.stackcheck.plan.report.sections import Report
from components.stackcheck.plan.report.text import render_text
from components.stackcheck.runtime import Secret
from scripts.replace_rules import GoReader, kubernetes_rules


@pytest.mark.parametrize(
    ("resource_type", "path", "replaces"),
    [
        (NODE_GROUP, "instanceTypes[0]", True),
        (NODE_GROUP, "amiType", True),
        (NODE_GROUP, "capacityType", True),
        (NODE_GROUP, "diskSize", True),
        (NODE_GROUP, "subnetIds[2]", True),
        (NODE_GROUP, "launchTemplate.id", True),
        (NODE_GROUP, "launchTemplate.version", False),
        (NODE_GROUP, "scalingConfig.desiredSize", False),
        (NODE_GROUP, "scalingConfig.maxSize", False),
        (NODE_GROUP, "labels.GPU", False),
        (NODE_GROUP, "taints[0].value", False),
        (NODE_GROUP, "version", False),
        ("aws:ec2/vpc:Vpc", "cidrBlock", True),
        ("aws:ec2/vpc:Vpc", "enableDnsHostnames", False),
        ("aws:ec2/subnet:Subnet", "availabilityZoneId", True),
        ("aws:ec2/subnet:Subnet", "mapPublicIpOnLaunch", False),
        # ForceNewIf: replaces only when the subnet assigned IPv6 addresses on creation.
        ("aws:ec2/subnet:Subnet", "ipv6CidrBlock", None),
        ("aws:eks/addon:Addon", "addonVersion", False),
        ("aws:eks/addon:Addon", "addonName", True),
        ("aws:autoscaling/tag:Tag", "tag.value", False),
        ("aws:autoscaling/tag:Tag", "tag.key", True),
        ("kubernetes:apps/v1:Deployment", "spec.selector.matchLabels.app", True),
        ("kubernetes:apps/v1:Deployment", 'spec.selector.matchLabels["app.kubernetes.io/name"]', True),
        ("kubernetes:apps/v1:Deployment", "spec.template.spec.containers[0].image", False),
        ("kubernetes:apps/v1:Deployment", "spec.replicas", False),
        ("kubernetes:apps/v1:DaemonSet", "metadata.name", True),
        ("kubernetes:apps/v1:DaemonSet", "metadata.namespace", True),
        ("kubernetes:apps/v1:DaemonSet", 'metadata.labels["name"]', False),
        ("kubernetes:core/v1:Secret", "stringData.token", True),
        ("kubernetes:core/v1:ConfigMap", 'data["rules.yaml"]', True),
        ("kubernetes:core/v1:Service", "spec.clusterIP", True),
        ("kubernetes:core/v1:Service", "spec.ports[0].port", False),
        ("kubernetes:rbac.authorization.k8s.io/v1:RoleBinding", "roleRef.name", True),
        ("kubernetes:rbac.authorization.k8s.io/v1:RoleBinding", "subjects[0].name", False),
        ("kubernetes:policy/v1:PodDisruptionBudget", "spec.maxUnavailable", False),
        # Not known: a type without rules here, and a component (its children decide).
        ("aws:ec2/launchTemplate:LaunchTemplate", "userData", None),
        ("eks:index:Cluster", "version", None),
        # pulumi-eks passes `name` to the control plane, which a new name replaces.
        ("eks:index:Cluster", "name", True),
    ],
)
def test_replace_rules(resource_type, path, replaces):
    assert replaces_on_change(resource_type, path) is replaces


def test_every_type_with_rules_names_its_source():
    assert set(SOURCES) == set(REPLACE_ON_CHANGE) | set(COMPONENT_REPLACE_ON_CHANGE)


def test_the_diff_go_reader_evaluates_tables_appends_and_helpers():
    source = """
func (k *kubeProvider) forceNewProperties(obj *unstructured.Unstructured) []string {
			if clients.IsSecret(obj) && (!k.enableSecretMutable || clients.IsImmutable(obj)) {
				props = append(props, properties{".type", ".stringData", ".data"}...)
			} else if clients.IsConfigMap(obj) && (!k.enableConfigMapMutable || clients.IsImmutable(obj)) {
				props = append(props, properties{".binaryData", ".data"}...)
}

var forceNew = _groups{
	"apps": _versions{
		// a comment
		"v1": _kinds{"Deployment": deployment},
	},
	"core": core,
}

var core = _versions{
	"v1": _kinds{"Service": properties{".spec.clusterIP"}},
}

var deployment = append(
	properties{
		".spec.selector",
	},
	labelSelectorForceNewProperties(".spec.selector")...,
)

func metadataForceNewProperties(prefix string) properties {
	return properties{
		prefix + ".name",
	}
}

func labelSelectorForceNewProperties(prefix string) properties {
	return properties{
		prefix + ".matchLabels",
	}
}
"""
    assert GoReader(source).value("forceNew") == {
        "apps": {"v1": {"Deployment": [".spec.selector", ".spec.selector.matchLabels"]}},
        "core": {"v1": {"Service": [".spec.clusterIP"]}},
    }
    rules = kubernetes_rules(source)
    assert rules["kubernetes:apps/v1:Deployment"] == ("metadata.name", "spec.selector", "spec.selector.matchLabels")
    assert rules["kubernetes:core/v1:Secret"] == ("data", "metadata.name", "stringData", "type")
    assert rules["kubernetes:core/v1:ConfigMap"] == ("binaryData", "data", "metadata.name")
    assert rules["kubernetes:core/v1:Namespace"] == ("metadata.name",)


def _document(resources=(), verdicts=(), cost=None, pools=()) -> dict:
    document = {"schemaVersion": 1, "resources": list(resources), "verdicts": list(verdicts), "pools": list(pools)}
    if cost is not None:
        document["cost"] = {"monthlyUsd": {"desired": cost}}
    return document


def _resource(resource_type: str, name: str, inputs: dict | None = None) -> dict:
    entry = {
        "type": resource_type,
        "name": name,
        "urn": f"urn:pulumi:dev::p::{resource_type}::{name}",
        "id": f"{name}-id",
    }
    if inputs is not None:
        entry["inputs"] = inputs
    return entry


def test_the_cost_delta_comes_from_both_documents_totals_at_desired_size():
    comparison = compare(_document(cost=1000), _document(cost=1500.5), "base.json")

    assert comparison.cost is not None and comparison.cost.delta == 500.5
    text = render_text(Report("p", "dev", "Pulumi.dev.yaml", 0, (), (), leading=(comparison_section(comparison),)))
    assert "monthly cost at desired size $1,000.00 -> $1,500.50 (+$500.50)" in text
    assert comparison_section(comparison).data["comparison"]["cost"] == {
        "desiredMonthlyUsdBefore": 1000.0,
        "desiredMonthlyUsdAfter": 1500.5,
        "desiredMonthlyUsdDelta": 500.5,
    }


def test_a_cheaper_change_shows_a_negative_delta():
    comparison = compare(_document(cost=2190.0), _document(cost=730.0), "base.json")
    assert "$2,190.00 -> $730.00 (-$1,460.00)" in summary(comparison)


@pytest.mark.parametrize(
    "costs", [(None, 100.0), (100.0, None), (None, None)], ids=["only-current", "only-previous", "neither"]
)
def test_without_a_cost_on_both_sides_the_delta_is_not_known_and_says_which_key(costs):
    previous, current = _document(cost=costs[0]), _document(cost=costs[1])
    assert cost_delta(previous, current) is None
    assert "cost delta not known (both plans' JSON must give `cost.monthlyUsd.desired`)" in summary(
        compare(previous, current, "base.json")
    )


def test_a_cost_that_is_not_a_number_is_not_a_cost():
    assert cost_delta(_document(cost=True), _document(cost=100)) is None
    assert cost_delta({"cost": {"monthlyUsd": "x"}}, _document(cost=100)) is None


def test_verdicts_that_changed_outcome_or_appeared_are_listed():
    before = _document(verdicts=[{"id": 1, "name": "a", "passed": True}, {"id": 2, "name": "b", "passed": True}])
    after = _document(
        verdicts=[
            {"id": 1, "name": "a", "passed": False, "message": "now fails"},
            {"id": 2, "name": "b", "passed": True},
            {"id": 16, "name": "cost-within-budget", "passed": True, "message": "fits"},
        ]
    )
    verdicts = compare(before, after, "base.json").verdicts
    assert [(v.id, v.before, v.after, v.message) for v in verdicts] == [
        (1, True, False, "now fails"),
        (16, None, True, "fits"),
    ]


def test_added_and_removed_resources_list_gpu_node_groups_first():
    pools = [{"name": "gpu-b", "gpusPerNode": 4}, {"name": "system", "gpusPerNode": 0}]
    before = _document([_resource("kubernetes:core/v1:Namespace", "ns", {})])
    after = _document(
        [
            _resource("aws:iam/role:Role", "role", {}),
            _resource(NODE_GROUP, "system", {}),
            _resource(NODE_GROUP, "gpu-b", {}),
        ],
        pools=pools,
    )
    comparison = compare(before, after, "base.json")
    assert [ref.name for ref in comparison.added] == ["gpu-b", "system", "role"]
    assert [ref.name for ref in comparison.removed] == ["ns"]


def test_a_previous_document_without_inputs_lists_no_changed_resources_and_says_why():
    before = _document([_resource(NODE_GROUP, "gpu")])
    after = _document([_resource(NODE_GROUP, "gpu", {"instanceTypes": ["p5.48xlarge"]})])
    comparison = compare(before, after, "old.json")

    assert comparison.inputs_compared is False and comparison.changed == ()
    text = render_text(Report("p", "dev", "f", 0, (), (), leading=(comparison_section(comparison),)))
    assert "carries no resource inputs" in text
    assert summary(comparison).startswith("changed inputs not compared, 0 to add, 0 to remove;")


def test_two_stacks_compare_by_urn_without_stack_and_project():
    before = _document([_resource(NODE_GROUP, "gpu", {"diskSize": 100})])
    after = _document(
        [dict(_resource(NODE_GROUP, "gpu", {"diskSize": 200}), urn=f"urn:pulumi:prod::p::{NODE_GROUP}::gpu")]
    )
    [change] = compare(before, after, "dev.json").changed
    assert (change.action, change.changes[0].path, change.changes[0].replaces) == ("replace", "diskSize", True)


def test_a_resource_that_deletes_before_replacing_says_so():
    before = _document([_resource(NODE_GROUP, "gpu", {"diskSize": 100})])
    after = _document([dict(_resource(NODE_GROUP, "gpu", {"diskSize": 200}), deleteBeforeReplace=True)])
    comparison = compare(before, after, "dev.json")
    assert comparison.changed[0].delete_first is True
    text = render_text(Report("p", "dev", "f", 0, (), (), leading=(comparison_section(comparison),)))
    assert "replace (delete first)" in text


def test_recorded_inputs_are_sorted_with_secrets_redacted_and_pulumi_keys_dropped():
    recorded = recorded_inputs({"b": 2.0, "a": {"token": Secret({"key": "s3cr3t", "n": [1]})}, "__defaults": []})
    assert recorded == {"a": {"token": {"key": "[redacted]", "n": ["[redacted]"]}}, "b": 2}
    assert list(recorded) == ["a", "b"]


def test_a_previous_document_of_odd_shapes_compares_without_failing():
    previous = {
        "schemaVersion": 1,
        "resources": [7, {"name": "x"}, {"urn": "u", "inputs": ["a", {"b": None}]}],
        "verdicts": [{"id": "1"}, "v"],
        "pools": [{"name": "gpu", "gpusPerNode": "4"}, None],
        "cost": {"monthlyUsd": {"desired": "12"}},
    }
    comparison = compare(previous, _document([_resource(NODE_GROUP, "gpu", {})]), "odd.json")
    assert [ref.urn for ref in comparison.removed] == ["u"]
    assert [ref.name for ref in comparison.added] == ["gpu"] and comparison.cost is None


@pytest.mark.parametrize(
    ("before", "after", "delete_first"),
    [
        # A name the program gives, unchanged: pulumi-kubernetes deletes the old object first.
        pytest.param(
            {"name": "ds", "namespace": "kube-system"}, {"name": "ds", "namespace": "kube-system"}, True, id="same-name"
        ),
        # A new name or namespace: the new object is created first.
        pytest.param(
            {"name": "ds", "namespace": "kube-system"},
            {"name": "ds2", "namespace": "kube-system"},
            False,
            id="new-name",
        ),
        pytest.param({"name": "ds", "namespace": "a"}, {"name": "ds", "namespace": "b"}, False, id="new-namespace"),
        # Named by Pulumi or by the API server: created first.
        pytest.param({}, {}, False, id="autonamed"),
        pytest.param({"generateName": "ds-"}, {"generateName": "ds-"}, False, id="generate-name"),
    ],
)
def test_a_kubernetes_object_named_by_the_program_is_deleted_before_it_is_replaced(before, after, delete_first):
    old = _resource("kubernetes:apps/v1:DaemonSet", "ds", {"metadata": before, "spec": {"selector": {"a": "1"}}})
    new = _resource("kubernetes:apps/v1:DaemonSet", "ds", {"metadata": after, "spec": {"selector": {"a": "2"}}})
    [change] = compare(_document([old]), _document([new]), "base.json").changed
    assert (change.action, change.delete_first) == ("replace", delete_first)


def test_a_value_that_changes_type_is_a_change():
    before = _document([_resource(NODE_GROUP, "gpu", {"labels": {"a": "1"}, "diskSize": 1})])
    after = _document([_resource(NODE_GROUP, "gpu", {"labels": {"a": 1}, "diskSize": True})])
    [change] = compare(before, after, "base.json").changed
    assert [(item.path, item.replaces) for item in change.changes] == [("diskSize", True), ("labels.a", False)]
