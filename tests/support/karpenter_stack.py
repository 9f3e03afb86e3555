"""From tests/pools/test_karpenter_stack.py, what other test modules use too: `KARPENTER`, `karpenter_stack_file` and what they
need."""

from __future__ import annotations

from pathlib import Path

from conftest import (
    dev_stack_file,
)

KARPENTER = {"gpuNodeGroup": {"provisioner": "karpenter"}}


def karpenter_stack_file(tmp_path: Path, overrides: dict | None = None) -> Path:
    return dev_stack_file(tmp_path, KARPENTER, overrides or {}, name="karpenter")
