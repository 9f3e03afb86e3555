"""What bounds the weights copy Job on a system node (`vllm.source.seed`): the node's network baseline and its
volume's throughput, and the copy's estimate built on them (`weights_copy_step`). Standard library only.

The copy downloads each file from the Hub onto the node's volume and uploads it to S3 from there, several files at
once (components/vllm/weights_copy_script.py, `COPY_WORKERS`), so every byte crosses the node's network twice (in,
then out) and its volume twice (written, then read). An instance's bandwidth "appl[ies] to both inbound and outbound
traffic ... up to 10 Gbps for inbound traffic and, simultaneously, up to 10 Gbps for outbound traffic" (Amazon EC2
User Guide, "Amazon EC2 instance network bandwidth", read 2026-12-04): the download and the upload each have the
baseline. A gp3 volume's throughput counts reads and writes together.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import versions
from .cold_start import WEIGHTS_COPY_STEP, Step
from .cold_start_figures import (
    GB,
    GP3_DEFAULT_THROUGHPUT,
    IMAGE_COMPRESSED_BYTES,
    IMAGE_PULL_RATE,
    INTERNET_BANDWIDTH,
    S3_RATE_PER_CONNECTION,
    WEIGHTS_RATE,
    WEIGHTS_SIZE_SOURCE,
)

AS_OF = "2026-12-04"
COPY_WORKERS = 3
"""Files the copy moves at once (components/vllm/weights_copy_script.py, whose `COPY_WORKERS` a test holds equal):
the download of one overlaps the upload of another, so the copy takes as long as its slowest leg rather than the
sum of them, and the upload runs over as many S3 connections."""

# The baseline bandwidth of the non-GPU instance types the price table knows (facts/price_table.py), in Mbps, from
# aws/karpenter-provider-aws pkg/providers/instancetype/zz_generated.bandwidth.go at v1.14.1 (generated from the
# EC2 instance types guide's "Baseline bandwidth"): what an "up to" instance sustains once its burst credits are
# spent, which a copy of tens of gigabytes outlasts.
NETWORK_BASELINE_MBPS: dict[str, int] = {
    "c5.large": 750, "c5.xlarge": 1250, "c5.2xlarge": 2500, "c5.4xlarge": 5000,
    "c6i.large": 781, "c6i.xlarge": 1562, "c6i.2xlarge": 3125, "c6i.4xlarge": 6250,
    "c7g.large": 937, "c7g.xlarge": 1876, "c7g.2xlarge": 3750, "c7g.4xlarge": 7500,
    "m5.large": 750, "m5.xlarge": 1250, "m5.2xlarge": 2500, "m5.4xlarge": 5000,
    "m6a.large": 781, "m6a.xlarge": 1562, "m6a.2xlarge": 3125, "m6a.4xlarge": 6250,
    "m6g.large": 750, "m6g.xlarge": 1250, "m6g.2xlarge": 2500, "m6g.4xlarge": 5000,
    "m6i.large": 781, "m6i.xlarge": 1562, "m6i.2xlarge": 3125, "m6i.4xlarge": 6250,
    "m7a.large": 781, "m7a.xlarge": 1562, "m7a.2xlarge": 3125, "m7a.4xlarge": 6250,
    "m7g.large": 937, "m7g.xlarge": 1876, "m7g.2xlarge": 3750, "m7g.4xlarge": 7500,
    "m7i.large": 781, "m7i.xlarge": 1562, "m7i.2xlarge": 3125, "m7i.4xlarge": 6250,
    "r6i.large": 781, "r6i.xlarge": 1562, "r6i.2xlarge": 3125,
    "t3.medium": 256, "t3.large": 512, "t3.xlarge": 1024, "t3.2xlarge": 2048,
    "t3a.medium": 256, "t3a.large": 512, "t3a.xlarge": 1024, "t3a.2xlarge": 2048,
    "t4g.medium": 256, "t4g.large": 512, "t4g.xlarge": 1024, "t4g.2xlarge": 2048,
}  # fmt: skip
NETWORK_SOURCE = "aws/karpenter-provider-aws pkg/providers/instancetype/zz_generated.bandwidth.go at v1.14.1"

# The system node group's volume provisions no throughput (components/pools/node_group.py raises it only for
# `imageCache: soci`), so it moves gp3's included throughput (`GP3_DEFAULT_THROUGHPUT`), reads and writes together.


def slowest_network_mbps(instance_types: Iterable[str]) -> tuple[int | None, str]:
    """The lowest baseline of `instance_types` in Mbps (the copy may land on any of them) and the type it is of;
    None when the table records none of them."""
    known = [(NETWORK_BASELINE_MBPS[name], name) for name in instance_types if name in NETWORK_BASELINE_MBPS]
    if not known:
        return None, ""
    return min(known)


def _leg(name: str, size: float, rates: list[tuple[str, float, str]]) -> tuple[float, str, str]:
    """`size` bytes at the lowest of `rates` (label, bytes a second, source): seconds, arithmetic, source."""
    label, rate, source = min(rates, key=lambda item: item[1])
    bounds = ", ".join(f"{what} {value / 1e6:.1f}" for what, value, _ in rates)
    return size / rate, f"{name} {size / GB:.2f} GB / {rate / 1e6:.1f} MB/s, {label} (the lowest of {bounds})", source


def weights_copy_step(weights_bytes: float, node_types: Iterable[str]) -> Step:
    """The seeding Job's copy (`vllm.source.seed`) on a system node of one of `node_types`: the pull of its image,
    then the weights through the node, `COPY_WORKERS` files at once, as long as the slowest of its legs: the Hub
    download (bounded by what the node may draw from the internet and by its network baseline), the upload to S3
    over `COPY_WORKERS` connections (bounded by the baseline, which holds for each direction at once), and the
    node's volume, which writes every byte and reads it back. A node type the table does not record leaves the
    network unbounded, and the arithmetic says so."""
    image = IMAGE_COMPRESSED_BYTES[versions.WEIGHTS_COPY_IMAGE]
    pull_rate = IMAGE_PULL_RATE["none"]
    pull = image.value / pull_rate.value
    mbps, node = slowest_network_mbps(node_types)
    network = [] if mbps is None else [("network", mbps * 1e6 / 8, f"{node} baseline {mbps} Mbps ({NETWORK_SOURCE})")]
    hub, internet = WEIGHTS_RATE["huggingface"], INTERNET_BANDWIDTH
    legs = {
        "download": _leg(
            "download",
            weights_bytes,
            [("the Hub", hub.value, hub.source), ("internet gateway", internet.value, internet.source), *network],
        ),
        "upload": _leg(
            "upload",
            weights_bytes,
            [
                (
                    f"{COPY_WORKERS} S3 connections",
                    COPY_WORKERS * S3_RATE_PER_CONNECTION.value,
                    S3_RATE_PER_CONNECTION.source,
                ),
                *network,
            ],
        ),
        "volume": _leg(
            "volume",
            2 * weights_bytes,
            [("gp3 written and read", GP3_DEFAULT_THROUGHPUT.value, GP3_DEFAULT_THROUGHPUT.source)],
        ),
    }
    slowest = max(legs, key=lambda leg: legs[leg][0])
    unbounded = "" if network else "; the node's network baseline not recorded (facts/system_nodes.py)"
    sources = [image.source, pull_rate.source, WEIGHTS_SIZE_SOURCE, *(leg[2] for leg in legs.values())]
    return Step(
        WEIGHTS_COPY_STEP,
        pull + legs[slowest][0],
        f"image pull {image.value / GB:.2f} GB / {pull_rate.value / 1e6:.1f} MB/s + the slowest of "
        + "; ".join(leg[1] for leg in legs.values())
        + f": {slowest}, {COPY_WORKERS} files at once{unbounded}",
        "; ".join(dict.fromkeys(sources)),
    )
