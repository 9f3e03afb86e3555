"""A stand-in for the Hugging Face Hub on 127.0.0.1, answering the requests huggingface_hub 2.4.0 makes for a file
of a model repo as the Hub answers them, so that the program's preview-time read (vllm/hub_facts.py) runs its
real client against it.

What the client asks (read in huggingface_hub 2.4.0, file_download.py `hf_hub_url` and hf_api.py
`parse_safetensors_file_metadata`): GET `/{repo}/resolve/{revision}/{filename}` with `user-agent` and, given a
token, `authorization: Bearer <token>`; safetensors headers with `range: bytes=0-100000`, then
`range: bytes=8-{8 + size - 1}` when the header is longer. What the Hub answers and the client reads
(utils/_http.py `hf_raise_for_status`): the file, or 206 with the range; 401 with `X-Error-Code: GatedRepo` for a
gated repo without an authorized token (403 once a token is given that has no access), `RepoNotFound` for a repo
it does not show, 404 with `RevisionNotFound` or `EntryNotFound`. `X-Repo-Commit` names the revision's commit.
"""

from __future__ import annotations

import json
import re
import struct
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

COMMIT = "0123456789abcdef0123456789abcdef01234567"
# Bytes per element of the safetensors dtypes the stand-in's files use.
_ELEMENT = {"BF16": 2, "F16": 2, "F32": 4, "U8": 1, "I32": 4, "F8_E4M3": 1}


def safetensors_header(tensors: Mapping[str, tuple[str, list[int]]]) -> bytes:
    """The start of a safetensors file: its header's length (8 bytes, little-endian) and the JSON header naming
    each tensor's dtype, shape and offsets. The tensors' data is left out: only the header is ever read."""
    header, offset = {}, 0
    for name, (dtype, shape) in tensors.items():
        size = _ELEMENT[dtype]
        for dim in shape:
            size *= dim
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    encoded = json.dumps(header).encode()
    return struct.pack("<Q", len(encoded)) + encoded


@dataclass
class Repo:
    """A model repo of the stand-in: its files at revision `main` (and `COMMIT`), gated behind `token` if set."""

    files: dict[str, bytes]
    token: str | None = None
    stalled: frozenset[str] = frozenset()
    """Files whose requests the stand-in holds open without answering, as a Hub that stopped responding."""


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]


@dataclass
class StandInHub:
    repos: dict[str, Repo]
    url: str = ""
    requests: list[Request] = field(default_factory=list)


@contextmanager
def stand_in_hub(repos: dict[str, Repo]) -> Iterator[StandInHub]:
    """The stand-in serving `repos` on a free port of 127.0.0.1 for the duration of the block."""
    hub = StandInHub(repos)
    released = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hub.requests.append(Request("GET", self.path, {k.lower(): v for k, v in self.headers.items()}))
            match = re.fullmatch(r"/([^/]+/[^/]+)/resolve/([^/]+)/(.+)", unquote(self.path))
            repo = hub.repos.get(match.group(1)) if match else None
            if match is None or repo is None:
                return self._error(401, "RepoNotFound", "Repository not found")
            revision, filename = match.group(2), match.group(3)
            authorization = self.headers.get("authorization")
            if repo.token is not None and authorization != f"Bearer {repo.token}":
                status = 403 if authorization else 401
                return self._error(status, "GatedRepo", "Access to this model is restricted. Please log in.")
            if revision not in ("main", COMMIT):
                return self._error(404, "RevisionNotFound", "Invalid rev id")
            if filename not in repo.files:
                return self._error(404, "EntryNotFound", "Entry not found")
            if filename in repo.stalled:
                released.wait(30)
                return None
            body = repo.files[filename]
            ranged = re.fullmatch(r"bytes=(\d+)-(\d+)", self.headers.get("range", ""))
            if ranged:
                start, end = int(ranged.group(1)), min(int(ranged.group(2)), len(body) - 1)
                self._send(206, body[start : end + 1], {"Content-Range": f"bytes {start}-{end}/{len(body)}"})
            else:
                self._send(200, body, {})

        def _error(self, status: int, code: str, message: str) -> None:
            body = json.dumps({"error": message}).encode()
            self._send(status, body, {"X-Error-Code": code, "X-Error-Message": message})

        def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for key, value in {**headers, "X-Repo-Commit": COMMIT, "Content-Length": str(len(body))}.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    # A short poll so that shutting down takes milliseconds, not serve_forever's default half second.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        released.set()
        server.shutdown()
        server.server_close()
        thread.join()


# A mixture of experts only the stand-in describes, shaped and weighing as gpt-oss-120b.
MOE_MODEL = "example/moe-120b"


def gpt_oss_like_files() -> dict[str, bytes]:
    """A checkpoint of gpt-oss-120b's shape and bytes in one shard: the same dtype totals as its 36 layers, the
    uint8 experts 60,914,073,600 elements and 2,167,371,072 bf16 (tests/vllm/test_hub_facts.py), 65,248,815,744
    bytes = 60.77 GiB in all."""
    config = {
        "num_hidden_layers": 36,
        "num_attention_heads": 64,
        "num_key_value_heads": 8,
        "head_dim": 64,
        "num_local_experts": 128,
        "num_experts_per_tok": 4,
        "sliding_window": 128,
        "layer_types": ["sliding_attention", "full_attention"] * 18,
        "max_position_embeddings": 131072,
        "quantization_config": {"quant_method": "mxfp4"},
        "torch_dtype": "bfloat16",
    }
    tensors = {"experts": ("U8", [60_914_073_600]), "rest": ("BF16", [2_167_371_072])}
    index = {"weight_map": {"experts": "model-1.safetensors", "rest": "model-1.safetensors"}}
    return {
        "config.json": json.dumps(config).encode(),
        # vllm/hub_facts.py's INDEX_FILE, the name huggingface_hub gives a sharded checkpoint's index.
        "model.safetensors.index.json": json.dumps(index).encode(),
        "model-1.safetensors": safetensors_header(tensors),
    }
