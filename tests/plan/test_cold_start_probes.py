"""The probe periods the cold start reads from a server's rendered Deployment (stackcheck/plan/cold_start.py)."""

from __future__ import annotations

import pytest

from components.stackcheck.plan.cold_start import probe_periods, startup_allowance


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


@pytest.mark.parametrize(
    ("deployment", "allowance"),
    [
        # Kubernetes API, Probe: initialDelaySeconds defaults to 0, failureThreshold to 3, periodSeconds to 10; the
        # kubelet restarts the container once the startup probe has failed failureThreshold times in a row.
        pytest.param(None, None, id="no-deployment-found"),
        pytest.param(_deployment({"name": "vllm"}), None, id="no-startup-probe"),
        pytest.param(_deployment({"startupProbe": {"httpGet": {"path": "/health"}}}), 0 + 3 * 10, id="defaults"),
        pytest.param(
            _deployment({"startupProbe": {"initialDelaySeconds": 60, "failureThreshold": 90, "periodSeconds": 2}}),
            60 + 90 * 2,
            id="all-given",
        ),
        pytest.param(_deployment({"startupProbe": {"initialDelaySeconds": 15}}), 15 + 3 * 10, id="delay-only"),
    ],
)
def test_the_startup_allowance_is_the_delay_then_the_failures_each_a_period(deployment, allowance):
    assert startup_allowance(deployment) == allowance
