"""Real parts for the queue's tests: moto's server for SQS and S3, and a stand-in for vLLM's OpenAI API.

moto's server (`moto_server`, from PyPI's `moto`) is started on 127.0.0.1 at a free port and stopped after; the
consumer and `eks-gpu-batch` reach it through `AWS_ENDPOINT_URL`, as they reach AWS, so the programs under test are
the files the stack ships. moto honours visibility timeouts and redrive policies, not every AWS limit: the limits
are checked against botocore's model elsewhere (facts/sqs_model.py).

The stand-in answers each chat request by its first message's content: `ok` (200), `sleep:<seconds>` (200 after
that long), `status:<code>` (that status), `flaky:<n>` (503 for the first n calls of that content, then 200); it
counts the calls per content and answers `/health` with 200 once `ready` is set.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import boto3

MOTO_SERVER = Path(sys.executable).parent / "moto_server"
REGION = "us-east-1"
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": REGION}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Moto:
    """A running moto server and clients on it."""

    endpoint: str
    _clients: dict = field(default_factory=dict)
    # boto3's default session is not safe to make clients from in several threads at once (boto/boto3#1592,
    # boto/botocore#2991); a client, once made, is safe to share.
    _making: threading.Lock = field(default_factory=threading.Lock)

    @property
    def environment(self) -> dict[str, str]:
        """What a program needs to reach it through boto3's standard configuration."""
        return {**CREDENTIALS, "AWS_ENDPOINT_URL": self.endpoint, "AWS_DEFAULT_REGION": REGION}

    def client(self, service: str):
        """One client per service, made once: the tests poll S3 and SQS every fraction of a second."""
        with self._making:
            if service not in self._clients:
                self._clients[service] = boto3.client(
                    service,
                    endpoint_url=self.endpoint,
                    region_name=REGION,
                    aws_access_key_id="testing",
                    aws_secret_access_key="testing",
                )
            return self._clients[service]


@contextlib.contextmanager
def moto_server() -> Iterator[Moto]:
    """moto's server on 127.0.0.1, stopped (its process ended) on exit."""
    port = free_port()
    process = subprocess.Popen(
        [str(MOTO_SERVER), "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **CREDENTIALS},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("moto_server did not start") from None
                time.sleep(0.05)
        yield Moto(f"http://127.0.0.1:{port}")
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class StandIn:
    """The stand-in server's state: its URL, whether it is ready, and the calls per content."""

    url: str
    ready: threading.Event = field(default_factory=threading.Event)
    calls: Counter = field(default_factory=Counter)
    health_checks: int = 0
    """`/health` requests answered so far, ready or not."""
    lock: threading.Lock = field(default_factory=threading.Lock)


def _content(body: dict) -> str:
    messages = body.get("messages") or [{}]
    return str(messages[0].get("content", body.get("prompt", "ok")))


def _handler(state: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def _send(self, status: int, document: dict) -> None:
            payload = json.dumps(document).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("X-Request-Id", f"standin-{state.calls.total()}")
            self.end_headers()
            self.wfile.write(payload)

        def do_GET(self) -> None:
            if self.path == "/health":
                with state.lock:
                    state.health_checks += 1
            if self.path == "/health" and state.ready.is_set():
                self._send(200, {})
            else:
                self._send(503, {"error": "not ready"})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            content = _content(body)
            with state.lock:
                state.calls[content] += 1
                seen = state.calls[content]
            kind, _, value = content.partition(":")
            if kind == "sleep":
                time.sleep(float(value))
            if kind == "status":
                self._send(int(value), {"error": {"message": f"stand-in {value}", "code": int(value)}})
                return
            if kind == "flaky" and seen <= int(value):
                self._send(503, {"error": {"message": "stand-in busy", "code": 503}})
                return
            self._send(200, {"object": "chat.completion", "choices": [{"message": {"content": f"echo {content}"}}]})

    return Handler


@contextlib.contextmanager
def stand_in_server(ready: bool = True) -> Iterator[StandIn]:
    """The stand-in on 127.0.0.1, shut down on exit."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(StandIn("")))
    state = StandIn(f"http://127.0.0.1:{server.server_address[1]}")
    server.RequestHandlerClass = _handler(state)
    if ready:
        state.ready.set()
    # A short poll so that shutting down takes milliseconds, not serve_forever's default half second.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def chat_line(custom_id: str, content: str) -> str:
    """One Batch API line asking the chat endpoint."""
    return json.dumps(
        {
            "custom_id": custom_id,
            "method": "POST",
            "url": "/v1/chat/completions",
            "body": {"model": "m", "messages": [{"role": "user", "content": content}]},
        }
    )
