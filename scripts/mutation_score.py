"""Summarise `mutmut results --all true` (read on stdin): the score per package and the survivors.

Score = (killed + timeout) / (killed + timeout + survived + suspicious), mutmut's own definition less
the mutants no test reaches, which are listed apart ("no tests"). Pass a prefix (`components.placement`) to keep one.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict

KILLED = ("killed", "timeout", "caught by type check")
LIVE = ("survived", "suspicious", "segfault")
LAYERS = ("facts", "placement", "settings", "stackcheck")
"""The subpackages of `components` scored apart."""


def main() -> None:
    prefix = sys.argv[1] if len(sys.argv) > 1 else ""
    counts: dict[str, Counter] = defaultdict(Counter)
    live: list[str] = []
    for line in sys.stdin:
        name, _, status = line.strip().rpartition(": ")
        if not name or not name.startswith(prefix):
            continue
        # The layer: `components.placement.guard...` counts under components.placement, a component module
        # (`components.cluster.cluster...`) under components.
        parts = name.split(".")
        package = ".".join(parts[:2]) if parts[1] in LAYERS else parts[0]
        counts[package][status] += 1
        if status in LIVE or status == "no tests":
            live.append(f"{status:10} {name}")
    for package, count in sorted(counts.items()):
        killed = sum(count[s] for s in KILLED)
        tried = killed + sum(count[s] for s in LIVE)
        score = f"{100 * killed / tried:.1f}%" if tried else "n/a"
        details = ", ".join(f"{status} {n}" for status, n in sorted(count.items()))
        print(f"{package}: {score} killed of {tried} tried ({details})")
    for line in sorted(live):
        print(line)


if __name__ == "__main__":
    main()
