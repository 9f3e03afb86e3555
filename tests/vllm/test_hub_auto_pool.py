"""`pool: auto` for a model only the Hub describes: the program reads the model from a stand-in for the Hub
(tests/support/hub_stand_in.py) before the settings resolve `auto`, which then ranks the pools by the same rules as
for a catalog model; a Hub out of reach, or the offline plan, leaves `auto` nothing to choose by: a problem naming
the key, the model and the way out.

The stand-in's model weighs as gpt-oss-120b (tests/vllm/test_hub_facts.py works its bytes: 65,248,815,744 =
60.77 GiB, all of it on one GPU at tensor parallel size 1). The fits gate (facts/model_memory.py) leaves usable
0.9 x the memory CUDA reports: an L40S 44.99 GiB -> 40.49, which 60.77 + the 2.0 GiB reserve overflows; an H100
79.65 GiB -> 71.68, which holds it. So `auto` over an L40S pool and an H100 pool chooses the H100s, the only pool
that fits.
"""

from __future__ import annotations

import socket

import pytest
from conftest import PROGRAM, dev_stack_config, merge

from components.args.coerce import StackConfigError
from components.facts.identity import PROJECT
from components.settings import ConfigError, parse_stack_config
from components.settings.hub_models import auto_models_to_read
from components.stackcheck.runtime import ProgramRun, run_program
from components.vllm.hub_facts import auto_pool_reads, preview_fits
from tests.support.hub_stand_in import COMMIT, MOE_MODEL, Repo, gpt_oss_like_files, stand_in_hub

L40S = {"instanceTypes": ["g6e.xlarge"]}
H100 = {"instanceTypes": ["p5.4xlarge"]}


def _fleet(pools: dict, *models: dict) -> dict:
    """The dev stack in the fleet form, every key under the project's namespace."""
    values = merge(dev_stack_config(), {"gpuNodeGroup": None, "vllm": None, "gpuPools": pools, "models": list(models)})
    return {f"{PROJECT}:{key}": value for key, value in values.items()}


MOE = {"name": "moe", "model": MOE_MODEL, "revision": COMMIT}


@pytest.fixture
def hub(monkeypatch):
    with stand_in_hub({MOE_MODEL: Repo(gpt_oss_like_files())}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        yield hub


def test_auto_places_a_model_only_the_hub_describes_on_the_pool_whose_gpus_hold_it(hub):
    config = _fleet({"l40s": L40S, "h100": H100}, MOE)

    reads = auto_pool_reads(config)
    [server] = parse_stack_config(config, hub_reads=reads).servers

    assert server.pool.key == "h100"
    assert server.pool_reason == (
        "pool auto: h100, the least GPU memory that fits (71.7 GiB usable per GPU), the only pool that fits"
    )


def test_the_fits_gate_at_preview_reuses_the_read_auto_made(hub):
    config = _fleet({"l40s": L40S, "h100": H100}, MOE)
    reads = auto_pool_reads(config)
    asked = len(hub.requests)

    check = preview_fits(parse_stack_config(config, hub_reads=reads).servers, None, reads)

    assert len(hub.requests) == asked
    [note] = check.notes
    assert note.startswith(f"model-fits-gpu: {MOE_MODEL} on p5.4xlarge (TP 1): weights 60.8 GiB + reserve 2.0 GiB")


def test_only_auto_models_outside_the_catalog_and_modelfacts_are_read_before_the_settings(hub):
    named = {**MOE, "name": "named", "pool": "h100"}
    disabled = {**MOE, "name": "off", "enabled": False}
    catalog = {"name": "qwen", "model": "Qwen/Qwen2.5-1.5B-Instruct"}
    config = _fleet({"l40s": L40S, "h100": H100}, named, disabled, catalog, MOE)

    reads = auto_pool_reads(config)

    assert list(reads) == [(MOE_MODEL, COMMIT)]
    assert reads[MOE_MODEL, COMMIT].facts is not None


def test_each_model_and_revision_auto_must_size_is_read_once():
    """Two models of one repo share a read at the same revision (none: the default branch), not across revisions."""
    models = [
        {"name": "a", "model": "acme/x"},
        {"name": "b", "model": "acme/x", "pool": "auto"},
        {"name": "c", "model": "acme/x", "revision": "v1.0"},
        {"name": "d", "model": "acme/y", "modelFacts": {}},
    ]

    assert auto_models_to_read({"models": models}) == [("acme/x", None), ("acme/x", "v1.0")]


def test_the_program_refuses_auto_when_no_pool_holds_the_hubs_model_before_registering():
    run = ProgramRun()
    with stand_in_hub({MOE_MODEL: Repo(gpt_oss_like_files())}) as hub, pytest.raises(StackConfigError) as raised:
        run_program(PROGRAM, _fleet({"l40s": L40S}, MOE), project=PROJECT, stack="test", run=run, hub_endpoint=hub.url)

    [problem] = raised.value.problems
    assert str(problem).startswith(
        f"{PROJECT}:models.0.pool: 'auto' finds no pool for {MOE_MODEL}: no pool fits: {MOE_MODEL} on g6e.xlarge"
    )
    assert "weights 60.8 GiB + reserve 2.0 GiB per GPU > 40.5 GiB usable per L40S" in str(problem)
    assert run.resources == []


def test_auto_with_the_hub_out_of_reach_names_the_key_the_model_and_the_way_out(monkeypatch):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    config = _fleet({"l40s": L40S, "h100": H100}, MOE)

    with pytest.raises(ConfigError) as raised:
        parse_stack_config(config, hub_reads=auto_pool_reads(config))

    [problem] = raised.value.problems
    assert str(problem).startswith(
        f"{PROJECT}:models.0.pool: 'auto' cannot choose a pool for {MOE_MODEL}: neither the model catalog nor "
        f"modelFacts describes it, and the Hub did not answer: {MOE_MODEL} at revision {COMMIT} not read from "
        f"http://127.0.0.1:{port}"
    )
    assert str(problem).endswith("allowed: pool set to one of l40s, h100, or models.0.modelFacts with its facts")


def test_offline_auto_is_a_problem_saying_the_facts_come_from_the_hub_only_at_preview(monkeypatch):
    """The offline plan reads nothing: the program under HF_HUB_OFFLINE, and the plan's own parse without reads."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    config = _fleet({"l40s": L40S, "h100": H100}, MOE)
    messages = []
    for reads in (auto_pool_reads(config), None):
        with pytest.raises(ConfigError) as raised:
            parse_stack_config(config, hub_reads=reads)
        messages.append([str(problem) for problem in raised.value.problems])

    assert (
        messages[0]
        == messages[1]
        == [
            f"{PROJECT}:models.0.pool: 'auto' cannot choose a pool for {MOE_MODEL}: neither the model catalog nor "
            "modelFacts describes it, and its facts come from the Hugging Face Hub only at pulumi preview and up (the "
            "offline plan reads nothing); allowed: pool set to one of l40s, h100 (the plan then names the model not "
            "checked, and preview checks it), or models.0.modelFacts with its facts"
        ]
    )
