"""Who administers the cluster: access entries, the creator's implicit admin, and the deployer check."""

from __future__ import annotations

import logging

import pulumi
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.cluster.access import deployer_access_warning
from components.facts.principals import caller_principal, iam_principal
from components.facts.resource_types import ACCESS_ENTRY, CONFIG_MAP, EKS_CLUSTER, ROLE
from components.facts.resource_types import EKS_CONTROL_PLANE as CONTROL_PLANE_TYPE
from components.stackcheck.runtime import ProgramRun

ADMIN_ROLE = "arn:aws:iam::123456789012:role/platform/platform-admins"
CI_ROLE = "arn:aws:iam::123456789012:role/ci-deployer"
CI_SESSION = "arn:aws:sts::123456789012:assumed-role/ci-deployer/github-actions-42"
# Spelled out, not imported: the names pulumi-eks and the AWS provider use, which the transform must match.
CREATOR_ADMIN = "bootstrapClusterCreatorAdminPermissions"


def control_plane_props() -> dict:
    """The inputs pulumi-eks gives the `aws.eks.Cluster` it creates, as far as access goes."""
    return {
        "name": "gpu-inference",
        "roleArn": "arn:aws:iam::123456789012:role/gpu-inference-eksRole",
        "accessConfig": {"authenticationMode": "API", CREATOR_ADMIN: True},
        "vpcConfig": {"endpointPrivateAccess": True},
    }


def registered_transform(run: ProgramRun):
    (cluster,) = run.of_type(EKS_CLUSTER)
    (transform,) = cluster.transforms
    return transform


def transform_control_plane(run: ProgramRun, props: dict) -> pulumi.ResourceTransformResult:
    args = pulumi.ResourceTransformArgs(
        True, CONTROL_PLANE_TYPE, "gpu-inference-eksCluster", props, pulumi.ResourceOptions(protect=True)
    )
    result = registered_transform(run)(args)
    assert result is not None
    return result


def test_creator_admin_false_reaches_the_control_plane_pulumi_eks_creates(stack):
    run = stack({"cluster": {"creatorAdmin": False, "adminPrincipalArns": [ADMIN_ROLE]}})
    result = transform_control_plane(run, control_plane_props())
    assert result.props["accessConfig"] == {"authenticationMode": "API", CREATOR_ADMIN: False}
    assert {key: value for key, value in result.props.items() if key != "accessConfig"} == {
        key: value for key, value in control_plane_props().items() if key != "accessConfig"
    }
    assert result.opts.protect is True
    # EKS cannot change the flag on a running cluster; a change must not replace it.
    assert result.opts.ignore_changes == [f"accessConfig.{CREATOR_ADMIN}"]
    (entry,) = run.of_type(EKS_CLUSTER)[0].inputs["accessEntries"].values()
    assert entry["principalArn"] == ADMIN_ROLE


def test_creator_admin_default_keeps_eks_behaviour_and_never_replaces_the_cluster(dev_run):
    result = transform_control_plane(dev_run, control_plane_props())
    assert result.props["accessConfig"][CREATOR_ADMIN] is True
    assert result.opts.ignore_changes == [f"accessConfig.{CREATOR_ADMIN}"]


def test_transform_builds_access_config_when_pulumi_eks_sends_none(stack):
    run = stack({"cluster": {"creatorAdmin": False, "adminPrincipalArns": [ADMIN_ROLE]}})
    props = {key: value for key, value in control_plane_props().items() if key != "accessConfig"}
    result = transform_control_plane(run, props)
    assert result.props["accessConfig"] == {"authenticationMode": "API", CREATOR_ADMIN: False}


@pytest.mark.parametrize(
    "type_token",
    [EKS_CLUSTER, ROLE, ACCESS_ENTRY, CONFIG_MAP],
)
def test_transform_leaves_every_other_resource_alone(dev_run, type_token):
    args = pulumi.ResourceTransformArgs(True, type_token, "x", {"accessConfig": {}}, pulumi.ResourceOptions())
    assert registered_transform(dev_run)(args) is None


def test_access_entries_are_keyed_by_principal_so_reordering_replaces_nothing(stack):
    other = "arn:aws:iam::123456789012:user/oncall"
    first = stack({"cluster": {"adminPrincipalArns": [ADMIN_ROLE, other]}})
    second = stack({"cluster": {"adminPrincipalArns": [other, ADMIN_ROLE]}})
    entries = first.of_type(EKS_CLUSTER)[0].inputs["accessEntries"]
    assert entries == second.of_type(EKS_CLUSTER)[0].inputs["accessEntries"]
    assert {key: entry["principalArn"] for key, entry in entries.items()} == {
        "role-platform-admins-123456789012": ADMIN_ROLE,
        "user-oncall-123456789012": other,
    }


def warnings_of(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]


def test_deployer_missing_from_admins_is_warned_when_creator_admin_is_off(stack, caplog):
    caplog.set_level(logging.WARNING)
    run = stack({"cluster": {"creatorAdmin": False, "adminPrincipalArns": [ADMIN_ROLE]}}, deployer_arn=CI_SESSION)
    (warning,) = [message for message in warnings_of(caplog) if "creatorAdmin" in message]
    assert CI_SESSION in warning and "cluster.adminPrincipalArns" in warning
    # It says what will fail, not only which setting to change.
    assert "the Kubernetes API will refuse it, so the device plugin and vLLM cannot be installed" in warning
    assert run.of_type(EKS_CLUSTER), "a warning, not an error: the stack is still planned"


def test_deployer_listed_as_admin_by_its_role_is_not_warned(stack, caplog):
    caplog.set_level(logging.WARNING)
    stack({"cluster": {"creatorAdmin": False, "adminPrincipalArns": [ADMIN_ROLE, CI_ROLE]}}, deployer_arn=CI_SESSION)
    assert not [message for message in warnings_of(caplog) if "identity running this update" in message]


def test_deployer_listed_while_creator_admin_is_on_is_warned_about_the_duplicate_entry(stack, caplog):
    caplog.set_level(logging.WARNING)
    stack({"cluster": {"adminPrincipalArns": [CI_ROLE]}}, deployer_arn=CI_SESSION)
    (warning,) = [message for message in warnings_of(caplog) if "identity running this update" in message]
    assert "ResourceInUseException" in warning and "creatorAdmin false" in warning


def test_unknown_deployer_is_not_guessed(stack, caplog):
    caplog.set_level(logging.WARNING)
    stack({"cluster": {"creatorAdmin": False, "adminPrincipalArns": [ADMIN_ROLE]}})
    assert not [message for message in warnings_of(caplog) if "identity running this update" in message]


_names = st.from_regex(r"[A-Za-z0-9+=,.@_-]{1,24}", fullmatch=True)
_paths = st.lists(_names, max_size=3).map(lambda parts: "".join(f"{part}/" for part in parts))


@given(name=_names, path=_paths, session=_names, account=st.from_regex(r"\d{12}", fullmatch=True))
def test_a_role_session_is_its_role_whatever_the_path(name, path, session, account):
    role = iam_principal(f"arn:aws:iam::{account}:role/{path}{name}")
    assert role is not None and role == caller_principal(f"arn:aws:sts::{account}:assumed-role/{name}/{session}")
    assert role.name == name and role.kind == "role"
    assert (
        deployer_access_warning(
            f"arn:aws:sts::{account}:assumed-role/{name}/{session}",
            [f"arn:aws:iam::{account}:role/{path}{name}"],
            creator_admin=False,
        )
        is None
    )


@pytest.mark.parametrize(
    "arn",
    [
        "arn:aws:sts::123456789012:assumed-role/ci-deployer/session",  # a session, not a principal
        "arn:aws:iam::123456789012:group/admins",
        "arn:aws:iam::12345678901:role/short-account",
        "arn:aws:iam::123456789012:role/",
        "role/ci-deployer",
    ],
)
def test_only_iam_roles_and_users_can_be_access_entry_principals(arn):
    assert iam_principal(arn) is None


def test_same_role_in_another_account_is_another_principal():
    assert iam_principal(CI_ROLE) != iam_principal(CI_ROLE.replace("123456789012", "210987654321"))
    assert (
        deployer_access_warning(CI_SESSION, [CI_ROLE.replace("123456789012", "210987654321")], creator_admin=False)
        is not None
    )
