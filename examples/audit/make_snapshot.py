"""Write examples/audit/dev-cluster.json: the dev stack's cluster as `kubectl get -o json` shows it, with one
problem of each kind the audit finds.

Run from the repository root: `.venv/bin/python examples/audit/make_snapshot.py`.

The cluster: the dev stack's node groups (Pulumi.dev.yaml: the m6i.large system group and the g5.xlarge
GPU group, labelled and tainted by the stack's placement contract) as placement.pools_for_node_groups
models them, the GPU group scaled to three nodes; the stack's own NVIDIA device plugin DaemonSet and vLLM
Deployment (the component builders), CoreDNS on the system nodes. Injected problems:

  idle GPUs            gpu node 2 advertises its GPU and runs no GPU pod
  leak onto GPU nodes  Deployment web tolerates every taint (`operator: Exists`) and runs on gpu node 2
  pending GPU pod      Job embed-batch requests a GPU without tolerating the GPU taint
  GPU not advertised   gpu node 3 lists no nvidia.com/gpu; its device-plugin pod runs but finds no GPU
  node agent missing   DaemonSet monitoring/node-exporter tolerates nothing, so it skips the GPU nodes
  model vs reality     Deployment reports selects node group `system-old`, renamed since its pods started
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from components.facts import gpu_catalog  # noqa: E402
from components.facts.versions import DEVICE_PLUGIN_VERSION  # noqa: E402
from components.gpu_agents.device_plugin import daemonset as device_plugin_daemonset  # noqa: E402
from components.placement import NodeGroupSpec, pools_for_node_groups, system_addon_pod  # noqa: E402
from components.settings import parse_stack_config  # noqa: E402
from components.stackcheck.stack_config import load_stack_config  # noqa: E402
from components.vllm.manifests import deployment as vllm_deployment  # noqa: E402

OUT = Path(__file__).resolve().parent / "dev-cluster.json"
GPU_NODES = 3


def _nodes(settings) -> list[dict]:
    contract = settings.contract
    system, gpu = settings.system_node_group, settings.gpu_node_group
    groups = [
        NodeGroupSpec("system", system.instance_types[0], system.desired_size, disk_size_gib=system.disk_size),
        NodeGroupSpec(
            "gpu",
            gpu.instance_types[0],
            GPU_NODES,
            contract.node_labels(),
            [t.to_kubernetes() for t in contract.node_taints()],
            disk_size_gib=gpu.disk_size,
        ),
    ]
    nodes = []
    for pool in pools_for_node_groups(groups, device_plugin_pools=["gpu"]):
        for index in range(pool["count"]):
            node = copy.deepcopy(pool["node"])
            name = f"ip-10-0-{1 if pool['name'] == 'system' else 2}-{10 + index}.us-west-2.compute.internal"
            node["metadata"]["name"] = name
            node["metadata"]["labels"]["kubernetes.io/hostname"] = name
            node["status"]["capacity"] = dict(node["status"]["allocatable"])
            node["status"]["conditions"] = [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]
            nodes.append(node)
    # Problem: the third GPU node's device plugin finds no GPU, so the kubelet lists none.
    del nodes[-1]["status"]["allocatable"]["nvidia.com/gpu"]
    del nodes[-1]["status"]["capacity"]["nvidia.com/gpu"]
    return nodes


def _pod(template_owner: dict, name: str, node: str | None, phase: str, owner_kind: str, owner_name: str) -> dict:
    template = template_owner["spec"]["template"] if "template" in template_owner.get("spec", {}) else template_owner
    metadata = copy.deepcopy(template.get("metadata") or {})
    metadata.update(
        {
            "name": name,
            "namespace": template_owner["metadata"].get("namespace") or "default",
            "ownerReferences": [
                {
                    "apiVersion": "apps/v1",
                    "kind": owner_kind,
                    "name": owner_name,
                    "controller": True,
                    "uid": f"uid-{owner_name}",
                }
            ],
        }
    )
    spec = copy.deepcopy(template["spec"])
    status = {"phase": phase}
    if node:
        spec["nodeName"] = node
    else:
        status["conditions"] = [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec, "status": status}


def _daemon_pod(daemonset: dict, node: str, suffix: str) -> dict:
    pod = _pod(
        daemonset,
        f"{daemonset['metadata']['name']}-{suffix}",
        node,
        "Running",
        "DaemonSet",
        daemonset["metadata"]["name"],
    )
    # The DaemonSet controller pins each pod to its node with a matchFields term.
    pod["spec"]["affinity"] = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node]}]}]
            }
        }
    }
    return pod


def _workload(kind: str, namespace: str, name: str, spec: dict) -> dict:
    return {
        "apiVersion": "apps/v1" if kind != "Job" else "batch/v1",
        "kind": kind,
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"template": {"metadata": {"labels": {"app": name}}, "spec": spec}},
    }


def build() -> dict:
    config = load_stack_config(ROOT, "dev")
    settings = parse_stack_config(config.values, config.secret_keys, project=config.project)
    contract = settings.contract
    nodes = _nodes(settings)
    system = [
        n["metadata"]["name"] for n in nodes if n["metadata"]["labels"]["eks.amazonaws.com/nodegroup"] == "system"
    ]
    gpu = [n["metadata"]["name"] for n in nodes if n["metadata"]["labels"]["eks.amazonaws.com/nodegroup"] == "gpu"]

    plugin = device_plugin_daemonset("device-plugin", contract, DEVICE_PLUGIN_VERSION)
    exporter = _workload(
        "DaemonSet",
        "monitoring",
        "node-exporter",
        {  # problem: no toleration of the GPU taint
            "containers": [
                {
                    "name": "node-exporter",
                    "image": "quay.io/prometheus/node-exporter:v1.9.1",
                    "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}},
                }
            ]
        },
    )
    vllm = vllm_deployment(
        "vllm", settings.vllm, contract, gpu_catalog.lookup(settings.gpu_node_group.instance_types[0])
    )
    coredns = system_addon_pod()
    web = _workload(
        "Deployment",
        "default",
        "web",
        {  # problem: tolerates every taint
            "tolerations": [{"operator": "Exists"}],
            "containers": [
                {"name": "web", "image": "nginx:1.29", "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}}
            ],
        },
    )
    embed = _workload(
        "Job",
        "batch",
        "embed-batch",
        {  # problem: requests a GPU, tolerates nothing
            "restartPolicy": "Never",
            "containers": [{"name": "embed", "image": "python:3.13", "resources": {"limits": {"nvidia.com/gpu": "1"}}}],
        },
    )
    reports = _workload(
        "Deployment",
        "default",
        "reports",
        {  # problem: selects a node group renamed since
            "nodeSelector": {"eks.amazonaws.com/nodegroup": "system-old"},
            "containers": [{"name": "reports", "image": "nginx:1.29", "resources": {"requests": {"cpu": "100m"}}}],
        },
    )

    pods = []
    for index, node in enumerate(system + gpu):
        if node in gpu:
            pods.append(_daemon_pod(plugin, node, f"g{index}"))
        else:
            pods.append(_daemon_pod(exporter, node, f"s{index}"))
    pods.append(_pod(vllm, "vllm-7d9f8-abcde", gpu[0], "Running", "ReplicaSet", "vllm-7d9f8"))
    pods.append(
        _pod(
            {"metadata": coredns["metadata"], "spec": {"template": coredns}},
            "coredns-5d78c-x1",
            system[0],
            "Running",
            "ReplicaSet",
            "coredns-5d78c",
        )
    )
    pods.append(_pod(web, "web-6c9b7-q2w3e", gpu[1], "Running", "ReplicaSet", "web-6c9b7"))
    pods.append(_pod(web, "web-6c9b7-r4t5y", system[1], "Running", "ReplicaSet", "web-6c9b7"))
    pods.append(_pod(embed, "embed-batch-k8s7p", None, "Pending", "Job", "embed-batch"))
    pods.append(_pod(reports, "reports-5f6d7-z9x8c", system[1], "Running", "ReplicaSet", "reports-5f6d7"))
    return {
        "apiVersion": "v1",
        "items": [*nodes, *pods, plugin, exporter],
        "kind": "List",
        "metadata": {"resourceVersion": ""},
    }


if __name__ == "__main__":
    # One item a line (the file stays short and greppable); the audit reads any JSON layout.
    document = build()
    items = ",\n".join("  " + json.dumps(item, sort_keys=True) for item in document.pop("items"))
    envelope = json.dumps(document)[1:-1]
    OUT.write_text(f'{{"items": [\n{items}\n], {envelope}}}\n')
    print(f"wrote {OUT.relative_to(ROOT)}")
