"""What the fits gate needs to know of a model: the open models users deploy most, as their published
checkpoints describe them.

Standard library only: the settings and the placement model both read it. Each row gives the total
parameters (all experts of a mixture-of-experts model: vLLM loads every expert on the GPUs), the
transformer's layers, attention heads, key/value heads and head dimension, the context length vLLM accepts
without rope scaling (`max_position_embeddings` of `config.json`, which vLLM reads as the model's maximum
`max_model_len`; a tokenizer's smaller `model_max_length` would lower it further and is not recorded), the dtype
of the published weights (`torch_dtype`) and the bytes one parameter takes in it.

Sources: each model's `config.json` on the Hugging Face Hub at its `main` revision
(https://huggingface.co/<model>/blob/main/config.json) for layers, heads, key/value heads, head dimension
(`head_dim`, else `hidden_size / num_attention_heads`), context and dtype, and the model card
(https://huggingface.co/<model>) for the parameter count. The Hub itself was not reachable when the table was
written (2026-12-02); the dense rows below were compared with copies of those files quoted in public repositories
(transformers-style configs of Llama 3.1 8B and 70B, 3.2 1B and 3B, 3.3 70B, Qwen2.5 7B/14B/32B, Qwen3 0.6B,
1.7B, 4B and 8B, Mixtral 8x7B, Gemma 2 2B/9B/27B, Phi-3-mini; Qwen's own model cards for the Qwen2.5 sizes). The
dense rows of `_DENSE_COPIES` and `_SHAPE_COPIES` and the rows of facts/model_catalog_layouts.py and
facts/model_catalog_served.py each name the public copy they were checked against (repository, path and commit, read
2026-12-05); the others' copies were not found again.
The distills share the shapes of their base models (Qwen2.5-Math-1.5B, Qwen2.5-7B/14B/32B, Llama 3.1 8B and
3.3 70B) with a 131072-token context. Parameter counts of 70B rows are Meta's 70,562,938,880.

Quantized checkpoints, mixtures of experts, sliding-window, chunked local and multi-latent attention (the rows of
facts/model_catalog_layouts.py and facts/model_catalog_served.py, after the dense ones) carry what the arithmetic
needs beyond the shape: the parameters stored in the quantized format (counted from `config.json`'s shapes: the linear layers' in_features x out_features, the rest staying in `torch_dtype`),
the method (`quantization_config.quant_method`), the sliding window and how many layers use it (`layer_types`, or
Gemma 3's `sliding_window_pattern`), and for DeepSeek's multi-latent attention the latent each layer caches
(`kv_lora_rank + qk_rope_head_dim`), Llama 4's chunk and its chunked layers. Each such row's comment works its
counts from the config.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .model_catalog_layouts import EXTRA_ROWS, LLM_PROF
from .model_catalog_served import SERVED_ROWS
from .model_facts import DTYPE_BYTES as DTYPE_BYTES
from .model_facts import GROUPED_METHODS as GROUPED_METHODS
from .model_facts import KV_CACHE_DTYPE_BYTES as KV_CACHE_DTYPE_BYTES
from .model_facts import MODEL_FACTS_KEY as MODEL_FACTS_KEY
from .model_facts import QUANTIZATION_BYTES as QUANTIZATION_BYTES
from .model_facts import ModelFacts as ModelFacts
from .model_facts import group_problems as group_problems
from .model_facts import shape_problems as shape_problems

_MLC_PRESETS = "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py at commit 79d603f085f50500e9509fa01785ffa7ecfaaa93"
# The dense rows a public copy of the config was found for, read 2026-12-05: the copy and the entry in it. Each gave
# the row's num_hidden_layers, num_attention_heads, num_key_value_heads, head_dim (or hidden_size over the heads),
# max_position_embeddings and torch_dtype bfloat16, and the widths the activation peak needs (facts/activation_peak.py),
# read there the same day: hidden_size, intermediate_size and vocab_size (Mixtral's num_local_experts and
# num_experts_per_tok too, its intermediate_size being one expert's). Mixtral's copy is the base model's, which its
# Instruct shares.
_DENSE_COPIES = {
    "meta-llama/Llama-3.1-8B-Instruct": f"{_MLC_PRESETS} (`llama3_1_8b`)",
    "meta-llama/Llama-3.1-70B-Instruct": f"{_MLC_PRESETS} (`llama3_1_70b`)",
    "meta-llama/Llama-3.2-1B-Instruct": f"{_MLC_PRESETS} (`llama3_2_1b`)",
    "meta-llama/Llama-3.2-3B-Instruct": f"{_MLC_PRESETS} (`llama3_2_3b`)",
    "Qwen/Qwen2.5-3B-Instruct": f"{_MLC_PRESETS} (`qwen2.5_3b`)",
    "Qwen/Qwen3-0.6B": f"{_MLC_PRESETS} (`qwen3_0.6b`)",
    "Qwen/Qwen3-1.7B": f"{_MLC_PRESETS} (`qwen3_1.7b`)",
    "Qwen/Qwen3-4B": LLM_PROF.format("Qwen3-4B"),
    "Qwen/Qwen3-8B": LLM_PROF.format("Qwen3-8B"),
    "Qwen/Qwen3-14B": LLM_PROF.format("Qwen3-14B"),
    "Qwen/Qwen3-32B": LLM_PROF.format("Qwen3-32B"),
    "mistralai/Mistral-7B-Instruct-v0.3": f"{_MLC_PRESETS} (`mistral_7b_v03`)",
    "mistralai/Mixtral-8x7B-Instruct-v0.1": f"{_MLC_PRESETS} (`Mixtral-8x7B-v0.1`)",
    "google/gemma-2-2b-it": f"{_MLC_PRESETS} (`gemma2_2b`)",
    "google/gemma-2-9b-it": f"{_MLC_PRESETS} (`gemma2_9b`)",
    "google/gemma-2-27b-it": f"{_MLC_PRESETS} (`gemma2_27b`)",
    "microsoft/Phi-4-mini-instruct": f"{_MLC_PRESETS} (`phi-4`, named Phi-4-mini-instruct there)",
}


# The dense rows a copy of whose own config was found, read 2026-12-05, beyond `_DENSE_COPIES`: the copy, and the
# fields it gave. Each field the row uses agreed with it.
_SHAPE_FIELDS = (
    "num_hidden_layers, num_attention_heads, num_key_value_heads, hidden_size over the heads, max_position_embeddings "
    "and torch_dtype"
)
_SHAPE_COPIES = {
    # `qwen_cfg_str`, "_name_or_path": "Qwen/Qwen2.5-7B-Instruct": hidden_size 3584, 28 layers, 28 heads, 4 KV heads,
    # max_position_embeddings 32768 (the base model's is 131072), bfloat16.
    "Qwen/Qwen2.5-7B-Instruct": "kevinstephano/thunder_model_blocks hf_qwen2/qwen2_rope.py at commit "
    f"e00c756df29796b34d425a9f8364ec72778d5d66 (`qwen_cfg_str`): {_SHAPE_FIELDS}",
    # `PHI3_MINI_4K_CONFIG`, "_name_or_path": "Phi-3-mini-4k-instruct": hidden_size 3072, 32 layers, 32 heads, 32 KV
    # heads, max_position_embeddings 4096, bfloat16.
    "microsoft/Phi-3-mini-4k-instruct": "NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_phi3.py at "
    f"commit cb4c622cf5bb97009451f7f44609498a48a2b11d (`PHI3_MINI_4K_CONFIG`): {_SHAPE_FIELDS}",
    # The Hub's stored page of a mirror of the Instruct checkpoint ("_name_or_path": "Qwen/Qwen2.5-14B-Instruct",
    # re-saved by transformers 4.44.2): hidden_size 5120, 48 layers, 40 heads, 8 KV heads, max_position_embeddings 32768
    # (the base model's is 131072), bfloat16.
    "Qwen/Qwen2.5-14B-Instruct": "https://huggingface.co/osllmai-community/Qwen2.5-14B-Instruct/blob/"
    f"eaddfa685697f74aa707d6cd5cf36784cdcabe05/config.json (a mirror of the Instruct checkpoint): {_SHAPE_FIELDS}",
    # An ONNX export of the Instruct checkpoint ("_name_or_path": "Qwen/Qwen2.5-1.5B-Instruct"): hidden_size 1536, 28
    # layers, 12 heads, 2 KV heads, max_position_embeddings 32768; the export dropped torch_dtype.
    "Qwen/Qwen2.5-1.5B-Instruct": "https://huggingface.co/onnx-community/Qwen2.5-1.5B-Instruct/blob/"
    "94677ac90364afdc2b476788d085a9680efde737/config.json (an ONNX export of the Instruct checkpoint): "
    "num_hidden_layers, num_attention_heads, num_key_value_heads, hidden_size over the heads and "
    "max_position_embeddings; torch_dtype bfloat16 from the model card",
    # Microsoft's own file at a pinned revision: hidden_size 3072, 32 layers, 32 heads, 32 KV heads,
    # max_position_embeddings 131072 (original_max_position_embeddings 4096 and longrope scaling); the stored page
    # was read only down to rope_scaling, so bfloat16 rests on Phi-3-mini-4k's pinned copy and the model card.
    "microsoft/Phi-3-mini-128k-instruct": "https://huggingface.co/microsoft/Phi-3-mini-128k-instruct/blob/"
    "b1b6d1319a4a315ba5d10ea7fbb3c084d2f7fc2d/config.json: num_hidden_layers, num_attention_heads, "
    "num_key_value_heads, hidden_size over the heads and max_position_embeddings; torch_dtype bfloat16 from the "
    "4k model's copy and the model card",
    # Meta's own SKU list: dim 8192, n_layers 80, n_heads 64, n_kv_heads 8, vocab_size 128256, ffn_dim_multiplier 1.3
    # and multiple_of 4096 (llama3/model.py's FeedForward: 2/3 x 4 x 8192 = 21845, x 1.3 = 28398, up to a multiple of
    # 4096 = 28672), the bf16 checkpoint format; datatypes.py gives Llama 3.3 a max_seq_length of 131072.
    "meta-llama/Llama-3.3-70B-Instruct": "meta-llama/llama-models models/sku_list.py and models/datatypes.py at commit "
    "364ed4ec2bdcc13ab3acb08e364e843b6322b9ae (`llama3_3_instruct_models`, `max_seq_length`): dim, n_layers, n_heads, "
    "n_kv_heads, vocab_size, ffn_dim_multiplier and multiple_of (hidden_size 8192, intermediate_size 28672, "
    "vocab_size 128256), quantization_format bf16 and max_seq_length 131072",
}


def _hf(model: str) -> str:
    source = f"https://huggingface.co/{model}/blob/main/config.json and model card, read 2026-12-01"
    if model in _SHAPE_COPIES:
        return f"{source}; the shape checked, read 2026-12-05, against {_SHAPE_COPIES[model]}"
    copy = _DENSE_COPIES.get(model)
    if not copy:
        return source
    return f"{source}; the shape checked against {copy}, read 2026-12-05, and its {_WIDTH_FIELDS}"


_WIDTH_FIELDS = "hidden_size, intermediate_size and vocab_size"


def _bf16(
    model: str,
    parameters: float,
    layers: int,
    heads: int,
    kv_heads: int,
    head_dim: int,
    context: int,
    widths: tuple[int, int, int] = (0, 0, 0),
    experts: int = 0,
    active_experts: int = 0,
) -> tuple[str, ModelFacts]:
    """A bf16 row; `widths` are (`hidden_size`, `intermediate_size`, `vocab_size`) where recorded, the
    `intermediate_size` of a mixture of `experts` being one expert's."""
    bytes_per_parameter = DTYPE_BYTES["bfloat16"]
    hidden, intermediate, vocab = widths
    facts = ModelFacts(
        round(parameters * 1e9),
        layers,
        heads,
        kv_heads,
        head_dim,
        context,
        "bfloat16",
        bytes_per_parameter,
        _hf(model) + ("; num_local_experts and num_experts_per_tok from the same copy" if experts else ""),
        intermediate_size=0 if experts else intermediate,
        hidden_size=hidden,
        vocab_size=vocab,
        expert_intermediate_size=intermediate if experts else 0,
        experts=experts,
        active_experts=active_experts,
    )
    return model, facts


# Llama 3.1 and 3.3 (config.json): hidden_size 4096, intermediate_size 14336 (8B); 8192 and 28672 (70B);
# vocab_size 128256 for both, as quoted in public repositories' copies of the configs (2026-12-05). The other widths
# (hidden_size, intermediate_size, vocab_size) are each row's copy's in _DENSE_COPIES.
_LLAMA_8B_WIDTHS = (4096, 14336, 128256)
_LLAMA_70B_WIDTHS = (8192, 28672, 128256)
_QWEN3_VOCAB = 151936


# Rows: (model id, parameters in billions, layers, attention heads, KV heads, head dim, context).
MODELS: Mapping[str, ModelFacts] = MappingProxyType(
    dict(
        [
            # Qwen2.5: config.json's max_position_embeddings is 32768; the card's 131072 needs YaRN rope scaling.
            _bf16("Qwen/Qwen2.5-0.5B-Instruct", 0.49, 24, 14, 2, 64, 32768),
            _bf16("Qwen/Qwen2.5-1.5B-Instruct", 1.54, 28, 12, 2, 128, 32768),
            _bf16("Qwen/Qwen2.5-3B-Instruct", 3.09, 36, 16, 2, 128, 32768, (2048, 11008, 151936)),
            _bf16("Qwen/Qwen2.5-7B-Instruct", 7.61, 28, 28, 4, 128, 32768),
            _bf16("Qwen/Qwen2.5-14B-Instruct", 14.7, 48, 40, 8, 128, 32768),
            _bf16("Qwen/Qwen2.5-32B-Instruct", 32.5, 64, 40, 8, 128, 32768),
            _bf16("Qwen/Qwen2.5-72B-Instruct", 72.7, 80, 64, 8, 128, 32768),
            # Qwen3 dense: max_position_embeddings 40960 (32768 of context plus room to generate, per the card).
            _bf16("Qwen/Qwen3-0.6B", 0.6, 28, 16, 8, 128, 40960, (1024, 3072, _QWEN3_VOCAB)),
            _bf16("Qwen/Qwen3-1.7B", 1.7, 28, 16, 8, 128, 40960, (2048, 6144, _QWEN3_VOCAB)),
            _bf16("Qwen/Qwen3-4B", 4.0, 36, 32, 8, 128, 40960, (2560, 9728, _QWEN3_VOCAB)),
            _bf16("Qwen/Qwen3-8B", 8.2, 36, 32, 8, 128, 40960, (4096, 12288, _QWEN3_VOCAB)),
            _bf16("Qwen/Qwen3-14B", 14.8, 40, 40, 8, 128, 40960, (5120, 17408, _QWEN3_VOCAB)),
            _bf16("Qwen/Qwen3-32B", 32.8, 64, 64, 8, 128, 40960, (5120, 25600, _QWEN3_VOCAB)),
            _bf16("meta-llama/Llama-3.1-8B-Instruct", 8.03, 32, 32, 8, 128, 131072, _LLAMA_8B_WIDTHS),
            _bf16("meta-llama/Llama-3.1-70B-Instruct", 70.56, 80, 64, 8, 128, 131072, _LLAMA_70B_WIDTHS),
            _bf16("meta-llama/Llama-3.2-1B-Instruct", 1.24, 16, 32, 8, 64, 131072, (2048, 8192, 128256)),
            _bf16("meta-llama/Llama-3.2-3B-Instruct", 3.21, 28, 24, 8, 128, 131072, (3072, 8192, 128256)),
            _bf16("meta-llama/Llama-3.3-70B-Instruct", 70.56, 80, 64, 8, 128, 131072, _LLAMA_70B_WIDTHS),
            _bf16("mistralai/Mistral-7B-Instruct-v0.3", 7.25, 32, 32, 8, 128, 32768, (4096, 14336, 32768)),
            _bf16(
                "mistralai/Mixtral-8x7B-Instruct-v0.1",
                46.7,
                32,
                32,
                8,
                128,
                32768,
                (4096, 14336, 32000),
                experts=8,
                active_experts=2,
            ),
            # Gemma 2 alternates 4096-token sliding-window and global layers; counting every layer as global
            # at most doubles the cache of a sequence, an overestimate on the safe side.
            _bf16("google/gemma-2-2b-it", 2.61, 26, 8, 4, 256, 8192, (2304, 9216, 256000)),
            _bf16("google/gemma-2-9b-it", 9.24, 42, 16, 8, 256, 8192, (3584, 14336, 256000)),
            _bf16("google/gemma-2-27b-it", 27.2, 46, 32, 16, 128, 8192, (4608, 36864, 256000)),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", 1.78, 28, 12, 2, 128, 131072),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", 7.62, 28, 28, 4, 128, 131072),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", 14.8, 48, 40, 8, 128, 131072),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", 32.8, 64, 40, 8, 128, 131072),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Llama-8B", 8.03, 32, 32, 8, 128, 131072),
            _bf16("deepseek-ai/DeepSeek-R1-Distill-Llama-70B", 70.56, 80, 64, 8, 128, 131072),
            _bf16("microsoft/Phi-3-mini-4k-instruct", 3.821, 32, 32, 32, 96, 4096),
            _bf16("microsoft/Phi-3-mini-128k-instruct", 3.821, 32, 32, 32, 96, 131072),
            _bf16("microsoft/Phi-4-mini-instruct", 3.84, 32, 24, 8, 128, 131072, (3072, 8192, 200064)),
            _bf16("microsoft/phi-4", 14.7, 40, 40, 10, 128, 16384),
            *EXTRA_ROWS,
            *SERVED_ROWS,
        ]
    )
)
"""The catalog, by Hugging Face model id."""

_BY_FOLDED = {name.casefold(): facts for name, facts in MODELS.items()}


def lookup(model: str) -> ModelFacts | None:
    """The catalog's facts of `model`; the Hub resolves ids without regard to case, and so does this."""
    return _BY_FOLDED.get(model.casefold())
