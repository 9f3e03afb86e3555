"""examples/yaml-stack: a Pulumi YAML program using the component package, checked against the committed schema.

No YAML runtime runs here; what the schema decides is checked instead: every resource type of the package
exists, every property it is given is an input of that type (nested objects and list items too), every
required input is given, values have the schema's primitive types, and inputs the schema marks plain, which
"do not accept eventual values" (pulumi/pulumi pkg/codegen/schema/pulumi.json, `plain`), get no other
resource's outputs.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from components.stackcheck.runtime import run_program
from plugin import host
from tests.support.example_yaml_stack import (
    _referenced,
    problems_of,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "yaml-stack"


@pytest.fixture(scope="module")
def program() -> dict[str, Any]:
    return yaml.safe_load((EXAMPLE / "Pulumi.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return json.loads(host.SCHEMA_FILE.read_text(encoding="utf-8"))


def test_program_is_pulumi_yaml_with_the_package_from_this_checkout(program):
    assert program["runtime"] == "yaml"
    source = program["packages"]["eks-gpu-inference"]
    assert (EXAMPLE / source / "PulumiPlugin.yaml").is_file()


def test_every_resource_type_property_and_required_input_agrees_with_the_schema(program, schema):
    assert problems_of(program, schema) == []


def test_the_program_uses_every_component_the_package_hosts(program, schema):
    used = {resource["type"] for resource in program["resources"].values()}

    # All but PrometheusMonitors, whose ServiceMonitors need the Prometheus Operator's CRDs in the cluster,
    # PrometheusStack, which installs that operator with a whole monitoring stack (tests/observability/test_prometheus_source.py),
    # and Karpenter's and Auto Mode's, for a pool Karpenter or EKS Auto Mode provisions instead of the example's node
    # group (tests/pools/test_karpenter_stack.py, tests/pools/test_auto_mode_stack.py).
    hosted = {f"{schema['name']}:index:{component.__name__}" for component in host.components()}
    assert hosted - used == {
        f"{schema['name']}:index:{name}"
        for name in (
            "PrometheusMonitors",
            "PrometheusStack",
            "Karpenter",
            "KarpenterNodePool",
            "AutoMode",
            "AutoModeNodePool",
        )
    }


def test_outputs_read_only_outputs_the_schema_declares(program, schema):
    resources = program["resources"]
    unknown = []
    for value in _strings(program.get("outputs") or {}):
        for match in re.finditer(r"\$\{([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)", value):
            name, prop = match.groups()
            spec = schema["resources"].get(resources.get(name, {}).get("type", ""))
            if spec is not None and prop not in spec["properties"]:
                unknown.append(f"{name}.{prop}")

    assert program.get("outputs")
    assert unknown == []


def _strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


# The checker itself: each kind of mistake a YAML program can make is found.
CHECKER_SCHEMA = {
    "name": "pkg",
    "resources": {
        "pkg:index:Thing": {
            "inputProperties": {
                "name": {"type": "string", "plain": True},
                "size": {"type": "integer"},
                "inner": {"$ref": "#/types/pkg:index:Inner", "plain": True},
                "tags": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            "requiredInputs": ["size"],
            "properties": {"id": {"type": "string"}},
        }
    },
    "types": {
        "pkg:index:Inner": {
            "type": "object",
            "properties": {"vpcId": {"type": "string"}, "count": {"type": "integer", "plain": True}},
            "required": ["vpcId"],
        }
    },
}


THING = "pkg:index:Thing"


@pytest.mark.parametrize(
    ("resource", "problem"),
    [
        pytest.param(
            {"type": "pkg:index:Nope"},
            "a: type 'pkg:index:Nope' is not a resource of the pkg schema",
            id="unknown type",
        ),
        pytest.param(
            {"type": THING, "properties": {}}, "a: required input 'size' is missing", id="required input missing"
        ),
        pytest.param(
            {"type": THING, "properties": {"size": 1, "colour": "red"}},
            "a.colour: not an input;",
            id="unknown property",
        ),
        pytest.param(
            {"type": THING, "properties": {"size": "big"}}, "a.size: 'big' is not a integer", id="wrong primitive type"
        ),
        pytest.param(
            {"type": THING, "properties": {"size": 1, "inner": {}}},
            "a.inner: required input 'vpcId'",
            id="nested required input missing",
        ),
        pytest.param(
            {"type": THING, "properties": {"size": 1, "inner": {"vpcId": "v", "count": "${b.id}"}}},
            "a.inner.count: plain input (no eventual values) given outputs of b",
            id="output in a nested plain input",
        ),
        pytest.param(
            {"type": THING, "properties": {"size": 1, "name": "${b.id}"}},
            "a.name: plain input",
            id="output in a plain input",
        ),
        pytest.param(
            {"type": THING, "properties": {"size": 1, "tags": {"k": 3}}},
            "a.tags.k: 3 is not a string",
            id="wrong map value type",
        ),
    ],
)
def test_checker_finds_each_kind_of_mistake(resource, problem):
    program = {"resources": {"a": resource, "b": {"type": "pkg:index:Thing", "properties": {"size": 2}}}}

    found = problems_of(program, CHECKER_SCHEMA)

    assert len(found) == 1 and found[0].startswith(problem), found


def test_checker_accepts_outputs_in_eventual_inputs_and_config_in_plain_ones():
    program = {
        "resources": {
            "a": {
                "type": "pkg:index:Thing",
                "properties": {"size": "${b.id}", "name": "${clusterName}", "inner": {"vpcId": "${b.id}"}},
            },
            "b": {"type": "pkg:index:Thing", "properties": {"size": 2}},
        }
    }

    assert problems_of(program, CHECKER_SCHEMA) == []


def test_checker_checks_the_values_of_variables_where_they_are_used():
    program = {
        "variables": {"inner": {"vpcId": "v", "colour": "red"}},
        "resources": {"a": {"type": "pkg:index:Thing", "properties": {"size": 1, "inner": "${inner}"}}},
    }

    assert problems_of(program, CHECKER_SCHEMA) == ["a.inner.colour: not an input; inputs: count, vpcId"]


def test_every_reference_names_a_resource_variable_or_config_key(program):
    known = set(program["resources"]) | set(program.get("variables") or {}) | set(program.get("config") or {})
    referenced = _referenced({key: program.get(key) for key in ("variables", "resources", "outputs")})

    assert referenced - known == set()
    assert {"clusterName", "placement", "instanceTypes", "network", "cluster", "kubernetes"} <= referenced


def test_the_program_builds_through_the_packages_provider_under_mocks(program, tmp_path):
    # Config as the stack file gives it, defaults from Pulumi.yaml; outputs as the constructions return them.
    stack = yaml.safe_load((EXAMPLE / "Pulumi.dev.yaml").read_text(encoding="utf-8"))["config"]
    config = {key: spec.get("default") for key, spec in program["config"].items()}
    config.update({key.split(":", 1)[1]: value for key, value in stack.items() if key.startswith("yaml-stack:")})
    shutil.copy(Path(__file__).resolve().parents[1] / "support" / "yaml_construct_program.py", tmp_path / "__main__.py")
    (tmp_path / "yaml_construct_input.json").write_text(json.dumps({"program": program, "config": config}))

    run = run_program(tmp_path / "__main__.py", {}, project="yaml-stack", stack="dev")

    [node_group] = [r for r in run.of_type("aws:eks/nodeGroup:NodeGroup") if r.name == "gpu-l40s"]
    assert node_group.inputs["instanceTypes"] == ["g6e.xlarge"]
    assert node_group.inputs["labels"]["nvidia.com/gpu.product"] == "NVIDIA-L40S"
    assert node_group.inputs["taints"] == [{"key": "GPU", "value": "true", "effect": "NO_SCHEDULE"}]
    [deployment] = [
        r for r in run.of_type("kubernetes:apps/v1:Deployment") if r.inputs["metadata"]["namespace"] == "vllm"
    ]
    pod = deployment.inputs["spec"]["template"]["spec"]
    assert pod["nodeSelector"] == {"GPU": "true"}
    [term] = pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    assert {"key": "nvidia.com/gpu.product", "operator": "In", "values": ["NVIDIA-L40S"]} in term["matchExpressions"]
    [vpc] = run.of_type("aws:ec2/vpc:Vpc")
    [eks_cluster] = run.of_type("eks:index:Cluster")
    assert eks_cluster.inputs["vpcId"] == vpc.id
    # Registration order follows when each component's inputs resolve, which is no part of the contract.
    assert sorted(r.inputs["metadata"]["name"] for r in run.of_type("kubernetes:apps/v1:Deployment")) == [
        "cluster-autoscaler",
        "vllm",
    ]
    daemonsets = {r.inputs["metadata"]["name"]: r.inputs for r in run.of_type("kubernetes:apps/v1:DaemonSet")}
    assert set(daemonsets) == {"device-plugin", "dcgm-exporter"}
    for daemonset in daemonsets.values():
        assert daemonset["spec"]["template"]["spec"]["nodeSelector"] == {"GPU": "true"}
    assert run.outputs["gpuNodeGroup"] and run.outputs["vllmService"].endswith(".svc.cluster.local")
