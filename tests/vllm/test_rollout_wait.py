"""Pulumi waits for the vLLM rollout longer than Kubernetes does: the Deployment's progress deadline reports a
stuck rollout (no node, an image that will not pull, a model that never loads) before `pulumi up` gives up, so
the operator sees Kubernetes' reason rather than a bare timeout."""

from __future__ import annotations

import re

import pytest

from components.facts.resource_types import DEPLOYMENT


def minutes(timeout: str) -> int:
    match = re.fullmatch(r"(\d+)m", timeout)
    assert match, f"custom timeout {timeout!r} is not in whole minutes"
    return int(match.group(1))


def vllm_deployment(run):
    (deployment,) = [r for r in run.of_type(DEPLOYMENT) if "vllm" in r.inputs["metadata"]["name"]]
    return deployment


# The progress deadline: 900 s for a node and the image (components/vllm/manifests.py SCHEDULING_AND_PULL_SECONDS)
# and the startup budget; Pulumi waits 5 minutes more, in whole minutes rounded up.
@pytest.mark.parametrize(
    ("startup_seconds", "deadline", "wait"),
    [
        (600, 900 + 600, "30m"),  # 1500 + 300 = 1800 s
        (1800, 900 + 1800, "50m"),  # the default budget: 2700 + 300 = 3000 s
        (3600, 900 + 3600, "80m"),  # 4500 + 300 = 4800 s
        (610, 900 + 610, "31m"),  # 1510 + 300 = 1810 s = 30.2 min, rounded up
    ],
    ids=["ten-minute startup budget", "the default budget", "one-hour startup budget", "a budget in odd seconds"],
)
def test_create_and_update_wait_outlasts_the_progress_deadline(stack, startup_seconds, deadline, wait):
    deployment = vllm_deployment(stack({"vllm": {"startupTimeoutSeconds": startup_seconds}}))

    assert deployment.inputs["spec"]["progressDeadlineSeconds"] == deadline
    assert deployment.custom_timeouts == {"create": wait, "update": wait}
    assert minutes(wait) * 60 > deadline


def test_the_wait_grows_with_the_startup_budget(stack):
    short = vllm_deployment(stack({"vllm": {"startupTimeoutSeconds": 600}}))
    long = vllm_deployment(stack({"vllm": {"startupTimeoutSeconds": 3600}}))
    assert minutes(long.custom_timeouts["create"]) > minutes(short.custom_timeouts["create"])


def test_resources_without_custom_timeouts_record_none(dev_run):
    iam = [r for r in dev_run.resources if r.type.startswith("aws:iam/")]
    assert iam, "the dev stack registers IAM resources"
    assert [r.name for r in iam if r.custom_timeouts] == []
