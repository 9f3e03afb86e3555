"""A Pulumi program, run under mocks by tests/program/test_example_yaml_stack.py, that does what the YAML runtime and
the engine do with examples/yaml-stack: each resource of the package is built by the package's provider
(`ComponentProvider.construct`, the path a `pulumi package add` consumer takes), from the program's
properties with config values and variables filled in and `${resource.output}` read from the state the
earlier constructions returned; the Kubernetes provider is a real one from the cluster's kubeconfig."""

import json
import re
import sys
from pathlib import Path

import pulumi
import pulumi_kubernetes as k8s

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from plugin.host import provider

REFERENCE = re.compile(r"\$\{([A-Za-z0-9_-]+)(?:\.([A-Za-z0-9_]+))?\}")
spec = json.loads((Path(__file__).resolve().parent / "yaml_construct_input.json").read_text())
program, config = spec["program"], spec["config"]
package = provider()
built: dict[str, object] = {}


def value_of(value):
    if isinstance(value, str) and (match := REFERENCE.fullmatch(value)):
        name, output = match.groups()
        if name in program.get("variables", {}):
            return value_of(program["variables"][name])
        if name in config:
            return config[name]
        return built[name] if output is None else built[name][output]
    if isinstance(value, dict):
        return {key: value_of(item) for key, item in value.items()}
    if isinstance(value, list):
        return [value_of(item) for item in value]
    return value


for name, resource in program["resources"].items():
    properties = value_of(resource.get("properties") or {})
    options = resource.get("options") or {}
    # `dependsOn` only orders the deployment; under mocks everything is registered in program order anyway.
    opts = pulumi.ResourceOptions(providers=value_of(options.get("providers")) or None)
    # A resource's `name`, when given, is its logical name (pulumi-yaml pkg/pulumiyaml/ast/template.go, ResourceDecl).
    logical = resource.get("name", name)
    if resource["type"] == "pulumi:providers:kubernetes":
        built[name] = k8s.Provider(logical, **{re.sub(r"([A-Z])", r"_\1", k).lower(): v for k, v in properties.items()})
        continue
    result = package.construct(logical, resource["type"], properties, opts)
    built[name] = result.state

for key, value in (program.get("outputs") or {}).items():
    pulumi.export(key, value_of(value))
