"""The outcome of one placement check: the type every verdict of the registry (placement/verdicts.py) returns.

A verdict's function knows its slug, not its number: the registry, above every verdict's module, numbers it when it
judges, so the numbers are spelled in the registry alone and nothing here imports it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Verdict:
    """The outcome of one check of the registry."""

    id: int = field(default=0, init=False)
    """The registry's number for `name`, which the registry gives the verdict when it judges
    (`RegisteredVerdict.run`); 0 until then. The report prints it beside the name."""
    name: str
    """The check's slug, as the registry lists it; a name it does not list is refused."""
    passed: bool
    """True when the check holds."""
    message: str
    """One sentence naming the workloads, pools and taints or selector keys at stake."""
    details: list[str] = field(default_factory=list)
    """Every finding, one per line."""

    def to_dict(self) -> dict:
        """The verdict as a JSON-serialisable dict."""
        return asdict(self)


def _summary(problems: list[str]) -> str:
    """The first problem, and how many more there are."""
    return problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
