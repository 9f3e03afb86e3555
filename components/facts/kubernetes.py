"""Names every Kubernetes cluster has before the stack adds anything. Standard library only."""

KUBE_SYSTEM = "kube-system"
"""The namespace of the cluster's own add-ons (CoreDNS, kube-proxy, the VPC CNI) and of the stack's node
DaemonSets and autoscaler (Kubernetes docs, "Namespaces": initial namespaces)."""

NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"
"""The label the API server sets on every namespace to its name, which NetworkPolicy namespace selectors
can match (Kubernetes docs, "Well-Known Labels, Annotations and Taints")."""
