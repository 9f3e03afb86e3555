"""From tests/program/test_fleet_stack.py, what other test modules use too: `fleet_config`, `run_fleet` and what they
need."""

from __future__ import annotations

from pathlib import Path

import yaml

from components.stackcheck.runtime import ProgramRun, run_program
from components.stackcheck.stack_config import load_stack_config

ROOT = Path(__file__).resolve().parents[2]


FLEET = ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml"


def fleet_config(**changes) -> dict:
    document = yaml.safe_load(FLEET.read_text())
    config = document["config"]
    for key, value in changes.items():
        config[f"eks-gpu-inference:{key}"] = value
    return document


def run_fleet(document: dict, tmp_path: Path) -> ProgramRun:
    stack_file = tmp_path / "Pulumi.fleet.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    config = load_stack_config(ROOT, stack_file=stack_file)
    return run_program(
        config.program, config.values, project=config.project, stack=config.stack, secret_keys=config.secret_keys
    )
