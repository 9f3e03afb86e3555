"""The program the weights copy Job and the server's init container run (shipped to them in a ConfigMap).

`copy`: copies one revision of a model from the Hugging Face Hub to an S3 prefix, once. If the prefix's marker
object names that model and revision, it exits at once; otherwise it downloads the model's files one at a time
(so the pod needs the disk of the largest file, not of the model), uploads each, and writes the marker last, so
a marker means every file is there. A marker naming another revision stops it: the prefix belongs to that one.

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
from collections.abc import Callable, Iterable
from typing import Any, Protocol

MARKER = ".weights-complete.json"
"""The marker's name under the prefix: not a file vLLM loads (a dot file, not `*.safetensors` or a config)."""
# Weights in formats the Run:ai streamer does not read; the safetensors beside them are the model.
SKIPPED_SUFFIXES = (".bin", ".pth", ".pt", ".ckpt", ".h5", ".msgpack", ".onnx", ".gguf", ".ot", ".tflite")
POLL_SECONDS = 10


class Hub(Protocol):
    def files(self, model: str, revision: str) -> Iterable[str]: ...

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
    files = sorted(name for name in hub.files(model, revision) if wanted(name))
    if not any(name.endswith(".safetensors") for name in files):
        raise ValueError(f"{model} at {revision} has no top-level *.safetensors file for the streamer to load")
    for name in files:
        path = hub.download(model, name, revision, workdir)
        s3.upload_file(path, bucket, f"{prefix}/{name}")
        os.remove(path)
        log(f"copied {name}")
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

    def files(self, model: str, revision: str) -> Iterable[str]:
        from huggingface_hub import HfApi

        return HfApi().list_repo_files(model, revision=revision)

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
