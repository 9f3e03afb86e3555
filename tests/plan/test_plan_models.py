"""The plan's Models section and verdict 11 (`model-fits-gpu`), from the stack config the plan reads."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from components.facts.identity import PROJECT
from components.stackcheck.__main__ import main
from tests.conftest import dev_stack_config, merge

ROOT = Path(__file__).resolve().parents[2]


def plan(capsys, tmp_path, overrides: dict | None = None, fmt: str = "json") -> tuple[int, str]:
    """Plan the dev stack with `overrides` merged into its config; returns the exit code and stdout."""
    args = ["plan", "--project-dir", str(ROOT), "--out", str(tmp_path / "out"), "--format", fmt]
    if overrides is None:
        args += ["--stack", "dev"]
    else:
        stack_file = tmp_path / "Pulumi.models.yaml"
        config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), overrides).items()}
        stack_file.write_text(yaml.safe_dump({"config": {"aws:region": "us-west-2", **config}}))
        args += ["--stack-file", str(stack_file)]
    code = main(args)
    return code, capsys.readouterr().out


def verdict_11(document: dict) -> dict:
    [verdict] = [verdict for verdict in document["verdicts"] if verdict["id"] == 11]
    return verdict


def test_dev_stack_model_fits_its_a10g_and_the_json_reports_the_numbers(capsys, tmp_path):
    code, out = plan(capsys, tmp_path)
    document = json.loads(out)

    assert code == 0, document["failures"]
    # 7.61e9 x 2 / 2^30 = 14.17 GiB of weights; 23028 MiB x 0.9 = 20.24 usable; KV 0.4375 GiB per 8192 tokens;
    # (20.24 - 14.17 - 2) / 0.4375: 9 fit, 3.63 GiB to spare.
    assert document["models"] == [
        {
            "name": "Qwen/Qwen2.5-7B-Instruct",
            "pool": "gpu-inference-dev-gpu",
            "instanceType": "g5.xlarge",
            "fits": True,
            "usableGiBPerGpu": 20.24,
            "weightsGiBPerGpu": 14.17,
            "kvGiBPerSequencePerGpu": 0.4375,
            "reserveGiBPerGpu": 2.0,
            # The dev stack keeps vLLM's default batch budget: no activation peak beyond the reserve.
            "activationGiBPerGpu": 0.0,
            "marginGiB": 3.63,
            "sequencesAtMaxModelLen": 9,
            "layout": "bfloat16 weights",
            # config.json: 4 KV heads of 128 for 28 query heads, cached in the weights' bfloat16.
            "kvCache": "bfloat16, 2 byte(s) an element; 4 KV head(s) x 128 per GPU (grouped-query, 4 of 28 heads)",
            "activation": "",
            # A text-only model: no vision encoder to profile.
            "encoderGiBPerGpu": None,
            "encoder": "",
            "factsFrom": "catalog",
            # The catalog row's citation, pinned to a copy of the Instruct's own config at a commit.
            "source": "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/blob/main/config.json and model card, read "
            "2026-12-01; the shape checked, read 2026-12-05, against kevinstephano/thunder_model_blocks "
            "hf_qwen2/qwen2_rope.py at commit e00c756df29796b34d425a9f8364ec72778d5d66 (`qwen_cfg_str`): "
            "num_hidden_layers, num_attention_heads, num_key_value_heads, hidden_size over the heads, "
            "max_position_embeddings and torch_dtype",
            "reason": document["models"][0]["reason"],
        }
    ]
    verdict = verdict_11(document)
    assert verdict["passed"] and verdict["name"] == "model-fits-gpu"
    assert "Qwen/Qwen2.5-7B-Instruct on g5.xlarge" in verdict["message"]
    assert {
        "id": "models",
        "title": "Models (does each model fit its GPUs, verdict model-fits-gpu)",
        "severity": "ok",
    } in (document["sections"])


def test_dev_stack_text_and_markdown_show_the_models_section_and_verdict_11(capsys, tmp_path):
    _, text = plan(capsys, tmp_path, fmt="text")
    _, markdown = plan(capsys, tmp_path, fmt="markdown")

    assert re.search(
        r"^  Qwen/Qwen2\.5-7B-Instruct +gpu-inference-dev-gpu +g5\.xlarge +fits +20\.2 +14\.2 +0\.44 ", text, re.M
    )
    assert "PASS  11 model-fits-gpu" in text
    assert (
        "Qwen/Qwen2.5-7B-Instruct on g5.xlarge: bfloat16 weights; KV cache bfloat16, 2 byte(s) an element; 4 KV "
        "head(s) x 128 per GPU (grouped-query, 4 of 28 heads); facts from catalog (https://huggingface.co/"
    ) in text
    assert "| `Qwen/Qwen2.5-7B-Instruct` | `gpu-inference-dev-gpu` | `g5.xlarge` | ✅ fits | 20.2 | 14.2 |" in markdown
    assert re.search(r"^\| ✅ \| 11 \| model-fits-gpu \|", markdown, re.M)


def test_a_70b_model_on_four_a10g_fails_verdict_11_with_its_numbers(capsys, tmp_path):
    overrides = {
        "gpuNodeGroup": {"instanceTypes": ["g5.12xlarge"]},
        "vllm": {"model": "meta-llama/Llama-3.1-70B-Instruct", "tensorParallelSize": 4},
    }

    code, out = plan(capsys, tmp_path, overrides)
    document = json.loads(out)

    assert code == 1
    # 70.56e9 x 2 / 4 / 2^30 = 32.86 GiB per GPU > 20.24 GiB usable.
    [model] = document["models"]
    assert (model["fits"], model["weightsGiBPerGpu"], model["instanceType"]) == (False, 32.86, "g5.12xlarge")
    assert not verdict_11(document)["passed"]
    assert any(
        failure.startswith("verdict 11 model-fits-gpu: meta-llama/Llama-3.1-70B-Instruct on g5.12xlarge (TP 4): ")
        and "weights 32.9 GiB + reserve 2.5 GiB per GPU > 20.2 GiB usable per A10G" in failure
        for failure in document["failures"]
    )


def test_settings_the_model_cannot_start_with_exit_2_naming_each_key_at_once(capsys, tmp_path):
    overrides = {
        "gpuNodeGroup": {"instanceTypes": ["p4d.24xlarge"]},
        "vllm": {"tensorParallelSize": 8, "maxModelLen": 65536},
    }

    code, out = plan(capsys, tmp_path, overrides)
    failures = json.loads(out)["failures"]

    # 28 attention heads % 8 = 4; 65536 > max_position_embeddings 32768.
    assert code == 2
    assert failures == [
        f"config {PROJECT}:vllm.tensorParallelSize: tensorParallelSize 8 does not divide the 28 attention heads of "
        "Qwen/Qwen2.5-7B-Instruct (the model catalog): vLLM refuses to start; allowed: a divisor of the attention "
        "heads: 1, 2, 4, 7, 14, 28",
        f"config {PROJECT}:vllm.maxModelLen: maxModelLen 65536 > the model's context 32768 of "
        "Qwen/Qwen2.5-7B-Instruct (the model catalog): vLLM refuses to start; allowed: at most 32768, or rope "
        "scaling through --hf-overrides in extraArgs",
    ]
    assert not (tmp_path / "out").exists()


def test_hf_overrides_lift_the_context_limit_and_the_gate_sizes_the_longer_cache(capsys, tmp_path):
    rope = '{"rope_scaling": {"rope_type": "linear", "factor": 2.0}}'
    code, out = plan(capsys, tmp_path, {"vllm": {"maxModelLen": 65536, "extraArgs": ["--hf-overrides", rope]}})
    document = json.loads(out)

    # KV 0.4375 GiB x 8 = 3.5 GiB per 65536 tokens; 20.24 - 14.17 - 2 = 4.07 GiB left holds one.
    assert code == 0, document["failures"]
    [model] = document["models"]
    assert (model["fits"], model["kvGiBPerSequencePerGpu"], model["sequencesAtMaxModelLen"]) == (True, 3.5, 1)


def test_a_model_outside_the_catalog_is_warned_not_checked_and_passes(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, {"vllm": {"model": "acme/tiny-chat"}})
    document = json.loads(out)

    assert code == 0, document["failures"]
    assert document["models"][0]["fits"] is None
    assert any("not checked" in warning and "vllm.modelFacts" in warning for warning in document["warnings"])
    verdict = verdict_11(document)
    assert verdict["passed"] is True
    assert verdict["message"] == (
        "not checked: model acme/tiny-chat is not in the catalog; give its facts in vllm.modelFacts (`pulumi preview` "
        "reads them from the Hub for a pool the config names)"
    )


def test_model_facts_from_the_config_size_a_model_outside_the_catalog(capsys, tmp_path):
    facts = {"parameters": 20_000_000_000, "layers": 40, "attentionHeads": 40, "kvHeads": 8, "headDim": 128}
    code, out = plan(
        capsys, tmp_path, {"vllm": {"model": "acme/big-chat", "modelFacts": {**facts, "maxContext": 32768}}}
    )
    document = json.loads(out)

    # 20e9 x 2 / 2^30 = 37.25 GiB > 20.24 GiB usable on the A10G.
    assert code == 1
    assert document["models"][0]["weightsGiBPerGpu"] == 37.25
    assert "weights 37.3 GiB" in verdict_11(document)["message"]


def test_model_facts_with_kv_heads_not_dividing_the_heads_exits_2_naming_the_key(capsys, tmp_path):
    facts = {"parameters": 1000, "layers": 2, "attentionHeads": 6, "kvHeads": 4, "headDim": 64, "maxContext": 4096}
    code, out = plan(capsys, tmp_path, {"vllm": {"modelFacts": facts}})
    document = json.loads(out)

    assert code == 2
    assert any(
        failure.startswith(f"config {PROJECT}:vllm.modelFacts.kvHeads: 4 does not divide attentionHeads 6")
        for failure in document["failures"]
    ), document["failures"]


def test_kv_cache_dtype_in_extra_args_halves_the_kv_cache_of_a_sequence(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, {"vllm": {"extraArgs": ["--kv-cache-dtype", "fp8"]}})
    document = json.loads(out)

    # 2x28x4x128 elements x 1 byte x 8192 tokens = 0.21875 GiB; (20.24 - 14.17 - 2) / 0.21875 = 18 sequences.
    assert code == 0, document["failures"]
    [model] = document["models"]
    assert (model["kvGiBPerSequencePerGpu"], model["sequencesAtMaxModelLen"]) == (0.2188, 18)


def test_pipeline_parallel_size_in_extra_args_splits_the_layers_over_the_stages(capsys, tmp_path):
    overrides = {
        "gpuNodeGroup": {"instanceTypes": ["g5.12xlarge"]},
        "vllm": {"model": "Qwen/Qwen2.5-14B-Instruct", "extraArgs": ["--pipeline-parallel-size", "2"]},
    }

    code, out = plan(capsys, tmp_path, overrides)
    document = json.loads(out)

    # 14.7e9 x 2 / 2^30 = 27.38 GiB on one GPU would not fit 20.24; half the 48 layers per stage: 13.69 GiB.
    assert code == 0, document["failures"]
    [model] = document["models"]
    assert (model["fits"], model["weightsGiBPerGpu"], model["kvGiBPerSequencePerGpu"]) == (True, 13.69, 0.75)
