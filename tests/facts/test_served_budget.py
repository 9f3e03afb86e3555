"""The batch budget a server runs with (facts/model_memory.py `served_budget`), as vLLM 0.32.0 resolves it in
vllm/engine/arg_utils.py `_set_default_max_num_seqs_and_batched_tokens_args`: a value the server sets is kept;
`--performance-mode throughput` doubles each value left unset; a defaulted token budget is then raised to
`max_model_len` when chunked prefill is off ("If max_model_len is too short, use the default for higher
throughput": max(max_model_len, T)) and capped at max_num_seqs x max_model_len ("Ensure max_num_batched_tokens does
not exceed model limit": min(S x L, T)). vLLM's defaults for the API server: 2048 tokens and 256 sequences below
70 GiB of GPU memory (an A10G), 8192 and 1024 from 70 GiB (an H100) (`get_batch_defaults`)."""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.model_memory import Budget, ServedModel, model_fit, served_budget
from components.settings import vllm_flags

A10G = Budget(2048, 256)
H100 = Budget(8192, 1024)


@pytest.mark.parametrize(
    ("default", "tokens", "sequences", "mode", "max_model_len", "chunked", "expected"),
    [
        pytest.param(A10G, None, None, None, 8192, True, Budget(2048, 256), id="defaults"),
        pytest.param(A10G, 4096, 64, None, 8192, True, Budget(4096, 64), id="both-set-kept"),
        # 2 x 2048 = 4096 < 8192: the model limit binds.
        pytest.param(H100, None, 2, None, 2048, True, Budget(4096, 2), id="seqs-times-length-caps-the-default"),
        # A token budget the server sets is not capped.
        pytest.param(H100, 8192, 2, None, 2048, True, Budget(8192, 2), id="set-tokens-not-capped"),
        # max(32768, 2048) = 32768, then min(256 x 32768, 32768).
        pytest.param(A10G, None, None, None, 32768, False, Budget(32768, 256), id="chunked-prefill-off-raises"),
        pytest.param(A10G, 1024, None, None, 32768, False, Budget(1024, 256), id="chunked-off-set-tokens-kept"),
        # 2 x 8192 = 16384 tokens, 2 x 1024 = 2048 sequences; 2048 x 8 = 16384 does not bind.
        pytest.param(H100, None, None, "throughput", 8, True, Budget(16384, 2048), id="throughput-at-the-cap"),
        # 2048 x 4 = 8192 < 16384.
        pytest.param(H100, None, None, "throughput", 4, True, Budget(8192, 2048), id="throughput-capped"),
        pytest.param(A10G, None, None, "balanced", 8192, True, Budget(2048, 256), id="balanced-not-doubled"),
    ],
)
def test_the_budget_is_vllms(default, tokens, sequences, mode, max_model_len, chunked, expected):
    assert served_budget(default, tokens, sequences, mode, max_model_len, chunked) == expected


@pytest.mark.parametrize(
    ("items", "chunked"),
    [
        pytest.param([], True, id="default-on"),
        pytest.param(["--enable-chunked-prefill"], True, id="on"),
        pytest.param(["--no-enable-chunked-prefill"], False, id="off"),
        pytest.param(["--no-enable-chunked-prefill", "--enable-chunked-prefill"], True, id="last-wins"),
    ],
)
def test_extra_args_say_whether_chunked_prefill_is_on(items, chunked):
    assert vllm_flags.check(items).chunked_prefill is chunked


def test_chunked_prefill_off_sizes_the_activation_peak_at_a_whole_prompt():
    """Llama-3.1-8B at 16384 tokens on an A10G: with chunked prefill off the profile runs 16384 batched tokens, not
    the A10G's default 2048, and the row names that budget; with it on, nothing above the default is added."""
    facts = model_catalog.lookup("meta-llama/Llama-3.1-8B-Instruct")
    on = ServedModel("meta-llama/Llama-3.1-8B-Instruct", "gpu", 1, 16384, 0.9, facts)
    off = ServedModel("meta-llama/Llama-3.1-8B-Instruct", "gpu", 1, 16384, 0.9, facts, chunked_prefill=False)
    a10g = gpu_catalog.lookup("g5.xlarge")

    with_chunks, without = model_fit(on, a10g, "g5.xlarge"), model_fit(off, a10g, "g5.xlarge")

    assert with_chunks.activation_gib_per_gpu == 0
    assert "activation peak" not in with_chunks.reason
    assert without.activation_gib_per_gpu > 0
    assert "activation peak at 16384 batched tokens, 256 sequences" in without.reason
