"""The vLLM server's pure builders, without Pulumi: its share of a GPU node (components/vllm/sizing.py) and its
container's arguments, probes and try command (components/vllm/manifests.py)."""

from __future__ import annotations

import json
import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.facts.gpu_catalog import GPU_INSTANCE_TYPES, gpu_instance_type
from components.facts.quantity import parse_quantity
from components.gpu_agents.device_plugin import RESOURCES as DEVICE_PLUGIN_RESOURCES
from components.placement.pools import eks_allocatable
from components.settings import VLLM_MANAGED_FLAGS, VllmSettings
from components.vllm.manifests import container_args, probes, try_command
from components.vllm.sizing import server_resources, shm_size

# Requests of the DaemonSets an EKS GPU node runs besides the device plugin: aws-node (25m),
# kube-proxy (100m), the node monitoring agent and an EBS CSI node plugin (assumed 100m/256Mi together).
SYSTEM_DAEMONSET_REQUESTS = {"cpu": "225m", "memory": "256Mi"}


@given(st.sampled_from(sorted(GPU_INSTANCE_TYPES)), st.data())
def test_server_resources_fill_the_gpus_of_a_node_beside_its_daemonsets(name, data):
    instance = GPU_INSTANCE_TYPES[name]
    tensor_parallel_size = data.draw(st.integers(1, instance.gpus))
    resources = server_resources(instance, tensor_parallel_size)
    assert resources["limits"]["nvidia.com/gpu"] == str(tensor_parallel_size)
    assert resources["requests"].items() <= resources["limits"].items()
    pods = instance.gpus // tensor_parallel_size
    allocatable = eks_allocatable(instance)
    for resource in ("cpu", "memory"):
        kernel_kept = parse_quantity(f"{instance.memory_gib}Gi") * 5 / 100 if resource == "memory" else 0
        used = (
            pods * parse_quantity(resources["requests"][resource])
            + parse_quantity(DEVICE_PLUGIN_RESOURCES["requests"][resource])
            + parse_quantity(SYSTEM_DAEMONSET_REQUESTS[resource])
        )
        assert used <= parse_quantity(allocatable[resource]) - kernel_kept, (resource, used)


@pytest.mark.parametrize(
    "name, tensor_parallel_size, cpu, memory",
    [
        ("g5.xlarge", 1, "3000m", "13107Mi"),
        ("g5.12xlarge", 4, "47000m", "157286Mi"),
        ("g5.12xlarge", 1, "11700m", "39321Mi"),
    ],
)
def test_server_resources_take_the_gpus_share_of_all_but_one_vcpu_and_80_percent_of_memory(
    name, tensor_parallel_size, cpu, memory
):
    resources = server_resources(gpu_instance_type(name), tensor_parallel_size)
    assert resources["requests"] == {"cpu": cpu, "memory": memory}


def test_server_resources_reject_more_gpus_than_the_instance_has():
    with pytest.raises(ValueError, match="g5.xlarge"):
        server_resources(gpu_instance_type("g5.xlarge"), 2)


@given(st.sampled_from(sorted(GPU_INSTANCE_TYPES)), st.data())
def test_shared_memory_takes_at_most_a_fifth_of_the_memory_limit_it_counts_against(name, data):
    instance = GPU_INSTANCE_TYPES[name]
    tensor_parallel_size = data.draw(st.integers(1, instance.gpus))
    memory = parse_quantity(server_resources(instance, tensor_parallel_size)["limits"]["memory"])
    assert parse_quantity(shm_size(tensor_parallel_size)) * 5 <= memory


def test_image_floor_is_the_first_release_with_the_vllm_user_and_accepts_it_and_digests():
    assert VllmSettings(image="vllm/vllm-openai:v0.22.0").image.endswith("v0.22.0")
    digest = "vllm/vllm-openai@sha256:" + "0" * 64
    assert VllmSettings(image=digest).image == digest  # a digest is pinned whatever its release
    with pytest.raises(ValueError, match="image too old"):
        VllmSettings(image="vllm/vllm-openai:v0.21.9")


def test_extra_args_may_not_set_exactly_the_flags_the_server_sets_itself():
    # With a revision the server sets every flag it manages; without one it leaves --revision to vLLM.
    flags = [arg for arg in container_args(VllmSettings(revision="v1.0")) if arg.startswith("--")]
    assert sorted(["--model", *flags]) == sorted(VLLM_MANAGED_FLAGS)


def test_extra_args_come_last():
    args = container_args(VllmSettings(extra_args=["--enable-prefix-caching", "--max-num-seqs=8"]))
    assert args[-2:] == ["--enable-prefix-caching", "--max-num-seqs=8"]
    assert args[args.index("--port") + 1] == "8000"


@given(st.integers(60, 100_000))
def test_startup_probe_budget_covers_the_startup_timeout_by_less_than_one_period(timeout):
    startup = probes(timeout)["startupProbe"]
    budget = startup["periodSeconds"] * startup["failureThreshold"]
    assert timeout <= budget < timeout + startup["periodSeconds"]


def test_try_command_quotes_the_request_body_for_the_shell():
    command = try_command("vllm", "vllm-server", "it's-a-model")
    forward, request = command.split("; ", 1)
    assert forward == "kubectl -n vllm port-forward svc/vllm-server 8000:8000 & sleep 3"
    words = shlex.split(request)
    assert words[:2] == ["curl", "http://localhost:8000/v1/chat/completions"]
    body = json.loads(words[words.index("-d") + 1])
    assert body == {"model": "it's-a-model", "messages": [{"role": "user", "content": "Hello"}]}
