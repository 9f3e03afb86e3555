"""How much the offline plan costs beyond loading the Pulumi SDKs its stack needs.

Usage (from the repository root): `.venv/bin/python benchmarks/plan_bench.py [--stack dev] [--runs 5]`

Runs the plan once in-process to learn which resource types the stack registers, maps each type
token to the SDK module and class that define it, then times, alternately in one session:

  (a) a Python subprocess that only imports those SDK modules and touches the classes (the
      SDKs load submodules lazily: `import pulumi_aws.ec2` alone loads nothing), and
  (b) the full plan as a subprocess: `python -m components.stackcheck plan --stack dev --out <tmp> --format json`,
  (c) the same imports as (a) with the cyclic garbage collector off and the heap frozen before exit, as
      the plan command runs (stackcheck/__main__.py, `_as_process`).

It prints the medians and the ratio b/a, what the plan costs a user against importing the SDKs as any
program does; the target is at most 1.3. The ratio b/c, plan against imports run the way the plan runs
them, is the plan's own work alone and is printed beside it. The project's own modules are
compiled to `.pyc` first, as pip compiles the SDKs when it installs them (with PYTHONDONTWRITEBYTECODE
set, imports would otherwise compile them anew in every run, which no user's repeated plan does), and
one untimed run of each comes first, so that compiling and a cold page cache are not measured.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 1.3


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


def registered_types(stack: str) -> list[str]:
    """The resource types the stack registers, from one in-process plan."""
    sys.path.insert(0, str(ROOT))
    from components.stackcheck.plan import PlanOptions, run_plan

    with tempfile.TemporaryDirectory() as out:
        result = run_plan(PlanOptions(project_dir=ROOT, stack=stack, out_dir=Path(out)))
    if result.config_problems or result.program_error:
        raise SystemExit(f"the {stack} stack does not plan: {result.failures}")
    return sorted({row.type for row in result.resources})


def import_script(classes: list[tuple[str, str]], collector: bool = True) -> str:
    """A program that imports each module and touches each class, which makes lazy SDK modules load;
    with `collector` False, the cyclic collector is off and the heap frozen before exit."""
    lines = [
        "import gc, importlib",
        *([] if collector else ["gc.disable()"]),
        f"for module, name in {sorted(set(classes))!r}:",
        "    getattr(importlib.import_module(module), name)",
        *([] if collector else ["gc.freeze()"]),
    ]
    return "\n".join(lines)


def timed(command: list[str]) -> float:
    """Seconds `command` takes from the repository root; fails loudly when it crashes."""
    start = time.perf_counter()
    completed = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if completed.returncode not in (0, 1):  # 1: the plan ran and a check failed; still a full run
        raise SystemExit(f"{command[:4]} exited {completed.returncode}:\n{completed.stderr}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; prints medians and the ratio, returns 0 (1 with --check above the target)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", default="dev")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true", help=f"exit 1 when the ratio is above {TARGET_RATIO}")
    args = parser.parse_args(argv)

    compileall.compile_dir(str(ROOT / "components"), quiet=1)
    compileall.compile_file(str(ROOT / "__main__.py"), quiet=1)
    types = registered_types(args.stack)
    classes = [found for found in map(sdk_class, types) if found]
    imports = [sys.executable, "-c", import_script(classes)]
    imports_as_planned = [sys.executable, "-c", import_script(classes, collector=False)]
    with tempfile.TemporaryDirectory() as out:
        plan = [
            sys.executable,
            "-m",
            "components.stackcheck",
            "plan",
            "--stack",
            args.stack,
            "--out",
            out,
            "--format",
            "json",
        ]
        timed(imports), timed(plan), timed(imports_as_planned)  # warm-up: .pyc compilation and the page cache
        sdk_times, plan_times, planned_sdk_times = [], [], []
        for _ in range(args.runs):
            sdk_times.append(timed(imports))
            plan_times.append(timed(plan))
            planned_sdk_times.append(timed(imports_as_planned))
    sdk_median, plan_median = statistics.median(sdk_times), statistics.median(plan_times)
    planned_sdk_median = statistics.median(planned_sdk_times)
    ratio = plan_median / sdk_median
    own_work_ratio = plan_median / planned_sdk_median
    figures = {
        "stack": args.stack,
        "runs": args.runs,
        "sdkModules": sorted({module for module, _ in classes}),
        "sdkImportSeconds": [round(t, 3) for t in sdk_times],
        "planSeconds": [round(t, 3) for t in plan_times],
        "sdkImportMedian": round(sdk_median, 3),
        "planMedian": round(plan_median, 3),
        "sdkImportWithoutCollectorSeconds": [round(t, 3) for t in planned_sdk_times],
        "sdkImportWithoutCollectorMedian": round(planned_sdk_median, 3),
        "ratio": round(ratio, 3),
        "ownWorkRatio": round(own_work_ratio, 3),
        "target": TARGET_RATIO,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"stack {args.stack}: {len(types)} resource types, SDK modules {', '.join(figures['sdkModules'])}")
        print(f"(a) import SDK modules: median {sdk_median:.2f} s  ({', '.join(f'{t:.2f}' for t in sdk_times)})")
        print(f"(b) full plan:          median {plan_median:.2f} s  ({', '.join(f'{t:.2f}' for t in plan_times)})")
        print(
            f"(c) imports, collector off: median {planned_sdk_median:.2f} s  "
            f"({', '.join(f'{t:.2f}' for t in planned_sdk_times)})"
        )
        verdict = "within" if ratio <= TARGET_RATIO else "ABOVE"
        print(f"ratio b/a: {ratio:.2f} ({verdict} the target {TARGET_RATIO})")
        print(f"ratio b/c: {own_work_ratio:.2f} (the plan's own work, imports run alike)")
    return 1 if args.check and ratio > TARGET_RATIO else 0


if __name__ == "__main__":
    sys.exit(main())
