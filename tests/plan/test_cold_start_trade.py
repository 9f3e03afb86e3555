"""The cold-start trade: per model, today's start, the fast profile's and one warm node's, each with its monthly
price, worked here from the sources rather than from the code:

- the model: Qwen2.5-7B-Instruct, 7.61e9 parameters in bf16 (model catalog): 15.22 GB;
- g5.4xlarge: 10 Gbps baseline = 1,250 MB/s; g5.xlarge: 2.5 Gbps = 312.5 MB/s (AWS docs via Karpenter v1.14.1);
- one S3 connection 85 MB/s (AWS S3 performance whitepaper), 8 by default (runai-model-streamer 0.15.7): 680 MB/s;
  the server fills a g5.4xlarge's 10 Gbps by default with ceil(1,250 / 85) = 15 connections, 1,275 MB/s, so the
  baseline bounds it (1,250 MB/s); a g5.xlarge's 312.5 MB/s needs 4, fewer than the streamer's own 8, which it keeps;
- Karpenter 1 s batch + 60 s launch, the device plugin 60, vLLM's start 19, profiling 1.46, torch.compile 45
  without a compile cache and 8 with one (ai-dynamo/dynamo#3257), CUDA graphs 20; probes at Kubernetes' default 10 s each, the fast profile's 1 s each; a warm
  node's placeholder grace period 1 s;
- Fast Snapshot Restore $0.75 per snapshot and zone-hour in us-east-1 (How AWS Pricing Works, Amazon EBS), in the
  network's default 3 zones: 3 x 0.75 x 730 = $1,642.50 a month; a g5.4xlarge $1.624 an hour (AWS price list):
  $1,185.52 a month; a g5.xlarge $1.006: $734.38.
"""

from __future__ import annotations

import pytest

from components.settings.stack import parse_settings
from components.stackcheck.plan.cold_start_trade import cold_start_trades

POOL = {
    "instanceTypes": ["g5.4xlarge"],
    "provisioner": "karpenter",
    "amiFamily": "Bottlerocket",
    "imageCache": "snapshot",
    "snapshotId": "snap-0123456789abcdef0",
    "fastSnapshotRestore": True,
}
MODEL = {
    "model": "Qwen/Qwen2.5-7B-Instruct",
    "revision": "a09a35458c702b33eeacc393d103063234e8bc28",
    "source": {"type": "s3"},
}


def trade(pool: dict, model: dict = MODEL) -> dict:
    settings = parse_settings({"gpuNodeGroup": pool, "vllm": model})
    [found] = cold_start_trades(settings, [], "us-east-1", None)
    return found.to_dict()


def options(found: dict) -> dict:
    return {option["option"]: option for option in found["options"]}


def test_today_the_fast_profile_and_a_warm_node_side_by_side_with_their_monthly_prices():
    """today: 1 + 60 + 60 + 0 + 19 + 15.22 GB / 1,250 MB/s (12.18) + 1.46 + 45 + 20 + 10 + 10 = 238.64 s, $1,642.50;
    fast: the compile cache (8), probes 1 + 1 and CUDA graphs captured up to 128 (vllm 0.32.0 `_set_cudagraph_sizes`:
    sizes 1, 2, 4, 8..128 by 8, 19 of them, each a piecewise graph and, being at most the A10G's default max_num_seqs
    256, a full one: 38 graphs, against the default list's 86 (51 sizes up to 512: 1, 2, 4, 8..248 by 8, 256..512
    by 16; 35 of them at most 256) at 20 s: 20 x 38 / 86 = 8.84 s): 238.64 - 37 - 18 - 11.16 = 172.47 s, $1,642.50;
    one warm node: 1 + 0 + 19 + 12.18 + 1.46 + 45 + 20 + 20 = 118.64 s, $1,642.50 + $1,185.52 = $2,828.02."""
    found = options(trade(POOL))

    seconds = {name: option["coldStartSeconds"] for name, option in found.items()}
    monthly = {name: option["monthlyUsd"] for name, option in found.items()}
    assert seconds == pytest.approx({"today": 238.6, "fast profile": 172.5, "one warm node": 118.6}, abs=0.05)
    assert monthly == {"today": 1642.5, "fast profile": 1642.5, "one warm node": 2828.02}


def test_the_fast_profile_says_what_it_chose_and_what_it_could_not():
    fast = options(trade(POOL))["fast profile"]

    assert "15 streamer connections for the 10 Gbps baseline" in fast["chose"]
    assert "probes every 1 s (vllm.probePeriodSeconds: 1)" in fast["chose"]
    assert any(item.startswith("Fast Snapshot Restore for snap-0123456789abcdef0") for item in fast["chose"])
    assert any(item.startswith("vLLM's compile cache kept in S3") for item in fast["chose"])
    assert any(item.startswith("CUDA graphs captured for batches of up to 128 tokens") for item in fast["chose"])


def test_a_fast_profile_dearer_than_a_warm_node_says_so():
    """Without Fast Snapshot Restore today costs nothing and leaves the lazily restored image out (a lower bound);
    the fast profile turns it on for $1,642.50, more than a g5.xlarge kept warm ($734.38)."""
    found = trade({**POOL, "instanceTypes": ["g5.xlarge"], "fastSnapshotRestore": False})

    by_name = options(found)
    assert by_name["today"]["monthlyUsd"] == 0.0 and by_name["today"]["notEstimated"]
    assert by_name["fast profile"]["monthlyUsd"] == 1642.5
    assert by_name["one warm node"]["monthlyUsd"] == 734.38
    assert found["fastCostsMoreThanAWarmNode"] is True
    # g5.xlarge's 2.5 Gbps baseline (312.5 MB/s) needs 4 connections of 85 MB/s; the streamer's own 8 already fill
    # it, so the server keeps them, and the trade names what the pod gets.
    assert "8 streamer connections for the 2.5 Gbps baseline" in by_name["fast profile"]["chose"]


def test_a_node_group_on_the_hub_names_karpenter_and_s3_as_what_the_profile_could_not_choose():
    found = options(trade({"instanceTypes": ["g5.xlarge"]}, {**MODEL, "source": {"type": "huggingface"}}))
    fast = found["fast profile"]

    assert any(item.startswith("Karpenter: the pool is a node group") for item in fast["couldNot"])
    assert any(item.startswith("weights streamed from S3") for item in fast["couldNot"])
    assert any(item.startswith("SOCI parallel pull") for item in fast["chose"])
