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
    assert verdict.name == "node-replacement-keeps-models-serving"


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


def test_each_problem_is_written_whole():
    """The messages the verdict prints, whole: a replacement is pull 288 + startup allowance 1800 + the draining
    pod's grace 55 = 2143 s; EKS drains a node group's node for 15 minutes before the update fails (EKS user guide,
    managed-node-update-behavior)."""
    short_drain = PoolReplacement("gpu", "karpenter", expire_after="Never", termination_grace_period="30m")
    no_drain = PoolReplacement("gpu", "karpenter", expire_after="Never")
    expiring = PoolReplacement("gpu", "karpenter", expire_after="720h", termination_grace_period="2h")

    assert node_replacement_verdict([model(pool=short_drain)]).details[0] == (
        "gpu: terminationGracePeriod 1800s is shorter than ml/s's 2143s (a new replica's pull, startup allowance or "
        "loading, and the draining pod's 55s grace): the drain deletes the replica its budget keeps before the new "
        "one serves; lower startupTimeoutSeconds"
    )
    assert node_replacement_verdict([model(pool=no_drain)]).details[0] == (
        "gpu: no terminationGracePeriod, so a drain that a budget or do-not-disrupt blocks never ends "
        "(disruption.md: not recommended with do-not-disrupt pods); set one"
    )
    assert node_replacement_verdict([model(pool=expiring)]).details[0] == (
        "gpu: expireAfter 720h expires nodes by force (not budgeted, no new node first, do-not-disrupt ignored); set "
        "Never and roll AMI changes through drift"
    )
    assert node_replacement_verdict([model(window=None)]).details[0] == (
        "ml/s on gpu: no karpenter.sh/do-not-disrupt, but from the pod's start its cold start takes about 456s (image "
        "pull, weights, loading; the window counts from status.startTime), so Karpenter may move a replica that is "
        "still loading; give the pods a window of at least that"
    )
    assert node_replacement_verdict([model(pool=NODE_GROUP, budgets=({"maxUnavailable": 0},))]).details[0] == (
        "ml/s: its PodDisruptionBudget lets no replica go (maxUnavailable 0, minAvailable None, 2 replica(s)), so a "
        "drain waits until it is forced: Karpenter's terminationGracePeriod, or EKS's update failing after 15 "
        "minutes; use maxUnavailable: 1"
    )


@pytest.mark.parametrize(
    ("grace", "passed"), [("2143s", True), ("2142s", False)], ids=["exactly-a-replacement", "a-second-short"]
)
def test_the_drain_deadline_holds_a_replacement_at_exactly_its_seconds(grace, passed):
    pool = PoolReplacement("gpu", "karpenter", expire_after="Never", termination_grace_period=grace)

    assert node_replacement_verdict([model(pool=pool)]).passed is passed


def test_without_a_startup_probe_a_replacement_waits_for_its_loading():
    """No startup allowance: the replacement is its pull 288 + loading 168 (process, load, compile, graphs) + 55."""
    pool = PoolReplacement("gpu", "karpenter", expire_after="Never", termination_grace_period="510s")

    verdict = node_replacement_verdict([model(pool=pool, cold=start(allowance=None))])

    assert not verdict.passed
    assert verdict.details[0].startswith("gpu: terminationGracePeriod 510s is shorter than ml/s's 511s")


@pytest.mark.parametrize(
    ("min_available", "replicas", "passed"),
    [(1, 1, False), (1, 2, True), (2, 2, False), (0, 0, True)],
    ids=["one-of-one", "one-of-two", "two-of-two", "none-of-none"],
)
def test_a_min_available_budget_must_leave_a_replica_to_go(min_available, replicas, passed):
    budget = {"minAvailable": min_available}

    assert node_replacement_verdict([model(pool=NODE_GROUP, budgets=(budget,), replicas=replicas)]).passed is passed


def test_a_node_group_without_an_update_pace_and_a_passing_fleet_are_named():
    pace_unset = PoolReplacement("gpu-inference-dev-gpu", "nodeGroup")
    second = ServedModel("ml/t", pace_unset, start(), 2, None, 55, [BUDGET])

    verdict = node_replacement_verdict([model(pool=pace_unset), second])

    assert verdict.passed
    assert verdict.message == "node replacement keeps every model's loading replicas: ml/s, ml/t"
    # One line a pool, though both models run on it.
    assert verdict.details == [
        "ml/s: PodDisruptionBudget maxUnavailable 1, minAvailable None",
        "gpu-inference-dev-gpu: EKS's update replaces its default of node(s) at a time and drains each for 15 "
        "minutes at most",
        "ml/t: PodDisruptionBudget maxUnavailable 1, minAvailable None",
    ]


def test_a_budget_problem_and_a_karpenter_problem_of_one_model_are_both_named():
    expiring = PoolReplacement("gpu", "karpenter", expire_after="720h", termination_grace_period="2h")

    verdict = node_replacement_verdict([model(pool=expiring, budgets=())])

    assert verdict.name == "node-replacement-keeps-models-serving" and not verdict.passed
    assert [line.split(":")[0] for line in verdict.details[:2]] == ["ml/s", "gpu"]


def test_auto_mode_says_its_forceful_expiry_is_what_only_the_budget_guards():
    verdict = node_replacement_verdict([model(pool=AUTO_MODE)])

    assert verdict.details[-1] == (
        "gpu: EKS Auto Mode expires nodes after 336h (forceful; 21 days at most), where only the "
        "PodDisruptionBudget keeps a replica serving"
    )


def test_without_a_startup_probe_or_loading_a_replacement_is_its_pull_and_grace():
    """A cold start with no step inside the probe and no startup allowance: the replacement is pull 288 + grace 55 =
    343 s, no second more."""
    pool = PoolReplacement("gpu", "karpenter", expire_after="Never", termination_grace_period="343s")
    cold = start(loading=(0.0, 0.0, 0.0, 0.0), allowance=None)

    assert node_replacement_verdict([model(pool=pool, cold=cold, window="2088s")]).passed
