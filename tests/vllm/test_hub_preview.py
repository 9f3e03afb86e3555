"""The fits gate at `pulumi preview` for a model only the Hub describes: the program reads it from a stand-in for
the Hub (tests/support/hub_stand_in.py) and refuses a pool whose GPUs cannot hold it, before anything registers;
a Hub out of reach is a warning naming the model; offline, nothing is asked.

The stand-in's model is gpt-oss-120b as its files describe it (tests/vllm/test_hub_facts.py works its bytes:
65,248,815,744 = 60.77 GiB): one L40S (40.49 GiB usable) cannot hold it, one H100 (71.68 GiB usable) can.
"""

from __future__ import annotations

import socket

import pytest
from conftest import PROGRAM, dev_stack_config, merge

from components.args.coerce import StackConfigError
from components.facts.identity import PROJECT
from components.settings import parse_stack_config
from components.stackcheck.runtime import ProgramRun, run_program
from components.vllm.hub_facts import preview_fits
from tests.support.hub_stand_in import COMMIT, MOE_MODEL, Repo, gpt_oss_like_files, stand_in_hub

MODEL = MOE_MODEL


def _config(instance_type: str, model: str = MODEL) -> dict:
    return merge(
        dev_stack_config(),
        {"gpuNodeGroup": {"instanceTypes": [instance_type]}, "vllm": {"model": model, "revision": COMMIT}},
    )


def _servers(instance_type: str, model: str = MODEL):
    settings = parse_stack_config({f"{PROJECT}:{key}": value for key, value in _config(instance_type, model).items()})
    return settings.servers


def test_the_program_refuses_a_pool_whose_gpus_cannot_hold_the_hubs_model_before_registering():
    run = ProgramRun()
    with stand_in_hub({MODEL: Repo(gpt_oss_like_files())}) as hub:
        full = {f"{PROJECT}:{key}": value for key, value in _config("g6e.xlarge").items()}
        with pytest.raises(StackConfigError) as raised:
            run_program(PROGRAM, full, project=PROJECT, stack="test", run=run, hub_endpoint=hub.url)

    [problem] = raised.value.problems
    assert problem.key == "vllm.model"
    assert "weights 60.8 GiB + reserve 2.0 GiB per GPU > 40.5 GiB usable per L40S" in problem.message
    assert "counted as mxfp4 weights, 128 experts (4 per token), all resident" in problem.message
    assert f"facts from {hub.url}/{MODEL} at revision {COMMIT}" in problem.message
    # What the user can change, by the keys of the vllm section as they are written (settings/vllm.py).
    assert problem.message.endswith(
        "; allowed: a pool whose GPUs hold it, a larger tensorParallelSize, a shorter maxModelLen, or a smaller or "
        "quantized model"
    )
    assert run.resources == []


def test_a_model_the_hub_describes_that_fits_is_noted_with_how_it_was_counted(monkeypatch):
    with stand_in_hub({MODEL: Repo(gpt_oss_like_files())}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        check = preview_fits(_servers("p5.4xlarge"), None)

    assert check.problems == [] and check.warnings == []
    [note] = check.notes
    assert note.startswith(f"model-fits-gpu: {MODEL} on p5.4xlarge (TP 1): weights 60.8 GiB + reserve 2.0 GiB")


def test_a_hub_out_of_reach_is_a_warning_naming_the_model(monkeypatch):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)

    check = preview_fits(_servers("g6e.xlarge"), None)

    assert check.problems == []
    [warning] = check.warnings
    assert warning.startswith(f"model-fits-gpu: {MODEL} at revision {COMMIT} not read from http://127.0.0.1:{port}")
    assert warning.endswith("the fits gate does not check it (vllm.modelFacts would)")


def test_catalog_models_and_offline_runs_ask_the_hub_nothing(monkeypatch):
    with stand_in_hub({MODEL: Repo(gpt_oss_like_files())}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        catalog = preview_fits(_servers("g6e.xlarge", "openai/gpt-oss-120b"), None)
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        offline = preview_fits(_servers("g6e.xlarge"), None)

    assert hub.requests == []
    assert catalog == type(catalog)([], [], [])
    assert offline.notes == [f"model-fits-gpu: {MODEL} not read from the Hub (HF_HUB_OFFLINE is set): not checked"]
