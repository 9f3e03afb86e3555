"""The pieces of benchmarks/suite_bench.py, and the switch it turns: the two sides differ in the heap's
freeze alone (the full run is a benchmark, not a test)."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import conftest
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import suite_bench


def test_the_sides_differ_in_the_heap_variable_alone():
    base = {"PATH": "/usr/bin", "PROMTOOL": "/x/promtool", "SUITE_HEAP": "unfrozen"}

    sides = suite_bench.side_environments(base)

    assert sides == {
        "a": {"PATH": "/usr/bin", "PROMTOOL": "/x/promtool", "SUITE_HEAP": "unfrozen"},
        "b": {"PATH": "/usr/bin", "PROMTOOL": "/x/promtool"},
    }


def test_the_ratio_is_the_median_of_each_rounds_ratio():
    # Rounds 2.0, 1.5 and 1.2: the median is 1.5, not the ratio of the medians (60/50 = 1.2).
    assert suite_bench.median_ratio([100.0, 60.0, 60.0], [50.0, 40.0, 50.0]) == 1.5


def test_a_failing_run_stops_the_benchmark_naming_the_side():
    with pytest.raises(SystemExit, match="exited 3 with SUITE_HEAP='unfrozen'"):
        suite_bench.timed([sys.executable, "-c", "raise SystemExit(3)"], {"SUITE_HEAP": "unfrozen"})


def test_a_passing_run_reports_its_wall_and_cpu_seconds():
    wall, cpu = suite_bench.timed([sys.executable, "-c", "sum(range(10**6))"], {})

    assert 0 < cpu <= wall + 0.5 and wall < 60


def test_the_suite_freezes_the_heap_unless_told_not_to(monkeypatch):
    kept = [object()]  # alive, so frozen by the next freeze
    monkeypatch.setenv("SUITE_HEAP", "unfrozen")
    before = gc.get_freeze_count()
    conftest._freeze_the_heap()
    assert gc.get_freeze_count() == before

    monkeypatch.delenv("SUITE_HEAP")
    conftest._freeze_the_heap()
    assert gc.get_freeze_count() > before
    assert kept
