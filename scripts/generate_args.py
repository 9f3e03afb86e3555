"""The components' args classes as source, from their one declaration (components/inputs.py and the settings
models), and how a settings field reads in every text derived from it.

A field's docstring says what it is; its default sentence comes from its default: a value is rendered from
the value ("Default 0.", "Default `g5.xlarge`."), so the docstring never repeats it, and only a default that is
no value (`None`, an empty list, a nested model) may be explained in the docstring's last sentence ("Default:
the model id."). `DeclarationError` names every field that breaks a rule of the declaration.
"""

from __future__ import annotations

import ast
import functools
import inspect
import json
import re
import textwrap
import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from components.inputs import ARGS, STACK_ONLY, Args, Own, Take
from components.settings.section import SectionModel

ARGS_PACKAGE = "components/args"
"""Where the args modules are written, one per component module (relative to the repository root)."""
_DEFAULT_SENTENCE = re.compile(r"(?:^|(?<=\. ))Default\b")


class DeclarationError(Exception):
    """The declaration breaks a rule; the message lists each problem."""


@dataclass(frozen=True)
class SettingsField:
    """One field of a settings model as the derived texts read it."""

    name: str
    key: str
    """Its stack-config key (camelCase)."""
    annotation: Any
    required: bool
    default: Any
    description: str
    """The docstring without its default sentence, on one line."""
    default_sentence: str
    """`Default ...` or `Required.`"""

    @property
    def nested(self) -> type[SectionModel] | None:
        """The settings model of the field's value, or of its items."""
        return _nested_model(self.annotation)


def class_docstrings(cls: type) -> dict[str, str]:
    """The docstring under each annotated attribute in the source of `cls` (not its bases), on one line."""
    return dict(_class_docstrings(cls))


@functools.cache
def _class_docstrings(cls: type) -> dict[str, str]:
    # Read once per class: every args class and check asks again for the models it takes (170 source reads).
    body = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0].body
    found = {}
    for node, following in zip(body, body[1:], strict=False):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            found[node.target.id] = one_line(following.value.value)
    return found


def one_line(text: str | None) -> str:
    """`text` with every run of whitespace, line breaks and indentation too, as one space."""
    return " ".join((text or "").split())


def settings_fields(model: type[SectionModel], keys: tuple[str, ...] | None = None) -> list[SettingsField]:
    """The fields of `model` (those of stack-config `keys` only, if given) in the order its source declares them
    (a base's fields it does not redeclare last), each with its docstring and default sentence; raises
    `DeclarationError` naming each field that breaks a rule."""
    docs: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        if isinstance(cls, type) and issubclass(cls, SectionModel):
            docs.update(class_docstrings(cls))
    declared = [name for name in inspect.get_annotations(model) if name in model.model_fields]
    names = list(dict.fromkeys([*declared, *model.model_fields]))
    if keys is not None:
        names = [name for name in names if (model.model_fields[name].alias or name) in keys]
    problems, fields = [], []
    for name in names:
        info = model.model_fields[name]
        where = f"{model.__name__}.{name}"
        if name not in docs:
            problems.append(f"{where}: no docstring")
            continue
        description, stated = split_default(docs[name])
        required = info.is_required()
        default = None if required else info.get_default(call_default_factory=True)
        sentence, problem = _default_sentence(default, required, stated)
        if problem:
            problems.append(f"{where}: {problem}")
        fields.append(
            SettingsField(name, info.alias or name, _annotation(info), required, default, description, sentence)
        )
    if problems:
        raise DeclarationError("; ".join(problems))
    return fields


def split_default(doc: str) -> tuple[str, str | None]:
    """A docstring as (what the field is, its last sentence when that starts with `Default`, else None)."""
    found = list(_DEFAULT_SENTENCE.finditer(doc))
    if not found:
        return doc, None
    start = found[-1].start()
    return doc[:start].rstrip(), doc[start:]


def render_value(value: Any) -> str | None:
    """A default as the texts write it (`` `g5.xlarge` ``, `0.9`, `true`, `none`), None if it is no plain value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return f"`{value}`" if value else "empty"
    if isinstance(value, list | tuple) and all(isinstance(item, str | int) for item in value):
        return ", ".join(f"`{item}`" for item in value) if value else "none"
    if isinstance(value, dict) and not value:
        return "none"
    return None


def _default_sentence(default: Any, required: bool, stated: str | None) -> tuple[str, str | None]:
    """(The default sentence, a problem or None.)"""
    if required:
        return "Required.", "a required field states a default" if stated else None
    rendered = render_value(default)
    explainable = default is None or rendered in ("none", "empty") or isinstance(default, SectionModel)
    if not explainable:
        if rendered is None:
            return "", f"a default {default!r} the texts cannot write; give a plain value or None"
        if stated:
            return f"Default {rendered}.", f"its docstring repeats the default {default!r}, which the value states"
        return f"Default {rendered}.", None
    if stated:
        return stated, None
    if isinstance(default, SectionModel):
        return "Default: the defaults of its fields.", None
    if rendered is None:
        return "", "the default is None: end the docstring with a sentence `Default: <what that means>.`"
    return f"Default {rendered}.", None


def _annotation(info: Any) -> Any:
    return Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation


def _nested_model(annotation: Any) -> type[SectionModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, SectionModel):
        return annotation
    for argument in typing.get_args(annotation):
        found = _nested_model(argument)
        if found is not None:
            return found
    return None


def plain_annotation(annotation: Any, args_of: dict[type, str]) -> str:
    """The annotation an args field has for a settings annotation: the rules (`Annotated`) and `Literal` values
    dropped, which Pulumi's analyzer cannot read; a nested settings model becomes its args class."""
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin is Annotated:
        return plain_annotation(arguments[0], args_of)
    if origin in (typing.Union, types.UnionType):
        members = [member for member in arguments if member is not type(None)]
        if len(members) != 1:
            raise DeclarationError(f"{annotation}: a union other than `X | None`")
        return plain_annotation(members[0], args_of)
    if origin is Literal:
        (kind,) = {type(value) for value in arguments}
        return kind.__name__
    if origin is list:
        return f"list[{plain_annotation(arguments[0], args_of)}]"
    if origin is dict:
        return f"dict[{plain_annotation(arguments[0], args_of)}, {plain_annotation(arguments[1], args_of)}]"
    if annotation in (str, int, float, bool):
        return annotation.__name__
    if annotation in args_of:
        return args_of[annotation]
    raise DeclarationError(f"{annotation}: no args type (a settings model needs an args class that takes it whole)")


@dataclass(frozen=True)
class ArgsField:
    """One field of a generated args class."""

    name: str
    annotation: str
    default: str | None
    """Source of the default, None when the field is required."""
    doc: str
    model: type[SectionModel] | None = None
    """The settings model whose rules check it, if any."""


def is_plain(annotation: str) -> bool:
    """Whether a field so annotated must be a value known at construction (what the schema marks plain)."""
    return "pulumi.Input[" not in annotation and not annotation.startswith("aws.")


def args_fields(args: Args, args_of: dict[type, str]) -> list[ArgsField]:
    """The fields of `args` in order, with their annotations, defaults and docstrings."""
    placed: list[ArgsField] = []
    taken: dict[type, set[str]] = {}
    for part in args.parts:
        if isinstance(part, Take):
            fields = _taken_fields(part, taken.setdefault(part.model, set()), args_of)
        else:
            fields = [_own_field(part)]
        position = len(placed)
        if part.after is not None:
            earlier = [field.name for field in placed]
            if part.after not in earlier:
                raise DeclarationError(f"{args.name}: `after={part.after!r}` names no field placed before it")
            position = earlier.index(part.after) + 1
        placed[position:position] = fields
    return placed


def _taken_fields(take: Take, already: set[str], args_of: dict[type, str]) -> list[ArgsField]:
    fields = {field.name: field for field in settings_fields(take.model)}
    named = [*take.only, *take.without, *take.defaults, *take.docs]
    unknown = sorted(set(named) - set(fields))
    if unknown:
        raise DeclarationError(f"{take.model.__name__} has no fields {unknown}")
    stack_only = STACK_ONLY.get(take.model, ())
    names = list(take.only) or [
        name for name in fields if name not in already and name not in take.without and name not in stack_only
    ]
    already.update(names)
    found = []
    for name in names:
        field = fields[name]
        annotation = plain_annotation(field.annotation, args_of)
        description = take.docs.get(name, field.description)
        sentence = take.defaults.get(name, field.default_sentence)
        doc = f"Plain. {description} {sentence}"
        if field.required:
            found.append(ArgsField(name, annotation, None, doc, take.model))
        else:
            found.append(ArgsField(name, f"{annotation} | None", "None", doc, take.model))
    return found


def _own_field(own: Own) -> ArgsField:
    if own.required:
        sentence, default = "Required.", None
    elif own.default is None:
        if split_default(own.doc)[1] is None:
            raise DeclarationError(f"{own.name}: the default is None: end its doc with `Default: <what it means>.`")
        sentence, default = "", "None"
    else:
        sentence, default = f"Default {render_value(own.default)}.", json.dumps(own.default)
        if isinstance(own.default, bool):
            default = repr(own.default)
    doc = " ".join(part for part in ("Plain." if is_plain(own.annotation) else "", own.doc, sentence) if part)
    return ArgsField(own.name, own.annotation, default, doc)


def args_of_models() -> dict[type, str]:
    """The args class of each settings model some args class takes whole (`TaintSettings` -> `TaintArgs`)."""
    return {
        args.parts[0].model: args.name
        for args in ARGS
        if len(args.parts) == 1 and isinstance(args.parts[0], Take) and not args.parts[0].only
    }


def declaration_problems() -> list[str]:
    """What breaks the rules across the declaration: a settings field no args class takes and `STACK_ONLY` does
    not list, a stack-only field an args class takes, an input only a component has named like a field of a
    model its class takes from (the component checks every args field a model has with that model)."""
    from components.settings.stack import SECTIONS

    args_of = args_of_models()
    taken: dict[type, set[str]] = {}
    problems = []
    for args in ARGS:
        fields = args_fields(args, args_of)
        names = {field.name for field in fields}
        for model in {part.model for part in args.parts if isinstance(part, Take)}:
            own = {field.name for field in fields if field.model is not model}
            clash = sorted(own & set(model.model_fields))
            if clash:
                problems.append(f"{args.name}: {clash} would be checked as {model.__name__} fields but are not")
            taken.setdefault(model, set()).update(names & set(model.model_fields) - own)
    for model, names in STACK_ONLY.items():
        both = sorted(set(names) & taken.get(model, set()))
        if both:
            problems.append(f"{model.__name__}: {both} are listed stack-only but an args class takes them")
    for model in _reachable(SECTIONS.values()):
        left = [
            field.key
            for field in settings_fields(model)
            if field.name not in taken.get(model, set()) and field.name not in STACK_ONLY.get(model, ())
        ]
        if left:
            problems.append(
                f"{model.__name__}: {left} are inputs of no component; take them in an args class of "
                "components/inputs.py, or list them in its STACK_ONLY"
            )
    return problems


def _reachable(models) -> list[type[SectionModel]]:
    """`models` and the settings models inside them, but those only stack-only fields hold."""
    found: list[type[SectionModel]] = []
    pending = list(models)
    while pending:
        model = pending.pop(0)
        if model in found:
            continue
        found.append(model)
        for field in settings_fields(model):
            if field.nested is not None and field.name not in STACK_ONLY.get(model, ()):
                pending.append(field.nested)
    return found


def args_modules() -> dict[str, str]:
    """Each module of components/args/ (path relative to the repository root) and its source."""
    problems = declaration_problems()
    if problems:
        raise DeclarationError("; ".join(problems))
    args_of = args_of_models()
    module_of = {args.name: args.module for args in ARGS}
    modules: dict[str, list[Args]] = {}
    for args in ARGS:
        modules.setdefault(args.module, []).append(args)
    sources = {f"{ARGS_PACKAGE}/__init__.py": _package_source(modules)}
    for module, classes in modules.items():
        sources[f"{ARGS_PACKAGE}/{module}.py"] = _module_source(module, classes, args_of, module_of)
    return sources


_HEADER = '''"""{summary}

Generated by `python scripts/generate.py` from components/inputs.py and the settings models
(components/settings/); edit those and regenerate. No `from __future__ import annotations`: Pulumi's analyzer
reads the annotations at run time.
"""
'''


def _package_source(modules: dict[str, list[Args]]) -> str:
    summary = (
        "The components' args classes, one module per component module: "
        + ", ".join(f"`{module}`" for module in modules)
        + "."
    )
    return _HEADER.format(summary=summary)


def _module_source(module: str, classes: list[Args], args_of: dict[type, str], module_of: dict[str, str]) -> str:
    names = ", ".join(f"`{args.name}`" for args in classes)
    lines = [_HEADER.format(summary=f"Args of the components of `components/{module}.py`: {names}.")]
    fields = {args.name: args_fields(args, args_of) for args in classes}
    used: set[str] = set()
    for found in fields.values():
        for field in found:
            used |= {
                node.id for node in ast.walk(ast.parse(field.annotation, mode="eval")) if isinstance(node, ast.Name)
            }
    lines.append("from dataclasses import dataclass")
    third_party = [
        line for name, line in (("pulumi", "import pulumi"), ("aws", "import pulumi_aws as aws")) if name in used
    ]
    if third_party:
        lines += ["", *third_party]
    siblings: dict[str, list[str]] = {}
    for name in sorted(used):
        if module_of.get(name) not in (None, module):
            siblings.setdefault(module_of[name], []).append(name)
    if siblings:
        lines.append("")
        lines += [f"from .{other} import {', '.join(imported)}" for other, imported in sorted(siblings.items())]
    for args in classes:
        lines += ["", ""]
        lines.append("@dataclass(frozen=True, kw_only=True)" if args.kw_only else "@dataclass(frozen=True)")
        lines.append(f"class {args.name}:")
        lines.append(f"    {_docstring(args.doc)}")
        lines.append("")
        for field in fields[args.name]:
            default = "" if field.default is None else f" = {field.default}"
            lines.append(f"    {field.name}: {field.annotation}{default}")
            lines.append(f"    {_docstring(field.doc)}")
    return "\n".join(lines) + "\n"


def _docstring(text: str) -> str:
    text = one_line(text).replace("\\", "\\\\")
    if text.endswith('"'):
        text += " "
    return f'"""{text}"""'
