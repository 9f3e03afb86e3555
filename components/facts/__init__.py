"""The floor of the project: pure facts and rules, standard library only.

The placement contract, the GPU instance catalog, pinned versions, the EKS API model (read from botocore's
data files on first use), EKS node allocatable numbers, Kubernetes quantities, the GPU DaemonSet markers,
Pulumi type tokens and the project's name. `placement/`, the settings and the components stand on it; it
imports none of them (docs/architecture.md).
"""
