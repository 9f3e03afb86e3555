"""Validation of rendered Kubernetes objects against the cluster version's OpenAPI schema.

kubernetes-validate bundles the schemas, so this needs no cluster and no network. Validation is
strict: a field the schema does not know is an error, which catches misspelt and misplaced keys.
It does not catch wrong taint effects, operator typos or over-long label values (the placement
model and the settings do).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.resources
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ...facts import auto_mode
from ..sorted_json import narrow_to_key
from .render import KubernetesObject

# jsonschema messages quote the offending value, which can be a whole pod spec.
_MAX_MESSAGE = 300
# kubernetes_validate.utils functions that answer the same for the same arguments during a batch.
_READ_ONCE = ("schema_contents", "all_versions", "major_minor")
# How kubernetes-validate's `_definitions.json` begins: its `$defs`, one entry per line at four spaces' indent.
_DEFINITIONS_OPEN = b'{\n  "$defs": {'
_ENTRY = b'\n    "'
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class SchemaResult:
    """The outcome of validating one object."""

    object_id: str
    """`Kind namespace/name` of the object."""
    passed: bool
    message: str
    """`valid (Kubernetes 1.34)`, or where and why the object is invalid."""
    file: str | None = None
    """The YAML file of the object, relative to the output folder."""
    checked: bool = True
    """False for a custom resource without a committed CRD schema (stackcheck/plan/crds/): it passes unchecked."""


def validator_version(cluster_version: str) -> str:
    """The kubernetes-validate version for an EKS minor version: "1.34" -> "1.34.0"."""
    parts = cluster_version.removeprefix("v").split(".")
    return ".".join((parts + ["0", "0"])[:3])


def validate_objects(objects: list[tuple[KubernetesObject, str | None]], cluster_version: str) -> list[SchemaResult]:
    """Validate each (object, file) strictly against the schema of `cluster_version` ("1.34")."""
    import kubernetes_validate

    version = validator_version(cluster_version)
    with _schema_files_read_once(kubernetes_validate.utils):
        return [_validate(kubernetes_validate, obj, file, version, cluster_version) for obj, file in objects]


def _validate(
    kubernetes_validate: ModuleType, obj: KubernetesObject, file: str | None, version: str, cluster_version: str
) -> SchemaResult:
    utils = kubernetes_validate.utils
    try:
        validated = kubernetes_validate.validate(obj.manifest, version, strict=True)
    except kubernetes_validate.ValidationError as error:
        where = _path(error.absolute_path)
        message = f"{where}: {_shorten(error.message)}" if where else _shorten(error.message)
        return SchemaResult(obj.id, False, f"invalid (Kubernetes {error.version}): {message}", file)
    except utils.SchemaNotFoundError:
        if not is_built_in(obj.api_version):
            return _custom_resource(obj, file)
        return SchemaResult(
            obj.id,
            False,
            f"no schema for {obj.kind} {obj.api_version} in Kubernetes "
            f"{cluster_version}: the API server would reject it",
            file,
        )
    except utils.VersionNotSupportedError:
        return SchemaResult(
            obj.id,
            False,
            f"kubernetes-validate {kubernetes_validate.version.__version__} has no "
            f"schemas for Kubernetes {cluster_version}",
            file,
        )
    except kubernetes_validate.InvalidSchemaError as error:
        return SchemaResult(obj.id, False, f"unreadable schema: {error.message}", file)
    return SchemaResult(obj.id, True, f"valid (Kubernetes {validated})", file)


def _custom_resource(obj: KubernetesObject, file: str | None) -> SchemaResult:
    """A custom resource checked against its committed CRD schema (stackcheck/plan/crds/), when there is one."""
    from . import crd_rules, crd_schema

    if (obj.api_version, obj.kind) == (auto_mode.NODE_CLASS_API_VERSION, auto_mode.NODE_CLASS_KIND):
        return _auto_mode_node_class(obj, file)
    if not crd_schema.known(obj.api_version, obj.kind):
        return SchemaResult(
            obj.id,
            True,
            f"not checked: {obj.api_version} is a custom resource, whose schema "
            "comes with its CustomResourceDefinition",
            file,
            checked=False,
        )
    errors = crd_schema.validation_errors(obj.manifest)
    # The API server holds a created object to both, the schema and its CEL rules (crd_rules.py), and names every
    # failure; a rule's message is short, so each is shown whole.
    rules = crd_rules.evaluate(obj.manifest)
    problems = [f"invalid ({obj.kind} CRD schema): {_shorten('; '.join(errors))}"] if errors else []
    if rules.errors:
        problems.append(f"invalid ({obj.kind} CRD rules): {'; '.join(rules.errors)}")
    if problems:
        return SchemaResult(obj.id, False, "; ".join(problems), file)
    return SchemaResult(obj.id, True, f"valid ({obj.kind} CRD schema{_rules_run(rules)}, stackcheck/plan/crds)", file)


def _rules_run(rules) -> str:
    """`and 17 CEL rules, 3 transition rules skipped`: the rules run on create, and those only an update runs."""
    ran, skipped = len(rules.evaluated), len(rules.transition_skipped)
    text = f" and {ran} CEL rule{'s' * (ran != 1)}" if ran else ""
    return text + (f", {skipped} transition rule{'s' * (skipped != 1)} skipped" if skipped else "")


def _auto_mode_node_class(obj: KubernetesObject, file: str | None) -> SchemaResult:
    """An EKS Auto Mode NodeClass against the fields the EKS user guide documents: no CRD schema is published."""
    from ...pools.auto_mode.manifests import node_class_problems

    problems = node_class_problems(obj.manifest)
    if problems:
        return SchemaResult(
            obj.id, False, f"invalid (NodeClass documented fields): {_shorten('; '.join(problems))}", file
        )
    return SchemaResult(obj.id, True, "valid (NodeClass fields of the EKS user guide; no published CRD schema)", file)


def is_built_in(api_version: str) -> bool:
    """Whether `api_version` belongs to Kubernetes itself: the core group, `apps`-style groups, `*.k8s.io`."""
    group = api_version.rpartition("/")[0]
    return "." not in group or group.endswith(".k8s.io")


@contextlib.contextmanager
def _schema_files_read_once(utils: ModuleType) -> Iterator[None]:
    """Memoise kubernetes-validate's schema file reader and version lookups for one batch of objects.

    `validate` reads and parses the version's 1.5 MB `_definitions.json` again for every object
    (about 30 ms each), and lists the bundled versions' folders twice per object and parses their
    names; the parsed schemas are only read and the folders do not change during a batch, so sharing
    the answers is safe. Should a later release rename one of them, objects still validate, only slower.
    """
    originals = {name: getattr(utils, name) for name in _READ_ONCE if hasattr(utils, name)}
    for name, function in originals.items():
        if name == "schema_contents":
            function = _definitions_decoded_on_demand(function)
        setattr(utils, name, functools.lru_cache(maxsize=None)(function))
    try:
        yield
    finally:
        for name, function in originals.items():
            setattr(utils, name, function)


def _definitions_decoded_on_demand(read: Callable[[str, str], Any]) -> Callable[[str, str], Any]:
    """`read` (kubernetes-validate's schema file reader), with each `_definitions.json` entry decoded when looked up.

    An object's schema reaches a few dozen of the file's 700 definitions, so decoding only those saves most
    of the file's parse. Every other file, and one laid out otherwise than expected, `read` reads itself.
    """

    def contents(filename: str, desired_version: str) -> Any:
        if filename.endswith("/_definitions.json"):
            try:
                data = importlib.resources.files("kubernetes_validate").joinpath(filename).read_bytes()
            except OSError:
                data = b""
            found = _lazy_definitions(data)
            if found is not None:
                return found
        return read(filename, desired_version)

    return contents


def _lazy_definitions(data: bytes) -> dict[str, Any] | None:
    """The document in `data` with its `$defs` as a `_Definitions`, or None when `data` is laid out otherwise."""
    if not data.startswith(_DEFINITIONS_OPEN):
        return None
    # JSON strings cannot hold a raw newline, so a newline and two spaces before a brace close `$defs`.
    end = data.find(b"\n  }", len(_DEFINITIONS_OPEN))
    if end < 0:
        return None
    try:
        document = json.loads(data[: len(_DEFINITIONS_OPEN)] + data[end + 1 :])
    except ValueError:
        return None
    document["$defs"] = _Definitions(data, len(_DEFINITIONS_OPEN), end)
    return document


class _Definitions(Mapping):
    """The `$defs` of `_definitions.json`, each entry decoded from the file's text when first looked up.

    The file writes its entries in sorted order, so a binary search over the text finds one without
    scanning the file; a name it does not find there is looked up in the whole, decoded once.
    """

    def __init__(self, data: bytes, start: int, end: int):
        self._data, self._start, self._end = data, start, end
        self._decoded: dict[str, Any] = {}
        self._whole: dict[str, Any] | None = None

    def __getitem__(self, name: str) -> Any:
        if name not in self._decoded:
            found = self._entry(name) if self._whole is None and isinstance(name, str) else None
            self._decoded[name] = found if found is not None else self._everything()[name]
        return self._decoded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._everything())

    def __len__(self) -> int:
        return len(self._everything())

    def _everything(self) -> dict[str, Any]:
        if self._whole is None:
            self._whole = json.loads(self._data[self._start - 1 : self._end + len(b"\n  }")])
        return self._whole

    def _entry(self, name: str) -> Any:
        data, wanted = self._data, json.dumps(name).encode()[1:-1]
        start, end = narrow_to_key(data, _ENTRY, wanted, self._start, self._end, window=16384)
        key = _ENTRY + wanted + b'": '
        at = data.find(key, start, end + len(key))
        if at < 0:
            return None
        following = data.find(_ENTRY, at + len(key), self._end)
        text = data[at + len(key) : following if following >= 0 else self._end]
        return _DECODER.raw_decode(text.decode("utf-8"))[0]


def _path(parts) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _shorten(message: str) -> str:
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 1] + "…"
