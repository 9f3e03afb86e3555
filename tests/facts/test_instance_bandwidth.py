"""The baseline network bandwidth of each GPU type (facts/gpu_catalog.py) and the cold start's weights step bounded
by it: a small type of "up to" N Gbps sustains only its baseline, under what S3 or the Hub would give."""

from __future__ import annotations

import pytest

from components.facts import cold_start, gpu_catalog


def steps(instance: str, source: str) -> list[cold_start.Step]:
    entry = gpu_catalog.lookup(instance)
    assert entry is not None
    found, _ = cold_start.cold_start_steps(
        ami_family="AL2023",
        image="vllm/vllm-openai:v0.32.0",
        weights_bytes=15e9,
        source=source,
        bandwidth=cold_start.instance_bandwidth(entry.name, entry.network_baseline_gbps),
    )
    return found


def test_every_gpu_type_has_a_positive_baseline():
    assert all((entry.network_baseline_gbps or 0) > 0 for entry in gpu_catalog.GPU_INSTANCE_TYPES.values())
    # The docs' table: g5.xlarge is "2.5 / 10.0" (baseline / burst), p5.48xlarge "3200" with no burst.
    assert gpu_catalog.lookup("g5.xlarge").network_baseline_gbps == 2.5
    assert gpu_catalog.lookup("p5.48xlarge").network_baseline_gbps == 3200


@pytest.mark.parametrize(
    ("instance", "source", "step", "rate", "bounded"),
    [
        # 2.5 Gbps is 312.5 MB/s, under the S3 benchmark's 398.6 MB/s.
        ("g5.xlarge", "s3", "weights stream from S3 to the GPUs", 312.5e6, True),
        ("g5.12xlarge", "s3", "weights stream from S3 to the GPUs", 398.6e6, False),
        # 1.25 Gbps is 156.25 MB/s, under the Hub's 261.1 MB/s and the 5 Gbps internet bound.
        ("g5g.xlarge", "huggingface", "weights download", 156.25e6, True),
        ("g6e.48xlarge", "huggingface", "weights download", 261.1e6, False),
    ],
    ids=["s3 on g5.xlarge", "s3 on g5.12xlarge", "hub on g5g.xlarge", "hub on g6e.48xlarge"],
)
def test_the_weights_step_is_bounded_by_the_instances_baseline(instance, source, step, rate, bounded):
    [found] = [item for item in steps(instance, source) if item.name == step]

    assert found.seconds == pytest.approx(15e9 / rate)
    assert (f"{instance} baseline" in found.source) is bounded


def test_without_a_bandwidth_the_stream_keeps_the_benchmarks_rate():
    found, _ = cold_start.cold_start_steps(ami_family="AL2023", image="x", weights_bytes=15e9, source="s3")
    [stream] = [item for item in found if item.name == "weights stream from S3 to the GPUs"]
    assert stream.seconds == pytest.approx(15e9 / 398.6e6)
    assert cold_start.instance_bandwidth("x.large", None) is None
