"""Validation of custom resources against the CRD schemas committed in stackcheck/plan/crds/.

kubernetes-validate knows only built-in kinds. For the custom resources the stack creates (the Prometheus
operator's ServiceMonitor and PrometheusRule), each `crds/<group>_<version>_<kind>.json` holds the
`openAPIV3Schema` of the CustomResourceDefinition, copied from the release named in its `source`. The
check is as strict as the built-in one: a field the schema does not know is an error (the API server
would prune it silently), except where the schema preserves unknown fields. The schemas' CEL rules
(`x-kubernetes-validations`) are crd_rules.py's.
"""

from __future__ import annotations

import copy
import functools
import json
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


@functools.cache
def _validator(api_version: str, kind: str):
    import jsonschema

    schema = strict(copy.deepcopy(crd_schemas()[(api_version, kind)]["schema"]))
    return jsonschema.Draft7Validator(schema)


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
