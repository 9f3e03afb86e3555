"""Each catalog row names the public copy of its `config.json` it was checked against: a repository path at a
40-hex commit, or the Hub's file at a 40-hex revision. The Hugging Face Hub was not reachable when the rows were
written, so a `main` URL alone pins nothing; the rows no copy was found for are listed below with the reason."""

import re

from components.facts import model_catalog
from components.facts.model_catalog_layouts import EXTRA_ROWS, SERVED_ROWS

PINNED = re.compile(r"[\w.-]+/[\w.-]+ \S+(?: and \S+)* at commit [0-9a-f]{40}|huggingface\.co/\S+/blob/[0-9a-f]{40}/")
LAYOUT_ROWS = {name for name, _ in (*EXTRA_ROWS, *SERVED_ROWS)}
# Known exceptions, each with why it is not pinned.
NOT_PINNED = {
    "mistralai/Mistral-Small-3.1-24B-Instruct-2503": "no copy of the mistral3 config found",
    "mistralai/Mistral-Small-3.2-24B-Instruct-2506": "no copy of the mistral3 config found",
    **dict.fromkeys(
        (f"Qwen/Qwen2.5-{size}-Instruct" for size in ("7B", "14B", "32B")),
        "the copies found are the base models', whose max_position_embeddings (131072) is not the Instruct's",
    ),
    **dict.fromkeys(
        (
            "Qwen/Qwen2.5-0.5B-Instruct",
            "Qwen/Qwen2.5-1.5B-Instruct",
            "Qwen/Qwen2.5-72B-Instruct",
            "meta-llama/Llama-3.3-70B-Instruct",
            *(f"deepseek-ai/DeepSeek-R1-Distill-Qwen-{size}" for size in ("1.5B", "7B", "14B", "32B")),
            "deepseek-ai/DeepSeek-R1-Distill-Llama-8B",
            "deepseek-ai/DeepSeek-R1-Distill-Llama-70B",
            "microsoft/Phi-3-mini-4k-instruct",
            "microsoft/Phi-3-mini-128k-instruct",
            "microsoft/phi-4",
        ),
        "a dense row no copy of whose config was found: the Hub's main revision and unnamed copies",
    ),
}

# Rows a copy pins in part, each with what it pins; the rest of the row says what it rests on.
PARTLY_PINNED = {
    "google/gemma-3-27b-it": "its vision tower and widths only: the copy cut its text layers and window for a test",
}


def test_every_row_but_the_known_exceptions_names_a_copy_at_a_commit():
    unpinned = {name for name, facts in model_catalog.MODELS.items() if not PINNED.search(facts.source)}

    assert unpinned == set(NOT_PINNED)


def test_a_row_that_names_no_copy_says_so_and_when():
    for name in (NOT_PINNED.keys() | PARTLY_PINNED.keys()) & LAYOUT_ROWS:
        assert "no public copy of it found by 2026-12-05" in model_catalog.MODELS[name].source, name


def test_a_pinned_row_dates_its_reading_and_names_the_fields_it_checked():
    for name in LAYOUT_ROWS - NOT_PINNED.keys():
        source = model_catalog.MODELS[name].source
        assert ", read 2026-12-05: " in source, name
        assert "num_attention_heads" in source or "num_hidden_layers" in source, name


def test_the_pattern_tells_a_pinned_citation_from_a_branch():
    assert PINNED.search("alibaba/InferSim hf_configs/x.json at commit " + "f" * 40)
    assert PINNED.search("https://huggingface.co/Qwen/Qwen3-8B/blob/" + "0" * 40 + "/config.json")
    assert not PINNED.search("https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json")
    assert not PINNED.search("alibaba/InferSim hf_configs/x.json at commit main")
