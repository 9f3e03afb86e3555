"""Where pods land: a pure-Python model of the Kubernetes scheduler's filters and the GPU placement guard.

Kubernetes objects are plain dicts in the JSON form `kubectl get -o json`
prints. It imports the standard library and the floor of facts (facts/: the
placement contract, the GPU catalog, quantities, EKS node allocatable numbers,
the GPU DaemonSet markers); never Pulumi, pydantic or the components, which
stand beside it on the same floor (docs/architecture.md, "Layers").

Modules: taints (tolerates), affinity (node selectors and required node
affinity), resources (effective requests, NodeResourcesFit), explain (the
filters together), workloads (pod_of, daemonset_pod, the device plugin marker),
pools (node groups as pools, advertise_gpus, eks_allocatable as quantities),
guard (placement_matrix, gpu_guard), exporter (the DCGM exporter verdict),
agents (node_agents_verdict: the node agents EKS and its add-ons run),
capacity (gpu_capacity: replicas against pool sizes), scale_from_zero (the
node the Cluster Autoscaler imagines at zero), service_accounts
(service_accounts_verdict: each pod's ServiceAccount exists) and the other
verdicts' modules; verdicts (VERDICTS: the registry of every verdict, in
order, with its number and slug) and evidence (what the plan gathers for
them). parse_quantity and format_quantity come from facts.quantity and are
re-exported here.

Where the model departs from the scheduler on purpose:
- An empty-key toleration tolerates only with `Exists`: the API server rejects
  any other, so no pod carries one.
- A node that does not list a resource in `status.allocatable` has 0 of it,
  `pods` included (as upstream), so a hand-written node needs `pods`.
- Pools whose instance type is not in the catalog are flagged `unknown` and
  land nothing; the matrix says "allocatable unknown" rather than guessing.
"""

from ..facts.quantity import format_quantity, parse_quantity
from .affinity import matches_node_selector_terms, node_affinity_mismatch, node_matches
from .explain import FILTERS, can_schedule, explain, filter_failures
from .guard import PlacementRow, placement_matrix, plain_pod, system_addon_pod
from .pools import (
    PLACEMENT_FILTERS,
    NodeGroupSpec,
    advertise_gpus,
    eks_allocatable,
    kube_reserved_cpu_millicores,
    kube_reserved_memory_mebibytes,
    pools_for_node_groups,
)
from .resources import GPU_RESOURCE, fits_resources, insufficient_resources, node_allocatable, pod_requests
from .taints import find_untolerated_taint, format_taint, tolerates
from .verdict import Verdict
from .verdicts import gpu_guard
from .workloads import (
    DAEMONSET_DEFAULT_TOLERATIONS,
    DEVICE_PLUGIN_IMAGE_MARKER,
    DEVICE_PLUGIN_LABEL_KEY,
    DEVICE_PLUGIN_LABEL_VALUE,
    daemonset_pod,
    is_device_plugin,
    pod_of,
    workload_id,
)

__all__ = [
    "DAEMONSET_DEFAULT_TOLERATIONS",
    "DEVICE_PLUGIN_IMAGE_MARKER",
    "DEVICE_PLUGIN_LABEL_KEY",
    "DEVICE_PLUGIN_LABEL_VALUE",
    "FILTERS",
    "GPU_RESOURCE",
    "PLACEMENT_FILTERS",
    "NodeGroupSpec",
    "PlacementRow",
    "Verdict",
    "advertise_gpus",
    "can_schedule",
    "daemonset_pod",
    "eks_allocatable",
    "explain",
    "filter_failures",
    "find_untolerated_taint",
    "fits_resources",
    "format_quantity",
    "parse_quantity",
    "format_taint",
    "gpu_guard",
    "insufficient_resources",
    "is_device_plugin",
    "kube_reserved_cpu_millicores",
    "kube_reserved_memory_mebibytes",
    "matches_node_selector_terms",
    "node_affinity_mismatch",
    "node_allocatable",
    "node_matches",
    "placement_matrix",
    "plain_pod",
    "pod_of",
    "pod_requests",
    "pools_for_node_groups",
    "system_addon_pod",
    "tolerates",
    "workload_id",
]
