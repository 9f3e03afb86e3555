"""The baseline network bandwidth of each GPU instance type, which the catalog (facts/gpu_catalog.py) gives each
entry and the cold start's download steps are bounded by. Standard library only."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# Baseline network bandwidth of each GPU type, in Mbps: the first figure of the "Baseline / Burst bandwidth (Gbps)"
# column of the AWS docs' "Accelerated computing instances" network specifications
# (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html#ac_network), as Karpenter's generator reads it into
# aws/karpenter-provider-aws pkg/providers/instancetype/zz_generated.bandwidth.go at v1.14.1 (read 2026-12-02; g7, g7e, p3dn, p6-b200 and p6-b300 read 2026-12-04;
# hack/code/bandwidth_gen/main.go takes the number before the "/", so the baseline, not the "up to" burst). A
# type of "up to" N Gbps bursts above it for minutes only, on network I/O credits: the baseline is what a
# sustained download may count on.
NETWORK_BASELINE_MBPS: Mapping[str, Mapping[str, int]] = MappingProxyType(
    {
        "g4dn": {
            "12xlarge": 50000,
            "16xlarge": 50000,
            "2xlarge": 10000,
            "4xlarge": 20000,
            "8xlarge": 50000,
            "metal": 100000,
            "xlarge": 5000,
        },
        "g5": {
            "12xlarge": 40000,
            "16xlarge": 25000,
            "24xlarge": 50000,
            "2xlarge": 5000,
            "48xlarge": 100000,
            "4xlarge": 10000,
            "8xlarge": 25000,
            "xlarge": 2500,
        },
        "g5g": {"16xlarge": 25000, "2xlarge": 2500, "4xlarge": 5000, "8xlarge": 12000, "metal": 25000, "xlarge": 1250},
        "g6": {
            "12xlarge": 40000,
            "16xlarge": 25000,
            "24xlarge": 50000,
            "2xlarge": 5000,
            "48xlarge": 100000,
            "4xlarge": 10000,
            "8xlarge": 25000,
            "xlarge": 2500,
        },
        "g6e": {
            "12xlarge": 100000,
            "16xlarge": 35000,
            "24xlarge": 200000,
            "2xlarge": 5000,
            "48xlarge": 400000,
            "4xlarge": 20000,
            "8xlarge": 25000,
            "xlarge": 2500,
        },
        "gr6": {"4xlarge": 10000, "8xlarge": 25000},
        "g7": {
            "2xlarge": 60000,
            "4xlarge": 60000,
            "8xlarge": 80000,
            "12xlarge": 175000,
            "24xlarge": 350000,
            "48xlarge": 700000,
        },
        "g7e": {
            "2xlarge": 50000,
            "4xlarge": 50000,
            "8xlarge": 100000,
            "12xlarge": 400000,
            "24xlarge": 800000,
            "48xlarge": 1600000,
        },
        "p3dn": {"24xlarge": 100000},
        "p4d": {"24xlarge": 400000},
        "p4de": {"24xlarge": 400000},
        "p5": {"48xlarge": 3200000, "4xlarge": 100000},
        "p5e": {"48xlarge": 3200000},
        "p5en": {"48xlarge": 3200000},
        "p6-b200": {"48xlarge": 3200000},
        "p6-b300": {"48xlarge": 6400000},
    }
)
