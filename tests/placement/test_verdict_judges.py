"""Each judge of the verdicts' registry (components/placement/verdicts.py) hands its check every part of the
evidence the check reads, and the check's verdict and warnings back: a part read under the wrong field, passed as
nothing, or dropped between the evidence and the check would judge a stack other than the one the plan gathered.

Each check is stood in for by one that records what it was given, so the evidence's parts can be told apart by
value (a list of release namespaces that is not the ServiceAccounts', a currency that is not the default) without
building a stack in which each part changes the outcome. The check functions themselves are tested in their own
files (tests/placement/test_service_accounts.py, test_container_memory.py, ...).
"""

from __future__ import annotations

from typing import Any

import pytest

from components.placement import (
    NodeGroupSpec,
    agents,
    budget,
    capacity,
    cold_start,
    disk_fit,
    disruption,
    driver_fit,
    exporter,
    guard,
    memory_fit,
    model_fit,
    ownership,
    pools_for_node_groups,
    provisioners,
    queue,
    scale_from_zero,
    scaling,
    service_accounts,
)
from components.placement.agents import Agent
from components.placement.evidence import CostTotals, Evidence, Owners, Placement, Serving
from components.placement.verdict import Verdict
from components.placement.verdicts import VERDICTS, Judgement, RegisteredVerdict, Registry, gpu_guard


def _deployment(name: str, image: str, args: list[str] | None = None) -> dict:
    container: dict[str, Any] = {"name": name, "image": image, **({"args": args} if args else {})}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": "kube-system"},
        "spec": {"template": {"spec": {"containers": [container]}}},
    }


# The Cluster Autoscaler's node hold is the larger of --scale-down-delay-after-add (10m, its default) and
# --scale-down-unneeded-time, here 15m: 900 s (kubernetes/autoscaler cluster-autoscaler FAQ, both flags).
AUTOSCALER = _deployment(
    "cluster-autoscaler", "registry.k8s.io/autoscaling/cluster-autoscaler:v1.30.0", ["--scale-down-unneeded-time=15m"]
)
DAEMONSET_AGENT = Agent("dcgm-server", "every-nvidia-node", {"kind": "DaemonSet", "metadata": {"name": "dcgm-server"}})
DEPLOYMENT_AGENT = Agent("metrics-server", "system", {"kind": "Deployment", "metadata": {"name": "metrics-server"}})

PLACEMENT = Placement(
    workloads=[AUTOSCALER],
    pools=pools_for_node_groups([NodeGroupSpec("system", "m5.large", 1, {}, [])]),
    matrix=[],
    specs=["the node group specs"],  # type: ignore[list-item]
    resources=["the declaring resources"],
    agents=[DEPLOYMENT_AGENT, DAEMONSET_AGENT],
    agent_notes=["an agent note"],
    host_engines=[{"kind": "DaemonSet", "metadata": {"name": "a host engine"}}],
    template_tags={"gpu": {"k8s.io/cluster-autoscaler/node-template/label/gpu": "true"}},
    service_accounts=[{"kind": "ServiceAccount", "metadata": {"name": "vllm", "namespace": "vllm"}}],
    release_namespaces=["gpu-operator"],
)
EVIDENCE = Evidence(
    placement=PLACEMENT,
    model_fits=["the model fits"],  # type: ignore[list-item]
    cold_starts=["the cold starts"],  # type: ignore[list-item]
    workload_cold_starts={"vllm/server": "its cold start"},  # type: ignore[dict-item]
    cost=CostTotals(budget=100.0, at_desired=50.0, at_max=80.0, not_priced=["a volume"], currency="CNY"),
    owners=Owners(resources=[{"type": "aws:eks/cluster:Cluster"}], objects=["an object"]),  # type: ignore[list-item]
    serving=Serving(weights={"vllm/server": 16e9}, caches=["a cache"], nodes=["a node"]),  # type: ignore[list-item]
    drivers=["the pools' AMIs"],  # type: ignore[list-item]
    queues=["the queued servers"],  # type: ignore[list-item]
    served=["the served models"],  # type: ignore[list-item]
)

# (slug, module, check, whether it returns warnings beside the verdict, the arguments it must be given)
WIRING = [
    ("gpu-workloads-land-on-gpu-pools", guard, "gpu_workloads_land_on_gpu_pools", False, (PLACEMENT.guard,)),
    ("plain-pods-stay-off-gpu-pools", guard, "plain_pods_stay_off_gpu_pools", False, (PLACEMENT.guard,)),
    ("device-plugin-covers-gpu-pools", guard, "device_plugin_covers_gpu_pools", False, (PLACEMENT.guard,)),
    ("system-addons-have-a-pool", guard, "system_addons_have_a_pool", False, (PLACEMENT.guard,)),
    ("gpu-requests-fit-one-node", guard, "gpu_requests_fit_one_node", False, (PLACEMENT.guard,)),
    (
        "node-agents-cover-their-pools",
        agents,
        "node_agents_verdict",
        False,
        (PLACEMENT.agents, PLACEMENT.pools, PLACEMENT.agent_notes),
    ),
    ("gpu-capacity-fits-replicas", capacity, "gpu_capacity", True, (PLACEMENT.workloads, PLACEMENT.pools)),
    (
        "gpu-pools-scale-from-zero",
        scale_from_zero,
        "scale_from_zero_verdict",
        False,
        (PLACEMENT.workloads, PLACEMENT.pools, PLACEMENT.template_tags, PLACEMENT.matrix),
    ),
    (
        "cpu-workloads-stay-off-gpu-pools",
        scale_from_zero,
        "cpu_workloads_verdict",
        False,
        (PLACEMENT.workloads, PLACEMENT.pools, PLACEMENT.matrix),
    ),
    (
        "provisioners-place-pods-alike",
        provisioners,
        "provisioners_verdict",
        False,
        (PLACEMENT.workloads, PLACEMENT.specs, PLACEMENT.resources),
    ),
    (
        "replicas-fit-at-max",
        scaling,
        "replicas_fit_verdict",
        False,
        (PLACEMENT.scaled, PLACEMENT.workloads, PLACEMENT.pools, True),
    ),
    (
        "scaling-outlasts-startup",
        scaling,
        "scaling_outlasts_startup_verdict",
        False,
        (PLACEMENT.scaled, 900, EVIDENCE.workload_cold_starts),
    ),
    ("cold-start-fits-its-budget", cold_start, "cold_start_verdict", True, (EVIDENCE.cold_starts,)),
    ("cost-within-budget", budget, "budget_verdict", True, (100.0, 50.0, 80.0, ["a volume"], "CNY")),
    (
        "service-accounts-exist",
        service_accounts,
        "service_accounts_verdict",
        False,
        (PLACEMENT.workloads, PLACEMENT.service_accounts, PLACEMENT.release_namespaces),
    ),
    (
        "one-owner-per-attribute",
        ownership,
        "ownership_verdict",
        False,
        ([{"type": "aws:eks/cluster:Cluster"}], ["an object"]),
    ),
    (
        "container-memory-fits",
        memory_fit,
        "container_memory_verdict",
        False,
        # Of the node agents only the DaemonSets run beside the servers on every node.
        (PLACEMENT.workloads, PLACEMENT.pools, {"vllm/server": 16e9}, [DAEMONSET_AGENT.workload]),
    ),
    ("weights-fit-on-disk", disk_fit, "disk_verdict", False, (["a cache"], ["a node"])),
    ("gpu-driver-knows-the-gpu", driver_fit, "driver_verdict", True, (EVIDENCE.drivers,)),
    ("queue-requests-finish", queue, "finish_verdict", False, (EVIDENCE.queues,)),
    ("queue-retention-outlasts-cold-start", queue, "retention_verdict", True, (EVIDENCE.queues,)),
    ("queue-failures-reach-dead-letter", queue, "dead_letter_verdict", False, (EVIDENCE.queues,)),
    ("node-replacement-keeps-models-serving", disruption, "node_replacement_verdict", False, (EVIDENCE.served,)),
]


def _stand_in(slug: str, with_warnings: bool, calls: list):
    def check(*args, **keywords):
        calls.append((args, keywords))
        verdict = Verdict(slug, False, f"{slug} judged")
        return (verdict, ["a warning"]) if with_warnings else verdict

    return check


@pytest.mark.parametrize(("slug", "module", "check", "with_warnings", "expected"), WIRING, ids=[w[0] for w in WIRING])
def test_each_judge_hands_its_check_the_evidence_it_reads(monkeypatch, slug, module, check, with_warnings, expected):
    calls: list = []
    monkeypatch.setattr(module, check, _stand_in(slug, with_warnings, calls))

    judged = VERDICTS.entry(slug).run(EVIDENCE)

    assert calls == [(expected, {})]
    assert judged is not None
    assert (judged.verdict.name, judged.verdict.passed, judged.verdict.message) == (slug, False, f"{slug} judged")
    number = VERDICTS.id_of(slug)
    assert judged.warnings == ([f"verdict {number} {slug}: a warning"] if with_warnings else [])


def test_the_dcgm_exporter_judge_hands_its_check_the_host_engines(monkeypatch):
    calls: list = []
    monkeypatch.setattr(
        exporter, "dcgm_exporter_covers_gpu_pools", _stand_in("dcgm-exporter-covers-gpu-pools", False, calls)
    )

    VERDICTS.entry("dcgm-exporter-covers-gpu-pools").run(EVIDENCE)

    assert calls == [((PLACEMENT.workloads, PLACEMENT.pools), {"host_engines": PLACEMENT.host_engines})]


def test_the_model_fits_judge_warns_of_each_model_not_checked(monkeypatch):
    verdicts: list = []
    warned: list = []
    monkeypatch.setattr(model_fit, "model_fits_verdict", _stand_in("model-fits-gpu", False, verdicts))
    monkeypatch.setattr(model_fit, "not_checked_warnings", lambda fits: warned.append(fits) or ["not checked: x"])

    judged = VERDICTS.entry("model-fits-gpu").run(EVIDENCE)

    assert verdicts == [((EVIDENCE.model_fits,), {})]
    assert warned == [EVIDENCE.model_fits]
    assert judged is not None
    assert judged.warnings == [f"verdict {VERDICTS.id_of('model-fits-gpu')} model-fits-gpu: not checked: x"]


def test_without_a_cluster_autoscaler_nothing_grows_a_node_group_and_no_hold_is_read(monkeypatch):
    calls: list = []
    monkeypatch.setattr(scaling, "replicas_fit_verdict", _stand_in("replicas-fit-at-max", False, calls))
    monkeypatch.setattr(
        scaling, "scaling_outlasts_startup_verdict", _stand_in("scaling-outlasts-startup", False, calls)
    )
    placed = Placement(workloads=[], pools=PLACEMENT.pools, matrix=[])
    evidence = Evidence(placement=placed, workload_cold_starts={})

    VERDICTS.entry("replicas-fit-at-max").run(evidence)
    VERDICTS.entry("scaling-outlasts-startup").run(evidence)

    assert calls == [(([], [], placed.pools, False), {}), (([], None, {}), {})]


def test_container_memory_without_the_serving_evidence_reads_no_weights(monkeypatch):
    calls: list = []
    monkeypatch.setattr(memory_fit, "container_memory_verdict", _stand_in("container-memory-fits", False, calls))

    VERDICTS.entry("container-memory-fits").run(Evidence(placement=PLACEMENT))

    assert calls == [((PLACEMENT.workloads, PLACEMENT.pools, {}, [DAEMONSET_AGENT.workload]), {})]


def test_the_guard_places_what_it_is_given_with_the_host_engines(monkeypatch):
    """gpu_guard judges the guard's verdicts on the workloads, pools and host engines it is given (as lists)."""
    calls: list = []
    monkeypatch.setattr(
        exporter, "dcgm_exporter_covers_gpu_pools", _stand_in("dcgm-exporter-covers-gpu-pools", False, calls)
    )
    engine = {"kind": "DaemonSet", "metadata": {"name": "dcgm-server"}}

    verdicts = gpu_guard(iter([AUTOSCALER]), iter(PLACEMENT.pools), iter([engine]))

    assert calls == [(([AUTOSCALER], PLACEMENT.pools), {"host_engines": [engine]})]
    assert [verdict.name for verdict in verdicts] == [
        "gpu-workloads-land-on-gpu-pools",
        "plain-pods-stay-off-gpu-pools",
        "device-plugin-covers-gpu-pools",
        "system-addons-have-a-pool",
        "gpu-requests-fit-one-node",
        "dcgm-exporter-covers-gpu-pools",
    ]
    assert [verdict.id for verdict in verdicts] == [VERDICTS.id_of(verdict.name) for verdict in verdicts]


def _judged(details: list[str], warnings: list[str]):
    return lambda _: Judgement(Verdict("cost-within-budget", True, "m", list(details)), list(warnings))


def test_a_registry_numbers_its_own_entries_by_slug():
    """A registry built here, not the module's: its numbers come from its own entries."""
    registry = Registry(
        (
            RegisteredVerdict(1, "first-check", _judged([], []), "First."),
            RegisteredVerdict(2, "second-check", _judged([], []), "Second."),
        )
    )

    assert (registry.id_of("first-check"), registry.id_of("second-check")) == (1, 2)
    assert registry.entry("second-check").proves == "Second."
    with pytest.raises(
        ValueError, match="^verdict 'third-check' is not registered; allowed: first-check, second-check$"
    ):
        registry.id_of("third-check")


def test_the_run_labels_only_the_details_that_are_warnings():
    entry = RegisteredVerdict(16, "cost-within-budget", _judged(["priced 3 pools", "over"], ["over"]), "Proves.")

    judged = entry.run(Evidence())

    assert judged is not None
    assert judged.verdict.details == ["priced 3 pools", "verdict 16 cost-within-budget: over"]
    assert judged.warnings == ["verdict 16 cost-within-budget: over"]
