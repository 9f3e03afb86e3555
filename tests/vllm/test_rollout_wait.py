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


@pytest.mark.parametrize("startup_seconds", [600, 3600], ids=["ten-minute startup budget", "one-hour startup budget"])
def test_create_and_update_wait_outlasts_the_progress_deadline(stack, startup_seconds):
    deployment = vllm_deployment(stack({"vllm": {"startupTimeoutSeconds": startup_seconds}}))
    deadline = deployment.inputs["spec"]["progressDeadlineSeconds"]
    assert deadline > startup_seconds
    for operation in ("create", "update"):
        assert minutes(deployment.custom_timeouts[operation]) * 60 > deadline, operation


def test_the_wait_grows_with_the_startup_budget(stack):
    short = vllm_deployment(stack({"vllm": {"startupTimeoutSeconds": 600}}))
    long = vllm_deployment(stack({"vllm": {"startupTimeoutSeconds": 3600}}))
    assert minutes(long.custom_timeouts["create"]) > minutes(short.custom_timeouts["create"])


def test_resources_without_custom_timeouts_record_none(dev_run):
    iam = [r for r in dev_run.resources if r.type.startswith("aws:iam/")]
    assert iam, "the dev stack registers IAM resources"
    assert [r.name for r in iam if r.custom_timeouts] == []
