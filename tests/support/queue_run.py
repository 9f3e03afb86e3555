"""Running the queue's consumer for real: the shipped script as a process against moto's server and the stand-in
(tests/support/queue_services.py), a queue with its dead-letter queue and a results bucket, and what ended where.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from components.vllm.queue import consumer_script

from .queue_services import Moto

SCRIPT = Path(consumer_script.__file__)
PREFIX = "out/"


@dataclass
class QueueSetup:
    """A queue, its dead-letter queue and a versioned results bucket on moto."""

    moto: Moto
    queue_url: str
    dead_letter_url: str
    max_receive_count: int
    bucket: str

    @property
    def sqs(self):
        return self.moto.client("sqs")

    @property
    def s3(self):
        return self.moto.client("s3")

    def send(self, lines: list[str], batch: str | None = None) -> None:
        """Each line a message, ten at a time, with the batch attribute when given."""
        attributes = {consumer_script.BATCH_ATTRIBUTE: {"DataType": "String", "StringValue": batch}} if batch else {}
        for start in range(0, len(lines), 10):
            entries = [
                {"Id": str(index), "MessageBody": line, **({"MessageAttributes": attributes} if attributes else {})}
                for index, line in enumerate(lines[start : start + 10])
            ]
            answer = self.sqs.send_message_batch(QueueUrl=self.queue_url, Entries=entries)
            assert not answer.get("Failed"), answer

    def results(self) -> dict[str, dict]:
        """Every result by its key under the prefix."""
        found = {}
        for page in self.s3.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=PREFIX):
            for item in page.get("Contents", []):
                body = self.s3.get_object(Bucket=self.bucket, Key=item["Key"])["Body"].read()
                found[item["Key"][len(PREFIX) :]] = json.loads(body)
        return found

    def result_keys(self) -> set[str]:
        """The result keys under the prefix, without reading them."""
        keys = set()
        for page in self.s3.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=PREFIX):
            keys |= {item["Key"][len(PREFIX) :] for item in page.get("Contents", [])}
        return keys

    def versions(self) -> dict[str, int]:
        """How many times each result key was written (the bucket is versioned)."""
        counts: dict[str, int] = {}
        for page in self.s3.get_paginator("list_object_versions").paginate(Bucket=self.bucket, Prefix=PREFIX):
            for version in page.get("Versions", []):
                counts[version["Key"][len(PREFIX) :]] = counts.get(version["Key"][len(PREFIX) :], 0) + 1
        return counts

    def dead_letters(self) -> list[str]:
        """The bodies in the dead-letter queue (received once with a long visibility, so each is seen once)."""
        bodies = []
        while True:
            answer = self.sqs.receive_message(
                QueueUrl=self.dead_letter_url, MaxNumberOfMessages=10, VisibilityTimeout=600, WaitTimeSeconds=0
            )
            if not answer.get("Messages"):
                return bodies
            bodies += [message["Body"] for message in answer["Messages"]]

    def counts(self) -> dict[str, int]:
        attributes = self.sqs.get_queue_attributes(
            QueueUrl=self.queue_url,
            AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        )["Attributes"]
        return {key: int(value) for key, value in attributes.items()}


def make_queue(moto: Moto, name: str, *, visibility: int = 2, max_receive_count: int = 2) -> QueueSetup:
    """A fresh queue named `name` (and `<name>-dead-letter`), and a versioned results bucket of its own."""
    sqs, s3 = moto.client("sqs"), moto.client("s3")
    bucket = f"results-{name}".lower()
    s3.create_bucket(Bucket=bucket)
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    dead_letter = sqs.create_queue(QueueName=f"{name}-dead-letter")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=dead_letter, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    redrive = json.dumps({"deadLetterTargetArn": arn, "maxReceiveCount": max_receive_count})
    queue = sqs.create_queue(
        QueueName=name, Attributes={"VisibilityTimeout": str(visibility), "RedrivePolicy": redrive}
    )["QueueUrl"]
    return QueueSetup(moto, queue, dead_letter, max_receive_count, bucket)


def consumer_environment(setup: QueueSetup, vllm_url: str, alive_file: Path, **overrides: str) -> dict[str, str]:
    """The environment the shipped script runs with: the queue, the bucket, the stand-in, short waits."""
    return {
        **{key: value for key, value in os.environ.items() if not key.startswith("AWS_")},
        **setup.moto.environment,
        "QUEUE_URL": setup.queue_url,
        "RESULTS_URI": f"s3://{setup.bucket}/{PREFIX}",
        "VLLM_URL": vllm_url,
        "CONCURRENCY": "8",
        "REQUEST_TIMEOUT_SECONDS": "10",
        "RECEIVE_WAIT_SECONDS": "1",
        "RECEIVE_BATCH": "10",
        "ALIVE_FILE": str(alive_file),
        **overrides,
    }


@dataclass
class Running:
    """The consumer's process and the file its output goes to."""

    process: subprocess.Popen
    log: Path

    def output(self) -> str:
        return self.log.read_text()


@contextlib.contextmanager
def consumer_process(environment: dict[str, str], log: Path, script: Path = SCRIPT) -> Iterator[Running]:
    """The script's `run` as a process, its output appended to `log`; killed on exit if it still runs."""
    with log.open("a") as output:
        process = subprocess.Popen(
            [sys.executable, str(script), "run"], env=environment, stdout=output, stderr=subprocess.STDOUT
        )
        try:
            yield Running(process, log)
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)


def wait_until(condition: Callable[[], bool], timeout: float, step: float = 0.2) -> bool:
    """Whether `condition` held within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()
