"""AWS API requests checked against the service models that botocore bundles, without the SDK.

A request is validated the way the service validates its input: required members, member types,
enums, string and collection lengths, integer ranges and patterns, and members the operation does
not have. The model files are read directly (botocore's loader imports the SDK and is about twenty
times slower), only for the services a stack uses, and each shape is parsed only when a request
reaches it: the EC2 model alone is 4 MB of JSON, of which a launch template needs a few dozen shapes.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import unicodedata
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..sorted_json import narrow_to_key

# Pulumi's marker for a value not known until the update runs; such a value is not checked.
UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
# Smithy `integer` and `long` are signed 32- and 64-bit (https://smithy.io/2.0/spec/simple-types.html);
# the services reject larger numbers before any member constraint applies.
_INT_RANGES = {"integer": (-(2**31), 2**31 - 1), "long": (-(2**63), 2**63 - 1)}
_MAX_SHOWN = 80
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class Violation:
    """One member of a request that the service would reject, and why."""

    path: str
    """Where in the request, e.g. `scalingConfig.maxSize` or `labels["kubernetes.io/role"]`."""
    value: Any
    rule: str
    """The broken rule and its source."""

    def describe(self) -> str:
        return f"{self.path} = {shown(self.value)}: {self.rule}"


def shown(value: Any) -> str:
    """`value` for a message: JSON-like, long values shortened."""
    text = json.dumps(value, ensure_ascii=False, default=repr) if not isinstance(value, str) else repr(value)
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…"


class ServiceModel:
    """One botocore `service-2.json` model, parsed shape by shape on demand.

    The file stays undecoded bytes: only the entries a request reaches are decoded and parsed.
    """

    def __init__(self, service: str, data: bytes):
        self.service = service
        self._data = data
        self._shapes_at = max(data.find(b'\n  "shapes":'), 0)
        # botocore writes most models as `"name":{` and a few (IAM) as `"name": {`
        self._separator = ": {" if data.startswith(b": {", self._shapes_at + len(b'\n  "shapes"')) else ":{"
        self._shapes: dict[str, dict] = {}
        self._full: dict | None = None

    def shape(self, name: str) -> dict:
        if name not in self._shapes:
            found = self._top_level(name, self._shapes_at, len(self._data))
            self._shapes[name] = found if found is not None else self._parsed()["shapes"][name]
        return self._shapes[name]

    def input_shape(self, operation: str) -> str:
        found = self._top_level(operation, 0, self._shapes_at)
        definition = found if found is not None else self._parsed()["operations"][operation]
        return definition["input"]["shape"]

    def _top_level(self, name: str, start: int, end: int) -> dict | None:
        """The definition of `name` among the top-level entries between `start` and `end`, else None.

        botocore writes each map's keys in sorted order, one per line at four spaces' indent, so a
        binary search over the text finds an entry without scanning megabytes of it.
        """
        data, wanted, marker = self._data, name.encode(), b'\n    "'
        start, end = narrow_to_key(data, marker, wanted, start, end, window=65536)
        key = b'\n    "' + wanted + b'"' + self._separator.encode()
        at = data.find(key, start, end + len(key))
        if at < 0:
            return None
        following = data.find(marker, at + len(key))
        entry = data[at + len(key) - 1 : following if following >= 0 else len(data)].decode("utf-8")
        return _DECODER.raw_decode(entry)[0]

    def _parsed(self) -> dict:
        """The whole model; only needed when the file is laid out differently than expected."""
        if self._full is None:
            self._full = json.loads(self._data)
        return self._full


@cache
def service_model(service: str) -> ServiceModel:
    """The newest API version of `service` (`eks`, `ec2`, `iam`, `kms`, `autoscaling`) that botocore bundles."""
    spec = importlib.util.find_spec("botocore")
    if spec is None or spec.origin is None:
        raise RuntimeError("botocore is not installed; it provides the AWS API models (see requirements.txt)")
    service_dir = os.path.join(os.path.dirname(spec.origin), "data", service)
    model_dir = os.path.join(service_dir, sorted(os.listdir(service_dir))[-1])
    # zlib reads the gzip framing itself (wbits 16 + 15), checksum included, faster than the gzip module.
    for file_name, unpack in (("service-2.json.gz", lambda raw: zlib.decompress(raw, 31)), ("service-2.json", bytes)):
        path = os.path.join(model_dir, file_name)
        if os.path.exists(path):
            with open(path, "rb") as model_file:
                return ServiceModel(service, unpack(model_file.read()))
    raise RuntimeError(f"no {service} service model in {model_dir}")


def validate(service: str, operation: str, params: dict[str, Any]) -> list[Violation]:
    """Every way `params` breaks the input shape of `service` `operation` in botocore's model."""
    model = service_model(service)
    found: list[Violation] = []
    _check(model, model.input_shape(operation), params, "", found)
    return found


def _check(model: ServiceModel, shape_name: str, value: Any, path: str, found: list[Violation]) -> None:
    if value is None or value == UNKNOWN:
        return
    shape = model.shape(shape_name)
    kind = shape["type"]
    source = f"{model.service} model, shape {shape_name}"
    if kind == "structure":
        _check_structure(model, shape, shape_name, value, path, found)
    elif kind == "list":
        if not isinstance(value, list):
            found.append(Violation(path, value, f"must be a list ({source})"))
            return
        _check_count(shape, len(value), "items", value, path, source, found)
        for index, item in enumerate(value):
            _check(model, shape["member"]["shape"], item, f"{path}[{index}]", found)
    elif kind == "map":
        if not isinstance(value, dict):
            found.append(Violation(path, value, f"must be a map ({source})"))
            return
        _check_count(shape, len(value), "entries", value, path, source, found)
        for key, item in value.items():
            _check(model, shape["key"]["shape"], key, f"{path}[{json.dumps(key, ensure_ascii=False)}] (key)", found)
            _check(model, shape["value"]["shape"], item, f"{path}[{json.dumps(key, ensure_ascii=False)}]", found)
    elif kind == "string":
        _check_string(shape, value, path, source, found)
    elif kind in _INT_RANGES:
        _check_integer(shape, kind, value, path, source, found)
    elif kind == "boolean":
        if not isinstance(value, bool):
            found.append(Violation(path, value, f"must be a boolean ({source})"))
    elif kind in ("double", "float"):  # noqa: SIM102 one branch per model type
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            found.append(Violation(path, value, f"must be a number ({source})"))
    # timestamp and blob members are not used by the requests this plan builds


def _check_structure(
    model: ServiceModel, shape: dict, shape_name: str, value: Any, path: str, found: list[Violation]
) -> None:
    source = f"{model.service} model, shape {shape_name}"
    if not isinstance(value, dict):
        found.append(Violation(path, value, f"must be a structure ({source})"))
        return
    members = shape.get("members", {})
    for required in shape.get("required", []):
        if value.get(required) is None:
            found.append(Violation(_join(path, required), None, f"is required ({source})"))
    for key, item in value.items():
        if key not in members:
            found.append(
                Violation(
                    _join(path, key),
                    item,
                    f"is not a member of {shape_name}; members: {', '.join(sorted(members))} ({model.service} model)",
                )
            )
        else:
            _check(model, members[key]["shape"], item, _join(path, key), found)


def _check_count(
    shape: dict, count: int, what: str, value: Any, path: str, source: str, found: list[Violation]
) -> None:
    low, high = shape.get("min"), shape.get("max")
    if (low is not None and count < low) or (high is not None and count > high):
        found.append(Violation(path, value, f"has {count} {what}, allowed {_bounds(low, high)} ({source})"))


def _check_string(shape: dict, value: Any, path: str, source: str, found: list[Violation]) -> None:
    if not isinstance(value, str):
        found.append(Violation(path, value, f"must be a string ({source})"))
        return
    if "enum" in shape and value not in shape["enum"]:
        found.append(Violation(path, value, f"is not one of {', '.join(shape['enum'])} ({source})"))
        return
    low, high = shape.get("min"), shape.get("max")
    if (low is not None and len(value) < low) or (high is not None and len(value) > high):
        found.append(Violation(path, value, f"has {len(value)} characters, allowed {_bounds(low, high)} ({source})"))
    pattern = shape.get("pattern")
    if pattern and not pattern_matcher(pattern)(value):
        found.append(Violation(path, value, f"does not match the pattern {pattern} ({source})"))


def _check_integer(shape: dict, kind: str, value: Any, path: str, source: str, found: list[Violation]) -> None:
    # Pulumi passes every number as a float; a whole float is the integer it holds.
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        found.append(Violation(path, value, f"must be an {kind} ({source})"))
        return
    number = int(value)
    smallest, largest = _INT_RANGES[kind]
    if not smallest <= number <= largest:
        found.append(
            Violation(
                path,
                number,
                f"is outside the {'32' if kind == 'integer' else '64'}-bit {kind} range {smallest} to {largest} ({source})",
            )
        )
        return
    low, high = shape.get("min"), shape.get("max")
    if (low is not None and number < low) or (high is not None and number > high):
        found.append(Violation(path, number, f"must be {_bounds(low, high)} ({source})"))


@cache
def pattern_matcher(pattern: str) -> Callable[[str], bool]:
    """A test of the whole value against a model pattern, as the services apply them.

    The services match the whole value: EKS documents its `ClusterName` pattern
    `^[0-9A-Za-z][A-Za-z0-9\\-_]*` as "can contain only alphanumeric characters, hyphens, and
    underscores" (CreateCluster `name` in the model's documentation). The patterns are Java
    regular expressions; two forms Python's `re` lacks are translated: a UTF-16 surrogate-pair range
    (`\\uD800\\uDC00-\\uDBFF\\uDFFF`, every code point above U+FFFF) and Unicode categories
    (`\\p{L}`) inside a one-class pattern such as IAM's tag keys `[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]+`.
    """
    translated = pattern.replace("\\uD800\\uDC00-\\uDBFF\\uDFFF", "\\U00010000-\\U0010FFFF")
    categories = re.findall(r"\\p\{(\w+)\}", translated)
    if categories:
        match = re.fullmatch(r"\[(.*)\]([+*])", translated)
        if match is None:
            return lambda value: True  # not a form this checker reads: left to the service
        rest = re.compile("[" + re.sub(r"\\p\{\w+\}", "", match.group(1)) + "]")
        minimum = 1 if match.group(2) == "+" else 0

        def in_class(value: str) -> bool:
            return len(value) >= minimum and all(
                unicodedata.category(char).startswith(tuple(categories)) or rest.match(char) for char in value
            )

        return in_class
    try:
        compiled = re.compile(translated, re.ASCII)
    except re.error:
        return lambda value: True  # left to the service
    return lambda value: compiled.fullmatch(value) is not None


def _join(path: str, member: str) -> str:
    return f"{path}.{member}" if path else member


def _bounds(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{low} to {high}" if high != low else str(low)
    return f"at least {low}" if low is not None else f"at most {high}"
