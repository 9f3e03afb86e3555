"""Problems with settings, as a user reads them: the full key, the bad value, what is allowed.

A problem's key is written where the user wrote the value. In the stack config that is the config
namespace and the key path (`eks-gpu-inference:gpuNodeGroup.minSize`, list positions as `.0`, as
always); in a component's arguments it is the argument path (`GpuNodeGroup(gpu-a).args.instanceTypes[0]`).
`Where` holds that choice; `problems_from` turns pydantic's errors into problems written with it.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.alias_generators import to_camel

from ..facts.identity import PROJECT


class ConfigProblem(ValueError):
    """One bad setting: the key (dotted path inside the project namespace) and what is wrong.

    A key of another namespace (a misspelt project name) is given whole, with `namespace=None`. Arguments
    of a component are written `<where>.<key>`: `namespace` is then the argument path and `separator` `.`.
    """

    def __init__(self, key: str, message: str, namespace: str | None = PROJECT, separator: str = ":"):
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message
        self.namespace = namespace
        self.separator = separator

    def __str__(self) -> str:
        key = f"{self.namespace}{self.separator}{self.key}" if self.namespace else self.key
        return f"{key}: {self.message}"

    def under(self, parent: str) -> ConfigProblem:
        """The same problem with its key inside `parent` (a section or argument path)."""
        return ConfigProblem(join_key(parent, self.key), self.message, self.namespace, self.separator)

    def written(self, where: Where) -> ConfigProblem:
        """The same problem with its key written for `where` (in Python names when `where` asks for them)."""
        if where.python_names:
            return ConfigProblem(python_key(self.key), python_text(self.message), where.namespace, where.separator)
        return ConfigProblem(self.key, self.message, where.namespace, where.separator)


class ConfigError(ValueError):
    """The stack config (or a component's arguments) is invalid; `problems` lists every bad setting at once."""

    def __init__(self, problems: list[ConfigProblem], subject: str = "stack config"):
        self.problems = problems
        self.title = f"Invalid {subject}"
        """What is invalid, as a report heads the problems: `Invalid stack config`."""
        lines = "\n".join(f"  - {problem}" for problem in problems)
        super().__init__(f"invalid {subject} ({len(problems)} problem(s)):\n{lines}")


class SectionProblems(ValueError):
    """The checks across the fields of one model failed (raised when a model is built directly)."""

    def __init__(self, problems: list[ConfigProblem]):
        self.problems = problems
        super().__init__("; ".join(f"{problem.key}: {problem.message}" for problem in problems))


@dataclass(frozen=True)
class Where:
    """How problem keys are written: the scope before the key, and how list positions read."""

    namespace: str | None
    """The config namespace (a project name) or an argument path such as `GpuNodeGroup(gpu-a).args`."""
    separator: str = ":"
    """Between the scope and the key: `:` after a config namespace, `.` after an argument path."""
    brackets: bool = False
    """List positions as `[0]`, also for an item of a list of plain values; otherwise `.0`, and a bad item of
    a plain list is reported on the list (its message quotes the item), as stack-config keys always were."""
    python_names: bool = False
    """Fields by their Python names (`instance_types`), as a Python caller spelt them; otherwise by their config
    keys (`instanceTypes`)."""


def stack_config(project: str = PROJECT) -> Where:
    """Keys of a stack config under `project`'s namespace: `project:section.key`."""
    return Where(project, ":", brackets=False)


def arguments(where: str, python_names: bool = True) -> Where:
    """Keys of a component's arguments: `where.key[0]`, `where` such as `GpuNodeGroup(gpu-a).args`, fields by
    their Python names unless `python_names` is false."""
    return Where(where, ".", brackets=True, python_names=python_names)


PYTHON_NAMES: dict[str, str] = {}
"""Config key -> Python name of every settings field whose two spellings differ (`instanceTypes`); each
settings model adds its fields as it is defined (`SectionModel.__pydantic_init_subclass__`)."""


# A field name in a key: at its start or after a dot, up to a dot, a position or the end.
_KEY_PART = re.compile(r"(?:^|(?<=\.))([a-z][A-Za-z0-9]*)(?=$|[.\[])")
# A camelCase word of a message outside quotes (quoted text is a value the user gave or may give).
_QUOTED_OR_WORD = re.compile(r"('[^']*'|\"[^\"]*\")|\b([a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+)\b")


def python_key(key: str) -> str:
    """`key` with every settings field in it by its Python name: `placement.taintEffect` becomes
    `placement.taint_effect`; map keys (a label key such as `nvidia.com/gpu`) and positions stay as written."""
    names = PYTHON_NAMES
    return _KEY_PART.sub(lambda match: names.get(match.group(1), match.group(1)), key)


def python_text(message: str) -> str:
    """`message` with the settings fields it names by their Python names (`minSize` becomes `min_size`)."""
    names = PYTHON_NAMES

    def replace(match: re.Match[str]) -> str:
        quoted, word = match.groups()
        return quoted or names.get(word, word)

    return _QUOTED_OR_WORD.sub(replace, message)


def _bad(value: Any, allowed: str, reason: str = "invalid value") -> ValueError:
    return ValueError(f"{reason} {value!r}; allowed: {allowed}")


def join_key(parent: str, key: str) -> str:
    """`key` inside `parent`; either may be empty, and a position `[0]` joins without a dot."""
    if not parent or not key:
        return parent or key
    return f"{parent}{key}" if key.startswith("[") else f"{parent}.{key}"


def key_path(location: Sequence[str | int], brackets: bool) -> str:
    """A pydantic error location as a config key: field names in camelCase, list positions `[0]` or `.0`."""
    key = ""
    for part in location:
        if isinstance(part, int) and brackets:
            key += f"[{part}]"
        else:
            key = join_key(key, str(to_camel(part) if isinstance(part, str) else part))
    return key


def problems_from(error: ValidationError, model: type[BaseModel], parent: str, where: Where) -> list[ConfigProblem]:
    """Every error of validating `model` (found at key `parent`) as problems written for `where`."""
    problems: list[ConfigProblem] = []
    for detail in error.errors():
        location = detail["loc"]
        if detail["type"] == "extra_forbidden":
            known = _known_keys(model, location[:-1])
            if where.python_names:
                known = [python_key(name) for name in known]
            # The unknown key as the user wrote it: camel-casing it would name another key (`MODEL` as `model`).
            unknown = str(location[-1])
            key = join_key(join_key(parent, key_path(location[:-1], where.brackets)), unknown)
            message = f"unknown key{suggestion(unknown, known)}; allowed: {', '.join(known)}"
            problems.append(ConfigProblem(key, message).written(where))
            continue
        if detail["type"] == "value_error" and location and isinstance(location[-1], int) and not where.brackets:
            location = location[:-1]
        message = detail["msg"].removeprefix("Value error, ")
        if _past_int64(detail):
            # yaml.v3 reads a whole number that neither int64 nor uint64 holds as a float (go-yaml v3 resolve.go),
            # so the setting gets 1e+23 for the 100000000000000000000000 the user wrote.
            message = (
                f"{detail['input']!r} is a whole number past 64 bits, which YAML reads as a floating-point number; "
                "allowed: an integer"
            )
        elif detail["type"] != "value_error":
            message = f"{message}; got {detail['input']!r}"
        key = join_key(parent, key_path(location, where.brackets))
        problems.append(ConfigProblem(key, message).written(where))
    return _unique(problems)


def _past_int64(detail: Any) -> bool:
    value = detail.get("input")
    return (
        detail["type"] == "int_type"
        and isinstance(value, float)
        and math.isfinite(value)
        and value.is_integer()
        and abs(value) >= 2**63
    )


def _unique(problems: Iterable[ConfigProblem]) -> list[ConfigProblem]:
    """Problems in order, each rendering once (two equal bad items of one list read the same)."""
    seen: set[str] = set()
    unique = []
    for problem in problems:
        if str(problem) not in seen:
            seen.add(str(problem))
            unique.append(problem)
    return unique


def _known_keys(model: type[BaseModel], location: tuple) -> list[str]:
    """The config keys allowed at `location` inside `model` (field aliases, in declaration order)."""
    for part in location:
        if isinstance(part, int):
            continue
        field = model.model_fields.get(part) or next((f for f in model.model_fields.values() if f.alias == part), None)
        annotation = getattr(field, "annotation", None)
        candidates = [annotation, *getattr(annotation, "__args__", ())]
        found = next((c for c in candidates if isinstance(c, type) and issubclass(c, BaseModel)), None)
        if found is None:
            return []
        model = found
    return [field.alias or name for name, field in model.model_fields.items()]


def suggestion(key: str, known: list[str] | tuple[str, ...]) -> str:
    """` 'key'; did you mean 'known'?` for the known key closest to `key` (difflib, else the same key in another
    case), or just ` 'key'`: the one way every unknown-key message names what was meant."""
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.5)
    if not close:
        lowered = {k.lower(): k for k in known}
        close = [lowered[key.lower()]] if key.lower() in lowered else []
    return f" {key!r}; did you mean {close[0]!r}?" if close else f" {key!r}"
