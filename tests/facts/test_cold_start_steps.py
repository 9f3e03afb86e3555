"""A cold start's steps as the plan states them (components/facts/cold_start.py): the figure, its arithmetic and
every source, stated here from the cited figures rather than recomputed.

The figures, each with its source in facts/cold_start_figures.py: the weights-copy image (the vLLM image) about
12 GB compressed (vllm-project/vllm#27154); an image pull without a cache at 15 GB in 6 minutes, 41.7 MB/s (AWS
Machine Learning Blog, SOCI index on DLAMI and DLC); the Hub's cold CDN download at 261.1 MB/s (Hugging Face
buckets benchmark); an internet gateway's 5 Gbps below 32 vCPUs, 625 MB/s (EC2 User Guide, instance network
bandwidth); one S3 connection at 85 MB/s (S3 performance whitepaper, "one concurrent request for each 85-90 MB/s").
"""

from __future__ import annotations

import pytest

from components.facts import cold_start
from components.facts.cold_start import WEIGHTS_COPY_STEP
from components.facts.system_nodes import weights_copy_step

QWEN_7B_BYTES = 15.22e9
"""Qwen2.5-7B's 7.61e9 parameters x 2 bytes (bf16), as the catalog gives them."""


def test_the_weights_copy_is_the_pull_then_its_slowest_leg_on_the_system_node():
    """On an m6i.large (781 Mbps baseline, karpenter-provider-aws zz_generated.bandwidth.go v1.14.1: 97.63 MB/s) with
    its gp3 volume at 125 MiB/s (131.07 MB/s): the pull 12e9 / 41.67e6 = 288.0 s; the download at the lowest of the
    Hub 261.1, the internet gateway 625.0 and the node's 97.63 MB/s: 15.22e9 / 97.63e6 = 155.9 s; the upload over 3
    connections (255 MB/s) bounded by the same baseline: 155.9 s; the volume writing and reading every byte:
    2 x 15.22e9 / 131.07e6 = 232.24 s, the slowest; in all 520.24 s."""
    step = weights_copy_step(QWEN_7B_BYTES, ["m6i.large"])

    assert step.name == WEIGHTS_COPY_STEP == "weights copy from the Hub to S3 (first start)"
    assert step.seconds == pytest.approx(288.0 + 232.24, abs=0.01)
    assert step.arithmetic.startswith("image pull 12.00 GB / 41.7 MB/s + the slowest of ")
    assert step.arithmetic.endswith(": volume, 3 files at once")


def test_the_weights_copy_names_each_figures_source_once_the_weights_size_among_them():
    """The weights' size is a figure with a source too (the catalog's parameters, or the stack's modelFacts)."""
    sources = weights_copy_step(QWEN_7B_BYTES, ["m6i.large"]).source.split("; ")

    assert "weights: parameters x bytes per parameter (facts/model_catalog.py, or vllm.modelFacts)" in sources
    assert len(sources) == len(set(sources))
    assert "None" not in sources


def test_the_servers_own_steps_say_how_each_figure_was_taken():
    """The steps after the node and the image, by name, seconds and how each was worked, from the dated figures:
    the process start 19 s (vllm-project/vllm#15225, an upper figure), one memory profiling run 1.46 s
    (vllm-project/vllm#11550), torch.compile 45 s without a cache (ai-dynamo/dynamo#3257), and the two probes'
    default 10 s periods (Kubernetes' Probe.periodSeconds)."""
    steps, _ = cold_start.cold_start_steps(cold_start.Start())
    named = {step.name: (step.seconds, step.arithmetic) for step in steps}

    assert named[cold_start.PROCESS] == (19, "published upper figure")
    assert named[cold_start.PROFILE] == (1.46, "one profiling run")
    assert named[cold_start.COMPILE] == (45, "without a compile cache")
    assert named[cold_start.PROBES] == (20, "startup probe period 10 s + readiness probe period 10 s")
    cached, _ = cold_start.cold_start_steps(cold_start.Start(compile_cache=True))
    # With the cache restored: about 8 s (ai-dynamo/dynamo#3257; vllm-project/vllm#20264, 7.51 s).
    assert [(step.seconds, step.arithmetic) for step in cached if step.name == cold_start.COMPILE] == [
        (8, "the compile cache restored")
    ]


def test_a_warm_start_begins_with_the_placeholders_preemption_citing_kubernetes():
    """A warm node: no decision, launch or device plugin step; the scheduler preempts the placeholder, which may
    take its grace period (Kubernetes documentation, "Pod Priority and Preemption": victims get their graceful
    termination period)."""
    steps, _ = cold_start.cold_start_steps(cold_start.Start(warm=True, placeholder_grace=1))

    assert steps[0] == cold_start.Step(
        cold_start.PREEMPT,
        1,
        "the scheduler preempts the warm node's placeholder, whose grace period is 1 s",
        "Kubernetes docs, Pod Priority and Preemption: victims get their graceful termination period",
    )
    assert not {cold_start.DECISION, cold_start.LAUNCH, cold_start.DEVICE_PLUGIN} & {step.name for step in steps}
