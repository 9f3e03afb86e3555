"""The outcome of one placement check: the type every verdict of the guard, the node-agent, capacity and
exporter checks, and the offline plan's own checks share."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Verdict:
    """The outcome of one guard check."""

    id: int
    """From 1, in the order gpu_guard documents."""
    name: str
    """A short slug for the check."""
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
