"""The stack config as Pulumi hands it over: `config_from_pulumi` reads it from the running program, and
`parse_stack_config` checks what only the whole config shows (namespaces, secrets) before `parse_settings`.

Pulumi is imported only inside `config_from_pulumi`, so the offline tools parse a stack file without it.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Collection, Mapping
from typing import Any

from ..facts.identity import PROJECT
from ..facts.regions import region_problem
from .errors import ConfigError, ConfigProblem, stack_config
from .hub_models import HubReads
from .network import for_region, region_zone_problems
from .region import amp_problems, arn_problems
from .stack import SECRET_KEYS, TOP_LEVEL_KEYS, Settings, parse_settings

REGION_KEY = "aws:region"
# Namespaces at least this similar to the project's are taken for a misspelling of it.
_NAMESPACE_SIMILARITY = 0.8
# Providers' own config keys that share a name with a key of this project: `kubernetes:cluster` names the
# kubeconfig cluster pulumi-kubernetes uses (https://www.pulumi.com/registry/packages/kubernetes/
# installation-configuration/), and is no misplaced `cluster` section.
_PROVIDER_KEYS = {"kubernetes": {"cluster"}}
# Go's `Time.String()` ("2006-01-02 15:04:05.999999999 -0700 MST"), which is what the Pulumi CLI hands the program
# for an unquoted YAML date or time in the stack file (pulumi/pulumi sdk/go/common/resource/config/object.go,
# `unmarshalObject`: `time.Time` -> `v.String()`; components/stackcheck/stack_yaml.py has the whole story).
_GO_TIME_TEXT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})? [+-][0-9]{4} \S+")


def parse_stack_config(
    config: Mapping[str, Any],
    secret_keys: Collection[str] = (),
    project: str = PROJECT,
    hub_reads: HubReads | None = None,
) -> Settings:
    """Build `Settings` from a whole stack config (`namespace:key` -> value), as Pulumi hands it over.

    Beyond `parse_settings`, this catches what only the whole config shows: keys under a namespace
    that is a misspelling of the project's (their section would be silently ignored), a secret key of this
    project under any other namespace (the program would run without it), a secret key such as `hfToken`
    given in plain text (the Pulumi CLI refuses that for keys `Pulumi.yaml` declares secret), a dotted key
    such as `network.cidr`, which Pulumi takes as one name, not a path, and `aws:region` against botocore's
    endpoint data, with the network's zones against that region's (facts/regions.py). Every problem is
    reported at once, each key written `project:key`. `namespace_warnings` gives the keys of this project under
    other namespaces. `hub_reads`: what the Hub told at preview of the models `pool: auto` sizes that the stack
    does not describe (hub_models.py); without them such a model has no pool.
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
    region = _region(config.get(REGION_KEY), problems)
    # A secret's value is never quoted back (it would reach the log); its own rule answers it.
    dates = _go_time_problems({key: value for key, value in values.items() if key not in SECRET_KEYS}, [], project)
    problems.extend(dates)
    try:
        settings = parse_settings(values, project, hub_reads)
    except ConfigError as error:
        # A date's key is answered once: by what it is, rather than by the rule the changed text then fails.
        dated = {problem.key for problem in dates}
        problems.extend(problem for problem in error.problems if problem.key not in dated)
    else:
        if region:
            settings = _in_region(settings, region, problems, project)
        elif config.get(REGION_KEY) is None and settings.observability.prometheus.amp_partition() is None:
            problems.extend(_amp_without_region(settings, project))
    if problems:
        raise ConfigError(problems)
    return settings


def _in_region(settings: Settings, region: str, problems: list[ConfigProblem], project: str) -> Settings:
    """`settings` resolved for `region` (its default zone count), with what the region refuses added to
    `problems`: ARNs of another partition or region, zones the region lacks."""
    where = stack_config(project)
    settings = settings.model_copy(update={"region": region})
    problems.extend(problem.under("cluster").written(where) for problem in arn_problems(settings.cluster, region))
    problems.extend(
        problem.under("observability.prometheus").written(where)
        for problem in amp_problems(settings.observability.prometheus, region)
    )
    if not settings.creates_network:
        return settings
    settings = settings.model_copy(update={"network": for_region(settings.network, region)})
    problems.extend(
        problem.under("network").written(where) for problem in region_zone_problems(settings.network, region)
    )
    return settings


def _go_time_problems(value: Any, path: list[str], project: str) -> list[ConfigProblem]:
    """A problem for each value that is Go's text of a time: an unquoted date in the stack file, which the user
    meant as the text they wrote (`revision: 2026-01-01`) and the Pulumi CLI changed on the way."""
    if isinstance(value, str) and path and _GO_TIME_TEXT.fullmatch(value):
        written = f"'{value[: len('2026-01-01')]}'" if value.endswith(" 00:00:00 +0000 UTC") else "the value as written"
        return [
            ConfigProblem(
                ".".join(path),
                f"{value!r} is the Pulumi CLI's text of a date: the stack file has it unquoted, so YAML read it as a "
                f"date, not as text; allowed: {written} in quotes in the stack file (no setting takes a date or time)",
                project,
            )
        ]
    if isinstance(value, Mapping):
        return [
            problem for key, item in value.items() for problem in _go_time_problems(item, [*path, str(key)], project)
        ]
    if isinstance(value, list):
        return [
            problem
            for index, item in enumerate(value)
            for problem in _go_time_problems(item, [*path, str(index)], project)
        ]
    return []


def _amp_without_region(settings: Settings, project: str) -> list[ConfigProblem]:
    """A workspace ID with no `aws:region`: its query endpoint is named by its region, which only an ARN then gives."""
    workspace = settings.observability.prometheus.amp_workspace
    if not workspace:
        return []
    problem = ConfigProblem(
        "observability.prometheus.ampWorkspace",
        f"{workspace!r} is a workspace ID, and aws:region is not set to say its region; allowed: the workspace's "
        "ARN arn:aws:aps:<region>:<account>:workspace/<id>, or set aws:region",
    )
    return [problem.written(stack_config(project))]


def _region(value: Any, problems: list[ConfigProblem]) -> str | None:
    """The configured region when it is one where EKS runs; otherwise None, with its problem added.

    Without `aws:region` the provider takes the region from `AWS_REGION` or `AWS_DEFAULT_REGION` (pulumi_aws
    `config/vars.py`, `region`), which only the
    deployment sees; the zones are then checked by the deployment's own lookup.
    """
    if value is None:
        return None
    if not isinstance(value, str):
        problems.append(
            ConfigProblem(
                REGION_KEY, f"{type(value).__name__} value {value!r}; allowed: a region name such as us-west-2", None
            )
        )
        return None
    problem = region_problem(value)
    if problem:
        problems.append(ConfigProblem(REGION_KEY, problem, None))
        return None
    return value


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
        # A dotted key is a path inside a section: without --path, Pulumi would store the dotted key that
        # parse_stack_config refuses.
        command = f"pulumi config set --path '{key}' <value>" if "." in key else f"pulumi config set {key} <value>"
        found.append(
            f"{full_key}: {head!r} is a key of this project under namespace {namespace!r}, which this program "
            f"does not read; it reads {project}:{key} ({command})"
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
