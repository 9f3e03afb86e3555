"""The program beside each queue-fed vLLM server, in the same pod (shipped to it in a ConfigMap).

`run`: takes requests from an SQS queue and answers them with the vLLM server on localhost. Each message is one
line of OpenAI's Batch API, as `vllm run-batch` reads it: `{"custom_id", "method": "POST", "url", "body"}`. The
answer is written to S3 as the line `vllm run-batch` writes (`{"id", "custom_id", "response": {"status_code",
"request_id", "body"}, "error"}`), under `<results prefix><batch id>/<custom_id>.json`, the batch id read from
the message attribute `batch-id` (`default` without one); only then is the message deleted, so a crash at any
point leaves the message to come back, and a message whose result already exists is deleted without asking the
server again (SQS delivers a message at least once). The rules:

- a 2xx answer is a result; a 4xx answer is a result with its error, except 408 and 429;
- a 408, 429 or 5xx answer, a timeout or a connection error leaves the message to come back once its visibility
  ends (within the queue's visibility timeout) and, after the queue's `maxReceiveCount`, to reach the dead-letter
  queue; so does a message that names no usable `custom_id` or batch id, made visible again at once;
- while a request runs, its message's visibility is extended to the queue's timeout every third of it, so a
  short timeout returns a crashed consumer's messages soon and a long request still runs once;
- on SIGTERM it stops receiving, makes the messages it holds but has not started visible again at once,
  finishes what it has started (each request within `REQUEST_TIMEOUT_SECONDS`), and exits 0;
- it waits for the server's `/health` before receiving.

It reads `QUEUE_URL`, `RESULTS_URI` (`s3://bucket/prefix/`), `VLLM_URL` (default `http://127.0.0.1:8000`),
`CONCURRENCY`, `REQUEST_TIMEOUT_SECONDS`, `RECEIVE_WAIT_SECONDS`, `RECEIVE_BATCH`, `ALIVE_FILE` and, when the
server has one, `VLLM_API_KEY` from its environment; the visibility timeout from the queue itself; and boto3's
standard configuration (`AWS_REGION`, `AWS_ENDPOINT_URL`, the EKS Pod Identity credentials).

`wait-drained`: the vLLM container's preStop. It pauses (so the Service stops sending online requests), then
waits until the consumer has exited (its `ALIVE_FILE` gone, or not touched for a while: a consumer that crashed),
so the server outlives the consumer's drain.

Standard library only at import; boto3 (in the vLLM image, as for the weights copy) is imported by `main` alone.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

ENDPOINTS = ("/v1/chat/completions", "/v1/completions", "/v1/embeddings")
"""The OpenAI endpoints a line may name (the Batch API's, which vLLM serves)."""
BATCH_ATTRIBUTE = "batch-id"
"""The message attribute that names a message's batch."""
DEFAULT_BATCH = "default"
# A custom_id or batch id becomes one segment of an S3 key: S3's "safe characters" only (Amazon S3 User Guide,
# "Naming Amazon S3 objects": letters, digits and ! - _ . * ' ( )), at most 256 of them, not `.` or `..`.
_KEY_PART = re.compile(r"[A-Za-z0-9!_.*'()-]{1,256}")
KEY_PART_RULE = "1-256 of the letters, digits and ! - _ . * ' ( ) S3 keys take safely, not '.' or '..'"
# Answers that say "later", not "never": Request Timeout and Too Many Requests (RFC 9110, 15.5.9; RFC 6585, 4).
RETRIED_STATUSES = frozenset({408, 429})
HEARTBEAT_FRACTION = 3
"""A running request's visibility is extended every `1/HEARTBEAT_FRACTION` of the queue's timeout."""
ALIVE_SECONDS = 2.0
"""How often the consumer touches `ALIVE_FILE`; `wait-drained` takes a file older than three of these for a
consumer that is gone."""
READY_POLL_SECONDS = 2.0
RETRY_SECONDS = 5.0
"""The wait after a failed call to SQS before the next."""


def is_key_part(value: object) -> bool:
    """Whether `value` can be one segment of a result's S3 key."""
    return isinstance(value, str) and bool(_KEY_PART.fullmatch(value)) and value not in (".", "..")


class BadLine(ValueError):
    """A line that is not a request of the Batch API."""


@dataclass(frozen=True)
class Line:
    """One request line."""

    custom_id: str
    url: str
    body: dict


def parse_line(text: str) -> Line:
    """`text` as a request line; BadLine says what is wrong. Its custom_id is checked first, so a line that names
    a usable one and is otherwise wrong can still be answered with an error result."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise BadLine(f"not JSON ({error})") from None
    if not isinstance(data, dict):
        raise BadLine(f"a JSON {type(data).__name__}; allowed: an object with custom_id, method, url and body")
    custom_id = data.get("custom_id")
    if not is_key_part(custom_id):
        raise BadLine(f"custom_id {custom_id!r}; allowed: {KEY_PART_RULE}")
    return Line(custom_id, data.get("url"), data.get("body"))  # type: ignore[arg-type]


def line_problem(text: str) -> str | None:
    """What makes `text` a line the consumer answers with an error rather than the server's answer, or None."""
    try:
        parse_line(text)
    except BadLine as error:
        return str(error)
    data = json.loads(text)
    if data.get("method") != "POST":
        return f"method {data.get('method')!r}; allowed: 'POST'"
    if data.get("url") not in ENDPOINTS:
        return f"url {data.get('url')!r}; allowed: {', '.join(ENDPOINTS)}"
    if not isinstance(data.get("body"), dict):
        return "body is not a JSON object"
    if data["body"].get("stream"):
        # As `vllm run-batch` refuses it: an answer must be one JSON body.
        return "Request must not be sent in stream mode"
    return None


def result_key(prefix: str, batch: str, custom_id: str) -> str:
    """Where a request's result is written: `<prefix><batch>/<custom_id>.json`."""
    return f"{prefix}{batch}/{custom_id}.json"


def split_results_uri(uri: str) -> tuple[str, str]:
    """`s3://bucket/prefix/` as (bucket, `prefix/`)."""
    bucket, _, prefix = uri.removeprefix("s3://").partition("/")
    if not uri.startswith("s3://") or not bucket:
        raise ValueError(f"results {uri!r}; allowed: s3://<bucket>/<prefix>/")
    return bucket, prefix if not prefix or prefix.endswith("/") else prefix + "/"


def result_document(custom_id: str, status: int, body: Any, request_id: str | None) -> dict:
    """The output line `vllm run-batch` writes (vllm-project/vllm vllm/entrypoints/openai/run_batch.py at
    53159ce0, `run_request`): a 2xx answer's body in `response.body`; an error's status in `response.status_code`
    and its body in `error`."""
    response: dict[str, Any] = {"status_code": status, "request_id": request_id or f"vllm-batch-{uuid.uuid4().hex}"}
    document: dict[str, Any] = {"id": f"vllm-{uuid.uuid4().hex}", "custom_id": custom_id, "response": response}
    if 200 <= status < 300:
        response["body"] = body
        document["error"] = None
    else:
        document["error"] = body
    return document


@dataclass(frozen=True)
class Answer:
    """What the server said: a status and a body, or None for no answer (a timeout, a connection error)."""

    status: int | None
    body: Any = None
    request_id: str | None = None
    reason: str = ""

    @property
    def retried(self) -> bool:
        return self.status is None or self.status >= 500 or self.status in RETRIED_STATUSES


def ask_server(base_url: str, line: Line, timeout: float, api_key: str | None = None) -> Answer:
    """POST the line's body to the server; an answer, or a status of None when none came within `timeout`
    (urllib's timeout bounds each wait on the socket: vLLM sends a non-streamed answer whole, once it is done)."""
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    request = urllib.request.Request(
        base_url.rstrip("/") + line.url, data=json.dumps(line.body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, payload, request_id = response.status, response.read(), response.headers.get("X-Request-Id")
    except urllib.error.HTTPError as error:
        status, payload, request_id = error.code, error.read(), error.headers.get("X-Request-Id")
    except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
        return Answer(None, reason=f"{type(error).__name__}: {error}")
    try:
        body: Any = json.loads(payload)
    except ValueError:
        body = payload.decode("utf-8", "replace")
    return Answer(status, body, request_id, reason=f"HTTP {status}")


def _missing(error: Exception) -> bool:
    """Whether botocore's ClientError says the object is not there: 404, or 403 for a caller that may read the
    key but not list the bucket (S3 API Reference, HeadObject, "Permissions"). A real denial still fails, at the
    write."""
    code = (getattr(error, "response", None) or {}).get("Error", {}).get("Code")
    return code in {"404", "NoSuchKey", "NotFound", "403", "AccessDenied", "Forbidden"}


def _exists_already(error: Exception) -> bool:
    """Whether a conditional write found the object written (S3's 412 Precondition Failed for `If-None-Match: *`,
    or 409 ConditionalRequestConflict for a write racing it: Amazon S3 User Guide, "Conditional writes")."""
    code = (getattr(error, "response", None) or {}).get("Error", {}).get("Code")
    return code in {"PreconditionFailed", "412", "ConditionalRequestConflict", "409"}


@dataclass
class Held:
    """A message the consumer holds, and when its visibility was last extended."""

    message: dict
    extended_at: float


@dataclass
class Consumer:
    """The receive loop, its heartbeat and its drain, on an SQS and an S3 client (boto3's, or any with the same
    calls)."""

    sqs: Any
    s3: Any
    queue_url: str
    results_uri: str
    vllm_url: str = "http://127.0.0.1:8000"
    concurrency: int = 8
    request_timeout: float = 600
    receive_wait: int = 20
    receive_batch: int = 10
    alive_file: str | None = None
    api_key: str | None = None
    log: Callable[[str], None] = print
    clock: Callable[[], float] = time.monotonic
    stopping: threading.Event = field(default_factory=threading.Event)
    held: dict[str, Held] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _drained: threading.Event = field(default_factory=threading.Event)
    visibility: int = 0

    def stop(self, *_: object) -> None:
        """Stop receiving (the SIGTERM handler); what was started is finished."""
        if not self.stopping.is_set():
            self.log("stopping: no more receives, finishing what has started")
        self.stopping.set()

    def _count(self, outcome: str) -> None:
        with self._lock:
            self.counts[outcome] = self.counts.get(outcome, 0) + 1

    # The server and the queue.

    def wait_for_server(self) -> bool:
        """Whether the server answered `/health` before a stop."""
        while not self.stopping.is_set():
            try:
                with urllib.request.urlopen(self.vllm_url.rstrip("/") + "/health", timeout=5) as response:
                    if response.status == 200:
                        return True
            except (urllib.error.URLError, OSError, http.client.HTTPException):
                pass
            self.stopping.wait(READY_POLL_SECONDS)
        return False

    def read_visibility(self) -> int:
        attributes = self.sqs.get_queue_attributes(QueueUrl=self.queue_url, AttributeNames=["VisibilityTimeout"])
        return int(attributes["Attributes"]["VisibilityTimeout"])

    def _release(self, messages: list[dict]) -> None:
        """Make `messages` visible again at once."""
        for start in range(0, len(messages), self.receive_batch):
            entries = [
                {"Id": str(index), "ReceiptHandle": message["ReceiptHandle"], "VisibilityTimeout": 0}
                for index, message in enumerate(messages[start : start + self.receive_batch])
            ]
            if entries:
                self.sqs.change_message_visibility_batch(QueueUrl=self.queue_url, Entries=entries)

    def _delete(self, message: dict) -> None:
        self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])

    # The heartbeat.

    def _touch_alive(self) -> None:
        if self.alive_file:
            with open(self.alive_file, "a"):
                os.utime(self.alive_file)

    def heartbeat_once(self) -> None:
        """Extend the visibility of every running request whose last extension is a third of the timeout old."""
        self._touch_alive()
        if not self.visibility:
            return
        now = self.clock()
        with self._lock:
            due = [
                held for held in self.held.values() if now - held.extended_at >= self.visibility / HEARTBEAT_FRACTION
            ]
            for held in due:
                held.extended_at = now
        for start in range(0, len(due), self.receive_batch):
            chunk = due[start : start + self.receive_batch]
            entries = [
                {"Id": str(index), "ReceiptHandle": held.message["ReceiptHandle"], "VisibilityTimeout": self.visibility}
                for index, held in enumerate(chunk)
            ]
            try:
                answer = self.sqs.change_message_visibility_batch(QueueUrl=self.queue_url, Entries=entries)
            except Exception as error:  # the next beat tries again, within the timeout
                self.log(f"heartbeat failed: {error}")
                continue
            for failed in answer.get("Failed") or []:
                self.log(f"heartbeat refused for a message: {failed.get('Code')} {failed.get('Message', '')}")

    def _beat(self) -> None:
        while not self._drained.is_set():
            self.heartbeat_once()
            interval = self.visibility / HEARTBEAT_FRACTION if self.visibility else ALIVE_SECONDS
            self._drained.wait(min(interval, ALIVE_SECONDS) / 2)

    # One message.

    def handle(self, message: dict) -> str:
        """Answer one message; returns its outcome (`answered`, `error-result`, `duplicate`, `retry`, `poison`)."""
        outcome = "retry"
        try:
            outcome = self._handle(message)
        except Exception as error:  # an S3 or SQS error: the message comes back
            self.log(f"message {message.get('MessageId')}: {type(error).__name__}: {error}; it will come back")
        finally:
            with self._lock:
                self.held.pop(message["ReceiptHandle"], None)
            self._count(outcome)
        return outcome

    def _handle(self, message: dict) -> str:
        attribute = (message.get("MessageAttributes") or {}).get(BATCH_ATTRIBUTE) or {}
        batch = attribute.get("StringValue", DEFAULT_BATCH)
        text = message.get("Body", "")
        try:
            line = parse_line(text)
            if not is_key_part(batch):
                raise BadLine(f"batch id {batch!r}; allowed: {KEY_PART_RULE}")
        except BadLine as error:
            # No key to write an answer under: back at once, and to the dead-letter queue after maxReceiveCount.
            self.log(f"message {message.get('MessageId')}: {error}; left for the dead-letter queue")
            self._release([message])
            return "poison"
        bucket, prefix = split_results_uri(self.results_uri)
        key = result_key(prefix, batch, line.custom_id)
        try:
            self.s3.head_object(Bucket=bucket, Key=key)
        except Exception as error:
            if not _missing(error):
                raise
        else:
            self._delete(message)
            return "duplicate"
        problem = line_problem(text)
        if problem is not None:
            document = result_document(line.custom_id, 400, {"error": {"message": problem, "code": 400}}, None)
            outcome = "error-result"
        else:
            answer = ask_server(self.vllm_url, line, self.request_timeout, self.api_key)
            if answer.retried:
                with self._lock:  # no more heartbeats: it comes back when its visibility ends
                    self.held.pop(message["ReceiptHandle"], None)
                self.log(f"{batch}/{line.custom_id}: {answer.reason}; it will come back")
                return "retry"
            assert answer.status is not None
            document = result_document(line.custom_id, answer.status, answer.body, answer.request_id)
            outcome = "answered" if 200 <= answer.status < 300 else "error-result"
        try:
            self.s3.put_object(
                Bucket=bucket,
                Key=key,
                Body=(json.dumps(document) + "\n").encode(),
                ContentType="application/json",
                IfNoneMatch="*",
            )
        except Exception as error:
            if not _exists_already(error):
                raise
            outcome = "duplicate"
        self._delete(message)
        return outcome

    # The loop.

    def run(self) -> int:
        """Receive and answer until stopped, then drain; 0 once every started request is finished."""
        beat = threading.Thread(target=self._beat, name="heartbeat", daemon=True)
        beat.start()
        try:
            if not self.wait_for_server():
                return 0
            while True:
                try:
                    self.visibility = self.read_visibility()
                    break
                except Exception as error:  # a grant still propagating: try again shortly
                    self.log(f"reading the queue's visibility timeout failed: {type(error).__name__}: {error}")
                    if self.stopping.wait(RETRY_SECONDS):
                        return 0
            self.log(f"server ready; visibility timeout {self.visibility} s, {self.concurrency} at once")
            with ThreadPoolExecutor(self.concurrency, thread_name_prefix="request") as pool:
                while not self.stopping.is_set():
                    with self._lock:
                        free = self.concurrency - len(self.held)
                    if free <= 0:
                        self.stopping.wait(0.05)
                        continue
                    try:
                        received = self.sqs.receive_message(
                            QueueUrl=self.queue_url,
                            MaxNumberOfMessages=min(free, self.receive_batch),
                            WaitTimeSeconds=self.receive_wait,
                            MessageAttributeNames=[BATCH_ATTRIBUTE],
                        ).get("Messages", [])
                    except Exception as error:  # throttled, or a grant still propagating: try again shortly
                        self.log(f"receive failed: {type(error).__name__}: {error}")
                        self.stopping.wait(RETRY_SECONDS)
                        continue
                    if self.stopping.is_set():
                        # Held, not started: visible again at once for another replica.
                        self._release(received)
                        break
                    now = self.clock()
                    for message in received:
                        with self._lock:
                            self.held[message["ReceiptHandle"]] = Held(message, now)
                        pool.submit(self.handle, message)
            self.log(f"drained: {json.dumps(self.counts, sort_keys=True)}")
            return 0
        finally:
            self._drained.set()
            beat.join()
            if self.alive_file and os.path.exists(self.alive_file):
                os.remove(self.alive_file)


def wait_drained(
    alive_file: str,
    *,
    pause: float,
    timeout: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """After `pause` seconds, wait until `alive_file` is gone or stale (its time, a wall-clock one, older than
    three beats), at most `timeout` seconds more; whether the consumer had drained."""
    sleep(pause)
    deadline = clock() + timeout
    while clock() < deadline:
        try:
            if time.time() - os.path.getmtime(alive_file) > 3 * ALIVE_SECONDS:
                return True
        except OSError:
            return True
        sleep(1)
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    sub.add_parser("run", help="take requests from the queue until SIGTERM")
    drained = sub.add_parser("wait-drained", help="the server's preStop: wait for the consumer to exit")
    drained.add_argument("--alive-file", required=True)
    drained.add_argument("--pause", type=float, default=0)
    drained.add_argument("--timeout", type=float, required=True)
    args = parser.parse_args(argv)
    if args.mode == "wait-drained":
        wait_drained(args.alive_file, pause=args.pause, timeout=args.timeout)
        return 0
    # Before boto3 loads (a second or more): a SIGTERM while it does is a stop, not Python's default exit.
    stopping = threading.Event()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signal_number, lambda *_: stopping.set())
    import boto3

    consumer = Consumer(
        sqs=boto3.client("sqs"),
        s3=boto3.client("s3"),
        queue_url=os.environ["QUEUE_URL"],
        results_uri=os.environ["RESULTS_URI"],
        vllm_url=os.environ.get("VLLM_URL", "http://127.0.0.1:8000"),
        concurrency=int(os.environ.get("CONCURRENCY", "8")),
        request_timeout=int(os.environ.get("REQUEST_TIMEOUT_SECONDS", "600")),
        receive_wait=int(os.environ.get("RECEIVE_WAIT_SECONDS", "20")),
        receive_batch=int(os.environ.get("RECEIVE_BATCH", "10")),
        alive_file=os.environ.get("ALIVE_FILE"),
        api_key=os.environ.get("VLLM_API_KEY"),
        log=lambda text: print(text, flush=True),
        stopping=stopping,
    )
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signal_number, consumer.stop)
    return consumer.run()


if __name__ == "__main__":
    sys.exit(main())
