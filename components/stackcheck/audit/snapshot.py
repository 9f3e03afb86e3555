"""Reading a cluster snapshot: the JSON `kubectl get nodes,pods,daemonsets -A -o json` prints.

A snapshot is a file, standard input (`-`) or a directory of such files (one per kind, say). Each
holds a Kubernetes `List` (or a typed list such as `NodeList`, whose items carry no `kind`). The
reader hands every item to a callback as soon as it is parsed and keeps nothing itself, so a
snapshot of a large cluster never sits in memory as one parsed tree.

How: indented JSON (kubectl indents its output) puts every item of `items` between the same
separator, `}` `,` newline-and-indent `{`. A JSON string cannot hold a raw newline (RFC 8259,
section 7: control characters inside strings must be escaped), so that separator only ever occurs
between values whose closing brace sits at the items' indentation. Each piece between separators
is parsed on its own; a piece that ends early (an inner object at the same indentation, in oddly
indented input) is joined with the next one, and a piece with a real syntax error is reported
with its byte offset.

Any other layout (compact JSON as `jq -c` or the API server writes it, where `},{` also closes inner objects)
is streamed item by item with the standard library's `json.JSONDecoder.raw_decode`, which returns a value and
where it ends, over a buffer refilled chunk by chunk: a value or separator cut by a chunk boundary is parsed
again once the next chunk is in, so memory stays at a chunk and an item whatever the file's size.
"""

from __future__ import annotations

import codecs
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, NoReturn

import orjson

CHUNK_BYTES = 1 << 24
# The envelope (apiVersion, kind, metadata) comes before `items` in kubectl's output and is small.
_ENVELOPE_SEARCH_BYTES = 1 << 20
_WHITESPACE = b" \t\r\n"
ITEM_KINDS = ("Node", "Pod", "DaemonSet")
KUBECTL_COMMAND = "kubectl get nodes,pods,daemonsets -A -o json"
_TRUNCATED = "the JSON ends before the document is complete (truncated file?)"

Sink = Callable[[str, dict], None]


class SnapshotError(Exception):
    """The snapshot cannot be read or is not what the audit needs (exit code 2)."""


def read_snapshot(source: str | Path, sink: Sink) -> list[str]:
    """Read every item of the snapshot at `source` (a file, `-` for stdin, or a directory) into `sink(kind, item)`.

    Returns the names of the files read. Items of kinds other than Node, Pod and DaemonSet, and
    documents that are not JSON or not a List, raise SnapshotError naming the file and what is wrong
    (every unknown kind at once).
    """
    text = str(source)
    if text == "-":
        read_list(sys.stdin.buffer, "<stdin>", sink)
        return ["<stdin>"]
    path = Path(text)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() == ".json")
        if not files:
            raise SnapshotError(f"{path}: directory holds no .json file; write one with: {KUBECTL_COMMAND}")
        for file in files:
            _read_file(file, sink)
        return [str(file) for file in files]
    _read_file(path, sink)
    return [str(path)]


def _read_file(path: Path, sink: Sink) -> None:
    try:
        stream = open(path, "rb")  # noqa: SIM115 closed below; open errors are the message
    except OSError as error:
        raise SnapshotError(f"{path}: cannot read: {error.strerror or error}") from None
    with stream:
        read_list(stream, str(path), sink)


def read_list(stream: BinaryIO, name: str, sink: Sink) -> dict:
    """Feed the items of the JSON List in `stream` to `sink`; returns the List without its items."""
    reader = _ListReader(stream, name, sink)
    envelope = reader.run()
    _check_envelope(envelope, name)
    if reader.unknown:
        kinds = ", ".join(f"{kind} ({count})" for kind, count in sorted(reader.unknown.items()))
        raise SnapshotError(
            f"{name}: unknown kinds {kinds}; allowed: {', '.join(ITEM_KINDS)} (from: {KUBECTL_COMMAND})"
        )
    return envelope


def _check_envelope(envelope: object, name: str) -> None:
    if not isinstance(envelope, dict):
        raise SnapshotError(
            f"{name}: not a Kubernetes List: the document is a JSON {type(envelope).__name__}, "
            f"not an object (from: {KUBECTL_COMMAND})"
        )
    kind = envelope.get("kind")
    if not isinstance(kind, str) or not kind.endswith("List"):
        raise SnapshotError(
            f"{name}: not a Kubernetes List: kind is {kind!r}; expected List, NodeList, PodList or "
            f"DaemonSetList (from: {KUBECTL_COMMAND})"
        )


class _ListReader:
    def __init__(self, stream: BinaryIO, name: str, sink: Sink) -> None:
        self.stream, self.name, self.sink = stream, name, sink
        self.unknown: dict[str, int] = {}
        self.pending: list[dict] = []  # items seen before the envelope's kind (typed lists put it last)
        self.kind_hint: str | None = None
        self.offset = 0  # file offset of buf[0]

    def run(self) -> dict:
        buf = self._read_more(b"")
        if not buf.strip(_WHITESPACE):
            raise SnapshotError(f"{self.name}: is empty; expected the output of: {KUBECTL_COMMAND}")
        found = _items_start(buf)
        if found is None:
            return self._whole(buf)
        prefix, after = found
        envelope: dict = orjson.loads(prefix + b'"items":[]}')
        self._hint(envelope)
        ws_end = after
        while ws_end < len(buf) and buf[ws_end] in _WHITESPACE:
            ws_end += 1
        if ws_end >= len(buf) or buf[ws_end : ws_end + 1] not in (b"{", b"]") or b"\n" not in buf[after:ws_end]:
            return self._stream(envelope, buf, after)  # compact or unusual layout: item by item
        if buf[ws_end : ws_end + 1] == b"]":
            return self._finish(envelope, buf, ws_end)
        separator = b"}," + buf[after:ws_end] + b"{"
        # A compiled literal pattern finds it several times faster than bytes.find, which stumbles on
        # the many `},` + newline + indentation runs that close inner objects (measured on kubectl output).
        find = re.compile(re.escape(separator)).search
        start = ws_end
        search = start
        while True:
            found_at = find(buf, search)
            cut = found_at.start() if found_at else -1
            if cut < 0:
                more = self.read(CHUNK_BYTES)
                if not more:
                    return self._finish(envelope, buf, start)
                self.offset += start
                buf = buf[start:] + more
                search = max(0, len(buf) - len(more) - len(separator))
                start = 0
                continue
            piece = buf[start : cut + 1]
            try:
                item = orjson.loads(piece)
            except orjson.JSONDecodeError as error:
                if error.pos < len(piece):
                    self._syntax_error(error, start)
                search = cut + 1  # an inner object ended at the items' indentation: join with the next piece
                continue
            self._item(item)
            start = cut + len(separator) - 1
            search = start

    def _stream(self, envelope: dict, buf: bytes, start: int) -> dict:
        """The items from buf[start:] (just after `items`' `[`) on, in any layout, then the envelope's trailer."""
        scanner = _Scanner(self, buf[start:], self.offset + start)
        first, want_value, failed = True, True, None
        while True:
            char = scanner.next_char()
            if char is None:
                raise SnapshotError(f"{self.name}: {_TRUNCATED} at byte {scanner.byte_at(scanner.index)}")
            if not want_value:
                if char == "]":
                    break
                if char != ",":
                    raise SnapshotError(
                        f"{self.name}: not valid JSON (expected ',' or ']' after an item) "
                        f"at byte {scanner.byte_at(scanner.index)}"
                    )
                scanner.index += 1
                want_value = True
                continue
            if char == "]" and first:
                break
            try:
                item, end = _DECODE(scanner.text, scanner.index)
            except json.JSONDecodeError as error:
                at = scanner.byte_at(error.pos)
                # Cut by the end of the buffer, the same value parses once more input is in; a real error
                # stays where it was. An unterminated string always ran into the end of the buffer (a raw
                # control character inside one is its own error), so it may need several chunks.
                unterminated = error.msg.startswith("Unterminated string")
                if scanner.eof or (failed == (error.msg, at) and not unterminated):
                    at_end = unterminated or error.pos >= len(scanner.text.rstrip())
                    self._decode_error(error.msg, at, truncated=scanner.eof and at_end)
                failed = (error.msg, at)
                scanner.refill()
                continue
            failed, first, want_value = None, False, False
            self._item(item)
            scanner.index = end
        rest = scanner.rest()
        try:
            trailer = orjson.loads(b'{"items":[]' + rest)
        except orjson.JSONDecodeError as error:
            at = scanner.rest_offset + error.pos - len(b'{"items":[]')
            self._decode_error(error.msg, at, truncated=error.msg.startswith("unexpected end of data"))
        if not isinstance(trailer, dict):
            raise SnapshotError(f"{self.name}: not valid JSON after the items at byte {scanner.rest_offset}")
        trailer.pop("items", None)
        envelope.update(trailer)
        self._hint(envelope)
        self._flush()
        return envelope

    def _decode_error(self, message: str, at: int, truncated: bool) -> NoReturn:
        if truncated:
            raise SnapshotError(f"{self.name}: {_TRUNCATED} at byte {at}")
        raise SnapshotError(f"{self.name}: not valid JSON ({message}) at byte {at}")

    def _finish(self, envelope: dict, buf: bytes, start: int) -> dict:
        """The last items and the envelope's keys after `items`: buf[start:] and the rest of the input."""
        tail = buf[start:] + self.read()
        close = len(tail)
        last_trailer_error = None
        while True:
            close = tail.rfind(b"]", 0, close)
            if close < 0:
                break
            try:
                trailer = orjson.loads(b'{"items":[]' + tail[close + 1 :])
                items = orjson.loads(b"[" + tail[:close] + b"]")
            except orjson.JSONDecodeError as error:
                if last_trailer_error is None:
                    last_trailer_error = error
                continue
            for item in items:
                self._item(item)
            trailer.pop("items", None)
            envelope.update(trailer)
            self._hint(envelope)
            self._flush()
            return envelope
        # No `]` closes the items: say what orjson finds wrong, and where.
        if last_trailer_error is not None and last_trailer_error.msg.startswith("unexpected end of data"):
            raise SnapshotError(f"{self.name}: {_TRUNCATED} at byte {self.offset + start + len(tail)}")
        try:
            orjson.loads(b"[" + tail)
        except orjson.JSONDecodeError as error:
            self._syntax_error(error, start - 1)
        raise SnapshotError(f"{self.name}: not valid JSON after byte {self.offset + start}")

    def _whole(self, buf: bytes) -> dict:
        rest = self.read()
        data = buf + rest if rest else buf
        try:
            document = orjson.loads(data)
        except orjson.JSONDecodeError as error:
            self._syntax_error(error, 0)
        if not isinstance(document, dict):
            _check_envelope(document, self.name)
        items = document.pop("items", None)
        if items is None:
            kind = document.get("kind")
            raise SnapshotError(
                f"{self.name}: not a Kubernetes List: no `items` (kind {kind!r}); "
                f"expected the output of: {KUBECTL_COMMAND}"
            )
        if not isinstance(items, list):
            raise SnapshotError(f"{self.name}: `items` is a JSON {type(items).__name__}, not an array")
        self._hint(document)
        for item in items:
            self._item(item)
        self._flush()
        return document

    def _hint(self, envelope: dict) -> None:
        kind = envelope.get("kind")
        if isinstance(kind, str) and kind.endswith("List") and kind != "List":
            self.kind_hint = kind[:-4]
            self._flush()

    def _item(self, item: object) -> None:
        if not isinstance(item, dict):
            raise SnapshotError(f"{self.name}: an item of `items` is a JSON {type(item).__name__}, not an object")
        kind = item.get("kind") or self.kind_hint
        if kind is None:
            self.pending.append(item)
        elif kind in ITEM_KINDS:
            try:
                self.sink(kind, item)
            except SnapshotError as error:  # the model names the object; with several files, say which one
                raise SnapshotError(f"{self.name}: {error}") from None
        else:
            self.unknown[str(kind)] = self.unknown.get(str(kind), 0) + 1

    def _flush(self) -> None:
        pending, self.pending = self.pending, []
        for item in pending:
            if self.kind_hint is None:
                raise SnapshotError(
                    f"{self.name}: an item has no `kind` and the List does not say what it holds; "
                    f"allowed kinds: {', '.join(ITEM_KINDS)}"
                )
            self._item(item)

    def _syntax_error(self, error: orjson.JSONDecodeError, base: int) -> NoReturn:
        at = base + self.offset + error.pos
        what = "not valid UTF-8" if "UTF-8" in error.msg else f"not valid JSON ({error.msg})"
        if error.msg.startswith("unexpected end of data"):
            what = _TRUNCATED
        raise SnapshotError(f"{self.name}: {what} at byte {at}")

    def _read_more(self, buf: bytes) -> bytes:
        return buf + self.read(CHUNK_BYTES)

    def read(self, size: int = -1) -> bytes:
        """The stream's next `size` bytes (all that is left by default)."""
        return self.stream.read(size)


def _items_start(buf: bytes) -> tuple[bytes, int] | None:
    """The envelope before a top-level `"items"` key and the offset just after its `[`; None if not found."""
    position = buf.find(b'"items"')
    while 0 <= position < _ENVELOPE_SEARCH_BYTES:
        prefix = buf[:position]
        try:
            valid = isinstance(orjson.loads(prefix + b'"items":[]}'), dict)
        except orjson.JSONDecodeError:
            valid = False
        if valid:
            at = position + len(b'"items"')
            while at < len(buf) and buf[at] in _WHITESPACE:
                at += 1
            if buf[at : at + 1] != b":":
                return None
            at += 1
            while at < len(buf) and buf[at] in _WHITESPACE:
                at += 1
            if buf[at : at + 1] != b"[":
                return None
            return prefix, at + 1
        position = buf.find(b'"items"', position + 1)
    return None


def _refuse_constant(name: str) -> object:
    # Python's json reads NaN and Infinity, which JSON (RFC 8259, section 6) and orjson do not.
    raise json.JSONDecodeError(f"{name} is not a JSON number", name, 0)


_DECODE = json.JSONDecoder(parse_constant=_refuse_constant).raw_decode


class _Scanner:
    """Text decoded from the stream chunk by chunk, consumed from the front; `index` is the next unread character."""

    def __init__(self, reader: _ListReader, head: bytes, head_offset: int) -> None:
        self.reader = reader
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.base = head_offset  # byte offset of text[0]
        self.next_offset = head_offset  # byte offset of the next bytes to decode
        self.text, self.index, self.eof = "", 0, False
        self._append(head)

    def _append(self, data: bytes, final: bool = False) -> None:
        try:
            self.text += self.decoder.decode(data, final=final)
        except UnicodeDecodeError as error:
            raise SnapshotError(
                f"{self.reader.name}: not valid UTF-8 at byte {self.next_offset + error.start}"
            ) from None
        self.next_offset += len(data)

    def refill(self) -> None:
        """Drop what is consumed and append the next chunk (or mark the end of the stream)."""
        consumed = self.text[: self.index]
        self.base += len(consumed.encode())
        self.text, self.index = self.text[self.index :], 0
        more = self.reader.read(CHUNK_BYTES)
        if not more:
            self.eof = True
        self._append(more, final=not more)

    def next_char(self) -> str | None:
        """The next character that is not JSON whitespace, refilling as needed; None at the end of the stream."""
        while True:
            text, index = self.text, self.index
            while index < len(text) and text[index] in " \t\r\n":
                index += 1
            self.index = index
            if index < len(text):
                return text[index]
            if self.eof:
                return None
            self.refill()

    def byte_at(self, index: int) -> int:
        """The file offset of text[index]."""
        return self.base + len(self.text[:index].encode())

    def rest(self) -> bytes:
        """Everything after the character at `index` (the items' `]`), to the end of the stream."""
        self.rest_offset = self.byte_at(self.index + 1)
        return self.text[self.index + 1 :].encode() + self.reader.read()
