"""The plan's JSON carries each resource's dependencies: the URNs its `depends_on` names, and for each input given
other resources' outputs, theirs; the order `pulumi up` creates them in, readable without the program."""

from __future__ import annotations

from conftest import dev_stack_file, plan_stack_file

from components.facts.resource_types import (
    DEPLOYMENT,
    NAMESPACE,
    NODE_GROUP,
    ROUTE,
    ROUTE_TABLE_ASSOCIATION,
    SERVICE_ACCOUNT,
)


def test_the_json_plan_records_depends_on_and_what_each_input_consumes(tmp_path):
    code, report = plan_stack_file(dev_stack_file(tmp_path), tmp_path / "out")
    entries = {(entry["type"], entry["name"]): entry for entry in report["resources"]}
    deployment = entries[(DEPLOYMENT, "gpu-inference-dev-vllm-deployment")]
    gpu_nodes = entries[(NODE_GROUP, "gpu-inference-dev-gpu")]
    private = "gpu-inference-dev-network-private"
    routing = [entries[(ROUTE, f"{private}-{zone}-nat")]["urn"] for zone in range(3)] + [
        entries[(ROUTE_TABLE_ASSOCIATION, f"{private}-{zone}")]["urn"] for zone in range(3)
    ]

    assert code == 0
    # components/vllm/server.py: the pods wait for their namespace and ServiceAccount through `depends_on` alone.
    assert deployment["dependsOn"] == sorted(
        [
            entries[(NAMESPACE, "gpu-inference-dev-vllm-ns")]["urn"],
            entries[(SERVICE_ACCOUNT, "gpu-inference-dev-vllm-sa")]["urn"],
        ]
    )
    assert deployment["inputDependencies"] == {}
    # The node group's subnets resolve once the three private NAT routes and route-table associations exist
    # (components/cluster/network.py), which it names through no `depends_on`.
    assert set(routing) <= set(gpu_nodes["inputDependencies"]["subnetIds"])
    assert gpu_nodes["dependsOn"] == []
