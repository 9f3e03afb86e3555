"""The live path: `--kubeconfig` reads nodes, pods and DaemonSets through the official `kubernetes` client, page by
page, from a local HTTP server that serves the list endpoints as the API server does (limit / continue)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import pytest

from components.stackcheck.__main__ import main
from components.stackcheck.audit.kubeconfig import connection_reason
from tests.support.audit_objects import GPU_TOLERATION, daemon_pod, daemonset, device_plugin, gpu_node, node, pod

NODES = [node(f"sys-{i}") for i in range(3)] + [gpu_node(f"gpu-{i}") for i in range(2)]
PLUGIN = device_plugin()
EXPORTER = daemonset("node-exporter", namespace="monitoring")
PODS = (
    [pod(f"web-{i}", f"sys-{i % 3}") for i in range(7)]
    + [daemon_pod(PLUGIN, f"gpu-{i}") for i in range(2)]
    + [
        pod("vllm-0", "gpu-0", gpus=1, tolerations=[GPU_TOLERATION], node_selector={"GPU": "true"}),
        pod("embed", gpus=1),
    ]
)
LISTS = {
    "/api/v1/nodes": ("NodeList", "v1", NODES),
    "/api/v1/pods": ("PodList", "v1", PODS),
    "/apis/apps/v1/daemonsets": (
        "DaemonSetList",
        "apps/v1",
        [PLUGIN, EXPORTER, daemonset("aws-node", tolerations=[{"operator": "Exists"}])],
    ),
}


class FakeApiServer(BaseHTTPRequestHandler):
    """Serves the three list endpoints, `limit` items a page, `continue` the offset of the next page."""

    requests: list[tuple[str, dict]] = []

    def do_GET(self) -> None:  # the http.server hook
        url = urlparse(self.path)
        query = {key: values[0] for key, values in parse_qs(url.query).items()}
        type(self).requests.append((url.path, query))
        if url.path not in LISTS:
            self._send(
                404, {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404}
            )
            return
        kind, api_version, items = LISTS[url.path]
        start = int(query.get("continue") or 0)
        limit = int(query.get("limit") or len(items))
        page = items[start : start + limit]
        metadata = {"resourceVersion": "12345"}
        if start + limit < len(items):
            metadata["continue"] = str(start + limit)
        # Like the API server: items carry no kind or apiVersion; the list says what they are.
        stripped = [{k: v for k, v in item.items() if k not in ("kind", "apiVersion")} for item in page]
        self._send(200, {"kind": kind, "apiVersion": api_version, "metadata": metadata, "items": stripped})

    def _send(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:  # keep the test output clean
        pass


@pytest.fixture
def api_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeApiServer)
    # serve_forever checks for shutdown() every poll_interval (0.5 s by default), which each teardown would wait.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    FakeApiServer.requests = []
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def kubeconfig(tmp_path, server: str, context: str = "test") -> str:
    path = tmp_path / "kubeconfig"
    path.write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": context,
                "clusters": [
                    {"name": "local", "cluster": {"server": server}},
                    {"name": "nowhere", "cluster": {"server": "http://127.0.0.1:9"}},
                ],
                "users": [{"name": "me", "user": {"token": "test-token"}}],
                "contexts": [
                    {"name": "test", "context": {"cluster": "local", "user": "me"}},
                    {"name": "down", "context": {"cluster": "nowhere", "user": "me"}},
                ],
            }
        )
    )
    return str(path)


def test_live_audit_pages_through_every_list(capsys, tmp_path, api_server, monkeypatch):
    from components.stackcheck.audit import live

    monkeypatch.setattr(live, "PAGE_SIZE", 2)
    code = main(["audit", "--kubeconfig", kubeconfig(tmp_path, api_server), "--format", "json"])
    document = json.loads(capsys.readouterr().out)

    assert document["sources"] == [api_server]
    assert document["summary"]["nodes"] == 5 and document["summary"]["pods"] == len(PODS)
    assert document["summary"]["daemonsets"] == 3
    kinds = {f["kind"] for f in document["findings"]}
    assert kinds == {"idle-gpus", "pending-gpu-pods", "node-agent-missing"}
    assert code == 1
    pages = [(path, query.get("continue")) for path, query in FakeApiServer.requests]
    assert pages == [
        ("/api/v1/nodes", None),
        ("/api/v1/nodes", "2"),
        ("/api/v1/nodes", "4"),
        ("/api/v1/pods", None),
        *[("/api/v1/pods", str(n)) for n in range(2, len(PODS), 2)],
        ("/apis/apps/v1/daemonsets", None),
        ("/apis/apps/v1/daemonsets", "2"),
    ]
    assert all(query.get("limit") == "2" for _, query in FakeApiServer.requests)


def test_live_audit_uses_the_named_context(capsys, tmp_path, api_server):
    code = main(
        [
            "audit",
            "--kubeconfig",
            kubeconfig(tmp_path, api_server, context="down"),
            "--context",
            "test",
            "--format",
            "json",
        ]
    )
    assert json.loads(capsys.readouterr().out)["sources"] == [api_server] and code == 1


@pytest.mark.parametrize(
    ("context", "message"),
    [
        ("down", "http://127.0.0.1:9: cannot reach the API server"),
        ("absent", "--context 'absent' is not a context of the kubeconfig; contexts: test, down"),
    ],
)
def test_unreachable_server_or_unknown_context_exits_2(capsys, tmp_path, api_server, context, message, monkeypatch):
    import urllib3

    monkeypatch.setattr(urllib3.util.retry.Retry, "DEFAULT", urllib3.util.retry.Retry(0))
    code = main(["audit", "--kubeconfig", kubeconfig(tmp_path, api_server), "--context", context])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


def test_missing_kubeconfig_exits_2(capsys, tmp_path):
    code = main(["audit", "--kubeconfig", str(tmp_path / "absent")])
    err = capsys.readouterr().err
    assert code == 2 and f"{tmp_path / 'absent'}: kubeconfig does not exist" in err


def _config(**fields) -> str:
    document = {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": "test",
        "clusters": [{"name": "local", "cluster": {"server": "http://127.0.0.1:9"}}],
        "users": [{"name": "me", "user": {"token": "t"}}],
        "contexts": [{"name": "test", "context": {"cluster": "local", "user": "me"}}],
    }
    document.update(fields)
    return json.dumps({key: value for key, value in document.items() if value is not None})


# (case, kubeconfig text, --context, the one line expected after "<path>: ")
BROKEN_KUBECONFIGS = [
    (
        "bad YAML",
        "clusters: [\n  - name: a\n",
        None,
        "the kubeconfig is not valid YAML at line 2, column 3: expected the node content, but found '-'",
    ),
    (
        "tab indentation",
        "contexts:\n\t- name: a\n",
        None,
        "the kubeconfig is not valid YAML at line 2, column 1: found character '\\t' that cannot start any token",
    ),
    ("empty file", "", None, "not a kubeconfig: the document is empty"),
    ("a list", "- a\n- b\n", None, "not a kubeconfig: the document is a YAML list, not a mapping"),
    (
        "no current context",
        _config(**{"current-context": None}),
        None,
        "the kubeconfig has no current-context; pass --context (contexts: test), or set one with: "
        "kubectl config use-context NAME",
    ),
    (
        "unknown current context",
        _config(**{"current-context": "prod"}),
        None,
        "current-context 'prod' is not a context of the kubeconfig; contexts: test",
    ),
    ("unknown --context", _config(), "prod", "--context 'prod' is not a context of the kubeconfig; contexts: test"),
    (
        "context naming a missing cluster",
        _config(contexts=[{"name": "test", "context": {"cluster": "gone", "user": "me"}}]),
        None,
        "context 'test' names cluster 'gone', which the kubeconfig does not define; clusters: local",
    ),
    (
        "context naming a missing user",
        _config(contexts=[{"name": "test", "context": {"cluster": "local", "user": "you"}}]),
        None,
        "context 'test' names user 'you', which the kubeconfig does not define; users: me",
    ),
    (
        "a kubeconfig that defines no user",
        _config(users=[]),
        None,
        "context 'test' names user 'me', which the kubeconfig does not define; users: none",
    ),
    (
        "cluster without server",
        _config(clusters=[{"name": "local", "cluster": {}}]),
        None,
        "cluster 'local' of context 'test' has no server",
    ),
    (
        "context naming no cluster",
        _config(contexts=[{"name": "test", "context": {"user": "me"}}]),
        None,
        "context 'test' names no cluster",
    ),
    ("contexts not a list", _config(contexts={"test": {}}), None, "`contexts` is a YAML dict, not a list"),
    ("a directory", None, None, "cannot read the kubeconfig: Is a directory"),
]


@pytest.mark.parametrize(
    ("case", "text", "context", "message"), BROKEN_KUBECONFIGS, ids=[c[0] for c in BROKEN_KUBECONFIGS]
)
def test_broken_kubeconfig_gives_one_line_and_exits_2(capsys, tmp_path, case, text, context, message):
    path = tmp_path / "kubeconfig"
    if text is None:
        path.mkdir()
    else:
        path.write_text(text)

    code = main(["audit", "--kubeconfig", str(path), *(["--context", context] if context else [])])
    captured = capsys.readouterr()

    assert code == 2 and captured.out == ""
    assert captured.err == f"stackcheck audit: error: {path}: {message}\n"


def test_unreachable_server_is_named_without_python_reprs(capsys, tmp_path):
    import urllib3

    path = tmp_path / "kubeconfig"
    path.write_text(_config())
    retry = urllib3.util.retry.Retry.DEFAULT
    urllib3.util.retry.Retry.DEFAULT = urllib3.util.retry.Retry(0)
    try:
        code = main(["audit", "--kubeconfig", str(path)])
    finally:
        urllib3.util.retry.Retry.DEFAULT = retry
    err = capsys.readouterr().err

    assert code == 2
    assert err == "stackcheck audit: error: http://127.0.0.1:9: cannot reach the API server: Connection refused\n"


# (case, the error's text, the reason shown): errors whose chain holds no OSError, read from their text
ERROR_TEXTS = [
    (
        "urllib3's retries text",
        "HTTPConnectionPool(host='127.0.0.1', port=9): Max retries exceeded with url: /api/v1/nodes (Caused by "
        "NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new "
        "connection: [Errno 111] Connection refused'))",
        "Connection refused",
    ),
    (
        "a bracket after the OS error",
        "proxy tunnel failed: [Errno 101] Network is unreachable [fd00::1]:443",
        "Network is unreachable [fd00::1]:443",
    ),
    (
        "no OS error",
        "<urllib3.connection.HTTPSConnection object at 0x7f>: TLS handshake timed out",
        "TLS handshake timed out",
    ),
    ("no text", "", "RuntimeError"),
]


@pytest.mark.parametrize(("case", "text", "reason"), ERROR_TEXTS, ids=[c[0] for c in ERROR_TEXTS])
def test_a_connection_error_is_named_by_its_os_error_or_the_last_part_of_its_text(case, text, reason):
    assert connection_reason(RuntimeError(text)) == reason


def test_a_connection_error_is_named_by_the_os_error_in_its_chain():
    try:
        try:
            raise ConnectionRefusedError(111, "Connection refused")
        except OSError as error:
            raise RuntimeError("<object at 0x7f>: Failed to establish a new connection") from error
    except RuntimeError as error:
        assert connection_reason(error) == "Connection refused"
