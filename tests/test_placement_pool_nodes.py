"""The node a pool stands for is a Kubernetes Node object, and a lookup may describe CPU-only instance
types without a GPU count."""

from __future__ import annotations

from types import SimpleNamespace

from placement import NodeGroupSpec, pools_for_node_groups


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
