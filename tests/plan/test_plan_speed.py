"""What the offline plan skips or shares to run fast, and that it answers the same for it."""

from __future__ import annotations

import importlib.resources
import json
import textwrap

import kubernetes_validate
import pytest
from pulumi.runtime import resource as pulumi_resource

from components.facts.resource_types import SERVICE
from components.stackcheck import runtime
from components.stackcheck.plan import schema
from components.stackcheck.plan.render import KubernetesObject


def _definitions_file(version: str) -> bytes:
    path = f"kubernetes-json-schema/v{version}-local-strict/_definitions.json"
    return importlib.resources.files("kubernetes_validate").joinpath(path).read_bytes()


def test_registrations_under_mocks_carry_no_stack_trace_and_the_sdk_walks_again_after(tmp_path, monkeypatch):
    program = tmp_path / "__main__.py"
    program.write_text(
        textwrap.dedent("""
            import pulumi

            class Thing(pulumi.ComponentResource):
                def __init__(self, name):
                    super().__init__("test:index:Thing", name)

            Thing("thing")
        """)
    )
    frames: list[int] = []
    original_register = runtime._Monitor.RegisterResource

    def register(self, request):
        if request.type == "test:index:Thing":
            frames.append(len(request.stackTrace.frames))
        return original_register(self, request)

    monkeypatch.setattr(runtime._Monitor, "RegisterResource", register)
    walk = pulumi_resource._get_stack_trace

    run = runtime.run_program(program, {}, project="p", stack="s")

    assert [resource.type for resource in run.resources] == ["test:index:Thing"]
    assert frames == [0]
    assert pulumi_resource._get_stack_trace is walk


@pytest.mark.parametrize(
    "version", [kubernetes_validate.utils.latest_version(), "1.34.0"], ids=["newest bundled version", "1.34"]
)
def test_definitions_decoded_entry_by_entry_equal_the_whole_file_parsed(version):
    data = _definitions_file(version)
    whole = json.loads(data)

    lazy = schema._lazy_definitions(data)

    assert lazy is not None and lazy.keys() == whole.keys()
    assert {key: value for key, value in lazy.items() if key != "$defs"} == {
        key: value for key, value in whole.items() if key != "$defs"
    }
    definitions = lazy["$defs"]
    assert all(definitions[name] == entry for name, entry in whole["$defs"].items())
    assert definitions._whole is None  # every entry found in the text, none by parsing the whole
    assert dict(definitions) == whole["$defs"]
    with pytest.raises(KeyError):
        definitions["io.k8s.api.core.v1.NoSuchThing"]


def test_definitions_laid_out_otherwise_are_read_by_kubernetes_validate_itself():
    compact = json.dumps(json.loads(_definitions_file("1.34.0"))).encode()
    calls = []

    def read(filename, desired_version):
        calls.append(filename)
        return {"read": filename}

    contents = schema._definitions_decoded_on_demand(read)

    assert schema._lazy_definitions(compact) is None
    assert contents("kubernetes-json-schema/v1.34.0-local-strict/service-v1.json", "1.34.0") == {
        "read": "kubernetes-json-schema/v1.34.0-local-strict/service-v1.json"
    }
    assert contents("kubernetes-json-schema/v9.99.0-local-strict/_definitions.json", "9.99.0") == {
        "read": "kubernetes-json-schema/v9.99.0-local-strict/_definitions.json"
    }
    assert len(calls) == 2


def test_schema_check_answers_as_kubernetes_validate_alone_and_leaves_it_as_it_was():
    utils = kubernetes_validate.utils
    functions = {name: getattr(utils, name) for name in ("schema_contents", "all_versions", "major_minor")}
    valid = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": [{"port": 80}]}}
    invalid = {**valid, "spec": {"ports": [{"port": "eighty"}]}}

    results = schema.validate_objects(
        [(KubernetesObject(manifest, "s", SERVICE), None) for manifest in (valid, invalid)], "1.34"
    )

    assert kubernetes_validate.validate(valid, "1.34.0", strict=True) == "1.34"
    with pytest.raises(kubernetes_validate.ValidationError) as alone:
        kubernetes_validate.validate(invalid, "1.34.0", strict=True)
    assert [result.passed for result in results] == [True, False]
    assert results[0].message == "valid (Kubernetes 1.34)"
    assert results[1].message == f"invalid (Kubernetes 1.34): spec.ports[0].port: {alone.value.message}"
    assert {name: getattr(utils, name) for name in functions} == functions
