"""How the audit reads snapshots: files, stdin, directories, every JSON layout; and its answers to bad input
(exit 2 with a message naming the file and what is wrong, never a traceback) and misuse (exit 2, one line)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from components.stackcheck.__main__ import main
from components.stackcheck.audit.model import Snapshot
from components.stackcheck.audit.snapshot import SnapshotError, read_list
from tests.support.audit_input import CLUSTER
from tests.support.audit_objects import daemonset, node, pod, snapshot, write

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["audit", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def items_read(data: bytes) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    read_list(io.BytesIO(data), "test.json", lambda kind, item: seen.append((kind, item["metadata"]["name"])))
    return seen


EXPECTED = [(item["kind"], item["metadata"]["name"]) for item in CLUSTER]


@pytest.mark.parametrize(
    "layout",
    [
        pytest.param(lambda doc: json.dumps(doc, indent=4), id="kubectl indent"),
        pytest.param(lambda doc: json.dumps(doc, indent=2), id="two spaces"),
        pytest.param(lambda doc: json.dumps(doc, indent="\t"), id="tabs"),
        pytest.param(lambda doc: json.dumps(doc), id="compact"),
        pytest.param(lambda doc: json.dumps(doc, separators=(",", ":")), id="minified"),
        pytest.param(
            lambda doc: json.dumps(
                {"kind": "List", "metadata": {}, "apiVersion": "v1", "items": doc["items"]}, indent=4
            ),
            id="items last",
        ),
    ],
)
def test_every_json_layout_gives_the_same_items(layout):
    text = layout(snapshot(*CLUSTER))
    assert items_read(text.encode()) == EXPECTED


def test_an_inner_object_that_looks_like_a_separator_is_joined_not_cut():
    # The first item holds an array whose objects sit at the items' own indentation, so `},` newline
    # indentation `{` occurs inside it: a hand-edited layout. The reader must join the pieces, not cut there.
    text = (
        '{\n    "kind": "List",\n    "items": [\n'
        '        {"kind": "Node", "metadata": {"name": "a"}, "spec": {"taints": [\n'
        '        {"key": "k1", "effect": "NoSchedule"},\n'
        '        {"key": "k2", "effect": "NoSchedule"}]}},\n'
        '        {"kind": "Node", "metadata": {"name": "b"}}\n'
        "    ]\n}\n"
    )
    assert [t["key"] for t in json.loads(text)["items"][0]["spec"]["taints"]] == ["k1", "k2"]
    taints = []
    read_list(io.BytesIO(text.encode()), "t", lambda kind, item: taints.append(item.get("spec", {}).get("taints")))
    assert taints == [[{"key": "k1", "effect": "NoSchedule"}, {"key": "k2", "effect": "NoSchedule"}], None]


ANNOTATED = [{**item, "metadata": {**item["metadata"], "annotations": {"note": "Grüße – ✓ 10 µs"}}} for item in CLUSTER]
LAYOUTS = {
    "kubectl indent": lambda doc: json.dumps(doc, indent=4, ensure_ascii=False),
    "compact": lambda doc: json.dumps(doc, ensure_ascii=False),
    "minified": lambda doc: json.dumps(doc, separators=(",", ":"), ensure_ascii=False),
    "API list": lambda doc: json.dumps(
        {"kind": "List", "apiVersion": "v1", "metadata": {"continue": ""}, "items": doc["items"]},
        separators=(",", ":"),
        ensure_ascii=False,
    ),
}


@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_every_read_boundary_gives_the_same_items(monkeypatch, layout):
    # A chunk may end inside a token, a separator or a multi-byte character: every cut must read alike.
    from components.stackcheck.audit import snapshot as snapshot_module

    data = layout(snapshot(*ANNOTATED)).encode()
    assert "✓".encode() in data
    for size in range(40, len(data) + 2, 7):
        monkeypatch.setattr(snapshot_module, "CHUNK_BYTES", size)
        seen: list[dict] = []
        envelope = read_list(io.BytesIO(data), "t.json", lambda kind, item, seen=seen: seen.append(item))
        assert seen == ANNOTATED, size
        assert envelope["kind"] == "List" and envelope["metadata"] in ({"resourceVersion": ""}, {"continue": ""})


def test_compact_json_is_streamed_not_held_whole(monkeypatch):
    from components.stackcheck.audit import snapshot as snapshot_module

    chunk = 256
    monkeypatch.setattr(snapshot_module, "CHUNK_BYTES", chunk)
    monkeypatch.setattr(snapshot_module._ListReader, "_whole", lambda self, buf: pytest.fail("parsed whole"))
    held: list[int] = []
    refill = snapshot_module._Scanner.refill

    def measured(scanner):
        refill(scanner)
        held.append(len(scanner.text))

    monkeypatch.setattr(snapshot_module._Scanner, "refill", measured)
    many = [pod(f"p{i}", "sys-1") for i in range(200)]
    data = json.dumps(snapshot(*many), separators=(",", ":")).encode()
    item_size = max(len(json.dumps(item, separators=(",", ":"))) for item in many)

    assert items_read(data) == [("Pod", f"p{i}") for i in range(200)]
    assert len(held) > len(data) // chunk - 2
    assert max(held) <= chunk + item_size + 2


def test_a_string_longer_than_several_chunks_is_read_whole(monkeypatch):
    from components.stackcheck.audit import snapshot as snapshot_module

    monkeypatch.setattr(snapshot_module, "CHUNK_BYTES", 64)
    long = {**CLUSTER[2], "metadata": {**CLUSTER[2]["metadata"], "annotations": {"applied": "x" * 1000}}}
    seen: list[dict] = []
    read_list(io.BytesIO(json.dumps(snapshot(CLUSTER[0], long)).encode()), "t", lambda kind, item: seen.append(item))
    assert seen == [CLUSTER[0], long]


def test_items_of_a_typed_list_take_its_kind():
    data = json.dumps(
        {"kind": "PodList", "apiVersion": "v1", "metadata": {}, "items": [{"metadata": {"name": "p"}, "spec": {}}]}
    ).encode()
    assert items_read(data) == [("Pod", "p")]


def test_large_input_is_read_in_chunks(monkeypatch):
    from components.stackcheck.audit import snapshot as snapshot_module

    monkeypatch.setattr(snapshot_module, "CHUNK_BYTES", 64)
    many = [pod(f"p{i}", "sys-1") for i in range(50)]
    seen = items_read(json.dumps(snapshot(*many), indent=4).encode())
    assert seen == [("Pod", f"p{i}") for i in range(50)]


def test_stdin_and_directories_are_read(capsys, tmp_path, monkeypatch):
    directory = tmp_path / "snap"
    directory.mkdir()
    write(directory / "nodes.json", snapshot(*CLUSTER[:2]))
    write(directory / "pods.json", snapshot(*CLUSTER[2:4]))
    write(directory / "daemonsets.json", snapshot(CLUSTER[4]), indent=None)
    code, out, _ = run(capsys, "--snapshot", str(directory), "--format", "json")
    document = json.loads(out)
    assert document["summary"]["nodes"] == 2 and document["summary"]["pods"] == 2
    assert document["summary"]["daemonsets"] == 1 and len(document["sources"]) == 3

    data = json.dumps(snapshot(*CLUSTER), indent=4).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, _ = run(capsys, "--snapshot", "-", "--format", "json")
    assert json.loads(out)["sources"] == ["<stdin>"] and json.loads(out)["summary"]["pods"] == 2


def _truncated(tmp_path: Path) -> Path:
    data = json.dumps(snapshot(*CLUSTER), indent=4)
    return write(tmp_path / "cut.json", data[: len(data) // 2])


INVALID = [
    ("truncated", _truncated, "the JSON ends before the document is complete (truncated file?)"),
    (
        "truncated compact",
        lambda tmp: write(tmp / "cut.json", json.dumps(snapshot(*CLUSTER))[:300]),
        "the JSON ends before the document is complete (truncated file?)",
    ),
    (
        "truncated compact inside a string",
        lambda tmp: write(tmp / "cut.json", json.dumps(snapshot(*CLUSTER))[:-200]),
        "the JSON ends before the document is complete (truncated file?)",
    ),
    (
        "truncated compact after an item",
        lambda tmp: write(tmp / "cut.json", json.dumps(snapshot(*CLUSTER))[:-60].rsplit("}, {", 1)[0] + "}, "),
        "the JSON ends before the document is complete (truncated file?)",
    ),
    (
        "syntax error inside a compact item",
        lambda tmp: write(tmp / "bad.json", json.dumps(snapshot(*CLUSTER)).replace('"sys-1"', "sys-1", 1)),
        "not valid JSON (Expecting value) at byte",
    ),
    (
        "compact items without a comma",
        lambda tmp: write(tmp / "bad.json", json.dumps(snapshot(*CLUSTER)).replace("}, {", "} {", 1)),
        "not valid JSON (expected ',' or ']' after an item) at byte",
    ),
    (
        "compact items with a trailing comma",
        lambda tmp: write(tmp / "bad.json", json.dumps(snapshot(*CLUSTER)).replace("}]", "},]", 1)),
        "not valid JSON (Expecting value) at byte",
    ),
    (
        "NaN in a compact item",
        lambda tmp: write(tmp / "nan.json", json.dumps(snapshot(*CLUSTER)).replace('"3920m"', "NaN", 1)),
        "NaN is not a JSON number",
    ),
    (
        "compact, not UTF-8",
        lambda tmp: write(tmp / "latin.json", json.dumps(snapshot(*CLUSTER)).encode().replace(b"web-1", b"w\xe9b-1")),
        "not valid UTF-8 at byte",
    ),
    (
        "truncated in the envelope",
        lambda tmp: write(tmp / "cut.json", json.dumps(snapshot(*CLUSTER), indent=4)[:-30]),
        "the JSON ends before the document is complete (truncated file?)",
    ),
    ("not JSON", lambda tmp: write(tmp / "notes.json", "apiVersion: v1\nitems: []\n"), "not valid JSON"),
    (
        "syntax error inside an item",
        lambda tmp: write(tmp / "bad.json", json.dumps(snapshot(*CLUSTER), indent=4).replace('"sys-1"', "sys-1", 1)),
        "not valid JSON",
    ),
    (
        "syntax error in the last item",
        lambda tmp: write(
            tmp / "last.json", json.dumps(snapshot(*CLUSTER), indent=4).replace('"aws-node"', "aws-node")
        ),
        "not valid JSON",
    ),
    (
        "not UTF-8",
        lambda tmp: write(
            tmp / "latin.json", json.dumps(snapshot(*CLUSTER), indent=4).encode().replace(b"web-1", b"w\xe9b-1")
        ),
        "not valid UTF-8",
    ),
    ("empty file", lambda tmp: write(tmp / "empty.json", b""), "is empty"),
    ("not a List", lambda tmp: write(tmp / "node.json", CLUSTER[0]), "not a Kubernetes List"),
    ("a JSON array", lambda tmp: write(tmp / "array.json", json.dumps(CLUSTER)), "not a Kubernetes List"),
    ("pods without nodes", lambda tmp: write(tmp / "pods.json", snapshot(*CLUSTER[2:])), "no Node objects"),
    ("0 nodes", lambda tmp: write(tmp / "empty-list.json", snapshot()), "no Node and no Pod objects"),
    (
        "unknown kinds",
        lambda tmp: write(
            tmp / "mixed.json",
            snapshot(*CLUSTER, {"kind": "Service", "metadata": {}}, {"kind": "ConfigMap"}, {"kind": "Service"}),
        ),
        "unknown kinds ConfigMap (1), Service (2); allowed: Node, Pod, DaemonSet",
    ),
    ("missing file", lambda tmp: tmp / "absent.json", "cannot read"),
    (
        "directory without JSON",
        lambda tmp: (tmp / "emptydir").mkdir() or tmp / "emptydir",
        "directory holds no .json file",
    ),
    (
        "malformed quantity",
        lambda tmp: write(tmp / "q.json", snapshot(node("n1"), pod("p", "n1", cpu="lots"))),
        "Pod p: malformed object",
    ),
]


# The whole problem each refused input is reported with, after `<file>: ` (the bytes are where the reader stopped).
WHOLE = {
    "truncated": "the JSON ends before the document is complete (truncated file?) at byte 2313",
    "truncated compact": "the JSON ends before the document is complete (truncated file?) at byte 300",
    "truncated compact inside a string": "the JSON ends before the document is complete (truncated file?) at byte 1642",
    "truncated compact after an item": "the JSON ends before the document is complete (truncated file?) at byte 1468",
    "syntax error inside a compact item": "not valid JSON (Expecting value) at byte 89",
    "compact items without a comma": "not valid JSON (expected ',' or ']' after an item) at byte 334",
    "compact items with a trailing comma": "not valid JSON (Expecting value) at byte 662",
    "NaN in a compact item": "not valid JSON (NaN is not a JSON number) at byte 31",
    "compact, not UTF-8": "not valid UTF-8 at byte 825",
    "truncated in the envelope": "the JSON ends before the document is complete (truncated file?) at byte 4596",
    "not JSON": "not valid JSON (unexpected character, expected a JSON value) at byte 0",
    "syntax error inside an item": "not valid JSON (unexpected character, expected a JSON value) at byte 161",
    "syntax error in the last item": "not valid JSON (unexpected character, expected a JSON value) at byte 3704",
    "not UTF-8": "not valid UTF-8 at byte 1656",
    "empty file": "is empty; expected the output of: kubectl get nodes,pods,daemonsets -A -o json",
    "not a List": "not a Kubernetes List: no `items` (kind 'Node'); expected the output of: kubectl get nodes,pods,daemonsets -A -o json",
    "a JSON array": "not a Kubernetes List: the document is a JSON list, not an object (from: kubectl get nodes,pods,daemonsets -A -o json)",
    "pods without nodes": "no Node objects; the audit needs nodes, pods and DaemonSets, as written by: kubectl get nodes,pods,daemonsets -A -o json",
    "0 nodes": "no Node and no Pod objects; the audit needs nodes, pods and DaemonSets, as written by: kubectl get nodes,pods,daemonsets -A -o json",
    "unknown kinds": "unknown kinds ConfigMap (1), Service (2); allowed: Node, Pod, DaemonSet (from: kubectl get nodes,pods,daemonsets -A -o json)",
    "missing file": "cannot read: No such file or directory",
    "directory without JSON": "directory holds no .json file; write one with: kubectl get nodes,pods,daemonsets -A -o json",
    "malformed quantity": "Pod p: malformed object: malformed quantity 'lots': expected a number with an optional suffix such as 500m, 2Gi, 1e3",
}


@pytest.mark.parametrize(("case", "make", "message"), INVALID, ids=[c[0] for c in INVALID])
def test_invalid_input_exits_2_naming_the_file_and_the_problem(capsys, tmp_path, case, make, message):
    path = make(tmp_path)

    code, out, err = run(capsys, "--snapshot", str(path))

    assert code == 2, err
    assert err == f"stackcheck audit: error: {path}: {WHOLE[case]}\n"
    assert message in WHOLE[case]
    assert "Traceback" not in err and out == ""


def test_invalid_input_as_a_process_prints_one_line_and_no_traceback(tmp_path):
    path = _truncated(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "components.stackcheck", "audit", "--snapshot", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"stackcheck audit: error: {path}: the JSON ends before")
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize(
    "args",
    [
        pytest.param([], id="no source"),
        pytest.param(["--snapshot", "x.json", "--kubeconfig", "k"], id="two sources"),
        pytest.param(["--snapshot", "x.json", "--fail-on", "fatal"], id="unknown severity"),
        pytest.param(["--snapshot", "x.json", "--context", "prod"], id="context without kubeconfig"),
    ],
)
def test_usage_errors_exit_2_in_one_line(capsys, args):
    code, _, err = run(capsys, *args)
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1


def test_unknown_stack_exits_2_and_names_the_stack_files(capsys, tmp_path):
    path = write(tmp_path / "s.json", snapshot(*CLUSTER))
    code, _, err = run(capsys, "--snapshot", str(path), "--stack", "nope", "--project-dir", str(ROOT))
    assert code == 2 and "no stack file Pulumi.nope.yaml" in err and "Pulumi.dev.yaml" in err


def test_pods_of_one_shape_share_it_and_daemonset_pins_do_not_split_shapes():
    from tests.support.audit_objects import daemon_pod

    agent = daemonset("aws-node", tolerations=[{"operator": "Exists"}])
    built = Snapshot()
    for item in [
        pod("a", "n1"),
        pod("b", "n2"),
        pod("c", "n1", cpu="200m"),
        daemon_pod(agent, "n1"),
        daemon_pod(agent, "n2"),
    ]:
        built.add(item["kind"], item)
    shapes = [p.shape.id for p in built.pods]
    assert shapes[0] == shapes[1] != shapes[2]
    assert shapes[3] == shapes[4] not in shapes[:3]


def test_malformed_objects_raise_snapshot_error():
    built = Snapshot()
    with pytest.raises(SnapshotError, match="Node n: malformed object"):
        built.add("Node", {"metadata": {"name": "n"}, "status": {"allocatable": {"nvidia.com/gpu": "x"}}})


def test_internal_error_exits_3_in_one_line_and_debug_adds_the_traceback(capsys, monkeypatch, tmp_path):
    from components.stackcheck.audit import run as audit_run

    def broken(options):
        raise RuntimeError("grouping table is corrupt")

    monkeypatch.setattr(audit_run, "run_audit", broken)
    path = write(tmp_path / "s.json", snapshot(*CLUSTER))

    code, out, err = run(capsys, "--snapshot", str(path))

    assert code == 3 and out == ""
    assert err == "stackcheck audit: internal error: RuntimeError: grouping table is corrupt\n"

    code, out, err = run(capsys, "--snapshot", str(path), "--debug")

    assert code == 3 and out == ""
    assert err.splitlines()[1] == "Traceback (most recent call last):" and "grouping table is corrupt" in err
