"""The `audit` subcommand of `python -m components.stackcheck`: its arguments and its run.

Only the standard library is imported here, so `--help` and usage errors answer at once; the audit
(orjson, the placement model, the `kubernetes` client for live reads) loads after the arguments parse.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

# Match stackcheck.stack_config's EXIT_USAGE and EXIT_INTERNAL: the commands share their exit codes.
EXIT_USAGE = 2
EXIT_INTERNAL = 3


def add_parser(commands, formats: tuple[str, ...]) -> None:
    """Add the `audit` subcommand to the `python -m components.stackcheck` parser's `commands`."""
    audit = commands.add_parser(
        "audit",
        help="audit a running cluster: idle GPUs, pods leaking onto GPU nodes, pending GPU pods, GPU nodes "
        "without GPUs advertised, node agents missing on GPU nodes",
        description=(
            "Read a cluster snapshot (kubectl get nodes,pods,daemonsets -A -o json) or the live cluster, and "
            "check it with the placement model. Exit 0 when no finding is at or above --fail-on, 1 when one is, "
            "2 when the input or the command line is invalid, 3 on an internal error (--debug shows its traceback)."
        ),
    )
    add_audit_arguments(audit, formats)


def add_audit_arguments(audit: argparse.ArgumentParser, formats: tuple[str, ...]) -> None:
    """The options of `audit`, shared by `python -m components.stackcheck audit` and `eks-gpu-audit`."""
    source = audit.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--snapshot",
        default=None,
        help="the snapshot: a JSON file, - for stdin, or a directory of JSON files (one per kind)",
    )
    source.add_argument(
        "--kubeconfig", type=Path, default=None, help="read the cluster live through this kubeconfig (paged, raw JSON)"
    )
    audit.add_argument("--context", default=None, help="kubeconfig context (default: its current context)")
    audit.add_argument(
        "--stack",
        default=None,
        help="take the placement contract from Pulumi.<stack>.yaml (default: inferred from the nodes)",
    )
    audit.add_argument(
        "--project-dir",
        type=Path,
        default=None,
        help="directory holding Pulumi.yaml, for --stack (default: the current directory)",
    )
    audit.add_argument(
        "--format",
        choices=formats,
        default="text",
        help="text for terminals, markdown for tickets, json for tools (default: text)",
    )
    audit.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        default="warning",
        help="lowest finding severity that makes the exit code 1 (default: warning)",
    )
    audit.add_argument("--debug", action="store_true", help="on an internal error, print its traceback")


def run(args: argparse.Namespace) -> int:
    """Run `python -m components.stackcheck audit` with parsed `args`; returns the exit code."""
    from ..stack_config import UsageError
    from .report import render
    from .run import EXIT_INVALID_INPUT, AuditOptions, run_audit
    from .snapshot import SnapshotError

    if args.context and not args.kubeconfig:
        print("stackcheck audit: error: --context needs --kubeconfig", file=sys.stderr)
        return EXIT_USAGE
    options = AuditOptions(
        project_dir=(args.project_dir or Path.cwd()).resolve(),
        snapshot=args.snapshot,
        kubeconfig=args.kubeconfig,
        context=args.context,
        stack=args.stack,
        fail_on=args.fail_on,
    )
    try:
        result = run_audit(options)
        sys.stdout.write(render(result, args.format))
        sys.stdout.flush()
    except SnapshotError as error:
        print(f"stackcheck audit: error: {error}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except UsageError as error:
        for problem in error.problems:
            print(f"stackcheck audit: error: {problem}", file=sys.stderr)
        return error.exit_code
    except Exception as error:  # a fault of the tool itself: one line, the traceback on request
        print(f"stackcheck audit: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        if args.debug:
            traceback.print_exc(file=sys.stderr)
        return EXIT_INTERNAL
    return result.exit_code
