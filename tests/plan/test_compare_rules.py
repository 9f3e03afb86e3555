"""The comparison of two plan documents, written by hand: the replace rules, verdicts, cost, added and removed."""

from __future__ import annotations

import pytest

from components.facts.replace_rules import COMPONENT_REPLACE_ON_CHANGE, NOT_KNOWN, REPLACE_ON_CHANGE, SOURCES
from components.facts.resource_types import NODE_GROUP
from components.facts.resource_types import VPC as VPC_TYPE
from components.stackcheck.mock_answers import LAUNCH_TEMPLATE_VERSIONS, launch_template_version
from components.stackcheck.plan.compare import compare, cost_delta, replaces_on_change
from components.stackcheck.plan.inputs import recorded_inputs
from components.stackcheck.plan.report.compare import comparison_section, rolling_words, summary
from components.stackcheck.plan.report.sections import Report
from components.stackcheck.plan.report.text import render_text
from components.stackcheck.plan.rolling import EvictedWorkload, RollingUpdate
from components.stackcheck.plan.stack_names import stack_renamer
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
        # terraform-provider-aws ec2_launch_template.go (commit c49358f89b43): only name and name_prefix are
        # ForceNew; any other change is a new version of the same template.
        ("aws:ec2/launchTemplate:LaunchTemplate", "userData", False),
        ("aws:ec2/launchTemplate:LaunchTemplate", "blockDeviceMappings[0].ebs.throughput", False),
        ("aws:ec2/launchTemplate:LaunchTemplate", "name", True),
        ("aws:ec2/launchTemplate:LaunchTemplate", "namePrefix", True),
        # vpc_endpoint.go (commit 008db85aad5e): the service is ForceNew; private DNS replaces only a non-Interface
        # endpoint (CustomizeDiff), which the plan does not judge.
        ("aws:ec2/vpcEndpoint:VpcEndpoint", "serviceName", True),
        ("aws:ec2/vpcEndpoint:VpcEndpoint", "privateDnsEnabled", None),
        ("aws:ec2/vpcEndpoint:VpcEndpoint", "routeTableIds[0]", False),
        # pod_identity_association.go (commit 93bd0baa44a9): RequiresReplace on the service account, not the role.
        ("aws:eks/podIdentityAssociation:PodIdentityAssociation", "serviceAccount", True),
        ("aws:eks/podIdentityAssociation:PodIdentityAssociation", "roleArn", False),
        # pulumi-kubernetes v4.32.0 helm_release.go: forceNewFields .name and .namespace.
        ("kubernetes:helm.sh/v3:Release", "namespace", True),
        ("kubernetes:helm.sh/v3:Release", "values.settings.clusterName", False),
        # A custom resource replaces for its metadata's name and namespace alone (diff.go has no table for it).
        ("kubernetes:karpenter.sh/v1:NodePool", "metadata.name", True),
        ("kubernetes:karpenter.sh/v1:NodePool", "spec.template.spec.taints[0].key", False),
        # Not known: a type whose source was not read, and a component (its children decide).
        ("aws:s3/bucket:Bucket", "bucket", None),
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


def _node_group(name: str, template_version: str, desired: int = 2, **inputs) -> dict:
    base = {
        "launchTemplate": {"id": f"{name}-lt-id", "version": template_version},
        "scalingConfig": {"desiredSize": desired, "maxSize": 4, "minSize": 0},
        "updateConfig": {"maxUnavailable": 1},
    }
    return _resource(NODE_GROUP, name, base | inputs)


def _deployment(name: str, replicas: int | None, args: list[str] | None = None) -> dict:
    spec: dict = {"template": {"spec": {"containers": [{"name": "main", "args": args or []}]}}}
    if replicas is not None:
        spec["replicas"] = replicas
    return _resource("kubernetes:apps/v1:Deployment", name, {"metadata": {"name": name}, "spec": spec})


def _lands(workload: str, kind: str, pool: str, resource: str | None) -> dict:
    row = {"workload": workload, "kind": kind, "pool": pool, "lands": True, "reasons": []}
    return row | ({"resource": resource} if resource else {})


def test_a_new_launch_template_version_rolls_every_node_and_names_what_it_evicts():
    """node_group.go (commit 012e0a32f068, `resourceNodeGroupUpdate`): a changed launch_template version is an
    `UpdateNodegroupVersion`, which replaces the group's nodes; the node count is the earlier plan's desiredSize
    (2 here), the pace its updateConfig.maxUnavailable (1). A Deployment without `spec.replicas` runs one
    (Kubernetes API, DeploymentSpec); DaemonSets and what EKS runs (rows without a resource) are not listed."""
    server = _deployment("server", None, ["m", "--served-model-name", "org/model", "--port", "8000"])
    worker = _deployment("worker", 3)
    matrix = [
        _lands("ml/server", "Deployment", "gpu", "kubernetes:apps/v1:Deployment::server"),
        _lands("ml/worker", "Deployment", "gpu", "kubernetes:apps/v1:Deployment::worker"),
        _lands("kube-system/agent", "DaemonSet", "gpu", "kubernetes:apps/v1:DaemonSet::agent"),
        _lands("kube-system/coredns [EKS]", "Deployment", "gpu", None),
        _lands("ml/elsewhere", "Deployment", "cpu", "kubernetes:apps/v1:Deployment::worker"),
    ]
    before = _document([_node_group("gpu", "3"), server, worker])
    after = dict(_document([_node_group("gpu", "4"), server, worker]), matrix=matrix)

    [change] = compare(before, after, "base.json").changed

    assert (change.action, change.rolling) == (
        "update",
        RollingUpdate(2, 1, (EvictedWorkload("ml/server", 1, "org/model"), EvictedWorkload("ml/worker", 3))),
    )
    assert [item.goes_down for item in change.rolling.workloads] == [True, False]
    assert rolling_words(change.rolling) == (
        "replaces its 2 node(s) (desiredSize), 1 at a time (maxUnavailable), evicting ml/server (org/model), "
        "1 replica(s): down until its pod runs on a new node; ml/worker, 3 replica(s): serves on fewer replicas "
        "while its pods move"
    )


@pytest.mark.parametrize(
    ("inputs", "rolls"),
    [
        # UpdateNodegroupVersion: release and Kubernetes versions too.
        pytest.param({"releaseVersion": "1.36.0-20261201"}, True, id="release-version"),
        pytest.param({"version": "1.37"}, True, id="kubernetes-version"),
        # UpdateNodegroupConfig leaves the nodes running: scaling, labels, taints, update settings.
        pytest.param({"scalingConfig": {"desiredSize": 2, "maxSize": 6, "minSize": 0}}, False, id="max-size"),
        pytest.param({"labels": {"team": "ml"}}, False, id="labels"),
        pytest.param({"updateConfig": {"maxUnavailable": 2}}, False, id="update-config"),
    ],
)
def test_only_a_version_update_rolls_the_nodes(inputs, rolls):
    """node_group.go (commit 012e0a32f068): `UpdateNodegroupVersion` for launch_template, release_version and
    version; `UpdateNodegroupConfig` for labels, scaling_config, taint, update_config and node_repair_config."""
    before = _document([_node_group("gpu", "3")])
    after = _document([_node_group("gpu", "3", **inputs)])
    [change] = compare(before, after, "base.json").changed
    assert change.action == "update"
    assert (change.rolling is not None) is rolls


def test_a_replaced_node_group_is_not_called_a_rolling_update():
    """A new disk size replaces the group (node_group.go: disk_size ForceNew): its nodes go with it, which the
    replacement already says."""
    before = _document([_node_group("gpu", "3", diskSize=100)])
    after = _document([_node_group("gpu", "4", diskSize=200)])
    [change] = compare(before, after, "base.json").changed
    assert (change.action, change.rolling) == ("replace", None)


@pytest.mark.parametrize(
    ("value", "renamed"),
    [
        ("dev", "prod"),
        ("gpu-inference-dev", "gpu-inference-prod"),
        ("/aws/eks/gpu-inference-dev/cluster", "/aws/eks/gpu-inference-prod/cluster"),
        ("gpu-inference-dev-network-private-0-id", "gpu-inference-prod-network-private-0-id"),
        # Not a whole word: another word that starts or ends so.
        ("device-plugin", "device-plugin"),
        ("gpu-inference-devx", "gpu-inference-devx"),
        # A path segment of its own is a device, not the stack.
        ("/dev/xvda", "/dev/xvda"),
        (3, 3),
    ],
)
def test_the_stack_renamer_changes_whole_words_only(value, renamed):
    assert stack_renamer("dev", "prod")(value) == renamed


def test_two_stacks_match_resources_named_after_them_and_set_the_name_apart():
    """Stack `dev`'s resource `net-dev` is stack `prod`'s `net-prod`: one resource, whose tag is the name's."""
    before = dict(_document([_resource(VPC_TYPE, "net-dev", {"tags": {"pulumi:stack": "dev"}})]), stack="dev")
    later = _resource(VPC_TYPE, "net-prod", {"tags": {"pulumi:stack": "prod"}})
    after = dict(_document([dict(later, urn=later["urn"].replace(":dev::", ":prod::"))]), stack="prod")

    comparison = compare(before, after, "dev.json")

    assert comparison.stacks == ("dev", "prod")
    assert (comparison.changed, comparison.added, comparison.removed) == ((), (), ())
    [named] = comparison.by_stack_name
    assert [(item.path, item.from_stack_name) for item in named.changes] == [('tags["pulumi:stack"]', True)]


def test_one_stacks_two_plans_set_nothing_apart():
    before = dict(_document([_resource(VPC_TYPE, "net", {"tags": {"pulumi:stack": "dev"}})]), stack="dev")
    after = dict(_document([_resource(VPC_TYPE, "net", {"tags": {"pulumi:stack": "prod"}})]), stack="dev")
    comparison = compare(before, after, "dev.json")
    assert comparison.stacks is None and comparison.by_stack_name == ()
    assert [change.changes[0].from_stack_name for change in comparison.changed] == [False]


TEMPLATE = {
    "blockDeviceMappings": [{"deviceName": "/dev/xvda", "ebs": {"volumeSize": 100}}],
    "tagSpecifications": [{"resourceType": "instance", "tags": {"pulumi:stack": "dev"}}],
    "updateDefaultVersion": True,
}


@pytest.mark.parametrize(
    ("changed", "stack", "new_version"),
    [
        pytest.param({"userData": "I2Nsb3VkLWNvbmZpZw=="}, "dev", True, id="user-data"),
        pytest.param(
            {"blockDeviceMappings": [{"deviceName": "/dev/xvda", "ebs": {"volumeSize": 200}}]}, "dev", True, id="volume"
        ),
        # Not in terraform-provider-aws's updateKeys (ec2_launch_template.go, commit c49358f89b43): no new version.
        pytest.param({"tags": {"team": "ml"}}, "dev", False, id="tags"),
        pytest.param({"name": "other"}, "dev", False, id="name"),
        pytest.param({"updateDefaultVersion": False}, "dev", False, id="default-version-setting"),
        # Another stack's template with its own name in the stack tag: the same template data.
        pytest.param(
            {"tagSpecifications": [{"resourceType": "instance", "tags": {"pulumi:stack": "prod"}}]},
            "prod",
            False,
            id="another-stack",
        ),
    ],
)
def test_the_mocks_answer_a_launch_template_version_that_changes_with_its_data(changed, stack, new_version):
    version = launch_template_version(TEMPLATE, "dev")
    assert 1 <= version <= LAUNCH_TEMPLATE_VERSIONS
    assert launch_template_version(dict(TEMPLATE), "dev") == version
    assert (launch_template_version(TEMPLATE | changed, stack) != version) is new_version


def test_a_type_whose_rules_are_not_known_says_why_in_the_comparison():
    before = _document([_resource("aws:s3/bucket:Bucket", "models", {"bucket": "a"})])
    after = _document([_resource("aws:s3/bucket:Bucket", "models", {"bucket": "b"})])
    comparison = compare(before, after, "base.json")
    text = render_text(Report("p", "dev", "f", 0, (), (), leading=(comparison_section(comparison),)))
    assert "may replace (rules not known)" in text
    assert f"rules not known: {NOT_KNOWN['aws:s3/bucket:Bucket']}" in text
    assert (
        comparison_section(comparison).data["comparison"]["changed"][0]["notKnown"] == NOT_KNOWN["aws:s3/bucket:Bucket"]
    )
