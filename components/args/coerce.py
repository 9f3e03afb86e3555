"""How a value becomes an instance of a component's args class: the class itself, or a mapping of its fields in
either spelling, nested args included; and `ArgumentError`, how a component reports bad arguments.

Every value that is not of an argument's shape (None for the args, another class, an unknown, repeated or
missing field, a mapping where a list belongs) is named by its argument path in Python names, with the value
and what is allowed, all at once and before any resource is registered.
"""

import dataclasses
import inspect
import types
import typing
from collections.abc import Mapping
from typing import Any

import pulumi
from pydantic.alias_generators import to_camel

from ..settings import ConfigError, ConfigProblem
from ..settings.errors import suggestion


class ArgumentError(ConfigError, pulumi.RunError):
    """A component's arguments are invalid: every problem at once, each named by its argument path in Python names
    (`GpuNodeGroup(gpu-a).args.instance_types[0]`), under the title `Invalid arguments to GpuNodeGroup(gpu-a)`.

    A `pulumi.RunError`, so that `pulumi up` and `pulumi preview` print the problems once, as one error, rather than
    a traceback ending in them (the Python language host logs a `RunError` by its message alone: pulumi/pulumi
    sdk/python/cmd/pulumi-language-python-exec, `except pulumi.RunError`).
    """

    def __init__(self, problems: list[ConfigProblem], where: str):
        super().__init__(problems, subject=f"arguments to {where.removesuffix('.args')}")


class StackConfigError(ConfigError, pulumi.RunError):
    """The stack config is invalid: the settings' `ConfigError` as a `pulumi.RunError`, so that `pulumi up` and
    `pulumi preview` print its problems once, without a traceback (see `ArgumentError`)."""


def coerce(cls: type, value: Any, where: str = "args") -> Any:
    """`value` as an instance of the args dataclass `cls`: itself, or built from a mapping of its fields.

    A component hosted in a Pulumi package (the schema path) receives its args as a mapping, nested args as nested
    mappings; a Python program passes the dataclass, or a mapping for a nested argument (`placement={...}`). A
    mapping's keys are the fields' Python names or their camelCase spelling (`taint_effect`, `taintEffect`).
    Raises `ArgumentError` naming every argument that is not of its shape (None, another class, an unknown or
    missing field) at once when no instance can be built; otherwise the arguments not of their shape are left
    None in the instance and their problems kept with it (`shape_problems`), so that the component's validation
    reports them together with the problems of every other value.
    """
    built, problems = _coerce(cls, value, where, required=True)
    if built is None:
        raise ArgumentError(problems, where)
    if problems:
        object.__setattr__(built, SHAPE_PROBLEMS, [*shape_problems(built), *problems])
    return built


def _coerce(cls: type, value: Any, where: str, required: bool = False) -> tuple[Any, list[ConfigProblem]]:
    """(`value` as `cls`, []) or (None, the problems), `None` allowed unless `required` (the component's args)."""
    if value is None and not required:
        return value, []
    # The annotations as written (this module's args classes keep none as strings); `typing.get_type_hints`
    # would try to resolve `pulumi.Input`'s own forward reference to `Output`.
    fields = {field.name: field for field in dataclasses.fields(cls)}
    if isinstance(value, cls):
        # Its nested args may still be mappings (`GpuNodeGroupArgs(placement={...})`), or of another class.
        nested = {name: getattr(value, name) for name, field in fields.items() if args_class(field.type) is not None}
        coerced = {name: _coerce_value(fields[name].type, item, f"{where}.{name}") for name, item in nested.items()}
        inner = [problem for _, found in coerced.values() for problem in found]
        changed = {name: item for name, (item, _) in coerced.items() if item is not nested[name]}
        return (_replaced(value, changed) if changed else value), inner
    if not isinstance(value, Mapping):
        return None, [argument_problem(where, f"{shown(value)}; allowed: {cls.__name__} or a mapping of its fields")]
    spelling = {**{to_camel(name): name for name in fields}, **{name: name for name in fields}}
    problems: list[ConfigProblem] = []
    given: dict[str, Any] = {}
    for key, item in value.items():
        name = spelling.get(key) if isinstance(key, str) else None
        if name is None:
            problems.append(
                argument_problem(
                    f"{where}.{key}",
                    f"unknown argument{suggestion(str(key), list(fields))}; allowed: {', '.join(fields)} (or "
                    "their camelCase spelling)",
                )
            )
        elif name in given:
            other = next(k for k in value if k != key and spelling.get(k) == name)
            problems.append(
                argument_problem(f"{where}.{name}", f"given twice, as {other!r} and {key!r}; allowed: one spelling")
            )
        else:
            given[name] = item
    missing = [name for name, field in fields.items() if _required(field) and name not in given]
    problems += [argument_problem(f"{where}.{name}", "missing; allowed: a value (required)") for name in missing]
    built: dict[str, Any] = {}
    for name, item in given.items():
        built[name], found = _coerce_value(fields[name].type, item, f"{where}.{name}")
        problems += found
    if missing:
        return None, problems
    return cls(**built), problems


def _replaced(args: Any, changes: Mapping[str, Any]) -> Any:
    """`args` with `changes`, still marked with the stack config section it came from, its validated settings
    section and its shape problems."""
    replaced = dataclasses.replace(args, **changes)
    for mark in (CONFIG_SECTION, SETTINGS_SECTION, SHAPE_PROBLEMS):
        if hasattr(args, mark):
            object.__setattr__(replaced, mark, getattr(args, mark))
    return replaced


def _required(field: dataclasses.Field) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


def shown(value: Any) -> str:
    """A wrong value as a message shows it: its type and a bounded repr."""
    if value is None:
        return "None"
    text = repr(value)
    text = text if len(text) <= 80 else text[:77] + "..."
    article = "an" if type(value).__name__[:1].lower() in "aeiou" else "a"
    return f"{article} {type(value).__name__} {text}"


def _coerce_value(annotation: Any, value: Any, where: str) -> tuple[Any, list[ConfigProblem]]:
    nested = args_class(annotation)
    if nested is None or value is None:
        return _whole_numbers(annotation, value), []
    if isinstance(value, pulumi.Output) or inspect.isawaitable(value):
        return value, []  # reported by `Validation.known`, which names every value unknown at construction
    if _is_list(annotation):
        if not isinstance(value, list | tuple):
            allowed = f"a list of {nested.__name__} or of mappings of its fields"
            return None, [argument_problem(where, f"{shown(value)}; allowed: {allowed}")]
        items = [_coerce(nested, item, f"{where}[{index}]") for index, item in enumerate(value)]
        problems = [problem for _, found in items for problem in found]
        # A list with a bad item is left out whole, so that its other items raise no problem about the gap.
        return (None if problems else [item for item, _ in items]), problems
    built, problems = _coerce(nested, value, where)
    return (None if problems else built), problems


def _whole_numbers(annotation: Any, value: Any) -> Any:
    """`value` as an int when it is a whole float and `annotation` wants an int. Pulumi sends every number as a
    float, and the package host's input mapping does not turn it back: its `int(...)` is overwritten by the
    next assignment (pulumi 3.272.0, pulumi/provider/experimental/component.py, `map_input_properties`). No
    args field holds ints inside a list or map."""
    if isinstance(value, float) and value.is_integer() and _wants_int(annotation):
        return int(value)
    return value


def flatten(annotation: Any) -> list[Any]:
    """`annotation` and, for a union (`X | None`, `pulumi.Input[X]`), its members."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [member for argument in typing.get_args(annotation) for member in flatten(argument)]
    return [annotation]


def _wants_int(annotation: Any) -> bool:
    members = flatten(annotation)
    return int in members and float not in members


def args_class(annotation: Any) -> type | None:
    """The args dataclass inside `annotation` (`Optional[X]`, `list[X]`), if any."""
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
        return annotation
    for argument in typing.get_args(annotation):
        found = args_class(argument)
        if found is not None:
            return found
    return None


def _is_list(annotation: Any) -> bool:
    if typing.get_origin(annotation) is list:
        return True
    return any(_is_list(argument) for argument in typing.get_args(annotation))


def argument_problem(key: str, message: str) -> ConfigProblem:
    """A problem with the argument at path `key` (`GpuNodeGroup(gpu-a).args.placement`), written as it is."""
    return ConfigProblem(key, message, namespace=None)


# The attribute `args_from_settings` sets on the args it makes: the stack config section they came from.
CONFIG_SECTION = "_config_section"


def config_section(args: Any) -> str | None:
    """The stack config section `args` were made from by `args_from_settings` (`cluster`), or None."""
    return getattr(args, CONFIG_SECTION, None)


# The attribute `args_from_settings` sets on the args it makes when they say what the settings section says: the
# section itself, already validated.
SETTINGS_SECTION = "_settings_section"


def settings_section(args: Any) -> Any:
    """The validated settings section `args` were made from by `args_from_settings`, or None (a caller's own args,
    or args that say something the section does not)."""
    return getattr(args, SETTINGS_SECTION, None)


# The attribute `coerce` sets on args some of whose arguments were not of their shape (and are left None).
SHAPE_PROBLEMS = "_shape_problems"


def shape_problems(args: Any) -> list[ConfigProblem]:
    """The problems of the arguments of `args` that `coerce` found not of their shape."""
    return list(getattr(args, SHAPE_PROBLEMS, []))
