"""Verdict `node-replacement-keeps-models-serving` on plain values: a budget per server that lets one replica go
and keeps the others, and on Karpenter and Auto Mode pools a `do-not-disrupt` window that covers the cold start
from the pod's start, a drain deadline that holds a replacement's start, and no forceful expiry on Karpenter."""

from __future__ import annotations

import pytest

from components.facts.cold_start import (
    COMPILE,
    DECISION,
    GRAPHS,
    IMAGE,
    LAUNCH,
    LOAD,
    PROCESS,
    WEIGHTS_COPY_STEP,
    ColdStart,
    Step,
)
from components.placement.disruption import (
    PoolReplacement,
    ServedModel,
    duration_seconds,
    from_pod_start,
    node_replacement_verdict,
)

KARPENTER = PoolReplacement("gpu", "karpenter", expire_after="Never", termination_grace_period="2h")
AUTO_MODE = PoolReplacement("gpu", "autoMode", expire_after="336h", termination_grace_period="2h")
NODE_GROUP = PoolReplacement("gpu-inference-dev-gpu", "nodeGroup", max_unavailable=1)
BUDGET = {"maxUnavailable": 1, "selector": {"matchLabels": {"app": "vllm"}}}


def start(pull=288.0, loading=(58.0, 45.0, 45.0, 20.0), copy=None, allowance=1800.0) -> ColdStart:
    # Round figures of the kind facts/cold_start.py gives: 12 GB at 15 GB per 6 minutes is a 288 s pull; a 7B
    # model's process start, load, compile and CUDA graphs after it.
    steps = [
        Step(DECISION, 10, "", ""),
        Step(LAUNCH, 180, "", ""),
        Step(IMAGE, pull, "", ""),
        *(Step(name, seconds, "", "") for name, seconds in zip((PROCESS, LOAD, COMPILE, GRAPHS), loading, strict=True)),
    ]
    weights_copy = None if copy is None else Step(WEIGHTS_COPY_STEP, copy, "", "")
    return ColdStart("m", "gpu", tuple(steps), False, allowance, None, weights_copy=weights_copy)


def model(pool=KARPENTER, window="2088s", budgets=(BUDGET,), replicas=2, grace=55, cold=None) -> ServedModel:
    return ServedModel("ml/s", pool, cold or start(), replicas, window, grace, list(budgets))


def test_the_stacks_own_karpenter_server_passes_with_each_check_named():
    verdict = node_replacement_verdict([model()])

    assert (verdict.name, verdict.passed) == ("node-replacement-keeps-models-serving", True)
    # From the pod's start: pull 288 + loading 168 = 456 s; a replacement: pull 288 + allowance 1800 + grace 55.
    assert verdict.details == [
        "ml/s: PodDisruptionBudget maxUnavailable 1, minAvailable None",
        "ml/s: do-not-disrupt 2088s >= 456s from the pod's start",
        "gpu: terminationGracePeriod 7200s >= 2143s for ml/s",
        "gpu: expireAfter Never; nodes move by drift, one at a time, new node first",
    ]


@pytest.mark.parametrize(
    ("window", "passed"),
    [("2088s", True), ("456s", True), ("455s", False), ("true", True), (None, False)],
    ids=["the-stacks-window", "exactly-the-cold-start", "a-second-short", "for-ever", "none"],
)
def test_the_do_not_disrupt_window_must_cover_the_cold_start_from_the_pods_start(window, passed):
    assert node_replacement_verdict([model(window=window)]).passed is passed


def test_the_window_counts_the_image_pull_and_the_weights_copy_not_the_node_launch():
    # 288 pull + 3000 copy + 168 loading = 3456 s from the pod's start; the 190 s before the pod do not count.
    seeded = start(copy=3000.0)

    assert from_pod_start(seeded) == 3456
    verdict = node_replacement_verdict([model(window="3400s", cold=seeded)])
    assert not verdict.passed
    assert verdict.message.startswith(
        "ml/s on gpu: karpenter.sh/do-not-disrupt 3400s, but from the pod's start its cold start takes about 3456s"
    )


def test_a_drain_deadline_shorter_than_a_replacements_start_fails_naming_both():
    pool = PoolReplacement("gpu", "karpenter", expire_after="Never", termination_grace_period="30m")
    verdict = node_replacement_verdict([model(pool=pool)])

    assert not verdict.passed
    assert verdict.message.startswith("gpu: terminationGracePeriod 1800s is shorter than ml/s's 2143s")


def test_no_drain_deadline_fails():
    pool = PoolReplacement("gpu", "karpenter", expire_after="Never")

    assert "gpu: no terminationGracePeriod" in node_replacement_verdict([model(pool=pool)]).message


def test_a_karpenter_pool_that_expires_nodes_fails_and_auto_mode_says_it_cannot_help_it():
    expiring = PoolReplacement("gpu", "karpenter", expire_after="720h", termination_grace_period="2h")

    failed = node_replacement_verdict([model(pool=expiring)])
    assert not failed.passed
    assert failed.message.startswith("gpu: expireAfter 720h expires nodes by force")
    assert "set Never and roll AMI changes through drift" in failed.message
    auto = node_replacement_verdict([model(pool=AUTO_MODE)])
    assert auto.passed
    assert "gpu: EKS Auto Mode expires nodes after 336h (forceful; 21 days at most)" in auto.details[-1]


@pytest.mark.parametrize(
    ("budgets", "passed", "fragment"),
    [
        (
            (),
            False,
            "ml/s: no PodDisruptionBudget selects its pods, so a drain evicts every replica on the node at once; the "
            "vLLM server registers one (maxUnavailable: 1)",
        ),
        (({"maxUnavailable": 0},), False, "its PodDisruptionBudget lets no replica go"),
        (({"minAvailable": 2},), False, "its PodDisruptionBudget lets no replica go"),
        (({"minAvailable": 1},), True, "minAvailable 1"),
    ],
    ids=["none", "max-unavailable-0", "min-available-all", "min-available-one-of-two"],
)
def test_each_server_needs_a_budget_that_lets_one_replica_go(budgets, passed, fragment):
    verdict = node_replacement_verdict([model(pool=NODE_GROUP, budgets=budgets)])

    assert verdict.passed is passed
    assert any(fragment in line for line in verdict.details)


def test_a_node_group_is_judged_by_its_budget_and_its_update_pace_is_listed():
    verdict = node_replacement_verdict([model(pool=NODE_GROUP, window=None)])

    assert verdict.passed
    assert (
        "gpu-inference-dev-gpu: EKS's update replaces 1 node(s) at a time and drains each for 15 minutes at most"
        in verdict.details
    )


def test_without_a_server_the_verdict_holds_and_says_so():
    verdict = node_replacement_verdict([])

    assert verdict.passed and verdict.message == "no vLLM server is served from the stack config"


@pytest.mark.parametrize(
    ("value", "seconds"), [("2h", 7200), ("2088s", 2088), ("1h30m", 5400), ("true", float("inf")), (None, None)]
)
def test_durations_are_read_as_go_reads_them(value, seconds):
    assert duration_seconds(value) == seconds


def test_a_problem_of_one_model_stands_whatever_the_models_after_it():
    """Two servers: the first's budget lets no replica go, the second's is sound; the verdict fails on the first."""
    stuck = model(pool=NODE_GROUP, budgets=({"maxUnavailable": 0},))
    sound = ServedModel("ml/t", NODE_GROUP, start(), 2, "2088s", 55, [BUDGET])

    verdict = node_replacement_verdict([stuck, sound])

    assert not verdict.passed
    assert any("ml/s" in line and "its PodDisruptionBudget lets no replica go" in line for line in verdict.details)
