"""The CUDA graphs a vLLM server captures at start and the seconds the cold start counts for them
(facts/cuda_graphs.py), worked by hand from the vllm 0.32.0 wheel's source:

- vllm/engine/arg_utils.py `get_batch_defaults` (the OpenAI server): under 70 GiB of GPU memory, or on an A100,
  max_num_seqs 256 and max_num_batched_tokens 2048; from 70 GiB 1024 and 8192; from 160 GiB 1024 and 16384;
  `--performance-mode throughput` doubles those it defaults (`_set_default_max_num_seqs_and_batched_tokens_args`).
- vllm/config/vllm.py `_set_cudagraph_sizes`: the default cap min(max_num_seqs x 2, 512) (1024 on compute capability
  10.x), then min(cap, max_num_batched_tokens); sizes [1, 2, 4] + range(8, min(cap + 1, 256), 8) + range(256,
  cap + 1, 16), with max_num_batched_tokens added when at most the cap, and max_num_seqs with the default cap; a
  given cap adds no max_num_seqs; a given list keeps its sizes up to max_num_batched_tokens; interactivity takes
  every size from 1 to min(cap, 32) instead of 1, 2, 4; `--enforce-eager` or cudagraph_mode NONE: none.
- vllm/v1/cudagraph_dispatcher.py `initialize_cudagraph_keys`: FULL_AND_PIECEWISE (the default, `-O2`) a piecewise
  graph per size and a full one per size at most max_num_seqs; PIECEWISE (`-O1`) one per size.
- the seconds: graphs / the default list's graphs on the GPU x 20 s (`capture_model`: "This usually takes 5~20
  seconds"; per shape: vllm-project/vllm#11349, vllm-project/vllm#20098).

The GPUs: g5.xlarge's A10G (22.5 GiB visible), p5.48xlarge's H100 (80 GiB), p4d.24xlarge's A100 (40 GiB),
p6-b200.48xlarge's B200 (179 GiB, compute capability 10.0).
"""

from __future__ import annotations

import pytest

from components.facts.cuda_graphs import (
    Capture,
    CaptureSettings,
    GpuDefaults,
    capture,
    capture_seconds,
    gpu_defaults,
    largest_at_or_below,
)

# A10G default: cap min(512, 512) = 512 (< 2048): 3 + 31 (8..248) + 17 (256..512) = 51 sizes; 256 is among them.
# Full: sizes at most 256: 3 + 31 + 1 = 35. 51 + 35 = 86.
A10G_DEFAULT = 86


@pytest.mark.parametrize(
    ("instance", "settings", "sizes", "graphs"),
    [
        # The dev stack's and the done-when stack's GPU, defaults: 51 sizes, 86 graphs (above).
        pytest.param("g5.xlarge", CaptureSettings(), 51, 86, id="A10G (g5.xlarge) defaults: 86"),
        pytest.param("g5.4xlarge", CaptureSettings(), 51, 86, id="A10G (g5.4xlarge) defaults: 86"),
        # Capped at 128: 3 + 16 (8..128) = 19 sizes, all at most 256: 19 + 19 = 38.
        pytest.param("g5.4xlarge", CaptureSettings(max_capture_size=128), 19, 38, id="A10G capped at 128: 38"),
        # Capped at 64: 3 + 8 = 11 sizes, 22 graphs.
        pytest.param("g5.xlarge", CaptureSettings(max_capture_size=64), 11, 22, id="A10G capped at 64: 22"),
        # max_num_seqs 32: default cap min(64, 512) = 64: 11 sizes; full for sizes at most 32: 3 + 4 (8..32) = 7: 18.
        pytest.param("g5.xlarge", CaptureSettings(max_num_seqs=32), 11, 18, id="A10G max-num-seqs 32: 18"),
        # max_num_batched_tokens 100 bounds the default cap: min(512, 100) = 100: 3 + 12 (8..96) = 15 and 100
        # itself (at most the cap) = 16 sizes; max_num_seqs 256 is above 100, so not added; all 16 at most 256: 32.
        pytest.param(
            "g5.xlarge", CaptureSettings(max_num_batched_tokens=100), 16, 32, id="A10G max-num-batched-tokens 100: 32"
        ),
        # H100 defaults: max_num_seqs 1024, cap min(2048, 512) = 512: 51 sizes, every one at most 1024: 102.
        pytest.param("p5.48xlarge", CaptureSettings(), 51, 102, id="H100 defaults: 102"),
        # A100 keeps the small defaults (256 and 2048) whatever its memory: as the A10G, 86.
        pytest.param("p4d.24xlarge", CaptureSettings(), 51, 86, id="A100 defaults: 86"),
        # B200: 1024 and 16384, cap min(2048, 1024) = 1024: 3 + 31 + 49 (256..1024 by 16) = 83 sizes, all full too.
        pytest.param("p6-b200.48xlarge", CaptureSettings(), 83, 166, id="B200 defaults: 166"),
        # Throughput mode on an A10G doubles max_num_seqs to 512 and the tokens to 4096: cap 512, 51 sizes; full
        # for all 51 (at most 512): 102.
        pytest.param(
            "g5.xlarge", CaptureSettings(performance_mode="throughput"), 51, 102, id="A10G throughput mode: 102"
        ),
        # Interactivity with a cap of 64: 1..32 (32) + 40..64 by 8 (4) = 36 sizes, 72 graphs.
        pytest.param(
            "g5.xlarge",
            CaptureSettings(max_capture_size=64, performance_mode="interactivity"),
            36,
            72,
            id="A10G interactivity capped at 64: 72",
        ),
        # A given list, one size above max_num_batched_tokens 2048 dropped: 1, 8, 300 kept; 300 above 256 has no
        # full graph: 3 + 2 = 5.
        pytest.param("g5.xlarge", CaptureSettings(capture_sizes=(1, 8, 300, 4096)), 3, 5, id="A10G given sizes: 5"),
        # PIECEWISE (-O1): one graph a size, 51.
        pytest.param("g5.xlarge", CaptureSettings(mode="PIECEWISE"), 51, 51, id="A10G piecewise: 51"),
        # FULL_DECODE_ONLY: the 35 decode sizes.
        pytest.param("g5.xlarge", CaptureSettings(mode="FULL_DECODE_ONLY"), 51, 35, id="A10G full decode only: 35"),
        # No graphs at all.
        pytest.param("g5.xlarge", CaptureSettings(enforce_eager=True), 0, 0, id="enforce-eager: none"),
        pytest.param("g5.xlarge", CaptureSettings(mode="NONE"), 0, 0, id="cudagraph_mode NONE: none"),
    ],
)
def test_graphs_captured_follow_vllms_sizes_and_mode(instance, settings, sizes, graphs):
    captured = capture(instance, settings)
    assert (len(captured.sizes), captured.graphs) == (sizes, graphs)


@pytest.mark.parametrize(
    ("instance", "settings", "seconds"),
    [
        # The default list is the upper figure itself.
        pytest.param("g5.4xlarge", CaptureSettings(), 20, id="A10G defaults: 20 s"),
        # 20 x 38 / 86 = 8.837.
        pytest.param("g5.4xlarge", CaptureSettings(max_capture_size=128), 8.837, id="A10G capped at 128: 8.837 s"),
        # On an H100 the same 38 graphs are a smaller share of its 102: 20 x 38 / 102 = 7.451.
        pytest.param("p5.48xlarge", CaptureSettings(max_capture_size=128), 7.451, id="H100 capped at 128: 7.451 s"),
        # Throughput mode captures more than the default: 20 x 102 / 86 = 23.721.
        pytest.param(
            "g5.xlarge", CaptureSettings(performance_mode="throughput"), 23.721, id="A10G throughput mode: 23.721 s"
        ),
        # --enforce-eager captures nothing: 0 s (and decodes every batch without a graph).
        pytest.param("g5.xlarge", CaptureSettings(enforce_eager=True), 0, id="enforce-eager: 0 s"),
    ],
)
def test_capture_seconds_scale_with_the_graphs_from_the_default_lists_twenty_seconds(instance, settings, seconds):
    assert capture_seconds(instance, settings)[0] == pytest.approx(seconds, abs=0.001)


def test_the_arithmetic_names_both_counts_and_the_gpu():
    arithmetic = capture_seconds("g5.4xlarge", CaptureSettings(max_capture_size=128))[1]
    assert arithmetic.startswith("38 graphs (19 sizes up to 128: 19 piecewise + 19 full, FULL_AND_PIECEWISE) x 20 s")
    assert f"A10G, {A10G_DEFAULT} graphs (51 sizes up to 512" in arithmetic


# The edges of `_set_cudagraph_sizes`' list on an A10G (max_num_seqs 256, max_num_batched_tokens 2048), worked by
# hand: [1, 2, 4] kept up to the cap, range(8, min(cap + 1, 256), 8), range(256, cap + 1, 16); the default cap adds
# max_num_seqs, a given cap does not; full graphs for the sizes at most max_num_seqs.
EDGES = [
    # A cap of 0 captures nothing: the list is empty (`if max_cudagraph_capture_size >= 1`), no graph at all.
    pytest.param(CaptureSettings(max_capture_size=0), (), 0, id="cap 0: nothing"),
    # Cap 1: [1]; a piecewise and a full graph.
    pytest.param(CaptureSettings(max_capture_size=1), (1,), 2, id="cap 1: [1]"),
    # Cap 3: 4 is above it: [1, 2].
    pytest.param(CaptureSettings(max_capture_size=3), (1, 2), 4, id="cap 3: [1, 2]"),
    # Cap 4 keeps 4; range(8, 5, 8) is empty.
    pytest.param(CaptureSettings(max_capture_size=4), (1, 2, 4), 6, id="cap 4: [1, 2, 4]"),
    # Cap 8: range(8, 9, 8) = [8].
    pytest.param(CaptureSettings(max_capture_size=8), (1, 2, 4, 8), 8, id="cap 8: up to 8"),
    # Cap 256: 8..248 by 8 (31), then range(256, 257, 16) = [256]: 35 sizes, all decode sizes (<= 256): 70.
    pytest.param(
        CaptureSettings(max_capture_size=256), (1, 2, 4, *range(8, 256, 8), 256), 70, id="cap 256: 256 by the 16s"
    ),
    # Cap 271: range(256, 272, 16) = [256] only: 35 sizes again, 70 graphs.
    pytest.param(
        CaptureSettings(max_capture_size=271), (1, 2, 4, *range(8, 256, 8), 256), 70, id="cap 271: 272 is above it"
    ),
    # max_num_seqs 100: the default cap min(200, 512) = 200: 1, 2, 4, 8..200 (25) and 100 itself: 29 sizes;
    # full for 1, 2, 4, 8..96 (12) and 100: 16. 29 + 16 = 45.
    pytest.param(
        CaptureSettings(max_num_seqs=100),
        tuple(sorted({1, 2, 4, *range(8, 201, 8), 100})),
        45,
        id="max-num-seqs 100: 100 added to the default cap's list",
    ),
    # The same with a given cap of 200: no max_num_seqs added: 28 sizes, 15 full: 43.
    pytest.param(
        CaptureSettings(max_capture_size=200, max_num_seqs=100),
        (1, 2, 4, *range(8, 201, 8)),
        43,
        id="a given cap adds no max-num-seqs",
    ),
    # max_num_seqs 300: the default cap min(600, 512) = 512: 51 sizes and 300: 52; full for 1, 2, 4, 8..248 (31),
    # 256, 272, 288 and 300: 38. 52 + 38 = 90.
    pytest.param(
        CaptureSettings(max_num_seqs=300),
        tuple(sorted({1, 2, 4, *range(8, 256, 8), *range(256, 513, 16), 300})),
        90,
        id="max-num-seqs 300: the cap stops at 512",
    ),
    # A given list keeps a size equal to max_num_batched_tokens (2048); above max_num_seqs, no full graph.
    pytest.param(CaptureSettings(capture_sizes=(2048, 2049)), (2048,), 1, id="given sizes: 2048 kept, 2049 not"),
    # Throughput mode doubles the default max_num_batched_tokens to 4096: a given 4096 is kept, 4097 not.
    pytest.param(
        CaptureSettings(capture_sizes=(4096, 4097), performance_mode="throughput"),
        (4096,),
        1,
        id="throughput: 4096 tokens keep 4096",
    ),
    # Throughput mode doubles the default max_num_seqs to 512: a given 512 gets a full graph too, 600 does not.
    pytest.param(
        CaptureSettings(capture_sizes=(512, 600), performance_mode="throughput"),
        (512, 600),
        3,
        id="throughput: 512 sequences decode up to 512",
    ),
    # Throughput mode doubles only what it defaults: max_num_seqs 32 stays 32 (cap 64: 11 sizes, 7 full).
    pytest.param(
        CaptureSettings(max_num_seqs=32, performance_mode="throughput"),
        (1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64),
        18,
        id="throughput keeps a given max-num-seqs",
    ),
    # Interactivity under 32: every size from 1 to the cap, 16: 16 sizes, 32 graphs.
    pytest.param(
        CaptureSettings(max_capture_size=16, performance_mode="interactivity"),
        tuple(range(1, 17)),
        32,
        id="interactivity capped at 16: 1..16",
    ),
    # FULL: a full graph per size, mixed batches too (`initialize_cudagraph_keys`): 51.
    pytest.param(
        CaptureSettings(mode="FULL"), (1, 2, 4, *range(8, 256, 8), *range(256, 513, 16)), 51, id="FULL: one a size"
    ),
]


@pytest.mark.parametrize(("settings", "sizes", "graphs"), EDGES)
def test_the_capture_lists_edges_on_an_a10g(settings, sizes, graphs):
    captured = capture("g5.xlarge", settings)
    assert (captured.sizes, captured.graphs) == (sizes, graphs)


@pytest.mark.parametrize(
    ("instance", "defaults"),
    [
        # An instance type the catalog does not know: vLLM's defaults when it cannot read the device.
        pytest.param("m5.large", GpuDefaults(256, 2048, 512, "an unknown GPU"), id="unknown: 256, 2048, 512"),
        pytest.param("g6.xlarge", GpuDefaults(256, 2048, 512, "L4"), id="L4 (24 GiB): 256, 2048, 512"),
        # An 80 GiB A100 keeps the small defaults: `get_batch_defaults` leaves the A100 out of the 70 GiB row.
        pytest.param("p4de.24xlarge", GpuDefaults(256, 2048, 512, "A100"), id="A100 80 GiB: 256, 2048, 512"),
        pytest.param("p5.48xlarge", GpuDefaults(1024, 8192, 512, "H100"), id="H100 (80 GiB): 1024, 8192, 512"),
        # The RTX PRO 6000 is Blackwell but compute capability 12.0, not a data-centre 10.x: the cap stays 512.
        pytest.param(
            "g7e.2xlarge", GpuDefaults(1024, 8192, 512, "RTX PRO 6000"), id="RTX PRO 6000 (96 GiB, 12.0): 512"
        ),
        # B300: 268 GiB and compute capability 10.3: 1024, 16384 and the Blackwell cap 1024.
        pytest.param("p6-b300.48xlarge", GpuDefaults(1024, 16384, 1024, "B300"), id="B300 (10.3): 1024"),
    ],
)
def test_vllms_defaults_on_each_gpu(instance, defaults):
    assert gpu_defaults(instance) == defaults


def test_no_capture_is_mode_none_whatever_turned_it_off():
    assert capture("g5.xlarge", CaptureSettings(enforce_eager=True)) == Capture((), 0, 0, "NONE")
    assert capture("g5.xlarge", CaptureSettings(mode="NONE", max_capture_size=64)) == Capture((), 0, 0, "NONE")


@pytest.mark.parametrize(
    ("settings", "described"),
    [
        pytest.param(CaptureSettings(enforce_eager=True), "no CUDA graphs", id="enforce-eager"),
        pytest.param(CaptureSettings(max_capture_size=0), "no CUDA graphs", id="cap 0"),
        pytest.param(
            CaptureSettings(mode="PIECEWISE"), "51 graphs (51 sizes up to 512: 51 piecewise, PIECEWISE)", id="piecewise"
        ),
        pytest.param(
            CaptureSettings(mode="FULL_DECODE_ONLY"),
            "35 graphs (51 sizes up to 512: 35 full, FULL_DECODE_ONLY)",
            id="full decode only",
        ),
        pytest.param(
            CaptureSettings(max_capture_size=4),
            "6 graphs (3 sizes up to 4: 3 piecewise + 3 full, FULL_AND_PIECEWISE)",
            id="cap 4",
        ),
    ],
)
def test_a_capture_is_described_by_its_counts_and_mode(settings, described):
    assert capture("g5.xlarge", settings).describe() == described


def test_the_default_list_is_the_upper_figure_and_says_so():
    assert capture_seconds("g5.xlarge", CaptureSettings()) == (
        20,
        "vLLM's default on A10G, 86 graphs (51 sizes up to 512: 51 piecewise + 35 full, FULL_AND_PIECEWISE): the "
        "upper figure",
    )


def test_the_same_sizes_with_fewer_graphs_are_scaled_not_the_upper_figure():
    # PIECEWISE keeps the default's 51 sizes but captures 51 graphs, not 86: 20 x 51 / 86 = 11.860 s.
    seconds, arithmetic = capture_seconds("g5.xlarge", CaptureSettings(mode="PIECEWISE"))
    assert seconds == pytest.approx(11.860, abs=0.001)
    assert arithmetic == (
        "51 graphs (51 sizes up to 512: 51 piecewise, PIECEWISE) x 20 s / vLLM's default on A10G, 86 graphs (51 sizes "
        "up to 512: 51 piecewise + 35 full, FULL_AND_PIECEWISE)"
    )


def test_an_unknown_gpu_is_scaled_against_the_defaults_vllm_takes_without_the_device():
    # 38 graphs with the cap at 128 over the 86 of the small defaults: 20 x 38 / 86 = 8.837 s.
    seconds, arithmetic = capture_seconds("m5.large", CaptureSettings(max_capture_size=128))
    assert seconds == pytest.approx(8.837, abs=0.001)
    assert arithmetic == (
        "38 graphs (19 sizes up to 128: 19 piecewise + 19 full, FULL_AND_PIECEWISE) x 20 s / vLLM's default on an "
        "unknown GPU, 86 graphs (51 sizes up to 512: 51 piecewise + 35 full, FULL_AND_PIECEWISE)"
    )


@pytest.mark.parametrize(
    ("settings", "user_set"),
    [
        pytest.param(CaptureSettings(), None, id="nothing set"),
        pytest.param(CaptureSettings(mode="PIECEWISE", max_num_seqs=8), None, id="a mode and max-num-seqs: not a cap"),
        # The first reason that holds names it: --enforce-eager before the mode, the mode before a list or a cap.
        pytest.param(
            CaptureSettings(enforce_eager=True, mode="NONE"), "--enforce-eager (no CUDA graphs)", id="enforce-eager"
        ),
        pytest.param(
            CaptureSettings(mode="NONE", capture_sizes=(1,)), "cudagraph_mode NONE (no CUDA graphs)", id="mode NONE"
        ),
        pytest.param(
            CaptureSettings(capture_sizes=(1, 2), max_capture_size=64),
            "the capture sizes (cudagraph_capture_sizes)",
            id="sizes",
        ),
        pytest.param(CaptureSettings(max_capture_size=64), "the capture cap (64)", id="cap 64"),
        pytest.param(CaptureSettings(max_capture_size=0), "the capture cap (0)", id="cap 0 is set too"),
    ],
)
def test_what_the_arguments_choose_of_the_capture_themselves(settings, user_set):
    assert settings.user_set == user_set


@pytest.mark.parametrize(("limit", "size"), [(1, 1), (3, 2), (4, 4), (7, 4), (8, 8), (100, 96), (300, 288)])
def test_the_largest_size_of_vllms_list_at_or_below_a_limit(limit, size):
    # vLLM's list: 1, 2, 4, every 8 below 256 (96 the last under 100), every 16 from 256 (288 the last under 300).
    assert largest_at_or_below(limit) == size
