"""The warnings of valid settings that weaken a stack come from the components, so a program that uses only the
components gets them as the repository's stack does: named by argument for a Python caller, by config key for
args made from the stack config."""

from __future__ import annotations

import logging
import textwrap
from datetime import date

import pytest

from components.facts import versions
from components.settings import PROJECT
from components.stackcheck.plan.run import PlanOptions, run_plan
from components.stackcheck.runtime import run_program
from tests.support.component_args import run_components

PRIVATE = (
    'vpc_id="vpc-0123456789abcdef0", '
    'private_subnet_ids=["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"], '
    'public_access_cidrs=["203.0.113.0/24"]'
)
PUBLIC_ENDPOINT = (
    "EksCluster(ml).args.public_access_cidrs includes 0.0.0.0/0: the Kubernetes API endpoint is reachable from the "
    "whole internet; restrict it to your networks"
)
DEFAULT_VPC = (
    "EksCluster(ml).args.network and vpc_id are not given: the nodes run in the default VPC's default subnets, which "
    "are public and give each node a public IP; pass a Network's outputs as network, or vpc_id with "
    "private_subnet_ids, for anything but a test"
)


def plain_secret(argument: str, key: str) -> str:
    return (
        f"VllmServer(chat).args.{argument} is a plain string, so the secret is written in the program or read from "
        f"an unencrypted source; pass pulumi.Output.secret(...) or a config secret (pulumi config set --secret {key} "
        f"<value>, then pulumi.Config().require_secret('{key}'))"
    )


def test_a_program_of_components_alone_gets_the_warnings_in_its_plan(tmp_path):
    (tmp_path / "Pulumi.yaml").write_text("name: ml-platform\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config:\n  aws:region: us-west-2\n")
    (tmp_path / "__main__.py").write_text(
        textwrap.dedent(
            """
            from components import EksCluster, EksClusterArgs, VllmServer, VllmServerArgs

            EksCluster("ml", EksClusterArgs(log_types=["api", "audit"]))
            VllmServer("chat", VllmServerArgs(hf_token="hf_x", api_key="k"))
            """
        )
    )
    result = run_plan(PlanOptions(project_dir=tmp_path, stack="dev", out_dir=tmp_path / "out"))
    assert result.config_problems == [] and result.program_error is None
    ours = [warning for warning in result.warnings if warning.startswith(("EksCluster(", "VllmServer("))]
    assert ours == [
        PUBLIC_ENDPOINT,
        "EksCluster(ml).args.log_types leaves out authenticator: control-plane activity will not be auditable",
        DEFAULT_VPC,
        plain_secret("hf_token", "hfToken"),
        plain_secret("api_key", "vllmApiKey"),
    ]


def warnings_of(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param("", [PUBLIC_ENDPOINT, DEFAULT_VPC], id="defaults: open endpoint, default VPC"),
        pytest.param(PRIVATE, [], id="restricted endpoint, own private subnets: nothing"),
        pytest.param(
            'vpc_id="vpc-0123456789abcdef0", private_subnet_ids=["subnet-0123456789abcdef0", '
            '"subnet-0123456789abcdef1"], endpoint_public_access=False',
            [],
            id="no public endpoint: its CIDRs do not matter",
        ),
    ],
)
def test_the_cluster_warns_of_an_open_endpoint_and_public_nodes(tmp_path, caplog, args, expected):
    caplog.set_level(logging.WARNING)
    run_components(
        tmp_path,
        f"""
        from components.cluster.cluster import EksCluster, EksClusterArgs

        EksCluster("ml", EksClusterArgs({args}))
        """,
    )
    assert [warning for warning in warnings_of(caplog) if warning.startswith("EksCluster(")] == expected


def test_the_cluster_warns_of_a_version_in_extended_support_with_the_date(tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(versions, "today", lambda: date(2026, 12, 3))
    caplog.set_level(logging.WARNING)
    run_components(
        tmp_path,
        f"""
        from components.cluster.cluster import EksCluster, EksClusterArgs

        EksCluster("ml", EksClusterArgs(version="1.34", {PRIVATE}))
        """,
    )
    (warning,) = [warning for warning in warnings_of(caplog) if warning.startswith("EksCluster(")]
    assert warning.startswith(
        "EksCluster(ml).args.version '1.34': Kubernetes 1.34 is in EKS extended support since 2026-12-02"
    )


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param('hf_token="hf_x"', [plain_secret("hf_token", "hfToken")], id="plain token"),
        pytest.param('api_key="k"', [plain_secret("api_key", "vllmApiKey")], id="plain API key"),
        pytest.param(
            'hf_token=pulumi.Output.secret("hf_x"), api_key=pulumi.Output.secret("k")', [], id="Pulumi secrets"
        ),
    ],
)
def test_a_plain_string_for_a_secret_argument_warns(tmp_path, caplog, args, expected):
    caplog.set_level(logging.WARNING)
    run_components(
        tmp_path,
        f"""
        import pulumi
        from components.vllm.server import VllmServer, VllmServerArgs

        VllmServer("chat", VllmServerArgs({args}))
        """,
    )
    assert [warning for warning in warnings_of(caplog) if warning.startswith("VllmServer(")] == expected


def test_the_stack_gets_the_warnings_from_its_components_once_by_config_key(stack, caplog):
    caplog.set_level(logging.WARNING)
    stack({"network": {"mode": "defaultVpc"}})
    warnings = warnings_of(caplog)
    (endpoint,) = [warning for warning in warnings if "0.0.0.0/0" in warning]
    assert endpoint.startswith(f"{PROJECT}:cluster.publicAccessCidrs includes 0.0.0.0/0")
    (default_vpc,) = [warning for warning in warnings if "public IP" in warning]
    assert default_vpc.startswith(
        f"{PROJECT}:cluster.vpcId is unset and no network is given (network.mode 'defaultVpc'): the nodes run in the "
        "default VPC's"
    )
    assert "cluster.vpcId and privateSubnetIds" in default_vpc
    assert not [warning for warning in warnings if ".args." in warning]


def test_args_from_another_projects_config_warn_under_its_namespace(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    program = tmp_path / "__main__.py"
    program.write_text(
        textwrap.dedent(
            """
            import pulumi
            from components.cluster.cluster import EksCluster, EksClusterArgs
            from components.args.validate import args_from_settings
            from components.settings import config_from_pulumi, parse_stack_config

            settings = parse_stack_config(*config_from_pulumi(), project=pulumi.get_project())
            EksCluster("ml", args_from_settings(EksClusterArgs, settings.cluster))
            """
        )
    )
    run_program(program, {"ml-platform:cluster": {"logTypes": ["api"]}}, project="ml-platform", stack="test")
    warnings = [warning for warning in warnings_of(caplog) if warning.startswith("ml-platform:")]
    assert [warning.split(" ", 1)[0] for warning in warnings] == [
        "ml-platform:cluster.publicAccessCidrs",
        "ml-platform:cluster.logTypes",
        "ml-platform:cluster.vpcId",
    ]


def test_the_deployers_access_warning_names_the_arguments_for_a_python_caller(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    program = tmp_path / "__main__.py"
    program.write_text(
        textwrap.dedent(
            f"""
            from components.cluster.cluster import EksCluster, EksClusterArgs

            EksCluster("ml", EksClusterArgs(creator_admin=False, {PRIVATE},
                                            admin_principal_arns=["arn:aws:iam::123456789012:role/admins"]))
            """
        )
    )
    deployer = "arn:aws:sts::123456789012:assumed-role/ci/run-1"
    run_program(program, {}, project=PROJECT, stack="test", deployer_arn=deployer)
    (warning,) = [warning for warning in warnings_of(caplog) if "identity running this update" in warning]
    assert warning.startswith(
        f"EksCluster(ml).args.creator_admin is false and the identity running this update ({deployer}) is not in "
        "EksCluster(ml).args.admin_principal_arns: the Kubernetes API will refuse it"
    )
