"""From tests/audit/test_audit_input.py, what other test modules use too: `CLUSTER` and what they
need."""

from __future__ import annotations

from tests.support.audit_objects import daemonset, gpu_node, node, pod

CLUSTER = [
    node("sys-1"),
    gpu_node("gpu-1"),
    pod("web-1", "sys-1"),
    pod("idle-check", "sys-1", cpu="1"),
    daemonset("aws-node", tolerations=[{"operator": "Exists"}]),
]
