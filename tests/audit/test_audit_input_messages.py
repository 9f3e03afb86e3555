"""Refused inputs of the audit, each message whole: a document that is no List, a List whose keys after `items` are
not JSON, a kubeconfig that is not UTF-8, and a connection error whose OS error is only in its `reason`."""

from __future__ import annotations

import json

import pytest

from components.stackcheck.__main__ import main
from components.stackcheck.audit.kubeconfig import connection_reason
from tests.support.audit_input import CLUSTER
from tests.support.audit_objects import snapshot


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        pytest.param(
            "node.json",
            json.dumps(CLUSTER[0]),
            "not a Kubernetes List: no `items` (kind 'Node'); expected the output of: kubectl get "
            "nodes,pods,daemonsets -A -o json",
            id="one object, not a List",
        ),
        pytest.param(
            "trailer.json",
            json.dumps(snapshot(*CLUSTER))[:-1] + ', "kind": }',
            "not valid JSON (unexpected character, expected a JSON value) at byte 1851",
            id="a compact List whose keys after the items are not JSON",
        ),
    ],
)
def test_a_refused_snapshot_names_the_file_and_the_whole_problem(capsys, tmp_path, name, text, problem):
    path = tmp_path / name
    path.write_text(text)

    code = main(["audit", "--snapshot", str(path)])
    captured = capsys.readouterr()

    assert (code, captured.out) == (2, "")
    assert captured.err == f"stackcheck audit: error: {path}: {problem}\n"


def test_a_kubeconfig_that_is_not_utf8_is_named_so(capsys, tmp_path):
    path = tmp_path / "kubeconfig"
    path.write_bytes(b"clusters:\n- name: caf\xe9\n")

    code = main(["audit", "--kubeconfig", str(path)])
    captured = capsys.readouterr()

    assert (code, captured.out) == (2, "")
    assert captured.err == f"stackcheck audit: error: {path}: cannot read the kubeconfig: not UTF-8 text\n"


def test_a_connection_error_is_named_by_the_os_error_in_its_reason():
    # urllib3's MaxRetryError keeps the error that ended the retries in `reason`; nothing chains it here.
    import urllib3

    error = urllib3.exceptions.MaxRetryError(None, "/api/v1/nodes", reason=OSError(113, "No route to host"))

    assert error.__cause__ is None and error.__context__ is None
    assert connection_reason(error) == "No route to host"
