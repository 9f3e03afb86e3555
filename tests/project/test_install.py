"""The wheel another stack installs: `components/` as `eks_gpu_inference`, byte for byte, next to the stack's own
`components` package, and the offline plan as the `eks-gpu-plan` command run on that stack's directory.

One wheel is built (offline, from a copy of the sources) and installed with --no-deps into a fresh
virtual environment whose dependencies come from the environment running the tests.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


SOURCE = ROOT / "components"
"""The folder the wheel installs as `eks_gpu_inference`."""

USER_COMPONENTS = '''"""The stack's own components package, a common Pulumi layout."""

TEAM = "ml-platform"
'''

USER_PROGRAM = '''"""Another project's program: its own `components` next to the installed `eks_gpu_inference`."""

import pulumi

from components import TEAM
from eks_gpu_inference import (
    EksCluster,
    EksClusterArgs,
    GpuNodeGroup,
    GpuNodeGroupArgs,
    NvidiaDevicePlugin,
    NvidiaDevicePluginArgs,
    SystemNodeGroupArgs,
    VllmServer,
    VllmServerArgs,
)
from eks_gpu_inference.args.validate import args_from_settings, placement_args
from eks_gpu_inference.settings import config_from_pulumi, parse_stack_config

settings = parse_stack_config(*config_from_pulumi(), project=pulumi.get_project())
placement = placement_args(settings.contract)
cluster = EksCluster(
    TEAM,
    args_from_settings(
        EksClusterArgs,
        settings.cluster,
        system_node_group=args_from_settings(SystemNodeGroupArgs, settings.system_node_group),
        gpu_placement=placement,
    ),
)
gpus = GpuNodeGroup(
    f"{TEAM}-gpu",
    args_from_settings(
        GpuNodeGroupArgs,
        settings.gpu_node_group,
        cluster_name=cluster.cluster_name,
        node_role_arn=cluster.node_role_arn,
        subnet_ids=cluster.subnet_ids,
        placement=placement,
    ),
)
on_cluster = pulumi.ResourceOptions(provider=cluster.provider)
NvidiaDevicePlugin(f"{TEAM}-device-plugin", NvidiaDevicePluginArgs(placement=placement), opts=on_cluster)
VllmServer(
    f"{TEAM}-vllm",
    args_from_settings(
        VllmServerArgs,
        settings.vllm,
        instance_types=list(settings.gpu_node_group.instance_types),
        placement=placement,
    ),
    opts=on_cluster,
)
pulumi.export("team", TEAM)
'''

USER_PROJECT = """name: ml-inference
runtime: python
description: a stack of another team that installs eks-gpu-inference
"""

USER_STACK = """config:
  aws:region: us-west-2
  ml-inference:cluster:
    name: ml-dev
  ml-inference:gpuNodeGroup:
    instanceTypes: [g5.xlarge]
    minSize: 1
    desiredSize: 1
    maxSize: 2
"""


# What a PEP 517 front end such as `pip wheel --no-build-isolation` does: call the build backend pyproject.toml
# names, in the source tree, in the running environment (which has its build requirements). Calling it
# directly spares starting pip and a second interpreter for the backend.
BUILD_WHEEL = """
import importlib, sys, tomllib
with open("pyproject.toml", "rb") as file:
    module, _, attribute = tomllib.load(file)["build-system"]["build-backend"].partition(":")
backend = importlib.import_module(module)
for name in filter(None, attribute.split(".")):
    backend = getattr(backend, name)
backend.build_wheel(sys.argv[1])
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a copy of the sources (the build writes build/ and *.egg-info next to them)."""
    source = tmp_path_factory.mktemp("source")
    ignore = shutil.ignore_patterns(".*", "__pycache__", "out", "build", "dist", "mutants", "*.egg-info", "tests")
    shutil.copytree(ROOT, source, ignore=ignore, dirs_exist_ok=True)
    dist = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-c", BUILD_WHEEL, str(dist)], cwd=source)
    (built,) = dist.glob("eks_gpu_inference-*.whl")
    return built


@pytest.fixture(scope="module")
def environment(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel installed; its dependencies are the test environment's."""
    home = tmp_path_factory.mktemp("venv")
    venv.create(home, with_pip=False)
    python = home / "bin" / "python"
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip()
    here = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    lines = [f"import site; site.addsitedir({path!r})" for path in sorted(here)]
    (Path(purelib) / "test_environment_dependencies.pth").write_text("\n".join(lines) + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)])
    return home


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """Another team's Pulumi project, with a `components` package of its own."""
    root = tmp_path_factory.mktemp("ml-inference")
    (root / "components").mkdir()
    (root / "components" / "__init__.py").write_text(USER_COMPONENTS)
    (root / "__main__.py").write_text(USER_PROGRAM)
    (root / "Pulumi.yaml").write_text(USER_PROJECT)
    (root / "Pulumi.dev.yaml").write_text(USER_STACK)
    return root


def _run(command: list[str], cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    completed = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    if check:
        assert completed.returncode == 0, completed.stdout + completed.stderr
    return completed


def test_the_stack_imports_its_own_components_and_ours_side_by_side(environment, project):
    code = textwrap.dedent(
        """
        import importlib.util, json
        import components
        import eks_gpu_inference
        from eks_gpu_inference import PlacementContract
        from eks_gpu_inference.stackcheck import plan
        print(json.dumps({
            "mine": components.__file__,
            "team": components.TEAM,
            "ours": eks_gpu_inference.__file__,
            "contract": PlacementContract.__module__,
            "plan": plan.__name__,
            "top_level": {name: importlib.util.find_spec(name) is not None for name in ("facts", "placement", "stackcheck")},
        }))
        """
    )
    seen = json.loads(_run([str(environment / "bin" / "python"), "-c", code], cwd=project).stdout)
    assert seen["mine"] == str(project / "components" / "__init__.py")
    assert seen["team"] == "ml-platform"
    assert Path(seen["ours"]).is_relative_to(environment)
    assert seen["contract"] == "eks_gpu_inference.facts.contract"
    assert seen["plan"] == "eks_gpu_inference.stackcheck.plan"
    assert seen["top_level"] == {"facts": False, "placement": False, "stackcheck": False}


def test_eks_gpu_plan_plans_another_projects_stack_from_any_directory(environment, project, tmp_path):
    command = [str(environment / "bin" / "eks-gpu-plan"), "--project-dir", str(project), "--stack", "dev"]
    completed = _run(command, cwd=tmp_path, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    out = completed.stdout
    summary, heading = out.splitlines()[:2]
    assert summary.startswith("OK (exit 0): every check holds; ")
    assert heading == f"Plan of stack dev (project ml-inference, {project / 'Pulumi.dev.yaml'})"
    for verdict in (
        "PASS  1 gpu-workloads-land-on-gpu-pools",
        "PASS  2 plain-pods-stay-off-gpu-pools",
        "PASS  3 device-plugin-covers-gpu-pools",
        "PASS  5 gpu-requests-fit-one-node",
        "PASS  6 node-agents-cover-their-pools",
    ):
        assert verdict in out
    # The program's own package named the pools; the server's namespace and objects are named after its component.
    assert "ml-platform-vllm/ml-platform-vllm" in out and "ml-platform-gpu" in out
    assert (project / "out" / "dev").is_dir()
    assert "OK: every check holds (exit 0)" in out


def test_eks_gpu_plan_names_a_missing_project_file(environment, tmp_path):
    completed = _run([str(environment / "bin" / "eks-gpu-plan"), "--project-dir", str(tmp_path)], check=False)
    assert completed.returncode == 2
    assert f"no Pulumi.yaml in {tmp_path}" in completed.stderr


def test_the_wheel_claims_one_import_name_and_ships_the_data(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    packages = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert packages == {"eks_gpu_inference"}
    shipped = _shipped_files()
    assert {"py.typed", "observability/dashboards/gpu-inference.json", "stackcheck/plan/crds"} & {
        path.relative_to(SOURCE).as_posix() for path in shipped
    } == {"py.typed", "observability/dashboards/gpu-inference.json"}
    for source in shipped:
        assert f"eks_gpu_inference/{source.relative_to(SOURCE).as_posix()}" in names


def test_every_installed_module_is_its_source_byte_for_byte(wheel):
    with zipfile.ZipFile(wheel) as archive:
        installed = {
            name.removeprefix("eks_gpu_inference/"): archive.read(name)
            for name in archive.namelist()
            if name.startswith("eks_gpu_inference/") and name.endswith(".py")
        }
    sources = {path.relative_to(SOURCE).as_posix(): path.read_bytes() for path in SOURCE.rglob("*.py")}
    assert set(installed) == set(sources)
    assert [name for name, content in installed.items() if content != sources[name]] == []


def test_the_package_imports_itself_only_relatively():
    """Absolute imports of `components` or of its old top-level names would break once installed."""
    absolute = []
    for path in SOURCE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            own = ("components", "eks_gpu_inference", "facts", "placement", "stackcheck", "settings", "dashboards")
            absolute += [f"{path.relative_to(ROOT)}: {name}" for name in names if name.split(".")[0] in own]
    assert absolute == []


def _shipped_files() -> list[Path]:
    """Every file the installed code reads: modules, the typing marker, data, dashboards, CRDs."""
    return [path for path in SOURCE.rglob("*") if path.is_file() and "__pycache__" not in path.parts]


def test_every_lazy_export_of_components_resolves_relative_to_the_package():
    import components

    for name in components.__all__:
        assert getattr(components, name).__module__.startswith("components.")
    with pytest.raises(AttributeError, match="module 'components' has no attribute 'Missing'"):
        _ = components.Missing


def test_eks_gpu_plan_answers_help_and_usage_errors_without_planning(capsys):
    from components.stackcheck.__main__ import plan_command

    assert plan_command(["--help"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: eks-gpu-plan") and "--project-dir PROJECT_DIR" in shown
    assert plan_command(["--format", "yaml"]) == 2
    assert "argument --format: invalid choice: 'yaml'" in capsys.readouterr().err


def test_eks_gpu_audit_answers_help_and_usage_errors_without_auditing(capsys):
    from components.stackcheck.__main__ import audit_command

    assert audit_command(["--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: eks-gpu-audit")
    assert audit_command([]) == 2
    assert "one of the arguments --snapshot --kubeconfig is required" in capsys.readouterr().err
