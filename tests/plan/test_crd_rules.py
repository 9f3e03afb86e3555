"""The CRDs' CEL rules (`x-kubernetes-validations`) on what the stack registers, as the API server evaluates them on
create: every committed rule runs on the Karpenter stack's NodePool and EC2NodeClass, or sits where the objects have
no value, or is a transition rule; a rendered object broken on purpose fails the plan with the rule's message."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from conftest import change_registrations, dev_stack_config, merge, plan_stack_file, run_stack

from components.facts.contract import PlacementContract
from components.facts.resource_types import KARPENTER_NODE_CLASS, KARPENTER_NODE_POOL
from components.pools.karpenter import manifests as manifests
from components.settings import GpuNodeGroupSettings
from components.stackcheck.plan import crd_rules, crd_schema
from components.stackcheck.plan.render import kubernetes_objects
from components.stackcheck.runtime import ProgramRun
from tests.support.karpenter_stack import KARPENTER, karpenter_stack_file

NODE_POOL = ("karpenter.sh/v1", "NodePool")
NODE_CLASS = ("karpenter.k8s.aws/v1", "EC2NodeClass")


@pytest.fixture(scope="module")
def karpenter_objects() -> dict[str, dict]:
    run: ProgramRun = run_stack(merge(dev_stack_config(), KARPENTER))
    return {
        obj.kind: obj.manifest for obj in kubernetes_objects(run.resources) if obj.kind in {"NodePool", "EC2NodeClass"}
    }


def values_at(value, node: str) -> list:
    """The values `value` has at the schema node `node` (`a.b[*].c`, `{*}` for every map value)."""
    found = [value]
    for part in node.replace("[*]", ".[*]").replace("{*}", ".{*}").split("."):
        following = []
        for item in found:
            if part == "[*]" and isinstance(item, list):
                following += item
            elif part == "{*}" and isinstance(item, dict):
                following += list(item.values())
            elif isinstance(item, dict) and item.get(part) is not None:
                following.append(item[part])
        found = following
    return found


@pytest.mark.parametrize("kind", ["NodePool", "EC2NodeClass"])
def test_every_committed_rule_runs_on_the_registered_object_or_has_no_value_to_run_on(karpenter_objects, kind):
    manifest = karpenter_objects[kind]
    schema = crd_schema.crd_schemas()[(manifest["apiVersion"], kind)]["schema"]
    defaulted = crd_rules.defaulted(schema, copy.deepcopy(manifest))

    evaluation = crd_rules.evaluate(manifest)

    assert evaluation.errors == []
    everything = set(crd_rules.rules(manifest["apiVersion"], kind))
    assert evaluation.evaluated | evaluation.transition_skipped | evaluation.not_reached == everything
    assert all(values_at(defaulted, rule.node) for rule in evaluation.evaluated | evaluation.transition_skipped)
    assert not [rule.node for rule in evaluation.not_reached if values_at(defaulted, rule.node)]
    # The rules of the fields the stack sets: the requirements' and the selector terms'.
    nodes = {rule.node for rule in evaluation.evaluated}
    if kind == "NodePool":
        assert {"spec.template.spec.requirements", "spec.template.spec.requirements[*].key", "spec"} <= nodes
    else:
        assert {"spec", "spec.amiSelectorTerms", "spec.amiSelectorTerms[*].alias", "spec.subnetSelectorTerms"} <= nodes


def test_the_node_pools_transition_rules_are_skipped_on_create_and_counted(karpenter_objects):
    evaluation = crd_rules.evaluate(karpenter_objects["NodePool"])

    assert {rule.message for rule in evaluation.transition_skipped} == {
        "nodeClassRef.group is immutable",
        "nodeClassRef.kind is immutable",
        "Cannot transition NodePool between static (replicas set) and dynamic (replicas unset) provisioning modes",
    }
    assert all("oldSelf" in rule.rule for rule in evaluation.transition_skipped)
    assert not [rule for rule in evaluation.evaluated if "oldSelf" in rule.rule]


def test_the_schema_defaults_are_applied_before_the_rules_as_the_api_server_does(karpenter_objects):
    pool = copy.deepcopy(karpenter_objects["NodePool"])
    del pool["spec"]["disruption"]["budgets"]

    evaluation = crd_rules.evaluate(pool)

    # budgets defaults to [{nodes: 10%}] (the CRD's `default`), so its rule runs although the object has no budgets.
    assert "spec.disruption.budgets" in {rule.node for rule in evaluation.evaluated}


def broken_pool(change) -> dict:
    pool = manifests.node_pool("gpu", GpuNodeGroupSettings(provisioner="karpenter"), PlacementContract())
    change(pool["spec"])
    return pool


def broken_node_class(change) -> dict:
    settings = GpuNodeGroupSettings(provisioner="karpenter")
    node_class = manifests.ec2_node_class("gpu", settings, "node-role", "cluster", {})
    change(node_class["spec"])
    return node_class


def _requirement(spec: dict, **values) -> None:
    spec["template"]["spec"]["requirements"].append(values)


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        (
            broken_pool(lambda spec: _requirement(spec, key="team", operator="In", values=[])),
            "spec.template.spec.requirements: requirements with operator 'In' must have a value defined",
        ),
        (
            broken_pool(lambda spec: _requirement(spec, key="team", operator="In")),
            'spec.template.spec.requirements: NOT_FOUND: Key not found in map : "values" evaluating rule: '
            "self.all(x, x.operator == 'In' ? x.values.size() != 0 : true)",
        ),
        (
            broken_pool(
                lambda spec: _requirement(
                    spec, key="karpenter.k8s.aws/instance-gpu-count", operator="Gt", values=["1", "2"]
                )
            ),
            "spec.template.spec.requirements: requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single "
            "positive integer value",
        ),
        (
            broken_pool(lambda spec: _requirement(spec, key="karpenter.sh/spot", operator="Exists")),
            'spec.template.spec.requirements[3].key: label domain "karpenter.sh" is restricted',
        ),
        (
            broken_pool(lambda spec: _requirement(spec, key="team", operator="In", values=["a"], minValues=2)),
            "spec.template.spec.requirements: requirements with 'minValues' must have at least that many values "
            "specified in the 'values' field",
        ),
        (
            broken_pool(lambda spec: spec["disruption"]["budgets"].append({"nodes": "0", "schedule": "@daily"})),
            "spec.disruption.budgets: 'schedule' must be set with 'duration'",
        ),
        (
            broken_pool(lambda spec: spec["template"]["metadata"]["labels"].update({"kubernetes.io/hostname": "a"})),
            'spec.template.metadata.labels: label "kubernetes.io/hostname" is restricted',
        ),
        (
            broken_node_class(lambda spec: spec["amiSelectorTerms"].append({"tags": {"team": "ml"}})),
            "spec.amiSelectorTerms: 'alias' is mutually exclusive, cannot be set with a combination of other "
            "amiSelectorTerms",
        ),
        (
            broken_node_class(lambda spec: spec.update(amiSelectorTerms=[{"alias": "windows2022@v1"}])),
            "spec.amiSelectorTerms[0].alias: windows families may only specify version 'latest'",
        ),
        (
            broken_node_class(lambda spec: spec.update(instanceProfile="gpu-profile")),
            "spec: must specify exactly one of ['role', 'instanceProfile']",
        ),
        (
            broken_node_class(lambda spec: spec.update(tags={"kubernetes.io/cluster/other": "owned"})),
            "spec.tags: tag contains a restricted tag matching kubernetes.io/cluster/",
        ),
    ],
    ids=[
        "in-with-empty-values",
        "in-without-values",
        "gt-with-two-values",
        "karpenter-sh-key",
        "min-values-above-values",
        "budget-schedule-without-duration",
        "hostname-label",
        "alias-with-another-term",
        "windows-alias-version",
        "role-and-instance-profile",
        "cluster-tag",
    ],
)
def test_a_rendered_object_breaking_a_rule_is_refused_with_the_rules_message(manifest, expected):
    assert crd_schema.validation_errors(manifest) == []

    assert expected in crd_rules.violations(manifest)


def test_every_rule_of_every_committed_crd_compiles_with_the_kubernetes_functions_it_calls():
    everything = [rule for api_version, kind in crd_schema.crd_schemas() for rule in crd_rules.rules(api_version, kind)]

    # Karpenter's 74 and KEDA's one; a CRD committed later with a function the runtime lacks fails here first.
    assert len(everything) == 75
    for rule in everything:
        assert crd_rules._program(rule.rule) is not None, rule.rule


def test_a_rule_the_runtime_cannot_compile_is_reported_as_not_evaluable_offline():
    unknown = crd_rules.Rule("<root>", "self.isSemver()", "semver")

    assert crd_rules._check(unknown, "1.0.0").startswith("cannot be evaluated offline (INVALID_ARGUMENT")


def test_kubernetes_find_is_the_leftmost_re2_match_and_an_invalid_pattern_an_error():
    find = crd_rules.Rule("<root>", "self.find('[0-9]+') == '123' && self.find('xyz') == ''", "find")
    broken = crd_rules.Rule("<root>", "self.find('[') == ''", "find")

    assert crd_rules._check(find, "abc 123 456") is None
    assert (
        crd_rules._check(broken, "abc")
        == "OUT_OF_RANGE: Illegal regex: missing ]: [ evaluating rule: self.find('[') == ''"
    )


def test_the_registered_scaled_object_passes_kedas_rule_and_one_with_more_min_than_max_replicas_breaks_it():
    autoscaled = {"vllm": {"autoscaling": {"enabled": True, "minReplicas": 1, "maxReplicas": 3}}}
    run = run_stack(merge(dev_stack_config(), autoscaled))
    [scaled] = [obj.manifest for obj in kubernetes_objects(run.resources) if obj.kind == "ScaledObject"]
    assert len(crd_rules.evaluate(scaled).evaluated) == 1 and crd_rules.violations(scaled) == []

    scaled["spec"]["minReplicaCount"] = 4

    assert crd_schema.validation_errors(scaled) == []
    assert crd_rules.violations(scaled) == ["spec: minReplicaCount must be less than or equal to maxReplicaCount"]


def test_the_dev_karpenter_stack_plans_its_objects_against_the_rules(tmp_path):
    code, report = plan_stack_file(karpenter_stack_file(tmp_path), tmp_path / "out")
    messages = {result["object"]: result["message"] for result in report["schema"]}

    assert code == 0, report["failures"]
    ran = {kind: crd_rules.evaluate(manifest) for kind, manifest in _planned(tmp_path).items()}
    pool, node_class = ran["NodePool"], ran["EC2NodeClass"]
    assert messages["NodePool gpu"] == (
        f"valid (NodePool CRD schema and {len(pool.evaluated)} CEL rules, "
        f"{len(pool.transition_skipped)} transition rules skipped, stackcheck/plan/crds)"
    )
    assert messages["EC2NodeClass gpu"] == (
        f"valid (EC2NodeClass CRD schema and {len(node_class.evaluated)} CEL rules, stackcheck/plan/crds)"
    )
    assert len(pool.evaluated) > 10 and len(node_class.evaluated) > 10 and node_class.transition_skipped == set()


def _planned(tmp_path: Path) -> dict[str, dict]:
    import yaml

    found = {}
    for path in (tmp_path / "out").rglob("*.yaml"):
        document = yaml.safe_load(path.read_text())
        if isinstance(document, dict) and document.get("kind") in {"NodePool", "EC2NodeClass"}:
            found[document["kind"]] = document
    assert set(found) == {"NodePool", "EC2NodeClass"}
    return found


@pytest.mark.parametrize(
    ("registered", "change", "expected"),
    [
        (
            KARPENTER_NODE_POOL,
            lambda inputs: inputs["spec"]["template"]["spec"]["requirements"].append(
                {"key": "team", "operator": "In", "values": []}
            ),
            "NodePool gpu: invalid (NodePool CRD rules): spec.template.spec.requirements: requirements with operator "
            "'In' must have a value defined",
        ),
        (
            KARPENTER_NODE_POOL,
            lambda inputs: inputs["spec"]["disruption"]["budgets"].append({"nodes": "0", "schedule": "@daily"}),
            "NodePool gpu: invalid (NodePool CRD rules): spec.disruption.budgets: 'schedule' must be set with "
            "'duration'",
        ),
        (
            KARPENTER_NODE_CLASS,
            lambda inputs: inputs["spec"]["amiSelectorTerms"].append({"id": "ami-0123456789abcdef0"}),
            "EC2NodeClass gpu: invalid (EC2NodeClass CRD rules): spec.amiSelectorTerms: 'alias' is mutually "
            "exclusive, cannot be set with a combination of other amiSelectorTerms",
        ),
    ],
    ids=["in-with-empty-values", "budget-schedule-without-duration", "alias-with-another-term"],
)
def test_a_registered_object_breaking_a_rule_fails_the_plan_naming_object_path_and_message(
    tmp_path, monkeypatch, registered, change, expected
):
    def broken(args):
        if args.typ == registered:
            change(args.inputs)
            return True
        return False

    changed = change_registrations(monkeypatch, broken)
    code, report = plan_stack_file(karpenter_stack_file(tmp_path), tmp_path / "out")

    assert code == 1 and len(changed) == 1
    [failed] = [result for result in report["schema"] if not result["passed"]]
    assert f"{failed['object']}: {failed['message']}" == expected
    assert expected.split(": ", 1)[0] in json.dumps(report["failures"])
