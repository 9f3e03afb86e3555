"""A small run of benchmarks/audit_bench.py: the kubectl-shaped snapshot it writes (benchmarks/audit_snapshot.py)
is one the audit reads, and it prints both measurements side by side (the full-size run is a benchmark, not a
test)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks.audit_snapshot import write_snapshot
from components.stackcheck.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def test_generated_snapshot_is_a_kubectl_list_the_audit_reads(capsys, tmp_path):
    path = tmp_path / "snapshot.json"
    write_snapshot(path, 120, 2400)
    document = json.loads(path.read_text())
    assert document["kind"] == "List" and len(document["items"]) == 120 + 6 + 2400
    assert path.read_text().startswith('{\n    "apiVersion": "v1",\n    "items": [\n        {\n')

    code = main(["audit", "--snapshot", str(path), "--format", "json"])
    result = json.loads(capsys.readouterr().out)

    assert code == 1
    assert result["summary"]["nodes"] == 120 and result["summary"]["pods"] == 2400
    assert {f["kind"] for f in result["findings"]} >= {
        "idle-gpus",
        "gpu-leak",
        "pending-gpu-pods",
        "gpu-not-advertised",
        "node-agent-missing",
    }


def test_compact_snapshot_holds_the_same_items_on_one_line(capsys, tmp_path):
    indented, compact = tmp_path / "indented.json", tmp_path / "compact.json"
    write_snapshot(indented, 30, 400)
    write_snapshot(compact, 30, 400, compact=True)

    assert b"\n" not in compact.read_bytes() and b", " not in compact.read_bytes()[:200]
    assert json.loads(compact.read_text()) == json.loads(indented.read_text())
    outputs = []
    for path in (indented, compact):
        main(["audit", "--snapshot", str(path), "--format", "json"])
        document = json.loads(capsys.readouterr().out)
        outputs.append({key: value for key, value in document.items() if key != "sources"})
    assert outputs[0] == outputs[1] and outputs[0]["summary"]["pods"] == 400


def test_benchmark_prints_both_measurements_for_both_layouts_side_by_side():
    done = subprocess.run(
        [sys.executable, "benchmarks/audit_bench.py", "--nodes", "20", "--pods", "300", "--runs", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for layout in ("indented", "compact"):
        assert f"{layout}: (a) json.load, bare process" in done.stdout
        assert f"{layout}: (b) audit, whole process" in done.stdout
        assert f"{layout}: ratio b/a" in done.stdout
