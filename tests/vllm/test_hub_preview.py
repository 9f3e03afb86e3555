"""The fits gate at `pulumi preview` for a model only the Hub describes: the program reads it from a stand-in for
the Hub (tests/support/hub_stand_in.py) and refuses a pool whose GPUs cannot hold it, before anything registers;
a Hub out of reach is a warning naming the model; offline, nothing is asked.

The stand-in's model is gpt-oss-120b as its files describe it (tests/vllm/test_hub_facts.py works its bytes:
65,248,815,744 = 60.77 GiB): one L40S (40.49 GiB usable) cannot hold it, one H100 (71.68 GiB usable) can.
"""

from __future__ import annotations

import json
import socket

import pytest
from conftest import PROGRAM, dev_stack_config, merge

from components.args.coerce import StackConfigError
from components.facts.identity import PROJECT
from components.settings import parse_stack_config
from components.stackcheck.runtime import ProgramRun, run_program
from components.vllm.hub_facts import INDEX_FILE, preview_fits
from tests.support.hub_stand_in import COMMIT, Repo, safetensors_header, stand_in_hub

MODEL = "example/moe-120b"


def _files() -> dict[str, bytes]:
    """A checkpoint of gpt-oss-120b's shape and bytes in one shard: the same dtype totals as its 36 layers, the
    uint8 experts 60,914,073,600 elements and 2,167,371,072 bf16 (tests/vllm/test_hub_facts.py)."""
    config = {
        "num_hidden_layers": 36,
        "num_attention_heads": 64,
        "num_key_value_heads": 8,
        "head_dim": 64,
        "num_local_experts": 128,
        "num_experts_per_tok": 4,
        "sliding_window": 128,
        "layer_types": ["sliding_attention", "full_attention"] * 18,
        "max_position_embeddings": 131072,
        "quantization_config": {"quant_method": "mxfp4"},
        "torch_dtype": "bfloat16",
    }
    tensors = {"experts": ("U8", [60_914_073_600]), "rest": ("BF16", [2_167_371_072])}
    index = {"weight_map": {"experts": "model-1.safetensors", "rest": "model-1.safetensors"}}
    return {
        "config.json": json.dumps(config).encode(),
        INDEX_FILE: json.dumps(index).encode(),
        "model-1.safetensors": safetensors_header(tensors),
    }


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
    with stand_in_hub({MODEL: Repo(_files())}) as hub:
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
    with stand_in_hub({MODEL: Repo(_files())}) as hub:
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
    with stand_in_hub({MODEL: Repo(_files())}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        catalog = preview_fits(_servers("g6e.xlarge", "openai/gpt-oss-120b"), None)
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        offline = preview_fits(_servers("g6e.xlarge"), None)

    assert hub.requests == []
    assert catalog == type(catalog)([], [], [])
    assert offline.notes == [f"model-fits-gpu: {MODEL} not read from the Hub (HF_HUB_OFFLINE is set): not checked"]
