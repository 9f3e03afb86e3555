"""Details of the vLLM container that the restricted profile and checkov do not cover."""

from __future__ import annotations

from components.facts import versions
from components.facts.contract import PlacementContract
from components.facts.gpu_catalog import gpu_instance_type
from components.settings import VllmSettings
from components.vllm.manifests import pod_spec
from tests.support.vllm_server import env, server_container, server_pod


def test_a_pinned_server_image_is_pulled_only_when_missing_from_the_node(dev_run):
    # The image is pinned to a release tag (vllm.image); pulling ~10 GB again on every restart would
    # make an outage of the registry block restarts (see CHECKOV_SKIPS in components/vllm/manifests.py).
    container = server_container(dev_run)
    assert container["imagePullPolicy"] == "IfNotPresent"
    assert container["image"].rpartition(":")[2].startswith("v")


def test_the_server_gets_no_service_variables(stack):
    # vLLM reads VLLM_* variables as its settings (vLLM docs, "Environment Variables"); Kubernetes
    # injects <SERVICE>_PORT and friends for every Service of the namespace unless links are off.
    run = stack()
    spec = server_pod(run)["spec"]
    assert spec["enableServiceLinks"] is False
    # The only VLLM_ variable is the one the component sets on purpose.
    assert [name for name in env(run) if name.startswith("VLLM_")] == ["VLLM_CACHE_ROOT"]


def test_pod_spec_called_with_defaults_has_no_node_affinity_and_no_token():
    settings = VllmSettings()
    spec = pod_spec(settings, PlacementContract(), gpu_instance_type("g5.xlarge"))
    assert "affinity" not in spec
    assert [volume["name"] for volume in spec["volumes"]] == ["dshm", "model-cache", "tmp"]
    assert all("HF_TOKEN" not in item["name"] for item in spec["containers"][0]["env"])


def test_a_claim_full_of_weights_is_not_relabelled_on_every_start(stack):
    # With fsGroup set, the kubelet changes the group of every file of a volume at each mount unless
    # fsGroupChangePolicy is OnRootMismatch (Kubernetes docs, "Configure volume permission and
    # ownership change policy for Pods").
    run = stack({"vllm": {"modelCache": {"type": "pvc", "size": "200Gi"}}})
    context = server_pod(run)["spec"]["securityContext"]
    assert context["fsGroup"] == versions.VLLM_GROUP_ID
    assert context["fsGroupChangePolicy"] == "OnRootMismatch"
