"""The program that keeps vLLM's compile cache in S3 (`vllm.compileCache`), shipped to the server's pod in a ConfigMap.

vLLM writes its torch.compile artifacts to `VLLM_CACHE_ROOT/torch_compile_cache/<hash>/`, where `<hash>` is ten hex
digits of a sha256 over the compile's factors: vLLM's environment, its configuration's hash (the vLLM version, the
model and its revision, the parallel configuration with the tensor-parallel size, the cache and device settings),
the traced source and Inductor's factors (the GPU's name, CUDA, Triton and torch): vllm/compilation/backends.py,
vllm/config/vllm.py `compute_hash`, vllm/config/model.py `compute_hash` and vllm/compilation/compiler_interface.py
`get_inductor_factors` in the vllm 0.32.0 wheel; pytorch torch/_inductor/codecache.py `CacheBase.get_system`.
Inductor's and Triton's caches go inside that directory too when `TRITON_CACHE_DIR` is unset
(compiler_interface.py `InductorAdaptor.initialize_cache`). So one archive per hash directory, under
`<prefix>/<vLLM version>/<hash>.tar`, can never be misread: another model, revision, version, GPU or tensor-parallel
size computes another hash, finds no directory of that name, and compiles (a miss).

`restore` (the pod's init container): unpacks the archives under the prefix (the newest `--keep` of them) into
the cache directory. `save` (a container beside vLLM): waits until the server answers `--health-url`, archives
each hash directory the prefix does not hold yet, uploads it, then idles until the pod stops, so its restart policy
does not run it again. Neither ever fails the pod: no credentials, an unreachable or denied bucket, a corrupt archive
are logged and the program exits 0; a cold cache is a slower start (torch.compile runs), never a failed one.

Standard library only at import; boto3 (in the vLLM image, facts/versions.py `WEIGHTS_COPY_IMAGE`) is imported by
`main` alone.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import sys
import tarfile
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

CACHE_SUBDIR = "torch_compile_cache"
HASH_DIR = re.compile(r"[0-9a-f]{10}")
"""vLLM's hash directory: `hashlib.sha256(str(factors).encode()).hexdigest()[:10]` (vllm/compilation/backends.py)."""
SUFFIX = ".tar"
POLL_SECONDS = 5


def archive_key(prefix: str, version: str, digest: str) -> str:
    return f"{prefix}/{version}/{digest}{SUFFIX}"


def remote_archives(s3: Any, bucket: str, prefix: str, version: str) -> list[dict]:
    """The archives under `<prefix>/<version>/`, newest first (LastModified)."""
    found = []
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=f"{prefix}/{version}/"):
        for item in page.get("Contents", []):
            name = item["Key"].rpartition("/")[2]
            if name.endswith(SUFFIX) and HASH_DIR.fullmatch(name[: -len(SUFFIX)]):
                found.append(item)
    return sorted(found, key=lambda item: item["LastModified"], reverse=True)


def local_hashes(root: str) -> list[str]:
    """The hash directories vLLM wrote under `root/torch_compile_cache`."""
    base = os.path.join(root, CACHE_SUBDIR)
    if not os.path.isdir(base):
        return []
    return sorted(name for name in os.listdir(base) if HASH_DIR.fullmatch(name) and os.path.isdir(f"{base}/{name}"))


def _unpack(stream: Any, target: str) -> None:
    """Unpack a tar stream into `target`, refusing members that leave it, links and devices (tarfile's `data`
    filter, Python 3.12 and backported to 3.11.4)."""
    with tarfile.open(fileobj=stream, mode="r|") as archive:
        archive.extractall(target, filter="data")


def restore(s3: Any, *, bucket: str, prefix: str, version: str, root: str, keep: int, log=print) -> list[str]:
    """Unpack the newest `keep` archives into `root`; the hashes restored. Each is unpacked beside its place and
    renamed into it, so a failure midway leaves no half directory for vLLM to read."""
    base = os.path.join(root, CACHE_SUBDIR)
    os.makedirs(base, exist_ok=True)
    restored = []
    for item in remote_archives(s3, bucket, prefix, version)[:keep]:
        digest = item["Key"].rpartition("/")[2][: -len(SUFFIX)]
        if os.path.exists(os.path.join(base, digest)):
            continue
        staging = tempfile.mkdtemp(prefix=f".restore-{digest}-", dir=base)
        try:
            _unpack(s3.get_object(Bucket=bucket, Key=item["Key"])["Body"], staging)
            os.rename(os.path.join(staging, digest), os.path.join(base, digest))
            restored.append(digest)
            log(f"restored s3://{bucket}/{item['Key']}")
        except Exception as error:  # a corrupt or foreign archive is a miss, not a failure
            log(f"skipped s3://{bucket}/{item['Key']}: {error}")
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return restored


def save(s3: Any, *, bucket: str, prefix: str, version: str, root: str, workdir: str, log=print) -> list[str]:
    """Upload each hash directory under `root` that the prefix does not hold; the hashes saved."""
    held = {item["Key"] for item in remote_archives(s3, bucket, prefix, version)}
    saved = []
    for digest in local_hashes(root):
        key = archive_key(prefix, version, digest)
        if key in held:
            continue
        with tempfile.NamedTemporaryFile(dir=workdir, suffix=SUFFIX) as handle:
            with tarfile.open(fileobj=handle, mode="w") as archive:
                archive.add(os.path.join(root, CACHE_SUBDIR, digest), arcname=digest)
            handle.flush()
            s3.upload_file(handle.name, bucket, key)
        saved.append(digest)
        log(f"saved s3://{bucket}/{key}")
    return saved


def wait_healthy(
    url: str,
    stop: threading.Event,
    *,
    get: Callable[[str], int] | None = None,
    poll: float = POLL_SECONDS,
) -> bool:
    """Whether `url` answered 200 before `stop` was set."""
    get = get or _status
    while not stop.is_set():
        try:
            if get(url) == 200:
                return True
        except OSError:
            pass
        stop.wait(poll)
    return False


def _status(url: str) -> int:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status


def _client(timeout: float) -> Any:
    import boto3
    from botocore.config import Config  # type: ignore[import-untyped]

    config = Config(connect_timeout=min(timeout, 10), read_timeout=min(timeout, 60), retries={"max_attempts": 2})
    return boto3.client("s3", config=config)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("restore", "save"))
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--version", required=True, help="the vLLM image's version, a key part")
    parser.add_argument("--root", required=True, help="VLLM_CACHE_ROOT")
    parser.add_argument("--keep", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=120, help="seconds a restore may take")
    parser.add_argument("--health-url", default="http://127.0.0.1:8000/health")
    parser.add_argument("--workdir", default=tempfile.gettempdir())
    parser.add_argument("--poll", type=float, default=POLL_SECONDS, help="seconds between health checks")
    args = parser.parse_args(argv)
    where = {"bucket": os.environ.get("COMPILE_CACHE_BUCKET", ""), "prefix": args.prefix, "version": args.version}
    if args.mode == "restore":
        # The restore is bounded: past the timeout the server starts with what is unpacked (renamed whole).
        worker = threading.Thread(target=_guarded, args=(restore, args.timeout, where, args), daemon=True)
        worker.start()
        worker.join(args.timeout)
        if worker.is_alive():
            print(f"compile cache: restore stopped after {args.timeout:.0f} s; vLLM compiles what is missing")
        return 0
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    if wait_healthy(args.health_url, stop, poll=args.poll):
        _guarded(save, args.timeout, where, args)
    stop.wait()
    return 0


def _guarded(action: Callable[..., list[str]], timeout: float, where: dict, args: argparse.Namespace) -> None:
    """Run `action` and log any error: the cache never fails the pod."""
    started = time.monotonic()
    try:
        extra = {"keep": args.keep} if action is restore else {"workdir": args.workdir}
        done = action(_client(timeout), root=args.root, **where, **extra)
        print(f"compile cache: {action.__name__} of {len(done)} in {time.monotonic() - started:.1f} s")
    except Exception as error:
        print(f"compile cache: {action.__name__} failed ({type(error).__name__}: {error}); the server starts without")


if __name__ == "__main__":
    sys.exit(main())
