"""From tests/program/test_example_yaml_stack.py, what other test modules use too: `problems_of` and what they
need."""

from __future__ import annotations

import inspect
import re
from typing import Any

import pulumi_kubernetes

# `${name}` or `${name.property...}`: Pulumi YAML's interpolation of config values, variables and outputs.
REFERENCE = re.compile(r"\$\{([A-Za-z0-9_-]+)[^}]*\}")


# Pulumi YAML takes a resource option's provider only from a resource the program declares, never from an
# output (pulumi/pulumi-yaml v1.38.1, pkg/pulumiyaml/run.go, evaluateResourceValuedOption: "resource cannot
# be an output"), so the program declares the Kubernetes provider itself, from the cluster's kubeconfig.
KUBERNETES_PROVIDER = "pulumi:providers:kubernetes"


PRIMITIVES = {"string": str, "integer": int, "number": (int, float), "boolean": bool}


def problems_of(program: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """Every way the program's use of the package disagrees with the schema, one line each."""
    package = schema["name"]
    resources = program.get("resources") or {}
    variables = program.get("variables") or {}
    found = []
    for name, resource in resources.items():
        token = resource.get("type", "")
        properties = _resolved(resource.get("properties") or {}, variables)
        if token == KUBERNETES_PROVIDER:
            found += _kubernetes_provider_problems(name, properties)
            continue
        spec = schema["resources"].get(token)
        if spec is None:
            found.append(f"{name}: type {token!r} is not a resource of the {package} schema")
            continue
        found += _object_problems(
            f"{name}",
            properties,
            spec.get("inputProperties") or {},
            spec.get("requiredInputs") or [],
            schema,
            set(resources),
        )
    return found


def _object_problems(
    where: str, given: Any, properties: dict, required: list[str], schema: dict, resources: set[str]
) -> list[str]:
    if _reference(given):
        return []  # a whole object from a config value or variable: its shape is that value's
    if not isinstance(given, dict):
        return [f"{where}: {given!r} is not an object"]
    found = [f"{where}: required input {key!r} is missing" for key in required if key not in given]
    for key, value in given.items():
        spec = properties.get(key)
        if spec is None:
            found.append(f"{where}.{key}: not an input; inputs: {', '.join(sorted(properties))}")
        else:
            found += _value_problems(f"{where}.{key}", value, spec, schema, resources)
    return found


def _value_problems(where: str, value: Any, spec: dict, schema: dict, resources: set[str]) -> list[str]:
    outputs = sorted({name for name in _referenced(value) if name in resources})
    if spec.get("plain") and outputs and not _is_object(spec, schema):
        return [f"{where}: plain input (no eventual values) given outputs of {', '.join(outputs)}"]
    if _reference(value):
        return []
    ref = spec.get("$ref", "")
    if ref.startswith("#/types/"):
        type_spec = schema["types"][ref.removeprefix("#/types/")]
        if "enum" in type_spec:
            allowed = [member["value"] for member in type_spec["enum"]]
            return [] if value in allowed else [f"{where}: {value!r} is not one of {allowed}"]
        return _object_problems(
            where, value, type_spec.get("properties") or {}, type_spec.get("required") or [], schema, resources
        )
    kind = spec.get("type")
    if kind == "array":
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [
            problem
            for index, item in enumerate(value)
            for problem in _value_problems(f"{where}[{index}]", item, spec["items"], schema, resources)
        ]
    if kind == "object":
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a map"]
        item_spec = spec.get("additionalProperties") or {}
        return [
            problem
            for key, item in value.items()
            for problem in _value_problems(f"{where}.{key}", item, item_spec, schema, resources)
        ]
    expected = PRIMITIVES.get(kind)
    if expected and (not isinstance(value, expected) or (kind != "boolean" and isinstance(value, bool))):
        return [f"{where}: {value!r} is not a {kind}"]
    return []


def _resolved(value: Any, variables: dict[str, Any]) -> Any:
    """`value` with each whole-value `${variable}` replaced by the variable's value, so its shape is checked."""
    if isinstance(value, str):
        match = re.fullmatch(r"\$\{([A-Za-z0-9_-]+)\}", value)
        if match and match.group(1) in variables:
            return _resolved(variables[match.group(1)], variables)
        return value
    if isinstance(value, dict):
        return {key: _resolved(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [_resolved(item, variables) for item in value]
    return value


def _is_object(spec: dict, schema: dict) -> bool:
    ref = spec.get("$ref", "")
    return ref.startswith("#/types/") and "enum" not in schema["types"][ref.removeprefix("#/types/")]


def _reference(value: Any) -> bool:
    return isinstance(value, str) and REFERENCE.fullmatch(value) is not None


def _referenced(value: Any) -> set[str]:
    if isinstance(value, str):
        return set(REFERENCE.findall(value))
    if isinstance(value, dict):
        return {name for item in value.values() for name in _referenced(item)}
    if isinstance(value, list):
        return {name for item in value for name in _referenced(item)}
    return set()


def _kubernetes_provider_problems(name: str, properties: dict) -> list[str]:
    # The inputs of the pinned pulumi-kubernetes provider, from its Python SDK (snake_case there).
    known = {re.sub(r"_([a-z])", lambda match: match.group(1).upper(), key) for key in _provider_inputs()}
    return [f"{name}.{key}: not an input of {KUBERNETES_PROVIDER}" for key in properties if key not in known]


def _provider_inputs() -> list[str]:
    return [
        key for key in inspect.signature(pulumi_kubernetes.ProviderArgs.__init__).parameters if not key.startswith("_")
    ]
