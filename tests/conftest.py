"""Shared fixtures: run the real program under Pulumi mocks with a stack's config."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from components.facts.identity import PROJECT  # noqa: E402
from components.stackcheck.runtime import ProgramRun, Secret, run_program  # noqa: E402

PROGRAM = ROOT / "__main__.py"


# A placement contract unlike the default in every part, with a second repelling taint: what a test shows
# for it cannot come from a spelling fixed in code.
CUSTOM_CONTRACT = {
    "gpuPlacement": {
        "labelKey": "accelerator",
        "labelValue": "nvidia",
        "taintKey": "nvidia.com/gpu",
        "taintValue": "present",
        "taintEffect": "NoExecute",
    },
    "gpuNodeGroup": {"extraTaints": [{"key": "dedicated", "value": "inference", "effect": "NoSchedule"}]},
}


def dev_stack_config() -> dict[str, Any]:
    """The config of Pulumi.dev.yaml, keys without the project prefix (aws:* left out)."""
    config = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())["config"]
    prefix = f"{PROJECT}:"
    return {key[len(prefix) :]: value for key, value in config.items() if key.startswith(prefix)}


def merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """`base` with `overrides` merged in, section by section (a None override removes the key)."""
    merged = copy.deepcopy(base)
    for key, value in overrides.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def run_stack(
    config: dict[str, Any],
    secret_keys: tuple[str, ...] = (),
    run: ProgramRun | None = None,
    deployer_arn: str | None = None,
) -> ProgramRun:
    """Run `__main__.py` under mocks with `config` (keys without the project prefix).

    Pass `run` to inspect what was registered when the program raises, `deployer_arn` to name the
    identity running the update.
    """
    full_config = {f"{PROJECT}:{key}": value for key, value in config.items()}
    return run_program(
        PROGRAM,
        full_config,
        project=PROJECT,
        stack="test",
        secret_keys=tuple(f"{PROJECT}:{key}" for key in secret_keys),
        run=run,
        deployer_arn=deployer_arn,
    )


@pytest.fixture
def dev_config() -> dict[str, Any]:
    return dev_stack_config()


@pytest.fixture
def stack():
    """Call with overrides of the dev stack's config; returns what the program registered."""

    def run(
        overrides: dict[str, Any] | None = None,
        *,
        secret_keys: tuple[str, ...] = (),
        run: ProgramRun | None = None,
        deployer_arn: str | None = None,
    ) -> ProgramRun:
        return run_stack(merge(dev_stack_config(), overrides or {}), secret_keys, run, deployer_arn)

    return run


def _shared_run_scope(fixture_name: str, config) -> str:
    # Under mutation testing (mutmut) every test runs the program itself: mutmut credits a function only
    # to the test during which it ran, so a shared run would leave the tests reading it unselected.
    return "function" if "mutmut" in sys.modules else "session"


@pytest.fixture(scope=_shared_run_scope)
def dev_run() -> ProgramRun:
    """One run of the dev stack, shared by tests that only read it."""
    return run_stack(dev_stack_config())


def plain_strings(value):
    """Every string in `value` that is not inside a `Secret` wrapper, keys included."""
    if isinstance(value, Secret):
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from plain_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from plain_strings(item)


def change_registrations(monkeypatch, change) -> list[str]:
    """Make the mocks see every registration through `change(args)` (it may edit `args.inputs` and returns
    whether it did); returns the names of the resources changed, in order. For checks of what the plan does
    with inputs the settings would never produce."""
    from components.stackcheck.runtime import RecordingMocks

    original, changed = RecordingMocks.new_resource, []

    def new_resource(self, args):
        if change(args):
            changed.append(args.name)
        return original(self, args)

    monkeypatch.setattr(RecordingMocks, "new_resource", new_resource)
    return changed
