"""The outcome of one placement check: the type every verdict of the registry (placement/verdicts.py) returns."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field


@dataclass
class Verdict:
    """The outcome of one check of the registry."""

    id: int = field(init=False)
    """The registry's number for `name`, filled in from it: the report prints it beside the name."""
    name: str
    """The check's slug, as the registry lists it; a name it does not list is refused."""
    passed: bool
    """True when the check holds."""
    message: str
    """One sentence naming the workloads, pools and taints or selector keys at stake."""
    details: list[str] = field(default_factory=list)
    """Every finding, one per line."""

    def __post_init__(self) -> None:
        self.id = registered_id(self.name)

    def to_dict(self) -> dict:
        """The verdict as a JSON-serialisable dict."""
        return asdict(self)


def registered_id(name: str) -> int:
    """The number the registry gives the verdict `name`; ValueError naming the registered slugs for another."""
    # Imported when first asked, not above: the registry imports every verdict's module, each of which imports this.
    from .verdicts import VERDICTS

    return VERDICTS.id_of(name)


def labelled(name: str, lines: Iterable[str]) -> list[str]:
    """`lines` as the plan's warnings list them: each after the number and name of the verdict `name`."""
    number = registered_id(name)
    return [f"verdict {number} {name}: {line}" for line in lines]


def _summary(problems: list[str]) -> str:
    """The first problem, and how many more there are."""
    return problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
