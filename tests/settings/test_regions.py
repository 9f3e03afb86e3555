"""`aws:region` and the network's zones checked against the region before anything registers; the mocks
answer with the configured region's zones and partition; ARNs are spelled in the region's partition."""

from __future__ import annotations

import json
import re
from pathlib import Path

import botocore
import pytest
import yaml
from conftest import PROGRAM, dev_stack_config, merge

from components.facts import regions
from components.facts.identity import PROJECT
from components.facts.resource_types import GET_AVAILABILITY_ZONES, ROLE, ROLE_POLICY_ATTACHMENT, SUBNET
from components.settings import ConfigError, parse_stack_config
from components.stackcheck.__main__ import main
from components.stackcheck.mock_answers import mock_zones
from components.stackcheck.runtime import ProgramRun, run_program

ROOT = Path(__file__).resolve().parents[2]
# EKS regions of botocore's endpoint data that the zone table does not know (no public zone list found).
REGIONS_WITHOUT_ZONES = {
    "ap-east-2",
    "eu-isoe-west-1",
    "eusc-de-east-1",
    "us-iso-east-1",
    "us-iso-west-1",
    "us-isob-east-1",
    "us-isob-west-1",
    "us-isof-east-1",
    "us-isof-south-1",
}


def config_for(region: object, network: dict | None = None) -> dict:
    project = merge(dev_stack_config(), {"network": network} if network else {})
    return {"aws:region": region, **{f"{PROJECT}:{key}": value for key, value in project.items()}}


def problems_of(region: object, network: dict | None = None) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        parse_stack_config(config_for(region, network))
    return [str(problem) for problem in raised.value.problems]


@pytest.mark.parametrize(
    ("region", "network", "expected"),
    [
        pytest.param(
            "us-wset-2",
            None,
            "aws:region: unknown region 'us-wset-2'; did you mean 'us-west-2'",
            id="misspelt region, nearest suggested",
        ),
        pytest.param(
            "me-west-1",
            None,
            "aws:region: 'me-west-1' has no EKS endpoint in botocore 1.44.8's endpoint data; allowed: ",
            id="region botocore knows without EKS",
        ),
        pytest.param(5, None, "aws:region: int value 5; allowed: a region name such as us-west-2", id="not a string"),
        pytest.param(
            "us-west-2a",
            None,
            "aws:region: 'us-west-2a' is a zone, not a region; allowed: its region 'us-west-2'",
            id="zone for region",
        ),
        pytest.param(
            "EU-WEST-1 ",
            None,
            "aws:region: unknown region 'EU-WEST-1 '; did you mean 'eu-west-1'",
            id="spelt otherwise",
        ),
        pytest.param(
            "eu-west-1",
            {"azCount": 4},
            f"{PROJECT}:network.azCount: 4 but eu-west-1 has 3 zones that EKS supports (eu-west-1c (euw1-az1), "
            "eu-west-1a (euw1-az2), eu-west-1b (euw1-az3); zone table of 2026-12-01); allowed: 2-3",
            id="more zones than the region has",
        ),
        pytest.param(
            "cn-north-1",
            {"azCount": 3},
            f"{PROJECT}:network.azCount: 3 but cn-north-1 has 2 zones that EKS supports",
            id="china region with two zones",
        ),
        pytest.param(
            "us-east-1",
            {"availabilityZones": ["us-west-2a", "use1-az1"], "azCount": None},
            f"{PROJECT}:network.availabilityZones: 'us-west-2a' is not a zone of us-east-1 that EKS supports "
            "(zone table of 2026-12-01); allowed: us-east-1c (use1-az1), us-east-1d (use1-az2), ",
            id="another region's zone",
        ),
        pytest.param(
            "eu-west-1",
            {"availabilityZones": ["euw1-az1", "euw1-az4"], "azCount": None},
            f"{PROJECT}:network.availabilityZones: 'euw1-az4' is not a zone of eu-west-1",
            id="zone ID the region lacks",
        ),
    ],
)
def test_rejects_region_and_zones_naming_key_value_and_allowed(region, network, expected):
    problems = problems_of(region, network)
    assert len(problems) == 1, problems
    assert problems[0].startswith(expected), problems[0]


def test_every_bad_zone_is_one_line_reported_with_the_other_problems():
    problems = problems_of("us-east-1", {"availabilityZones": ["us-west-2a", "us-west-2b"], "azCount": None})
    assert [problem.split(" is not")[0] for problem in problems] == [
        f"{PROJECT}:network.availabilityZones: 'us-west-2a'",
        f"{PROJECT}:network.availabilityZones: 'us-west-2b'",
    ]


@pytest.mark.parametrize(
    ("region", "network", "zone_count"),
    [
        pytest.param("us-west-2", None, 3, id="dev region"),
        pytest.param("cn-north-1", {"azCount": None}, 2, id="default count lowered to the region's two zones"),
        pytest.param("us-west-1", {"azCount": 2}, 2, id="two zones asked for in a region of two"),
        pytest.param("us-gov-west-1", None, 3, id="govcloud"),
        pytest.param(
            "us-east-1",
            {"availabilityZones": ["us-east-1e", "use1-az6"], "azCount": None},
            2,
            id="a name of any of the region's zones, an ID EKS supports",
        ),
        pytest.param(
            "ap-east-2",
            {"availabilityZones": ["ap-east-2a", "ap-east-2b"], "azCount": None},
            2,
            id="region without zone table: zones left to the deployment",
        ),
    ],
)
def test_accepts_regions_and_their_zones(region, network, zone_count):
    settings = parse_stack_config(config_for(region, network))
    assert settings.network.zone_count == zone_count


def test_an_explicit_zone_count_is_never_lowered():
    assert problems_of("us-west-1", {"azCount": 3})[0].startswith(f"{PROJECT}:network.azCount: 3 but us-west-1")


def test_plan_refuses_a_zone_mistake_with_exit_2_and_one_line_before_the_program_runs(capsys, tmp_path):
    stack = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())
    stack["config"]["aws:region"] = "eu-west-1"
    stack["config"][f"{PROJECT}:network"]["azCount"] = 5
    stack_file = tmp_path / "Pulumi.zones.yaml"
    stack_file.write_text(yaml.safe_dump(stack))

    code = main(["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "o")])
    out = capsys.readouterr().out

    assert code == 2
    lines = [line for line in out.splitlines() if "network.azCount" in line]
    assert lines and all("5 but eu-west-1 has 3 zones" in line for line in lines)
    assert "Traceback" not in out
    assert "nothing was rendered" in out
    assert not (tmp_path / "o").exists()


def run_in(region: str, network: dict | None = None) -> ProgramRun:
    return run_program(PROGRAM, config_for(region, network), project=PROJECT, stack="test")


def arns_in(value: object) -> list[str]:
    if isinstance(value, dict):
        return [arn for item in value.values() for arn in arns_in(item)]
    if isinstance(value, list):
        return [arn for item in value for arn in arns_in(item)]
    return re.findall(r"arn:[a-z-]+:[^\s\"']*", value) if isinstance(value, str) else []


def test_china_stack_registers_arns_of_the_aws_cn_partition():
    run = run_in("cn-northwest-1")

    policies = sorted(attachment.inputs["policyArn"] for attachment in run.of_type(ROLE_POLICY_ATTACHMENT))
    assert "arn:aws-cn:iam::aws:policy/AmazonEKSWorkerNodePolicy" in policies
    assert all(policy.startswith("arn:aws-cn:") for policy in policies), policies
    every_arn = [arn for resource in run.resources for arn in arns_in(resource.inputs)]
    assert every_arn and not [arn for arn in every_arn if arn.startswith("arn:aws:")], every_arn


@pytest.mark.parametrize(
    ("region", "principal"), [("cn-north-1", "ec2.amazonaws.com.cn"), ("us-gov-east-1", "ec2.amazonaws.com")]
)
def test_node_role_trusts_the_ec2_principal_of_the_partition(region, principal):
    run = run_in(region, {"azCount": 2})
    roles = [role for role in run.of_type(ROLE) if role.name.startswith("gpu-inference-dev-nodes")]
    assert roles
    for role in roles:
        statement = json.loads(role.inputs["assumeRolePolicy"])["Statement"][0]
        assert statement["Principal"] == {"Service": principal}


def test_access_entries_name_the_partitions_cluster_admin_policy():
    config = config_for("us-gov-west-1")
    config[f"{PROJECT}:cluster"] = {
        **config[f"{PROJECT}:cluster"],
        "adminPrincipalArns": ["arn:aws-us-gov:iam::123456789012:role/ops"],
    }
    run = run_program(PROGRAM, config, project=PROJECT, stack="test")
    cluster = next(resource for resource in run.resources if resource.inputs.get("accessEntries"))
    entry = next(iter(cluster.inputs["accessEntries"].values()))
    policy = next(iter(entry["accessPolicies"].values()))
    assert policy["policyArn"] == "arn:aws-us-gov:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy"


def test_mocks_answer_with_the_configured_regions_zones():
    run = run_in("eu-west-1")

    zone_ids = {subnet.inputs["availabilityZoneId"] for subnet in run.of_type(SUBNET)}
    assert zone_ids == {"euw1-az1", "euw1-az2", "euw1-az3"}
    assert GET_AVAILABILITY_ZONES in {token for token, _ in run.calls}


def test_mocks_name_zones_of_a_region_the_table_does_not_know_as_aws_does():
    assert mock_zones("ap-east-2") == (
        ("ap-east-2a", "ape2-az1"),
        ("ap-east-2b", "ape2-az2"),
        ("ap-east-2c", "ape2-az3"),
    )
    assert mock_zones("ap-northeast-1")[0] == ("ap-northeast-1a", "apne1-az4")


def test_zone_table_covers_botocores_eks_regions():
    assert botocore.__version__ == regions.BOTOCORE_VERSION, "compare ZONES with the new endpoint data"
    assert set(regions.ZONES) <= set(regions.eks_regions())
    assert set(regions.eks_regions()) - set(regions.ZONES) == REGIONS_WITHOUT_ZONES


@pytest.mark.parametrize("region", sorted(regions.ZONES))
def test_zone_table_entries_are_shaped_as_aws_names_zones(region):
    zones = regions.ZONES[region]
    prefix = {zone.zone_id.split("-az")[0] for zone in zones}
    assert len(prefix) == 1 and len(zones) >= 2
    assert all(re.fullmatch(rf"{region}[a-z]", zone.name) for zone in zones)
    assert len({zone.zone_id for zone in zones}) == len({zone.name for zone in zones}) == len(zones)


@pytest.mark.parametrize(
    ("region", "partition"),
    [("us-west-2", "aws"), ("cn-north-1", "aws-cn"), ("us-gov-east-1", "aws-us-gov"), ("us-iso-east-1", "aws-iso")],
)
def test_partition_comes_from_botocores_endpoint_data(region, partition):
    assert regions.eks_regions()[region] == partition


def run_network_component(tmp_path, region: str, args: str, run: ProgramRun | None = None) -> ProgramRun:
    program = tmp_path / "__main__.py"
    program.write_text(
        f"from components.cluster.network import Network, NetworkArgs\n\nNetwork('net', NetworkArgs({args}))\n"
    )
    return run_program(program, {"aws:region": region}, project=PROJECT, stack="test", run=run)


def test_network_component_checks_its_zones_against_the_providers_region_before_registering(tmp_path):
    run = ProgramRun()
    with pytest.raises(ConfigError) as raised:
        run_network_component(tmp_path, "eu-west-1", "availability_zones=['us-west-2a', 'eu-west-1a']", run)
    assert [str(problem).split(" is not")[0] for problem in raised.value.problems] == [
        "Network(net).args.availability_zones: 'us-west-2a'"
    ]
    assert run.resources == []


def test_network_component_spreads_over_the_two_zones_of_a_two_zone_region(tmp_path):
    run = run_network_component(tmp_path, "us-west-1", "")
    assert {subnet.inputs["availabilityZoneId"] for subnet in run.of_type(SUBNET)} == {"usw1-az1", "usw1-az3"}


def test_aws_requests_of_a_china_stack_name_the_aws_cn_partition(capsys, tmp_path):
    from components.stackcheck.aws.check import check_resources

    run = run_in("cn-north-1", {"azCount": 2})
    requests = [request for check in check_resources(run.resources, "aws-cn") for request in check.requests]
    policy_arns = [request.params["PolicyArn"] for request in requests if request.operation == "AttachRolePolicy"]
    assert "arn:aws-cn:iam::aws:policy/AmazonEKSClusterPolicy" in policy_arns
    assert all(arn.startswith("arn:aws-cn:") for arn in policy_arns), policy_arns


@pytest.mark.parametrize(
    ("region", "cluster", "expected"),
    [
        pytest.param(
            "cn-north-1",
            {"adminPrincipalArns": ["arn:aws:iam::123456789012:role/ops"]},
            f"{PROJECT}:cluster.adminPrincipalArns: 'arn:aws:iam::123456789012:role/ops' is an ARN of partition "
            "'aws', not of cn-north-1's; allowed: arn:aws-cn:iam::...",
            id="admin of another partition",
        ),
        pytest.param(
            "eu-west-1",
            {"secretsKmsKeyArn": "arn:aws:kms:us-west-2:123456789012:key/0a1b2c3d-1111-2222-3333-444455556666"},
            f"{PROJECT}:cluster.secretsKmsKeyArn: 'arn:aws:kms:us-west-2:123456789012:key/"
            "0a1b2c3d-1111-2222-3333-444455556666' is a key in us-west-2 (aws); allowed: a key of eu-west-1 "
            "(arn:aws:kms:eu-west-1:...), the cluster's region",
            id="kms key of another region",
        ),
    ],
)
def test_rejects_arns_outside_the_regions_partition_or_region(region, cluster, expected):
    config = config_for(region, {"azCount": 2})
    config[f"{PROJECT}:cluster"] = {**config[f"{PROJECT}:cluster"], **cluster}
    with pytest.raises(ConfigError) as raised:
        parse_stack_config(config)
    assert [str(problem) for problem in raised.value.problems] == [expected]


def test_accepts_arns_of_the_regions_partition_and_region():
    config = config_for("cn-north-1", {"azCount": 2})
    config[f"{PROJECT}:cluster"] = {
        **config[f"{PROJECT}:cluster"],
        "adminPrincipalArns": ["arn:aws-cn:iam::123456789012:role/ops"],
        "secretsKmsKeyArn": "arn:aws-cn:kms:cn-north-1:123456789012:key/0a1b2c3d-1111-2222-3333-444455556666",
    }
    settings = parse_stack_config(config)
    assert settings.cluster.admin_principal_arns == ["arn:aws-cn:iam::123456789012:role/ops"]
