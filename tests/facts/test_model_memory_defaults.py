"""vLLM's defaults the fits gate assumes when a server does not set them (components/facts/model_memory.py),
each stated from vLLM's source at the pinned v0.32.0."""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog, model_catalog
from components.facts.model_memory import ServedModel, default_max_num_batched_tokens, default_max_num_seqs, model_fit


@pytest.mark.parametrize(
    ("gpu_memory_gib", "gpu_model", "tokens"),
    [
        # 70 GiB or more but an A100: the smaller default, whatever the spelling of the name.
        pytest.param(80, "NVIDIA A100", 2048, id="a100-80gb"),
        pytest.param(80, "nvidia-a100-sxm4-80gb", 2048, id="a100-lower-case"),
        pytest.param(80, "NVIDIA H100", 8192, id="h100"),
        pytest.param(70, "NVIDIA H100", 8192, id="at-70-gib"),
        pytest.param(48, "NVIDIA L40S", 2048, id="l40s"),
        pytest.param(160, "NVIDIA A100", 16384, id="from-160-gib-even-an-a100"),
    ],
)
def test_the_servers_default_batched_tokens_follow_vllms_rule_on_the_gpu(gpu_memory_gib, gpu_model, tokens):
    """vLLM, vllm/engine/arg_utils.py `get_batch_defaults` (its tiers since v0.28.0, vllm commit 4988df2e, and at
    the pinned v0.32.0; tests/engine/test_arg_utils.py checks the same rule): for the OpenAI server, 16384 tokens on
    a device of at least 160 GiB; 8192 on one of at least 70 GiB whose lower-cased name has no "a100" (an A100
    "reduces throughput" with the larger batch, vLLM PR #17885); else 2048."""
    assert default_max_num_batched_tokens(gpu_memory_gib, gpu_model) == tokens


@pytest.mark.parametrize(
    ("gpu_memory_gib", "gpu_model", "sequences"),
    [
        pytest.param(80, "NVIDIA H100", 1024, id="h100"),
        pytest.param(80, "NVIDIA A100", 256, id="a100-80gb"),
        pytest.param(48, "NVIDIA L40S", 256, id="l40s"),
        pytest.param(160, "NVIDIA A100", 1024, id="from-160-gib-even-an-a100"),
    ],
)
def test_the_servers_default_sequences_follow_vllms_rule_on_the_gpu(gpu_memory_gib, gpu_model, sequences):
    """`get_batch_defaults` at v0.32.0 (as above): `max_num_seqs` 1024 where the tokens' default is 8192 or 16384,
    else 256."""
    assert default_max_num_seqs(gpu_memory_gib, gpu_model) == sequences


NUMBERS = (
    "usableGiBPerGpu",
    "weightsGiBPerGpu",
    "kvGiBPerSequencePerGpu",
    "reserveGiBPerGpu",
    "activationGiBPerGpu",
    "encoderGiBPerGpu",
    "marginGiB",
    "sequencesAtMaxModelLen",
)


def test_a_row_not_checked_writes_no_figures_in_the_plans_document():
    served = ServedModel("acme/x", "gpu", 1, 4096, 0.9, None)

    row = model_fit(served, gpu_catalog.lookup("g6.xlarge"), "g6.xlarge").to_dict()

    assert (row["name"], row["pool"], row["instanceType"], row["fits"]) == ("acme/x", "gpu", "g6.xlarge", None)
    assert [row[key] for key in NUMBERS] == [None] * len(NUMBERS)


def test_a_checked_row_names_its_model_pool_and_instance_type():
    served = ServedModel(
        "Qwen/Qwen2.5-7B-Instruct", "gpu-a", 1, 4096, 0.9, model_catalog.lookup("Qwen/Qwen2.5-7B-Instruct")
    )

    row = model_fit(served, gpu_catalog.lookup("g6e.xlarge"), "g6e.xlarge")

    assert (row.name, row.pool, row.instance_type, row.fits) == (
        "Qwen/Qwen2.5-7B-Instruct",
        "gpu-a",
        "g6e.xlarge",
        True,
    )


def test_the_margin_is_what_one_sequence_leaves_after_weights_and_reserve():
    """`margin_gib`: usable memory less the weights, the reserve and one sequence of `max_model_len` (ModelFit)."""
    served = ServedModel(
        "Qwen/Qwen2.5-7B-Instruct", "gpu", 1, 4096, 0.9, model_catalog.lookup("Qwen/Qwen2.5-7B-Instruct")
    )

    row = model_fit(served, gpu_catalog.lookup("g6e.xlarge"), "g6e.xlarge")

    parts = (row.usable_gib_per_gpu, row.weights_gib_per_gpu, row.reserve_gib_per_gpu, row.kv_gib_per_sequence_per_gpu)
    usable, weights, reserve, kv = parts
    assert row.margin_gib == pytest.approx(usable - weights - reserve - kv)


def test_a_row_on_an_instance_type_outside_the_catalog_names_its_model():
    served = ServedModel(
        "Qwen/Qwen2.5-7B-Instruct", "gpu", 1, 4096, 0.9, model_catalog.lookup("Qwen/Qwen2.5-7B-Instruct")
    )

    row = model_fit(served, None, "x9.large")

    assert (row.name, row.pool, row.instance_type, row.fits) == ("Qwen/Qwen2.5-7B-Instruct", "gpu", "x9.large", None)
    assert row.reason == "not checked: instance type x9.large is not a GPU type of the catalog"
