"""From tests/vllm/test_vllm_server.py, what other test modules use too: `env`, `node`, `server_container`, `server_pod` and what they
need."""

from __future__ import annotations

from conftest import node_group_node_labels

from components.facts.contract import KUBERNETES_TAINT_EFFECT_OF_EKS as KUBERNETES_EFFECTS
from components.facts.resource_types import (
    DEPLOYMENT,
    NODE_GROUP,
)
from components.stackcheck.runtime import ProgramRun, RegisteredResource


def server_deployment(run: ProgramRun) -> dict:
    [deployment] = [d for d in run.of_type(DEPLOYMENT) if d.inputs["metadata"]["name"] == "vllm-server"]
    return deployment.inputs


def server_pod(run: ProgramRun) -> dict:
    deployment = server_deployment(run)
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": deployment["spec"]["template"]["metadata"],
        "spec": deployment["spec"]["template"]["spec"],
    }


def server_container(run: ProgramRun) -> dict:
    [container] = server_deployment(run)["spec"]["template"]["spec"]["containers"]
    return container


def node_group(run: ProgramRun, suffix: str) -> RegisteredResource:
    [group] = [resource for resource in run.of_type(NODE_GROUP) if resource.name.endswith(suffix)]
    return group


def node(run: ProgramRun, suffix: str, allocatable: dict | None = None) -> dict:
    """A node of a registered node group: its labels, its taints in Kubernetes spelling."""
    inputs = node_group(run, suffix).inputs
    taints = [{**taint, "effect": KUBERNETES_EFFECTS[taint["effect"]]} for taint in inputs.get("taints") or []]
    return {
        "metadata": {"name": f"{suffix}-0", "labels": node_group_node_labels(inputs)},
        "spec": {"taints": taints},
        "status": {"allocatable": allocatable or {}},
    }


def env(run: ProgramRun) -> dict[str, str]:
    return {item["name"]: item.get("value") for item in server_container(run)["env"]}
