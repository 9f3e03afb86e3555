"""The audit page's command on the shipped example cluster (docs/audit.md, "Try it") prints every finding and exits 1."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KINDS = {"idle-gpus", "gpu-leak", "pending-gpu-pods", "gpu-not-advertised", "node-agent-missing", "model-mismatch"}


def readme_example_command() -> list[str]:
    section = re.search(r"^## Try it\n(.*?)(?=^## |\Z)", (ROOT / "docs" / "audit.md").read_text(), re.S | re.M)
    assert section, "docs/audit.md has no 'Try it' section"
    commands = re.findall(r"^\.venv/bin/eks-gpu-audit (--snapshot examples/\S+.*)$", section.group(1), re.M)
    assert len(commands) == 1, commands
    # The installed command of the environment running the tests (.ci/setup installs the project editable).
    return [str(Path(sys.executable).parent / "eks-gpu-audit"), *shlex.split(commands[0])]


def test_readme_command_on_the_example_prints_every_finding_and_exits_1():
    command = readme_example_command()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    as_json = subprocess.run([*command, "--format", "json"], cwd=ROOT, capture_output=True, text=True, check=False)
    document = json.loads(as_json.stdout)

    assert done.returncode == 1 and as_json.returncode == 1, done.stderr
    assert {f["kind"] for f in document["findings"]} == KINDS
    assert len(document["findings"]) == len(KINDS)  # one injected problem of each kind, nothing else
    for finding in document["findings"]:
        assert f"[{finding['severity'].upper()}] {finding['kind']}: {finding['title']}" in done.stdout
    assert document["contract"]["origin"] == "stack dev"
    assert "6 finding(s): 2 error, 4 warning; exit 1 (--fail-on warning)." in done.stdout
    assert done.stderr == ""


def test_example_is_the_dev_stack_cluster():
    """The example's GPU pool is the dev stack's g5.xlarge group, labelled and tainted by its contract."""
    items = json.loads((ROOT / "examples/audit/dev-cluster.json").read_text())["items"]
    nodes = [i for i in items if i["kind"] == "Node"]
    gpu = [n for n in nodes if n["metadata"]["labels"].get("eks.amazonaws.com/nodegroup") == "gpu"]
    system = [n for n in nodes if n["metadata"]["labels"].get("eks.amazonaws.com/nodegroup") == "system"]
    assert {n["metadata"]["labels"]["node.kubernetes.io/instance-type"] for n in gpu} == {"g5.xlarge"}
    assert {n["metadata"]["labels"]["node.kubernetes.io/instance-type"] for n in system} == {"m6i.large"}
    assert all(n["metadata"]["labels"]["GPU"] == "true" for n in gpu)
    assert all(n["spec"]["taints"] == [{"key": "GPU", "value": "true", "effect": "NoSchedule"}] for n in gpu)
    kinds = {(i["kind"], i["metadata"]["name"]) for i in items if i["kind"] != "Node"}
    assert ("DaemonSet", "nvidia-device-plugin") in kinds
    assert any(kind == "Pod" and name.startswith("vllm-") for kind, name in kinds)


def test_the_example_audited_in_process_counts_its_findings_by_severity(capsys):
    # The same command through the module's entry point, so that what it counts is the checkout's code.
    from components.stackcheck.__main__ import main

    arguments = readme_example_command()[1:]
    code = main(["audit", *arguments, "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    code_text = main(["audit", *arguments])
    text = capsys.readouterr().out

    assert code == code_text == 1
    assert {severity: n for severity, n in document["counts"].items() if n} == {"error": 2, "warning": 4}
    assert "6 finding(s): 2 error, 4 warning; exit 1 (--fail-on warning)." in text
