"""`eks-gpu-batch`: send a file of OpenAI Batch API lines to a server's queue, and gather their results.

    eks-gpu-batch submit FILE.jsonl --queue-url URL [--batch ID]
    eks-gpu-batch collect --results s3://bucket/prefix/ --batch ID [--ids FILE.jsonl] [--wait SECONDS]
                          [--dead-letter-url URL] --out RESULTS.jsonl

`submit` checks every line first, as the consumer reads it (components/vllm/queue/consumer_script.py): a custom_id the
consumer can name a result by, once each in the file, `POST` to an endpoint it serves, a JSON body, no streaming,
and at most SQS's message size (1 MiB, botocore's model) — a larger line is refused with its number, since a
request that size is no chat prompt (no object in S3 carries it instead). Nothing is sent unless every line
holds. It then sends them ten at a time (SQS's batch), no batch over SQS's batch payload, each with the message
attribute `batch-id` (`--batch`, or a new id), and prints the batch id and the count. `collect` writes the results
of a batch as JSON lines, in the input file's order with `--ids`, waiting up to `--wait` seconds for them, and says
which are missing and which of those sit in the dead-letter queue (`--dead-letter-url`); it exits 1 while any is
missing.

It uses boto3 with its standard configuration (credentials, `AWS_REGION`, `AWS_ENDPOINT_URL`); boto3 is not a
dependency of the package (`pip install boto3`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
import uuid
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from ...facts import sqs_model
from .consumer_script import BATCH_ATTRIBUTE, KEY_PART_RULE, is_key_part, line_problem, result_key, split_results_uri

PROGRESS_FROM = 100
"""A run of at least this many lines shows a progress bar on a terminal."""


class UsageError(Exception):
    """What the command was given cannot be used; the message says what and why."""


def new_batch_id(now: datetime | None = None) -> str:
    """`batch-<UTC time>-<8 hex>`: sortable by time, unique per submission."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return f"batch-{stamp}-{uuid.uuid4().hex[:8]}"


def attribute_bytes(batch: str) -> int:
    """What the batch attribute adds to each message's size: its name, type and value (Amazon SQS Developer
    Guide, "Amazon SQS message attributes": they count towards the message size)."""
    return len(BATCH_ATTRIBUTE.encode()) + len(b"String") + len(batch.encode())


def check_lines(lines: list[str], batch: str = "") -> tuple[list[str], list[str]]:
    """The custom_ids of `lines`, and every problem, each naming its line (1-based); each line must fit SQS's
    message size beside the attribute naming `batch`."""
    limit = sqs_model.message_size_range()[1] - attribute_bytes(batch)
    problems: list[str] = []
    ids: list[str] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        size = len(line.encode())
        if size > limit:
            problems.append(f"line {number}: {size} bytes; allowed: at most {limit} (SQS's message size)")
            continue
        problem = line_problem(line)
        if problem is not None:
            problems.append(f"line {number}: {problem}")
            continue
        custom_id = json.loads(line)["custom_id"]
        if custom_id in seen:
            problems.append(f"line {number}: custom_id {custom_id!r} is line {seen[custom_id]}'s; allowed: each once")
        seen.setdefault(custom_id, number)
        ids.append(custom_id)
    return ids, problems


def read_lines(path: Path) -> list[str]:
    """The non-empty lines of a JSONL file."""
    try:
        return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None


def batches(lines: list[str], batch: str = "") -> Iterable[list[str]]:
    """`lines` in groups SQS takes in one SendMessageBatch: at most its entries and its payload, the attributes
    counted."""
    entries, payload = sqs_model.batch_entries_max(), sqs_model.batch_payload_max()
    group: list[str] = []
    size = 0
    for line in lines:
        length = len(line.encode()) + attribute_bytes(batch)
        if group and (len(group) == entries or size + length > payload):
            yield group
            group, size = [], 0
        group.append(line)
        size += length
    if group:
        yield group


class Progress:
    """A bar on `stream` when it is a terminal and the run is long; nothing otherwise."""

    def __init__(self, total: int, what: str, stream: TextIO = sys.stderr):
        self.total, self.what, self.stream = total, what, stream
        self.shown = total >= PROGRESS_FROM and stream.isatty()

    def update(self, done: int) -> None:
        if self.shown:
            filled = 30 * done // max(self.total, 1)
            self.stream.write(f"\r{self.what} [{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total}")
            self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")


def submit(sqs: Any, queue_url: str, lines: list[str], batch: str, progress: Progress | None = None) -> int:
    """Send `lines` (already checked) with the batch attribute; the count sent. Entries SQS refuses fail it."""
    attributes = {BATCH_ATTRIBUTE: {"DataType": "String", "StringValue": batch}}
    sent = 0
    for group in batches(lines, batch):
        entries = [
            {"Id": str(index), "MessageBody": line, "MessageAttributes": attributes} for index, line in enumerate(group)
        ]
        answer = sqs.send_message_batch(QueueUrl=queue_url, Entries=entries)
        if answer.get("Failed"):
            failed = "; ".join(f"{entry.get('Code')}: {entry.get('Message', '')}" for entry in answer["Failed"])
            raise UsageError(f"SQS refused {len(answer['Failed'])} of the messages after {sent} were sent: {failed}")
        sent += len(group)
        if progress:
            progress.update(sent)
    return sent


def _present(s3: Any, bucket: str, prefix: str, batch: str) -> set[str]:
    """The custom_ids with a result under the batch."""
    found = set()
    start = f"{prefix}{batch}/"
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=start):
        found |= {
            item["Key"][len(start) : -len(".json")]
            for item in page.get("Contents", [])
            if item["Key"].endswith(".json")
        }
    return found


def dead_lettered(sqs: Any, url: str, batch: str, rounds: int = 10) -> set[str]:
    """The custom_ids of the batch's messages in the dead-letter queue: received for a moment and made visible
    again at once."""
    found: set[str] = set()
    for _ in range(rounds):
        messages = sqs.receive_message(
            QueueUrl=url, MaxNumberOfMessages=10, VisibilityTimeout=30, MessageAttributeNames=[BATCH_ATTRIBUTE]
        ).get("Messages", [])
        if not messages:
            break
        for message in messages:
            attribute = (message.get("MessageAttributes") or {}).get(BATCH_ATTRIBUTE, {})
            if attribute.get("StringValue") == batch:
                with contextlib.suppress(ValueError, KeyError, TypeError):  # a line no consumer could name
                    found.add(json.loads(message["Body"])["custom_id"])
        sqs.change_message_visibility_batch(
            QueueUrl=url,
            Entries=[
                {"Id": str(index), "ReceiptHandle": message["ReceiptHandle"], "VisibilityTimeout": 0}
                for index, message in enumerate(messages)
            ],
        )
    return found


def collect(
    s3: Any,
    results: str,
    batch: str,
    *,
    ids: list[str] | None,
    wait: float,
    out: TextIO,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> tuple[int, list[str]]:
    """Write the batch's results to `out` (in `ids` order when given), waiting up to `wait` seconds for them all;
    the count written and the custom_ids missing."""
    bucket, prefix = split_results_uri(results)
    deadline = clock() + wait
    present = _present(s3, bucket, prefix, batch)
    while ids is not None and not set(ids) <= present and clock() < deadline:
        sleep(min(10.0, max(deadline - clock(), 0)))
        present = _present(s3, bucket, prefix, batch)
    wanted = ids if ids is not None else sorted(present)
    written = 0
    for custom_id in wanted:
        if custom_id in present:
            body = s3.get_object(Bucket=bucket, Key=result_key(prefix, batch, custom_id))["Body"].read()
            out.write(body.decode().rstrip("\n") + "\n")
            written += 1
    return written, [custom_id for custom_id in wanted if custom_id not in present]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="eks-gpu-batch", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    send = sub.add_parser("submit", help="check a JSONL file of Batch API lines, then send it to a queue")
    send.add_argument("file", type=Path)
    send.add_argument("--queue-url", required=True)
    send.add_argument("--batch", help="the batch id (default: a new one)")
    gather = sub.add_parser("collect", help="write a batch's results as JSONL")
    gather.add_argument("--results", required=True, help="s3://bucket/prefix/ (the stack's output)")
    gather.add_argument("--batch", required=True)
    gather.add_argument("--ids", type=Path, help="the submitted file: results in its order, missing ones named")
    gather.add_argument("--wait", type=float, default=0, help="seconds to wait for missing results")
    gather.add_argument("--dead-letter-url", help="the dead-letter queue, to say which missing ones are there")
    gather.add_argument("--out", type=Path, required=True)
    return parser


def _clients(*services: str) -> list[Any]:
    try:
        import boto3
    except ImportError:
        raise UsageError("eks-gpu-batch needs boto3: pip install boto3") from None
    return [boto3.client(service) for service in services]


def run(argv: list[str] | None = None, stdout: TextIO = sys.stdout) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "submit":
        batch = args.batch or new_batch_id()
        if not is_key_part(batch):
            raise UsageError(f"--batch {batch!r}; allowed: {KEY_PART_RULE}")
        lines = read_lines(args.file)
        _, problems = check_lines(lines, batch)
        if problems:
            raise UsageError(f"{args.file}: nothing sent; {len(problems)} problem(s):\n  " + "\n  ".join(problems))
        [sqs] = _clients("sqs")
        progress = Progress(len(lines), "sending")
        sent = submit(sqs, args.queue_url, lines, batch, progress)
        progress.close()
        stdout.write(f"sent {sent} request(s) as batch {batch}\n")
        return 0
    ids = None
    if args.ids is not None:
        ids, problems = check_lines(read_lines(args.ids))
        if problems:
            raise UsageError(f"--ids {args.ids}: " + "; ".join(problems))
    try:
        split_results_uri(args.results)
    except ValueError as error:
        raise UsageError(f"--results: {error}") from None
    s3, sqs = _clients("s3", "sqs")
    with args.out.open("w", encoding="utf-8") as out:
        written, missing = collect(s3, args.results, args.batch, ids=ids, wait=args.wait, out=out)
    stdout.write(f"wrote {written} result(s) of batch {args.batch} to {args.out}\n")
    if missing:
        dead = dead_lettered(sqs, args.dead_letter_url, args.batch) if args.dead_letter_url else set()
        stdout.write(f"missing {len(missing)}: {', '.join(missing[:20])}{' ...' if len(missing) > 20 else ''}\n")
        if dead:
            stdout.write(f"in the dead-letter queue: {', '.join(sorted(dead))}\n")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        return run(argv)
    except UsageError as error:
        sys.stderr.write(f"eks-gpu-batch: {error}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
