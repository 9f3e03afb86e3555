"""The baseline network and EBS bandwidth of each GPU type (facts/gpu_catalog.py, facts/instance_io.py) and the
cold start's weights steps bounded by them: a small type of "up to" N Gbps sustains only its baseline, under what S3
or the Hub would give, and its disk only its EBS baseline, under what gp3 provisions."""

from __future__ import annotations

import pytest

from components.facts import cold_start, gpu_catalog, instance_io


def steps(instance: str, source: str, concurrency: int | None = None) -> list[cold_start.Step]:
    entry = gpu_catalog.lookup(instance)
    assert entry is not None
    start = cold_start.Start(
        instance=instance,
        network_baseline_gbps=entry.network_baseline_gbps,
        weights_bytes=15e9,
        source=source,
        concurrency=concurrency,
    )
    found, _ = cold_start.cold_start_steps(start)
    return found


def test_every_gpu_type_has_a_positive_baseline():
    assert all((entry.network_baseline_gbps or 0) > 0 for entry in gpu_catalog.GPU_INSTANCE_TYPES.values())
    # The docs' table: g5.xlarge is "2.5 / 10.0" (baseline / burst), p5.48xlarge "3200" with no burst.
    assert gpu_catalog.lookup("g5.xlarge").network_baseline_gbps == 2.5
    assert gpu_catalog.lookup("p5.48xlarge").network_baseline_gbps == 3200


def test_the_ebs_table_names_only_catalog_types_and_takes_the_baseline():
    assert set(instance_io.EBS_BANDWIDTH_MBPS) <= set(gpu_catalog.GPU_INSTANCE_TYPES)
    # instances.vantage.sh: g5.xlarge 700 Mbps baseline, 3500 maximum; g5.4xlarge 4750 both.
    assert instance_io.ebs_bandwidth("g5.xlarge").value == 87.5e6
    assert "bursting to 3500 Mbps on credits, not counted" in instance_io.ebs_bandwidth("g5.xlarge").source
    assert "bursting" not in instance_io.ebs_bandwidth("g5.4xlarge").source
    assert instance_io.ebs_bandwidth("g6.xlarge") is None


@pytest.mark.parametrize(
    ("instance", "source", "step", "rate", "bound"),
    [
        # 2.5 Gbps is 312.5 MB/s, under 8 streamer connections of 85 MB/s (680 MB/s).
        ("g5.xlarge", "s3", "weights stream from S3 to the GPUs", 312.5e6, "network"),
        # 40 Gbps is 5000 MB/s: the 8 connections' 680 MB/s bound it.
        ("g5.12xlarge", "s3", "weights stream from S3 to the GPUs", 680e6, "S3 connections"),
        # g5g.xlarge's 1.25 Gbps (156.25 MB/s) under the Hub's 261.1; gp3's 125 MiB/s is 131.07 MB/s, lower still
        # (the table has no EBS figure for g5g).
        ("g5g.xlarge", "huggingface", "weights download", 125 * 2**20, "volume"),
        # g5.xlarge's EBS baseline 87.5 MB/s is the lowest.
        ("g5.xlarge", "huggingface", "weights download", 87.5e6, "volume"),
    ],
    ids=["s3 on g5.xlarge", "s3 on g5.12xlarge", "hub on g5g.xlarge", "hub on g5.xlarge"],
)
def test_the_weights_step_is_bounded_by_the_lowest_of_its_rates(instance, source, step, rate, bound):
    [found] = [item for item in steps(instance, source) if item.name == step]

    assert found.seconds == pytest.approx(15e9 / rate)
    assert found.arithmetic.split(" (")[0].endswith(bound)


def test_a_concurrency_sized_from_the_baseline_fills_it():
    # g5.12xlarge: 5000 MB/s / 85 = 58.8 -> 59 connections, 5015 MB/s over the 5000 MB/s baseline.
    [found] = [
        item for item in steps("g5.12xlarge", "s3", cold_start.concurrency_for(40)) if item.name == cold_start.STREAM
    ]

    assert found.seconds == pytest.approx(15e9 / 5000e6)
    assert instance_io.network_bandwidth("x.large", None) is None


def test_a_pulled_image_step_shows_its_sizes_in_gb_its_rates_and_its_seconds():
    """The pinned vLLM image: 12 GB compressed (vllm-project/vllm#27154) and 28.6 GB unpacked (vllm-project/vllm#22377);
    a plain pull at 15 GB in 6 minutes (the AWS Machine Learning Blog on SOCI), 15e9 / 360 = 41.7 MB/s, so 12e9 /
    41.67e6 = 288 s; a volume provisioned at 1000 MiB/s = 1048.6 MB/s writes 12 + 28.6 = 40.6 GB in 38.7 s, so the
    pull's 288 s is the step (an instance the EBS table does not name leaves the volume's rate alone)."""
    steps, _ = cold_start.cold_start_steps(cold_start.Start(volume_throughput_mibps=1000))

    [image] = [step for step in steps if step.name == cold_start.IMAGE]
    assert image.seconds == pytest.approx(288.0)
    assert image.arithmetic == (
        "the longer of 12.00 GB pulled at 41.7 MB/s (288 s) and 12.00 + 28.60 GB written at 1048.6 MB/s (39 s)"
    )
