"""The queue's components from Python: bad arguments fail naming each one before anything registers, and a
`ServingQueue` built alone registers its queues, its own results bucket and no grant it was not given a role for."""

from __future__ import annotations

import json

import pytest

from components.stackcheck.runtime import ProgramRun

COMPONENT_ARGS = {
    "queue-without-cluster": (
        """
        from components.vllm.args import QueueArgs
        from components.vllm.server import VllmServer, VllmServerArgs

        VllmServer("batch", VllmServerArgs(queue=QueueArgs(enabled=True, request_timeout_seconds=600)))
        """,
        ["VllmServer(batch).args.cluster_name: is not set, and queue.enabled is true"],
    ),
    "queue-without-timeout": (
        """
        from components.vllm.args import QueueArgs
        from components.vllm.server import VllmServer, VllmServerArgs

        VllmServer("batch", VllmServerArgs(queue=QueueArgs(enabled=True), cluster_name="ml"))
        """,
        ["VllmServer(batch).args.queue.request_timeout_seconds: is not set, and enabled is true"],
    ),
    "serving-queue-bounds": (
        """
        from components.vllm.queue.args import ServingQueueArgs
        from components.vllm.queue.serving_queue import ServingQueue

        ServingQueue("q", ServingQueueArgs(visibility_timeout_seconds=50_000, max_receive_count=0))
        """,
        [
            "ServingQueue(q).args.visibility_timeout_seconds: out of range 50000; allowed: 0-43200 seconds",
            "ServingQueue(q).args.max_receive_count: invalid value 0; allowed: 1-1000",
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(COMPONENT_ARGS))
def test_bad_queue_args_fail_naming_each_argument_before_anything_registers(tmp_path, case):
    from tests.support.component_args import assert_refused_before_registering

    source, keys = COMPONENT_ARGS[case]
    assert_refused_before_registering(tmp_path, source, keys)


def test_a_serving_queue_alone_makes_its_bucket_and_grants_nothing_without_roles(tmp_path):
    from tests.support.component_args import run_components

    run = ProgramRun()
    run_components(
        tmp_path,
        """
        from components.vllm.queue.args import ServingQueueArgs
        from components.vllm.queue.serving_queue import ServingQueue

        ServingQueue("jobs", ServingQueueArgs(max_receive_count=3, results_expiration_days=7))
        """,
        run,
    )
    types = sorted(resource.type for resource in run.resources)
    assert types.count("aws:sqs/queue:Queue") == 2
    assert "aws:s3/bucket:Bucket" in types
    assert "aws:iam/rolePolicy:RolePolicy" not in types
    # Every resource the queue makes sits under the component (a `pulumi destroy` of a stack that imports it, or
    # a rename of the component, moves them with it): its queues and its own bucket, the bucket's parts under it.
    [component] = [urn for urn in run.component_outputs if urn.endswith("::jobs")]
    by_urn = {resource.urn: resource for resource in run.resources}

    def under_component(resource) -> bool:
        while resource.parent != component:
            if resource.parent not in by_urn:
                return False
            resource = by_urn[resource.parent]
        return True

    assert [r.name for r in run.resources if r.urn != component and not under_component(r)] == []
    [requests] = [r for r in run.resources if r.name == "jobs-requests"]
    assert json.loads(requests.inputs["redrivePolicy"])["maxReceiveCount"] == 3
    [outputs] = [value for urn, value in run.component_outputs.items() if urn.endswith("::jobs")]
    assert outputs["results_uri"] == "s3://jobs-results/results/jobs/"
    # register_outputs with exactly the attributes the class exposes (each registered, none renamed), as a program
    # reading the component's outputs by name expects.
    assert set(outputs) == {"queue_url", "queue_arn", "dead_letter_queue_url", "results_uri"}
    assert all(value is not None for value in outputs.values()), outputs
    # Results expire under their own prefix only, 7 days after they are written, and so do their old versions.
    [expiry] = [
        r for r in run.resources if r.type == "aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration"
    ]
    assert expiry.inputs["bucket"] == "jobs-results"
    assert expiry.inputs["rules"] == [
        {
            "id": "expire-results",
            "status": "Enabled",
            "filter": {"prefix": "results/jobs/"},
            "expiration": {"days": 7},
            "noncurrentVersionExpiration": {"noncurrentDays": 7},
        }
    ]


def test_a_serving_queue_writes_no_lifecycle_rule_on_a_bucket_it_was_given(tmp_path):
    """S3 keeps one lifecycle configuration per bucket: writing one on a given bucket would replace its rules."""
    from tests.support.component_args import run_components

    run = ProgramRun()
    run_components(
        tmp_path,
        """
        from components.vllm.queue.args import ServingQueueArgs
        from components.vllm.queue.serving_queue import ServingQueue

        ServingQueue("jobs", ServingQueueArgs(default_results_bucket="team-weights"))
        """,
        run,
    )
    types = {resource.type for resource in run.resources}
    assert "aws:s3/bucket:Bucket" not in types
    assert "aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration" not in types
