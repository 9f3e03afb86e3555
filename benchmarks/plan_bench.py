"""How much the offline plan costs beyond loading the Pulumi SDKs its stack needs and the libraries it checks with.

Usage (from the repository root): `.venv/bin/python benchmarks/plan_bench.py [--stack dev] [--runs 5] [--check]`

Runs the stack's program once in-process under the plan's mocks to record what it registers and calls, maps
each resource type token to the SDK module and class that define it, then times, alternately in one session,
six Python processes started the same way (same interpreter, working directory and environment, output
discarded):

  (a) one that only imports those SDK modules and touches the classes (the SDKs load submodules
      lazily: `import pulumi_aws.ec2` alone loads nothing), as any program of the stack must;
  (b) the full plan: `python -m components.stackcheck plan --stack dev --out <tmp> --format json`;
  (c) the imports of (a), with the cyclic garbage collector and the exit treated as the plan treats
      them: the collector off before any SDK loads, the heap frozen before exit, and the process ended
      without the interpreter's teardown once the exit handlers ran and the streams were flushed. The
      plan command does all three in `stackcheck/__main__.py` (`_as_process`: `gc.disable()` when the
      command starts, `gc.freeze()` after it returns, then `end_process`); (c) runs `gc.disable()` as
      its first statement and ends with the same steps;
  (d) the imports of (c), then, run alike, a bare program (`bare_program`) that registers the resources the
      stack's program registered, with the same types, names, parents, providers and inputs, through the SDKs'
      own classes (`pulumi_aws.ec2.Vpc`, ...; components and providers through `pulumi`'s generic classes), and
      calls the same provider functions,
      under the plan's own runner and mocks (`runtime.run_program`): what the SDK alone costs for this stack.
      d/c is the share of the registrations themselves; b/d what the plan adds to them (its settings, its
      components' code, its checks and its report);
  (e) the imports of (c), then every other module that a run of (b) loaded and (c) did not, except the
      project's own (`components...`): pydantic, jsonschema, kubernetes-validate, huggingface_hub and httpx,
      the SDK modules that only the project's code touches, and the standard library's, imported in the
      order (b) loaded them (`loaded_modules`, `library_modules`); then the bare program of (d), run alike:
      everything (b) loads and runs except the project's code. e/c is what any tool built on those
      libraries pays before its own code runs; b/e is the project's code alone (its module bodies, its
      settings models, its components, checks and report);
  (f) the imports of (c), then the field libraries the plan's code uses, each imported by the statement the
      project's code writes (`FIELD_LIBRARY_IMPORTS`): PyYAML, pydantic, huggingface_hub's repo-id validator,
      kubernetes-validate and jsonschema. What any tool that checks this stack's config and objects with those
      libraries loads before its own code runs.

The ratio is b/f of CPU time (user and system, from each process's resource usage): the plan against the
SDK classes and field libraries it uses, imported as it imports them. The target is at most 1.5 and
`--check` exits 1 above it. CPU time rather than wall-clock, because on a shared machine a process's
wall-clock grows with the others' load while its CPU time counts its own work. It is the median over the
rounds of each round's b/f, so that a change in the machine's load between rounds cancels out (the rounds'
ratios are listed too). The other sides are context, printed with their ratios of wall-clock time: b/c
(the plan against the SDK imports alone), b/a, d/c, b/d, e/c and b/e. Each side reports the median
wall-clock and CPU time of its runs; the load average before and after is printed too.

Every side loads compiled code: the project's modules are compiled to `.pyc` first, the SDKs were
compiled when pip installed them, and `PYTHONDONTWRITEBYTECODE` is dropped from the processes'
environment so that a missing `.pyc` is written by the untimed warm-up runs rather than compiled
again in every timed one (the program, `__main__.py`, is compiled from its source in every run, as
`runpy.run_path` does). The warm-up runs (one of each process by default) also fill the page cache.
Each round runs the processes in a rotated order, so that none always follows the same one.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 1.5
# The field libraries as the plan's code imports them (tests/project/test_plan_bench.py holds these to the
# project's own import statements), in the order the plan loads them. `huggingface_hub.utils` loads its
# submodules lazily: the plan loads the repo-id validator alone, as these lines do.
FIELD_LIBRARY_IMPORTS = (
    "import yaml",  # stackcheck/stack_config.py, stack_yaml.py, plan/render.py; observability/
    "from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, PrivateAttr, ValidationError, ValidationInfo, model_validator",
    "from pydantic.alias_generators import to_camel, to_snake",  # settings/, args/
    "from huggingface_hub.errors import HFValidationError",  # settings/vllm.py
    "from huggingface_hub.utils import validate_repo_id",
    "import kubernetes_validate",  # stackcheck/plan/schema.py, run.py
    "import jsonschema",  # stackcheck/plan/crd_schema.py
)


@dataclass(frozen=True)
class Timing:
    """One process: wall-clock seconds from start to exit, and the CPU seconds it used."""

    wall: float
    cpu: float


def sdk_class(type_token: str) -> tuple[str, str] | None:
    """The (module, class) that defines a resource type, or None when no installed SDK does.

    `aws:ec2/launchTemplate:LaunchTemplate` -> (`pulumi_aws.ec2`, `LaunchTemplate`);
    `kubernetes:apps/v1:Deployment` -> (`pulumi_kubernetes.apps.v1`, `Deployment`);
    `kubernetes:rbac.authorization.k8s.io/v1:Role` -> (`pulumi_kubernetes.rbac.v1`, `Role`);
    `eks:index:Cluster` -> (`pulumi_eks`, `Cluster`);
    `pulumi:providers:kubernetes` -> (`pulumi_kubernetes`, `Provider`).
    The stack itself and the project's own components (no `pulumi_<package>` SDK) give None.
    """
    package, module, name = type_token.split(":")
    if package == "pulumi":
        if module != "providers":
            return None
        package, module, name = name, "index", "Provider"
    sdk = "pulumi_" + package.replace("-", "_")
    if importlib.util.find_spec(sdk) is None:
        return None
    if package == "kubernetes" and module != "index":
        group, _, version = module.partition("/")
        module = f"{group.split('.', 1)[0]}.{version}"  # apps/v1 -> apps.v1, rbac.authorization.k8s.io/v1 -> rbac.v1
    else:
        module = module.split("/", 1)[0]  # ec2/launchTemplate -> ec2
    return (sdk if module == "index" else f"{sdk}.{module}"), name


def import_script(classes: list[tuple[str, str]], collector: bool = True, then: tuple[str, ...] = ()) -> str:
    """A program that imports each module and touches each class, which makes lazy SDK modules load, then
    runs the lines `then`; with `collector` False, the cyclic collector is off from its first statement, the
    heap frozen before exit and the process ended as the plan command ends it (exit handlers, flushed
    streams, no teardown)."""
    ending = ["gc.freeze()", "import atexit, os, sys", "atexit._run_exitfuncs()", "sys.stdout.flush()", "os._exit(0)"]
    lines = [
        *([] if collector else ["import gc", "gc.disable()"]),
        "import importlib",
        f"for module, name in {sorted(set(classes))!r}:",
        "    getattr(importlib.import_module(module), name)",
        *then,
        *([] if collector else ending),
    ]
    return "\n".join(lines)


# Names in sys.modules that are not modules of a library: the project's own and the running program.
_OWN_MODULES = ("components", "__main__", "__mp_main__")


def loaded_modules(command: list[str], env: dict[str, str]) -> list[str]:
    """The modules that `command` (a Python process) loaded, in the order it loaded them, read at its exit.

    `command` runs with `-c` in place of its `-m` or script: a prologue registers an exit handler that writes
    `sys.modules`' names, then the command's own module or code runs as `__main__`. Modules without a spec
    (names a library sets in `sys.modules` by hand) are left out: they cannot be imported by name.
    """
    with tempfile.TemporaryDirectory() as folder:
        listing = Path(folder) / "modules.json"
        prologue = (
            "import atexit, json, sys\n"
            f"atexit.register(lambda: open({str(listing)!r}, 'w').write(json.dumps("
            "[n for n, m in list(sys.modules.items()) if getattr(m, '__spec__', None) is not None])))\n"
        )
        if command[1] == "-m":
            body = f"import runpy\nsys.argv = {[command[2], *command[3:]]!r}\nrunpy.run_module({command[2]!r}, "
            body += "run_name='__main__', alter_sys=True)"
        else:
            body = command[2]
        timed([command[0], "-c", prologue + body], env)
        return json.loads(listing.read_text())


def library_modules(plan: list[str], floor: list[str]) -> list[str]:
    """The modules of `plan` (in its order) that `floor` did not load and that are not the project's own."""
    already = set(floor)
    return [
        name
        for name in plan
        if name not in already and name.split(".", 1)[0] not in _OWN_MODULES and not name.startswith("__editable__")
    ]


def libraries_script(classes: list[tuple[str, str]], libraries: list[str], then: tuple[str, ...] = ()) -> str:
    """Side (e)'s program: the imports of (c), then each of `libraries` imported in its order, then `then`."""
    loads = (f"for library in {libraries!r}:", "    importlib.import_module(library)")
    return import_script(classes, collector=False, then=(*loads, *then))


def field_libraries_script(classes: list[tuple[str, str]]) -> str:
    """Side (f)'s program: the imports of (c), then `FIELD_LIBRARY_IMPORTS`."""
    return import_script(classes, collector=False, then=FIELD_LIBRARY_IMPORTS)


def recorded_run(stack: str) -> tuple[str, Any]:
    """The project's name and what the stack's program registers and calls, from one in-process run under the
    plan's mocks."""
    sys.path.insert(0, str(ROOT))
    from components.stackcheck import runtime
    from components.stackcheck.stack_config import load_stack_config

    config = load_stack_config(ROOT, stack)
    run = runtime.ProgramRun()
    try:
        runtime.run_stack_program(config, run)
    except Exception as error:  # what the plan would report; the benchmark needs a stack that runs
        raise SystemExit(f"the {stack} stack does not run: {error}") from None
    return config.project, run


SECRET = "__secret__"


def _plain(value: Any) -> Any:
    """A recorded input as JSON, a secret (`runtime.Secret`) as `{SECRET: value}`."""
    from components.stackcheck.runtime import Secret

    if isinstance(value, Secret):
        return {SECRET: _plain(value.value)}
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


# The bare program: each recorded resource registered again under its recorded parent and provider, a custom
# resource through its SDK class (its top-level inputs as the class's snake_case arguments, nested values as
# given: the SDK sends a dict's keys as they are), a provider or component through the SDK's generic class
# (a provider class would encode its inputs again), then each recorded provider function called in its output
# form, as the stack's code calls each (`get_..._output`).
_BARE_PROGRAM = """\
import importlib
import json
import re

import pulumi


def value(item):
    if isinstance(item, dict):
        if list(item) == [SECRET]:
            return pulumi.Output.secret(value(item[SECRET]))
        return {key: value(each) for key, each in item.items()}
    if isinstance(item, list):
        return [value(each) for each in item]
    return item


def argument(name):
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\\1", name).lower()


made = {}
for urn, type_, name, custom, parent, provider, inputs, sdk in json.loads(RESOURCES):
    options = pulumi.ResourceOptions(parent=made.get(parent), provider=made.get(provider))
    if sdk:
        resource_class = getattr(importlib.import_module(sdk[0]), sdk[1])
        made[urn] = resource_class(name, opts=options, **{argument(key): value(v) for key, v in inputs.items()})
    elif type_.startswith("pulumi:providers:"):
        made[urn] = pulumi.ProviderResource(type_.split(":")[2], name, value(inputs), options)
    elif custom:
        made[urn] = pulumi.CustomResource(type_, name, value(inputs), options)
    else:
        made[urn] = pulumi.ComponentResource(type_, name, value(inputs), options)
for token, args in json.loads(CALLS):
    pulumi.runtime.invoke_output(token, value(args))
"""


def bare_program(run: Any) -> str:
    """A Pulumi program that registers the resources of `run` (a `runtime.ProgramRun`) and calls its provider
    functions, with the same types, names, parents, providers and inputs, through the SDKs' own classes, and
    nothing of the stack's own code: the SDKs' share of a plan."""
    resources = [
        [
            r.urn,
            r.type,
            r.name,
            r.custom,
            r.parent,
            r.provider.rsplit("::", 1)[0] if r.provider else None,
            _plain(r.inputs),
            sdk_class(r.type) if r.custom and not r.type.startswith("pulumi:providers:") else None,
        ]
        for r in run.resources
        if r.type != "pulumi:pulumi:Stack"
    ]
    calls = [[token, _plain(args)] for token, args in run.calls]
    return (
        f"SECRET = {SECRET!r}\nRESOURCES = {json.dumps(resources)!r}\nCALLS = {json.dumps(calls)!r}\n" + _BARE_PROGRAM
    )


def bare_run_lines(program: Path, project: str, stack: str) -> tuple[str, ...]:
    """The lines that run `program` as the plan runs the stack's: `runtime.run_program`, the same mocks."""
    return (
        "from pathlib import Path",
        "from components.stackcheck.runtime import run_program",
        f"run_program(Path({str(program)!r}), {{}}, project={project!r}, stack={stack!r})",
    )


def timed(command: list[str], env: dict[str, str]) -> Timing:
    """Wall-clock and CPU seconds of `command` run from the repository root; fails loudly when it crashes."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # os.wait4 reports the child's own resource usage; communicate() would reap it without.
    with process.stderr:
        stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):  # 1: the plan ran and a check failed; still a full run
        raise SystemExit(f"{command[:4]} exited {process.returncode}:\n{stderr.decode(errors='replace')}")
    return Timing(wall, usage.ru_utime + usage.ru_stime)


def rotated(items: list, by: int) -> list:
    """`items` started at position `by` (modulo their number): round i of the benchmark runs them in this order."""
    by %= len(items)
    return items[by:] + items[:by]


def round_ratios(tops: list[float], bottoms: list[float]) -> list[float]:
    """Each round's ratio top/bottom: the two processes of a round ran seconds apart, under the same load."""
    return [round(top / bottom, 3) for top, bottom in zip(tops, bottoms, strict=True)]


def summary(times: list[Timing]) -> dict[str, object]:
    """Median wall-clock and CPU seconds of `times`, and each run's wall-clock seconds."""
    return {
        "wallSeconds": [round(t.wall, 3) for t in times],
        "cpuSeconds": [round(t.cpu, 3) for t in times],
        "wallMedian": round(statistics.median(t.wall for t in times), 3),
        "cpuMedian": round(statistics.median(t.cpu for t in times), 3),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; prints medians and the ratio, returns 0 (1 with --check above the target)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", default="dev")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmups", type=int, default=1, help="untimed runs of each process first (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true", help=f"exit 1 when the CPU ratio b/f is above {TARGET_RATIO}")
    args = parser.parse_args(argv)

    compileall.compile_dir(str(ROOT / "components"), quiet=1)
    project, run = recorded_run(args.stack)
    types = sorted({resource.type for resource in run.resources})
    classes = [found for found in map(sdk_class, types) if found]
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as out:
        bare = Path(out) / "bare" / "__main__.py"
        bare.parent.mkdir()
        bare.write_text(bare_program(run))
        commands = {
            "a": [sys.executable, "-c", import_script(classes)],
            "b": [sys.executable, "-m", "components.stackcheck", "plan", "--stack", args.stack, "--out", out]
            + ["--format", "json"],
            "c": [sys.executable, "-c", import_script(classes, collector=False)],
            "d": [
                sys.executable,
                "-c",
                import_script(classes, collector=False, then=bare_run_lines(bare, project, args.stack)),
            ],
        }
        libraries = library_modules(loaded_modules(commands["b"], env), loaded_modules(commands["c"], env))
        commands["e"] = [
            sys.executable,
            "-c",
            libraries_script(classes, libraries, then=bare_run_lines(bare, project, args.stack)),
        ]
        commands["f"] = [sys.executable, "-c", field_libraries_script(classes)]
        for _ in range(args.warmups):
            for command in commands.values():
                timed(command, env)
        times: dict[str, list[Timing]] = {side: [] for side in commands}
        for round_ in range(args.runs):
            for side in rotated(list(commands), round_):
                times[side].append(timed(commands[side], env))
    load_after = os.getloadavg()
    sides = {side: summary(side_times) for side, side_times in times.items()}
    wall = {side: [t.wall for t in side_times] for side, side_times in times.items()}
    cpu = {side: [t.cpu for t in side_times] for side, side_times in times.items()}
    rounds = round_ratios(cpu["b"], cpu["f"])
    ratio = statistics.median(rounds)
    figures = {
        "stack": args.stack,
        "runs": args.runs,
        "warmups": args.warmups,
        "sdkModules": sorted({module for module, _ in classes}),
        "sdkImport": sides["a"],
        "plan": sides["b"],
        "sdkImportAsPlanned": sides["c"],
        "bareRegistration": sides["d"],
        "librariesAndBare": sides["e"],
        "sdkAndFieldLibraries": sides["f"],
        "libraryModules": len(libraries),
        "ratio": round(ratio, 3),
        "roundRatios": rounds,
        "wallRatio": statistics.median(round_ratios(wall["b"], wall["f"])),
        "sdkRatio": statistics.median(round_ratios(wall["b"], wall["c"])),
        "importRatio": statistics.median(round_ratios(wall["b"], wall["a"])),
        "planOverBare": statistics.median(round_ratios(wall["b"], wall["d"])),
        "bareOverImports": statistics.median(round_ratios(wall["d"], wall["c"])),
        "librariesOverImports": statistics.median(round_ratios(wall["e"], wall["c"])),
        "planOverLibraries": statistics.median(round_ratios(wall["b"], wall["e"])),
        "loadAverage": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after]},
        "target": TARGET_RATIO,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(_text(figures, len(types)))
    return 1 if args.check and ratio > TARGET_RATIO else 0


def _text(figures: dict, type_count: int) -> str:
    rows = [f"stack {figures['stack']}: {type_count} resource types, SDK modules {', '.join(figures['sdkModules'])}"]
    for label, key in (
        ("(a) SDK imports, collector on ", "sdkImport"),
        ("(b) full plan                ", "plan"),
        ("(c) SDK imports as planned   ", "sdkImportAsPlanned"),
        ("(d) (c) + resources, bare    ", "bareRegistration"),
        ("(e) (d) + all but our code   ", "librariesAndBare"),
        ("(f) (c) + field libraries    ", "sdkAndFieldLibraries"),
    ):
        side = figures[key]
        cpu, wall = (", ".join(f"{t:.2f}" for t in side[runs]) for runs in ("cpuSeconds", "wallSeconds"))
        rows.append(
            f"{label} median {side['cpuMedian']:.2f} s CPU, {side['wallMedian']:.2f} s wall  (CPU {cpu}; wall {wall})"
        )
    verdict = "within" if figures["ratio"] <= figures["target"] else "ABOVE"
    rows += [
        f"CPU ratio b/f: {figures['ratio']:.2f} ({verdict} the target {figures['target']}; median of the rounds "
        f"{', '.join(f'{r:.2f}' for r in figures['roundRatios'])}), wall-clock {figures['wallRatio']:.2f}",
        f"wall-clock b/c: {figures['sdkRatio']:.2f} (against the SDK imports alone, as planned)",
        f"wall-clock b/a: {figures['importRatio']:.2f} (against the imports with the collector on)",
        f"wall-clock d/c: {figures['bareOverImports']:.2f} (the SDK registering the stack's resources and calls, bare); "
        f"b/d: {figures['planOverBare']:.2f} (the plan against that)",
        f"wall-clock e/c: {figures['librariesOverImports']:.2f} (the {figures['libraryModules']} other modules the plan "
        f"loads, and the bare registrations: all but the project's code); b/e: {figures['planOverLibraries']:.2f} "
        "(the project's code alone)",
        f"load average: {' '.join(map(str, figures['loadAverage']['before']))} before, "
        f"{' '.join(map(str, figures['loadAverage']['after']))} after",
    ]
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
