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

from components.facts.cuda_graphs import CaptureSettings, capture, capture_seconds

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
