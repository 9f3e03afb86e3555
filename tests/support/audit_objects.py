"""Small hand-built cluster objects for the audit's tests, in the JSON form kubectl prints."""

from __future__ import annotations

import json
from pathlib import Path

from components.stackcheck.__main__ import main

GPU_TAINT = {"key": "GPU", "value": "true", "effect": "NoSchedule"}
GPU_TOLERATION = {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}
GPU_LABELS = {"GPU": "true", "nvidia.com/gpu.present": "true"}
# Tolerates every taint, as node agents do.
ALL_TAINTS = [{"operator": "Exists"}]
# How the stack places vLLM: tolerates the GPU taint and selects the GPU label.
VLLM = {"tolerations": [GPU_TOLERATION], "node_selector": {"GPU": "true"}}


def node(
    name: str,
    instance_type: str = "m6i.large",
    *,
    pool: str | None = None,
    labels: dict | None = None,
    taints: list | None = None,
    gpus: int | None = None,
    unschedulable: bool = False,
) -> dict:
    allocatable = {"cpu": "3920m", "memory": "15Gi", "pods": "58"}
    if gpus is not None:
        allocatable["nvidia.com/gpu"] = str(gpus)
    spec = {"taints": taints or []}
    if unschedulable:
        spec["unschedulable"] = True
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "labels": {
                "kubernetes.io/hostname": name,
                "node.kubernetes.io/instance-type": instance_type,
                "eks.amazonaws.com/nodegroup": pool or instance_type.split(".")[0],
                **(labels or {}),
            },
        },
        "spec": spec,
        "status": {"allocatable": allocatable},
    }


def gpu_node(name: str, gpus: int | None = 1, *, pool: str = "gpu", taints: list | None = None) -> dict:
    return node(
        name, "g5.xlarge", pool=pool, labels=GPU_LABELS, taints=[GPU_TAINT] if taints is None else taints, gpus=gpus
    )


def pod(
    name: str,
    node_name: str | None = None,
    *,
    namespace: str = "default",
    phase: str | None = None,
    gpus: int = 0,
    cpu: str = "100m",
    tolerations: list | None = None,
    node_selector: dict | None = None,
    affinity: dict | None = None,
    owner: tuple[str, str] | None = ("ReplicaSet", "app"),
    labels: dict | None = None,
    image: str = "nginx:1.29",
) -> dict:
    requests = {"cpu": cpu}
    limits = {}
    if gpus:
        requests["nvidia.com/gpu"] = str(gpus)
        limits["nvidia.com/gpu"] = str(gpus)
    spec: dict = {
        "containers": [
            {
                "name": "main",
                "image": image,
                "resources": {"requests": requests, **({"limits": limits} if limits else {})},
            }
        ]
    }
    if tolerations is not None:
        spec["tolerations"] = tolerations
    if node_selector is not None:
        spec["nodeSelector"] = node_selector
    if affinity is not None:
        spec["affinity"] = affinity
    if node_name:
        spec["nodeName"] = node_name
    metadata: dict = {"name": name, "namespace": namespace, "labels": labels or {}}
    if owner:
        metadata["ownerReferences"] = [{"kind": owner[0], "name": owner[1], "controller": True}]
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": metadata,
        "spec": spec,
        "status": {"phase": phase or ("Running" if node_name else "Pending")},
    }


def daemonset(
    name: str,
    *,
    namespace: str = "kube-system",
    tolerations: list | None = None,
    node_selector: dict | None = None,
    image: str = "registry.example/agent:1.0",
    labels: dict | None = None,
) -> dict:
    spec: dict = {"containers": [{"name": name, "image": image}]}
    if tolerations is not None:
        spec["tolerations"] = tolerations
    if node_selector is not None:
        spec["nodeSelector"] = node_selector
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": name, "namespace": namespace, "labels": labels or {}},
        "spec": {"template": {"metadata": {"labels": {"app": name}}, "spec": spec}},
    }


def device_plugin() -> dict:
    return daemonset(
        "nvidia-device-plugin",
        tolerations=[GPU_TOLERATION],
        node_selector={"GPU": "true"},
        image="nvcr.io/nvidia/k8s-device-plugin:v0.18.0",
    )


def daemon_pod(ds: dict, node_name: str) -> dict:
    """The pod the DaemonSet controller makes for `node_name`: its template, pinned by matchFields."""
    template = ds["spec"]["template"]["spec"]
    made = pod(
        f"{ds['metadata']['name']}-{node_name}",
        node_name,
        namespace=ds["metadata"]["namespace"],
        tolerations=template.get("tolerations"),
        node_selector=template.get("nodeSelector"),
        owner=("DaemonSet", ds["metadata"]["name"]),
        image=template["containers"][0]["image"],
        affinity={
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node_name]}]}
                    ]
                }
            }
        },
    )
    return made


def snapshot(*items: dict) -> dict:
    return {"apiVersion": "v1", "items": list(items), "kind": "List", "metadata": {"resourceVersion": ""}}


def write(path: Path, document: dict | str | bytes, indent: int | None = 4) -> Path:
    if isinstance(document, dict):
        document = json.dumps(document, indent=indent)
    if isinstance(document, str):
        document = document.encode()
    path.write_bytes(document)
    return path


def audit_json(capsys, tmp_path: Path, *items: dict, args: tuple[str, ...] = ()) -> tuple[int, dict]:
    """Run `python -m components.stackcheck audit --format json` on a snapshot of `items`; the exit code and the document."""
    file = write(tmp_path / "snapshot.json", snapshot(*items))
    code = main(["audit", "--snapshot", str(file), "--format", "json", *args])
    out = capsys.readouterr().out
    return code, json.loads(out)


def of_kind(document: dict, kind: str) -> list[dict]:
    return [f for f in document["findings"] if f["kind"] == kind]
