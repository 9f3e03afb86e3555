"""What the components' public args have in common: how args become validated settings, and the placement
contract as plain inputs.

Each component's args class (`GpuNodeGroupArgs`, `VllmServerArgs`, ...) is a keyword-only dataclass of plain
inputs: strings, numbers, booleans, lists, maps of strings and nested args classes, so that Pulumi's schema
analyzer (`pulumi.provider.experimental.analyzer`) can describe it to other languages. The classes are written
into each concern's args.py from the one declaration of each input (its inputs.py): a field the stack config
has too has that settings field's name, so `Validation.section` checks every args field a settings model has
with that model's rules and messages. A field left `None` takes the default its docstring names. Fields
annotated without `pulumi.Input` must be plain values known when the component is constructed: they shape
resources (instance types, sizes, names), so they are validated then, each problem named by its argument path
(`GpuNodeGroup(gpu-a).args.instance_types[0]`, in the Python names the caller wrote), before any resource is
registered. Args made from a stack config section (`args_from_settings`) carry the section, validated with the
whole config, which `Validation.section` takes as it is: a value is validated as settings once.
"""

import collections.abc
import dataclasses
import inspect
import re
import typing
from collections.abc import Mapping
from typing import Any

import pulumi
from pydantic.alias_generators import to_camel, to_snake

from ..facts.aws_tags import tag_problems
from ..facts.contract import PlacementContract, Taint
from ..settings import (
    ConfigError,
    ConfigProblem,
    GpuNodeGroupSettings,
    GpuPlacementSettings,
    arguments,
    check_namespace_name,
    contract_problems,
    validate_section,
)
from ..settings.errors import python_key, python_text
from ..settings.section import SectionModel
from .coerce import (
    CONFIG_SECTION,
    SETTINGS_SECTION,
    ArgumentError,
    argument_problem,
    coerce,
    config_section,
    flatten,
    settings_section,
    shape_problems,
    shown,
)
from .placement import PlacementArgs, TaintArgs

# A Kubernetes Service name is an RFC 1035 label: lowercase letters, digits and '-', starting with a letter,
# ending with a letter or digit, at most 63 characters (Kubernetes docs, "Object Names and IDs", RFC 1035
# Label Names); the other objects' names (RFC 1123 subdomains) accept every such name.
_RFC1035_LABEL = re.compile(r"^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$")


def args_path(component: str, name: str) -> str:
    """How problems name a component's args: `GpuNodeGroup(gpu-a).args`; raises `ArgumentError` when `name`, the
    component's resource name, is not a non-empty string (Pulumi names resources by strings)."""
    if not isinstance(name, str) or not name:
        where = f"{component}({name!r})"
        raise ArgumentError([argument_problem(f"{where}.name", f"{shown(name)}; allowed: a non-empty string")], where)
    return f"{component}({name}).args"


def plain_fields(cls: type) -> tuple[str, ...]:
    """The fields of the args dataclass `cls` that must be known at construction: neither `pulumi.Input` nor a
    resource (what the package schema marks plain)."""
    return tuple(field.name for field in dataclasses.fields(cls) if _is_plain(field.type))


def _is_plain(annotation: Any) -> bool:
    for member in flatten(annotation):
        if typing.get_origin(member) is collections.abc.Awaitable:
            return False
        if isinstance(member, type) and issubclass(member, pulumi.Resource):
            return False
    return True


def settings_data(args: Any, model: type[SectionModel]) -> dict[str, Any]:
    """The fields of `args` that are set and that the settings model `model` has, as its camelCase mapping (nested
    args as mappings)."""
    return {
        to_camel(field.name): _plain(value)
        for field in dataclasses.fields(args)
        if field.name in model.model_fields and (value := getattr(args, field.name)) is not None
    }


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            to_camel(field.name): _plain(item)
            for field in dataclasses.fields(value)
            if (item := getattr(value, field.name)) is not None
        }
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _is_unknown(value: Any) -> bool:
    if isinstance(value, pulumi.Output) or inspect.isawaitable(value):
        return True
    if isinstance(value, list | tuple):
        return any(_is_unknown(item) for item in value)
    if isinstance(value, dict):
        return any(_is_unknown(item) for item in value.values())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # Only its plain fields: those typed `pulumi.Input` may be Outputs (`ClusterNetwork`'s ids).
        return any(_is_unknown(getattr(value, name)) for name in plain_fields(type(value)))
    return False


class Validation:
    """Collects the problems of several sections of one component's args, raised together by `done`, and the
    warnings about them, given by `done` when there is no problem.

    Warnings name each argument as its caller wrote it: a Python program's by the argument path
    (`EksCluster(ml).args.public_access_cidrs`), a stack program's args made from its config
    (`args_from_settings`) by the config key (`eks-gpu-inference:cluster.publicAccessCidrs`).
    """

    def __init__(self, where: str, args: Any = None):
        self.where = where
        self.config_section = config_section(args)
        """The stack config section the args were made from, else None (a Python caller's args)."""
        self.problems: list[ConfigProblem] = shape_problems(args)
        """Every problem found, starting with those of the arguments not of their shape (`coerce`)."""
        self.warnings: list[str] = []
        self._unknown: list[str] = []
        """Paths of the arguments given values unknown at construction, already reported as such."""

    def known(self, args: Any) -> Any:
        """`args` with each of its plain fields that holds an Output (or awaitable) reported and set to None, so
        that the other checks run on what is known and every problem is raised at once by `done`; later problems
        of an argument reported here are dropped rather than repeated about its placeholder."""
        unknown = [name for name in plain_fields(type(args)) if _is_unknown(getattr(args, name))]
        for name in unknown:
            path = f"{self.where}.{name}"
            self.add(
                [
                    argument_problem(
                        path,
                        "an Output or awaitable; allowed: a plain value known when the component is constructed "
                        "(it shapes the resources)",
                    )
                ]
            )
            self._unknown.append(path)
        return dataclasses.replace(args, **dict.fromkeys(unknown)) if unknown else args

    def section(
        self, model: type[SectionModel], args: Any, at: str = "", defaults: Mapping[str, Any] | None = None
    ) -> Any:
        """The fields of `args` that the settings model `model` has, validated as `model`, its problems named
        under `where` (and `at` inside it); None if bad. `defaults` (camelCase keys) stand in for fields left
        None where the component's default is not the model's (a server's namespace is its name).

        Args made from a stack config section (`args_from_settings`) carry that section, validated with the whole
        config: it is taken as it is, unless a default of the component's would change it."""
        carried = settings_section(args)
        if isinstance(carried, model) and _keeps_defaults(carried, args, defaults or {}):
            return carried
        data = {**(defaults or {}), **settings_data(args, model)}
        try:
            return validate_section(
                model, data, where=f"{self.where}.{python_key(at)}" if at else self.where, python_names=True
            )
        except ConfigError as error:
            self.add(error.problems)
            return None

    def add(self, problems: list[ConfigProblem]) -> None:
        """Adds `problems`, their keys and messages in the Python names of the fields they name."""
        for problem in problems:
            problem = ConfigProblem(
                python_key(problem.key), python_text(problem.message), problem.namespace, problem.separator
            )
            text = str(problem)
            if not any(text.startswith((f"{path}:", f"{path}.", f"{path}[")) for path in self._unknown):
                self.problems.append(problem)

    def object_name(self, name: object) -> str:
        """`name`, checked as the component's Kubernetes object name (argument `name`); the args' annotation is
        not enforced at run time, so any value may arrive."""
        if not isinstance(name, str):
            self.add([argument_problem(f"{self.where}.name", f"{shown(name)}; allowed: a string")])
            return ""
        self.add(check_object_name(name, f"{self.where}.name"))
        return name

    def namespace(self, namespace: object) -> str:
        """`namespace`, checked as the namespace the component's objects go to (argument `namespace`)."""
        if not isinstance(namespace, str):
            self.add([argument_problem(f"{self.where}.namespace", f"{shown(namespace)}; allowed: a string")])
            return ""
        try:
            check_namespace_name(namespace)
        except ValueError as error:
            self.add([ConfigProblem(f"{self.where}.namespace", str(error), namespace=None)])
        return namespace

    def tags(self, tags: object, field: str = "tags") -> None:
        """Checks the AWS tags of argument `field` (facts/aws_tags.py), each problem named by its key."""
        if tags is not None and not isinstance(tags, Mapping):
            self.add(
                [argument_problem(f"{self.where}.{field}", f"{shown(tags)}; allowed: a mapping of tag keys to values")]
            )
            return
        for key, message in tag_problems(tags or {}):
            self.add([argument_problem(f"{self.where}.{field}[{key!r}]", message)])

    def key(self, field: str, section: str | None = None) -> str:
        """How a warning names the argument `field` (a Python name): by its argument path, or by its config key
        (inside `section`, else the args' own section) when the args came from the stack config."""
        if self.config_section is None:
            return f"{self.where}.{field}"
        return f"{pulumi.get_project()}:{section or self.config_section}.{to_camel(field)}"

    def warn(self, warning: str) -> None:
        """Adds a warning, given by `done` once the args hold."""
        self.warnings.append(warning)

    def secret(self, field: str, value: Any, config_key: str) -> None:
        """Warns when the secret argument `field` is a plain string rather than a Pulumi secret; a value that is
        neither a string nor an Output (or awaitable) is a problem."""
        if value is not None and not isinstance(value, str) and not _is_unknown(value):
            self.add(
                [argument_problem(f"{self.where}.{field}", f"{shown(value)}; allowed: a string, or an Output of one")]
            )
        elif isinstance(value, str):
            self.warn(
                f"{self.key(field)} is a plain string, so the secret is written in the program or read from an "
                f"unencrypted source; pass pulumi.Output.secret(...) or a config secret "
                f"(pulumi config set --secret {config_key} <value>, then pulumi.Config().require_secret("
                f"{config_key!r}))"
            )

    def done(self) -> None:
        """Raises `ArgumentError` with every problem collected, if any; else logs every warning collected."""
        if self.problems:
            raise ArgumentError(self.problems, self.where)
        for warning in self.warnings:
            # Not tied to a resource: a log tied to one is sent later and can be lost at exit.
            pulumi.log.warn(warning)


def _keeps_defaults(section: SectionModel, args: Any, defaults: Mapping[str, Any]) -> bool:
    """Whether `section` already has each of the component's `defaults` (camelCase keys) that `args` leave to it."""
    for key, value in defaults.items():
        name = to_snake(key)
        if getattr(args, name, None) is None and getattr(section, name) != value:
            return False
    return True


def check_object_name(name: str, key: str) -> list[ConfigProblem]:
    """A Kubernetes object name that is also a valid Service name (an RFC 1035 label)."""
    if _RFC1035_LABEL.match(name):
        return []
    return [
        argument_problem(
            key,
            f"invalid name {name!r}; allowed: 1-63 lowercase letters, digits or '-', starting with a letter and "
            "ending with a letter or digit (a Kubernetes Service name); pass the name explicitly when the "
            "component name is not one",
        )
    ]


def placement_contract(placement: PlacementArgs | None, validation: Validation, at: str = "placement"):
    """The placement contract of `placement` (the default contract when None), and whether workloads must also
    carry a required node-affinity term; validated into `validation` (None, False when invalid)."""
    placement = placement or PlacementArgs()
    rules = validation.section(GpuPlacementSettings, placement, at)
    extras = validation.section(GpuNodeGroupSettings, placement, at)
    if rules is None or extras is None:
        return None, False
    contract = PlacementContract(
        label_key=rules.label_key,
        label_value=rules.label_value,
        taint=Taint(rules.taint_key, rules.taint_value, rules.taint_effect),
        extra_labels=dict(extras.extra_labels),
        extra_taints=tuple(taint.to_taint() for taint in extras.extra_taints),
    )
    problems = [
        problem.under(at).written(arguments(validation.where)) for problem in contract_problems(contract, "taintKey")
    ]
    if problems:
        validation.add(problems)
        return None, False
    return contract, rules.require_node_affinity


def contract_of(placement: PlacementArgs | None, where: str = "PlacementArgs") -> PlacementContract:
    """The placement contract `placement` describes, for a program's own GPU workloads (`node_selector()`,
    `tolerations()`, `node_affinity()`), given as `PlacementArgs` or a mapping of its fields; raises `ArgumentError`
    naming every bad field under `where`."""
    if placement is not None:
        placement = coerce(PlacementArgs, placement, where)
    validation = Validation(where, placement)
    contract, _ = placement_contract(placement, validation, "")
    validation.done()
    return contract


def placement_args(contract: PlacementContract, require_node_affinity: bool = False) -> PlacementArgs:
    """The args form of a placement contract (for programs that start from the stack settings)."""
    return PlacementArgs(
        label_key=contract.label_key,
        label_value=contract.label_value,
        taint_key=contract.taint.key,
        taint_value=contract.taint.value,
        taint_effect=contract.taint.effect,
        require_node_affinity=require_node_affinity,
        extra_labels=dict(contract.extra_labels),
        extra_taints=[TaintArgs(key=t.key, value=t.value, effect=t.effect) for t in contract.extra_taints],
    )


def args_from_settings(cls: type, section: Any, /, config_key: str | None = None, **values: Any) -> Any:
    """`cls` with the fields of a settings section (a pydantic model) it shares and the config sets, plus
    `values`: how a program that reads the stack config hands a section to a component. `config_key` is where
    the config sets the section when that is not its own key (a pool of `gpuPools`, a model of `models`)."""
    names = {field.name for field in dataclasses.fields(cls)}
    # Only what the config sets: a default is the component's own, and "set" matters to some rules (azCount).
    given = section.model_dump(exclude_unset=True)
    shared = {key: value for key, value in given.items() if key in names and key not in values}
    args = coerce(cls, {**shared, **values}, cls.__name__)
    # Remembered so that the component's warnings name the config keys the stack's user wrote.
    object.__setattr__(args, CONFIG_SECTION, config_key or _section_key(section))
    # The section holds already (a settings model validates whenever it is built; the stack's with the whole
    # config): the component takes it as it is rather than validating the args made from it again. Not when a
    # value given here says otherwise than the section, or an argument is not of its shape: the component then
    # validates the args as it does any caller's.
    model = type(section)
    agrees = all(getattr(section, name) == value for name, value in values.items() if name in model.model_fields)
    if isinstance(section, SectionModel) and agrees and not shape_problems(args):
        object.__setattr__(args, SETTINGS_SECTION, section)
    return args


def _section_key(section: Any) -> str | None:
    """The stack config key of a settings section (`cluster` for `ClusterSettings`), if it is one."""
    from ..settings.stack import SECTIONS

    return next((key for key, model in SECTIONS.items() if type(section) is model), None)
