"""EKS managed add-ons: versions resolved at preview for the cluster's Kubernetes version, pinned offline."""

from __future__ import annotations

import json

import pytest
from conftest import PROGRAM, ROOT, dev_stack_config, merge

from components.cluster.addons import chosen_version, schema_version_warning
from components.facts import versions
from components.facts.identity import PROJECT
from components.facts.node_agents import SYSTEM_POOL_LABEL
from components.facts.resource_types import ADDON, GET_ADDON_VERSION, NODE_GROUP
from components.stackcheck.plan.addons import addon_rows
from components.stackcheck.plan.report.build import plan_report, render
from components.stackcheck.plan.run import PlanOptions, run_plan
from components.stackcheck.runtime import ProgramRun, run_program

ADDONS = (
    versions.VPC_CNI_ADDON,
    versions.KUBE_PROXY_ADDON,
    versions.COREDNS_ADDON,
    versions.NODE_MONITORING_AGENT_ADDON,
    versions.POD_IDENTITY_AGENT_ADDON,
)


def run_with_answer(overrides: dict, answer: dict | None, run: ProgramRun | None = None) -> ProgramRun:
    """The dev stack with `overrides`, every `getAddonVersion` answered with `answer` (None: offline)."""
    config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), overrides).items()}
    return run_program(
        PROGRAM,
        config,
        project=PROJECT,
        stack="test",
        run=run,
        call_answers={GET_ADDON_VERSION: answer} if answer is not None else None,
    )


def addon_versions(run: ProgramRun) -> dict[str, str | None]:
    return {r.inputs["addonName"]: r.inputs.get("addonVersion") for r in run.of_type(ADDON)}


def test_offline_each_addon_is_installed_at_its_pin_for_the_cluster_version(dev_run):
    assert addon_versions(dev_run) == {
        versions.VPC_CNI_ADDON: None,
        versions.KUBE_PROXY_ADDON: "v1.36.0-eksbuild.14",
        versions.COREDNS_ADDON: "v1.14.3-eksbuild.3",
        versions.NODE_MONITORING_AGENT_ADDON: "v1.7.0-eksbuild.1",
        versions.POD_IDENTITY_AGENT_ADDON: None,
    }


def test_each_addon_asks_eks_for_its_newest_version_for_the_cluster_version(dev_run):
    asked = [arguments for token, arguments in dev_run.calls if token == GET_ADDON_VERSION]
    # The node monitoring agent is asked too: what EKS offers is told (below), its schema's version installed.
    assert sorted(a["addonName"] for a in asked) == sorted(ADDONS)
    assert {(a["kubernetesVersion"], a["mostRecent"]) for a in asked} == {("1.36", True)}


def test_another_cluster_version_takes_that_versions_pins(stack):
    run = stack({"cluster": {"version": "1.33"}})
    found = addon_versions(run)
    assert found[versions.COREDNS_ADDON] == "v1.12.4-eksbuild.18"
    assert found[versions.KUBE_PROXY_ADDON] == "v1.33.10-eksbuild.13"
    assert found[versions.VPC_CNI_ADDON] == "v1.20.1-eksbuild.3"
    assert {r.inputs.get("version") for r in run.of_type(NODE_GROUP)} == {"1.33"}


def test_the_versions_eks_offers_are_installed_when_it_answers():
    run = run_with_answer({"gpuNodeGroup": {"nodeRepair": False}}, {"version": "v9.9.9-eksbuild.2"})
    assert addon_versions(run) == {
        versions.VPC_CNI_ADDON: "v9.9.9-eksbuild.2",
        versions.KUBE_PROXY_ADDON: "v9.9.9-eksbuild.2",
        versions.COREDNS_ADDON: "v9.9.9-eksbuild.2",
        versions.POD_IDENTITY_AGENT_ADDON: "v9.9.9-eksbuild.2",
    }


def test_node_monitoring_agent_stays_at_its_schema_version_when_eks_offers_a_newer_one(caplog):
    # A newer eksbuild must not fail every preview: the add-on whose values follow a committed schema is pinned,
    # and the preview says what EKS offers.
    run = run_with_answer({}, {"version": "v1.8.0-eksbuild.1"})
    assert addon_versions(run)[versions.NODE_MONITORING_AGENT_ADDON] == versions.NODE_MONITORING_AGENT_VERSION
    warned = [r.getMessage() for r in caplog.records if "EKS offers v1.8.0-eksbuild.1" in r.getMessage()]
    assert len(warned) == 1 and versions.NODE_MONITORING_AGENT_ADDON in warned[0]


def test_node_monitoring_agent_at_its_schema_version_is_installed(caplog):
    run = run_with_answer({}, {"version": versions.NODE_MONITORING_AGENT_VERSION})
    assert addon_versions(run)[versions.NODE_MONITORING_AGENT_ADDON] == versions.NODE_MONITORING_AGENT_VERSION
    assert not [r for r in caplog.records if "EKS offers" in r.getMessage()]


def test_chosen_version_without_an_answer_is_the_pin_or_eks_default():
    assert chosen_version(versions.COREDNS_ADDON, "1.35", None) == "v1.14.3-eksbuild.3"
    assert chosen_version(versions.VPC_CNI_ADDON, "1.36", None) is None
    assert chosen_version(versions.COREDNS_ADDON, "1.35", "v1.99.0-eksbuild.1") == "v1.99.0-eksbuild.1"


def test_a_schema_bound_addon_is_warned_about_only_when_eks_offers_another_version():
    warning = schema_version_warning(versions.NODE_MONITORING_AGENT_ADDON, "1.35", "v2.0.0-eksbuild.1")
    assert warning is not None
    assert "EKS offers v2.0.0-eksbuild.1 for Kubernetes 1.35" in warning
    assert f"installs {versions.NODE_MONITORING_AGENT_VERSION}" in warning
    assert schema_version_warning(versions.NODE_MONITORING_AGENT_ADDON, "1.35", None) is None
    assert (
        schema_version_warning(versions.NODE_MONITORING_AGENT_ADDON, "1.35", versions.NODE_MONITORING_AGENT_VERSION)
        is None
    )


def test_node_groups_carry_the_control_planes_version(dev_run):
    groups = dev_run.of_type(NODE_GROUP)
    assert len(groups) == 2
    assert {group.inputs.get("version") for group in groups} == {"1.36"}


def test_node_groups_wait_for_the_addons_nodes_need(dev_run):
    needed = {r.urn for r in dev_run.of_type(ADDON) if r.inputs["addonName"] in ("vpc-cni", "kube-proxy")}
    groups = dev_run.of_type(NODE_GROUP)
    assert len(needed) == 2 and len(groups) == 2
    for group in groups:
        assert needed <= set(group.dependencies), group.name


def test_pulumi_eks_leaves_the_addons_to_the_stack(dev_run):
    (cluster,) = dev_run.of_type("eks:index:Cluster")
    assert cluster.inputs["useDefaultVpcCni"] is True
    assert cluster.inputs["kubeProxyAddonOptions"]["enabled"] is False
    assert cluster.inputs["corednsAddonOptions"]["enabled"] is False
    assert "vpcCniOptions" not in cluster.inputs


def test_vpc_cni_enforces_network_policies(dev_run):
    (cni,) = [r for r in dev_run.of_type(ADDON) if r.inputs["addonName"] == versions.VPC_CNI_ADDON]
    assert json.loads(cni.inputs["configurationValues"]) == {"enableNetworkPolicy": "true"}
    assert cni.inputs["preserve"] is True
    assert cni.inputs["resolveConflictsOnCreate"] == "OVERWRITE"


def test_coredns_selects_the_system_node_groups_label(dev_run):
    (coredns,) = [r for r in dev_run.of_type(ADDON) if r.inputs["addonName"] == versions.COREDNS_ADDON]
    values = json.loads(coredns.inputs["configurationValues"])
    (term,) = values["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    key, value = SYSTEM_POOL_LABEL
    assert {"key": key, "operator": "In", "values": [value]} in term["matchExpressions"]
    system = dev_run.named(next(r.name for r in dev_run.of_type(NODE_GROUP) if r.name.endswith("-system")))
    assert system.inputs["labels"] == {key: value}
    assert "tolerations" not in values


@pytest.fixture(scope="module")
def dev_plan(tmp_path_factory):
    result = run_plan(PlanOptions(project_dir=ROOT, stack="dev", out_dir=tmp_path_factory.mktemp("plan")))
    assert result.verdicts, (result.failures, result.program_traceback)
    return result


def test_plan_places_coredns_on_the_system_pool_only(dev_plan):
    rows = {row.pool: row for row in dev_plan.matrix if row.workload.startswith("kube-system/coredns")}
    assert {pool: row.lands for pool, row in rows.items()} == {
        "gpu-inference-dev-system": True,
        "gpu-inference-dev-gpu": False,
    }
    # The GPU pool is refused for the system pool's label, not only for its taint: a key in any text would not say so.
    key, value = SYSTEM_POOL_LABEL
    assert (
        f"node affinity/selector mismatch: required node affinity: {key} In [{value}] (node has no label {key})"
        in rows["gpu-inference-dev-gpu"].reasons
    )


def test_plan_lists_every_addon_with_its_version_and_origin(dev_plan):
    found = {row.addon: (row.version, row.origin) for row in dev_plan.addons}
    assert found == {
        versions.VPC_CNI_ADDON: (None, "eks-default"),
        versions.KUBE_PROXY_ADDON: ("v1.36.0-eksbuild.14", "pinned"),
        versions.COREDNS_ADDON: ("v1.14.3-eksbuild.3", "pinned"),
        versions.NODE_MONITORING_AGENT_ADDON: ("v1.7.0-eksbuild.1", "pinned"),
        versions.POD_IDENTITY_AGENT_ADDON: (None, "eks-default"),
    }


def test_plan_addon_section_in_every_format(dev_plan):
    text, markdown = render(dev_plan, "text"), render(dev_plan, "markdown")
    document = json.loads(render(dev_plan, "json"))
    assert "EKS add-ons" in text and "### EKS add-ons" in markdown
    for shown in (text, markdown):
        assert "v1.14.3-eksbuild.3" in shown and "not resolved offline" in shown
    rows = {row["addon"]: row for row in document["addons"]}
    assert rows[versions.COREDNS_ADDON]["origin"] == "pinned"
    assert rows[versions.VPC_CNI_ADDON]["version"] is None
    assert "addons" in [section.key for section in plan_report(dev_plan).sections]


def test_plan_says_resolved_when_eks_answered():
    run = run_with_answer({"gpuNodeGroup": {"nodeRepair": False}}, {"version": "v9.9.9-eksbuild.2"})
    rows = addon_rows(run.resources, run.calls, run.call_results, "1.36")
    assert {(row.addon, row.version, row.origin) for row in rows} == {
        (addon, "v9.9.9-eksbuild.2", "resolved") for addon in ADDONS if addon != versions.NODE_MONITORING_AGENT_ADDON
    }


def test_aws_request_checker_accepts_every_create_addon(dev_plan):
    checks = [check for check in dev_plan.aws_requests if check.resource_type == ADDON]
    assert len(checks) == len(ADDONS)
    for check in checks:
        assert check.checked and check.passed, (check.resource_name, check.problems)
        assert [request.operation for request in check.requests] == ["CreateAddon"]


def test_kube_proxy_and_vpc_cni_take_over_the_addons_pulumi_eks_registered_before(dev_run):
    # Earlier releases left both to pulumi-eks; without the aliases `pulumi up` would create a second add-on of
    # the same name, which CreateAddon refuses, before deleting pulumi-eks's.
    (cluster,) = dev_run.of_type("eks:index:Cluster")
    found = {r.inputs["addonName"]: r.aliases for r in dev_run.of_type(ADDON)}
    assert found[versions.KUBE_PROXY_ADDON] == ({"name": f"{cluster.name}-kube-proxy", "parentUrn": cluster.urn},)
    cni_parent = cluster.urn.replace("$eks:index:Cluster::", "$eks:index:Cluster$eks:index:VpcCniAddon::") + "-vpc-cni"
    assert found[versions.VPC_CNI_ADDON] == ({"name": f"{cluster.name}-vpc-cni", "parentUrn": cni_parent},)
    assert found[versions.COREDNS_ADDON] == ()


def test_addons_take_over_conflicting_fields_and_keep_networking_when_removed(dev_run):
    found = {r.inputs["addonName"]: r.inputs for r in dev_run.of_type(ADDON)}
    assert sorted(found) == sorted(ADDONS)
    for inputs in found.values():
        assert (inputs["resolveConflictsOnCreate"], inputs["resolveConflictsOnUpdate"]) == ("OVERWRITE", "OVERWRITE")
    kept = {addon for addon, inputs in found.items() if inputs["preserve"]}
    assert kept == {versions.VPC_CNI_ADDON, versions.KUBE_PROXY_ADDON}


def test_every_addon_carries_the_stacks_tags(dev_run):
    addons = dev_run.of_type(ADDON)
    assert len(addons) == len(ADDONS)
    for addon in addons:
        assert addon.inputs.get("tags") == {"app.kubernetes.io/part-of": PROJECT, "pulumi:stack": "test"}, addon.name
