"""The compile cache's program, run as the pod runs it (the file the ConfigMap ships, `python3 <file> restore|save`)
against moto's S3 server and the stand-in's `/health` (tests/support/queue_services.py).

The cache directory is laid out as vLLM 0.32.0 writes it (vllm/compilation/backends.py in its wheel):
`<VLLM_CACHE_ROOT>/torch_compile_cache/<10 hex digits>/rank_0_0/backbone/...`, with Inductor's and Triton's caches
inside the hash directory (compiler_interface.py `initialize_cache`)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from components.vllm import compile_cache_manifests
from tests.support.queue_services import free_port, moto_server, stand_in_server

HASH = "0a1b2c3d4e"
FILES = {
    f"{HASH}/rank_0_0/backbone/vllm_compile_cache.py": "{(None, 0, 'artifact'): ('abc', 'inductor_cache/xy.py')}",
    f"{HASH}/rank_0_0/inductor_cache/xy.py": "# compiled graph",
    f"{HASH}/rank_0_0/triton_cache/KERNEL/kernel.cubin": "cubin",
}


@pytest.fixture(scope="module")
def moto():
    with moto_server() as server:
        server.client("s3").create_bucket(Bucket="cache")
        yield server


@pytest.fixture(scope="module")
def script(tmp_path_factory) -> Path:
    """The program as the pod has it: the ConfigMap's file, alone in its directory."""
    directory = tmp_path_factory.mktemp("configmap")
    [(name, text)] = compile_cache_manifests.script_data().items()
    (directory / name).write_text(text)
    return directory / name


def write_cache(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / "torch_compile_cache" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def read_cache(root: Path) -> dict[str, str]:
    base = root / "torch_compile_cache"
    return {str(path.relative_to(base)): path.read_text() for path in base.rglob("*") if path.is_file()}


def run(
    script: Path, mode: str, environment: dict, root: Path, *extra: str, prefix: str = "m", version: str = "v1"
) -> subprocess.Popen:
    command = [
        sys.executable,
        str(script),
        mode,
        "--prefix",
        f"compile-cache/{prefix}",
        "--version",
        version,
        "--root",
        str(root),
    ]
    return subprocess.Popen(
        [*command, *extra],
        env={**os.environ, **environment, "COMPILE_CACHE_BUCKET": "cache"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def keys(moto, prefix: str) -> list[str]:
    listed = moto.client("s3").list_objects_v2(Bucket="cache", Prefix=prefix)
    return sorted(item["Key"] for item in listed.get("Contents", []))


def test_the_saver_waits_for_the_server_then_a_new_pod_restores_the_cache_whole(script, moto, tmp_path):
    """Nothing is saved while /health answers 503; once it answers 200 the hash directory (not the other one) is
    uploaded, the saver idles until SIGTERM and exits 0; a new pod's restore unpacks every file; a restore for
    another vLLM version finds nothing (a miss)."""
    first, second, upgraded = tmp_path / "first", tmp_path / "second", tmp_path / "upgraded"
    write_cache(first, FILES)
    (first / "torch_compile_cache" / "not-a-hash").mkdir()
    health = ("--workdir", str(tmp_path), "--poll", "0.2")
    with stand_in_server(ready=False) as stand_in:
        saver = run(script, "save", moto.environment, first, "--health-url", f"{stand_in.url}/health", *health)
        # Two answers of 503: the saver has asked and waited (it polls every 0.2 s here).
        deadline = time.monotonic() + 30
        while stand_in.health_checks < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        before_ready = keys(moto, "compile-cache/m")
        stand_in.ready.set()
        deadline = time.monotonic() + 30
        while not keys(moto, "compile-cache/m") and time.monotonic() < deadline:
            time.sleep(0.1)
        still_running = saver.poll() is None
        saver.send_signal(signal.SIGTERM)
        output, _ = saver.communicate(timeout=10)
    restore = run(script, "restore", moto.environment, second)
    restored, _ = restore.communicate(timeout=30)
    other = run(script, "restore", moto.environment, upgraded, version="v2")
    other.communicate(timeout=30)

    assert before_ready == []
    assert keys(moto, "compile-cache/m") == [f"compile-cache/m/v1/{HASH}.tar"]
    assert still_running and saver.returncode == 0, output
    assert restore.returncode == 0 and read_cache(second) == FILES, restored
    assert other.returncode == 0 and read_cache(upgraded) == {}


def test_an_unreachable_bucket_is_a_cold_start_not_a_failure(script, tmp_path):
    """Nothing listens on the port: the restore logs and exits 0 within its timeout, leaving an empty cache."""
    unreachable = {**moto_environment_without_server(), "AWS_ENDPOINT_URL": f"http://127.0.0.1:{free_port()}"}
    started = time.monotonic()
    restore = run(script, "restore", unreachable, tmp_path / "root", "--timeout", "5")
    output, _ = restore.communicate(timeout=30)

    assert restore.returncode == 0, output
    assert "restore failed" in output or "restore stopped" in output
    assert time.monotonic() - started < 15
    assert read_cache(tmp_path / "root") == {}


def test_a_corrupt_archive_is_skipped_and_leaves_no_half_directory(script, moto, tmp_path):
    moto.client("s3").put_object(Bucket="cache", Key=f"compile-cache/corrupt/v1/{HASH}.tar", Body=b"not a tar")

    restore = run(script, "restore", moto.environment, tmp_path / "root", prefix="corrupt")
    output, _ = restore.communicate(timeout=30)

    assert restore.returncode == 0, output
    assert "skipped" in output
    assert os.listdir(tmp_path / "root" / "torch_compile_cache") == []


def test_an_archive_whose_member_leaves_the_cache_is_refused(script, moto, tmp_path):
    """tarfile's `data` filter refuses `../` members: a tampered archive writes nothing outside the cache."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        payload = b"escaped"
        member = tarfile.TarInfo(f"{HASH}/../../escaped.txt")
        member.size = len(payload)
        archive.addfile(member, io.BytesIO(payload))
    moto.client("s3").put_object(Bucket="cache", Key=f"compile-cache/evil/v1/{HASH}.tar", Body=buffer.getvalue())

    restore = run(script, "restore", moto.environment, tmp_path / "root", prefix="evil")
    output, _ = restore.communicate(timeout=30)

    assert restore.returncode == 0, output
    # Nowhere: not beside the staging folder it would climb out of (root/torch_compile_cache/), nor above it.
    assert list(tmp_path.rglob("escaped.txt")) == []
    assert read_cache(tmp_path / "root") == {}


def moto_environment_without_server() -> dict[str, str]:
    return {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1"}
