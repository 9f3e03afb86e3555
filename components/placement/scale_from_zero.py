"""What the Cluster Autoscaler believes about a node group at zero nodes, and whether GPU work fits it.

With no node to look at, the autoscaler's AWS provider imagines one from the Auto Scaling group
(kubernetes/autoscaler cluster-autoscaler/cloudprovider/aws/aws_manager.go, `buildNodeFromTemplate`,
tag cluster-autoscaler-1.36.1): capacity from its instance table (vCPUs, memory, GPUs; `pods` 110),
overridden by `k8s.io/cluster-autoscaler/node-template/resources/<name>` tags; allocatable equal to
capacity; labels from `.../node-template/label/<key>` tags; taints from `.../node-template/taint/<key>`
tags whose value reads `<value>:<Effect>`. EKS's own labels and taints are read through
`DescribeNodegroup` only while a managed node group has never had nodes (the autoscaler's AWS README,
"IAM Policy", on `eks:DescribeNodegroup`), so once scaled back to zero the tags are all it knows.

Two verdicts come from that:
- `gpu-pools-scale-from-zero`: every GPU workload fits the imagined node of each GPU pool it lands on, and that node
  carries every label, taint and the GPU count the node group really gives its nodes (a missing taint
  tag lets plain pods trigger GPU scale-ups; a missing label or GPU tag leaves GPU pods pending forever);
- `cpu-workloads-stay-off-gpu-pools`: every workload of the stack that requests no GPU (the autoscaler itself among them) lands on
  no GPU pool.

Pure: the tags come in as plain data, by node group (the plan reads them from the resources it registered:
stackcheck/plan/pools.py, `template_tags`), beside the pools and the placement matrix.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..facts import gpu_catalog
from ..facts.contract import NVIDIA_GPU_RESOURCE
from ..facts.gpu_catalog import CLUSTER_AUTOSCALER_TEMPLATE_TAG
from .explain import explain
from .guard import PlacementRow
from .pools import pool_gpus
from .resources import pod_requests
from .verdict import Verdict
from .workloads import pod_of, workload_id

SCALE_FROM_ZERO_NAME = "gpu-pools-scale-from-zero"
CPU_WORKLOADS_NAME = "cpu-workloads-stay-off-gpu-pools"
# The autoscaler's template node runs at most this many pods (`TODO: get a real value` upstream).
TEMPLATE_MAX_PODS = 110
_TAINT_VALUE = re.compile(r"^(.*):(NoSchedule|NoExecute|PreferNoSchedule)$")


def template_node(name: str, instance_type: str, tags: dict[str, str]) -> dict:
    """The node the autoscaler imagines for a group of `instance_type` carrying `tags`."""
    instance = gpu_catalog.lookup(instance_type)
    capacity: dict[str, str] = {"pods": str(TEMPLATE_MAX_PODS)}
    labels = {"kubernetes.io/os": "linux", "node.kubernetes.io/instance-type": instance_type}
    if instance is not None:
        capacity.update(
            {
                "cpu": str(instance.vcpus),
                "memory": f"{round(instance.memory_gib * 1024)}Mi",
                NVIDIA_GPU_RESOURCE: str(instance.gpus),
            }
        )
        labels["kubernetes.io/arch"] = instance.kubernetes_arch
    taints = []
    for key, value in sorted(tags.items()):
        kind, _, rest = key.removeprefix(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/").partition("/")
        if kind == "resources" and rest:
            capacity[rest] = value
        elif kind == "label" and rest:
            labels[rest] = value
        elif kind == "taint" and rest and (match := _TAINT_VALUE.match(value)):
            taint = {"key": rest, "effect": match.group(2)}
            if match.group(1):
                taint["value"] = match.group(1)
            taints.append(taint)
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": f"{name}-template", "labels": labels},
        "spec": {"taints": taints},
        "status": {"capacity": capacity, "allocatable": dict(capacity)},
    }


def missing_tags(pool: dict, tags: dict[str, str]) -> list[str]:
    """The node-template tags a GPU pool's node group lacks, each as the tag key it needs."""
    node = pool["node"]
    missing = []
    for key, value in sorted((node["metadata"].get("labels") or {}).items()):
        if key.startswith(("kubernetes.io/", "beta.kubernetes.io/", "node.kubernetes.io/", "eks.amazonaws.com/")):
            continue  # set by the kubelet or EKS on every node, and by the autoscaler on its template
        if tags.get(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/label/{key}") != value:
            missing.append(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/label/{key}={value}")
    for taint in node["spec"].get("taints") or ():
        expected = f"{taint.get('value', '')}:{taint['effect']}"
        if tags.get(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/taint/{taint['key']}") != expected:
            missing.append(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/taint/{taint['key']}={expected}")
    # The autoscaler's built-in instance table can lag new instance types; the tag states the GPUs for any.
    gpus = str(pool_gpus(pool))
    if tags.get(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/resources/{NVIDIA_GPU_RESOURCE}") != gpus:
        missing.append(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/resources/{NVIDIA_GPU_RESOURCE}={gpus}")
    return missing


def scale_from_zero_verdict(
    workloads: Iterable[dict], pools: list[dict], tags: dict[str, dict[str, str]], matrix: list[PlacementRow]
) -> Verdict:
    """`gpu-pools-scale-from-zero`: each GPU workload fits the template node of every GPU pool it lands on, tags complete."""
    lands = {(row.workload, row.pool) for row in matrix if row.lands}
    # Karpenter launches a node from its NodePool's own template (labels, taints, the instance type's capacity),
    # which the placement model already reads as the pool: no tags to describe it at zero.
    # So does EKS Auto Mode, from the same NodePool API.
    provisioners = {"karpenter": "Karpenter NodePool", "autoMode": "EKS Auto Mode NodePool"}
    karpenter_pools = [
        pool["name"] for pool in pools if pool_gpus(pool) > 0 and pool.get("provisioner") in provisioners
    ]
    gpu_pools = [pool for pool in pools if pool_gpus(pool) > 0 and pool["name"] not in karpenter_pools]
    problems, checked = (
        [],
        [
            f"{pool['name']}: {provisioners[pool['provisioner']]}, launched from its template"
            for pool in pools
            if pool["name"] in karpenter_pools
        ],
    )
    for pool in gpu_pools:
        pool_tags = tags.get(pool["name"], {})
        problems += [f"{pool['name']}: missing tag {tag}" for tag in missing_tags(pool, pool_tags)]
        node = template_node(pool["name"], pool["instanceType"], pool_tags)
        for workload in workloads:
            pod = pod_of(workload)
            if not pod_requests(pod).get(NVIDIA_GPU_RESOURCE) or (workload_id(workload), pool["name"]) not in lands:
                continue
            reasons = explain(pod, node)
            if reasons:
                problems.append(
                    f"{workload_id(workload)} does not fit {pool['name']} at zero nodes: {'; '.join(reasons)}"
                )
            else:
                checked.append(f"{workload_id(workload)} on {pool['name']}")
    if problems:
        return Verdict(
            SCALE_FROM_ZERO_NAME,
            False,
            f"the autoscaler cannot scale every GPU pool from zero: {problems[0]}"
            + (f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""),
            problems,
        )
    if not gpu_pools and not karpenter_pools:
        return Verdict(SCALE_FROM_ZERO_NAME, True, "no GPU pool to scale")
    return Verdict(
        SCALE_FROM_ZERO_NAME,
        True,
        "every GPU workload fits the node the autoscaler imagines for its pool at zero: "
        + (", ".join(checked) or "no GPU workload"),
        checked,
    )


def cpu_workloads_verdict(workloads: Iterable[dict], pools: list[dict], matrix: list[PlacementRow]) -> Verdict:
    """`cpu-workloads-stay-off-gpu-pools`: the stack's workloads that request no GPU (DaemonSets aside) land on no GPU pool."""
    gpu_pool_names = {pool["name"] for pool in pools if pool_gpus(pool) > 0}
    cpu_workloads = {
        workload_id(w)
        for w in workloads
        if w.get("kind") != "DaemonSet" and not pod_requests(pod_of(w)).get(NVIDIA_GPU_RESOURCE)
    }
    leaks = sorted(
        {
            f"{row.workload} on {row.pool}"
            for row in matrix
            if row.lands and row.workload in cpu_workloads and row.pool in gpu_pool_names
        }
    )
    if leaks:
        return Verdict(
            CPU_WORKLOADS_NAME,
            False,
            f"workloads that request no GPU can land on GPU pools: {', '.join(leaks)}; remove their "
            "toleration of the GPU taint, or give them a nodeSelector for the system pool",
            leaks,
        )
    landed = sorted({f"{row.workload} on {row.pool}" for row in matrix if row.lands and row.workload in cpu_workloads})
    return Verdict(
        CPU_WORKLOADS_NAME,
        True,
        "workloads that request no GPU land only on non-GPU pools: " + (", ".join(landed) or "none"),
        landed,
    )
