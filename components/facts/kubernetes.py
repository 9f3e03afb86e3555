"""Names every Kubernetes cluster has before the stack adds anything. Standard library only."""

KUBE_SYSTEM = "kube-system"
"""The namespace of the cluster's own add-ons (CoreDNS, kube-proxy, the VPC CNI) and of the stack's node
DaemonSets and autoscaler (Kubernetes docs, "Namespaces": initial namespaces)."""

INITIAL_NAMESPACES = ("default", KUBE_SYSTEM, "kube-public", "kube-node-lease")
"""The four namespaces every cluster starts with (Kubernetes docs, "Namespaces": initial namespaces). The stack
never registers one: a Namespace resource would relabel it as the stack's and delete it on destroy."""

NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"
"""The label the API server sets on every namespace to its name, which NetworkPolicy namespace selectors
can match (Kubernetes docs, "Well-Known Labels, Annotations and Taints")."""

INT32_MAX = 2**31 - 1
"""The largest Go int32 (the Go specification, "Numeric types"): the type of replica counts (`Deployment.spec.replicas`)
and of KEDA's `pollingInterval`, `minReplicaCount` and `maxReplicaCount` (`format: int32` in kedacore/keda v2.20.2
config/crd/bases/keda.sh_scaledobjects.yaml), which their controllers cannot decode beyond it."""
