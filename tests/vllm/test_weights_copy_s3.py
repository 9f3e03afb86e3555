"""The weights copy program (components/vllm/weights_copy_script.py, the file the Job runs) against a real S3 API:
moto's server, through boto3 as on AWS. It copies several files at once, resumes where a failed attempt stopped
(a file S3 holds at the size the Hub lists is not copied again, one of another size is), and writes the marker
last; the server's wait, run through the program's own command line, sees it."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from components.facts import system_nodes
from components.vllm import weights_copy_script
from components.vllm.weights_copy_script import COPY_WORKERS, MARKER, copy, main, stored_size
from tests.support.queue_services import Moto, moto_server

BUCKET = "gpu-inference-weights-test"
MODEL = "Qwen/Qwen2.5-7B-Instruct"
REVISION = "a" * 40
PREFIX = f"{MODEL}/{REVISION}"
SHARDS = [f"model-0000{index}-of-00004.safetensors" for index in range(1, 5)]
FILES = ["config.json", "tokenizer.json", *SHARDS]


def body(name: str) -> bytes:
    """Each file's bytes, of a size of its own, so that a size compares one file and not another."""
    return (name * (len(name) + FILES.index(name) + 1)).encode() if name in FILES else name.encode()


class LocalHub:
    """The Hub as the program sees it: the files and their sizes, and a download into the work folder, counted; it
    fails on `fail_on`, and holds each download until `together` are in flight (None: never waits)."""

    def __init__(self, fail_on: str | None = None, together: int | None = None):
        self.fail_on = fail_on
        self.downloads: list[str] = []
        self.in_flight = 0
        self.most_in_flight = 0
        self.lock = threading.Lock()
        self.barrier = threading.Barrier(together, timeout=20) if together else None

    def files(self, model, revision):
        return {name: len(body(name)) for name in [*FILES, "pytorch_model.bin", ".gitattributes"]}

    def download(self, model, filename, revision, workdir):
        with self.lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if self.barrier is not None:
                self.barrier.wait()
            if filename == self.fail_on:
                raise OSError("connection reset by peer")
            path = Path(workdir) / filename
            path.write_bytes(body(filename))
            with self.lock:
                self.downloads.append(filename)
            return str(path)
        finally:
            with self.lock:
                self.in_flight -= 1


@pytest.fixture(scope="module")
def moto():
    # The queue tests' moto server (tests/support/queue_services.py), one for the module.
    with moto_server() as server:
        yield server


@pytest.fixture
def s3(moto: Moto, request):
    client = moto.client("s3")
    # A bucket per test: the tests leave objects behind on purpose. us-east-1 takes no location constraint.
    bucket = f"{BUCKET}-{abs(hash(request.node.name)) % 10**8}"
    client.create_bucket(Bucket=bucket)
    client.bucket = bucket
    return client


def keys(s3) -> list[str]:
    return sorted(item["Key"] for item in s3.list_objects_v2(Bucket=s3.bucket).get("Contents", []))


def run_copy(s3, hub, tmp_path) -> str:
    where = {"bucket": s3.bucket, "prefix": PREFIX, "model": MODEL, "revision": REVISION}
    return copy(s3, hub, workdir=str(tmp_path), log=lambda _: None, **where)


def test_a_first_copy_puts_every_file_of_the_model_and_the_marker(s3, tmp_path):
    assert run_copy(s3, LocalHub(), tmp_path) == "copied"

    assert keys(s3) == sorted([f"{PREFIX}/{name}" for name in FILES] + [f"{PREFIX}/{MARKER}"])
    for name in FILES:
        assert s3.get_object(Bucket=s3.bucket, Key=f"{PREFIX}/{name}")["Body"].read() == body(name)
    marker = json.loads(s3.get_object(Bucket=s3.bucket, Key=f"{PREFIX}/{MARKER}")["Body"].read())
    assert marker == {"model": MODEL, "revision": REVISION, "files": sorted(FILES)}
    assert not list(tmp_path.iterdir())  # nothing left on the node's disk


def test_files_are_copied_several_at_once(s3, tmp_path):
    # Each download waits until COPY_WORKERS are in flight: one at a time would time the barrier out and fail.
    hub = LocalHub(together=COPY_WORKERS)

    assert run_copy(s3, hub, tmp_path) == "copied"
    assert hub.most_in_flight == COPY_WORKERS == 3


def test_a_failed_attempt_leaves_no_marker_and_the_retry_copies_only_what_is_missing(s3, tmp_path):
    with pytest.raises(OSError, match="connection reset"):
        run_copy(s3, LocalHub(fail_on=SHARDS[2]), tmp_path)
    copied_first = {key.rpartition("/")[2] for key in keys(s3)}
    assert f"{PREFIX}/{MARKER}" not in keys(s3)
    assert SHARDS[2] not in copied_first

    retry = LocalHub()
    assert run_copy(s3, retry, tmp_path) == "copied"

    assert sorted(retry.downloads) == sorted(set(FILES) - copied_first)
    assert f"{PREFIX}/{MARKER}" in keys(s3)


def test_a_file_stored_at_another_size_is_copied_again(s3, tmp_path):
    # A shard cut short (an upload that stopped, a person's partial copy) and a whole one.
    s3.put_object(Bucket=s3.bucket, Key=f"{PREFIX}/{SHARDS[0]}", Body=body(SHARDS[0])[:10])
    s3.put_object(Bucket=s3.bucket, Key=f"{PREFIX}/{SHARDS[1]}", Body=body(SHARDS[1]))
    hub = LocalHub()

    run_copy(s3, hub, tmp_path)

    assert SHARDS[0] in hub.downloads and SHARDS[1] not in hub.downloads
    assert stored_size(s3, s3.bucket, f"{PREFIX}/{SHARDS[0]}") == len(body(SHARDS[0]))


def test_the_size_of_a_missing_object_is_none(s3):
    assert stored_size(s3, s3.bucket, f"{PREFIX}/missing.safetensors") is None


def test_the_servers_wait_through_the_programs_command_line_sees_the_marker(s3, tmp_path, monkeypatch, moto):
    # The wait as the init container runs it: `main`, with boto3's default client reaching moto's server through
    # AWS_ENDPOINT_URL, the bucket in WEIGHTS_BUCKET.
    for name, value in {**moto.environment, "WEIGHTS_BUCKET": s3.bucket}.items():
        monkeypatch.setenv(name, value)
    command = ["wait", "--prefix", PREFIX, "--model", MODEL, "--revision", REVISION, "--timeout", "0"]

    assert main(command) == 1
    run_copy(s3, LocalHub(), tmp_path)
    assert main(command) == 0


def test_the_copy_job_runs_the_same_number_of_files_at_once_as_its_estimate_counts():
    assert weights_copy_script.COPY_WORKERS == system_nodes.COPY_WORKERS
