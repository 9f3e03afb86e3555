"""What a GPU instance may move to and from its disks and the network, sustained: the bounds a cold start's disk
and download steps meet (facts/cold_start.py). Standard library only.

- Network: the baseline bandwidth of facts/gpu_catalog.py (`network_baseline_gbps`, not the "up to" burst).
- EBS: the baseline bandwidth between the instance and its EBS volumes, in Mbps (`EBS_BASELINE_MBPS`), read on
  2026-12-04 from instances.vantage.sh's data as committed in tsaol/aws-gpu (data/instances_full_cn.json at
  4480bff88ee2da937c52b1b2cdf4e9dcdb760827, 2025-11-30; the fields `ebs_baseline_bandwidth` and
  `ebs_max_bandwidth`, which are EC2's `EbsOptimizedInfo.BaselineBandwidthInMbps` and `MaximumBandwidthInMbps`).
  A type whose maximum is above its baseline bursts to it on credits (AWS Compute Blog, "Simulating Amazon EC2 EBS
  burst credits before downsizing an instance": "Smaller Amazon EBS-optimized instance types have lower baselines
  and rely on burst credits"); the estimate counts the baseline, as it does for the network. The dataset covers
  the g4dn, g5 and p4d types of the catalog (it is the China regions' list); the others have no figure here, and
  the volume's own throughput alone bounds their disk.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .cold_start_figures import Figure

AS_OF = "2026-12-04"
EBS_SOURCE = (
    "instances.vantage.sh data in tsaol/aws-gpu data/instances_full_cn.json at 4480bff8 (2025-11-30): "
    "ebs_baseline_bandwidth"
)
NETWORK_SOURCE = (
    "facts/gpu_catalog.py: AWS docs, accelerated computing network specifications, via "
    "aws/karpenter-provider-aws@v1.14.1 zz_generated.bandwidth.go"
)

# (baseline, maximum) Mbps.
EBS_BANDWIDTH_MBPS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "g4dn.xlarge": (950, 3500),
        "g4dn.2xlarge": (1150, 3500),
        "g4dn.4xlarge": (4750, 4750),
        "g4dn.8xlarge": (9500, 9500),
        "g4dn.12xlarge": (9500, 9500),
        "g4dn.16xlarge": (9500, 9500),
        "g5.xlarge": (700, 3500),
        "g5.2xlarge": (850, 3500),
        "g5.4xlarge": (4750, 4750),
        "g5.8xlarge": (16000, 16000),
        "g5.12xlarge": (16000, 16000),
        "g5.16xlarge": (16000, 16000),
        "g5.24xlarge": (19000, 19000),
        "g5.48xlarge": (19000, 19000),
        "p4d.24xlarge": (19000, 19000),
    }
)


def ebs_bandwidth(instance: str) -> Figure | None:
    """The baseline EBS bandwidth of `instance` in bytes a second, or None when the table has none."""
    entry = EBS_BANDWIDTH_MBPS.get(instance)
    if entry is None:
        return None
    baseline, maximum = entry
    burst = f", bursting to {maximum} Mbps on credits, not counted" if maximum > baseline else ""
    return Figure(baseline * 1e6 / 8, "B/s", f"{instance} EBS baseline {baseline} Mbps{burst} ({EBS_SOURCE})", AS_OF)


def network_bandwidth(instance: str, baseline_gbps: float | None) -> Figure | None:
    """The baseline network bandwidth of `instance` (facts/gpu_catalog.py) in bytes a second, or None."""
    if baseline_gbps is None:
        return None
    return Figure(baseline_gbps * 1e9 / 8, "B/s", f"{instance} baseline {baseline_gbps:g} Gbps ({NETWORK_SOURCE})")
