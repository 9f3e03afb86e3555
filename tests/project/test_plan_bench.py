"""The pieces of benchmarks/plan_bench.py: which SDK classes it imports, and that it runs both sides alike
(the full run is a benchmark, not a test)."""

from __future__ import annotations

import ast
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import plan_bench  # noqa: E402

from components.stackcheck import runtime  # noqa: E402

SDK_CLASSES = [
    ("aws:ec2/launchTemplate:LaunchTemplate", ("pulumi_aws.ec2", "LaunchTemplate")),
    ("kubernetes:apps/v1:Deployment", ("pulumi_kubernetes.apps.v1", "Deployment")),
    ("kubernetes:rbac.authorization.k8s.io/v1:Role", ("pulumi_kubernetes.rbac.v1", "Role")),
    ("eks:index:Cluster", ("pulumi_eks", "Cluster")),
    ("pulumi:providers:kubernetes", ("pulumi_kubernetes", "Provider")),
    ("pulumi:pulumi:Stack", None),
    ("eks-gpu-inference:index:Network", None),
]


@pytest.mark.parametrize(("token", "found"), [pytest.param(*row, id=row[0]) for row in SDK_CLASSES])
def test_type_token_maps_to_the_sdk_module_and_class_that_define_it(token, found):
    assert plan_bench.sdk_class(token) == found


@pytest.mark.parametrize(
    ("collector", "state"), [(True, "True 0"), (False, "False frozen")], ids=["collector on", "collector off"]
)
def test_import_script_treats_the_collector_as_asked(collector, state):
    script = plan_bench.import_script([("json", "JSONDecoder"), ("email.message", "Message")], collector=collector)
    # Read at exit, after the script's last statement: the exit handlers run on both sides.
    probe = (
        "import atexit, gc, sys\natexit.register(lambda: print(gc.isenabled(), "
        "'frozen' if gc.get_freeze_count() else 0, 'email.message' in sys.modules))"
    )

    done = subprocess.run([sys.executable, "-c", f"{probe}\n{script}"], capture_output=True, text=True, check=True)

    assert done.stdout.split() == [*state.split(), "True"]
    assert script.startswith("import gc\ngc.disable()") == (not collector)


def test_rounds_rotate_the_order_of_the_processes():
    orders = [plan_bench.rotated(["a", "b", "c"], round_) for round_ in range(4)]

    assert orders == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"], ["a", "b", "c"]]


def test_the_ratio_is_the_median_of_the_rounds_so_load_changing_between_rounds_does_not_move_it():
    # The load grows round by round; in round 5 it drops while the imports run.
    plan, imports = [2.0, 3.0, 4.0, 5.0, 10.0], [1.6, 2.4, 3.2, 4.0, 2.0]

    ratios = plan_bench.round_ratios(plan, imports)

    assert ratios == [1.25, 1.25, 1.25, 1.25, 5.0]
    assert statistics.median(ratios) == 1.25
    assert statistics.median(plan) / statistics.median(imports) > 1.6  # what the medians alone would say


def test_a_timed_process_reports_wall_clock_and_cpu_seconds_and_a_crash_stops_the_run():
    busy = plan_bench.timed([sys.executable, "-c", "sum(range(3_000_000))"], dict(os.environ))

    assert busy.wall >= busy.cpu > 0
    with pytest.raises(SystemExit, match="exited 3"):
        plan_bench.timed([sys.executable, "-c", "import sys; sys.exit(3)"], dict(os.environ))


def test_the_command_ends_its_process_as_the_floor_does_handlers_run_output_flushed_no_teardown():
    program = """
import atexit, sys
from components.stackcheck.__main__ import _as_process

class Kept:
    def __del__(self):
        print("torn down", file=sys.stderr)

kept = Kept()
atexit.register(lambda: print("exit handler ran", file=sys.stderr))

def command():
    print("line\\n" * 20000, end="")
    return 3

_as_process(command)
"""
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True)

    assert done.returncode == 3
    assert done.stdout == "line\n" * 20000
    assert done.stderr == "exit handler ran\n"  # no "torn down": the interpreter's teardown is skipped


def test_the_floor_ends_the_same_way():
    script = plan_bench.import_script([("json", "JSONDecoder")], collector=False)
    program = f"import atexit, sys\natexit.register(lambda: print('exit handler ran'))\n{script}\nprint('after')"

    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)

    assert (done.returncode, done.stdout) == (0, "exit handler ran\n")


def _registered(run) -> list[tuple]:
    """What a run registered, comparable across runs: URN, type, inputs, parent and provider URN."""
    return sorted(
        (
            r.urn,
            r.type,
            json.dumps(plan_bench._plain(r.inputs), sort_keys=True),
            r.parent,
            r.provider.rsplit("::", 1)[0],
        )
        for r in run.resources
    )


def _constant(program: Path, name: str):
    return ast.literal_eval(
        next(line for line in program.read_text().splitlines() if line.startswith(f"{name} = "))[len(name) + 3 :]
    )


def test_the_bare_program_registers_and_calls_what_the_stack_did_and_nothing_of_its_own(tmp_path):
    project, recorded = plan_bench.recorded_run("dev")
    program = tmp_path / "__main__.py"
    program.write_text(plan_bench.bare_program(recorded))

    bare = runtime.run_program(program, {}, project=project, stack="dev")

    assert len(recorded.resources) > 50 and any(
        isinstance(v, runtime.Secret) for r in recorded.resources for v in r.inputs.values()
    )
    assert _registered(bare) == _registered(recorded)
    assert bare.calls == recorded.calls
    through_sdk = {row[1]: row[7] for row in json.loads(_constant(program, "RESOURCES"))}
    assert through_sdk["aws:ec2/vpc:Vpc"] == ["pulumi_aws.ec2", "Vpc"]
    assert through_sdk["kubernetes:apps/v1:DaemonSet"] == ["pulumi_kubernetes.apps.v1", "DaemonSet"]
    assert through_sdk["pulumi:providers:kubernetes"] is None  # a provider class would encode its inputs again
    imports = [line for line in program.read_text().splitlines() if line.startswith(("import ", "from "))]
    assert imports == ["import importlib", "import json", "import re", "import pulumi"]


def test_lines_given_to_the_floor_run_after_the_imports_and_before_its_ending():
    script = plan_bench.import_script(
        [("json", "JSONDecoder")], collector=False, then=("print('then', gc.isenabled())",)
    )
    program = f"import atexit\natexit.register(lambda: print('exit handler ran'))\n{script}\nprint('after')"

    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)

    assert (done.returncode, done.stdout) == (0, "then False\nexit handler ran\n")


def test_the_modules_a_process_loaded_are_read_at_its_exit_in_load_order_for_code_and_for_a_module():
    env = dict(os.environ)
    code = [sys.executable, "-c", "import email.message\nimport csv"]
    module = [sys.executable, "-m", "json.tool", "--help"]

    by_code = plan_bench.loaded_modules(code, env)
    by_module = plan_bench.loaded_modules(module, env)

    assert by_code.index("email") < by_code.index("email.message") < by_code.index("csv")
    assert "argparse" in by_module and "csv" not in by_module  # json.tool runs as __main__
    assert "builtins" in by_code and "sys" in by_code


def test_the_library_modules_are_what_the_plan_loaded_beyond_the_floor_in_its_order_without_the_projects():
    plan = ["sys", "pulumi", "components", "pydantic", "components.settings", "__main__", "yaml", "difflib"]
    plan += ["__editable___eks_gpu_inference_0_1_0_finder", "__mp_main__", "pydantic.fields"]
    floor = ["sys", "pulumi", "json"]

    assert plan_bench.library_modules(plan, floor) == ["pydantic", "yaml", "difflib", "pydantic.fields"]


def test_side_e_loads_every_module_a_command_loads_but_none_of_the_projects():
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    # A stand-in for the plan (which takes seconds): the project's modules beside libraries they load.
    command = [sys.executable, "-c", "import components.settings.errors, components.facts.contract, difflib"]
    floor = [sys.executable, "-c", plan_bench.import_script([("json", "JSONDecoder")], collector=False)]
    command_modules = plan_bench.loaded_modules(command, env)
    libraries = plan_bench.library_modules(command_modules, plan_bench.loaded_modules(floor, env))
    side_e = [
        sys.executable,
        "-c",
        plan_bench.libraries_script([("json", "JSONDecoder")], libraries, then=("import colorsys",)),
    ]

    loaded = plan_bench.loaded_modules(side_e, env)

    assert {"pydantic", "pydantic_core", "difflib"} <= set(libraries) and "json" not in libraries
    assert "components.settings.errors" in command_modules
    assert not any(name.split(".")[0] == "components" for name in loaded)
    assert set(libraries) - set(loaded) == set()
    assert loaded.index("difflib") < loaded.index("colorsys")  # the lines given run after the libraries


# The field libraries the plan's code checks a stack with, as the target of benchmarks/plan_bench.py names them
# (docs/development.md, "Speed"): PyYAML, pydantic, huggingface_hub, kubernetes-validate and jsonschema.
FIELD_LIBRARIES = ("yaml", "pydantic", "huggingface_hub", "kubernetes_validate", "jsonschema")
# The program the weights copy Job runs in its pod (shipped in a ConfigMap): its huggingface_hub imports never
# run in the plan.
RUNS_IN_THE_POD = ROOT / "components" / "vllm" / "weights_copy_script.py"
# The program's preview-time read of a model from the Hub: the plan runs the program offline, where it imports none.
READS_THE_HUB = ROOT / "components" / "vllm" / "hub_facts.py"


def _field_imports(source: str) -> set[tuple[str, str | None]]:
    """(module, imported name or None) for each import of a field library in `source`."""
    found: set[tuple[str, str | None]] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {(alias.name, None) for alias in node.names if alias.name.split(".")[0] in FIELD_LIBRARIES}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module.split(".")[0] in FIELD_LIBRARIES:
            found |= {(node.module, alias.name) for alias in node.names}
    return found


def test_side_f_imports_the_field_libraries_as_the_projects_code_writes_them():
    in_the_project = set().union(
        *(
            _field_imports(path.read_text())
            for path in (ROOT / "components").rglob("*.py")
            if path not in (RUNS_IN_THE_POD, READS_THE_HUB)
        )
    )

    assert _field_imports("\n".join(plan_bench.FIELD_LIBRARY_IMPORTS)) == in_the_project
    assert {module.split(".")[0] for module, _ in in_the_project} == set(FIELD_LIBRARIES)


def test_side_f_loads_the_field_libraries_after_the_sdk_classes_and_nothing_of_the_projects():
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    # A stand-in for the SDK classes (which take seconds to load): a standard module none of the libraries loads.
    script = plan_bench.field_libraries_script([("mailbox", "Mailbox")])

    loaded = plan_bench.loaded_modules([sys.executable, "-c", script], env)

    after_the_classes = script.split("\n")[
        script.split("\n").index("    getattr(importlib.import_module(module), name)") + 1 :
    ]
    assert after_the_classes[: len(plan_bench.FIELD_LIBRARY_IMPORTS)] == list(plan_bench.FIELD_LIBRARY_IMPORTS)
    assert script.startswith("import gc\ngc.disable()")  # the collector treated as (c) treats it
    for module in (*FIELD_LIBRARIES, "pydantic.alias_generators", "huggingface_hub.utils._validators"):
        assert loaded.index("mailbox") < loaded.index(module), module
    assert not any(name.split(".")[0] == "components" for name in loaded)
