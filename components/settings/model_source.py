"""Where a vLLM server reads its model's weights (`vllm.source`, and each model's `source`)."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from .errors import ConfigProblem
from .fields import rule
from .section import SectionModel

# General purpose bucket naming rules (Amazon S3 User Guide, "General purpose bucket naming rules"): 3-63
# characters, lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit, no two
# adjacent dots, not formatted as an IP address, none of the reserved prefixes and suffixes.
_BUCKET_RE = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
_IP_RE = re.compile(r"\d{1,3}(\.\d{1,3}){3}")
_RESERVED_PREFIXES = ("xn--", "sthree-", "amzn-s3-demo-")
_RESERVED_SUFFIXES = ("-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3")
# A commit id on the Hugging Face Hub: a git commit's full SHA-1, 40 hex digits.
_COMMIT_RE = re.compile(r"[0-9a-f]{40}")


def is_commit_id(value: str | None) -> bool:
    """Whether `value` is a full commit id, the only revision whose files never change."""
    return value is not None and bool(_COMMIT_RE.fullmatch(value))


# git's rules for a ref name (git-check-ref-format(1), Documentation/git-check-ref-format.txt in git/git, rules 1
# and 3-10): no component starting with `.` or ending `.lock`; no `..`; no control character (below \040, or
# \177 DEL), space, `~`, `^`, `:`, `?`, `*`, `[` or `\`; no leading, trailing or doubled `/`; no trailing `.`;
# no `@{`; not `@` alone. The Hub's revisions are git refs and commit ids, and vLLM hands `--revision` to
# huggingface_hub, which asks the Hub for that ref.
_REF_FORBIDDEN = set(" ~^:?*[\\") | {chr(code) for code in range(0o40)} | {chr(0o177)}


def is_git_ref(value: str) -> bool:
    """Whether git accepts `value` as a ref name (`git check-ref-format --allow-onelevel`), as a Hub revision is."""
    return (
        bool(value)
        and value != "@"
        and not set(value) & _REF_FORBIDDEN
        and ".." not in value
        and "@{" not in value
        and not value.endswith(".")
        and all(part and not part.startswith(".") and not part.endswith(".lock") for part in value.split("/"))
    )


GIT_REF_ALLOWED = (
    "a commit id (40 hex digits) or a tag or branch as git names refs: no space, control character, '~', '^', "
    "':', '?', '*', '[' or '\\', no '..' or '@{', no part starting with '.' or ending '.lock', no empty part, "
    "not ending '.'"
)


def is_bucket_name(value: str) -> bool:
    """Whether S3 accepts `value` as a general purpose bucket's name."""
    return bool(
        _BUCKET_RE.fullmatch(value)
        and ".." not in value
        and not _IP_RE.fullmatch(value)
        and not value.startswith(_RESERVED_PREFIXES)
        and not value.endswith(_RESERVED_SUFFIXES)
    )


def is_prefix(value: str) -> bool:
    """Whether `value` is a key prefix the stack can scope a policy to: 1-900 characters (an object key is at
    most 1024 bytes, Amazon S3 User Guide, "Naming Amazon S3 objects"; room is left for the file names), no
    leading or trailing `/`, no empty, `.` or `..` segment, and none of `*`, `?` or `$` (IAM reads them as
    wildcards and policy variables in a resource ARN or an `s3:prefix` condition)."""
    segments = value.split("/")
    return (
        0 < len(value.encode()) <= 900
        and all(segment not in ("", ".", "..") for segment in segments)
        and not set(value) & set("*?$")
        and value.isprintable()
    )


BucketName = Annotated[
    str,
    rule(
        is_bucket_name,
        "an S3 bucket name: 3-63 lowercase letters, digits, dots and hyphens, starting and ending with a letter "
        "or digit, no '..', not an IP address",
        "invalid bucket name",
    ),
]
KeyPrefix = Annotated[
    str,
    rule(
        is_prefix,
        "a key prefix such as models/qwen2.5-7b: no leading or trailing '/', no empty, '.' or '..' segment, no "
        "'*', '?' or '$', at most 900 bytes",
        "invalid prefix",
    ),
]


def _written(value: object) -> str:
    """`value` as a stack config writes it: `true`/`false` for a switch, else quoted as given."""
    return str(value).lower() if isinstance(value, bool) else repr(value)


class ModelSourceSettings(SectionModel):
    """Where vLLM reads the model's weights (`vllm.source`)."""

    type: Literal["huggingface", "s3"] = "huggingface"
    """`huggingface` (vLLM downloads the weights from the Hub when it starts) or `s3` (the Run:ai model streamer
    reads them from S3 into GPU memory through a bounded CPU buffer, with no copy on disk; the server's
    ServiceAccount may only read the prefix, through EKS Pod Identity)."""
    bucket: BucketName | None = None
    """With `s3`: the bucket that holds the weights, in the stack's region. Default: a bucket the stack creates
    for the server (private, encrypted, versioned, public access blocked), which you seed with the weights."""
    prefix: KeyPrefix | None = None
    """With `s3`: the key prefix the weights (`config.json`, the tokenizer and the `*.safetensors` files) are
    under. Default: the model id and the revision, `<model>/<revision>` (such as
    `Qwen/Qwen2.5-7B-Instruct/<commit id>`), or the model id alone when no revision is set."""
    concurrency: Annotated[int, rule(lambda n: 1 <= n <= 256, "an integer from 1 to 256")] | None = None
    """With `s3`: the streamer's concurrent S3 clients, passed as `concurrency` in the server's one
    `--model-loader-extra-config` document (beside its `memory_limit`), 1-256. Default: enough connections to fill
    the smallest instance type's baseline network bandwidth at 85 MB/s each where that is more than the
    streamer's own 8 (15 on a g5.4xlarge's 10 Gbps), else the streamer's own."""
    seed: bool | None = None
    """With `s3`: a Kubernetes Job on the system nodes copies the model at `revision` (a commit id) from the Hub
    to the prefix, with a role that may only write there, and the server waits for it. Default: on when the stack
    creates the bucket and `revision` is a commit id, otherwise off (seed it yourself: docs/weights.md, "Seeding the weights
    yourself")."""

    def problems(self) -> list[ConfigProblem]:
        if self.type == "s3":
            return []
        return [
            # A switch as the stack config spells it (`seed: false`), not as Python prints it.
            ConfigProblem(key, f"{_written(value)} with type 'huggingface'; allowed: type 's3', or leave {key} out")
            for key, value in (
                ("bucket", self.bucket),
                ("prefix", self.prefix),
                ("concurrency", self.concurrency),
                ("seed", self.seed),
            )
            if value is not None
        ]
