"""A registered resource's inputs as the plan's JSON document records them: what a later plan is compared with.

Keys sorted, secrets redacted as the rendered objects redact them (`stackcheck.plan.render`: a secret's keys
kept, every value inside it `[redacted]`), Pulumi's own `__` keys dropped, integral floats made integers again
(the RPC layer sends every number as a float).
"""

from __future__ import annotations

from typing import Any

from ..runtime import Secret
from .render import REDACTED


def recorded_inputs(value: Any) -> Any:
    """`value` (a registration's inputs, `stackcheck.runtime.RegisteredResource.inputs`) as the JSON records it."""
    if isinstance(value, Secret):
        return _redacted(recorded_inputs(value.value))
    if isinstance(value, dict):
        return {key: recorded_inputs(value[key]) for key in sorted(value) if not key.startswith("__")}
    if isinstance(value, list):
        return [recorded_inputs(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _redacted(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _redacted(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_redacted(item) for item in value]
    return REDACTED
