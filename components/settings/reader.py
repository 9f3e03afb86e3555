"""The stack config as Pulumi hands it over: `config_from_pulumi` reads it from the running program, and
`parse_stack_config` checks what only the whole config shows (namespaces, secrets) before `parse_settings`.

Pulumi is imported only inside `config_from_pulumi`, so the offline tools parse a stack file without it.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Collection, Mapping
from typing import Any

from ..facts.identity import PROJECT
from .errors import ConfigError, ConfigProblem
from .stack import SECRET_KEYS, TOP_LEVEL_KEYS, Settings, parse_settings

# Namespaces at least this similar to the project's are taken for a misspelling of it.
_NAMESPACE_SIMILARITY = 0.8
# Providers' own config keys that share a name with a key of this project: `kubernetes:cluster` names the
# kubeconfig cluster pulumi-kubernetes uses (https://www.pulumi.com/registry/packages/kubernetes/
# installation-configuration/), and is no misplaced `cluster` section.
_PROVIDER_KEYS = {"kubernetes": {"cluster"}}


def parse_stack_config(
    config: Mapping[str, Any], secret_keys: Collection[str] = (), project: str = PROJECT
) -> Settings:
    """Build `Settings` from a whole stack config (`namespace:key` -> value), as Pulumi hands it over.

    Beyond `parse_settings`, this catches what only the whole config shows: keys under a namespace
    that is a misspelling of the project's (their section would be silently ignored), a secret key of this
    project under any other namespace (the program would run without it), a secret key such as `hfToken`
    given in plain text (the Pulumi CLI refuses that for keys `Pulumi.yaml` declares secret), and a dotted key
    such as `network.cidr`, which Pulumi takes as one name, not a path. Every problem is reported at once, each
    key written `project:key`. `namespace_warnings` gives the keys of this project under other namespaces.
    """
    problems: list[ConfigProblem] = []
    values: dict[str, Any] = {}
    for full_key, value in config.items():
        namespace, _, key = full_key.rpartition(":")
        if namespace == project:
            dotted = _dotted_key_problem(key)
            if dotted:
                problems.append(dotted)
            else:
                values[key] = value
        elif namespace and key in SECRET_KEYS:
            problems.append(
                ConfigProblem(
                    full_key,
                    f"this project's secret {key} under namespace {namespace!r}, which the program never reads "
                    f"(it would run without it); allowed: {project}:{key}, set with pulumi config set --secret "
                    f"{key} <value>",
                    namespace=None,
                )
            )
        elif namespace and difflib.SequenceMatcher(None, namespace, project).ratio() >= _NAMESPACE_SIMILARITY:
            problems.append(
                ConfigProblem(
                    full_key,
                    f"namespace {namespace!r} is not this project's; did you mean "
                    f"{project}:{key}? allowed: keys under {project}: (other namespaces, such as "
                    "aws:, belong to their providers)",
                    namespace=None,
                )
            )
    for key in SECRET_KEYS:
        if values.get(key) is not None and f"{project}:{key}" not in secret_keys:
            problems.append(
                ConfigProblem(
                    key,
                    f"is set in plain text (value not shown); allowed: a secret value, "
                    f"set with pulumi config set --secret {key} <value>",
                    project,
                )
            )
    try:
        settings = parse_settings(values, project)
    except ConfigError as error:
        problems.extend(error.problems)
    if problems:
        raise ConfigError(problems)
    return settings


def namespace_warnings(config: Mapping[str, Any], project: str = PROJECT) -> list[str]:
    """Keys of this project (`vllm`, `network.cidr`) under another namespace, which the program does not read.

    A misspelt project namespace and a secret key are problems of `parse_stack_config`; the rest may be another
    program's own config, so they are warnings naming the key and the one the program reads.
    """
    found = []
    for full_key in config:
        namespace, _, key = full_key.rpartition(":")
        head = key.split(".", 1)[0]
        if (
            not namespace
            or namespace == project
            or head not in TOP_LEVEL_KEYS
            or key in SECRET_KEYS
            or head in _PROVIDER_KEYS.get(namespace, ())
            or difflib.SequenceMatcher(None, namespace, project).ratio() >= _NAMESPACE_SIMILARITY
        ):
            continue
        found.append(
            f"{full_key}: {head!r} is a key of this project under namespace {namespace!r}, which this program "
            f"does not read; it reads {project}:{key} (pulumi config set {key} <value>)"
        )
    return found


def _dotted_key_problem(key: str) -> ConfigProblem | None:
    """A key such as `network.cidr`: one name to Pulumi, which is what `pulumi config set` without `--path`
    writes; the value belongs inside the `network` object."""
    head, dot, rest = key.partition(".")
    if not dot or head not in TOP_LEVEL_KEYS:
        return None
    return ConfigProblem(
        key,
        f"unknown key {key!r}: Pulumi takes a dotted key as one name, not a path; allowed: {rest} inside "
        f"{head}, as pulumi config set --path '{key}' <value> writes it",
    )


def config_from_pulumi() -> tuple[dict[str, Any], set[str]]:
    """The running Pulumi program's whole stack config as Python values, and the keys that are secret.

    Objects arrive as JSON text (that is how Pulumi passes structured config); secret keys stay text.
    """
    from pulumi.runtime import config as runtime_config

    keys = {*runtime_config.CONFIG.get(), *runtime_config.get_config_env()}
    secret_keys = {key for key in keys if runtime_config.is_config_secret(key)}
    values: dict[str, Any] = {}
    for full_key in sorted(keys):
        raw = runtime_config.get_config(full_key)
        if full_key in secret_keys or not isinstance(raw, str):
            values[full_key] = raw
            continue
        try:
            values[full_key] = json.loads(raw)
        except json.JSONDecodeError:
            values[full_key] = raw
    return values, secret_keys
