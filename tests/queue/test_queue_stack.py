"""The dev stack with a queue-fed server, planned whole (the issue's done-when): `vllm.queue` with a request
timeout and zero minimum replicas plans OK and renders the queue, its dead-letter queue, the consumer, the
ScaledObject with KEDA's SQS trigger and IAM scoped to the queue and the results prefix; a request timeout above
SQS's 12-hour cap, or above what a Karpenter NodePool's drain gives the pod, fails `queue-requests-finish`.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, plan_stack_file

from tests.support.fleet_stack import fleet_config, run_fleet
from tests.support.queue_run import consumer_environment, consumer_process, make_queue, wait_until
from tests.support.queue_services import chat_line, moto_server, stand_in_server

QUEUE = {"enabled": True, "requestTimeoutSeconds": 900}
SCALE_TO_ZERO = {"enabled": False, "minReplicas": 0, "maxReplicas": 2}
QUEUE_VERDICTS = {
    22: "queue-requests-finish",
    23: "queue-retention-outlasts-cold-start",
    24: "queue-failures-reach-dead-letter",
}


def plan_dev(tmp_path: Path, queue: dict, **sections) -> tuple[int, dict]:
    document = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())
    document["config"]["eks-gpu-inference:vllm"].update({"queue": queue, "autoscaling": SCALE_TO_ZERO, "replicas": 0})
    for key, value in sections.items():
        document["config"][f"eks-gpu-inference:{key}"] = value
    stack_file = tmp_path / "Pulumi.dev.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    return plan_stack_file(stack_file, tmp_path / "out")


def failed(document: dict) -> dict[int, str]:
    return {verdict["id"]: verdict["message"] for verdict in document["verdicts"] if not verdict["passed"]}


@pytest.fixture(scope="module")
def planned(tmp_path_factory) -> tuple[int, dict, Path]:
    tmp_path = tmp_path_factory.mktemp("queue-stack")
    code, document = plan_dev(tmp_path, QUEUE)
    return code, document, tmp_path / "out"


def rendered(out: Path, name: str) -> dict:
    return yaml.safe_load((out / name).read_text())


def resources(document: dict, type_token: str) -> list[dict]:
    return [row for row in document["resources"] if row["type"] == type_token]


def test_the_dev_stack_fed_from_a_queue_at_zero_replicas_plans_ok_and_judges_the_queue(planned):
    code, document, _ = planned
    assert code == 0, document["failures"]
    assert {verdict["id"]: verdict["name"] for verdict in document["verdicts"] if verdict["passed"]}.items() >= (
        QUEUE_VERDICTS.items()
    )


def test_it_registers_an_encrypted_queue_whose_failures_go_to_an_encrypted_dead_letter_queue(planned):
    _, document, _ = planned
    queues = {row["name"]: row["inputs"] for row in resources(document, "aws:sqs/queue:Queue")}
    requests, dead_letter = (
        queues["gpu-inference-dev-vllm-queue-requests"],
        queues["gpu-inference-dev-vllm-queue-dead-letter"],
    )
    assert requests["sqsManagedSseEnabled"] is dead_letter["sqsManagedSseEnabled"] is True
    assert (requests["visibilityTimeoutSeconds"], requests["messageRetentionSeconds"]) == (60, 345_600)
    assert dead_letter["messageRetentionSeconds"] == 1_209_600
    redrive = json.loads(requests["redrivePolicy"])
    assert redrive["maxReceiveCount"] == 5
    assert redrive["deadLetterTargetArn"].endswith(":gpu-inference-dev-vllm-queue-dead-letter")
    assert {row["name"] for row in resources(document, "aws:sqs/queuePolicy:QueuePolicy")} == {
        "gpu-inference-dev-vllm-queue-requests-policy",
        "gpu-inference-dev-vllm-queue-dead-letter-policy",
    }


def test_the_consumer_may_take_its_queues_messages_and_write_its_prefix_only(planned):
    """The whole document: IAM's grammar (IAM User Guide, JSON policy element reference: Version 2012-10-17, an
    Effect of `Allow` or `Deny`, case sensitive); the four SQS actions a consumer needs to receive, delete, extend
    the visibility of its messages and read the queue's visibility timeout; S3's PutObject and GetObject (the
    HeadObject of a result) under the server's prefix alone. The queue's ARN is the mocks' region and account
    (components/stackcheck/mock_answers.py: us-west-2, 123456789012)."""
    _, document, _ = planned
    policies = {
        row["name"]: json.loads(row["inputs"]["policy"]) for row in resources(document, "aws:iam/rolePolicy:RolePolicy")
    }
    assert policies["gpu-inference-dev-vllm-queue-consumer"] == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "TakeRequests",
                "Effect": "Allow",
                "Action": [
                    "sqs:ReceiveMessage",
                    "sqs:DeleteMessage",
                    "sqs:ChangeMessageVisibility",
                    "sqs:GetQueueAttributes",
                ],
                "Resource": "arn:aws:sqs:us-west-2:123456789012:gpu-inference-dev-vllm-queue-requests",
            },
            {
                "Sid": "WriteResults",
                "Effect": "Allow",
                "Action": ["s3:PutObject", "s3:GetObject"],
                "Resource": "arn:aws:s3:::gpu-inference-dev-vllm-queue-results/results/vllm/vllm-server/*",
            },
        ],
    }


def test_results_expire_after_the_default_30_days_under_the_servers_prefix(planned):
    _, document, _ = planned
    [expiry] = resources(document, "aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration")
    # The default of `resultsExpirationDays` (settings/queue.py), on the prefix the consumer may write.
    assert expiry["inputs"]["rules"] == [
        {
            "id": "expire-results",
            "status": "Enabled",
            "filter": {"prefix": "results/vllm/vllm-server/"},
            "expiration": {"days": 30},
            "noncurrentVersionExpiration": {"noncurrentDays": 30},
        }
    ]
    assert expiry["inputs"]["bucket"].startswith("gpu-inference-dev-vllm-queue-results")


def test_the_cost_section_states_what_the_stack_costs_while_the_queue_is_empty(planned):
    _, document, _ = planned
    estimate = document["cost"]
    # us-west-2, the GPU pool at zero nodes: m6i.large 2 x (0.096 x 730 + 100 GB x 0.08) = 156.16, control plane
    # 73, NAT gateway 32.85, its address 3.65, KMS key 1.00.
    assert estimate["queueEmptyMonthlyUsd"] == round(156.16 + 73 + 32.85 + 3.65 + 1, 2)
    # Both queues are billed by use: listed by name beside the totals, never counted.
    assert {entry["item"] for entry in estimate["usage"] if entry["item"].startswith("SQS requests")} == {
        "SQS requests (gpu-inference-dev-vllm-queue-requests)",
        "SQS requests (gpu-inference-dev-vllm-queue-dead-letter)",
    }


def test_kedas_operator_may_only_read_the_queues_attributes(planned):
    _, document, _ = planned
    rows = {row["name"]: row for row in resources(document, "aws:iam/rolePolicy:RolePolicy")}
    policy = json.loads(rows["gpu-inference-dev-vllm-queue-keda-read"]["inputs"]["policy"])
    assert [statement["Action"] for statement in policy["Statement"]] == [["sqs:GetQueueAttributes"]]
    assert policy["Statement"][0]["Resource"].endswith(":gpu-inference-dev-vllm-queue-requests")
    associations = {
        row["name"]: row["inputs"]
        for row in resources(document, "aws:eks/podIdentityAssociation:PodIdentityAssociation")
    }
    assert (associations["gpu-inference-dev-keda-pod-identity"]["serviceAccount"]) == "keda-operator"
    assert associations["gpu-inference-dev-vllm-queue-pod-identity"]["serviceAccount"] == "vllm-server"


def test_the_scaled_object_scales_from_zero_on_the_queue_with_the_operators_identity(planned):
    _, _, out = planned
    scaler = rendered(out, "vllm.scaledobject.vllm-server.yaml")["spec"]
    assert (scaler["minReplicaCount"], scaler["maxReplicaCount"]) == (0, 2)
    assert scaler["cooldownPeriod"] == 3600
    [trigger] = scaler["triggers"]
    assert trigger["type"] == "aws-sqs-queue"
    assert trigger["metadata"] == {
        "queueURL": "https://sqs.us-west-2.amazonaws.com/123456789012/gpu-inference-dev-vllm-queue-requests",
        "queueLength": "8",
        "activationQueueLength": "0",
        "scaleOnInFlight": "true",
        "awsRegion": "us-west-2",
    }
    auth = rendered(out, f"vllm.triggerauthentication.{trigger['authenticationRef']['name']}.yaml")
    assert auth["spec"] == {"podIdentity": {"provider": "aws"}}


def test_the_consumer_runs_beside_vllm_and_vllm_waits_for_its_drain(planned):
    _, _, out = planned
    deployment = rendered(out, "vllm.deployment.vllm-server.yaml")
    pod = deployment["spec"]["template"]["spec"]
    server, consumer = pod["containers"]
    assert consumer["name"] == "queue-consumer"
    assert consumer["image"] == server["image"]
    assert consumer["command"] == ["python3", "/opt/queue-consumer/consumer.py", "run"]
    env = {item["name"]: item["value"] for item in consumer["env"]}
    assert env["QUEUE_URL"].endswith("/gpu-inference-dev-vllm-queue-requests")
    assert env["RESULTS_URI"] == "s3://gpu-inference-dev-vllm-queue-results/results/vllm/vllm-server/"
    assert (env["REQUEST_TIMEOUT_SECONDS"], env["CONCURRENCY"], env["VLLM_URL"]) == (
        "900",
        "8",
        "http://127.0.0.1:8000",
    )
    assert server["lifecycle"]["preStop"]["exec"]["command"][2:] == [
        "wait-drained",
        "--alive-file",
        "/run/queue-consumer/alive",
        "--pause",
        "10",
        "--timeout",
        "930",
    ]
    # The pause, the longest request and the drain's margin, vLLM's 30 s shutdown and its 15 s margin.
    assert pod["terminationGracePeriodSeconds"] == 10 + 930 + 30 + 15
    assert (
        deployment["spec"]["template"]["metadata"]["annotations"]["cluster-autoscaler.kubernetes.io/safe-to-evict"]
        == "false"
    )
    assert consumer["resources"]["requests"] == consumer["resources"]["limits"]


def test_the_configmap_ships_the_consumer_as_it_is_in_the_package(planned):
    _, _, out = planned
    shipped = rendered(out, "vllm.configmap.vllm-server-queue.yaml")["data"]["consumer.py"]
    assert shipped == (ROOT / "components" / "vllm" / "queue" / "consumer_script.py").read_text()


def test_the_stack_exports_where_to_submit_and_where_to_collect(planned):
    _, document, _ = planned
    assert document["outputs"]["vllmQueueUrl"].endswith("/gpu-inference-dev-vllm-queue-requests")
    assert document["outputs"]["vllmResults"] == "s3://gpu-inference-dev-vllm-queue-results/results/vllm/vllm-server/"


def test_a_request_timeout_above_sqss_twelve_hour_cap_fails_queue_requests_finish(tmp_path):
    code, document = plan_dev(tmp_path, {**QUEUE, "requestTimeoutSeconds": 50_000})
    assert code == 1
    assert list(failed(document)) == [22]
    assert "exceed SQS's 43200 s (12.0 h) visibility cap" in failed(document)[22]


def test_a_request_timeout_above_a_karpenter_nodepools_drain_fails_queue_requests_finish(tmp_path):
    """Karpenter's NodePool here has `terminationGracePeriod: 2h`; a 3 h request needs a longer grace period."""
    pool = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())["config"]["eks-gpu-inference:gpuNodeGroup"]
    code, document = plan_dev(
        tmp_path,
        {**QUEUE, "requestTimeoutSeconds": 3 * 3600},
        gpuNodeGroup={**pool, "provisioner": "karpenter"},
    )
    assert code == 1
    assert 22 in failed(document)
    assert (
        "NodePool gpu's terminationGracePeriod 7200 s (2.0 h) is shorter than the pod's grace period"
        in (failed(document)[22])
    )


def test_one_receive_before_the_dead_letter_queue_fails_queue_failures_reach_dead_letter(tmp_path):
    code, document = plan_dev(tmp_path, {**QUEUE, "maxReceiveCount": 1})
    assert code == 1
    assert list(failed(document)) == [24]


def test_a_retention_shorter_than_a_cold_start_fails_queue_retention_outlasts_cold_start(tmp_path):
    code, document = plan_dev(tmp_path, {**QUEUE, "messageRetentionSeconds": 120})
    assert code == 1
    assert list(failed(document)) == [23]
    assert "raise queue.messageRetentionSeconds to at least" in failed(document)[23]


def test_the_consumer_the_plan_renders_answers_from_its_rendered_environment(planned, tmp_path):
    """The ConfigMap's program with the Deployment's environment for the consumer, run against moto and the
    stand-in: only the addresses change (the queue, bucket and server are local) and the long poll is 1 s rather
    than SQS's 20, so that the consumer stops at once when the test is done; every other value is the plan's."""
    _, _, out = planned
    script = tmp_path / "consumer.py"
    script.write_text(rendered(out, "vllm.configmap.vllm-server-queue.yaml")["data"]["consumer.py"])
    pod = rendered(out, "vllm.deployment.vllm-server.yaml")["spec"]["template"]["spec"]
    [consumer] = [container for container in pod["containers"] if container["name"] == "queue-consumer"]
    plan_env = {item["name"]: item["value"] for item in consumer["env"]}
    with moto_server() as moto, stand_in_server() as stand_in:
        setup = make_queue(moto, "rendered", visibility=60, max_receive_count=5)
        setup.send([chat_line("hello", "ok"), chat_line("refused", "status:400")], batch="first")
        setup.send([chat_line("hello", "ok")], batch="second")
        environment = {
            **consumer_environment(setup, stand_in.url, tmp_path / "alive"),
            **{key: value for key, value in plan_env.items() if key not in {"QUEUE_URL", "RESULTS_URI", "AWS_REGION"}},
            "VLLM_URL": stand_in.url,
            "ALIVE_FILE": str(tmp_path / "alive"),
            "RECEIVE_WAIT_SECONDS": "1",
        }
        with consumer_process(environment, tmp_path / "consumer.log", script=script) as running:
            assert wait_until(lambda: len(setup.result_keys()) == 3, 60), running.output()
            running.process.send_signal(signal.SIGTERM)
            assert running.process.wait(timeout=30) == 0
        results = setup.results()
        remaining = setup.counts()
    assert plan_env["REQUEST_TIMEOUT_SECONDS"] == environment["REQUEST_TIMEOUT_SECONDS"] == "900"
    assert set(results) == {"first/hello.json", "first/refused.json", "second/hello.json"}
    assert results["first/refused.json"]["response"]["status_code"] == 400
    assert remaining == {"ApproximateNumberOfMessages": 0, "ApproximateNumberOfMessagesNotVisible": 0}


def test_a_fleet_model_fed_from_a_queue_gets_its_own_queue_consumer_and_outputs(tmp_path):
    """The fleet example with its first model fed from a queue at zero replicas, the others as they were."""
    document = fleet_config()
    models = document["config"]["eks-gpu-inference:models"]
    models[0] = {**models[0], "queue": QUEUE, "autoscaling": SCALE_TO_ZERO, "replicas": 0}
    run = run_fleet(document, tmp_path)
    queues = sorted(resource.name for resource in run.resources if resource.type == "aws:sqs/queue:Queue")
    assert queues == ["gpu-fleet-vllm-qwen-1-5b-queue-dead-letter", "gpu-fleet-vllm-qwen-1-5b-queue-requests"]
    consumers = [
        resource.name
        for resource in run.resources
        if resource.type == "kubernetes:apps/v1:Deployment"
        and any(c["name"] == "queue-consumer" for c in resource.inputs["spec"]["template"]["spec"]["containers"])
    ]
    assert consumers == ["gpu-fleet-vllm-qwen-1-5b-deployment"]
    outputs = run.outputs["models"]
    assert outputs["qwen-1-5b"]["queue"].endswith("/gpu-fleet-vllm-qwen-1-5b-queue-requests")
    assert outputs["qwen-1-5b"]["results"] == (
        "s3://gpu-fleet-vllm-qwen-1-5b-queue-results/results/qwen-1-5b/qwen-1-5b/"
    )
    assert "queue" not in outputs["llama-8b"]
