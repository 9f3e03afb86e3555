"""Command line of the offline stack tools: `python -m components.stackcheck plan --stack dev` in the repository,
and the installed commands `eks-gpu-plan` and `eks-gpu-audit`.

Only the standard library is imported here, so `--help` and usage errors answer at once; the
command modules (and through them the Pulumi SDKs) load after the arguments parse.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from .audit import cli as audit_cli

# Match stackcheck.stack_config's EXIT_USAGE and EXIT_INTERNAL; repeated here so that usage errors answer
# without importing it.
EXIT_USAGE = 2
EXIT_INTERNAL = 3
FORMATS = ("text", "markdown", "json")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line naming the command, the problem and where help is.

    argparse prints the whole usage before the error; the commands give one line per problem, as for a bad
    stack config. Subcommands' parsers are built from this class too (argparse uses the parent's class).
    """

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m components.stackcheck`."""
    parser = _Parser(
        prog="python -m components.stackcheck",
        description="Offline tools for a stack of this project: no Pulumi CLI, no cloud credentials.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    plan = commands.add_parser(
        "plan",
        help="run the program under mocks, print the resource tree, write and validate the Kubernetes "
        "objects, and check GPU placement",
        description=(
            "Run __main__.py under Pulumi mocks with a stack's config; print the resource tree as "
            "`pulumi preview` shows it; write every Kubernetes object as YAML and validate it against the "
            "cluster version's OpenAPI schema; model the node groups as pools and print where each workload "
            "lands and the GPU guard verdicts. Exit 0 when every check holds, 1 when a check fails, 2 when the "
            "stack config, a project file or the command line is invalid, 3 on an internal error (--debug shows "
            "its traceback)."
        ),
    )
    add_plan_arguments(plan)
    audit_cli.add_parser(commands, FORMATS)
    return parser


def add_plan_arguments(plan: argparse.ArgumentParser) -> None:
    """The options of `plan`, shared by `python -m components.stackcheck plan` and `eks-gpu-plan`."""
    plan.add_argument(
        "--stack",
        default=None,
        help="stack name: reads Pulumi.<stack>.yaml (default: dev, or the name in --stack-file)",
    )
    plan.add_argument(
        "--project-dir",
        type=Path,
        default=None,
        help="directory holding Pulumi.yaml and the program (default: the current directory)",
    )
    plan.add_argument(
        "--stack-file",
        type=Path,
        default=None,
        help="read the stack config from this file instead of <project-dir>/Pulumi.<stack>.yaml",
    )
    plan.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder for the rendered Kubernetes objects (default: <project-dir>/out/<stack>/)",
    )
    plan.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text for terminals, markdown for pull-request comments and $GITHUB_STEP_SUMMARY, "
        "json for tools (default: text)",
    )
    plan.add_argument(
        "--quiet",
        action="store_true",
        help="text and markdown: print only the summary line and the failures",
    )
    plan.add_argument(
        "--compare",
        type=Path,
        default=None,
        metavar="PREVIOUS.json",
        help="an earlier plan's JSON (--format json): show first what changed since it, which changes replace a "
        "resource, the verdicts that changed and the cost delta",
    )
    plan.add_argument("--debug", action="store_true", help="on an internal error, print its traceback")


def build_plan_command_parser() -> argparse.ArgumentParser:
    """The argument parser of `eks-gpu-plan`, the installed command (`plan` alone, for any project)."""
    parser = _Parser(
        prog="eks-gpu-plan",
        description=(
            "Offline plan of a Pulumi stack that uses eks_gpu_inference's components: run the program under "
            "mocks, print the resource tree, write and validate the Kubernetes objects, and check GPU placement. "
            "Exit 0 when every check holds, 1 when a check fails, 2 when the stack config, a project file or the "
            "command line is invalid, 3 on an internal error (--debug shows its traceback)."
        ),
    )
    add_plan_arguments(parser)
    return parser


def build_audit_command_parser() -> argparse.ArgumentParser:
    """The argument parser of `eks-gpu-audit`, the installed command (`audit` alone)."""
    parser = _Parser(
        prog="eks-gpu-audit",
        description=(
            "Audit a running cluster that uses eks_gpu_inference's placement contract, from a snapshot "
            "(kubectl get nodes,pods,daemonsets -A -o json) or live: idle GPUs, pods leaking onto GPU nodes, "
            "pending GPU pods, GPU nodes without GPUs advertised, node agents missing on GPU nodes. Exit 0 when "
            "no finding is at or above --fail-on, 1 when one is, 2 when the input or the command line is invalid, "
            "3 on an internal error (--debug shows its traceback)."
        ),
    )
    audit_cli.add_audit_arguments(parser, FORMATS)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line with `argv` (default `sys.argv[1:]`); returns the exit code."""
    args = _parsed(build_parser(), argv)
    return args if isinstance(args, int) else _COMMANDS[args.command](args)


def plan_command(argv: list[str] | None = None) -> int:
    """`eks-gpu-plan [--project-dir DIR] [--stack NAME] ...`: the plan of `python -m components.stackcheck plan`, as an
    installed command; returns the exit code."""
    args = _parsed(build_plan_command_parser(), argv)
    return args if isinstance(args, int) else _plan(args)


def audit_command(argv: list[str] | None = None) -> int:
    """`eks-gpu-audit --snapshot FILE ...`: `python -m components.stackcheck audit` as an installed command;
    returns the exit code."""
    args = _parsed(build_audit_command_parser(), argv)
    return args if isinstance(args, int) else audit_cli.run(args)


def _parsed(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace | int:
    """`argv` parsed by `parser`, or the exit code when it answered itself (0 for --help, EXIT_USAGE for a
    usage error, said in one line)."""
    try:
        return parser.parse_args(argv)
    except SystemExit as exit_:
        return EXIT_USAGE if exit_.code else 0


def _plan(args: argparse.Namespace) -> int:
    # A short batch run over a large heap that lives until exit (the SDKs define thousands of
    # classes): the cyclic collector's passes over it took a fifth of the run and freed about
    # nothing (peak memory 137 MB with it, 139 MB without; see benchmarks/plan_bench.py).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run_plan(args)
    finally:
        if collecting:
            gc.enable()


def _run_plan(args: argparse.Namespace) -> int:
    from .plan.compare import load_previous
    from .plan.report.build import render
    from .plan.run import PlanOptions, UsageError, run_plan

    try:
        previous = (str(args.compare), load_previous(args.compare)) if args.compare else None
        project_dir = (args.project_dir or Path.cwd()).resolve()
        options = PlanOptions(
            stack=args.stack,
            project_dir=project_dir,
            stack_file=args.stack_file.resolve() if args.stack_file else None,
            out_dir=args.out.resolve() if args.out else None,
            progress=_progress_writer(),
        )
        result = run_plan(options)
        report = render(result, args.format, colour=_colour_stdout(), quiet=args.quiet, previous=previous)
    except UsageError as error:
        for problem in error.problems:
            print(f"stackcheck plan: error: {problem}", file=sys.stderr)
        _print_refusal(args, "input", [str(problem) for problem in error.problems], error.exit_code)
        return error.exit_code
    except Exception as error:  # a fault of the tool itself: one line, the traceback on request
        print(f"stackcheck plan: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        _print_refusal(args, "internal", [f"internal error: {type(error).__name__}: {error}"], EXIT_INTERNAL)
        if args.debug:
            traceback.print_exc(file=sys.stderr)
        return EXIT_INTERNAL
    if result.program_traceback:
        # The program's own fault, named in the report; where in its code it happened is for --debug.
        if args.debug:
            sys.stderr.write(result.program_traceback)
        else:
            print("stackcheck plan: the program raised an error (see the report); --debug shows where", file=sys.stderr)
    sys.stdout.write(report)
    sys.stdout.flush()
    return result.exit_code


_COMMANDS = {"plan": _plan, "audit": audit_cli.run}


def _print_refusal(args: argparse.Namespace, stage: str, problems: list[str], exit_code: int) -> None:
    """With `--format json`, the JSON document of a plan that stopped before its report: a tool reading stdout gets
    the problems and the exit code whatever stage refused (the stack file, the command line's paths, or the tool
    itself), in the report's own keys (`schemaVersion`, `exitCode`, `failures`, `summary`)."""
    if args.format != "json":
        return
    import json

    from .plan.run import JSON_SCHEMA_VERSION

    document = {
        "schemaVersion": JSON_SCHEMA_VERSION,
        "stack": args.stack,
        "stackFile": str(args.stack_file) if args.stack_file else None,
        "stage": stage,
        "exitCode": exit_code,
        "failures": problems,
        "summary": {
            "line": f"FAILED (exit {exit_code}): {len(problems)} problem(s) before the plan ran",
            "exitCode": exit_code,
            "failedChecks": len(problems),
        },
    }
    sys.stdout.write(json.dumps(document, indent=2) + "\n")
    sys.stdout.flush()


def _progress_writer():
    """A callback that shows one transient progress line on stderr, when stderr is a terminal."""
    stream = sys.stderr
    if not stream.isatty():
        return None

    def show(message: str | None) -> None:
        # \r and the clear-to-end-of-line escape keep it to one line that the next message replaces.
        stream.write("\r\x1b[K" + (message or ""))
        stream.flush()

    return show


def _colour_stdout() -> bool:
    # https://no-color.org: any non-empty NO_COLOR disables colour.
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def cli() -> NoReturn:
    """`python -m components.stackcheck` as a process: runs `main` and exits with its code."""
    _as_process(main)


def plan_cli() -> NoReturn:
    """`eks-gpu-plan` as a process (the installed console script): runs `plan_command`, exits with its code."""
    _as_process(plan_command)


def audit_cli_main() -> NoReturn:
    """`eks-gpu-audit` as a process (the installed console script): runs `audit_command`, exits with its code."""
    _as_process(audit_command)


def _as_process(command: Callable[[], int]) -> NoReturn:
    # A short batch run over a heap that lives until exit: no cyclic collection while it runs (see
    # `_plan`), and no teardown of that heap after it: the exit handlers run (logging's flush among
    # them) and the standard streams are flushed, then the process ends without the interpreter
    # freeing, one by one, the objects the operating system takes back at once (about 350,000 after
    # a plan of the dev stack; benchmarks/plan_bench.py times both sides this way).
    gc.disable()
    code = command()
    gc.freeze()
    end_process(code)


def end_process(code: int) -> NoReturn:
    """Run the exit handlers, flush stdout and stderr, and end the process with `code`, skipping teardown."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        # A reader that closed the pipe early (`| head`) has what it wanted.
        with contextlib.suppress(BrokenPipeError, ValueError):
            stream.flush()
    os._exit(code)


if __name__ == "__main__":
    cli()
