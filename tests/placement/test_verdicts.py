"""The registry of the plan's verdicts (components/placement/verdicts.py): each verdict once, numbered from 1 in
order, each function judging the verdict of its own slug; and no other file of the package spells a verdict's
number, so renumbering or adding one is an edit of the registry alone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from components.placement import NodeGroupSpec, pools_for_node_groups
from components.placement.evidence import CostTotals, Evidence, Owners, Placement, Serving
from components.placement.verdict import Verdict
from components.placement.verdicts import VERDICTS

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "components"
REGISTRY = PACKAGE / "placement" / "verdicts.py"

# The verdicts as the plan's report has numbered them (`PASS  1 gpu-workloads-land-on-gpu-pools`), each number
# given when the verdict was added and never reused: the README, the JSON documents users keep and the comparison
# of two plans (stackcheck/plan/compare.py, which pairs verdicts by number) rely on them.
REPORTED = [
    "gpu-workloads-land-on-gpu-pools",
    "plain-pods-stay-off-gpu-pools",
    "device-plugin-covers-gpu-pools",
    "system-addons-have-a-pool",
    "gpu-requests-fit-one-node",
    "node-agents-cover-their-pools",
    "gpu-capacity-fits-replicas",
    "gpu-pools-scale-from-zero",
    "cpu-workloads-stay-off-gpu-pools",
    "dcgm-exporter-covers-gpu-pools",
    "model-fits-gpu",
    "provisioners-place-pods-alike",
    "replicas-fit-at-max",
    "scaling-outlasts-startup",
    "cold-start-fits-its-budget",
    "cost-within-budget",
    "service-accounts-exist",
    "one-owner-per-attribute",
    "container-memory-fits",
    "weights-fit-on-disk",
    "gpu-driver-knows-the-gpu",
    "queue-requests-finish",
    "queue-retention-outlasts-cold-start",
    "queue-failures-reach-dead-letter",
    "node-replacement-keeps-models-serving",
]

# A stack with one untainted system node and no workload: every part of the evidence gathered, so every verdict
# is judged, and none has anything to fail on.
EMPTY_STACK = Evidence(
    placement=Placement(
        workloads=[], pools=pools_for_node_groups([NodeGroupSpec("system", "m5.large", 1, {}, [])]), matrix=[]
    ),
    model_fits=[],
    cold_starts=[],
    cost=CostTotals(budget=None, at_desired=0.0, at_max=0.0),
    owners=Owners(resources=[], objects=[]),
    serving=Serving(),
    drivers=[],
    queues=[],
    served=[],
)


def test_the_registry_numbers_each_verdict_from_1_in_order_as_the_report_always_has():
    assert [entry.id for entry in VERDICTS] == list(range(1, len(REPORTED) + 1))
    assert [entry.slug for entry in VERDICTS] == REPORTED


def test_each_slug_is_registered_once_in_kebab_case_with_a_sentence_of_what_it_proves():
    slugs = [entry.slug for entry in VERDICTS]
    assert len(set(slugs)) == len(slugs)
    for entry in VERDICTS:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", entry.slug), entry.slug
        assert entry.proves[:1].isupper() and entry.proves.endswith("."), entry.slug
        assert "\n" not in entry.proves, entry.slug


def test_each_function_judges_the_verdict_of_its_own_slug_and_number():
    assert len(VERDICTS) == len(REPORTED)
    for entry in VERDICTS:
        assert callable(entry.judge), entry.slug
        judged = entry.run(EMPTY_STACK)
        assert judged is not None, entry.slug
        assert (judged.verdict.id, judged.verdict.name) == (entry.id, entry.slug)
        assert judged.verdict.passed, (entry.slug, judged.verdict.message)


def test_a_verdict_whose_evidence_was_not_gathered_is_not_judged():
    assert [entry.slug for entry in VERDICTS if entry.judge(Evidence()) is not None] == []


def test_the_registry_numbers_what_it_judges_and_labels_its_warnings():
    """A verdict's function knows its slug only; the registry's run gives it its number, and each warning (in the
    plan's warnings and among the verdict's details) after the number and slug."""
    over = Evidence(cost=CostTotals(budget=100.0, at_desired=120.0, at_max=150.0))
    judged = VERDICTS.entry("cost-within-budget").run(over)
    assert judged is not None
    assert (judged.verdict.id, judged.verdict.name, judged.verdict.passed) == (16, "cost-within-budget", False)
    warning = (
        "verdict 16 cost-within-budget: $120.00 a month at desiredSize is over the budget of $100.00 "
        "(cost.maxMonthlyUsd)"
    )
    assert judged.warnings == [warning]
    assert judged.verdict.details[1:] == [warning]


def test_an_unregistered_slug_is_refused_naming_the_registered_ones():
    with pytest.raises(ValueError) as raised:
        VERDICTS.id_of("cost-under-budget")
    assert str(raised.value).startswith(
        "verdict 'cost-under-budget' is not registered; allowed: gpu-workloads-land-on-gpu-pools, "
        "plain-pods-stay-off-gpu-pools, "
    )
    assert str(raised.value).endswith(
        ", gpu-driver-knows-the-gpu, queue-requests-finish, queue-retention-outlasts-cold-start, "
        "queue-failures-reach-dead-letter, node-replacement-keeps-models-serving"
    )


def test_a_judge_that_returns_another_verdict_is_refused():
    from components.placement.verdicts import Judgement, RegisteredVerdict

    wrong = RegisteredVerdict(16, "cost-within-budget", lambda _: Judgement(Verdict("model-fits-gpu", True, "")), "")
    with pytest.raises(ValueError, match="the judge of 'cost-within-budget' returned the verdict 'model-fits-gpu'"):
        wrong.run(Evidence())


# How a verdict's number gets spelled: "verdict 7", "Verdicts 13 and 14", a number broken from its word across
# lines or string literals, `Verdict(11, ...)`, `VERDICT_ID = 7`, `verdict.id == 15`, and a number beside a slug (`13
# \`replicas-fit-at-max\``, `= 13, "replicas-fit-at-max"`).
_SLUG = "|".join(re.escape(slug) for slug in REPORTED)
NUMBER_SPELLINGS = (
    re.compile(r"\b[Vv]erdicts?[\s\"'#]*\d+"),
    re.compile(r"\bVerdict\(\s*\d+"),
    re.compile(r"\b\w*VERDICT\w*\s*=\s*\d+"),
    re.compile(rf"\b\d+[\s,:\"'`(=]{{1,4}}(?:{_SLUG})\b"),
    re.compile(rf"\b(?:{_SLUG})[`\"']?[\s,:)=(]{{1,4}}\d+"),
    re.compile(r"\bverdict\w*\.id\s*[=!<>]=?\s*\d+"),
)


def spelled_numbers(text: str) -> list[tuple[int, str]]:
    """(line, text) of each place `text` spells a verdict's number."""
    found = {
        (text.count("\n", 0, match.start()) + 1, match.group(0))
        for pattern in NUMBER_SPELLINGS
        for match in pattern.finditer(text)
    }
    return sorted(found)


def test_the_scan_finds_each_way_a_verdict_number_was_spelled():
    samples = {
        "See verdict 1 first.": [(1, "verdict 1")],
        '"""Verdicts 13 and 14: replica autoscaling."""': [(1, "Verdicts 13")],
        "The guard's verdict\n6 holds": [(1, "verdict\n6")],
        '"the plan\'s verdict "\n    "10 fails"': [(1, 'verdict "\n    "10')],
        "return Verdict(11, NAME, True, message)": [(1, "Verdict(11")],
        "VERDICT_ID = 7": [(1, "VERDICT_ID = 7")],
        'FIT_ID, FIT_NAME = 13, "replicas-fit-at-max"': [(1, '13, "replicas-fit-at-max')],
        "- 13 `replicas-fit-at-max`: the count": [(1, "13 `replicas-fit-at-max")],
        "`model-fits-gpu` (11) sizes it": [(1, "model-fits-gpu` (11")],
        "any(verdict.id == 15 for verdict in verdicts)": [(1, "verdict.id == 15")],
    }
    for text, expected in samples.items():
        assert spelled_numbers(text) == expected, text
    clean = (
        'f"verdict {verdict.id} {verdict.name}: {message}"\n'
        "see `gpu-workloads-land-on-gpu-pools`; VLLM_USER_ID = 2000; 4 GPUs per node\n"
        "the plan's verdict `replicas-fit-at-max` checks the 2 replicas"
    )
    assert spelled_numbers(clean) == []


def test_no_file_of_the_package_but_the_registry_spells_a_verdict_number():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {spelled!r}"
        for path in sorted(PACKAGE.rglob("*"))
        if path.is_file() and path != REGISTRY and path.suffix in (".py", ".md", ".yaml", ".json")
        for line, spelled in spelled_numbers(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "name the verdict by its slug (components/placement/verdicts.py has its number):\n" + (
        "\n".join(found)
    )
