"""The audit's text and markdown reports pinned whole, run in process (so that they read the checkout's code):
on the shipped example cluster, and on crafted snapshots where every list a report joins has two or more items
(several snapshot files, two instance types in a pool, two pools, more objects than a report names, two notes).

tests/audit/test_audit_example.py runs the installed `eks-gpu-audit` command; these read the same reports through
`python -m components.stackcheck audit`'s entry point.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from components.stackcheck.__main__ import main
from tests.support.audit_objects import (
    GPU_LABELS,
    GPU_TAINT,
    VLLM,
    daemon_pod,
    daemonset,
    device_plugin,
    gpu_node,
    node,
    pod,
    snapshot,
    write,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "audit"


def _report(monkeypatch, capsys, cwd: Path, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    code = main(["audit", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(("fmt", "expected"), [("text", "dev-cluster.txt"), ("markdown", "dev-cluster.md")])
def test_the_example_report_is_the_committed_one(monkeypatch, capsys, fmt, expected):
    """The audit page's example (docs/audit.md) of examples/audit/dev-cluster.json, whole, in `fmt`.

    To refresh after a deliberate change of a report, from the repository root:
      .venv/bin/python -m components.stackcheck audit --snapshot examples/audit/dev-cluster.json --stack dev \\
          --format text > tests/data/audit/dev-cluster.txt
    (and `--format markdown > tests/data/audit/dev-cluster.md`), then read the diff line by line: it is the
    specification of what a user reads.
    """
    code, out, err = _report(
        monkeypatch, capsys, ROOT, "--snapshot", "examples/audit/dev-cluster.json", "--stack", "dev", "--format", fmt
    )

    assert (code, err) == (1, "")
    assert out == (DATA / expected).read_text(encoding="utf-8")


def _crafted(directory: Path) -> Path:
    """Three files (one per kind): pool `gpu` of two instance types, pool `big`, a DaemonSet kept off 11 GPU nodes."""
    a10 = [gpu_node(f"gpu-{i:02}") for i in range(1, 10)]
    a10.append(node("gpu-10", "g5.2xlarge", pool="gpu", labels=GPU_LABELS, taints=[GPU_TAINT], gpus=1))
    big = gpu_node("big-1", gpus=4, pool="big")
    big["metadata"]["labels"]["node.kubernetes.io/instance-type"] = "g5.12xlarge"
    plugin, agent = device_plugin(), daemonset("aws-node")
    nodes = [node("sys-1"), *a10, big]
    pods = [
        *(daemon_pod(plugin, n["metadata"]["name"]) for n in nodes[1:]),
        daemon_pod(agent, "sys-1"),
        *(
            pod(f"vllm-{i}", f"gpu-{i:02}", namespace="llm", gpus=1, owner=("ReplicaSet", "vllm"), **VLLM)
            for i in (1, 2)
        ),
        pod("train", "big-1", namespace="ml", gpus=2, owner=("Job", "train"), **VLLM),
    ]
    directory.mkdir()
    write(directory / "nodes.json", snapshot(*nodes))
    write(directory / "pods.json", snapshot(*pods))
    write(directory / "daemonsets.json", snapshot(plugin, agent))
    return directory


_CRAFTED_TEXT = """\
Cluster audit of snap/daemonsets.json, snap/nodes.json, snap/pods.json
12 nodes (11 GPU), 15 pods (15 bound, 0 pending), 2 DaemonSets; 4 pod shapes x 2 node signatures
Placement contract: label GPU=true, taint GPU=true:NoSchedule (inferred from 11 GPU node(s); pass --stack to check against a stack)

GPU pools
  pool  instance types         nodes  GPUs  requested  idle  nodes w/o GPU pods
  big   g5.12xlarge            1      4     2          2     0
  gpu   g5.2xlarge, g5.xlarge  10     10    2          8     8

[WARNING] idle-gpus: 8 GPU node(s) of pool gpu run no pod that requests a GPU: 8 GPU(s) idle
  objects: gpu-03, gpu-04, gpu-05, gpu-06, gpu-07, gpu-08, gpu-09, gpu-10
{idle}
  rule: GPUs allocatable vs requested by the pods bound to each node
  fix: schedule GPU work there or scale the pool down (desired and minimum size); an idle node is billed for its whole instance type

[WARNING] node-agent-missing: DaemonSet kube-system/aws-node selects 11 GPU node(s) but cannot run there: untolerated taint GPU=true:NoSchedule
  objects: kube-system/aws-node, gpu-01, gpu-02, gpu-03, gpu-04, gpu-05, gpu-06, gpu-07, gpu-08, gpu-09, and 2 more
  - pools: big, gpu
  rule: TaintToleration: the DaemonSet's pod does not tolerate the GPU nodes' taint
  fix: add a toleration of GPU=true:NoSchedule to the DaemonSet's pod template

[INFO] idle-gpus: 1 GPU node(s) of pool big leave 2 GPU(s) unrequested beside their GPU pods
  objects: big-1
  - big-1: g5.12xlarge (4x NVIDIA A10G), 4 allocatable, 2 requested
  rule: GPUs allocatable vs requested by the pods bound to each node
  fix: pack GPU pods onto fewer nodes or use a smaller instance type

3 finding(s): 2 warning, 1 info; exit 1 (--fail-on warning).
"""

_UNPRICED = "not priced (Spot or reserved, or no price for its type and region)"
_IDLE = [
    *(f"gpu-{i:02}: g5.xlarge (1x NVIDIA A10G), 1 GPU(s) allocatable, 0 requested, {_UNPRICED}" for i in range(3, 10)),
]

_CRAFTED_MARKDOWN = """\
## Cluster audit of `snap/daemonsets.json`, `snap/nodes.json`, `snap/pods.json`

12 nodes (11 GPU), 15 pods (15 bound, 0 pending), 2 DaemonSets; 4 pod shapes x 2 node signatures.

Placement contract: label GPU=true, taint GPU=true:NoSchedule (inferred from 11 GPU node(s); pass --stack to check against a stack).

| pool | instance types | nodes | GPUs | requested | idle | nodes w/o GPU pods |
|---|---|---|---|---|---|---|
| big | g5.12xlarge | 1 | 4 | 2 | 2 | 0 |
| gpu | g5.2xlarge, g5.xlarge | 10 | 10 | 2 | 8 | 8 |

### warning: 8 GPU node(s) of pool gpu run no pod that requests a GPU: 8 GPU(s) idle

- **check**: `idle-gpus`; **rule**: GPUs allocatable vs requested by the pods bound to each node
- **objects**: gpu-03, gpu-04, gpu-05, gpu-06, gpu-07, gpu-08, gpu-09, gpu-10
{idle}
- **fix**: schedule GPU work there or scale the pool down (desired and minimum size); an idle node is billed for its whole instance type

### warning: DaemonSet kube-system/aws-node selects 11 GPU node(s) but cannot run there: untolerated taint GPU=true:NoSchedule

- **check**: `node-agent-missing`; **rule**: TaintToleration: the DaemonSet's pod does not tolerate the GPU nodes' taint
- **objects**: kube-system/aws-node, gpu-01, gpu-02, gpu-03, gpu-04, gpu-05, gpu-06, gpu-07, gpu-08, gpu-09, and 2 more
- pools: big, gpu
- **fix**: add a toleration of GPU=true:NoSchedule to the DaemonSet's pod template

### info: 1 GPU node(s) of pool big leave 2 GPU(s) unrequested beside their GPU pods

- **check**: `idle-gpus`; **rule**: GPUs allocatable vs requested by the pods bound to each node
- **objects**: big-1
- big-1: g5.12xlarge (4x NVIDIA A10G), 4 allocatable, 2 requested
- **fix**: pack GPU pods onto fewer nodes or use a smaller instance type

**3 finding(s): 2 warning, 1 info; exit 1 (--fail-on warning).**
"""


def _idle_lines(prefix: str) -> str:
    # The finding lists MAX_NAMES (8) nodes' details: gpu-03..gpu-09 and the g5.2xlarge gpu-10.
    last = f"gpu-10: g5.2xlarge (1x NVIDIA A10G), 1 GPU(s) allocatable, 0 requested, {_UNPRICED}"
    return "\n".join(f"{prefix}{line}" for line in [*_IDLE, last])


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        pytest.param("text", _CRAFTED_TEXT.replace("{idle}", _idle_lines("  - ")), id="text"),
        pytest.param("markdown", _CRAFTED_MARKDOWN.replace("{idle}", _idle_lines("- ")), id="markdown"),
    ],
)
def test_a_report_joins_every_list_of_two_or_more(monkeypatch, capsys, tmp_path, fmt, expected):
    """Three snapshot files, a pool of two instance types, two pools, 12 objects of which 10 are named."""
    _crafted(tmp_path / "snap")

    code, out, err = _report(monkeypatch, capsys, tmp_path, "--snapshot", "snap", "--format", fmt)

    assert (code, err) == (1, "")
    assert out == expected


_ORIGIN = "not inferred: no node has a GPU instance type or advertises nvidia.com/gpu"
_NOTES = [
    "the snapshot holds no DaemonSet: node agents were not checked (include daemonsets in the kubectl command)",
    f"no placement contract ({_ORIGIN})",
]


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        pytest.param(
            "text",
            "Cluster audit of snap.json\n"
            "2 nodes (0 GPU), 1 pods (1 bound, 0 pending), 0 DaemonSets; 1 pod shapes x 1 node signatures\n"
            "Placement contract: label none, taint none ({origin})\n"
            "\n" + "".join(f"Note: {note}\n" for note in _NOTES) + "No findings.\n",
            id="text",
        ),
        pytest.param(
            "markdown",
            "## Cluster audit of `snap.json`\n\n"
            "2 nodes (0 GPU), 1 pods (1 bound, 0 pending), 0 DaemonSets; 1 pod shapes x 1 node signatures.\n\n"
            "Placement contract: label none, taint none ({origin}).\n\n"
            + "".join(f"> Note: {note}\n" for note in _NOTES)
            + "\n**No findings.**\n",
            id="markdown",
        ),
    ],
)
def test_a_report_lists_each_note(monkeypatch, capsys, tmp_path, fmt, expected):
    """No DaemonSet and no GPU node: two notes, no pool table, no finding."""
    write(tmp_path / "snap.json", snapshot(node("sys-1"), node("sys-2"), pod("web", "sys-1")))

    code, out, err = _report(monkeypatch, capsys, tmp_path, "--snapshot", "snap.json", "--format", fmt)

    assert (code, err) == (0, "")
    assert out == expected.replace("{origin}", _ORIGIN)
