"""What `vllm.extraArgs` set, read whole (settings/vllm_flags.py `check`), and each refusal's whole message.

The readings follow `vllm serve` v0.32.0's parser (vllm/engine/arg_utils.py, argparse: the last value of an option
counts; `-pp`, `-dp` are the short flags of `--pipeline-parallel-size` and `--data-parallel-size`); the GPUs one
server uses are pipeline x prefill context x data parallel per tensor parallel rank (vllm/config/parallel.py
`ParallelConfig.__post_init__`: world size; `create_engine_config`: one engine per data parallel rank on the node);
`CUDAGraphMode` reads a name in any case or the value 0, 1, 2 of NONE, PIECEWISE, FULL (vllm/config/compilation.py),
and `-O<n>` sets the mode of its level where the config does not (vllm/config/vllm.py `OPTIMIZATION_LEVEL_0x`: 0
NONE, 1 PIECEWISE, 2 and 3 FULL_AND_PIECEWISE).
"""

from __future__ import annotations

import pytest

from components.facts.cuda_graphs import CaptureSettings
from components.facts.vllm_parser import Problem
from components.settings import vllm_flags
from components.settings.vllm_flags import ExtraArgs

# Every sizing option at once: fp8 KV cache, half weights, 2 pipeline stages x 2 data parallel engines x 2 prefill
# context ranks = 8 GPUs per tensor parallel rank, expert parallel, 4096 tokens a step, a config override, and
# the weights loader at item 13 (`--load-format`).
EVERY_SIZING = [
    "--kv-cache-dtype", "fp8",
    "--dtype", "half",
    "-pp", "2",
    "-dp", "2",
    "--enable-expert-parallel",
    "--max-num-batched-tokens", "4096",
    "--hf-overrides", '{"max_position_embeddings": 65536}',
    "--load-format", "runai_streamer",
    "--prefill-context-parallel-size", "2",
]  # fmt: skip


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        pytest.param([], ExtraArgs((), 1), id="nothing set: vLLM's defaults"),
        pytest.param(
            EVERY_SIZING,
            ExtraArgs(
                (),
                8,
                kv_cache_dtype="fp8",
                overrides_hf_config=True,
                pipeline_parallel_size=2,
                loader_indexes=(13,),
                max_num_batched_tokens=4096,
                dtype="half",
                data_parallel_size=2,
                expert_parallel=True,
                capture=CaptureSettings(max_num_batched_tokens=4096),
            ),
            id="every sizing option",
        ),
        pytest.param(
            ["--model-loader-extra-config", "{}", "--enforce-eager", "--max-num-seqs", "64", "--max-num-seqs", "32"],
            ExtraArgs((), 1, loader_indexes=(0,), capture=CaptureSettings(enforce_eager=True, max_num_seqs=32)),
            id="loader config, eager, the last max-num-seqs",
        ),
        pytest.param(
            ["--data-parallel-size", "3", "--pipeline-parallel-size", "2", "--kv-cache-dtype", "auto"],
            ExtraArgs((), 6, kv_cache_dtype="auto", pipeline_parallel_size=2, data_parallel_size=3),
            id="3 data parallel x 2 stages: 6",
        ),
    ],
)
def test_what_the_extra_args_set_is_read_whole(items, expected):
    assert vllm_flags.check(items) == expected


@pytest.mark.parametrize(
    ("items", "capture"),
    [
        pytest.param(["-cc.cudagraph_mode=0"], CaptureSettings(mode="NONE"), id="mode 0: NONE"),
        pytest.param(["-cc.cudagraph_mode=1"], CaptureSettings(mode="PIECEWISE"), id="mode 1: PIECEWISE"),
        pytest.param(["-cc.cudagraph_mode=2"], CaptureSettings(mode="FULL"), id="mode 2: FULL"),
        pytest.param(["-cc.cudagraph_mode=piecewise"], CaptureSettings(mode="PIECEWISE"), id="a name in lower case"),
        pytest.param(["-O2"], CaptureSettings(mode="FULL_AND_PIECEWISE"), id="-O2"),
        pytest.param(["-O3"], CaptureSettings(mode="FULL_AND_PIECEWISE"), id="-O3"),
        pytest.param(["-O1", "-cc.cudagraph_mode=FULL"], CaptureSettings(mode="FULL"), id="the config over the level"),
        pytest.param(
            ["--performance-mode", "interactivity", "--max-cudagraph-capture-size", "48"],
            CaptureSettings(max_capture_size=48, performance_mode="interactivity"),
            id="interactivity and a cap",
        ),
        pytest.param(
            ["--cudagraph-capture-sizes", "1", "2", "4"], CaptureSettings(capture_sizes=(1, 2, 4)), id="the list flag"
        ),
        pytest.param(
            ["-cc.cudagraph_capture_sizes=[4, 8]", "-cc.max_cudagraph_capture_size=8"],
            CaptureSettings(max_capture_size=8, capture_sizes=(4, 8)),
            id="the list and the cap from the config",
        ),
    ],
)
def test_the_capture_settings_read_from_each_spelling(items, capture):
    assert vllm_flags.check(items).capture == capture


@pytest.mark.parametrize(
    ("items", "message"),
    [
        pytest.param(
            ["--api_key=k"],
            "secret flag in '--api_key' (read by vLLM as --api-key); allowed: no --api-key: it would be plain text "
            "in the pod spec and the state; set it with `pulumi config set --secret vllmApiKey <value>`",
            id="API key under another spelling",
        ),
        pytest.param(
            ["--hf-token", "hf_x"],
            "secret flag in '--hf-token'; allowed: no --hf-token: it would be plain text in the pod spec and the "
            "state; set it with `pulumi config set --secret hfToken <value>`",
            id="Hub token",
        ),
        pytest.param(
            ["-tp", "4"],
            "flag set by settings (read by vLLM as --tensor-parallel-size): '-tp'; allowed: other flags "
            "(--tensor-parallel-size comes from vllm.tensorParallelSize)",
            id="managed by settings",
        ),
        pytest.param(
            ["--headless"],
            "flag breaks the pod: '--headless'; allowed: other flags (a headless server starts no API server, so the "
            "Service and the probes find nothing)",
            id="breaks the pod",
        ),
        pytest.param(
            ["--host", "127.0.0.1"],
            "value '127.0.0.1' of --host; allowed: 0.0.0.0 or :: (every address: the Service and the probes reach "
            "the pod IP), or leave --host out",
            id="host on loopback",
        ),
        pytest.param(
            ["--distributed_executor_backend=ray"],
            "value 'ray' of --distributed-executor-backend (read by vLLM as --distributed-executor-backend); "
            "allowed: mp or uni (no Ray cluster and no external launcher: the server is one Deployment of "
            "single-node pods, with no peers to reach or ranks to assign)",
            id="Ray executor",
        ),
        pytest.param(
            ["-pp", "0"],
            "value '0' of --pipeline-parallel-size (read by vLLM as --pipeline-parallel-size); allowed: an integer "
            ">= 1",
            id="pipeline parallel 0",
        ),
        pytest.param(
            ["--data-parallel-size", "x"],
            "value 'x' of --data-parallel-size; allowed: an integer >= 1",
            id="data parallel not an integer",
        ),
    ],
)
def test_each_refusal_is_the_whole_message(items, message):
    assert vllm_flags.check(items).problems == (Problem(0, message),)


@pytest.mark.parametrize(
    "items",
    [
        pytest.param(["--host", "0.0.0.0"], id="host 0.0.0.0"),
        pytest.param(["--host", "::"], id="host ::"),
        pytest.param(["--distributed-executor-backend", "mp"], id="executor mp"),
        pytest.param(["--distributed-executor-backend", "uni"], id="executor uni"),
        pytest.param(["-pp", "1"], id="pipeline parallel 1"),
    ],
)
def test_the_values_the_pod_can_hold_pass(items):
    assert vllm_flags.check(items).problems == ()


def test_a_refused_factor_leaves_the_gpus_and_refusals_come_in_item_order():
    # The refused `-pp 0` counts no GPUs (1), the later `-dp 2` counts; the problems are sorted by item.
    read = vllm_flags.check(["--headless", "-pp", "0", "-dp", "2", "--hf-token", "x"])
    assert (read.gpu_factor, read.pipeline_parallel_size, read.data_parallel_size) == (2, 1, 2)
    assert [problem.index for problem in read.problems] == [0, 1, 5]
