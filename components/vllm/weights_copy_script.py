"""The program the weights copy Job and the server's init container run (shipped to them in a ConfigMap).

`copy`: copies one revision of a model from the Hugging Face Hub to an S3 prefix, once. If the prefix's marker
object names that model and revision, it exits at once; otherwise it copies the model's files, `COPY_WORKERS` at
once (each downloaded, uploaded and removed, so the pod needs the disk of that many files, not of the model, and the
download of one overlaps the upload of another), and writes the marker last, so a marker means every file is there.
It resumes: a file S3 already holds at the size the Hub lists is not copied again, so a retry after a failure (the
Job's next attempt, within the one deadline that covers them all) finishes what the last attempt left. A marker
naming another revision stops it: the prefix belongs to that one.

`wait`: waits until the marker names the revision, for at most `--timeout` seconds, so that the server starts
once its weights are complete rather than crash-looping on a half-copied prefix.

Standard library only at import; boto3 and huggingface_hub (both in the vLLM image, facts/versions.py
`WEIGHTS_COPY_IMAGE`) are imported by `main` alone, so the logic runs under test with fakes. The Hub token, when
the stack has one, is read by huggingface_hub from the file `HF_TOKEN_PATH` names, never from the environment.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

MARKER = ".weights-complete.json"
"""The marker's name under the prefix: not a file vLLM loads (a dot file, not `*.safetensors` or a config)."""
# Weights in formats the Run:ai streamer does not read; the safetensors beside them are the model.
SKIPPED_SUFFIXES = (".bin", ".pth", ".pt", ".ckpt", ".h5", ".msgpack", ".onnx", ".gguf", ".ot", ".tflite")
POLL_SECONDS = 10
COPY_WORKERS = 3
"""Files copied at once; their sum must fit the Job's scratch volume (facts/cold_start.py `WEIGHTS_COPY_WORK_GIB`,
which is sized for this many shards), so the two are kept equal by a test."""


class Hub(Protocol):
    def files(self, model: str, revision: str) -> Mapping[str, int | None]:
        """The repository's files at `revision` and each one's size in bytes (None when the Hub gives none)."""
        ...

    def download(self, model: str, filename: str, revision: str, workdir: str) -> str: ...


class AnotherRevision(Exception):
    """The prefix's marker names another model or revision."""


def marker_key(prefix: str) -> str:
    return f"{prefix}/{MARKER}"


def marker_body(model: str, revision: str, files: list[str]) -> bytes:
    return json.dumps({"model": model, "revision": revision, "files": files}, sort_keys=True).encode()


def wanted(filename: str) -> bool:
    """Whether the copy takes `filename`: the repository's top-level files (vLLM reads the model's directory, not
    its subfolders such as `original/`), but not dot files or weights in another format."""
    return "/" not in filename and not filename.startswith(".") and not filename.endswith(SKIPPED_SUFFIXES)


def _missing(error: Exception) -> bool:
    """Whether `error` is S3's answer for a key that does not exist (botocore's ClientError carries the code):
    404, or 403 for a caller that may not list the bucket (S3 API Reference, GetObject, "Permissions"). A real
    denial still fails: the copy's first upload, or the wait's deadline."""
    code = (getattr(error, "response", None) or {}).get("Error", {}).get("Code")
    return code in {"NoSuchKey", "404", "NotFound", "AccessDenied", "403"}


def read_marker(s3: Any, bucket: str, prefix: str) -> dict | None:
    """The marker under `prefix`, or None when there is none yet."""
    try:
        body = s3.get_object(Bucket=bucket, Key=marker_key(prefix))["Body"].read()
    except Exception as error:
        if _missing(error):
            return None
        raise
    return json.loads(body)


def stored_size(s3: Any, bucket: str, key: str) -> int | None:
    """The size of the object `key`, or None when there is none (HeadObject: 404, or 403 without `s3:ListBucket`)."""
    try:
        return int(s3.head_object(Bucket=bucket, Key=key)["ContentLength"])
    except Exception as error:
        if _missing(error):
            return None
        raise


def _names(marker: dict | None, model: str, revision: str) -> bool:
    return marker is not None and (marker.get("model"), marker.get("revision")) == (model, revision)


def copy(
    s3: Any,
    hub: Hub,
    *,
    bucket: str,
    prefix: str,
    model: str,
    revision: str,
    workdir: str,
    log: Callable[[str], None] = print,
) -> str:
    """Copy `model` at `revision` to `s3://bucket/prefix` unless the marker says it is there: "present" or
    "copied"."""
    found = read_marker(s3, bucket, prefix)
    if _names(found, model, revision):
        log(f"s3://{bucket}/{prefix} already holds {model} at {revision}")
        return "present"
    if found is not None:
        raise AnotherRevision(
            f"s3://{bucket}/{prefix} holds {found.get('model')} at {found.get('revision')}, not {model} at "
            f"{revision}; give the new revision a prefix of its own (vllm.source.prefix)"
        )
    listed = hub.files(model, revision)
    files = sorted(name for name in listed if wanted(name))
    if not any(name.endswith(".safetensors") for name in files):
        raise ValueError(f"{model} at {revision} has no top-level *.safetensors file for the streamer to load")

    def whole(name: str) -> bool:
        size = listed[name]
        return size is not None and stored_size(s3, bucket, f"{prefix}/{name}") == size

    def copy_file(name: str) -> str:
        path = hub.download(model, name, revision, workdir)
        s3.upload_file(path, bucket, f"{prefix}/{name}")
        os.remove(path)
        return name

    pool = ThreadPoolExecutor(max_workers=COPY_WORKERS)
    try:
        present = [name for name, done in zip(files, pool.map(whole, files), strict=True) if done]
        if present:
            log(f"s3://{bucket}/{prefix} holds {len(present)} of {len(files)} files whole already: not copied again")
        for name in pool.map(copy_file, [name for name in files if name not in present]):
            log(f"copied {name}")
    except BaseException:
        # The first failure ends the attempt: the files not started stay for the retry, which skips those done.
        pool.shutdown(cancel_futures=True)
        raise
    pool.shutdown()
    s3.put_object(Bucket=bucket, Key=marker_key(prefix), Body=marker_body(model, revision, files))
    log(f"s3://{bucket}/{prefix}: {len(files)} files of {model} at {revision}, marker written")
    return "copied"


def wait(
    s3: Any,
    *,
    bucket: str,
    prefix: str,
    model: str,
    revision: str,
    timeout: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    log: Callable[[str], None] = print,
) -> bool:
    """Whether the marker named `model` at `revision` within `timeout` seconds, polling every POLL_SECONDS."""
    deadline = clock() + timeout
    while True:
        if _names(read_marker(s3, bucket, prefix), model, revision):
            log(f"s3://{bucket}/{prefix} holds {model} at {revision}")
            return True
        if clock() >= deadline:
            log(f"s3://{bucket}/{prefix}: no marker for {model} at {revision} after {timeout:.0f} s")
            return False
        sleep(POLL_SECONDS)


class _HuggingFaceHub:
    """The Hub through huggingface_hub, which reads the token from `HF_TOKEN_PATH` when it is set."""

    def files(self, model: str, revision: str) -> Mapping[str, int | None]:
        from huggingface_hub import HfApi
        from huggingface_hub.hf_api import RepoFile

        # The top level only: `wanted` takes no file of a subfolder.
        entries = HfApi().list_repo_tree(model, revision=revision)
        return {entry.path: entry.size for entry in entries if isinstance(entry, RepoFile)}

    def download(self, model: str, filename: str, revision: str, workdir: str) -> str:
        from huggingface_hub import hf_hub_download

        return hf_hub_download(model, filename, revision=revision, local_dir=workdir)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("copy", "wait"))
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--revision", required=True)
    parser.add_argument("--workdir", default="/work")
    parser.add_argument("--timeout", type=float, default=3600)
    args = parser.parse_args(argv)
    import boto3

    s3 = boto3.client("s3")
    bucket = os.environ["WEIGHTS_BUCKET"]
    where = {"bucket": bucket, "prefix": args.prefix, "model": args.model, "revision": args.revision}
    if args.mode == "wait":
        return 0 if wait(s3, timeout=args.timeout, **where) else 1
    copy(s3, _HuggingFaceHub(), workdir=args.workdir, **where)
    return 0


if __name__ == "__main__":
    sys.exit(main())
