"""`coldStart: fast` caps the CUDA graphs vLLM captures at start with `--max-cudagraph-capture-size` (vllm 0.32.0
vllm/engine/arg_utils.py, the compilation group: the flag, or `max_cudagraph_capture_size` of `--compilation-config`,
the two refused together); the cap is the largest size of vLLM's list (1, 2, 4, then every 8 below 256: vllm/config/
vllm.py `_set_cudagraph_sizes`) at or below 128, or at or below `--max-num-seqs` when smaller. What `vllm.extraArgs`
set for the capture is read as vLLM reads it, and kept: the profile adds no second cap."""

from __future__ import annotations

import pytest

from components.facts.cuda_graphs import CaptureSettings
from components.settings import VllmSettings, vllm_flags
from components.settings.cold_start_profile import fast_server
from components.settings.stack import parse_settings
from components.stackcheck.plan.cold_start_trade import cold_start_trades
from tests.support.vllm_server import server_container

FLAG = "--max-cudagraph-capture-size"
READINGS = [
    (["--max-cudagraph-capture-size", "64"], CaptureSettings(max_capture_size=64)),
    (["-cc.max_cudagraph_capture_size=32"], CaptureSettings(max_capture_size=32)),
    (["--compilation-config", '{"cudagraph_capture_sizes": [1, 8]}'], CaptureSettings(capture_sizes=(1, 8))),
    (["--cudagraph-capture-sizes", "1", "2", "4"], CaptureSettings(capture_sizes=(1, 2, 4))),
    (["--enforce-eager"], CaptureSettings(enforce_eager=True)),
    (["-O0"], CaptureSettings(mode="NONE")),
    (["-O", "1"], CaptureSettings(mode="PIECEWISE")),
    # The config's cudagraph_mode wins over the level's (the level fills only what the config leaves unset).
    (["-O0", "-cc.cudagraph_mode=full_decode_only"], CaptureSettings(mode="FULL_DECODE_ONLY")),
    (
        ["--max-num-seqs", "48", "--max-num-batched-tokens", "4k"],
        CaptureSettings(max_num_seqs=48, max_num_batched_tokens=4000),
    ),
    (["--performance-mode", "throughput"], CaptureSettings(performance_mode="throughput")),
]


@pytest.mark.parametrize(("args", "expected"), READINGS, ids=[" ".join(args) for args, _ in READINGS])
def test_the_capture_settings_are_read_from_extra_args_as_vllm_reads_them(args, expected):
    assert vllm_flags.check(args).capture == expected


@pytest.mark.parametrize(
    ("extra_args", "cap"),
    [
        pytest.param([], 128, id="no extra args: 128"),
        # A decode batch is never above max_num_seqs: 48 is on vLLM's list (every 8 below 256).
        pytest.param(["--max-num-seqs", "48"], 48, id="max-num-seqs 48: 48"),
        # 100 is not: the largest size at or below it is 96.
        pytest.param(["--max-num-seqs", "100"], 96, id="max-num-seqs 100: 96"),
        # 3 is not either: 1, 2, 4 give 2.
        pytest.param(["--max-num-seqs=3"], 2, id="max-num-seqs 3: 2"),
        pytest.param(["--max-num-seqs", "512"], 128, id="max-num-seqs 512: 128"),
    ],
)
def test_the_fast_profile_caps_the_capture_at_128_or_the_largest_size_within_max_num_seqs(extra_args, cap):
    server, chose, _ = fast_server(VllmSettings(extra_args=extra_args))
    assert server.extra_args == [*extra_args, FLAG, str(cap)]
    assert f"CUDA graphs captured for batches of up to {cap} tokens, a decode step of up to {cap} requests" in " ".join(
        chose
    )
    assert "a larger batch runs without a CUDA graph, its decode slower" in " ".join(chose)


@pytest.mark.parametrize(
    "extra_args",
    [
        pytest.param(["--max-cudagraph-capture-size", "256"], id="--max-cudagraph-capture-size 256"),
        pytest.param(["-cc.max_cudagraph_capture_size=256"], id="-cc.max_cudagraph_capture_size=256"),
        pytest.param(["--cudagraph-capture-sizes", "1", "2"], id="--cudagraph-capture-sizes 1 2"),
        pytest.param(["--enforce-eager"], id="--enforce-eager"),
        pytest.param(["-O0"], id="-O0"),
    ],
)
def test_a_capture_the_extra_args_choose_is_kept_and_named_as_out_of_the_profiles_reach(extra_args):
    server, chose, could_not = fast_server(VllmSettings(extra_args=extra_args))
    assert server.extra_args == extra_args
    assert not any(item.startswith("CUDA graphs captured") for item in chose)
    assert any(item.startswith("capping the CUDA graphs captured: vllm.extraArgs set") for item in could_not)


def test_choosing_again_from_the_profiles_own_settings_changes_nothing():
    once, chose, _ = fast_server(VllmSettings())
    twice, chose_again, could_not = fast_server(once)
    assert twice.extra_args == once.extra_args == [FLAG, "128"]
    assert chose_again == chose and could_not == [
        "weights streamed from S3: the model reads the Hub (vllm.source.type: s3)"
    ]


def test_the_registered_server_args_carry_the_cap_only_under_the_fast_profile(dev_run):
    # The fast pool's registered args are checked in tests/plan/test_cold_start_profile.py; the dev stack's pool
    # (coldStart default) registers vLLM's own capture.
    assert FLAG not in server_container(dev_run)["args"]


def test_enforce_eager_in_the_extra_args_counts_no_capture_in_the_fast_profile():
    """A Karpenter Bottlerocket g5.4xlarge pool with its image on a snapshot, weights from S3 (the figures of
    tests/plan/test_cold_start_trade.py): the fast profile's 172.47 s counts 8.84 s of CUDA graphs (38 graphs);
    with `--enforce-eager` vLLM captures none (vllm/config/vllm.py `_set_cudagraph_sizes` empties the list): 0 s,
    172.47 - 8.84 = 163.64 s, and the profile says it left the capture as set."""
    pool = {
        "instanceTypes": ["g5.4xlarge"],
        "provisioner": "karpenter",
        "amiFamily": "Bottlerocket",
        "imageCache": "snapshot",
        "snapshotId": "snap-0123456789abcdef0",
    }
    model = {"model": "Qwen/Qwen2.5-7B-Instruct", "source": {"type": "s3"}, "extraArgs": ["--enforce-eager"]}
    [trade] = cold_start_trades(parse_settings({"gpuNodeGroup": pool, "vllm": model}), [], "us-east-1", None)
    fast = trade.options[1]
    assert fast.seconds == pytest.approx(163.64, abs=0.01)
    assert "capping the CUDA graphs captured: vllm.extraArgs set --enforce-eager (no CUDA graphs), kept as set" in (
        fast.could_not
    )
