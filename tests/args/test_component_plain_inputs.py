"""Inputs the package schema marks plain (known when the component is constructed, because they shape its
resources): an Output given there, always possible from Python, is named as such before anything is
registered, for every such input of every component. And what a Python stack imports of the components."""

from __future__ import annotations

import dataclasses
import json
import sys

import pytest
from pulumi.provider.experimental.util import camel_case

from components.settings import ConfigError
from components.stackcheck.runtime import ProgramRun
from plugin.host import SCHEMA_FILE
from tests.support.component_args import COMPONENTS, PROJECT, run_components, schema_of
from tests.support.component_plain_inputs import REQUIRED_INPUTS


def _args_class(component) -> type:
    return getattr(sys.modules[component.__module__], f"{component.__name__}Args")


PLAIN_INPUTS = [
    (component, field.name)
    for component in COMPONENTS
    for field in dataclasses.fields(_args_class(component))
    if schema_of(component)["resources"][f"{PROJECT}:index:{component.__name__}"]["inputProperties"][
        camel_case(field.name)
    ].get("plain")
]


@pytest.mark.parametrize(("component", "field"), PLAIN_INPUTS, ids=[f"{c.__name__} {f}" for c, f in PLAIN_INPUTS])
def test_an_output_given_for_a_plain_input_is_named_before_anything_is_registered(tmp_path, component, field):
    name = component.__name__
    run = ProgramRun()
    with pytest.raises(ConfigError) as raised:
        run_components(
            tmp_path,
            f"""
            import pulumi
            from {component.__module__} import {name}, {name}Args

            values = {REQUIRED_INPUTS.get(name, {})!r}
            values[{field!r}] = pulumi.Output.from_input("x")
            {name}("it", {name}Args(**values))
            """,
            run,
        )
    assert f"{name}(it).args.{field}: an Output or awaitable; allowed: a plain value" in str(raised.value)
    assert run.resources == [], [resource.name for resource in run.resources]


def test_every_hosted_component_its_args_and_the_schemas_types_are_exported_by_the_package():
    """What docs/library.md tells a Python stack to import from `eks_gpu_inference`: each component the
    plugin hosts, its args class and every nested args type the schema names."""
    import components
    from plugin.host import components as hosted

    types = {token.rsplit(":", 1)[-1] for token in json.loads(SCHEMA_FILE.read_text())["types"]}
    names = [*(c.__name__ for c in hosted()), *(f"{c.__name__}Args" for c in hosted()), *types]
    assert {"VllmServer", "VllmServerArgs", "PlacementArgs"} <= set(names)
    for name in names:
        assert name in components.__all__, name
        assert getattr(components, name).__name__ == name


@pytest.mark.parametrize(
    ("component", "bad"),
    [
        pytest.param("GpuNodeGroup", {"instance_types": ["g5"]}, id="node group: a malformed instance type"),
        pytest.param("VllmServer", {"replicas": -1}, id="vLLM server: negative replicas"),
        pytest.param("Network", {"cidr": "10.0.0.0/8"}, id="network: a VPC range too wide"),
    ],
)
def test_an_output_and_a_bad_value_are_reported_together(tmp_path, component, bad):
    run = ProgramRun()
    with pytest.raises(ConfigError) as raised:
        run_components(
            tmp_path,
            f"""
            import pulumi
            from components import {component}, {component}Args

            values = {{**{REQUIRED_INPUTS.get(component, {})!r}, **{bad!r}}}
            {component}("it", {component}Args(**values, tags=pulumi.Output.from_input({{"team": "ml"}})))
            """
            if component != "VllmServer"
            else f"""
            import pulumi
            from components import {component}, {component}Args

            {component}("it", {component}Args(**{bad!r}, name=pulumi.Output.from_input("chat")))
            """,
            run,
        )
    reported = [str(problem) for problem in raised.value.problems]
    unknown = "tags" if component != "VllmServer" else "name"
    (bad_key,) = bad
    assert any(text.startswith(f"{component}(it).args.{unknown}: an Output") for text in reported), reported
    assert any(text.startswith(f"{component}(it).args.{bad_key}") for text in reported), reported
    assert len(reported) == 2, reported
    assert run.resources == []
