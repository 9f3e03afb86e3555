"""`plan --compare` of a changed AMI pin on a Karpenter pool: the EC2NodeClass updates in place, and every node of
the NodePools that name it drifts (aws/karpenter-provider-aws website/content/en/v1.14/concepts/disruption.md at
1d927085, "Drift": a node whose AMI no longer matches the class's `amiSelectorTerms` is drifted and replaced,
within the NodePool's budget, the new node first). Hand-made plan documents in the shape `--format json` writes:
no program run."""

from __future__ import annotations

import copy

from components.facts import versions
from components.facts.resource_types import DEPLOYMENT, KARPENTER_NODE_CLASS, KARPENTER_NODE_POOL
from components.stackcheck.plan.compare import compare
from components.stackcheck.plan.drift import drift_words
from components.stackcheck.plan.report.compare import comparison_section

PINNED = f"al2023@{versions.KARPENTER_AL2023_AMI_RELEASE}"
NEXT = "al2023@v20261015"  # any later release; the comparison reads only that the pin changed


def resource(resource_type: str, name: str, inputs: dict) -> dict:
    urn = f"urn:pulumi:dev::eks-gpu-inference::{resource_type}::{name}"
    return {"type": resource_type, "name": name, "urn": urn, "inputs": inputs}


def document(alias: str, replicas: int = 1) -> dict:
    node_class = resource(
        KARPENTER_NODE_CLASS,
        "gpu-inference-dev-gpu-node-class",
        {"metadata": {"name": "gpu"}, "spec": {"amiSelectorTerms": [{"alias": alias}], "role": "node-role"}},
    )
    pool = resource(
        KARPENTER_NODE_POOL,
        "gpu-inference-dev-gpu-node-pool",
        {
            "metadata": {"name": "gpu"},
            "spec": {
                "template": {
                    "spec": {"nodeClassRef": {"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "gpu"}}
                },
                "disruption": {"budgets": [{"nodes": "1"}]},
            },
        },
    )
    server = resource(
        DEPLOYMENT,
        "gpu-inference-dev-vllm-deployment",
        {
            "metadata": {"name": "vllm-server", "namespace": "vllm"},
            "spec": {
                "replicas": replicas,
                "template": {"spec": {"containers": [{"args": ["--served-model-name", "qwen"]}]}},
            },
        },
    )
    row = {"pool": "gpu", "lands": True, "resource": f"{DEPLOYMENT}::{server['name']}", "workload": "vllm/vllm-server"}
    return {"schemaVersion": 1, "stack": "dev", "resources": [node_class, pool, server], "matrix": [row]}


def test_a_changed_ami_pin_drifts_every_node_of_the_pools_naming_the_class():
    comparison = compare(document(PINNED), document(NEXT), "before.json")

    [change] = comparison.changed
    assert (change.type, change.action) == (KARPENTER_NODE_CLASS, "update")
    assert change.drift is not None
    assert change.drift.pools == ("gpu",)
    assert change.drift.budgets == ("gpu: 1",)
    [workload] = change.drift.workloads
    assert (workload.workload, workload.replicas, workload.model, workload.goes_down) == (
        "vllm/vllm-server",
        1,
        "qwen",
        True,
    )


def test_the_report_says_the_pool_drifts_and_the_one_replica_model_goes_down():
    comparison = compare(document(PINNED), document(NEXT), "before.json")
    section = comparison_section(comparison)

    [row] = section.data["comparison"]["changed"]
    assert row["drift"] == {
        "pools": ["gpu"],
        "budgets": ["gpu: 1"],
        "workloads": [{"workload": "vllm/vllm-server", "replicas": 1, "model": "qwen", "goesDown": True}],
    }
    assert section.severity == "warning"
    assert drift_words(comparison.changed[0].drift) == (
        "drifts every node of gpu (nodes at a time: gpu: 1), each new node first, moving vllm/vllm-server (qwen), "
        "1 replica(s): down until its pod serves on a new node"
    )


def test_another_change_of_the_class_drifts_nothing_and_a_two_replica_model_keeps_serving():
    role_only = document(PINNED)
    role_only["resources"][0]["inputs"]["spec"]["role"] = "another-role"
    [change] = compare(document(PINNED), role_only, "before.json").changed
    assert change.drift is None

    [drifting] = compare(document(PINNED, replicas=2), document(NEXT, replicas=2), "before.json").changed
    assert drifting.drift is not None and not drifting.drift.workloads[0].goes_down


def test_an_unchanged_pin_changes_nothing():
    assert compare(document(PINNED), copy.deepcopy(document(PINNED)), "before.json").changed == ()
