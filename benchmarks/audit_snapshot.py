"""A large cluster snapshot as kubectl prints it, for benchmarks/audit_bench.py and its test.

`kubectl get nodes,pods,daemonsets -A -o json`: a List, indented by four spaces. GPU pools of g5.xlarge and
g5.12xlarge nodes (labelled and tainted by the default placement contract) and CPU pools of m6i nodes; per
node the pods of five node agents (two of which skip GPU nodes), the device plugin on GPU nodes (a few nodes
advertise no GPU); one-GPU vLLM pods filling the GPU nodes but every 30th (idle), every 25th pending on a GPU
product the cluster lacks; web pods leaking onto GPU nodes with a catch-all toleration; the rest app pods from
500 Deployments on the CPU nodes. Pods carry what real ones do: labels, annotations, owner references,
containers with env, ports, probes, volume mounts, the projected service-account volume, and status with
conditions and container statuses (8-12 KB each as kubectl indents them, about 4 KB compact).

The importer puts the repository root on the path.
"""

from __future__ import annotations

import json
from pathlib import Path

from components.facts.contract import PlacementContract

CONTRACT = PlacementContract()
GPU_TYPES = (("g5.xlarge", 1, "23Gi"), ("g5.12xlarge", 4, "186Gi"))
CPU_TYPES = (("m6i.2xlarge", "8", "29Gi"), ("m6i.4xlarge", "16", "59Gi"))
DEFAULT_TOLERATIONS = [
    {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300},
    {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300},
]


def node(index: int, gpu_fraction: float, pools: int) -> dict:
    pool = index % pools
    gpu = pool < max(1, int(pools * gpu_fraction))
    name = f"ip-10-{index // 250}-{index % 250}-{pool}.us-west-2.compute.internal"
    labels = {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/os": "linux",
        "kubernetes.io/hostname": name,
        "topology.kubernetes.io/region": "us-west-2",
        "topology.kubernetes.io/zone": f"us-west-2{'abc'[index % 3]}",
        "eks.amazonaws.com/capacityType": "ON_DEMAND",
        "eks.amazonaws.com/nodegroup-image": "ami-0123456789abcdef0",
        "k8s.io/cloud-provider-aws": "a1b2c3d4e5",
    }
    taints = []
    if gpu:
        itype, gpus, memory = GPU_TYPES[pool % len(GPU_TYPES)]
        labels.update(CONTRACT.node_labels())
        taints = [t.to_kubernetes() for t in CONTRACT.node_taints()]
        allocatable = {
            "cpu": "3920m" if gpus == 1 else "47810m",
            "memory": memory,
            "pods": "58" if gpus == 1 else "234",
            "ephemeral-storage": "95551679124",
            "hugepages-1Gi": "0",
            "hugepages-2Mi": "0",
        }
        if index % 97 != 5:  # a few nodes whose device plugin is not up
            allocatable["nvidia.com/gpu"] = str(gpus)
    else:
        itype, cpu, memory = CPU_TYPES[pool % len(CPU_TYPES)]
        allocatable = {
            "cpu": f"{int(cpu) * 1000 - 90}m",
            "memory": memory,
            "pods": "58",
            "ephemeral-storage": "47233297124",
            "hugepages-1Gi": "0",
            "hugepages-2Mi": "0",
        }
    labels.update(
        {
            "node.kubernetes.io/instance-type": itype,
            "beta.kubernetes.io/instance-type": itype,
            "eks.amazonaws.com/nodegroup": f"pool-{pool}",
        }
    )
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {
                "alpha.kubernetes.io/provided-node-ip": "10.0.0.1",
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true",
            },
            "creationTimestamp": "2026-11-20T10:00:00Z",
            "labels": labels,
            "name": name,
            "resourceVersion": str(1000000 + index),
            "uid": f"0000-node-{index:08d}",
        },
        "spec": {"providerID": f"aws:///us-west-2a/i-{index:017x}", **({"taints": taints} if taints else {})},
        "status": {
            "addresses": [{"address": "10.0.0.1", "type": "InternalIP"}, {"address": name, "type": "Hostname"}],
            "allocatable": allocatable,
            "capacity": dict(allocatable),
            "conditions": [
                {
                    "lastHeartbeatTime": "2026-12-01T08:00:00Z",
                    "lastTransitionTime": "2026-11-20T10:01:00Z",
                    "message": f"kubelet has sufficient {what}",
                    "reason": f"KubeletHasSufficient{what}",
                    "status": "False",
                    "type": f"{what}Pressure",
                }
                for what in ("Memory", "Disk", "PID")
            ]
            + [
                {
                    "lastHeartbeatTime": "2026-12-01T08:00:00Z",
                    "lastTransitionTime": "2026-11-20T10:01:00Z",
                    "message": "kubelet is posting ready status",
                    "reason": "KubeletReady",
                    "status": "True",
                    "type": "Ready",
                }
            ],
            "nodeInfo": {
                "architecture": "amd64",
                "containerRuntimeVersion": "containerd://1.7.27",
                "kernelVersion": "6.1.0",
                "kubeletVersion": "v1.36.0-eks",
                "osImage": "Amazon Linux 2023",
            },
        },
    }, gpu


def container(name: str, image: str, requests: dict, limits: dict, env_count: int) -> dict:
    return {
        "env": [
            {"name": f"{name.upper().replace('-', '_')}_SETTING_{i}", "value": f"value-{i}-{name}"}
            for i in range(env_count)
        ]
        + [{"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}}],
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "name": name,
        "livenessProbe": {
            "failureThreshold": 3,
            "httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"},
            "periodSeconds": 10,
            "successThreshold": 1,
            "timeoutSeconds": 1,
        },
        "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
        "resources": {"requests": requests, **({"limits": limits} if limits else {})},
        "securityContext": {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True, "runAsNonRoot": True},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
        "volumeMounts": [
            {"mountPath": "/etc/config", "name": "config"},
            {"mountPath": "/tmp", "name": "tmp"},
            {"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "name": "kube-api-access", "readOnly": True},
        ],
    }


def pod(
    index: int,
    namespace: str,
    owner_kind: str,
    owner: str,
    node_name: str | None,
    spec_extra: dict,
    containers: list[dict],
) -> dict:
    name = f"{owner}-{index:07d}"
    phase = "Running" if node_name else "Pending"
    spec = {
        "containers": containers,
        "dnsPolicy": "ClusterFirst",
        "enableServiceLinks": True,
        "preemptionPolicy": "PreemptLowerPriority",
        "priority": 0,
        "restartPolicy": "Always",
        "schedulerName": "default-scheduler",
        "securityContext": {"fsGroup": 2000},
        "serviceAccount": owner,
        "serviceAccountName": owner,
        "terminationGracePeriodSeconds": 30,
        "tolerations": list(DEFAULT_TOLERATIONS),
        "volumes": [
            {"configMap": {"defaultMode": 420, "name": f"{owner}-config"}, "name": "config"},
            {"emptyDir": {}, "name": "tmp"},
            {
                "name": "kube-api-access",
                "projected": {
                    "defaultMode": 420,
                    "sources": [
                        {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                        {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
                        {
                            "downwardAPI": {
                                "items": [
                                    {
                                        "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"},
                                        "path": "namespace",
                                    }
                                ]
                            }
                        },
                    ],
                },
            },
        ],
    }
    for key, value in spec_extra.items():
        spec[key] = value + spec["tolerations"] if key == "tolerations" else value
    if node_name:
        spec["nodeName"] = node_name
    conditions = [
        {"lastProbeTime": None, "lastTransitionTime": "2026-11-30T12:00:00Z", "status": "True", "type": t}
        for t in ("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled")
    ]
    if not node_name:
        conditions = [
            {
                "lastProbeTime": None,
                "lastTransitionTime": "2026-11-30T12:00:00Z",
                "message": "0/5000 nodes are available: insufficient nvidia.com/gpu.",
                "reason": "Unschedulable",
                "status": "False",
                "type": "PodScheduled",
            }
        ]
    status = {"conditions": conditions, "phase": phase, "qosClass": "Burstable"}
    if node_name:
        status.update(
            {
                "containerStatuses": [
                    {
                        "containerID": f"containerd://{index:064x}",
                        "image": c["image"],
                        "imageID": f"{c['image'].split(':')[0]}@sha256:{index:064x}",
                        "lastState": {},
                        "name": c["name"],
                        "ready": True,
                        "restartCount": 0,
                        "started": True,
                        "state": {"running": {"startedAt": "2026-11-30T12:00:05Z"}},
                    }
                    for c in containers
                ],
                "hostIP": "10.0.0.1",
                "hostIPs": [{"ip": "10.0.0.1"}],
                "podIP": f"10.1.{index // 250 % 250}.{index % 250}",
                "podIPs": [{"ip": f"10.1.{index // 250 % 250}.{index % 250}"}],
                "startTime": "2026-11-30T12:00:00Z",
            }
        )
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "annotations": {
                "kubectl.kubernetes.io/restartedAt": "2026-11-30T11:59:00Z",
                "prometheus.io/scrape": "true",
                "prometheus.io/port": "8080",
            },
            "creationTimestamp": "2026-11-30T12:00:00Z",
            "generateName": f"{owner}-",
            "labels": {
                "app.kubernetes.io/name": owner,
                "app.kubernetes.io/instance": owner,
                "app.kubernetes.io/part-of": namespace,
                "pod-template-hash": "5d8f7c9b6d",
            },
            "name": name,
            "namespace": namespace,
            "ownerReferences": [
                {
                    "apiVersion": "apps/v1",
                    "blockOwnerDeletion": True,
                    "controller": True,
                    "kind": owner_kind,
                    "name": owner,
                    "uid": f"uid-{owner}",
                }
            ],
            "resourceVersion": str(2000000 + index),
            "uid": f"0000-pod-{index:012d}",
        },
        "spec": spec,
        "status": status,
    }


def build(nodes: int, pods: int):
    """Yield the items: nodes, DaemonSets, then pods, `pods` in all."""
    node_objs = [node(i, 0.2, 20) for i in range(nodes)]
    yield from (n for n, _ in node_objs)
    gpu_nodes = [n["metadata"]["name"] for n, gpu in node_objs if gpu]
    cpu_nodes = [n["metadata"]["name"] for n, gpu in node_objs if not gpu]
    all_tolerations = [{"operator": "Exists"}]
    agents = [
        ("kube-system", "aws-node", all_tolerations),
        ("kube-system", "kube-proxy", all_tolerations),
        ("kube-system", "ebs-csi-node", all_tolerations),
        ("monitoring", "node-exporter", []),
        ("logging", "fluent-bit", []),
    ]
    for namespace, name, tolerations in agents:
        yield {
            "apiVersion": "apps/v1",
            "kind": "DaemonSet",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {
                "template": {
                    "metadata": {"labels": {"app": name}},
                    "spec": {
                        "tolerations": tolerations,
                        "containers": [
                            container(name, f"registry.example/{name}:1.0", {"cpu": "50m", "memory": "64Mi"}, {}, 3)
                        ],
                    },
                }
            },
        }
    yield {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "nvidia-device-plugin", "namespace": "kube-system"},  # recognised by its image
        "spec": {
            "template": {
                "metadata": {"labels": {"app": "nvidia-device-plugin"}},
                "spec": {
                    "nodeSelector": CONTRACT.node_selector(),
                    "tolerations": CONTRACT.tolerations(),
                    "containers": [
                        container("nvidia-device-plugin", "nvcr.io/nvidia/k8s-device-plugin:v0.18.0", {}, {}, 2)
                    ],
                },
            }
        },
    }
    plugin = ("kube-system", "nvidia-device-plugin", CONTRACT.tolerations())
    index = 0
    for node_name in gpu_nodes + cpu_nodes:  # node agents: every agent on every node it tolerates
        for namespace, name, tolerations in agents + ([plugin] if node_name in gpu_nodes else []):
            if node_name in gpu_nodes and not tolerations:
                continue
            if index >= pods:
                return
            affinity = {
                "nodeAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": {
                        "nodeSelectorTerms": [
                            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node_name]}]}
                        ]
                    }
                }
            }
            yield pod(
                index,
                namespace,
                "DaemonSet",
                name,
                node_name,
                {"affinity": affinity, "tolerations": tolerations},
                [container(name, f"registry.example/{name}:1.0", {"cpu": "50m", "memory": "64Mi"}, {}, 1)],
            )
            index += 1
    # GPUs left per GPU node; every 30th GPU node stays idle.
    free = [
        (n["metadata"]["name"], int(n["status"]["allocatable"].get("nvidia.com/gpu", 0))) for n, gpu in node_objs if gpu
    ]
    slots = [name for position, (name, gpus) in enumerate(free) if position % 30 != 29 for _ in range(gpus)]
    vllm = 0
    while index < pods:
        kind = index % 40
        if kind == 0:  # vLLM, one GPU each, while GPUs last; every 25th asks for an H100 the cluster lacks
            selector = CONTRACT.node_selector()
            if vllm % 25 == 24:
                selector = {**selector, "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}
            node_name = slots.pop() if slots and vllm % 25 != 24 else None
            vllm += 1
            c = container(
                "vllm",
                "vllm/vllm-openai:v0.11.0",
                {"cpu": "3", "memory": "15Gi", "nvidia.com/gpu": "1"},
                {"nvidia.com/gpu": "1"},
                8,
            )
            yield pod(
                index,
                f"llm-{index % 7}",
                "ReplicaSet",
                f"vllm-{index % 7}",
                node_name,
                {"nodeSelector": selector, "tolerations": CONTRACT.tolerations()},
                [c],
            )
        elif kind == 1 and index % 400 == 1:  # a web pod that tolerates everything, on a GPU node
            node_name = gpu_nodes[index % len(gpu_nodes)]
            c = container("web", "nginx:1.29", {"cpu": "100m", "memory": "128Mi"}, {"memory": "256Mi"}, 8)
            yield pod(
                index, "web", "ReplicaSet", "catch-all", node_name, {"tolerations": [{"operator": "Exists"}]}, [c]
            )
        else:
            app = index % 500
            node_name = cpu_nodes[index % len(cpu_nodes)]
            containers = [
                container(
                    f"app-{app}",
                    f"registry.example/app-{app}:2.{app % 9}",
                    {"cpu": f"{100 + (app % 5) * 50}m", "memory": f"{128 * (1 + app % 4)}Mi"},
                    {"memory": f"{256 * (1 + app % 4)}Mi"},
                    2 + app % 4,
                )
            ]
            if app % 10 == 0:
                containers.append(
                    container("sidecar", "registry.example/proxy:1.4", {"cpu": "50m", "memory": "64Mi"}, {}, 1)
                )
            yield pod(index, f"team-{app % 30}", "ReplicaSet", f"app-{app}", node_name, {}, containers)
        index += 1


def write_snapshot(path: Path, nodes: int, pods: int, compact: bool = False) -> None:
    """Write the snapshot of `nodes` nodes and `pods` pods to `path`, streamed item by item.

    Indented by four spaces as kubectl prints it, or with `compact` on one line with no spaces, as `jq -c`
    and the API server write it.
    """
    with open(path, "w") as out:
        if compact:
            out.write('{"apiVersion":"v1","items":[')
            for index, item in enumerate(build(nodes, pods)):
                out.write(("," if index else "") + json.dumps(item, separators=(",", ":")))
            out.write('],"kind":"List","metadata":{"resourceVersion":""}}')
            return
        out.write('{\n    "apiVersion": "v1",\n    "items": [\n')
        first = True
        for item in build(nodes, pods):
            text = json.dumps(item, indent=4)
            out.write(("" if first else ",\n") + "        " + text.replace("\n", "\n        "))
            first = False
        out.write('\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n')
