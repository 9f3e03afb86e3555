"""Which models `pool: auto` reads from the Hub before the settings parse, and what the settings make of the reads
(components/settings/hub_models.py), each rule on its own, without a Hub: the raw config in, the models and
revisions out; the reads' facts found by model and revision; the whole problem when no facts came.

The rules, from hub_models.py's docstrings and the config keys (docs/reference): a model is read when its entry is
a mapping, enabled (`enabled` unset or true), `pool` `auto` or unset, without `modelFacts` (or the field name
`model_facts`), its `model` a string the catalog (facts/model_catalog.py) does not hold, and its `revision` unset or
a string; each (model, revision) once, in the order first named.
"""

from __future__ import annotations

import pytest

from components.facts import model_catalog
from components.facts.model_config import HubRead
from components.settings.hub_models import auto_models_to_read, auto_without_facts, described, hub_facts
from components.settings.vllm import VllmSettings

CATALOG_MODEL = "Qwen/Qwen2.5-1.5B-Instruct"
FACTS = {"parameters": 1000, "layers": 2, "attentionHeads": 8, "kvHeads": 4, "headDim": 64, "maxContext": 4096}
# Any facts will do as what the Hub answered: the settings pass them on unchanged.
HUB_FACTS = model_catalog.lookup(CATALOG_MODEL)


def test_the_catalog_model_of_these_tests_is_in_the_catalog():
    assert HUB_FACTS is not None


READS = [
    pytest.param({}, [], id="no-models-key"),
    pytest.param({"models": None}, [], id="models-null"),
    pytest.param({"models": "acme/x"}, [], id="models-a-string"),
    pytest.param({"models": {"model": "acme/x"}}, [], id="models-a-mapping"),
    pytest.param({"models": ["acme/x", {"model": "acme/y"}]}, [("acme/y", None)], id="a-string-entry-is-passed-over"),
    pytest.param({"models": [{"model": "acme/x"}]}, [("acme/x", None)], id="pool-unset-is-auto"),
    pytest.param({"models": [{"model": "acme/x", "pool": "auto"}]}, [("acme/x", None)], id="pool-auto"),
    pytest.param({"models": [{"model": "acme/x", "pool": "h100"}]}, [], id="a-named-pool-is-not-read"),
    pytest.param({"models": [{"model": "acme/x", "pool": None}]}, [], id="pool-null-left-to-the-settings"),
    pytest.param({"models": [{"model": "acme/x", "enabled": False}]}, [], id="disabled"),
    pytest.param({"models": [{"model": "acme/x", "enabled": True}]}, [("acme/x", None)], id="enabled"),
    pytest.param({"models": [{"model": "acme/x", "enabled": None}]}, [("acme/x", None)], id="enabled-null-not-false"),
    pytest.param({"models": [{"model": "acme/x", "modelFacts": FACTS}]}, [], id="modelFacts"),
    pytest.param({"models": [{"model": "acme/x", "model_facts": FACTS}]}, [], id="model_facts-field-name"),
    pytest.param({"models": [{"model": "acme/x", "modelFacts": None}]}, [], id="modelFacts-null-still-given"),
    pytest.param({"models": [{"model": 7}]}, [], id="model-not-a-string"),
    pytest.param({"models": [{"name": "a"}]}, [], id="model-unset"),
    pytest.param({"models": [{"model": "acme/x", "revision": 3}]}, [], id="revision-not-a-string"),
    pytest.param({"models": [{"model": "acme/x", "revision": "v1"}]}, [("acme/x", "v1")], id="revision"),
    pytest.param({"models": [{"model": CATALOG_MODEL}]}, [], id="catalog-model"),
    pytest.param(
        {"models": [{"model": CATALOG_MODEL}, {"model": "acme/x"}, {"model": "acme/x", "pool": "h100"}]},
        [("acme/x", None)],
        id="a-skipped-entry-does-not-stop-the-rest",
    ),
    pytest.param(
        {
            "models": [
                {"model": "acme/y"},
                {"model": "acme/x"},
                {"model": "acme/y"},
                {"model": "acme/y", "revision": "a"},
            ]
        },
        [("acme/y", None), ("acme/x", None), ("acme/y", "a")],
        id="each-once-in-first-order",
    ),
]


@pytest.mark.parametrize(("values", "expected"), READS)
def test_auto_models_to_read(values, expected):
    assert auto_models_to_read(values) == expected


def test_a_model_is_described_by_its_modelfacts_or_the_catalog_only():
    assert described(VllmSettings.model_validate({"model": "acme/x", "maxModelLen": 4096, "modelFacts": FACTS}))
    assert described(VllmSettings(model=CATALOG_MODEL))
    assert not described(VllmSettings(model="acme/x"))


def test_the_hubs_facts_are_found_by_model_and_revision():
    reads = {("acme/x", "v1"): HubRead(HUB_FACTS), ("acme/y", None): HubRead(None, "refused")}

    assert hub_facts(VllmSettings(model="acme/x", revision="v1"), reads) is HUB_FACTS
    assert hub_facts(VllmSettings(model="acme/x"), reads) is None
    assert hub_facts(VllmSettings(model="acme/y"), reads) is None
    assert hub_facts(VllmSettings(model="acme/x", revision="v1"), None) is None


OFFLINE = (
    "'auto' cannot choose a pool for acme/x: neither the model catalog nor modelFacts describes it, and its facts "
    "come from the Hugging Face Hub only at pulumi preview and up (the offline plan reads nothing); allowed: pool set "
    "to one of l40s, h100 (the plan then names the model not checked, and preview checks it), or "
    "models.1.modelFacts with its facts"
)


@pytest.mark.parametrize(
    "reads",
    [
        pytest.param(None, id="nothing-read"),
        pytest.param({}, id="not-among-the-reads"),
        pytest.param({("acme/x", "v1"): HubRead(HUB_FACTS)}, id="read-at-another-revision"),
        pytest.param({("acme/x", None): HubRead(None, offline=True)}, id="read-offline"),
    ],
)
def test_auto_without_facts_offline_names_the_pools_and_the_modelfacts_key(reads):
    problem = auto_without_facts("models.1", VllmSettings(model="acme/x"), reads, ["l40s", "h100"])

    assert (problem.key, problem.message) == ("models.1.pool", OFFLINE)


def test_auto_without_facts_when_the_hub_did_not_answer_gives_its_reason():
    reads = {("acme/x", "v1"): HubRead(None, "acme/x at revision v1 not read: 404")}

    problem = auto_without_facts("models.0", VllmSettings(model="acme/x", revision="v1"), reads, ["gpu"])

    assert (problem.key, problem.message) == (
        "models.0.pool",
        "'auto' cannot choose a pool for acme/x: neither the model catalog nor modelFacts describes it, and the Hub "
        "did not answer: acme/x at revision v1 not read: 404; allowed: pool set to one of gpu, or models.0.modelFacts "
        "with its facts",
    )
