"""The CEL rules of the committed CRD schemas (`x-kubernetes-validations`), evaluated as the API server does on create.

A custom resource can pass its CRD's structural schema (crd_schema.py) and still be refused when it is created: the
API server also evaluates each rule of the schema node a value sits at, with `self` bound to that value, and refuses
the object with the rule's message when the rule is false or fails to evaluate. What this follows, in
kubernetes/apiextensions-apiserver at v0.34.2 (Kubernetes 1.34), pkg/apiserver/schema/cel/validation.go, read
2026-12-02:

- a node's rules run only where the object has a value (`validate` walks the object: properties, array items, map
  values, not absent fields);
- a rule that reads `oldSelf` (a transition rule) runs only on an update with an old value to compare, so never on
  create (`compiled.UsesOldSelf && oldObj == nil`: `continue`; `optionalOldSelf` rules run there, with no old
  value, and no committed rule has one): they are skipped and counted;
- a false rule is reported at the node's path (plus the rule's `fieldPath`) with its `message`, or `failed rule:
  <rule>` without one; an evaluation error as `<error> evaluating rule: <rule>`;
- the object is defaulted first (the schemas' `default`s), as the API server defaults a request before validation.

The rules are CEL with Kubernetes' libraries (k8s.io/apiserver v0.34.10, pkg/cel/environment/base.go: cel-go's
`ext.Strings` and Kubernetes' own `library.Regex`, among others). Google's CEL runtime (`cel-expr-python`, over
cel-cpp) evaluates them with its strings extension (`split`); Kubernetes' regex library's `find` it lacks, so it is
defined here as that library defines it (pkg/cel/library/regex.go at v0.34.10: the leftmost match of the RE2
pattern, `''` when none, an error for an invalid pattern).
"""

from __future__ import annotations

import copy
import functools
import re
from dataclasses import dataclass, field
from typing import Any

from . import crd_schema

# A rule reads the old object by this name (the API server finds it in the compiled rule's references).
_OLD_SELF = re.compile(r"\boldSelf\b")


@dataclass(frozen=True)
class Rule:
    """One `x-kubernetes-validations` entry of a committed CRD schema."""

    node: str
    """The schema node it sits at: `spec.template.spec.requirements`, `[*]` for an array's items, `{*}` for a map's."""
    rule: str
    message: str
    field_path: str = ""
    transition: bool = False
    """Whether it reads `oldSelf`, and so runs only on update."""


@dataclass
class Evaluation:
    """The rules of one object: the errors, and which rules ran or were skipped as transition rules."""

    errors: list[str] = field(default_factory=list)
    """`path: message`, in the order the API server walks the object."""
    evaluated: set[Rule] = field(default_factory=set)
    transition_skipped: set[Rule] = field(default_factory=set)
    """The transition rules at nodes the object has: they run on update only."""
    not_reached: set[Rule] = field(default_factory=set)
    """The rules of nodes the object has no value at, which the API server does not run."""


def rules(api_version: str, kind: str) -> list[Rule]:
    """Every rule of the committed CRD schema of `apiVersion`/`kind`, in schema order."""
    return list(_rules(api_version, kind))


@functools.cache
def _rules(api_version: str, kind: str) -> tuple[Rule, ...]:
    found: list[Rule] = []
    _collect(crd_schema.crd_schemas()[(api_version, kind)]["schema"], "", found)
    return tuple(found)


def _collect(schema: dict[str, Any], node: str, found: list[Rule]) -> None:
    for entry in schema.get("x-kubernetes-validations", []):
        found.append(
            Rule(
                node or "<root>",
                entry["rule"],
                entry.get("message") or f"failed rule: {entry['rule']}",
                entry.get("fieldPath", ""),
                bool(_OLD_SELF.search(entry["rule"])),
            )
        )
    for name, sub in schema.get("properties", {}).items():
        _collect(sub, f"{node}.{name}" if node else name, found)
    if isinstance(schema.get("items"), dict):
        _collect(schema["items"], f"{node}[*]", found)
    if isinstance(schema.get("additionalProperties"), dict):
        _collect(schema["additionalProperties"], f"{node}{{*}}", found)


def evaluate(manifest: dict[str, Any]) -> Evaluation:
    """The committed CRD's rules on `manifest` (a create): every error, and which rules ran."""
    document = crd_schema.crd_schemas()[(manifest["apiVersion"], manifest["kind"])]
    schema = document["schema"]
    evaluation = Evaluation()
    rules_at: dict[str, list[Rule]] = {}
    for rule in _rules(manifest["apiVersion"], manifest["kind"]):
        rules_at.setdefault(rule.node, []).append(rule)
    _walk(schema, defaulted(schema, copy.deepcopy(manifest)), "", "", rules_at, evaluation)
    evaluation.not_reached = set(_rules(manifest["apiVersion"], manifest["kind"])) - (
        evaluation.evaluated | evaluation.transition_skipped
    )
    return evaluation


def violations(manifest: dict[str, Any]) -> list[str]:
    """Every rule `manifest` breaks, as `path: message` (empty when it passes them all)."""
    return evaluate(manifest).errors


def defaulted(schema: dict[str, Any], value: Any) -> Any:
    """`value` with the schema's `default`s filled in where a property is absent, as the API server defaults it."""
    if isinstance(value, dict):
        for name, sub in schema.get("properties", {}).items():
            if name not in value and "default" in sub:
                value[name] = copy.deepcopy(sub["default"])
            if name in value:
                value[name] = defaulted(sub, value[name])
        if isinstance(schema.get("additionalProperties"), dict) and "properties" not in schema:
            for key in value:
                value[key] = defaulted(schema["additionalProperties"], value[key])
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [defaulted(schema["items"], item) for item in value]
    return value


def _walk(
    schema: dict[str, Any],
    value: Any,
    node: str,
    path: str,
    rules_at: dict[str, list[Rule]],
    evaluation: Evaluation,
) -> None:
    if value is None:
        return
    for rule in rules_at.get(node or "<root>", []):
        if rule.transition:
            evaluation.transition_skipped.add(rule)
            continue
        evaluation.evaluated.add(rule)
        problem = _check(rule, value)
        if problem:
            where = f"{path}.{rule.field_path.lstrip('.')}" if rule.field_path else path
            evaluation.errors.append(f"{where or '<root>'}: {problem}")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name, sub in properties.items():
            if name in value:
                _walk(
                    sub,
                    value[name],
                    f"{node}.{name}" if node else name,
                    f"{path}.{name}" if path else name,
                    rules_at,
                    evaluation,
                )
        if isinstance(schema.get("additionalProperties"), dict) and not properties:
            for key, item in value.items():
                _walk(schema["additionalProperties"], item, f"{node}{{*}}", f"{path}[{key}]", rules_at, evaluation)
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(value):
            _walk(schema["items"], item, f"{node}[*]", f"{path}[{index}]", rules_at, evaluation)


def _check(rule: Rule, value: Any) -> str | None:
    """None when `rule` holds for `self` = `value`, else what the API server answers."""
    try:
        program = _program(rule.rule)
    except RuntimeError as error:
        # A function this runtime lacks: not the object's fault, but the plan cannot say the API server accepts it.
        return f"cannot be evaluated offline ({error}): rule {rule.rule}"
    try:
        result = program.eval(data={"self": value})
    except RuntimeError as error:
        return f"{error} evaluating rule: {rule.rule}"
    if result.type() == _cel().Type.ERROR:
        return f"{result.value()} evaluating rule: {rule.rule}"
    return None if result.value() is True else rule.message


@functools.cache
def _program(rule: str) -> Any:
    return _environment().compile(rule)


@functools.cache
def _cel() -> Any:
    from cel_expr_python import cel

    return cel


@functools.cache
def _environment() -> Any:
    from cel_expr_python.ext import ext_strings

    cel = _cel()
    # `self` is dynamic: the API server types it from the schema, which the structural check has already held.
    # `oldSelf` is declared so that transition rules compile too, though only an update would run them.
    find = cel.FunctionDecl(
        "find",
        [
            cel.Overload(
                "kubernetes_regex_string_find_string",
                cel.Type.STRING,
                [cel.Type.STRING, cel.Type.STRING],
                is_member=True,
                impl=_find,
            )
        ],
    )
    return cel.NewEnv(
        variables={"self": cel.Type.DYN, "oldSelf": cel.Type.DYN},
        extensions=[ext_strings.ExtStrings(), cel.CelExtension("kubernetes.regex", [find])],
    )


def _find(text: str, pattern: str) -> str:
    """Kubernetes' `<string>.find(<string>)`: the leftmost match of the RE2 `pattern` in `text`, or `''`."""
    import re2

    options = re2.Options()
    options.log_errors = False
    try:
        compiled = re2.compile(pattern, options)
    except re2.error as error:
        reason = error.args[0].decode() if error.args and isinstance(error.args[0], bytes) else str(error)
        raise ValueError(f"Illegal regex: {reason}") from error
    match = compiled.search(text)
    return match.group(0) if match else ""
