"""The objects the placement model builds are Kubernetes objects: a pool's node is a v1 Node, the guard's
probes are v1 Pods; a lookup may describe CPU-only instance types without a GPU count."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest

from components.placement import NodeGroupSpec, plain_pod, pod_requests, pools_for_node_groups, system_addon_pod


def test_each_pool_node_is_a_v1_node_object_named_after_the_pool():
    (pool,) = pools_for_node_groups([NodeGroupSpec("system", "m6i.large", 2, {}, [])])
    node = pool["node"]
    assert (node["apiVersion"], node["kind"], node["metadata"]["name"]) == ("v1", "Node", "system-0")


def test_a_lookup_entry_without_a_gpu_count_makes_a_pool_without_gpus():
    # Anything with the catalog's CPU fields will do: a CPU-only entry need not name a GPU count.
    cpu_only = SimpleNamespace(vcpus=4, memory_gib=16, max_pods=58, kubernetes_arch="amd64")
    (pool,) = pools_for_node_groups([NodeGroupSpec("custom", "x9.large", 1, {}, [])], lookup=lambda name: cpu_only)
    assert pool["gpusPerNode"] == 0
    assert pool["unknown"] is False
    assert "nvidia.com/gpu" not in pool["node"]["status"]["allocatable"]
    assert pool["node"]["metadata"]["labels"]["kubernetes.io/arch"] == "amd64"


@pytest.mark.parametrize(
    ("probe", "name"),
    [
        pytest.param(plain_pod, "default/plain-pod", id="the plain probe is a v1 Pod in default"),
        pytest.param(system_addon_pod, "kube-system/coredns", id="the add-on probe is a v1 Pod in kube-system"),
    ],
)
def test_the_guard_probes_are_v1_pods(probe, name):
    pod = probe()
    assert (pod["apiVersion"], pod["kind"]) == ("v1", "Pod")
    assert f"{pod['metadata']['namespace']}/{pod['metadata']['name']}" == name


@pytest.mark.parametrize(
    ("probe", "cpu_milli", "memory_mi", "tolerated"),
    [
        pytest.param(plain_pod, 100, 64, [], id="the plain probe asks 100m and 64Mi and tolerates nothing"),
        pytest.param(
            system_addon_pod,
            100,
            70,
            ["CriticalAddonsOnly", "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"],
            id="the add-on probe asks what CoreDNS asks and tolerates what it tolerates",
        ),
    ],
)
def test_the_guard_probes_request_and_tolerate_as_documented(probe, cpu_milli, memory_mi, tolerated):
    pod = probe()
    requests = pod_requests(pod)
    assert requests["cpu"] == Fraction(cpu_milli, 1000)
    assert requests["memory"] == memory_mi * 1024 * 1024
    assert [t["key"] for t in pod["spec"].get("tolerations", [])] == tolerated
    assert "nodeSelector" not in pod["spec"] and "affinity" not in pod["spec"]
