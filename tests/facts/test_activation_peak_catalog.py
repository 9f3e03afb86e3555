"""Catalog rows whose cited copy of `config.json` gives their widths count a larger batch budget's activation peak
(components/facts/activation_peak.py), worked by hand from each copy's figures.

The formula, as activation_peak.py's docstring derives it from vllm 0.32.0, b = 2 bytes (bfloat16 or float16):
    forward(T) = T x b x (3H + max(MLP, attention)), MLP = 3I/tp (dense) or top_k x (max(I_e/tp, H) + max(2 I_e/tp,
    H)) (experts), attention = (2 x heads/tp + 2 x max(1, KV heads/tp)) x head_dim (none counted for multi-latent
    attention); sampler(T, S) = S x V x (b + 12) + (T + S) x H x b; extra = max(forward, sampler) at the budget less
    the same at the default (2048 tokens, 256 sequences on a GPU under 70 GiB).

Widths, each from the copy the row cites:
- Mixtral-8x7B (mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py at commit
  79d603f085f50500e9509fa01785ffa7ecfaaa93, `Mixtral-8x7B-v0.1`): hidden_size 4096, intermediate_size 14336 per
  expert, num_experts_per_tok 2, vocab_size 32000, 32 heads, 8 KV heads of 128.
- gemma-2-9b (the same file, `gemma2_9b`): hidden_size 3584, intermediate_size 14336, vocab_size 256000, 16 heads, 8 KV
  heads of 256.
- gpt-oss-120b (openai/gpt-oss gpt_oss/torch/model.py at commit 7b583341fe16729127f6d5b94a7b09ccae97e1a1,
  `ModelConfig`): hidden_size 2880, intermediate_size 2880 per expert, experts_per_token 4, vocab_size 201088, 64
  heads, 8 KV heads of 64.
- Qwen2.5-7B-Instruct-AWQ (its base Qwen2.5-7B in citsjtu2020/LLM-Prof sglang/Model_Config.md at commit
  8434c8d19c396b2f95d92a67845a7c0a0e0dd512): hidden_size 3584, intermediate_size 18944, vocab_size 152064, 28 heads,
  4 KV heads of 128.
- DeepSeek-V2-Lite-Chat (its base in mlc-llm's presets, `deepseek_v2_lite`): hidden_size 2048, moe_intermediate_size
  1408, num_experts_per_tok 6, vocab_size 102400, multi-latent attention.
"""

from __future__ import annotations

import pytest

from components.facts import model_catalog
from components.facts.activation_peak import Budget, activation_extra

GIB = 1024**3
SMALL_GPU_DEFAULT = Budget(2048, 256)

ROWS = [
    # TP 2: gate_up 2 x 14336 / 2 = 14336, experts 2 x (max(7168, 4096) + max(14336, 4096)) = 43008 > attention
    # (32 + 8) x 128; forward(T) = T x 2 x (12288 + 43008) = T x 110592; sampler 256 x 32000 x 14 = 114,688,000 +
    # (T + 256) x 8192. Default: forward 226,492,416 > sampler 133,562,368. At 8192: forward 905,969,664 > sampler
    # 183,894,016; extra 679,477,248.
    pytest.param(
        "mistralai/Mixtral-8x7B-Instruct-v0.1",
        Budget(8192, 256),
        2,
        679_477_248,
        id="mixtral-experts-tensor-parallel-2",
    ),
    # MLP 43008 > attention (32 + 16) x 256 = 12288; forward(2048) = 2048 x 2 x (10752 + 43008) = 220,200,960.
    # Sampler 256000 x 14 = 3,584,000 a sequence: at 256, 917,504,000 + 2304 x 7168 = 934,019,072; at 512,
    # 1,835,008,000 + 2560 x 7168 = 1,853,358,080; extra 919,339,008.
    pytest.param("google/gemma-2-9b-it", Budget(2048, 512), 1, 919_339_008, id="gemma2-9b-vocabulary-512-seqs"),
    # Experts 4 x (max(2880, 2880) + max(5760, 2880)) = 34560 > attention (128 + 16) x 64; forward(2048) = 2048 x 2 x
    # (8640 + 34560) = 176,947,200. Sampler 201088 x 14 = 2,815,232 a sequence: at 256, 720,699,392 + 2304 x 5760 =
    # 733,970,432; at 1024, 2,882,797,568 + 3072 x 5760 = 2,900,492,288; extra 2,166,521,856.
    pytest.param("openai/gpt-oss-120b", Budget(2048, 1024), 1, 2_166_521_856, id="gpt-oss-120b-1024-seqs"),
    # MLP 3 x 18944 = 56832 > attention (56 + 8) x 128; forward(T) = T x 2 x (10752 + 56832) = T x 135168. Sampler
    # 256 x 152064 x 14 = 544,997,376 + (T + 256) x 7168. Default: forward 276,824,064 < sampler 561,512,448. At 8192:
    # forward 1,107,296,256 > sampler 605,552,640; extra 545,783,808.
    pytest.param("Qwen/Qwen2.5-7B-Instruct-AWQ", Budget(8192, 256), 1, 545_783_808, id="qwen25-7b-awq-8192"),
    # Experts 6 x (max(1408, 2048) + max(2816, 2048)) = 29184, no attention term; forward(T) = T x 2 x (6144 + 29184)
    # = T x 70656. Sampler 256 x 102400 x 14 = 367,001,600 + (T + 256) x 4096. Default: forward 144,703,488 < sampler
    # 376,438,784. At 16384: forward 1,157,627,904 > sampler 435,159,040; extra 781,189,120.
    pytest.param("deepseek-ai/DeepSeek-V2-Lite-Chat", Budget(16384, 256), 1, 781_189_120, id="deepseek-v2-lite-16384"),
]


@pytest.mark.parametrize(("model", "budget", "tp", "extra_bytes"), ROWS)
def test_a_filled_row_counts_the_extra_at_a_larger_budget(model, budget, tp, extra_bytes):
    extra = activation_extra(model_catalog.lookup(model), budget, SMALL_GPU_DEFAULT, tp)

    assert extra.missing == ""
    assert extra.gib == pytest.approx(extra_bytes / GIB, abs=1e-6)


def test_a_row_whose_copy_lacks_a_width_names_it():
    # Qwen2.5-72B-Instruct's row rests on no pinned copy (tests/facts/test_model_catalog_sources.py), so it carries none
    # of the widths the peak needs.
    extra = activation_extra(
        model_catalog.lookup("Qwen/Qwen2.5-72B-Instruct"), Budget(16384, 256), SMALL_GPU_DEFAULT, 1
    )

    assert (extra.gib, extra.missing) == (0, "hidden size, vocabulary, MLP width")
