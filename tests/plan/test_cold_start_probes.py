"""The probe periods the cold start reads from a server's rendered Deployment (stackcheck/plan/cold_start.py)."""

from __future__ import annotations

import pytest

from components.stackcheck.plan.cold_start import probe_periods


def _deployment(container: dict) -> dict:
    return {"spec": {"template": {"spec": {"containers": [container]}}}}


@pytest.mark.parametrize(
    ("deployment", "periods"),
    [
        # Kubernetes API, Probe.periodSeconds: "How often (in seconds) to perform the probe. Default to 10 seconds."
        pytest.param(None, (10.0, 10.0), id="no-deployment-found"),
        pytest.param({"spec": {}}, (10.0, 10.0), id="no-template"),
        pytest.param(_deployment({"name": "vllm"}), (10.0, 10.0), id="no-probes"),
        pytest.param(
            _deployment({"startupProbe": {"periodSeconds": 5}, "readinessProbe": {"periodSeconds": 15}}),
            (5.0, 15.0),
            id="both-given",
        ),
    ],
)
def test_each_probes_period_is_its_own_or_kubernetes_default(deployment, periods):
    assert probe_periods(deployment) == periods
