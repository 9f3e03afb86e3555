"""The base of every settings model, and `validate_section`, the one way a mapping becomes a section.

A section validates its fields (their types in `fields.py`) and then the rules across its fields
(`problems`). Both run however the model is built:
- `validate_section(Model, data, where=...)` (the stack config reader and component arguments) raises
  `ConfigError` listing every problem, each key written for `where`;
- `Model(...)` or `Model.model_validate(...)` directly raises pydantic's `ValidationError`, the cross-field
  problems included, so a model built in code never skips a check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, model_validator
from pydantic.alias_generators import to_camel

from .errors import (
    PYTHON_NAMES,
    ConfigError,
    ConfigProblem,
    SectionProblems,
    Where,
    arguments,
    key_path,
    problems_from,
)

# Validation context key: the caller runs `problems()` itself and writes their keys (see `validate`).
DEFER_PROBLEMS = "defer_problems"


class SectionModel(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        strict=True,
        frozen=True,
        # The docstring under each field documents it for readers; pydantic need not parse the source for
        # them (nothing reads `Field.description`), which saves a fifth of the settings' import time.
        use_attribute_docstrings=False,
    )

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        PYTHON_NAMES.update(
            {field.alias: name for name, field in cls.model_fields.items() if field.alias not in (None, name)}
        )

    def problems(self) -> list[ConfigProblem]:
        """Checks across the fields of this object; each problem's key is relative to this object."""
        return []

    @model_validator(mode="after")
    def _checks_across_fields(self, info: ValidationInfo) -> SectionModel:
        if not (info.context or {}).get(DEFER_PROBLEMS):
            problems = self.problems()
            if problems:
                raise SectionProblems(problems)
        return self


Section = TypeVar("Section", bound=SectionModel)


def validate(model: type[Section], data: Any, key: str, where: Where) -> tuple[Section | None, list[ConfigProblem]]:
    """`data` validated as `model` found at `key`: (the model, []) or (None, every problem written for `where`)."""
    try:
        section = model.model_validate(data, context={DEFER_PROBLEMS: True})
    except ValidationError as error:
        return None, problems_from(error, model, key, where)
    problems = [problem.under(key).written(where) for problem in _problems_within(section, where.brackets)]
    return (None, problems) if problems else (section, [])


def _problems_within(section: SectionModel, brackets: bool) -> list[ConfigProblem]:
    """The rules across fields of `section` and of the sections inside it, keys relative to `section`.

    A section's own rules run once the sections inside it hold, as when it is built directly (a part that
    fails stops the whole).
    """
    inner: list[ConfigProblem] = []
    for name in type(section).model_fields:
        value = getattr(section, name)
        items = [(key_path([name], brackets), value)]
        if isinstance(value, (list, tuple)):
            items = [(key_path([name, index], brackets), item) for index, item in enumerate(value)]
        for key, item in items:
            if isinstance(item, SectionModel):
                inner.extend(problem.under(key) for problem in _problems_within(item, brackets))
    return inner or section.problems()


def validate_section(
    model: type[Section], data: Mapping[str, Any], *, where: str, python_names: bool = False
) -> Section:
    """`data` (camelCase keys, as in the stack config) validated as `model`, field rules and cross-field rules.

    Raises `ConfigError` listing every problem at once, each key written under `where`:
    `validate_section(GpuNodeGroupSettings, {"instanceTypes": ["g5"]}, where="GpuNodeGroup(gpu-a).args")`
    reports `GpuNodeGroup(gpu-a).args.instanceTypes[0]: malformed instance type 'g5'; allowed: ...`, and with
    `python_names` (a Python caller's arguments) `GpuNodeGroup(gpu-a).args.instance_types[0]: ...`.
    """
    section, problems = validate(model, data, "", arguments(where, python_names))
    if problems or section is None:
        raise ConfigError(problems, subject=where)
    return section
