"""The package, the component plugin and the program type-check: mypy's configuration lives in pyproject.toml
([tool.mypy]), and any finding fails.

mypy reads of the Pulumi SDKs only the services and API groups the code calls (pyproject.toml's overrides), so
that a run without a cache takes seconds rather than minutes; a skipped module is `Any` to mypy, so these tests
also hold that every SDK module the code reaches is read, and that a wrong argument to each SDK is reported.
The cache lives in the system's temporary directory, one per checkout and interpreter, so later runs check
only what changed.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import io
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from mypy.config_parser import parse_config_file
from mypy.options import Options

ROOT = Path(__file__).resolve().parents[2]
CACHE = (
    Path(tempfile.gettempdir())
    / "eks-gpu-inference-mypy"
    / hashlib.sha256(f"{ROOT}\0{sys.prefix}".encode()).hexdigest()[:16]
)
SDKS = ("pulumi_aws", "pulumi_kubernetes")
"""The SDKs mypy reads only in part."""

# Calls into each part of the SDKs the overrides read, all but the first wrong (marked). mypy takes minutes to
# report a wrong argument to a resource whose spec holds a pod template (a Deployment, a DaemonSet: the nested
# TypedDicts of python/mypy#17231), so the pod template's args are probed through their args class.
PROBE = """\
import pulumi_aws as aws
import pulumi_kubernetes as k8s

aws.ec2.Vpc("right", cidr_block="10.0.0.0/16", enable_dns_support=True)
aws.ec2.Vpc("misspelt", cidr_blok="10.0.0.0/16")  # wrong
aws.eks.NodeGroup("node-group", cluster_name="c", node_role_arn="r", subnet_ids=["s"], scaling_config=42)  # wrong
aws.get_region_output(regoin="us-west-2")  # wrong
k8s.Provider("provider", kubeconfig=3)  # wrong
k8s.core.v1.Service("service", spec=3)  # wrong
k8s.apps.v1.DeploymentSpecArgs(replicas="3", selector=k8s.meta.v1.LabelSelectorArgs(), template=k8s.core.v1.PodTemplateSpecArgs())  # wrong
"""


@pytest.fixture(scope="module")
def options() -> Options:
    """mypy's options as pyproject.toml sets them, read by mypy itself."""
    options = Options()
    parse_config_file(options, lambda: None, str(ROOT / "pyproject.toml"), stdout=io.StringIO(), stderr=io.StringIO())
    return options


def test_mypy_reports_nothing_but_the_wrong_sdk_calls_of_a_probe(options):
    # One run, the package's findings and the probe's together: a second run would read the SDKs again. The
    # probe keeps its path, since mypy reports a cached module's errors under the path it was cached from.
    probe = CACHE.with_name(f"{CACHE.name}-probe") / "sdk_probe.py"
    probe.parent.mkdir(parents=True, exist_ok=True)
    probe.write_text(PROBE)
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(CACHE), *options.files, str(probe)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    findings = set(re.findall(r"^(.+?:\d+): error:", completed.stdout, re.MULTILINE))
    wrong = {f"{probe}:{number}" for number, line in enumerate(PROBE.splitlines(), 1) if line.endswith("# wrong")}

    assert findings == wrong, completed.stdout + completed.stderr


def test_every_sdk_module_the_code_reaches_is_read_by_mypy(options):
    reached = {
        name: _defining_module(name)
        for path in _sources(options.files)
        for name in _sdk_names(ast.parse(path.read_text(), str(path)))
    }
    skipped = sorted(f"{name} ({module})" for name, module in reached.items() if _skipped(options, module))

    assert reached["pulumi_aws.ec2.Vpc"] == "pulumi_aws.ec2.vpc"
    assert skipped == [], "add these modules to pyproject.toml's follow_imports = normal override"


def _skipped(options: Options, module: str) -> bool:
    return options.clone_for_module(module).follow_imports != "normal"


def _sources(entries: list[str]) -> Iterator[Path]:
    for entry in entries:
        path = ROOT / entry
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def _sdk_names(tree: ast.Module) -> set[str]:
    """The dotted SDK names a module uses (`aws.ec2.Vpc` as `pulumi_aws.ec2.Vpc`), in code and annotations."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in SDKS:
                    bound = alias.asname or alias.name.split(".")[0]
                    aliases[bound] = alias.name if alias.asname else bound
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in SDKS:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    names = set(aliases.values())
    for node in _with_string_annotations(tree):
        dotted = _dotted(node)
        if dotted and dotted[0] in aliases:
            names.add(".".join([aliases[dotted[0]], *dotted[1:]]))
    return names


def _with_string_annotations(tree: ast.Module) -> Iterator[ast.AST]:
    """Every node of `tree`, and those of the types written as strings: annotations and `cast`'s first argument."""
    for node in ast.walk(tree):
        yield node
        annotation = getattr(node, "annotation", None) or getattr(node, "returns", None)
        if isinstance(node, ast.Call) and node.args and _dotted(node.func)[-1:] == ["cast"]:
            annotation = node.args[0]
        for inner in ast.walk(annotation) if annotation else ():
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                try:
                    yield from ast.walk(ast.parse(inner.value, mode="eval"))
                except SyntaxError:
                    continue  # a string in a `Literal`


def _dotted(node: ast.AST) -> list[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return [node.id, *reversed(parts)] if isinstance(node, ast.Name) else []


def _defining_module(name: str) -> str:
    """The SDK module that defines `name`: `pulumi_aws.ec2.Vpc` is `pulumi_aws.ec2.vpc`, which `pulumi_aws.ec2`
    re-exports; a module's own name for a module."""
    parts = tuple(name.split("."))
    end = max(end for end in range(1, len(parts) + 1) if _module_file(parts[:end]))
    module, path = ".".join(parts[:end]), _module_file(parts[:end])
    if end < len(parts) and path and path.name == "__init__.py":
        for star in re.findall(r"^from \.(\w+) import \*$", path.read_text(), re.MULTILINE):
            if parts[end] in _exported(path.parent / f"{star}.py"):
                return f"{module}.{star}"
    return module


@cache
def _module_file(parts: tuple[str, ...]) -> Path | None:
    spec = importlib.util.find_spec(parts[0])
    if spec is None or not spec.submodule_search_locations:
        return None
    base = Path(next(iter(spec.submodule_search_locations))).joinpath(*parts[1:])
    return next((path for path in (base / "__init__.py", base.with_suffix(".py")) if path.is_file()), None)


@cache
def _exported(path: Path) -> frozenset[str]:
    found = re.search(r"^__all__ = (\[.*?\])", path.read_text(), re.MULTILINE | re.DOTALL) if path.is_file() else None
    return frozenset(ast.literal_eval(found.group(1))) if found else frozenset()
