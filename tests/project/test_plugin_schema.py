"""The component package: its committed schema is what Pulumi's analyzer infers from the components' args,
and the plugin, started as the Python language host starts it, serves that schema under pyproject's name
and version."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import grpc
import pulumi
import pytest
import yaml
from google.protobuf import empty_pb2
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

from components.settings import PROJECT
from plugin import host
from scripts import generate

ROOT = Path(__file__).resolve().parents[2]
PLUGIN_DIR = ROOT / "plugin"


@pytest.fixture(scope="module")
def generated() -> dict:
    """The schema the analyzer infers from the components as they are now."""
    return host.schema()


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads(host.SCHEMA_FILE.read_text(encoding="utf-8"))


def test_committed_schema_is_what_the_analyzer_generates_byte_for_byte(generated):
    problem = generate.check_schema()

    assert problem is None, problem
    assert host.SCHEMA_FILE.read_text(encoding="utf-8") == host.schema_text(generated)


def test_a_stale_schema_file_fails_naming_the_command_that_updates_it(tmp_path, committed):
    stale = tmp_path / "schema.json"
    stale.write_text(host.schema_text(dict(committed, version="0.0.0-stale")), encoding="utf-8")

    problem = generate.check_schema(stale)

    assert problem == (
        f"{stale} differs from the schema the components' args and outputs give now; "
        "update it with `python scripts/generate.py` and commit it"
    )


def test_a_missing_schema_file_fails_naming_the_command_that_creates_it(tmp_path):
    problem = generate.check_schema(tmp_path / "schema.json")

    assert (
        problem == f"{tmp_path / 'schema.json'} is missing; create it with `python scripts/generate.py` and commit it"
    )


def test_package_name_and_version_come_from_pyproject(committed):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

    assert (committed["name"], committed["version"]) == (project["name"], project["version"])
    assert host.package_metadata() == (project["name"], project["version"])


def test_every_hosted_component_is_a_schema_resource_under_the_type_it_registers(committed, dev_run):
    hosted = {f"{committed['name']}:index:{component.__name__}" for component in host.components()}
    registered = {resource.type for resource in dev_run.resources if resource.type.startswith(f"{PROJECT}:")}

    assert set(committed["resources"]) == hosted
    # The dev stack builds every hosted component but PrometheusMonitors (observability.prometheusOperator) and
    # Karpenter's (a pool's provisioner karpenter: tests/pools/test_karpenter_stack.py), Keda (vllm.autoscaling.enabled)
    # and PrometheusStack (observability.prometheus.install: tests/observability/test_prometheus_source.py).
    karpenter = {f"{PROJECT}:index:Karpenter", f"{PROJECT}:index:KarpenterNodePool"}
    # and Auto Mode's (a pool's provisioner autoMode: tests/pools/test_auto_mode_stack.py).
    karpenter |= {f"{PROJECT}:index:AutoMode", f"{PROJECT}:index:AutoModeNodePool"}
    optional = {f"{PROJECT}:index:PrometheusMonitors", f"{PROJECT}:index:Keda", f"{PROJECT}:index:PrometheusStack"}
    assert hosted - {*optional, *karpenter} <= registered
    assert all(committed["resources"][token]["isComponent"] for token in hosted)


def test_every_input_and_output_is_documented(committed):
    undocumented = [
        f"{token}.{name}"
        for token, resource in committed["resources"].items()
        for section in ("inputProperties", "properties")
        for name, prop in resource.get(section, {}).items()
        if not prop.get("description")
    ]
    undocumented += [
        f"{token}.{name}"
        for token, spec in committed["types"].items()
        for name, prop in spec.get("properties", {}).items()
        if not prop.get("description")
    ]

    assert undocumented == []


def test_plugin_manifest_runs_the_python_entry_point_beside_it():
    manifest = yaml.safe_load((PLUGIN_DIR / "PulumiPlugin.yaml").read_text(encoding="utf-8"))

    assert manifest["runtime"]["name"] == "python"
    assert (PLUGIN_DIR / "__main__.py").is_file()
    # The repository root's __main__.py is the stack program: a manifest there would run it as the plugin.
    assert not (ROOT / "PulumiPlugin.yaml").exists()
    assert (PLUGIN_DIR / "requirements.txt").read_text(encoding="utf-8").splitlines()[-1] == "-r ../requirements.txt"


def test_plugin_started_as_the_language_host_starts_it_serves_the_committed_schema(tmp_path, committed):
    # `python <plugin folder> <engine address>`, from another working directory (pulumi-language-python
    # RunPlugin). The provider listens on loopback and prints its port; the engine is not contacted for this.
    # The consumer's project may hold a `components` package of its own: the plugin must not import it.
    (tmp_path / "components").mkdir()
    (tmp_path / "components" / "__init__.py").write_text("raise ImportError('the consumer project was imported')\n")
    process = subprocess.Popen(
        [sys.executable, str(PLUGIN_DIR), "127.0.0.1:1"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = process.stdout.readline().strip()
        assert port.isdigit(), process.stderr.read() if process.poll() is not None else port
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = provider_pb2_grpc.ResourceProviderStub(channel)
            served = json.loads(stub.GetSchema(provider_pb2.GetSchemaRequest(version=0), timeout=60).schema)
            info = stub.GetPluginInfo(empty_pb2.Empty(), timeout=60)
    finally:
        process.terminate()
        process.wait(timeout=30)
        process.stdout.close()
        process.stderr.close()

    assert served == committed
    assert info.version == committed["version"]


class _UnreadableArgs:
    # This module's annotations are strings (`from __future__ import annotations`), which the analyzer
    # does not evaluate: exactly the mistake the error must name.
    size: int


class _Unreadable(pulumi.ComponentResource):
    def __init__(self, name: str, args: _UnreadableArgs, opts: pulumi.ResourceOptions | None = None):
        super().__init__(f"{PROJECT}:index:_Unreadable", name, None, opts)


def test_an_args_class_the_analyzer_cannot_read_is_named_in_the_error():
    from components.gpu_agents.device_plugin import NvidiaDevicePlugin

    with pytest.raises(host.SchemaError) as raised:
        host.provider([NvidiaDevicePlugin, _Unreadable])

    message = str(raised.value)
    assert message.startswith("Pulumi's analyzer cannot build the package schema: _Unreadable: ")
    assert "NvidiaDevicePlugin" not in message


def _public_components() -> dict[str, type]:
    """Every component class the `components` package defines, by name."""
    import importlib
    import inspect
    import pkgutil

    import components

    found = {}
    for module_info in pkgutil.walk_packages(components.__path__, "components."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, pulumi.ComponentResource)
                and value.__module__ == module.__name__
            ):
                found[name] = value
    return found


def test_every_component_but_the_internal_ones_is_hosted():
    hosted = {component.__name__ for component in host.components()}

    assert set(_public_components()) == hosted | set(host.INTERNAL)
    assert not hosted & set(host.INTERNAL)
