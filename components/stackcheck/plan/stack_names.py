"""Two plans of different stack names (`plan --compare`): what follows from the name.

Comparing the plan of stack `prod` with one of stack `dev` compares two stacks, not one stack's next update. Pulumi
writes the stack name into every resource tagged `pulumi:stack`, and a stack config may name its resources after
it (`gpu-inference-dev`); those differences are the name's, not changes. Here a difference follows from the name
when writing the later stack's name for each whole word of the earlier one's turns the earlier value into the
later. Pure; standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any


def stack_renamer(earlier: str, later: str) -> Callable[[Any], Any]:
    """A function that writes `later` for each whole-word `earlier` in a string (`dev` in `gpu-inference-dev` and
    `/aws/eks/gpu-inference-dev/cluster`, not in `device-plugin`, nor at the start of a path segment such as
    `/dev/xvda`, a device name), and leaves any other value as it is."""
    word = re.compile(rf"(?<![A-Za-z0-9/]){re.escape(earlier)}(?![A-Za-z0-9])")

    def rename(value: Any) -> Any:
        return word.sub(later, value) if isinstance(value, str) else value

    return rename


def same(value: Any) -> Any:
    """The renamer of one stack's two plans: every value is its own."""
    return value


def same_value(was: Any, now: Any) -> bool:
    """Equal, and of one type: `true` and `1` are equal to Python, not to a provider."""
    return was == now and type(was) is type(now)


def stack_names(previous: Mapping[str, Any], current: Mapping[str, Any]) -> tuple[str, str] | None:
    """The earlier plan's stack name and this one's (the documents' `stack`), when both are given and differ."""
    earlier, later = previous.get("stack"), current.get("stack")
    if isinstance(earlier, str) and isinstance(later, str) and earlier and later and earlier != later:
        return earlier, later
    return None


def paired(
    before: dict[str, Mapping[str, Any]], after: dict[str, Mapping[str, Any]], rename: Callable[[Any], Any]
) -> dict[str, Mapping[str, Any]]:
    """`before` keyed as `after` is: an earlier resource no later one has the identity of is matched with the later
    one its identity names with the stack name renamed (`gpu-inference-dev-gpu` in stack `dev` is
    `gpu-inference-prod-gpu` in stack `prod`)."""
    keyed = {key: entry for key, entry in before.items() if key in after}
    for key, entry in before.items():
        if key not in after and rename(key) in after and rename(key) not in before:
            keyed[rename(key)] = entry
        elif key not in after:
            keyed[key] = entry
    return keyed
