"""From tests/autoscaling/test_keda.py, what other test modules use too: `exported_metrics` and what they
need."""

from __future__ import annotations

from pathlib import Path

from components.facts import versions

ROOT = Path(__file__).resolve().parents[2]


VLLM_METRICS = ROOT / "components" / "observability" / "dashboards" / "metrics" / f"vllm-{versions.VLLM_VERSION}.txt"


def exported_metrics() -> set[str]:
    lines = VLLM_METRICS.read_text().splitlines()
    return {line.split()[0] for line in lines if line and not line.startswith("#")}
