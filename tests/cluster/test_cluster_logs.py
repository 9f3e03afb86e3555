"""The control plane's log group: owned by the stack, with the retention `cluster.logRetentionDays` gives it,
created before the cluster and so deleted after it."""

from __future__ import annotations

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.facts import eks_model
from components.facts.resource_types import EKS_CLUSTER, LOG_GROUP
from components.settings import ConfigError, parse_settings
from components.stackcheck.aws.builders import _log_group
from components.stackcheck.aws.check import check_resources

# CloudWatch Logs' retention periods as PutRetentionPolicy documents them (botocore logs model, shape `Days`),
# written out here so that a model read wrongly (a period lost, the list cut short) fails.
CLOUDWATCH_PERIODS = (1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922)
CLOUDWATCH_PERIODS += (3288, 3653)


def test_the_periods_are_read_from_the_cloudwatch_logs_model():
    assert eks_model.log_retention_days() == CLOUDWATCH_PERIODS


@pytest.mark.parametrize(
    "days",
    [0, 2, 4, 89, 91, 100, 364, 366, 3652, 3654, 10000, -1],
    ids=lambda days: f"{days} days is refused",
)
def test_a_retention_cloudwatch_refuses_is_rejected_naming_key_value_and_periods(days):
    with pytest.raises(ConfigError) as error:
        parse_settings({"cluster": {"logRetentionDays": days}})
    (problem,) = error.value.problems
    assert problem.key == "cluster.logRetentionDays"
    assert f"refuses: {days};" in problem.message
    assert problem.message.endswith("allowed: " + ", ".join(str(period) for period in CLOUDWATCH_PERIODS))


@pytest.mark.parametrize("days", CLOUDWATCH_PERIODS, ids=lambda days: f"{days} days is accepted")
def test_every_period_cloudwatch_accepts_is_accepted(days):
    assert parse_settings({"cluster": {"logRetentionDays": days}}).cluster.log_retention_days == days


def test_a_refused_retention_is_reported_together_with_the_other_problems():
    with pytest.raises(ConfigError) as error:
        parse_settings({"cluster": {"logRetentionDays": 100, "logTypes": ["everything"]}})
    assert {problem.key for problem in error.value.problems} == {"cluster.logRetentionDays", "cluster.logTypes"}


def test_default_retention_is_ninety_days(dev_run):
    (group,) = dev_run.of_type(LOG_GROUP)
    assert group.inputs["name"] == "/aws/eks/gpu-inference-dev/cluster"
    assert group.inputs["retentionInDays"] == 90


def test_the_log_group_is_registered_before_the_cluster_and_the_cluster_depends_on_it(dev_run):
    (group,) = dev_run.of_type(LOG_GROUP)
    (cluster,) = dev_run.of_type(EKS_CLUSTER)
    assert dev_run.resources.index(group) < dev_run.resources.index(cluster)
    # A dependency orders creation (group first) and deletion (cluster first, so EKS writes to no deleted group).
    assert group.urn in cluster.dependencies
    assert cluster.inputs["enabledClusterLogTypes"] == ["api", "audit", "authenticator"]


def test_the_configured_retention_and_cluster_name_reach_the_log_group_and_its_requests():
    run = run_stack(merge(dev_stack_config(), {"cluster": {"name": "ml", "logRetentionDays": 365}}))
    (group,) = run.of_type(LOG_GROUP)
    assert group.inputs["name"] == "/aws/eks/ml/cluster" and group.inputs["retentionInDays"] == 365
    (check,) = [c for c in check_resources(run.resources) if c.resource_type == LOG_GROUP]
    assert check.passed and [request.operation for request in check.requests] == [
        "CreateLogGroup",
        "PutRetentionPolicy",
    ]
    assert check.requests[1].params == {"logGroupName": "/aws/eks/ml/cluster", "retentionInDays": 365}


def test_without_log_types_no_log_group_is_made():
    run = run_stack(merge(dev_stack_config(), {"cluster": {"logTypes": []}}))
    assert run.of_type(LOG_GROUP) == []
    (cluster,) = run.of_type(EKS_CLUSTER)
    assert cluster.inputs.get("enabledClusterLogTypes", []) == []


@pytest.mark.parametrize(
    ("inputs", "name"),
    [({}, "terraform-" + "0" * 26), ({"namePrefix": "eks-"}, "eks-" + "0" * 26)],
    ids=["invented by the provider", "from the prefix"],
)
def test_a_log_group_without_a_name_gets_the_one_the_provider_makes(inputs, name):
    class Resource:
        name = "logs"

    [create] = _log_group(inputs, Resource(), None, [])
    assert (create.operation, create.params) == ("CreateLogGroup", {"logGroupName": name})
