"""What each registration of a program run under mocks waits for: its `depends_on` option, kept apart from the
outputs its inputs consume.

The SDK resolves a resource's `depends_on` to URNs (`_resolve_depends_on_urns`, called by `pulumi/runtime/resource.py`
`prepare_resource`, pulumi 3.272.0; a component stands for its custom children) and then sends the engine one list of
dependencies, those joined with what its inputs consume, and the inputs' share by input (`propertyDependencies`); the
request alone cannot tell a `depends_on` that an input already implies. `recording_depends_on` keeps the resolved URNs
by the resource's type and name until it registers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from pulumi.runtime import resource as pulumi_resource

Key = tuple[str, str]
"""A resource's type token and name."""


@contextlib.contextmanager
def recording_depends_on() -> Iterator[dict[Key, tuple[str, ...]] | None]:
    """While open, each resource's `depends_on` URNs by type and name, as the SDK resolves them; None when a later
    SDK renamed the function, and `explicit_dependencies` falls back on what no input consumes."""
    original = getattr(pulumi_resource, "_resolve_depends_on_urns", None)
    if original is None:
        yield None
        return
    recorded: dict[Key, tuple[str, ...]] = {}

    async def resolve(depends_on: Any, from_resource: Any = None) -> set[str]:
        urns = await original(depends_on, from_resource=from_resource)
        if from_resource is not None:
            recorded[(from_resource._type, from_resource._name)] = tuple(sorted(urns))
        return urns

    pulumi_resource._resolve_depends_on_urns = resolve
    try:
        yield recorded
    finally:
        pulumi_resource._resolve_depends_on_urns = original


def explicit_dependencies(
    recorded: dict[Key, tuple[str, ...]] | None,
    key: Key,
    dependencies: tuple[str, ...],
    input_dependencies: dict[str, tuple[str, ...]],
) -> tuple[str, ...]:
    """The `depends_on` URNs of the resource `key` registers now (taken out of `recorded`), or, unrecorded, its
    `dependencies` that none of its inputs consumes."""
    if recorded is not None:
        return recorded.pop(key, ())
    consumed = {urn for urns in input_dependencies.values() for urn in urns}
    return tuple(urn for urn in dependencies if urn not in consumed)


def dependencies_of_inputs(request: Any) -> dict[str, tuple[str, ...]]:
    """The `propertyDependencies` of a RegisterResource request: input name -> URNs, inputs without any left out."""
    if request is None:
        return {}
    return {key: tuple(sorted(deps.urns)) for key, deps in sorted(request.propertyDependencies.items()) if deps.urns}
