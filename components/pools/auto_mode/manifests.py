"""An EKS Auto Mode GPU pool's objects as plain values: its `NodePool` (karpenter.sh/v1, the API Auto Mode shares
with Karpenter) and its `NodeClass` (eks.amazonaws.com/v1), and the cluster's Auto Mode settings.

The NodePool is a Karpenter pool's (karpenter_manifests.node_pool: the contract's labels and taints, the pool's
instance types, capacity type and architecture, its GPU and vCPU limits, disruption of empty nodes one at a time)
with two differences (facts/auto_mode.py has the sources): its `nodeClassRef` names an `eks.amazonaws.com`
`NodeClass`, and its nodes expire within Auto Mode's 21-day lifetime. The NodeClass sets what Auto Mode lets a
NodeClass set: the node role (which has an `EC2` access entry, components/pools/auto_mode/nodes.py), the subnets and the
cluster security group by id, the ephemeral storage of the pool's disk size, and tags.

Network policies: Auto Mode nodes enforce them once the `amazon-vpc-cni` ConfigMap has
`enable-network-policy-controller: "true"` (EKS user guide, automode/auto-net-pol.adoc at 0138560). The stack's
VPC CNI add-on writes that ConfigMap from its `enableNetworkPolicy: "true"` (aws/amazon-vpc-cni-k8s
charts/aws-vpc-cni/templates/configmap.yaml at 224bcaab), and the NodeClass keeps `networkPolicy` at its
default, `DefaultAllow`, so the vLLM server's own NetworkPolicy decides there as on the node groups.
No Pulumi here.
"""

from __future__ import annotations

import copy
from typing import Any

from ...facts import auto_mode
from ...facts.contract import PlacementContract
from ...settings import GpuNodeGroupSettings
from ..karpenter import manifests as karpenter_manifests

# Auto Mode's own default expiry (create-node-pool.adoc, "Disruption": 336 hours): with the termination grace
# period after it, a node still goes before the 21-day lifetime Auto Mode enforces.
EXPIRE_AFTER = "336h"


def node_pool(
    name: str, settings: GpuNodeGroupSettings, contract: PlacementContract, labels: dict[str, str] | None = None
) -> dict[str, Any]:
    """The pool's `NodePool`: a Karpenter pool's, its nodes from the `NodeClass` `name` and expiring within Auto
    Mode's lifetime."""
    pool = copy.deepcopy(karpenter_manifests.node_pool(name, settings, contract, labels))
    template = pool["spec"]["template"]["spec"]
    template["nodeClassRef"] = {"group": auto_mode.NODE_CLASS_GROUP, "kind": auto_mode.NODE_CLASS_KIND, "name": name}
    template["expireAfter"] = EXPIRE_AFTER
    return pool


def node_class(
    name: str,
    settings: GpuNodeGroupSettings,
    node_role: str,
    subnet_ids: list[str],
    security_group_id: str,
    tags: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The pool's `NodeClass`: the node role (by name), the subnets and security group by id, the pool's disk size
    as the nodes' ephemeral storage, and the tags a NodeClass may set (none under the prefixes Auto Mode keeps)."""
    spec: dict[str, Any] = {
        "role": node_role,
        "subnetSelectorTerms": [{"id": subnet_id} for subnet_id in subnet_ids],
        "securityGroupSelectorTerms": [{"id": security_group_id}],
        "ephemeralStorage": {"size": f"{settings.disk_size}Gi"},
    }
    allowed = {
        key: value for key, value in (tags or {}).items() if not key.startswith(auto_mode.RESTRICTED_TAG_PREFIXES)
    }
    if allowed:
        spec["tags"] = allowed
    return {
        "apiVersion": auto_mode.NODE_CLASS_API_VERSION,
        "kind": auto_mode.NODE_CLASS_KIND,
        "metadata": {"name": name},
        "spec": spec,
    }


def node_class_problems(manifest: dict[str, Any]) -> list[str]:
    """Every way `manifest` leaves the NodeClass fields the EKS user guide documents (facts/auto_mode.py): no
    published CRD schema of `eks.amazonaws.com/v1` `NodeClass` exists to check it against."""
    problems = []
    if (manifest.get("apiVersion"), manifest.get("kind")) != (auto_mode.NODE_CLASS_API_VERSION, "NodeClass"):
        problems.append(f"apiVersion/kind {manifest.get('apiVersion')}/{manifest.get('kind')}: not a NodeClass")
    name = (manifest.get("metadata") or {}).get("name")
    if name == auto_mode.RESERVED_NODE_CLASS_NAME:
        problems.append("metadata.name 'default': the name of Auto Mode's own NodeClass")
    spec = manifest.get("spec") or {}
    problems += [f"spec.{key}: not a documented field" for key in sorted(set(spec) - auto_mode.NODE_CLASS_SPEC_FIELDS)]
    problems += [f"spec.{key}: required" for key in auto_mode.NODE_CLASS_REQUIRED_FIELDS if not spec.get(key)]
    for key in ("subnetSelectorTerms", "securityGroupSelectorTerms"):
        for index, term in enumerate(spec.get(key) or ()):
            unknown = sorted(set(term) - auto_mode.SELECTOR_TERM_FIELDS)
            if unknown or not term:
                problems.append(f"spec.{key}[{index}]: {unknown or 'empty'}; allowed: one of id, tags, name")
    storage = spec.get("ephemeralStorage") or {}
    problems += [
        f"spec.ephemeralStorage.{key}: not a documented field"
        for key in sorted(set(storage) - auto_mode.EPHEMERAL_STORAGE_FIELDS)
    ]
    size = str(storage.get("size", ""))
    if size:
        low, high = auto_mode.EPHEMERAL_STORAGE_GIB
        if not size.endswith("Gi") or not size[:-2].isdigit() or not low <= int(size[:-2]) <= high:
            problems.append(f"spec.ephemeralStorage.size {size!r}: allowed {low}-{high}Gi")
    for key in spec.get("tags") or {}:
        if key.startswith(auto_mode.RESTRICTED_TAG_PREFIXES):
            problems.append(f"spec.tags.{key}: a tag Auto Mode keeps for itself")
    return problems


def compute_config() -> dict[str, Any]:
    """The cluster's Auto Mode compute configuration (pulumi-eks `autoMode.computeConfig`): none of the built-in
    node pools, so no node role either; the stack's system node group runs CoreDNS and the controllers, and each
    GPU pool brings its NodePool and NodeClass. EKS refuses a `nodeRoleArn` without node pools ("When Compute Config
    nodeRoleArn is not null or empty, nodePool value(s) must be provided", aws/aws-cdk#33894), and creates no access
    entry then (terraform-aws-modules/terraform-aws-eks#3578): components/pools/auto_mode/nodes.py makes the nodes' own."""
    return {"node_pools": []}
