"""Details of the vLLM container that the restricted profile and checkov do not cover."""

from __future__ import annotations

from test_vllm_server import server_container


def test_a_pinned_server_image_is_pulled_only_when_missing_from_the_node(dev_run):
    # The image is pinned to a release tag (vllm.image); pulling ~10 GB again on every restart would
    # make an outage of the registry block restarts (see CHECKOV_SKIPS in components/vllm_server.py).
    container = server_container(dev_run)
    assert container["imagePullPolicy"] == "IfNotPresent"
    assert container["image"].rpartition(":")[2].startswith("v")
