"""The layers of docs/architecture.md hold inside the package `components/`, exactly as drawn there: facts is the
floor; placement and the components (with their settings) each stand on facts alone, side by side; stackcheck
stands on all three.

The facts and the scheduling model load neither Pulumi nor pydantic, the settings load no Pulumi, the pure
builders load no Pulumi SDK, so offline tools and other projects can use them cheaply; and no module of a
lower layer imports one of a higher layer, so the packages stand on each other without cycles.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "components"
PULUMI = ("pulumi", "pulumi_aws", "pulumi_eks", "pulumi_kubernetes")
HEAVY = (*PULUMI, "pydantic", "kubernetes_validate", "yaml")
STANDS_ON = {
    "facts": set(),
    "placement": {"facts"},
    "components": {"facts"},
    "stackcheck": {"facts", "placement", "components"},
}
"""The drawing of docs/architecture.md, "Layers": the layers each layer imports, none other. `facts`,
`placement` and `stackcheck` are the subpackages of `components` of those names; every other module of
`components` (the settings too) is the `components` layer."""
LAYERS = tuple(STANDS_ON)


# One interpreter imports nothing of the package itself and forks a child per module: each child starts from
# the state a fresh interpreter is in, at the cost of one start for the whole table.
PROBE = """
import importlib, importlib.abc, json, os, sys

class Uninstalled(importlib.abc.MetaPathFinder):
    # The packages of sys.argv[3] behave as if they were not installed: importing one fails.
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in json.loads(sys.argv[3]):
            raise ModuleNotFoundError(f"No module named {name!r} (not installed)", name=name)
        return None

for module in json.loads(sys.argv[1]):
    read, write = os.pipe()
    if os.fork() == 0:
        os.close(read)
        if module in json.loads(sys.argv[4]):
            sys.meta_path.insert(0, Uninstalled())
        try:
            importlib.import_module(module)
            found = {"loaded": sorted(name for name in json.loads(sys.argv[2]) if name in sys.modules)}
        except BaseException as error:
            found = {"error": f"{type(error).__name__}: {error}"}
        with os.fdopen(write, "w") as channel:
            channel.write(json.dumps(found))
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as channel:
        found = json.loads(channel.read() or '{"error": "the child died"}')
    os.wait()
    print(json.dumps([module, found]))
"""


def loaded_after_import(modules: list[str], without_pulumi: list[str] = ()) -> dict[str, dict]:
    """For each of `modules`, the heavy packages present in `sys.modules` after importing it in an interpreter
    that has imported nothing else of the package: `{"loaded": [...]}`, or `{"error": ...}` when it fails. Those
    of `without_pulumi` are imported as if the Pulumi SDKs were not installed."""
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
            json.dumps(modules),
            json.dumps(HEAVY),
            json.dumps(PULUMI),
            json.dumps(without_pulumi),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    return dict(json.loads(line) for line in completed.stdout.splitlines())


def heavy(probed: dict[str, dict], module: str) -> list[str]:
    """The heavy packages `module` loads, failing on its import error."""
    assert "error" not in probed[module], probed[module]["error"]
    return probed[module]["loaded"]


def modules_of(package: str) -> list[str]:
    """Dotted names of every module of `package` in the tree."""
    names = []
    for path in sorted((PACKAGE / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


FACTS = modules_of("facts")
PLACEMENT = modules_of("placement")
assert FACTS and PLACEMENT


def pure_builders(root: Path) -> list[str]:
    """The pure builders, found by rule rather than listed: every module named `manifests` or `*_manifests`
    anywhere in the package (a concern's Kubernetes and AWS objects as plain data), and every module of `kube/`
    (the Kubernetes helpers every concern shares)."""
    found = []
    for path in sorted((root / "components").rglob("*.py")):
        relative = path.relative_to(root)
        if "__pycache__" in relative.parts:
            continue
        if relative.stem == "manifests" or relative.stem.endswith("_manifests") or relative.parts[1] == "kube":
            parts = relative.with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


PURE_BUILDERS = pure_builders(ROOT)
SETTINGS = [
    "components.settings",
    "components.settings.reader",
    "components.settings.section",
    "components.settings.vllm",
]


@pytest.fixture(scope="module")
def loaded() -> dict[str, dict]:
    """The heavy packages each probed module loads on its own."""
    return loaded_after_import(
        FACTS + PLACEMENT + PURE_BUILDERS + SETTINGS, without_pulumi=FACTS + PLACEMENT + PURE_BUILDERS
    )


def test_the_floor_holds_the_fact_modules():
    assert {
        "components.facts.contract",
        "components.facts.gpu_catalog",
        "components.facts.versions",
        "components.facts.eks_model",
        "components.facts.eks_node",
        "components.facts.identity",
        "components.facts.markers",
        "components.facts.quantity",
        "components.facts.node_agents",
    } <= set(FACTS)


@pytest.mark.parametrize("module", FACTS + PLACEMENT)
def test_facts_and_the_scheduling_model_load_no_sdk_and_no_pydantic(loaded, module):
    assert heavy(loaded, module) == []


@pytest.mark.parametrize("module", PURE_BUILDERS)
def test_pure_builders_import_with_no_pulumi_installed(loaded, module):
    assert not set(PULUMI) & set(heavy(loaded, module))


def test_the_rule_finds_every_concerns_builders_and_the_kube_helpers():
    """The modules docs/architecture.md names as pure builders are among those the rule finds."""
    assert {
        "components.vllm.manifests",
        "components.pools.karpenter.manifests",
        "components.pools.auto_mode.manifests",
        "components.autoscaling.keda_manifests",
        "components.kube.labels",
        "components.kube.security_context",
    } <= set(PURE_BUILDERS)


def test_the_rule_finds_a_new_builder_and_the_probe_refuses_one_that_needs_pulumi(tmp_path):
    """A concern that adds `manifests.py` is probed without being listed, and a builder that imports the SDK fails
    to import when Pulumi is taken away."""
    (tmp_path / "components" / "queue").mkdir(parents=True)
    (tmp_path / "components" / "__init__.py").write_text("")
    (tmp_path / "components" / "queue" / "__init__.py").write_text("")
    (tmp_path / "components" / "queue" / "manifests.py").write_text("import pulumi\n")
    (tmp_path / "components" / "queue" / "queue.py").write_text("")
    assert pure_builders(tmp_path) == ["components.queue.manifests"]
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
            json.dumps(["components.queue.manifests"]),
            json.dumps(HEAVY),
            json.dumps(PULUMI),
            json.dumps(["components.queue.manifests"]),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    (line,) = completed.stdout.splitlines()
    assert json.loads(line)[1] == {"error": "ModuleNotFoundError: No module named 'pulumi' (not installed)"}


@pytest.mark.parametrize("module", SETTINGS)
def test_settings_load_pydantic_but_no_pulumi(loaded, module):
    assert heavy(loaded, module) == ["pydantic"]


def layer_of(module: str) -> str | None:
    """The layer of the dotted module `module` (`components.facts.contract` is in `facts`), None outside."""
    parts = module.split(".")
    if parts[0] != "components":
        return None
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else "components"


def imported_modules(path: Path, root: Path) -> set[str]:
    """The dotted modules every import statement of the file at `path` names, lazy ones too; relative imports
    resolved against the file's place under `root`, and `from pkg import name` read as `pkg.name`."""
    parts = path.relative_to(root).with_suffix("").parts
    package = parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            base += (node.module or "").split(".") if node.module else []
            found.update(".".join([*base, alias.name]) for alias in node.names)
    return found


def layer_imports(root: Path) -> dict[str, set[str]]:
    """`importer file -> the other layers it imports`, for every module of `root`/components."""
    found = {}
    for path in sorted((root / "components").rglob("*.py")):
        own = layer_of(".".join(path.relative_to(root).with_suffix("").parts))
        found[path.relative_to(root).as_posix()] = {layer_of(module) for module in imported_modules(path, root)} & (
            set(LAYERS) - {own}
        )
    return found


def layer_violations(root: Path) -> list[str]:
    """`importer -> imported layer` for each import of a layer its own layer does not stand on, in `root`."""
    violations = []
    for importer, layers in layer_imports(root).items():
        allowed = STANDS_ON[layer_of(".".join(Path(importer).with_suffix("").parts))]
        violations += [f"{importer} -> {name}" for name in sorted(layers - allowed)]
    return violations


def test_no_module_imports_a_layer_above_or_beside_its_own():
    assert layer_violations(ROOT) == []


def test_every_drawn_arrow_is_an_import_the_code_makes():
    """The drawing is no looser than the code: each layer imports every layer it is drawn standing on."""
    used = {layer: set() for layer in LAYERS}
    for importer, layers in layer_imports(ROOT).items():
        used[layer_of(".".join(Path(importer).with_suffix("").parts))] |= layers
    assert used == STANDS_ON


def test_the_layer_check_finds_an_import_that_runs_back_up_or_sideways(tmp_path):
    for package in ("facts", "placement", "settings", "stackcheck"):
        (tmp_path / "components" / package).mkdir(parents=True)
    (tmp_path / "components" / "facts" / "fact.py").write_text("def f():\n    from ..placement.pools import x\n")
    (tmp_path / "components" / "placement" / "pools.py").write_text("from . import taints\nfrom ..facts import c\n")
    (tmp_path / "components" / "shell.py").write_text("from .stackcheck import plan\nfrom . import placement\n")
    (tmp_path / "components" / "settings" / "s.py").write_text("from .. import stackcheck\nfrom ..facts import c\n")
    (tmp_path / "components" / "placement" / "guard.py").write_text("from ..settings import stack\n")
    (tmp_path / "components" / "stackcheck" / "plan.py").write_text("from .. import placement, cluster\n")
    assert layer_violations(tmp_path) == [
        "components/facts/fact.py -> placement",
        "components/placement/guard.py -> components",
        "components/settings/s.py -> stackcheck",
        "components/shell.py -> placement",
        "components/shell.py -> stackcheck",
    ]
