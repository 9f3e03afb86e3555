"""The cold-start estimate: each served model's start from a pending pod, step by step from the dated figures of
facts/cold_start_figures.py and facts/instance_io.py, the plan's Cold start section and JSON `coldStart`, and
`cold-start-fits-its-budget` against the registered startup probe and the autoscaler's maxNodeProvisionTime.

The expected seconds are worked here from the sources, not from the code:

- the dev stack's Qwen2.5-7B-Instruct is 7.61e9 parameters in bf16 (model catalog): 15.22 GB;
- g5.xlarge: network baseline 2.5 Gbps = 312.5 MB/s (AWS docs via Karpenter v1.14.1), EBS baseline 700 Mbps =
  87.5 MB/s (instances.vantage.sh data, tsaol/aws-gpu at 4480bff8); gp3 includes 125 MiB/s = 131.07 MB/s, so the
  disk moves 87.5 MB/s;
- the vLLM image: 12 GB compressed (vllm-project/vllm#27154), 28.6 GB unpacked (vllm-project/vllm#22377); a plain
  pull 15 GB in 6 minutes = 41.67 MB/s (AWS ML Blog, SOCI on DLAMI);
- the Hub 261.1 MB/s (Hugging Face's benchmark), the default loader 16.06 GB in 47.99 s = 334.7 MB/s (NVIDIA);
- one S3 connection 85 MB/s (AWS S3 performance whitepaper), the streamer's default 8 connections (run-ai/
  runai-model-streamer 0.15.7 config.cc);
- published seconds: scan interval 10, Karpenter's idle batch 1, launch 180 (Cluster Autoscaler) or 60
  (Karpenter), device plugin 60, vLLM start 19, memory profiling 1.46, torch.compile 45 (8 with its cache), CUDA
  graphs 20, probe periods 10 + 10.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from components.facts import cold_start, cold_start_figures
from components.facts.cold_start import ColdStart, Start, cold_start_steps, concurrency_for
from components.facts.cuda_graphs import CaptureSettings
from components.facts.identity import PROJECT
from components.placement.cold_start import cold_start_verdict
from components.placement.evidence import Evidence
from components.placement.verdicts import VERDICTS
from components.stackcheck.__main__ import main
from tests.conftest import dev_stack_config, merge

ROOT = Path(__file__).resolve().parents[2]
QWEN_7B_BYTES = 7.61e9 * 2
DISK = 700e6 / 8  # g5.xlarge's EBS baseline, under gp3's 125 MiB/s
NETWORK = 2.5e9 / 8
G5 = {"instance": "g5.xlarge", "network_baseline_gbps": 2.5, "weights_bytes": QWEN_7B_BYTES}


def plan(capsys, tmp_path, overrides: dict | None = None, fmt: str = "json", stack_file: Path | None = None):
    """Plan the dev stack with `overrides` merged into its config (or `stack_file`); exit code and stdout."""
    if stack_file is None:
        stack_file = tmp_path / "Pulumi.cold.yaml"
        config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), overrides or {}).items()}
        stack_file.write_text(yaml.safe_dump({"config": {"aws:region": "us-west-2", **config}}))
    args = ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "out")]
    code = main([*args, "--format", fmt])
    return code, capsys.readouterr().out


def verdict(document: dict) -> dict:
    [found] = [item for item in document["verdicts"] if item["name"] == "cold-start-fits-its-budget"]
    return found


def seconds(steps) -> dict[str, float]:
    return {step.name: round(step.seconds, 2) for step in steps}


# Each row: what shapes the start, then every step's seconds as the sources give them.
STEP_TABLE = [
    pytest.param(
        {},
        {
            "provisioner decision": 10,
            "instance launch and join": 180,
            "device plugin registers nvidia.com/gpu": 60,
            # The longer of 12 GB at 41.67 MB/s (288 s) and 40.6 GB written at 87.5 MB/s (464 s).
            "image on the node": round(40.6e9 / DISK, 2),
            "vLLM process start and engine init": 19,
            # 15.22 GB at the lowest of the Hub 261.1, the network 312.5 and the disk 87.5 MB/s: 173.94 s.
            "weights download": round(QWEN_7B_BYTES / DISK, 2),
            # Read back at the lower of the loader's 334.7 and the disk's 87.5 MB/s.
            "weights load": round(QWEN_7B_BYTES / DISK, 2),
            "memory profiling": 1.46,
            "torch.compile": 45,
            "CUDA graph capture": 20,
            "probes notice the server": 20,
        },
        id="dev-stack-node-group-al2023-hub",
    ),
    pytest.param(
        {"provisioner": "karpenter", "ami_family": "Bottlerocket", "source": "s3"},
        {
            "provisioner decision": 1,
            "instance launch and join": 60,
            "device plugin registers nvidia.com/gpu": 60,
            "image on the node": round(40.6e9 / DISK, 2),
            "vLLM process start and engine init": 19,
            # 8 connections x 85 MB/s = 680 MB/s, over the network's 312.5: 48.7 s.
            "weights stream from S3 to the GPUs": round(QWEN_7B_BYTES / NETWORK, 2),
            "memory profiling": 1.46,
            "torch.compile": 45,
            "CUDA graph capture": 20,
            "probes notice the server": 20,
        },
        id="karpenter-bottlerocket-s3",
    ),
    pytest.param(
        {"image_cache": "soci", "volume_throughput_mibps": 600, "instance": "g5.4xlarge", "network_baseline_gbps": 10},
        {
            "provisioner decision": 10,
            "instance launch and join": 180,
            "device plugin registers nvidia.com/gpu": 60,
            # SOCI: 12 GB at 83.33 MB/s = 144 s; the disk: 600 MiB/s = 629.1 MB/s under g5.4xlarge's 593.75 MB/s
            # EBS baseline, 40.6 GB in 68.4 s. The pull is the longer.
            "image on the node": 144,
            "vLLM process start and engine init": 19,
            # The Hub's 261.1 MB/s is now the lowest (network 1250, disk 593.75, internet 625).
            "weights download": round(QWEN_7B_BYTES / 261.1e6, 2),
            "weights load": round(QWEN_7B_BYTES / (8.03e9 * 2 / 47.99), 2),
            "memory profiling": 1.46,
            "torch.compile": 45,
            "CUDA graph capture": 20,
            "probes notice the server": 20,
        },
        id="soci-on-a-g5-4xlarge",
    ),
    pytest.param(
        {
            "provisioner": "karpenter",
            "ami_family": "Bottlerocket",
            "image_cache": "snapshot",
            "fast_snapshot_restore": True,
            "source": "s3",
            "concurrency": 4,
            "compile_cache": True,
            "startup_period": 1,
            "readiness_period": 1,
        },
        {
            "provisioner decision": 1,
            "instance launch and join": 60,
            "device plugin registers nvidia.com/gpu": 60,
            "image on the node": 0,
            "vLLM process start and engine init": 19,
            # 4 x 85 = 340 MB/s, over the network's 312.5.
            "weights stream from S3 to the GPUs": round(QWEN_7B_BYTES / NETWORK, 2),
            "memory profiling": 1.46,
            "torch.compile": 8,
            "CUDA graph capture": 20,
            "probes notice the server": 2,
        },
        id="fast-profile",
    ),
    pytest.param(
        {"warm": True, "source": "s3", "compile_cache": True, "startup_period": 1, "readiness_period": 1},
        {
            "placeholder preempted": 0,
            "image on the node": 0,
            "vLLM process start and engine init": 19,
            "weights stream from S3 to the GPUs": round(QWEN_7B_BYTES / NETWORK, 2),
            "memory profiling": 1.46,
            "torch.compile": 8,
            "CUDA graph capture": 20,
            "probes notice the server": 2,
        },
        id="warm-node",
    ),
]


@pytest.mark.parametrize(("given", "expected"), STEP_TABLE)
def test_each_step_is_its_size_over_its_lowest_rate_or_its_published_seconds(given, expected):
    steps, missing = cold_start_steps(Start(**{**G5, **given}))

    assert seconds(steps) == pytest.approx(expected, abs=0.01)
    assert missing == []
    assert all(step.source for step in steps)


def test_the_fast_profile_on_a_g5_xlarge_misses_three_minutes_and_the_warm_node_a_minute_and_a_half():
    """The fast profile caps the CUDA graphs at 128 (vllm 0.32.0 `_set_cudagraph_sizes`: 1, 2, 4, 8..128 by 8, 19
    sizes, each captured piecewise and, at most the A10G's default max_num_seqs 256, full: 38 graphs, against the
    default list's 86 at 20 s: 20 x 38 / 86 = 8.84 s). 1 + 60 + 60 + 0 + 19 + 48.7 + 1.46 + 8 + 8.84 + 2 = 209.0 s;
    warm: 0 + 0 + 19 + 48.7 + 1.46 + 8 + 8.84 + 2 = 88.0 s. On a g5.4xlarge (10 Gbps, concurrency 15 = 1275 MB/s
    over 1250) the weights take 12.18 s: 172.47 s and 51.47 s."""
    fast = {"provisioner": "karpenter", "ami_family": "Bottlerocket", "image_cache": "snapshot", "source": "s3"}
    fast |= {"fast_snapshot_restore": True, "compile_cache": True, "startup_period": 1, "readiness_period": 1}
    fast |= {"capture": CaptureSettings(max_capture_size=128)}
    small = sum(step.seconds for step in cold_start_steps(Start(**{**G5, **fast}))[0])
    large = Start(**{**G5, **fast, "instance": "g5.4xlarge", "network_baseline_gbps": 10, "concurrency": 15})
    warm = Start(
        **{**G5, **fast, "instance": "g5.4xlarge", "network_baseline_gbps": 10, "concurrency": 15, "warm": True}
    )

    assert small == pytest.approx(209.0, abs=0.01)
    assert sum(step.seconds for step in cold_start_steps(large)[0]) == pytest.approx(172.47, abs=0.01)
    assert sum(step.seconds for step in cold_start_steps(warm)[0]) == pytest.approx(51.47, abs=0.01)


@pytest.mark.parametrize(
    ("source", "inside"),
    [
        (
            "huggingface",
            [
                "vLLM process start and engine init",
                "weights download",
                "weights load",
                "memory profiling",
                "torch.compile",
                "CUDA graph capture",
            ],
        ),
        # The streamer fetches from S3 once the server container runs: its stream is the probe's to allow.
        (
            "s3",
            [
                "vLLM process start and engine init",
                "weights stream from S3 to the GPUs",
                "memory profiling",
                "torch.compile",
                "CUDA graph capture",
            ],
        ),
    ],
    ids=["huggingface", "s3"],
)
def test_the_probe_covers_the_steps_after_the_container_starts_and_not_the_node_or_the_pull(source, inside):
    steps, _ = cold_start_steps(Start(**G5, source=source))

    assert [step.name for step in steps if step.in_probe] == inside


@pytest.mark.parametrize(("gbps", "connections"), [(2.5, 4), (5, 8), (10, 15), (100, 148), (3200, 256), (None, None)])
def test_the_streamer_concurrency_fills_the_baseline_one_connection_per_85_mb_s(gbps, connections):
    # 312.5 / 85 = 3.7 -> 4; 625 / 85 = 7.4 -> 8; 1250 / 85 = 14.7 -> 15; 12500 / 85 = 147.1 -> 148; capped at 256.
    assert concurrency_for(gbps) == connections


def test_the_probe_covers_vllms_steps_and_not_the_node_the_image_or_the_probes_periods():
    steps, _ = cold_start_steps(Start(**G5))

    assert [step.name for step in steps if step.in_probe] == [
        "vLLM process start and engine init",
        "weights download",
        "weights load",
        "memory profiling",
        "torch.compile",
        "CUDA graph capture",
    ]


def test_a_lazily_restored_snapshot_is_left_out_and_says_why():
    steps, missing = cold_start_steps(Start(**G5, ami_family="Bottlerocket", image_cache="snapshot"))

    assert "image on the node" not in [step.name for step in steps]
    assert len(missing) == 1 and "first access" in missing[0] and "fluctuates" in missing[0]


def test_an_unknown_image_and_model_leave_their_steps_out_and_say_so():
    steps, missing = cold_start_steps(Start(image="vllm/vllm-openai:v0.99.0"))

    assert "image on the node" not in [step.name for step in steps]
    assert len(missing) == 2
    assert "vllm/vllm-openai:v0.99.0" in missing[0] and "model's size is unknown" in missing[1]


def test_a_hub_download_faster_than_the_internet_gateway_allows_is_bounded_by_5_gbps(monkeypatch):
    fast = cold_start_figures.Figure(2e9, "B/s", "a faster Hub")
    monkeypatch.setattr(cold_start_figures, "WEIGHTS_RATE", {"huggingface": fast})
    start = Start(
        instance="p5.48xlarge", network_baseline_gbps=3200, weights_bytes=QWEN_7B_BYTES, volume_throughput_mibps=1000
    )

    [download] = [step for step in cold_start_steps(start)[0] if step.name == "weights download"]
    # 1000 MiB/s = 1048.6 MB/s on the volume; the internet gateway's 625 MB/s is lower.
    assert download.seconds == pytest.approx(QWEN_7B_BYTES / (5e9 / 8))
    assert "5 Gbps" in download.source


def entry(allowance: float | None = 1800, provision: float | None = 1200, from_zero: bool = False) -> ColdStart:
    steps, _ = cold_start_steps(Start(**G5))
    return ColdStart("Qwen", "dev-gpu", tuple(steps), from_zero, allowance, provision)


# The steps inside the probe: 19 + 173.94 + 173.94 + 1.46 + 45 + 20 = 433.35 s; the launch: 180 s.
VERDICT_TABLE = [
    pytest.param(1800, 1200, True, "the startup probe allows 1800 s for the 433 s", id="defaults-fit"),
    pytest.param(434, 180, True, "allows 434 s for the 433 s", id="just-enough"),
    pytest.param(60, 1200, False, "startup probe allows 60 s but vLLM's start", id="probe-short"),
    pytest.param(1800, 120, False, "maxNodeProvisionTime is 120 s but a GPU node takes about 180 s", id="ca-short"),
    pytest.param(None, None, True, "no startup probe", id="no-probe-no-autoscaler"),
]


@pytest.mark.parametrize(("allowance", "provision", "passed", "named"), VERDICT_TABLE)
def test_the_verdict_fails_when_a_budget_is_shorter_than_its_steps(allowance, provision, passed, named):
    found, warnings = cold_start_verdict([entry(allowance, provision)])

    assert found.passed is passed
    assert named in found.message
    assert warnings == []


def test_the_pass_line_names_the_cold_start_beside_the_probes_part():
    found, _ = cold_start_verdict([entry()])

    # 10 + 180 + 60 + 464 + 433.35 + 20 = 1167.35 s.
    assert found.message.endswith("(cold start 1167 s)")


def test_without_a_server_the_verdict_holds_and_says_why():
    found, warnings = cold_start_verdict([])

    assert (found.passed, found.message, warnings) == (True, "no vLLM server is served from the stack config", [])


def test_a_pool_that_scales_from_zero_warns_with_the_whole_estimate():
    found, warnings = cold_start_verdict([entry(from_zero=True)])
    judged = VERDICTS.entry("cold-start-fits-its-budget").run(Evidence(cold_starts=[entry(from_zero=True)]))

    assert found.passed
    # 10 + 180 + 60 + 464 + 433.35 + 20 = 1167.35 s.
    warning = (
        "Qwen on dev-gpu scales from zero: a first request waits about 1167 s (about 19.5 min) from the pending pod "
        "to a server that answers and is ready (the Cold start section has each step)"
    )
    assert warnings == [warning]
    # The plan lists it after the verdict's number and slug, which the registry gives.
    assert judged is not None and judged.warnings == [f"verdict 15 cold-start-fits-its-budget: {warning}"]


def test_dev_plan_json_has_one_cold_start_number_its_steps_and_the_budgets(capsys, tmp_path):
    code, out = plan(capsys, tmp_path)
    document = json.loads(out)

    assert code == 0, document["failures"]
    [start] = document["coldStart"]
    assert start["model"] == "Qwen/Qwen2.5-7B-Instruct" and start["pool"] == "gpu-inference-dev-gpu"
    assert [(step["step"], step["seconds"]) for step in start["steps"]] == [
        ("provisioner decision", 10),
        ("instance launch and join", 180),
        ("device plugin registers nvidia.com/gpu", 60),
        ("image on the node", 464.0),
        ("vLLM process start and engine init", 19),
        ("weights download", 173.9),
        ("weights load", 173.9),
        ("memory profiling", 1.5),
        ("torch.compile", 45),
        ("CUDA graph capture", 20),
        ("probes notice the server", 20),
    ]
    assert start["coldStartSeconds"] == 1167.3
    # startupTimeoutSeconds 1800 as the registered probe: 180 failures x 10 s; maxNodeProvisionTime 20m.
    assert start["budget"] == {
        "startupProbeMustAllowSeconds": 433.3,
        "startupProbeAllowanceSeconds": 1800.0,
        "nodeLaunchSeconds": 180,
        "maxNodeProvisionSeconds": 1200.0,
    }
    assert start["scalesFromZero"] is True
    assert any("EBS baseline 700 Mbps" in source for source in start["sources"])
    assert verdict(document)["passed"]


def test_a_startup_timeout_of_60_seconds_exits_1_naming_the_verdict_and_the_key(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, {"vllm": {"startupTimeoutSeconds": 60}})
    document = json.loads(out)

    assert code == 1
    assert "the startup probe allows 60 s" in verdict(document)["message"]
    assert "raise vllm.startupTimeoutSeconds to at least 433" in verdict(document)["message"]


def test_a_max_node_provision_time_shorter_than_the_launch_fails_the_verdict(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, {"autoscaler": {"maxNodeProvisionTime": "2m"}})

    assert code == 1
    assert "autoscaler.maxNodeProvisionTime is 120 s" in verdict(json.loads(out))["message"]


def test_without_the_autoscaler_only_the_probe_is_checked(capsys, tmp_path):
    overrides = {"autoscaler": {"enabled": False, "maxNodeProvisionTime": "1s"}, "gpuNodeGroup": {"minSize": 1}}
    code, out = plan(capsys, tmp_path, overrides)
    document = json.loads(out)

    assert code == 0, document["failures"]
    [start] = document["coldStart"]
    assert start["budget"]["maxNodeProvisionSeconds"] is None and start["scalesFromZero"] is False
    assert not any("scales from zero" in warning for warning in document["warnings"])


def test_the_fleet_example_has_one_cold_start_number_for_each_model(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, stack_file=ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml")
    document = json.loads(out)

    assert code == 0, document["failures"]
    starts = {start["model"]: start for start in document["coldStart"]}
    assert len(starts) == 4
    assert all(
        start["coldStartSeconds"] == pytest.approx(sum(s["seconds"] for s in start["steps"]), abs=0.2)
        for start in starts.values()
    )


def test_text_and_markdown_show_one_number_the_judged_line_and_markdown_the_sources(capsys, tmp_path):
    _, text = plan(capsys, tmp_path, fmt="text")
    _, markdown = plan(capsys, tmp_path, fmt="markdown")

    assert "Cold start s" in text and "1167" in text
    assert "cold-start-fits-its-budget judges the two budgets below, not that number" in text
    assert "cold-start-fits-its-budget judges the two budgets below" in markdown
    assert "vllm-project/vllm#27154" in markdown and "vllm-project/vllm#27154" not in text


def test_a_karpenter_pool_waits_for_its_idle_batch_and_is_not_bound_by_the_autoscaler(capsys, tmp_path):
    overrides = {"gpuNodeGroup": {"provisioner": "karpenter"}, "autoscaler": {"maxNodeProvisionTime": "1m"}}
    code, out = plan(capsys, tmp_path, overrides)
    document = json.loads(out)

    assert code == 0, document["failures"]
    [start] = document["coldStart"]
    decision, launch = start["steps"][:2]
    assert (decision["seconds"], decision["arithmetic"]) == (1, "Karpenter's idle batch window")
    assert "BATCH_IDLE_DURATION" in decision["source"]
    assert (launch["seconds"], launch["arithmetic"]) == (60, "karpenter, AL2023")
    assert start["budget"]["maxNodeProvisionSeconds"] is None
    assert verdict(document)["passed"]


def test_the_registered_probe_periods_are_the_last_step(capsys, tmp_path):
    _, out = plan(capsys, tmp_path)
    [start] = json.loads(out)["coldStart"]

    # The dev stack's server registers a 10 s startup probe and a 10 s readiness probe (vllm/manifests.py).
    assert start["steps"][-1]["arithmetic"] == "startup probe period 10 s + readiness probe period 10 s"
    assert cold_start.PROBES in start["steps"][-1]["step"]
