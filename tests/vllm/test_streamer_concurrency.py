"""The streamer's S3 connections by default (`vllm.source.concurrency` unset): enough to fill the sizing instance's
baseline network bandwidth where the streamer's own 8 do not, worked from the sources rather than the code:

- one S3 connection 85 MB/s (AWS whitepaper, Optimizing Amazon S3 Performance, facts/cold_start_figures.py);
- the Run:ai streamer's own default 8 (runai-model-streamer 0.15.7 config.cc): 680 MB/s, 5.44 Gbps;
- g5.4xlarge 10 Gbps baseline, 1,250 MB/s: ceil(1,250 / 85) = 15; g5.xlarge 2.5 Gbps, 312.5 MB/s: 4, fewer than
  8, so the server keeps the streamer's default and writes no `concurrency`; g5.12xlarge 40 Gbps (AWS's
  accelerated computing network specifications, "40 Gigabit"), 5,000 MB/s: ceil(58.8) = 59.
"""

from __future__ import annotations

import json

import pytest

from components.facts import runai_streamer
from components.facts.gpu_catalog import gpu_instance_type
from components.settings import VllmSettings
from components.vllm.manifests import container

S3 = {"model": "Qwen/Qwen2.5-7B-Instruct", "source": {"type": "s3", "bucket": "weights"}}


def loader_document(settings: VllmSettings, instance: str) -> dict:
    args = container(settings, gpu_instance_type(instance), has_token=False)["args"]
    return json.loads(args[args.index(runai_streamer.EXTRA_CONFIG_FLAG) + 1])


@pytest.mark.parametrize(("instance", "expected"), [("g5.4xlarge", 15), ("g5.12xlarge", 59)])
def test_an_instance_whose_baseline_outruns_eight_connections_gets_enough_to_fill_it(instance, expected):
    assert loader_document(VllmSettings(**S3), instance)[runai_streamer.CONCURRENCY_KEY] == expected


def test_an_instance_eight_connections_fill_keeps_the_streamer_s_default():
    assert runai_streamer.CONCURRENCY_KEY not in loader_document(VllmSettings(**S3), "g5.xlarge")


def test_a_concurrency_set_is_kept_as_set():
    settings = VllmSettings(**{**S3, "source": {**S3["source"], "concurrency": 3}})
    assert loader_document(settings, "g5.4xlarge")[runai_streamer.CONCURRENCY_KEY] == 3
