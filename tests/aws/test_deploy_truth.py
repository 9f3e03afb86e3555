"""What the plan passes, AWS accepts: names within limits, subnets as pulumi-eks takes them, current
Kubernetes versions, node pools replaced without an outage, credentials the Kubernetes provider can use.
"""

from __future__ import annotations

import logging
from datetime import date
from pathlib import Path

import pytest
from conftest import PROGRAM, dev_stack_config, merge, run_stack
from hypothesis import given
from hypothesis import strategies as st

from components.facts import naming, versions
from components.facts.identity import PROJECT
from components.facts.resource_types import (
    EKS_CLUSTER,
    GET_AVAILABILITY_ZONES,
    GET_SUBNETS,
    KUBERNETES_PROVIDER,
    LAUNCH_TEMPLATE,
    NODE_GROUP,
    ROLE,
)
from components.facts.resource_types import (
    ROLE_POLICY_ATTACHMENT as POLICY_ATTACHMENT,
)
from components.facts.resource_types import VPC as VPC_TYPE
from components.settings import ConfigError, parse_settings, parse_stack_config
from components.stackcheck.aws.check import check_resources
from components.stackcheck.mock_answers import MOCK_SUBNET_IDS
from components.stackcheck.runtime import ProgramRun, Secret, run_program

VPC = "vpc-0123456789abcdef0"
PRIVATE = ["subnet-0aaaaaaaaaaaaaaa1", "subnet-0aaaaaaaaaaaaaaa2"]
PUBLIC = ["subnet-0bbbbbbbbbbbbbbb1", "subnet-0bbbbbbbbbbbbbbb2"]
# EKS cluster names allow 100 characters (botocore EKS model, `ClusterName`).
LONGEST_NAME = "a" + "-long-cluster-name" * 5 + "x" * 9


def problems_of(call) -> list:
    with pytest.raises(ConfigError) as error:
        call()
    return error.value.problems


# Names --------------------------------------------------------------------------------------------


def test_longest_cluster_name_gives_aws_names_within_their_limits():
    assert len(LONGEST_NAME) == 100
    run = run_stack(merge(dev_stack_config(), {"cluster": {"name": LONGEST_NAME}}))

    (cluster,) = run.of_type(EKS_CLUSTER)
    assert cluster.inputs["name"] == LONGEST_NAME  # the EKS cluster keeps the name asked for
    # pulumi-eks's service role `<resource name>-eksRole-role` plus the 8-character auto-name suffix.
    assert len(cluster.name + "-eksRole-role") + 8 <= 64
    for role in run.of_type(ROLE):
        assert "name" not in role.inputs and len(role.name) + 8 <= 64, role.name
    groups = run.of_type(NODE_GROUP)
    assert len(groups) == 2
    for group in groups:
        prefix = group.inputs["nodeGroupNamePrefix"]
        assert len(prefix) + 26 <= 63 and prefix.endswith("-") and prefix[0].isalnum(), prefix
    for template in run.of_type(LAUNCH_TEMPLATE):
        assert len(template.name) + 8 <= 128  # EC2 LaunchTemplateName (botocore EC2 model)
    # And every create request the stack would send passes the AWS API models and rules.
    checks = check_resources(run.resources)
    assert checks and [line for check in checks for line in check.failure_lines()] == []
    assert all(check.checked for check in checks), [c.resource_name for c in checks if not c.checked]


def test_names_that_fit_are_kept_so_existing_stacks_see_no_rename(dev_run):
    (cluster,) = dev_run.of_type(EKS_CLUSTER)
    assert cluster.name == "gpu-inference-dev"
    assert {role.name for role in dev_run.of_type(ROLE)} == {
        "gpu-inference-dev-nodes-role",
        "gpu-inference-dev-autoscaler-role",
    }
    prefixes = {group.inputs["nodeGroupNamePrefix"] for group in dev_run.of_type(NODE_GROUP)}
    assert prefixes == {"gpu-inference-dev-system-", "gpu-inference-dev-gpu-"}


@given(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=100),
    st.integers(min_value=12, max_value=80),
)
def test_fitted_names_respect_the_limit_and_are_stable(name, limit):
    fitted = naming.fit(name, limit)
    assert len(fitted) <= limit
    assert fitted == naming.fit(name, limit)
    assert fitted == name if len(name) <= limit else fitted != name


def test_fitted_names_of_clusters_sharing_a_long_prefix_differ():
    first, second = LONGEST_NAME[:-1] + "1", LONGEST_NAME[:-1] + "2"
    assert naming.node_group_name_prefix(first) != naming.node_group_name_prefix(second)
    assert naming.eks_cluster_resource_name(first) != naming.eks_cluster_resource_name(second)


# Subnets ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("network", "expected_cluster", "expected_nodes"),
    [
        pytest.param({"defaultVpc": True}, {"subnetIds": "default"}, "default", id="default VPC gives subnetIds alone"),
        pytest.param(
            {"vpcId": VPC, "privateSubnetIds": PRIVATE},
            {"privateSubnetIds": PRIVATE},
            PRIVATE,
            id="private subnets only",
        ),
        pytest.param(
            {"vpcId": VPC, "publicSubnetIds": PUBLIC}, {"publicSubnetIds": PUBLIC}, PUBLIC, id="public subnets only"
        ),
        pytest.param(
            {"vpcId": VPC, "privateSubnetIds": PRIVATE, "publicSubnetIds": PUBLIC},
            {"privateSubnetIds": PRIVATE, "publicSubnetIds": PUBLIC},
            PRIVATE,
            id="private and public",
        ),
    ],
)
def test_subnets_reach_pulumi_eks_one_way_only(network, expected_cluster, expected_nodes):
    config, network = dev_stack_config(), dict(network)
    config.pop("network")
    if network.pop("defaultVpc", False):
        config["network"] = {"mode": "defaultVpc"}
    config["cluster"] = {key: value for key, value in config["cluster"].items()} | network
    run = run_stack(config)

    (cluster,) = run.of_type(EKS_CLUSTER)
    subnet_keys = {key for key in ("subnetIds", "privateSubnetIds", "publicSubnetIds") if key in cluster.inputs}
    # pulumi-eks throws when subnetIds comes with privateSubnetIds or publicSubnetIds (createCore).
    assert not ("subnetIds" in subnet_keys and subnet_keys & {"privateSubnetIds", "publicSubnetIds"})
    assert subnet_keys == set(expected_cluster)
    looked_up = [args for token, args in run.calls if token == GET_SUBNETS]
    if looked_up:  # only subnets in zones EKS supports (the zone lookup excludes the others)
        (zone_lookup,) = [args for token, args in run.calls if token == GET_AVAILABILITY_ZONES]
        assert "use1-az3" in zone_lookup["excludeZoneIds"]
        assert {
            "name": "availability-zone-id",
            "values": ["usw2-az2", "usw2-az1", "usw2-az3", "usw2-az4"],
        } in looked_up[0]["filters"]
    assert bool(looked_up) == ("vpcId" not in network)  # the default VPC is looked up only in defaultVpc mode
    assert not run.of_type(VPC_TYPE)  # a VPC of one's own, or the default one: none is created
    default = list(MOCK_SUBNET_IDS)
    for key, value in expected_cluster.items():
        assert cluster.inputs[key] == (default if value == "default" else value)
    for group in run.of_type(NODE_GROUP):
        assert group.inputs["subnetIds"] == (default if expected_nodes == "default" else expected_nodes)


# Kubernetes versions ------------------------------------------------------------------------------


def test_default_version_is_the_newest_in_standard_support_with_schemas():
    import kubernetes_validate

    from components.stackcheck.plan.schema import validator_version

    as_of = versions.EKS_VERSIONS_AS_OF
    standard = [entry for entry in versions.EKS_VERSIONS if entry.released <= as_of <= entry.end_of_standard_support]
    newest = max(standard, key=lambda entry: tuple(map(int, entry.version.split("."))))
    assert versions.DEFAULT_KUBERNETES_VERSION == newest.version == parse_settings({}).cluster.version
    schema_dir = Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema"
    for entry in versions.EKS_VERSIONS:
        assert (schema_dir / f"v{validator_version(entry.version)}-local-strict").is_dir(), entry.version
        # Each version gets 14 months of standard support, then 12 of extended support.
        assert 13 * 30 < (entry.end_of_standard_support - entry.released).days < 15 * 31
        assert 360 <= (entry.end_of_extended_support - entry.end_of_standard_support).days <= 366


@pytest.mark.parametrize(
    ("today", "fragment"),
    [
        pytest.param(date(2026, 10, 2), None, id="61 days before the end of standard support: no warning"),
        pytest.param(date(2026, 10, 3), "leaves EKS standard support on 2026-12-02 (in 60 days)", id="60 days before"),
        pytest.param(date(2026, 12, 3), "is in EKS extended support since 2026-12-02", id="in extended support"),
    ],
)
def test_version_near_or_past_standard_support_warns_with_the_date(monkeypatch, caplog, stack, today, fragment):
    monkeypatch.setattr(versions, "today", lambda: today)
    caplog.set_level(logging.WARNING)
    stack({"cluster": {"version": "1.34"}})
    warnings = [
        r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and "cluster.version" in r.getMessage()
    ]
    if fragment is None:
        assert warnings == []
    else:
        (warning,) = warnings
        assert fragment in warning and "'1.34'" in warning


def test_version_past_extended_support_is_rejected_naming_the_date(monkeypatch):
    monkeypatch.setattr(versions, "today", lambda: date(2027, 3, 24))
    (problem,) = problems_of(lambda: parse_settings({"cluster": {"version": "1.32"}}))
    assert problem.key == "cluster.version"
    assert "EKS support ended on 2027-03-23" in problem.message and "1.33" in problem.message


def test_default_version_does_not_warn_as_of_the_table():
    assert versions.support_warning(versions.DEFAULT_KUBERNETES_VERSION, versions.EKS_VERSIONS_AS_OF) is None


# Node pools replaced without an outage --------------------------------------------------------------


def test_node_groups_are_named_by_prefix_and_replaced_create_first(dev_run):
    groups = dev_run.of_type(NODE_GROUP)
    assert {group.name for group in groups} == {"gpu-inference-dev-system", "gpu-inference-dev-gpu"}
    for group in groups:
        assert "nodeGroupName" not in group.inputs
        assert group.inputs["nodeGroupNamePrefix"].endswith("-")
        assert group.delete_before_replace is False


def test_node_groups_wait_for_every_node_role_policy(dev_run):
    attachments = {resource.urn for resource in dev_run.of_type(POLICY_ATTACHMENT)}
    assert len(attachments) == 3
    for group in dev_run.of_type(NODE_GROUP):
        assert attachments <= set(group.dependencies), group.name


# Credentials --------------------------------------------------------------------------------------


def _run_with_aws_config(aws_config: dict[str, str]) -> ProgramRun:
    config = {f"{PROJECT}:{key}": value for key, value in dev_stack_config().items()} | aws_config
    return run_program(PROGRAM, config, project=PROJECT, stack="test")


def test_kubernetes_provider_authenticates_with_the_aws_profile():
    run = _run_with_aws_config({"aws:profile": "ml-admin"})

    (call,) = [args for token, args in run.calls if token == "eks:index:Cluster/getKubeconfig"]
    assert call["profileName"] == "ml-admin"
    (provider,) = run.of_type(KUBERNETES_PROVIDER)
    kubeconfig = provider.inputs["kubeconfig"]
    assert isinstance(kubeconfig, Secret) and '"--profile", "ml-admin"' in kubeconfig.value


def test_kubernetes_provider_uses_the_default_chain_without_a_profile(dev_run):
    assert not [token for token, _ in dev_run.calls if token == "eks:index:Cluster/getKubeconfig"]
    (provider,) = dev_run.of_type(KUBERNETES_PROVIDER)
    assert "--profile" not in provider.inputs["kubeconfig"].value


# Config the settings alone cannot see ------------------------------------------------------------


def test_plaintext_hf_token_is_rejected_without_showing_it():
    config = {f"{PROJECT}:hfToken": "hf_plaintextsecret"}
    (problem,) = problems_of(lambda: parse_stack_config(config, secret_keys=()))
    assert problem.key == "hfToken"
    assert "pulumi config set --secret hfToken" in problem.message
    assert "hf_plaintextsecret" not in str(problem)
    assert parse_stack_config(config, secret_keys={f"{PROJECT}:hfToken"}).hf_token == "hf_plaintextsecret"


def test_plaintext_hf_token_stops_the_program_before_any_resource():
    run = ProgramRun()
    with pytest.raises(ConfigError, match="--secret hfToken"):
        run_stack(merge(dev_stack_config(), {"hfToken": "hf_plaintextsecret"}), run=run)
    assert run.resources == []


def test_misspelt_project_namespace_is_reported_with_the_right_key():
    config = {"eks-gpu-infrence:vllm": {"replicas": 2}, "aws:region": "us-west-2", "kubernetes:context": "x"}
    (problem,) = problems_of(lambda: parse_stack_config(config))
    assert problem.key == "eks-gpu-infrence:vllm"
    assert str(problem).startswith("eks-gpu-infrence:vllm: namespace 'eks-gpu-infrence'")
    assert f"did you mean {PROJECT}:vllm?" in problem.message


def test_namespace_and_section_problems_are_reported_together():
    config = {"eks-gpu-inferenc:vllm": {}, f"{PROJECT}:gpuNodeGroup": {"diskSize": 10}}
    keys = {problem.key for problem in problems_of(lambda: parse_stack_config(config))}
    assert keys == {"eks-gpu-inferenc:vllm", "gpuNodeGroup.diskSize"}
