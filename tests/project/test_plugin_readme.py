"""The library page's section on using the package from other languages (docs/library.md) says what the package and
its schema are."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from plugin import host
from tests.support.example_yaml_stack import problems_of

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "docs" / "library.md"
HEADING = "## From TypeScript, YAML and other languages"
# Options of a component resource in TypeScript, not inputs.
RESOURCE_OPTIONS = {"providers", "provider", "dependsOn", "parent", "protect"}


@pytest.fixture(scope="module")
def section() -> str:
    page = LIBRARY.read_text(encoding="utf-8")
    start = page.index(HEADING)
    end = page.find("\n## ", start + len(HEADING))
    return page[start : end if end >= 0 else len(page)]


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads(host.SCHEMA_FILE.read_text(encoding="utf-8"))


def _blocks(section: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", section, flags=re.DOTALL)


def test_both_package_add_commands_name_the_plugin_folder_at_a_commit(section):
    commands = [line for block in _blocks(section, "bash") for line in block.splitlines() if line.strip()]

    assert commands == ["pulumi package add https://github.com/<owner>/eks-gpu-inference/plugin@<commit>"] * 2
    assert (ROOT / "plugin" / "PulumiPlugin.yaml").is_file()


def test_the_hosted_components_named_are_the_ones_the_package_hosts(section):
    hosted = [component.__name__ for component in host.components()]

    assert f"The package hosts every component: `{'`, `'.join(hosted[:-1])}` and `{hosted[-1]}`;" in " ".join(
        section.split()
    )


def test_the_inputs_said_to_take_outputs_are_the_schemas_non_plain_ones(section, schema):
    text = " ".join(section.split())
    said = set(re.search(r"Only (.*?) take outputs", text).group(1).replace(" and the fields of ", ", ").split(", "))
    said = {re.sub(r" \(.*?\)", "", name).strip("` ") for name in said}
    eventual = {
        name
        for spec in schema["resources"].values()
        for name, prop in spec["inputProperties"].items()
        if not prop.get("plain")
    }
    eventual_types = {
        token.rpartition(":")[2]
        for token, spec in schema["types"].items()
        if spec.get("properties") and all(not prop.get("plain") for prop in spec["properties"].values())
    }

    assert said == eventual | eventual_types


def test_the_yaml_example_agrees_with_the_schema(section, schema):
    [block] = _blocks(section, "yaml")
    program = yaml.safe_load(block)

    assert problems_of(program, schema) == []


def test_the_typescript_example_uses_only_components_and_inputs_of_the_schema(section, schema):
    [block] = _blocks(section, "typescript")
    known_inputs = {
        name
        for spec in (*schema["resources"].values(), *schema["types"].values())
        for name in (spec.get("inputProperties") or spec.get("properties") or {})
    }
    used = re.findall(r"new gpu\.(\w+)\(", block)
    keys = set(re.findall(r"(\w+):", block)) | {"placement"}

    assert used and all(f"{schema['name']}:index:{name}" in schema["resources"] for name in used)
    assert keys - known_inputs - RESOURCE_OPTIONS == {"kubeconfig"}  # the Kubernetes provider's input
    # Every input a component requires is given.
    for name in used:
        required = schema["resources"][f"{schema['name']}:index:{name}"].get("requiredInputs", [])
        assert set(required) <= keys, name


def test_the_nested_types_named_are_the_schemas_types(section, schema):
    text = " ".join(section.split())
    listed = re.search(r"the nested types (.*?) \(`plugin/schema.json`\)", text).group(1)

    assert re.findall(r"`(\w+)`", listed) == [token.rpartition(":")[2] for token in schema["types"]]


def test_no_document_names_a_release_tag_the_repository_does_not_have():
    """Install lines name `@<commit>` until releases are tagged; a `@v1.2.3` there would name nothing."""
    tags = set(subprocess.run(["git", "tag"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split())
    documents = [
        LIBRARY,
        ROOT / "plugin" / "PulumiPlugin.yaml",
        ROOT / "README.md",
        *sorted(ROOT.glob("docs/**/*.md")),
        *sorted(ROOT.glob("examples/*/Pulumi.yaml")),
    ]
    named = {
        (path.name, found)
        for path in documents
        for found in re.findall(r"@(v?\d+\.\d+\.\d+|v<version>|<tag>)", path.read_text(encoding="utf-8"))
    }
    assert {(name, tag) for name, tag in named if tag not in tags} == set()
    assert all("@<commit>" in path.read_text(encoding="utf-8") for path in documents[:2])
