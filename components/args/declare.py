"""How a concern declares its components' inputs, once, in its `inputs.py`.

An input the stack config has too is declared in its settings model (components/settings/): its type with the rule
it must meet, its default and its docstring. A concern's `inputs.py` lists in `ARGS` what each of its args classes
takes from those models (`Take`) and the inputs only components have (`Own`: the cluster name as an Output, `tags`,
object names, ...), and in `STACK_ONLY` the settings fields of its sections no component takes (`vllm.enabled`,
`network.mode`, ...). `python scripts/generate.py` finds every concern's `inputs.py` and writes each args class into
the module its declaration names (the concern's `args.py`), a field taken from a settings model becoming a plain
`X | None = None` field of the same name, its docstring `Plain. ` and the model's, its default sentence rendered from
the model's default. Here are the building blocks: `Take`, `Own`, an args class (`Args`), and the inputs several
classes share (the placement contract, an object's name). No Pulumi here: the annotations of the inputs only
components have are source text, as the generated classes spell them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..facts.contract import PlacementContract
from ..settings.section import SectionModel


@dataclass(frozen=True)
class Take:
    """Fields of the settings model `model`, under the same names, checked by that model's rules when the
    component is constructed."""

    model: type[SectionModel]
    only: tuple[str, ...] = ()
    """Just these fields. Default: every field of `model` that an earlier `Take` of the same class did not take,
    leaving out `without` and the model's `STACK_ONLY` fields."""
    without: tuple[str, ...] = ()
    """Fields another args class takes instead."""
    defaults: Mapping[str, str] = field(default_factory=dict)
    """The component's own default sentence of a field, where it is not the stack config's
    (`{"namespace": "Default: the component name."}`)."""
    docs: Mapping[str, str] = field(default_factory=dict)
    """What a field means to this component, where that is not what the model's docstring says."""
    after: str | None = None
    """Place the fields after this one of the class (default: after the parts before it)."""


@dataclass(frozen=True)
class Own:
    """An input only components have: no key of the stack config."""

    name: str
    annotation: str
    """As the args class spells it: `pulumi.Input[str]`, `list[str] | None`, `PlacementArgs | None`."""
    doc: str
    """What it is and, when its default is `None`, what that means (`Default: the component name.`)."""
    default: Any = None
    """A plain value (its default sentence is rendered from it), or `None`."""
    required: bool = False
    after: str | None = None
    """Place the field after this one of the class (default: after the parts before it)."""


@dataclass(frozen=True)
class Args:
    """An args class: its name, the module of components/args/ it is written to, its docstring and its fields."""

    name: str
    module: str
    doc: str
    parts: tuple[Take | Own, ...]
    kw_only: bool = True


def _args(name: str, module: str, doc: str, *parts: Take | Own, kw_only: bool = True) -> Args:
    return Args(name, module, doc, parts, kw_only)


_CONTRACT = PlacementContract()


def _placement(doc: str, after: str | None = None) -> Own:
    label = f"{_CONTRACT.label_key}={_CONTRACT.label_value}"
    taint = f"{_CONTRACT.taint.key}={_CONTRACT.taint.value}:{_CONTRACT.taint.effect}"
    return Own("placement", "PlacementArgs | None", f"{doc} Default: label `{label}`, taint `{taint}`.", after=after)


def _object_name(objects: str) -> Own:
    return Own(
        "name",
        "str | None",
        f"Name of the {objects}; two in one namespace need two names. Default: the component name.",
    )
