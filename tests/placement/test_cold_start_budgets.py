"""The verdict `cold-start-fits-its-budget` (placement/cold_start.py) on cold starts built by hand: each budget at
its edge on both sides, and every sentence whole; the wait for the weights copy as the plan reads it from the
registered init container (stackcheck/plan/cold_start.py), and the cold start as the plan's JSON document gives it.

The budgets: the startup probe must allow the steps after the container starts (Kubernetes docs, "Configure
Liveness, Readiness and Startup Probes": `failureThreshold * periodSeconds`), `maxNodeProvisionTime` the node's
launch (cluster-autoscaler FAQ), the init container's wait the weights copy. The cold start here: a 300 s launch,
then 60 s of process start, 120 s of weights load and 20 s of CUDA graphs inside the probe (200 s), and 10 s for
the probes to notice: 510 s in all, about 8.5 min.
"""

from __future__ import annotations

import pytest

from components.facts.cold_start import GRAPHS, LAUNCH, LOAD, PROBES, PROCESS, WEIGHTS_COPY_STEP, ColdStart, Step
from components.placement.cold_start import cold_start_verdict
from components.placement.verdict import Verdict
from components.stackcheck.plan.cold_start import weights_wait

NAME = "cold-start-fits-its-budget"
STEPS = tuple(
    Step(name, seconds, "by hand", "this test")
    for name, seconds in ((LAUNCH, 300), (PROCESS, 60), (LOAD, 120), (GRAPHS, 20), (PROBES, 10))
)
COPY = Step(WEIGHTS_COPY_STEP, 90, "by hand", "this test")


def entry(**keys) -> ColdStart:
    budgets = {"scales_from_zero": False, "startup_allowance": 200, "max_node_provision": 300, **keys}
    return ColdStart("chat", "gpu-l4", STEPS, **budgets)


FITS = (
    "chat on gpu-l4: the startup probe allows 200 s for the 200 s from vLLM's start to its CUDA graphs (cold start "
    "510 s)"
)


def test_no_server_passes_and_says_so():
    assert cold_start_verdict([]) == (Verdict(NAME, True, "no vLLM server is served from the stack config"), [])


@pytest.mark.parametrize(
    ("keys", "fits"),
    [
        pytest.param({}, FITS, id="every budget exactly met"),
        pytest.param({"weights_copy": COPY, "weights_wait": 90}, FITS, id="a wait as long as the copy"),
        pytest.param({"max_node_provision": None}, FITS, id="no autoscaler"),
        pytest.param(
            {"startup_allowance": None},
            "chat on gpu-l4: no startup probe for the 200 s from vLLM's start to its CUDA graphs (cold start 510 s)",
            id="no startup probe",
        ),
    ],
)
def test_a_cold_start_within_every_budget_passes_naming_each(keys, fits):
    assert cold_start_verdict([entry(**keys)]) == (
        Verdict(NAME, True, f"every cold start fits its budget: {fits}", []),
        [],
    )


PROBE_SHORT = (
    "chat on gpu-l4: the startup probe allows 199 s but vLLM's start, the weights, profiling, compiling and CUDA "
    "graphs take about 200 s, so the pod is restarted while it loads; raise vllm.startupTimeoutSeconds to at least 200"
)
PROVISION_SHORT = (
    "chat on gpu-l4: autoscaler.maxNodeProvisionTime is 299 s but a GPU node takes about 300 s to launch and join, "
    "so the autoscaler gives up on it; raise it to at least 300s"
)


@pytest.mark.parametrize(
    ("keys", "failed"),
    [
        pytest.param({"startup_allowance": 199}, [PROBE_SHORT], id="probe a second short"),
        pytest.param({"max_node_provision": 299}, [PROVISION_SHORT], id="node provision a second short"),
        pytest.param(
            {"weights_copy": COPY, "weights_wait": 89},
            [
                "chat on gpu-l4: the weights copy to S3 takes about 90 s on a revision's first start but the server "
                "waits 89 s, so it starts on a prefix that is still being written"
            ],
            id="a wait a second short of the copy",
        ),
        pytest.param(
            {"weights_copy": COPY},
            [
                "chat on gpu-l4: the weights copy to S3 takes about 90 s on a revision's first start but the server "
                "does not wait for it, so it starts on a prefix that is still being written"
            ],
            id="no wait for the copy",
        ),
        pytest.param(
            {"startup_allowance": 199, "max_node_provision": 299}, [PROBE_SHORT, PROVISION_SHORT], id="both short"
        ),
    ],
)
def test_a_budget_shorter_than_its_steps_fails_naming_both_figures(keys, failed):
    assert cold_start_verdict([entry(**keys)]) == (Verdict(NAME, False, "; ".join(failed), failed), [])


def test_a_pool_from_zero_and_steps_left_out_are_warned_of_beside_a_failure():
    warnings = [
        "chat on gpu-l4 scales from zero: a first request waits about 510 s (about 8.5 min) from the pending pod to a "
        "server that answers and is ready (the Cold start section has each step)",
        "chat on gpu-l4: the cold-start estimate leaves out the image pull; torch.compile",
    ]
    keys = {"scales_from_zero": True, "not_estimated": ("the image pull", "torch.compile")}

    assert cold_start_verdict([entry(**keys)]) == (
        Verdict(NAME, True, f"every cold start fits its budget: {FITS}", warnings),
        warnings,
    )
    assert cold_start_verdict([entry(startup_allowance=199, **keys)]) == (
        Verdict(NAME, False, PROBE_SHORT, [PROBE_SHORT, *warnings]),
        warnings,
    )


def test_two_cold_starts_that_fit_are_named_one_after_the_other():
    second = ColdStart("code", "gpu-l40s", STEPS, False, None, None)
    assert cold_start_verdict([entry(), second])[0].message == (
        f"every cold start fits its budget: {FITS}; code on gpu-l40s: no startup probe for the 200 s from vLLM's "
        "start to its CUDA graphs (cold start 510 s)"
    )


def deployment(*init_containers: dict) -> dict:
    return {"spec": {"template": {"spec": {"initContainers": list(init_containers)}}}}


@pytest.mark.parametrize(
    ("registered", "wait"),
    [
        # The init container the seeding adds (vllm/weights_copy.py `WAIT_CONTAINER`) waits its `--timeout`.
        pytest.param(
            deployment(
                {"name": "other", "command": ["x", "--timeout", "5"]},
                {"name": "wait-for-weights", "command": ["wait", "--timeout", "1800"]},
            ),
            1800.0,
            id="the wait container's --timeout",
        ),
        pytest.param(deployment({"name": "other", "command": ["x", "--timeout", "5"]}), None, id="no wait container"),
        # A `--timeout` with no value after it is no wait.
        pytest.param(deployment({"name": "wait-for-weights", "command": ["wait", "--timeout"]}), None, id="no value"),
        pytest.param({"spec": {}}, None, id="no pod template"),
        pytest.param(None, None, id="no Deployment"),
    ],
)
def test_the_wait_for_the_weights_copy_is_read_from_the_registered_init_container(registered, wait):
    assert weights_wait(registered) == wait


def test_a_cold_start_as_the_plan_documents_it():
    cold = entry(scales_from_zero=True, not_estimated=("torch.compile",), weights_copy=COPY, weights_wait=89)
    document = cold.to_dict()
    step = {"arithmetic": "by hand", "source": "this test"}
    assert document == {
        "model": "chat",
        "pool": "gpu-l4",
        "coldStartSeconds": 510,
        "steps": [
            {"step": LAUNCH, "seconds": 300, **step, "inStartupProbe": False},
            {"step": PROCESS, "seconds": 60, **step, "inStartupProbe": True},
            {"step": LOAD, "seconds": 120, **step, "inStartupProbe": True},
            {"step": GRAPHS, "seconds": 20, **step, "inStartupProbe": True},
            {"step": PROBES, "seconds": 10, **step, "inStartupProbe": False},
        ],
        "budget": {
            "startupProbeMustAllowSeconds": 200,
            "startupProbeAllowanceSeconds": 200,
            "nodeLaunchSeconds": 300,
            "maxNodeProvisionSeconds": 300,
        },
        "scalesFromZero": True,
        "notEstimated": ["torch.compile"],
        "weightsCopy": {"step": WEIGHTS_COPY_STEP, "seconds": 90, **step, "inStartupProbe": False, "waitSeconds": 89},
        "sources": ["this test"],
    }
