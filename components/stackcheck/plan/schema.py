"""Validation of rendered Kubernetes objects against the cluster version's OpenAPI schema.

kubernetes-validate bundles the schemas, so this needs no cluster and no network. Validation is
strict: a field the schema does not know is an error, which catches misspelt and misplaced keys.
It does not catch wrong taint effects, operator typos or over-long label values (the placement
model and the settings do).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .render import KubernetesObject

# jsonschema messages quote the offending value, which can be a whole pod spec.
_MAX_MESSAGE = 300


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
    from . import crd_schema

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
    if errors:
        return SchemaResult(obj.id, False, f"invalid ({obj.kind} CRD schema): {_shorten('; '.join(errors))}", file)
    return SchemaResult(obj.id, True, f"valid ({obj.kind} CRD schema, stackcheck/plan/crds)", file)


def is_built_in(api_version: str) -> bool:
    """Whether `api_version` belongs to Kubernetes itself: the core group, `apps`-style groups, `*.k8s.io`."""
    group = api_version.rpartition("/")[0]
    return "." not in group or group.endswith(".k8s.io")


@contextlib.contextmanager
def _schema_files_read_once(utils: Any) -> Iterator[None]:
    """Memoise kubernetes-validate's schema file reader for one batch of objects.

    `validate` reads and parses the version's 1.5 MB `_definitions.json` again for every object
    (about 30 ms each); the parsed schemas are only read, so sharing them is safe. Should a later
    release rename the reader, objects still validate, only slower.
    """
    original = getattr(utils, "schema_contents", None)
    if original is None:
        yield
        return
    utils.schema_contents = functools.lru_cache(maxsize=None)(original)
    try:
        yield
    finally:
        utils.schema_contents = original


def _path(parts) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _shorten(message: str) -> str:
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 1] + "…"
