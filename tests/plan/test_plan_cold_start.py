"""The cold-start budget: each served model's start from a pending pod, step by step from the dated figures of
facts/cold_start.py, the plan's Cold start section and JSON `coldStart`, and verdict 15
(`cold-start-fits-its-budget`) against the registered startup probe and the autoscaler's maxNodeProvisionTime."""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

import pytest
import yaml

from components.facts import cold_start
from components.facts.cold_start import ColdStart, Step, cold_start_steps
from components.facts.identity import PROJECT
from components.facts.versions import VLLM_IMAGE
from components.placement.cold_start import cold_start_verdict
from components.stackcheck.__main__ import main
from tests.conftest import dev_stack_config, merge

ROOT = Path(__file__).resolve().parents[2]
QWEN_7B_BYTES = 7.61e9 * 2  # the catalog's parameters x bf16
LOAD_RATE = 8.03e9 * 2 / 47.99  # NVIDIA's default-loader figure: 16.06 GB in 47.99 s


def plan(capsys, tmp_path, overrides: dict | None = None, fmt: str = "json", stack_file: Path | None = None):
    """Plan the dev stack with `overrides` merged into its config (or `stack_file`); exit code and stdout."""
    if stack_file is None:
        stack_file = tmp_path / "Pulumi.cold.yaml"
        config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), overrides or {}).items()}
        stack_file.write_text(yaml.safe_dump({"config": {"aws:region": "us-west-2", **config}}))
    args = ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "out")]
    code = main([*args, "--format", fmt])
    return code, capsys.readouterr().out


def verdict_15(document: dict) -> dict:
    [verdict] = [verdict for verdict in document["verdicts"] if verdict["id"] == 15]
    return verdict


def seconds(steps: list[Step]) -> dict[str, float]:
    return {step.name: round(step.seconds, 2) for step in steps}


# Each row: the settings that change the steps, then every step's seconds as the arithmetic gives them.
STEP_TABLE = [
    pytest.param(
        {"ami_family": "AL2023"},
        {
            "scale-up decision": 10,
            "node launch and join": 180,
            "image pull": round(12e9 / (15e9 / 360), 2),  # 12 GB at 15 GB in 6 minutes: 288 s
            "weights download": round(QWEN_7B_BYTES / 261.1e6, 2),  # 15.22 GB at 261.1 MB/s: 58.29 s
            "weights load": round(QWEN_7B_BYTES / LOAD_RATE, 2),  # 15.22 GB at 334.7 MB/s: 45.48 s
            "torch.compile": 45,
            "CUDA graph capture": 20,
        },
        id="huggingface-al2023",
    ),
    pytest.param(
        {"ami_family": "Bottlerocket", "source": "s3"},
        {
            "scale-up decision": 10,
            "node launch and join": 180,
            "image pull": 288,
            # The streamer loads while it reads: one step, 15.22 GB at 398.6 MB/s.
            "weights stream from S3 to the GPUs": round(QWEN_7B_BYTES / 398.6e6, 2),
            "torch.compile": 45,
            "CUDA graph capture": 20,
        },
        id="s3-bottlerocket",
    ),
    pytest.param(
        {"ami_family": "Bottlerocket", "image_cache": "snapshot"},
        {
            "scale-up decision": 10,
            "node launch and join": 180,
            "image pull": 0,
            "weights download": round(QWEN_7B_BYTES / 261.1e6, 2),
            "weights load": round(QWEN_7B_BYTES / LOAD_RATE, 2),
            "torch.compile": 45,
            "CUDA graph capture": 20,
        },
        id="snapshot-pulls-nothing",
    ),
    pytest.param(
        {"ami_family": "AL2023", "image_cache": "soci", "provisioner": "karpenter"},
        {
            "scale-up decision": 10,
            "node launch and join": 180,
            "image pull": 144,  # SOCI parallel pull halves the plain pull's 288 s
            "weights download": round(QWEN_7B_BYTES / 261.1e6, 2),
            "weights load": round(QWEN_7B_BYTES / LOAD_RATE, 2),
            "torch.compile": 45,
            "CUDA graph capture": 20,
        },
        id="soci-halves-the-pull",
    ),
]


@pytest.mark.parametrize(("given", "expected"), STEP_TABLE)
def test_each_step_is_its_size_over_its_rate_or_its_published_seconds(given, expected):
    steps, missing = cold_start_steps(image=VLLM_IMAGE, weights_bytes=QWEN_7B_BYTES, **given)

    assert seconds(steps) == pytest.approx(expected, abs=0.01)
    assert missing == []
    assert all(step.source for step in steps)


@pytest.mark.parametrize(
    ("source", "inside"),
    [
        ("huggingface", ["weights download", "weights load", "torch.compile", "CUDA graph capture"]),
        # The streamer fetches from S3 once the server container runs: its stream is the probe's to allow.
        ("s3", ["weights stream from S3 to the GPUs", "torch.compile", "CUDA graph capture"]),
    ],
    ids=["huggingface", "s3"],
)
def test_the_probe_covers_the_steps_after_the_container_starts_and_not_the_node_or_the_pull(source, inside):
    steps, _ = cold_start_steps(ami_family="AL2023", image=VLLM_IMAGE, weights_bytes=QWEN_7B_BYTES, source=source)

    assert [step.name for step in steps if step.in_probe] == inside


def test_a_hub_download_faster_than_the_internet_gateway_allows_is_bounded_by_5_gbps(monkeypatch):
    fast = cold_start.Figure(2e9, "B/s", "a faster Hub")
    monkeypatch.setattr(cold_start, "WEIGHTS_RATE", MappingProxyType({**cold_start.WEIGHTS_RATE, "huggingface": fast}))

    steps, _ = cold_start_steps(ami_family="AL2023", image=VLLM_IMAGE, weights_bytes=QWEN_7B_BYTES)

    [download] = [step for step in steps if step.name == "weights download"]
    assert download.seconds == pytest.approx(QWEN_7B_BYTES / (5e9 / 8))  # 24.35 s at 625 MB/s, not 7.6 s
    assert "bounded by" in download.source and "5 Gbps" in download.source


def test_an_unknown_image_and_model_leave_their_steps_out_and_say_so():
    steps, missing = cold_start_steps(ami_family="AL2023", image="vllm/vllm-openai:v0.99.0", weights_bytes=None)

    assert [step.name for step in steps] == [
        "scale-up decision",
        "node launch and join",
        "torch.compile",
        "CUDA graph capture",
    ]
    assert len(missing) == 2
    assert "vllm/vllm-openai:v0.99.0" in missing[0] and "model's size is unknown" in missing[1]


def entry(allowance: float | None = 1800, provision: float | None = 1200, from_zero: bool = False) -> ColdStart:
    steps, _ = cold_start_steps(ami_family="AL2023", image=VLLM_IMAGE, weights_bytes=QWEN_7B_BYTES)
    return ColdStart("Qwen", "dev-gpu", tuple(steps), from_zero, allowance, provision)


# Each row: the probe's allowance, maxNodeProvisionTime (seconds), whether the verdict holds, and what it names.
VERDICT_TABLE = [
    pytest.param(1800, 1200, True, "every cold start fits its budget", id="defaults-fit"),
    pytest.param(169, 180, True, "about 169 s in a startup allowance of 169 s", id="exactly-enough"),
    pytest.param(60, 1200, False, "startup probe allows 60 s but fetching, loading and compiling", id="probe-short"),
    pytest.param(1800, 120, False, "maxNodeProvisionTime is 120 s but a GPU node takes about 180 s", id="ca-short"),
    pytest.param(None, None, True, "no probe", id="no-probe-no-autoscaler"),
]


@pytest.mark.parametrize(("allowance", "provision", "passed", "named"), VERDICT_TABLE)
def test_verdict_15_fails_when_a_budget_is_shorter_than_its_steps(allowance, provision, passed, named):
    # The steps inside the probe: 58.29 + 45.48 + 45 + 20 = 168.8 s; the node: 180 s.
    verdict, warnings = cold_start_verdict([entry(allowance, provision)])

    assert verdict.passed is passed
    assert named in verdict.message
    assert warnings == []


def test_a_pool_that_scales_from_zero_warns_with_the_whole_estimate():
    verdict, warnings = cold_start_verdict([entry(from_zero=True)])

    assert verdict.passed
    # 10 + 180 + 288 + 58.29 + 45.48 + 45 + 20 = 646.8 s
    assert warnings == [
        "verdict 15 cold-start-fits-its-budget: Qwen on dev-gpu scales from zero: a first request waits about 647 s "
        "(about 10.8 min) from the pending pod to a server that answers (the Cold start section has each step)"
    ]


def test_dev_plan_json_has_the_cold_start_of_its_model_with_each_step_the_total_and_the_budget(capsys, tmp_path):
    code, out = plan(capsys, tmp_path)
    document = json.loads(out)

    assert code == 0, document["failures"]
    [start] = document["coldStart"]
    assert start["model"] == "Qwen/Qwen2.5-7B-Instruct" and start["pool"] == "gpu-inference-dev-gpu"
    assert [(step["step"], step["seconds"]) for step in start["steps"]] == [
        ("scale-up decision", 10),
        ("node launch and join", 180),
        ("image pull", 288.0),
        ("weights download", 58.3),
        ("weights load", 45.5),
        ("torch.compile", 45),
        ("CUDA graph capture", 20),
    ]
    assert start["totalSeconds"] == 646.8 and start["startupProbeSeconds"] == 168.8
    # startupTimeoutSeconds 1800 as the registered probe: 180 failures x 10 s; maxNodeProvisionTime 20m.
    assert start["budget"] == {"startupProbeAllowanceSeconds": 1800.0, "maxNodeProvisionSeconds": 1200.0}
    assert start["scalesFromZero"] is True
    assert len(start["sources"]) == 7
    assert verdict_15(document)["passed"]
    assert any("scales from zero" in warning for warning in document["warnings"])


def test_a_startup_timeout_of_60_seconds_exits_1_naming_verdict_15_and_the_key(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, {"vllm": {"startupTimeoutSeconds": 60}})
    document = json.loads(out)

    assert code == 1
    verdict = verdict_15(document)
    assert not verdict["passed"]
    assert "the startup probe allows 60 s" in verdict["message"]
    assert "raise vllm.startupTimeoutSeconds to at least 169" in verdict["message"]
    assert any(failure.startswith("verdict 15 cold-start-fits-its-budget") for failure in document["failures"])


def test_the_allowance_is_the_registered_probe_rounded_up_to_whole_periods(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, {"vllm": {"startupTimeoutSeconds": 161}})
    document = json.loads(out)

    # 161 s becomes 17 failures of 10 s: 170 s, just above the 168.8 s the steps take.
    assert code == 0, document["failures"]
    assert document["coldStart"][0]["budget"]["startupProbeAllowanceSeconds"] == 170.0


def test_a_max_node_provision_time_shorter_than_the_launch_fails_verdict_15(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, {"autoscaler": {"maxNodeProvisionTime": "2m"}})
    document = json.loads(out)

    assert code == 1
    assert "autoscaler.maxNodeProvisionTime is 120 s" in verdict_15(document)["message"]


def test_without_the_autoscaler_only_the_probe_is_checked(capsys, tmp_path):
    overrides = {"autoscaler": {"enabled": False, "maxNodeProvisionTime": "1s"}, "gpuNodeGroup": {"minSize": 1}}
    code, out = plan(capsys, tmp_path, overrides)
    document = json.loads(out)

    assert code == 0, document["failures"]
    [start] = document["coldStart"]
    assert start["budget"]["maxNodeProvisionSeconds"] is None and start["scalesFromZero"] is False
    assert not any("scales from zero" in warning for warning in document["warnings"])


def test_the_fleet_example_has_a_cold_start_with_a_total_for_each_model(capsys, tmp_path):
    code, out = plan(capsys, tmp_path, stack_file=ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml")
    document = json.loads(out)

    assert code == 0, document["failures"]
    starts = {start["model"]: start for start in document["coldStart"]}
    assert set(starts) == {
        "qwen-1-5b (Qwen/Qwen2.5-1.5B-Instruct)",
        "llama-8b (meta-llama/Llama-3.1-8B-Instruct)",
        "qwen-14b (Qwen/Qwen2.5-14B-Instruct)",
        "llama-70b (meta-llama/Llama-3.3-70B-Instruct)",
    }
    # The 70B's 141.12 GB of weights: 540.5 s to download at 261.1 MB/s and 421.7 s to load.
    seventy = {
        step["step"]: step["seconds"] for step in starts["llama-70b (meta-llama/Llama-3.3-70B-Instruct)"]["steps"]
    }
    assert seventy["weights download"] == 540.5 and seventy["weights load"] == 421.7
    assert all(
        start["totalSeconds"] == round(sum(s["seconds"] for s in start["steps"]), 1) for start in starts.values()
    )


def test_text_and_markdown_show_the_cold_start_section_and_markdown_its_sources(capsys, tmp_path):
    _, text = plan(capsys, tmp_path, fmt="text")
    _, markdown = plan(capsys, tmp_path, fmt="markdown")

    assert "Cold start (from a pending pod to a server that answers, verdict cold-start-fits-its-budget)" in text
    assert "image pull            288" in text
    assert "Cold start" in markdown and "vllm-project/vllm#27154" in markdown
    assert "vllm-project/vllm#27154" not in text


def test_a_karpenter_pool_waits_for_its_batch_window_and_is_not_bound_by_the_autoscaler(capsys, tmp_path):
    overrides = {"gpuNodeGroup": {"provisioner": "karpenter"}, "autoscaler": {"maxNodeProvisionTime": "1m"}}
    code, out = plan(capsys, tmp_path, overrides)
    document = json.loads(out)

    assert code == 0, document["failures"]
    [start] = document["coldStart"]
    decision, launch = start["steps"][:2]
    assert (decision["seconds"], decision["arithmetic"]) == (10, "Karpenter's batch window")
    assert "BATCH_MAX_DURATION" in decision["source"]
    assert launch["arithmetic"] == "karpenter, AL2023"
    # maxNodeProvisionTime (1m, shorter than the launch) is the Cluster Autoscaler's, which never sees this pool.
    assert start["budget"]["maxNodeProvisionSeconds"] is None
    assert verdict_15(document)["passed"]
