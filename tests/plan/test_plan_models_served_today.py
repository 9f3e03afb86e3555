"""The plan's fits gate (`model-fits-gpu`) on the models teams serve now: gpt-oss's MXFP4 experts and sliding-window
layers, from the dev stack config with the model and instance type swapped.

Figures worked in tests/placement/test_model_fit_layouts.py's docstrings from openai/gpt-oss-120b's and -20b's
`config.json` and vLLM v0.32.0's source: gpt-oss-120b's weights are 65,250,502,400 bytes = 60.77 GiB, gpt-oss-20b's
13,751,750,400 bytes = 12.81 GiB.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from components.facts.identity import PROJECT
from components.stackcheck.__main__ import main
from tests.conftest import dev_stack_config, merge

ROOT = Path(__file__).resolve().parents[2]


def plan(capsys, tmp_path, model: str, instance_type: str, max_model_len: int) -> dict:
    overrides = {
        "gpuNodeGroup": {"instanceTypes": [instance_type]},
        "vllm": {"model": model, "maxModelLen": max_model_len},
    }
    stack_file = tmp_path / "Pulumi.models.yaml"
    config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), overrides).items()}
    stack_file.write_text(yaml.safe_dump({"config": {"aws:region": "us-west-2", **config}}))
    args = ["plan", "--project-dir", str(ROOT), "--out", str(tmp_path / "out"), "--format", "json"]
    main([*args, "--stack-file", str(stack_file)])
    return json.loads(capsys.readouterr().out)


def model_verdict(document: dict) -> dict:
    [verdict] = [verdict for verdict in document["verdicts"] if verdict["name"] == "model-fits-gpu"]
    return verdict


def test_gpt_oss_120b_on_one_l40s_fails_the_gate_with_its_numbers(capsys, tmp_path):
    document = plan(capsys, tmp_path, "openai/gpt-oss-120b", "g6e.xlarge", 131072)

    [model] = document["models"]
    # 60.77 GiB of weights + 2 GiB reserve > 46068 MiB x 0.9 = 40.49 GiB.
    assert (model["fits"], model["weightsGiBPerGpu"], model["usableGiBPerGpu"]) == (False, 60.77, 40.49)
    assert not model_verdict(document)["passed"]
    assert any(
        "model-fits-gpu: openai/gpt-oss-120b on g6e.xlarge (TP 1): weights 60.8 GiB + reserve 2.0 GiB per GPU > "
        "40.5 GiB usable per L40S" in failure
        for failure in document["failures"]
    )


def test_gpt_oss_120b_on_one_h100_passes_at_its_full_context(capsys, tmp_path):
    document = plan(capsys, tmp_path, "openai/gpt-oss-120b", "p5.4xlarge", 131072)

    [model] = document["models"]
    # 71.68 - 60.77 - 2 = 8.91 GiB holds one 131072-token sequence of 5.07 GiB.
    assert (model["fits"], model["kvGiBPerSequencePerGpu"], model["sequencesAtMaxModelLen"]) == (True, 5.0674, 1)
    assert (
        model["layout"]
        == "mxfp4 weights, 128 experts (4 per token), all resident, 18 of 36 layers in a 128-token window"
    )
    assert model_verdict(document)["passed"]


def test_gpt_oss_20b_on_one_l4_passes(capsys, tmp_path):
    document = plan(capsys, tmp_path, "openai/gpt-oss-20b", "g6.xlarge", 8192)

    [model] = document["models"]
    # 20.24 - 12.81 - 2 = 5.44 GiB; 0.2845 GiB per 8192-token sequence with the window layers: 19.
    assert (model["fits"], model["weightsGiBPerGpu"], model["sequencesAtMaxModelLen"]) == (True, 12.81, 19)
    assert model_verdict(document)["passed"]
