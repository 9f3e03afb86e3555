"""Validation of custom resources against the CRD schemas committed in stackcheck/plan/crds/.

kubernetes-validate knows only built-in kinds. For the custom resources the stack creates (the Prometheus
operator's ServiceMonitor and PrometheusRule), each `crds/<group>_<version>_<kind>.json` holds the
`openAPIV3Schema` of the CustomResourceDefinition, copied from the release named in its `source`. The
check is as strict as the built-in one: a field the schema does not know is an error (the API server
would prune it silently), except where the schema preserves unknown fields. The schemas' CEL rules
(`x-kubernetes-validations`) are crd_rules.py's.

The keywords the committed schemas use, and how each is honoured (counted over crds/*.json):
- JSON-schema validation (`type`, `properties`, `required`, `items`, `enum`, `pattern`, `minimum`, `maximum`,
  `minLength`, `maxLength`, `minItems`, `maxItems`, `maxProperties`, `anyOf`, `additionalProperties`): by
  jsonschema's Draft 7 validator, as the API server's structural-schema validation does.
- `format`: `int32` and `int64` as the ranges of Go's int32 and int64, the types the operators decode these fields
  into (KEDA's `ScaledObjectSpec.PollingInterval *int32`, kedacore/keda v2.20.2 apis/keda/v1alpha1/
  scaledobject_types.go), so 3000000000 in `pollingInterval` is an error, not a value the operator fails to
  decode; `date-time` as RFC 3339's `date-time` (section 5.6), the format the API server's strfmt checks.
- `x-kubernetes-list-type`: `set` items are unique, and `map` items unique by their `x-kubernetes-list-map-keys`,
  which the API server enforces (Kubernetes docs, "Merge strategy", `listType`); `atomic` asks nothing.
- `x-kubernetes-validations`: crd_rules.py evaluates the CEL rules.
Not honoured, since they validate nothing: `default` (the API server fills it in), `description`,
`x-kubernetes-map-type` (a merge strategy of server-side apply), and `x-kubernetes-int-or-string` (its `anyOf` of
integer and string, beside it, is what validates). `message` and `rule` belong to `x-kubernetes-validations`.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CRD_DIR = Path(__file__).resolve().parent / "crds"
_PRESERVE = "x-kubernetes-preserve-unknown-fields"


@functools.cache
def crd_schemas() -> dict[tuple[str, str], dict[str, Any]]:
    """`(apiVersion, kind)` -> the committed document (`source`, `group`, `version`, `kind`, `schema`)."""
    schemas = {}
    for path in sorted(CRD_DIR.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        schemas[(f"{document['group']}/{document['version']}", document["kind"])] = document
    return schemas


def strict(schema: Any) -> Any:
    """`schema` with `additionalProperties: false` on every object that lists its properties.

    Objects that preserve unknown fields, or that already say what other properties may hold, are left open.
    """
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result = {
        key: strict(value) if key != "properties" else {name: strict(sub) for name, sub in value.items()}
        for key, value in schema.items()
    }
    if "properties" in result and "additionalProperties" not in result and not result.get(_PRESERVE):
        result["additionalProperties"] = False
    return result


# The ranges of Go's int32 and int64 (the Go specification, "Numeric types").
INTEGER_FORMATS = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
# RFC 3339, section 5.6, `date-time`: full-date "T" full-time, with a time zone offset or Z.
_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})")


def _format_checker():
    import jsonschema

    checker = jsonschema.FormatChecker(formats=())
    for name, (low, high) in INTEGER_FORMATS.items():
        # A string or float is `type`'s to refuse; the format speaks of integers only.
        checker.checks(name)(
            lambda value, low=low, high=high: (
                not isinstance(value, int) or isinstance(value, bool) or low <= value <= high
            )
        )
    checker.checks("date-time")(lambda value: not isinstance(value, str) or bool(_DATE_TIME.fullmatch(value)))
    return checker


def _list_type(validator: Any, list_type: str, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    """`x-kubernetes-list-type`: a `set` holds each item once, a `map` each tuple of its list-map-keys once."""
    import jsonschema

    if not isinstance(instance, list) or list_type not in ("set", "map"):
        return
    keys = schema.get("x-kubernetes-list-map-keys", [])
    seen: list[Any] = []
    for item in instance:
        identity = item if list_type == "set" else [item.get(key) if isinstance(item, dict) else None for key in keys]
        if identity in seen:
            what = (
                repr(item)
                if list_type == "set"
                else ", ".join(f"{k}={v!r}" for k, v in zip(keys, identity, strict=True))
            )
            yield jsonschema.ValidationError(f"duplicate entry {what} in a list of type {list_type}")
        seen.append(identity)


@functools.cache
def _validator(api_version: str, kind: str):
    import jsonschema

    schema = strict(copy.deepcopy(crd_schemas()[(api_version, kind)]["schema"]))
    kubernetes = jsonschema.validators.extend(jsonschema.Draft7Validator, {"x-kubernetes-list-type": _list_type})
    return kubernetes(schema, format_checker=_format_checker())


def known(api_version: str, kind: str) -> bool:
    """Whether a CRD schema for `apiVersion`/`kind` is committed."""
    return (api_version, kind) in crd_schemas()


def cluster_scoped(api_version: Any, kind: str) -> bool:
    """Whether a committed CRD makes `apiVersion`/`kind` cluster-scoped (its `scope: Cluster`, kept beside the
    schema); custom resources are otherwise namespaced."""
    return crd_schemas().get((api_version, kind), {}).get("scope") == "Cluster"


def validation_errors(manifest: dict[str, Any]) -> list[str]:
    """Every place `manifest` breaks its committed CRD schema, as `path: message` (empty when valid)."""
    validator = _validator(manifest["apiVersion"], manifest["kind"])
    errors = sorted(validator.iter_errors(manifest), key=lambda error: list(error.absolute_path))
    return [f"{_path(error.absolute_path) or '<root>'}: {error.message}" for error in errors]


def _path(parts) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text
