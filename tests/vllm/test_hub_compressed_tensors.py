"""A compressed-tensors FP8 checkpoint read at preview from the stand-in Hub (tests/support/hub_stand_in.py).

The files are made by hand in the layout of the "-FP8" checkpoints llm-compressor writes (static per-tensor FP8
weights and inputs, `format: float-quantized`, `lm_head` left in bf16), on Llama 3.1 8B's shape
(https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/blob/main/config.json: hidden_size 4096,
intermediate_size 14336, 32 layers, 32 heads, 8 KV heads, vocab_size 128256, max_position_embeddings 131072).

Worked by hand:
- FP8 per layer: q 4096 x 4096 + k and v 1024 x 4096 each + o 4096 x 4096 + gate, up and down 3 x 4096 x 14336
  = 218,103,808 bytes, x 32 = 6,979,321,856; with each of the 7 linear layers' float32 `weight_scale` and
  `input_scale` (one each, per tensor) 7 x 2 x 4 x 32 = 1,792 bytes;
- bf16: the embeddings and `lm_head` 2 x 128256 x 4096 = 1,050,673,152, the norms 2 x 32 x 4096 + 4096 = 266,240:
  1,050,939,392 x 2 = 2,101,878,784 bytes;
- weights 9,081,202,432 bytes = 8.46 GiB.
- vLLM v0.32.0 serves it with `CompressedTensorsW8A8Fp8` from compute capability 8.9 and falls back to
  `CompressedTensorsW8A16Fp8` (Marlin, weights-only) from 7.5 (compressed_tensors/compressed_tensors.py
  `_get_scheme_from_parts`; the schemes' `get_min_capability`): an L4 (8.9) runs it natively, a T4 (7.5) through
  Marlin. Compute capabilities from facts/gpu_catalog.py.
"""

from __future__ import annotations

import json

import pytest

from components.facts import gpu_catalog
from components.facts.model_memory import GIB, ServedModel, model_fit
from components.vllm.hub_facts import read_model_facts
from tests.support.hub_stand_in import COMMIT, Repo, safetensors_header, stand_in_hub

LAYERS, HIDDEN, MLP, VOCAB = 32, 4096, 14336, 128256
FP8_PER_TENSOR = {"type": "float", "num_bits": 8, "strategy": "tensor", "symmetric": True, "dynamic": False}
CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "hidden_size": HIDDEN,
    "intermediate_size": MLP,
    "num_hidden_layers": LAYERS,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "max_position_embeddings": 131072,
    "vocab_size": VOCAB,
    "torch_dtype": "bfloat16",
    "quantization_config": {
        "quant_method": "compressed-tensors",
        "format": "float-quantized",
        "ignore": ["lm_head"],
        "config_groups": {
            "group_0": {"targets": ["Linear"], "weights": FP8_PER_TENSOR, "input_activations": FP8_PER_TENSOR}
        },
    },
}
WEIGHT_BYTES = 6_979_321_856 + 1_792 + 2_101_878_784
LINEAR = {
    "self_attn.q_proj": [HIDDEN, HIDDEN],
    "self_attn.k_proj": [1024, HIDDEN],
    "self_attn.v_proj": [1024, HIDDEN],
    "self_attn.o_proj": [HIDDEN, HIDDEN],
    "mlp.gate_proj": [MLP, HIDDEN],
    "mlp.up_proj": [MLP, HIDDEN],
    "mlp.down_proj": [HIDDEN, MLP],
}


def fp8_files() -> dict[str, bytes]:
    tensors: dict[str, tuple[str, list[int]]] = {
        "model.embed_tokens.weight": ("BF16", [VOCAB, HIDDEN]),
        "lm_head.weight": ("BF16", [VOCAB, HIDDEN]),
        "model.norm.weight": ("BF16", [HIDDEN]),
    }
    for i in range(LAYERS):
        for norm in ("input_layernorm", "post_attention_layernorm"):
            tensors[f"model.layers.{i}.{norm}.weight"] = ("BF16", [HIDDEN])
        for linear, shape in LINEAR.items():
            tensors[f"model.layers.{i}.{linear}.weight"] = ("F8_E4M3", shape)
            tensors[f"model.layers.{i}.{linear}.weight_scale"] = ("F32", [1])
            tensors[f"model.layers.{i}.{linear}.input_scale"] = ("F32", [1])
    return {"config.json": json.dumps(CONFIG).encode(), "model.safetensors": safetensors_header(tensors)}


@pytest.fixture(scope="module")
def fp8_facts():
    with pytest.MonkeyPatch.context() as patch, stand_in_hub({"example/llama-8b-fp8": Repo(fp8_files())}) as hub:
        patch.setenv("HF_ENDPOINT", hub.url)
        patch.delenv("HF_HUB_OFFLINE", raising=False)
        read = read_model_facts("example/llama-8b-fp8", COMMIT, None)
    assert read.problem == "" and read.facts is not None
    return read.facts


def test_an_fp8_compressed_tensors_checkpoint_is_read_as_its_scheme_with_its_stored_bytes(fp8_facts):
    assert fp8_facts.quantization == "compressed-tensors/w8a8-fp8"
    assert fp8_facts.weight_bytes == WEIGHT_BYTES == 9_081_202_432
    assert fp8_facts.layout.startswith("compressed-tensors/w8a8-fp8 weights")


@pytest.mark.parametrize(
    ("instance_type", "marlin"), [pytest.param("g6.xlarge", False, id="l4"), pytest.param("g4dn.xlarge", True, id="t4")]
)
def test_it_fits_an_l4_natively_and_a_t4_through_marlin(fp8_facts, instance_type, marlin):
    served = ServedModel("example/llama-8b-fp8", "gpu", 1, 8192, 0.9, fp8_facts)

    result = model_fit(served, gpu_catalog.lookup(instance_type), instance_type)

    assert result.fits is True
    assert result.weights_gib_per_gpu == pytest.approx(WEIGHT_BYTES / GIB)
    assert ("Marlin weight-only kernel" in result.reason) is marlin
