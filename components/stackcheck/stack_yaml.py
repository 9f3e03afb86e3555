"""Pulumi's project and stack files read as the Pulumi CLI reads them: YAML as gopkg.in/yaml.v3 decodes it.

The CLI decodes a stack file with yaml.v3 into Go's `any` before it reads the config (pulumi/pulumi v3.259.0,
`sdk/go/common/encoding/marshal.go` and `sdk/go/common/workspace/loaders.go`, `LoadProjectStackBytes`), and
yaml.v3 follows YAML 1.2's core schema, not PyYAML's YAML 1.1 (go-yaml/yaml v3.0.1, `resolve.go`):

- booleans are only `true`, `True`, `TRUE` and the same of false; `yes`, `no`, `on`, `off`, `y`, `n` are strings;
- there are no base-60 numbers: `1:30` is the string `1:30`, not 90;
- integers are read as Go's `strconv.ParseInt(s, 0, 64)` reads them once `_` is removed (`0x1F`, `0o17`, `0b101`,
  and `017` as octal, as in YAML 1.1), then `ParseUint`; a float needs the pattern
  `[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?` (so `1e3` is 1000.0), or a leading dot;
- a mapping key given twice is an error naming both lines (`decode.go`, "mapping key ... already defined at line");
- aliases expand until "document contains excessive aliasing" (`decode.go`, `allowedAliasRatio`: past 1,000
  decoded values, more than 99% of them from aliases on files up to 400,000 values).

An unquoted date or time (`2026-01-01`, `2026-01-01T10:00:00Z`) is refused, naming its key: yaml.v3 decodes it
as a Go time (`resolve.go`, `parseTimestamp`, tried before numbers for a plain scalar that starts with four digits
and `-`; `decode.go` sets the `time.Time` itself into an `any`), and the CLI hands that on as Go's own text of the
time (pulumi/pulumi `sdk/go/common/resource/config/object.go`, `unmarshalObject`: `time.Time` -> `v.String()`),
so `revision: 2026-01-01` reaches the program as `2026-01-01 00:00:00 +0000 UTC`. Whoever writes a date means
the text they wrote, which only quotes deliver, and no setting takes a time; so the plan refuses what `pulumi up`
would pass on changed, and says to quote it (a refusal rather than the text: the plan would otherwise accept a
file whose deployment reads another value). Nesting deeper than
`MAX_DEPTH` is refused before the file is composed (libyaml's composer recurses in C and crashes the process at
about 100,000 levels; no setting nests more than four).
"""

from __future__ import annotations

import base64
import datetime
import math
import re
from typing import Any

import yaml

MAX_DEPTH = 100
# yaml.v3's aliasing rule (decode.go, v3.0.1): past these counts, the share of values decoded through aliases
# is capped by `_allowed_alias_ratio`.
_ALIAS_MIN_DECODES = 1000
_ALIAS_MIN_ALIASED = 100
_ALIAS_RATIO_LOW = 400_000
_ALIAS_RATIO_HIGH = 4_000_000

_PLAIN = "tag:eks-gpu-inference,2026:plain"
_MERGE = "tag:yaml.org,2002:merge"
_CONSTANTS: dict[str, Any] = {
    **dict.fromkeys(("true", "True", "TRUE"), True),
    **dict.fromkeys(("false", "False", "FALSE"), False),
    **dict.fromkeys(("", "~", "null", "Null", "NULL"), None),
    **dict.fromkeys((".nan", ".NaN", ".NAN"), math.nan),
    **dict.fromkeys((".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"), math.inf),
    **dict.fromkeys(("-.inf", "-.Inf", "-.INF"), -math.inf),
}
_GO_INT = re.compile(r"([+-]?)(0[bB][01]+|0[oO][0-7]+|0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)\Z")
_YAML_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_DOT_FLOAT = re.compile(r"\.[0-9]+([eE][-+]?[0-9]+)?\Z")
_INT64 = (-(2**63), 2**63 - 1)
_UINT64_MAX = 2**64 - 1


class _NonFinite(str):
    """An infinity or NaN as written (`.inf`), kept with its line so that `load` names its key: the Pulumi CLI hands
    the config to the program as JSON (`PULUMI_CONFIG`), which has no such numbers (RFC 8259, section 6)."""

    line: int


class _Timestamp(str):
    """An unquoted date or time as written (`2026-01-01`), kept with its line so that `load` names its key."""

    line: int
    go_text: str | None
    """Go's `Time.String()` of it where that does not depend on the CLI's machine (a time in UTC), else None."""


# yaml.v3's `allowedTimestampFormats` as Go's time.Parse reads them: `2006-1-2T15:4:5.999999999Z07:00` (and with a
# lower-case t), `2006-1-2 15:4:5.999999999` (no zone: UTC) and `2006-1-2`; a field of one digit is allowed where
# the layout's is ("1", "2", "4", "5"), the fraction is optional, and an out-of-range field fails the parse.
_TIMESTAMP = re.compile(
    r"(?P<year>[0-9]{4})-(?P<month>[0-9]{1,2})-(?P<day>[0-9]{1,2})"
    r"(?:(?:(?P<t>[Tt])|(?P<space> ))(?P<hour>[0-9]{1,2}):(?P<minute>[0-9]{1,2}):(?P<second>[0-9]{1,2})"
    r"(?:\.(?P<fraction>[0-9]+))?(?P<zone>Z|[+-][0-9]{2}:[0-9]{2})?)?\Z"
)


def _timestamp(text: str, line: int) -> _Timestamp | None:
    """`text` as yaml.v3's `parseTimestamp` reads it: a `_Timestamp`, or None when it is no date Go parses."""
    match = _TIMESTAMP.match(text)
    if match is None or (match["t"] and not match["zone"]) or (match["space"] and match["zone"]):
        return None
    year, month, day, hour, minute, second = (
        int(match[name] or 0) for name in ("year", "month", "day", "hour", "minute", "second")
    )
    try:
        # The zone is read apart: only the fields' ranges are checked here, as time.Parse checks them.
        when = datetime.datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None
    marker = _Timestamp(text)
    marker.line = line
    marker.go_text = None
    if match["zone"] in (None, "Z"):
        fraction = (match["fraction"] or "")[:9].rstrip("0")
        marker.go_text = f"{when:%Y-%m-%d %H:%M:%S}{'.' + fraction if fraction else ''} +0000 UTC"
    return marker


class StackYamlError(ValueError):
    """The file cannot be read as the Pulumi CLI reads it; `problems` lists every reason, each one line."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def plain_scalar(text: str) -> Any:
    """An unquoted scalar as yaml.v3 decodes it into Go's `any` (resolve.go, `resolve`); a date or time is text
    here (`load` refuses it, see the module's docstring)."""
    if text in _CONSTANTS:
        return _CONSTANTS[text]
    hint = text[0]
    if hint == ".":
        return float(text) if _DOT_FLOAT.match(text) else text
    if hint not in "+-0123456789":
        return text
    plain = text.replace("_", "")
    number = _go_integer(plain)
    if number is not None:
        return number
    if _YAML_FLOAT.match(plain):
        value = float(plain)
        if not math.isinf(value):  # Go's ParseFloat fails on overflow; the text stays a string
            return value
    return text


def _go_integer(plain: str) -> int | None:
    """`strconv.ParseInt(plain, 0, 64)`, else `strconv.ParseUint(plain, 0, 64)`; None when neither reads it."""
    match = _GO_INT.match(plain)
    if match is None:
        return None
    sign, digits = match.groups()
    prefix = digits[:2].lower()
    if prefix in ("0b", "0o", "0x"):
        value = int(digits[2:], {"0b": 2, "0o": 8, "0x": 16}[prefix])
    elif digits.startswith("0") and len(digits) > 1:
        value = int(digits[1:], 8)
    else:
        value = int(digits)
    value = -value if sign == "-" else value
    if _INT64[0] <= value <= _INT64[1] or (not sign and value <= _UINT64_MAX):
        return value
    return None


class _Loader(yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader):  # type: ignore[misc]
    """PyYAML's safe loader with yaml.v3's reading of plain scalars and tags, and its duplicate-key rule."""

    def __init__(self, stream: str):
        super().__init__(stream)
        self.duplicates: list[str] = []

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        if kind is yaml.ScalarNode and implicit[0]:
            return _MERGE if value == "<<" else _PLAIN
        return super().resolve(kind, value, implicit)

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        # v3 compares the keys' text, so `1` and `"1"` are one key too.
        first: dict[str, Any] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            seen = first.setdefault(key_node.value, key_node)
            if seen is not key_node:
                self.duplicates.append(
                    f"line {key_node.start_mark.line + 1}: key {key_node.value!r} is already defined at line "
                    f"{seen.start_mark.line + 1}; allowed: each key once in a mapping (the Pulumi CLI refuses the file)"
                )
        return super().construct_mapping(node, deep)


def _construct_plain(loader: _Loader, node: Any) -> Any:
    if node.value[:1].isdigit():
        timestamp = _timestamp(node.value, node.start_mark.line + 1)
        if timestamp is not None:
            return timestamp
    value = plain_scalar(node.value)
    if isinstance(value, float) and not math.isfinite(value):
        marker = _NonFinite(node.value)
        marker.line = node.start_mark.line + 1
        return marker
    return value


def _construct_typed(kind: type, name: str):
    """An explicitly tagged scalar (`!!int 0x10`): read as a plain one, of the tag's kind or refused (as v3)."""

    def construct(loader: _Loader, node: Any) -> Any:
        value = _construct_plain(loader, node)
        if isinstance(value, _NonFinite):
            return value
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if type(value) is not kind:
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read {node.value!r} as {name}", node.start_mark
            )
        return value

    return construct


def _construct_timestamp(loader: _Loader, node: Any) -> _Timestamp:
    """`!!timestamp 2026-01-01`: a time as a plain one is, or refused as v3 refuses it."""
    timestamp = _timestamp(str(node.value), node.start_mark.line + 1)
    if timestamp is None:
        raise yaml.constructor.ConstructorError(
            None, None, f"cannot read {node.value!r} as a timestamp", node.start_mark
        )
    return timestamp


def _construct_binary(loader: _Loader, node: Any) -> str:
    try:
        data = base64.b64decode("".join(str(node.value).split()), validate=True)
    except ValueError:
        raise yaml.constructor.ConstructorError(None, None, "!!binary value is not base64", node.start_mark) from None
    return data.decode("utf-8", errors="replace")


def _construct_by_kind(loader: _Loader, node: Any) -> Any:
    """Any other tag (`!!set`, `!custom`): the value as its node's kind reads, as v3 decodes it into `any`."""
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return str(node.value)


_Loader.add_constructor(_PLAIN, _construct_plain)
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_typed(int, "an integer"))
_Loader.add_constructor("tag:yaml.org,2002:float", _construct_typed(float, "a number"))
_Loader.add_constructor("tag:yaml.org,2002:bool", _construct_typed(bool, "true or false"))
_Loader.add_constructor("tag:yaml.org,2002:null", _construct_typed(type(None), "null"))
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
_Loader.add_constructor("tag:yaml.org,2002:binary", _construct_binary)
for _tag in ("set", "omap", "pairs"):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _construct_by_kind)
_Loader.add_constructor(None, _construct_by_kind)


def load(text: str) -> Any:
    """The document in `text` as the Pulumi CLI decodes it; raises `StackYamlError` (every reason at once) or
    `yaml.YAMLError` (the text is not YAML)."""
    _check_depth(text)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_aliasing(node)
        document = loader.construct_document(node)
        problems = loader.duplicates + _non_finite_problems(document, []) + _timestamp_problems(document, [])
        if problems:
            # In the order of the file: the constructor reaches an outer mapping's keys before the inner ones.
            raise StackYamlError(sorted(problems, key=lambda problem: int(problem.split()[1].rstrip(":,"))))
        return document
    finally:
        loader.dispose()


def _non_finite_problems(value: Any, path: list[Any]) -> list[str]:
    """One problem per infinity or NaN in `value`, naming its key as a stack config writes it."""
    if isinstance(value, _NonFinite):
        what = "not a number (NaN)" if "nan" in value.lower() else "infinity"
        return [
            f"line {value.line}, {_key_name(path)}: {value} is {what}, which the Pulumi CLI cannot hand to the "
            "program, since it passes the config as JSON and JSON has no such number; allowed: a finite number, or "
            f"'{value}' in quotes where the key takes text"
        ]
    if isinstance(value, dict):
        return [problem for key, item in value.items() for problem in _non_finite_problems(item, [*path, key])]
    if isinstance(value, list):
        return [problem for index, item in enumerate(value) for problem in _non_finite_problems(item, [*path, index])]
    return []


def _timestamp_problems(value: Any, path: list[Any]) -> list[str]:
    """One problem per unquoted date or time in `value`, naming its key as a stack config writes it."""
    if isinstance(value, _Timestamp):
        what = "a date" if len(value) <= len("2026-01-01") else "a date and time"
        handed = f"the text '{value.go_text}'" if value.go_text else "Go's text of that time, in the CLI's zone"
        return [
            f"line {value.line}, {_key_name(path)}: YAML reads {value} as {what}, and the Pulumi CLI hands it to the "
            f"program as {handed}, not as written; allowed: '{value}' in quotes, which keeps it text (no setting "
            "takes a date or time)"
        ]
    if isinstance(value, dict):
        return [problem for key, item in value.items() for problem in _timestamp_problems(item, [*path, key])]
    if isinstance(value, list):
        return [problem for index, item in enumerate(value) for problem in _timestamp_problems(item, [*path, index])]
    return []


def _key_name(path: list[Any]) -> str:
    """`path` as the stack config names a key: `project:section.key[0]` under `config`, else the file's own path."""
    parts = path[1:] if path[:1] == ["config"] and len(path) > 1 else path
    name = ""
    for part in parts:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name or "the document"


def _check_depth(text: str) -> None:
    """Refuse nesting beyond `MAX_DEPTH`, reading events only (the parser keeps its own stack, no recursion)."""
    parser = _Loader(text)
    depth = 0
    try:
        while parser.check_event():
            event = parser.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    mark = event.start_mark
                    where = f"line {mark.line + 1}: " if mark else ""
                    raise StackYamlError(
                        [f"{where}nested more than {MAX_DEPTH} levels deep; allowed: at most {MAX_DEPTH}"]
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    finally:
        parser.dispose()


def _allowed_alias_ratio(decodes: int) -> float:
    if decodes <= _ALIAS_RATIO_LOW:
        return 0.99
    if decodes >= _ALIAS_RATIO_HIGH:
        return 0.10
    return 0.99 - 0.89 * (decodes - _ALIAS_RATIO_LOW) / (_ALIAS_RATIO_HIGH - _ALIAS_RATIO_LOW)


def _check_aliasing(root: Any) -> None:
    """Walk the document as yaml.v3 decodes it, aliases expanded, and stop where v3 stops.

    The composed graph shares one node per anchor; its first visit is the anchor, every later one an alias
    (v3 counts each value decoded inside an alias). An anchor holding an alias to itself is refused, as v3 does.
    """
    decodes = aliased = 0
    visited: set[int] = set()
    # (node, inside an alias, the ids of the nodes above it) ; "above" detects an anchor that contains itself
    stack: list[tuple[Any, bool, frozenset[int]]] = [(root, False, frozenset())]
    while stack:
        node, in_alias, above = stack.pop()
        identity = id(node)
        if identity in above:
            raise StackYamlError(
                [
                    f"line {node.start_mark.line + 1}: an anchor's value contains an alias to itself; allowed: aliases "
                    "to other values"
                ]
            )
        in_alias = in_alias or identity in visited
        visited.add(identity)
        decodes += 1
        aliased += in_alias
        if (
            aliased > _ALIAS_MIN_ALIASED
            and decodes > _ALIAS_MIN_DECODES
            and aliased / decodes > _allowed_alias_ratio(decodes)
        ):
            raise StackYamlError(
                [
                    f"aliases expand to more than {decodes} values, {aliased} of them through aliases; allowed: "
                    "aliases that make up at most 99% of the values (the Pulumi CLI stops with 'document contains "
                    "excessive aliasing')"
                ]
            )
        if isinstance(node, yaml.ScalarNode):
            continue
        children = [part for pair in node.value for part in pair] if isinstance(node, yaml.MappingNode) else node.value
        below = above | {identity}
        stack.extend((child, in_alias, below) for child in reversed(children))
