"""Shared fixtures: run the real program under Pulumi mocks with a stack's config."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import gc
import io
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from components.facts.identity import PROJECT  # noqa: E402
from components.stackcheck import runtime  # noqa: E402
from components.stackcheck.runtime import ProgramRun, Secret  # noqa: E402

PROGRAM = ROOT / "__main__.py"


def _skip_stack_traces() -> None:
    """Register resources without the Python stack the SDK records for the engine's source positions.

    The SDK walks and converts every frame below the resource's constructor at each registration; under
    pytest that is some 60 frames, a quarter of the time of a run. The mock monitor reads neither the stack
    nor the source position, and no test does, so what the program registers is the same.
    """
    from pulumi.runtime import resource
    from pulumi.runtime.proto import source_pb2

    if callable(getattr(resource, "_get_stack_trace", None)):
        resource._get_stack_trace = source_pb2.StackTrace


_skip_stack_traces()


class SharedRuns:
    """Successful runs of `__main__.py`, one per distinct run, handed out as deep copies.

    Most tests run the program with a config another test already ran; the program is deterministic in
    what it is given, so the second run is a copy of the first. A run is keyed by everything it is given:
    the config as the program reads it, project, stack, secret keys, the deployer and the mocks' answers,
    the working directory and the root logger's level; the warnings it logged are logged again on each
    copy. A run that raised is never kept (the next caller runs it again), nor one run while `enabled` is
    off: during tests that patch code or the environment (`monkeypatch`) or are marked `fresh_runs`, and
    under mutation testing, where mutmut credits a function only to the tests during which it ran.
    """

    def __init__(self, run_program):
        self.run_program = run_program
        self.enabled = True
        self.runs: dict[str, tuple[ProgramRun, list[logging.LogRecord]]] = {}

    def __call__(self, program, config, *, run: ProgramRun | None = None, **options) -> ProgramRun:
        key = self._key(program, config, run, options) if self.enabled else None
        if key is None:
            return self.run_program(program, config, run=run, **options)
        run = run if run is not None else ProgramRun()
        if key not in self.runs:
            records: list[logging.LogRecord] = []
            handler = _Collect(records)
            logging.getLogger().addHandler(handler)
            try:
                self.run_program(program, config, run=run, **options)
            finally:
                logging.getLogger().removeHandler(handler)
            self.runs[key] = (copy.deepcopy(run), records)
            return run
        kept, records = self.runs[key]
        for record in records:
            logger = logging.getLogger(record.name)
            if logger.isEnabledFor(record.levelno):
                logger.handle(record)
        for attribute in dataclasses.fields(ProgramRun):
            setattr(run, attribute.name, copy.deepcopy(getattr(kept, attribute.name)))
        return run

    @staticmethod
    def _key(program, config, run, options) -> str | None:
        """What the run depends on, as text; None when it cannot be shared."""
        if "mutmut" in sys.modules or Path(program).resolve() != PROGRAM or (run is not None and run != ProgramRun()):
            return None
        # The program reads each value as run_program passes it: text, or JSON in the order given.
        wire = [[key, value if isinstance(value, str) else json.dumps(value)] for key, value in config.items()]
        try:
            return json.dumps([wire, options, os.getcwd(), logging.getLogger().getEffectiveLevel()], sort_keys=True)
        except TypeError:  # an answer that is not JSON: run it
            return None


class _Collect(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]):
        super().__init__()
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


# The plan calls runtime.run_program too: its runs of the repository's program are shared as well. Wrapped
# once however this file is imported (as `conftest` by pytest, or again as `tests.conftest`), so the hook
# below switches the one wrapper every caller goes through.
if not isinstance(getattr(runtime.run_program, "runs", None), dict):
    runtime.run_program = SharedRuns(runtime.run_program)
run_program = runtime.run_program


def pytest_configure(config):
    config.addinivalue_line("markers", "fresh_runs: every run of the program in this test runs it anew")


# The xdist workers take whole modules in collection order (pytest.ini): the slowest modules go first, so
# that no worker is left finishing one of them alone while the other has nothing to do. Order only: a
# module not named here keeps its place after them.
SLOWEST_MODULES = (
    "test_types.py",
    "test_install.py",
    # Real processes against moto's server: mostly waiting on visibility timeouts, so they overlap the others' CPU.
    "test_consumer_lifecycle.py",
    "test_batch_command.py",
    "test_queue_stack.py",
    "test_consumer_rules.py",
    "test_security.py",
    "test_infrastructure.py",
    "test_plan.py",
    "test_generated.py",
    "test_vllm_server.py",
    "test_placement_properties.py",
    "test_boundaries.py",
    "test_audit_properties.py",
    "test_plugin_schema.py",
    "test_dcgm_exporter.py",
    "test_layers.py",
)


def pytest_collection_modifyitems(config, items):
    rank = {name: place for place, name in enumerate(SLOWEST_MODULES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def _freeze_the_heap() -> None:
    """Collect the garbage, then leave every object still alive out of later collections (`gc.freeze`).

    What lives for the rest of the session is most of the heap: the modules and SDKs imported so far, the
    collected tests and the shared runs (`SharedRuns`, some 700,000 objects by the last test). Each run of
    the program makes new objects in the hundreds of thousands (Pulumi's outputs, futures and coroutines),
    so the collector runs often, and its older generations walked that whole heap each time: a third of
    the suite's CPU time when measured (61 s against 44 s on two workers). Objects frozen here are still
    freed when nothing refers to them; only a cycle among them that is dropped later is never collected,
    which is what the SharedRuns cache and imported modules never become. `SUITE_HEAP=unfrozen` leaves the
    heap as Python keeps it, for benchmarks/suite_bench.py to time the suite both ways.
    """
    if os.environ.get("SUITE_HEAP") == "unfrozen":
        return
    gc.collect()
    gc.freeze()


def pytest_collection_finish(session):
    _freeze_the_heap()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    # After pytest's own teardown (trylast): the module's fixtures are gone by now and are collected,
    # not frozen.
    if nextitem is None or nextitem.path != item.path:
        _freeze_the_heap()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    run_program.enabled = "monkeypatch" not in item.fixturenames and not item.get_closest_marker("fresh_runs")
    try:
        return (yield)
    finally:
        run_program.enabled = True


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


def node_group_node_labels(group_inputs: dict) -> dict[str, str]:
    """The labels a node of a registered node group has: the group's own, and the well-known ones the kubelet
    sets (instance type and architecture: those DaemonSets such as dcgm-server select)."""
    from components.facts.gpu_catalog import lookup

    [instance_type, *_] = group_inputs.get("instanceTypes") or [""]
    instance = lookup(instance_type)
    arch = {"kubernetes.io/arch": instance.kubernetes_arch} if instance is not None else {}
    return {**(group_inputs.get("labels") or {}), "node.kubernetes.io/instance-type": instance_type, **arch}


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


def dev_stack_file(tmp_path: Path, *overrides: dict[str, Any], name: str = "dev") -> Path:
    """`Pulumi.<name>.yaml` in `tmp_path`: Pulumi.dev.yaml (aws:* kept) with each of `overrides` (keys without the
    project prefix) merged in turn."""
    document = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())
    prefix = f"{PROJECT}:"
    config = {key.removeprefix(prefix): value for key, value in document["config"].items()}
    for override in overrides:
        config = merge(config, override)
    document["config"] = {(key if ":" in key else f"{prefix}{key}"): value for key, value in config.items()}
    stack_file = tmp_path / f"Pulumi.{name}.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    return stack_file


def verdict(report: dict, name: str) -> dict:
    """The plan report's verdict called `name` (exactly one)."""
    [found] = [item for item in report["verdicts"] if item["name"] == name]
    return found


def plan_stack_file(stack_file: Path, out: Path) -> tuple[int, dict]:
    """The offline plan of this checkout's program with `stack_file`, as JSON: (exit code, document)."""
    from components.stackcheck.__main__ import main

    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        code = main(
            ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--format", "json", "--out", str(out)]
        )
    return code, json.loads(stdout.getvalue())
