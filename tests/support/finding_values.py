"""From tests/audit/test_finding_values.py, what other test modules use too: `problems_of` and what they
need."""

from __future__ import annotations

import pytest

from components.settings import ConfigError, parse_settings


def problems_of(values: dict) -> list[tuple[str, str]]:
    with pytest.raises(ConfigError) as error:
        parse_settings(values)
    return [(problem.key, problem.message) for problem in error.value.problems]
