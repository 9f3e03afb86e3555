"""What `ModelFacts` (components/facts/model_facts.py) refuses, each rule on both sides of its boundary: a fact the
fits gate divides by or multiplies with must be positive, the query heads whole groups of the KV heads (grouped
query attention shares each KV head among `attention_heads / kv_heads` query heads), a quantization sized by its
table unless its stored bytes were read, the quantized parameters among the parameters, and the window and chunk
layers within the layers, each with its size."""

from __future__ import annotations

import dataclasses

import pytest

from components.facts.model_facts import QUANTIZATION_BYTES, ModelFacts, catalog_row

# The smallest facts each rule accepts: every count 1.
SMALLEST = ModelFacts(1, 1, 1, 1, 1, 1, "bfloat16", 1)
BASE = ModelFacts(10, 2, 2, 2, 8, 64, "bfloat16", 2)

REFUSED = [
    *(
        pytest.param({name: 0}, "every count and bytes_per_parameter must be positive", id=f"{name}-0")
        for name in ("parameters", "layers", "attention_heads", "kv_heads", "head_dim", "max_context")
    ),
    pytest.param({"bytes_per_parameter": 0}, "every count and bytes_per_parameter must be positive", id="bytes-0"),
    pytest.param({"attention_heads": 3}, "attention_heads must be a multiple of kv_heads", id="heads-3-of-2"),
    # The methods the table sizes are the allowed values the message lists.
    pytest.param(
        {"quantization": "q9"},
        f"quantization must be one of {', '.join(QUANTIZATION_BYTES)}",
        id="unknown-quantization",
    ),
    pytest.param({"quantized_parameters": 11}, "quantized_parameters must be between 0 and parameters", id="11-of-10"),
    pytest.param({"quantized_parameters": -1}, "quantized_parameters must be between 0 and parameters", id="minus-1"),
    pytest.param(
        {"sliding_window": 128, "sliding_layers": 3},
        "sliding_layers needs a sliding_window and at most `layers` layers",
        id="3-window-layers-of-2",
    ),
    pytest.param(
        {"chunked_layers": 1},
        "chunked_layers needs an attention_chunk, and local layers at most `layers`",
        id="no-chunk",
    ),
    pytest.param(
        {"attention_chunk": 8192},
        "chunked_layers needs an attention_chunk, and local layers at most `layers`",
        id="chunk-without-layers",
    ),
    pytest.param(
        {"sliding_window": 128, "sliding_layers": 1, "attention_chunk": 8192, "chunked_layers": 2},
        "chunked_layers needs an attention_chunk, and local layers at most `layers`",
        id="3-local-layers-of-2",
    ),
]


@pytest.mark.parametrize(("changes", "message"), REFUSED)
def test_model_facts_refuse(changes, message):
    with pytest.raises(ValueError) as raised:
        dataclasses.replace(BASE, **changes)

    assert str(raised.value).endswith(f": {message}")


ACCEPTED = [
    pytest.param({"attention_heads": 4}, id="two-query-heads-a-kv-head"),
    pytest.param({"quantization": "q9", "stored_weight_bytes": 1e9}, id="any-method-its-stored-bytes-read"),
    pytest.param({"quantization": "fp8", "quantized_parameters": 10}, id="every-parameter-quantized"),
    pytest.param({"quantized_parameters": 0}, id="none-quantized"),
    pytest.param({"sliding_window": 128, "sliding_layers": 2}, id="every-layer-a-window-layer"),
    pytest.param({"attention_chunk": 8192, "chunked_layers": 2}, id="every-layer-chunked"),
    pytest.param(
        {"sliding_window": 128, "sliding_layers": 1, "attention_chunk": 8192, "chunked_layers": 1},
        id="a-window-layer-and-a-chunked-one",
    ),
]


@pytest.mark.parametrize("changes", ACCEPTED)
def test_model_facts_accept(changes):
    facts = dataclasses.replace(BASE, **changes)

    assert all(getattr(facts, name) == value for name, value in changes.items())


def test_every_count_of_one_is_accepted():
    assert SMALLEST.layers == 1


@pytest.mark.parametrize(
    ("dtype", "bytes_per_parameter"), [("bfloat16", 2), ("float16", 2), ("float32", 4), ("fp8", 1)]
)
def test_a_catalog_row_built_now_keeps_its_name_its_source_and_its_dtypes_bytes(dtype, bytes_per_parameter):
    """The catalog's rows are built when the module loads; this builds one while the test runs. Bytes per parameter
    of each dtype: 2 for the 16-bit floats, 4 for float32, 1 for float8 (the width of each type)."""
    name, facts = catalog_row(
        "org/model",
        "a cited copy",
        parameters=1_000_000,
        layers=2,
        attention_heads=4,
        kv_heads=2,
        head_dim=16,
        max_context=4096,
        dtype=dtype,
    )

    assert name == "org/model"
    assert (facts.parameters, facts.layers, facts.attention_heads, facts.kv_heads, facts.head_dim) == (
        1_000_000,
        2,
        4,
        2,
        16,
    )
    assert (facts.max_context, facts.dtype, facts.source) == (4096, dtype, "a cited copy")
    assert facts.bytes_per_parameter == bytes_per_parameter
