"""From tests/placement/test_placement_messages.py, what other test modules use too: `VERDICT_NAMES` and what they
need."""

from __future__ import annotations

VERDICT_NAMES = {
    1: "gpu-workloads-land-on-gpu-pools",
    2: "plain-pods-stay-off-gpu-pools",
    3: "device-plugin-covers-gpu-pools",
    4: "system-addons-have-a-pool",
    5: "gpu-requests-fit-one-node",
    10: "dcgm-exporter-covers-gpu-pools",
}
