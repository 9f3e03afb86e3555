"""From tests/args/test_component_plain_inputs.py, what other test modules use too: `REQUIRED_INPUTS` and what they
need."""

from __future__ import annotations

# The inputs a component cannot do without, as plain values.
REQUIRED_INPUTS = {
    "GpuNodeGroup": {"cluster_name": "ml", "node_role_arn": "arn:aws:iam::123456789012:role/n", "subnet_ids": []},
    "ClusterAutoscaler": {"cluster_name": "ml"},
    "PrometheusMonitors": {"targets": []},
}
