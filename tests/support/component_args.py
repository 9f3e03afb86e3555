"""From tests/args/test_component_args.py, what other test modules use too: `COMPONENTS`, `PROJECT`, `run_components`, `schema_of` and what they
need."""

from __future__ import annotations

import functools
import json
import textwrap

from pulumi.provider.experimental.component import ComponentProvider

from components.autoscaling.cluster_autoscaler import ClusterAutoscaler
from components.cluster.cluster import EksCluster
from components.cluster.network import Network
from components.gpu_agents.dcgm_exporter import DcgmExporter
from components.gpu_agents.device_plugin import NvidiaDevicePlugin
from components.observability.monitoring import PrometheusMonitors
from components.pools.gpu_node_group import GpuNodeGroup
from components.settings import PROJECT
from components.stackcheck.runtime import ProgramRun, run_program
from components.vllm.server import VllmServer

COMPONENTS = (
    Network,
    EksCluster,
    GpuNodeGroup,
    ClusterAutoscaler,
    NvidiaDevicePlugin,
    VllmServer,
    DcgmExporter,
    PrometheusMonitors,
)


def schema_of(component) -> dict:
    return json.loads(_schema_text(component))


@functools.cache
def _schema_text(component) -> str:
    # Once per component: the analyzer parses the component's source, and the plain-input tests ask once per field
    # at collection (88 fields); in mutmut's mutated copy, whose sources hold every mutant, that took 4 minutes.
    return ComponentProvider([component], PROJECT).schema


def run_components(tmp_path, source: str, run: ProgramRun | None = None) -> ProgramRun:
    program = tmp_path / "__main__.py"
    program.write_text(textwrap.dedent(source))
    return run_program(program, {}, project=PROJECT, stack="test", run=run)


def assert_refused_before_registering(tmp_path, source: str, keys: list[str]) -> None:
    """Running `source` raises one ConfigError naming each of `keys`, one problem each, and registers nothing."""
    import pytest

    from components.settings import ConfigError

    run = ProgramRun()
    with pytest.raises(ConfigError) as raised:
        run_components(tmp_path, source, run)

    assert [key for key in keys if key not in str(raised.value)] == []
    assert len(raised.value.problems) == len(keys)
    assert run.resources == []
