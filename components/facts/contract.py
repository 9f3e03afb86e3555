"""The GPU placement contract: the one label and one taint that guard GPU nodes.

Every consumer derives its part from a `PlacementContract`: the node group's labels and taints
(EKS API spelling), the device plugin's and the workloads' nodeSelector, tolerations and node
affinity (Kubernetes spelling). Nothing else in the code base spells the label or the taint.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# EKS spells taint effects differently from Kubernetes (docs/traps.md#eks-spelling).
EKS_TAINT_EFFECTS = {
    "NoSchedule": "NO_SCHEDULE",
    "NoExecute": "NO_EXECUTE",
    "PreferNoSchedule": "PREFER_NO_SCHEDULE",
}
KUBERNETES_TAINT_EFFECTS = tuple(EKS_TAINT_EFFECTS)
KUBERNETES_TAINT_EFFECT_OF_EKS = {eks: kubernetes for kubernetes, eks in EKS_TAINT_EFFECTS.items()}
# Effects that keep a pod off a node at scheduling time; PreferNoSchedule only scores.
REPELLING_EFFECTS = ("NoSchedule", "NoExecute")

# NVIDIA tooling (the device plugin chart, GPU feature discovery) looks for this label (docs/traps.md#nvidia-labels).
NVIDIA_GPU_PRESENT_LABEL = "nvidia.com/gpu.present"
# GPU feature discovery's product label; the node group sets it itself so that it exists before
# any NVIDIA software runs and is known to autoscalers at zero nodes (docs/traps.md#labels-after-boot).
NVIDIA_GPU_PRODUCT_LABEL = "nvidia.com/gpu.product"
NVIDIA_GPU_RESOURCE = "nvidia.com/gpu"
# The taint NVIDIA's own tooling puts on GPU nodes; the upstream device plugin manifest tolerates it.
NVIDIA_GPU_TOLERATION = {"key": NVIDIA_GPU_RESOURCE, "operator": "Exists", "effect": "NoSchedule"}

# The kubelet refuses to start when `--node-labels` holds a key in the kubernetes.io or k8s.io
# namespaces (or a subdomain of them), except these keys and the kubelet.kubernetes.io and
# node.kubernetes.io namespaces; a node group with such a label never joins. Source: kubernetes
# `staging/src/k8s.io/kubelet/pkg/apis/well_known_labels.go` (`kubeletLabels`, `kubeletLabelNamespaces`,
# `IsKubeletLabel`) and `cmd/kubelet/app/options/options.go` (the `--node-labels` check).
_KUBERNETES_LABEL_DOMAINS = ("kubernetes.io", "k8s.io")
_KUBELET_LABEL_NAMESPACES = ("kubelet.kubernetes.io", "node.kubernetes.io")
_KUBELET_LABELS = frozenset(
    {
        "kubernetes.io/hostname",
        "kubernetes.io/os",
        "kubernetes.io/arch",
        "beta.kubernetes.io/os",
        "beta.kubernetes.io/arch",
        "beta.kubernetes.io/instance-type",
        "node.kubernetes.io/instance-type",
        "topology.kubernetes.io/zone",
        "topology.kubernetes.io/region",
        "failure-domain.beta.kubernetes.io/zone",
        "failure-domain.beta.kubernetes.io/region",
    }
)


def _in_domain(namespace: str, domains: tuple[str, ...]) -> bool:
    return any(namespace == domain or namespace.endswith(f".{domain}") for domain in domains)


def kubelet_refuses_node_label(key: str) -> bool:
    """Whether the kubelet refuses to register a node that carries label `key` from its own flags."""
    namespace = key.rpartition("/")[0]
    if not _in_domain(namespace, _KUBERNETES_LABEL_DOMAINS) or key in _KUBELET_LABELS:
        return False
    return not _in_domain(namespace, _KUBELET_LABEL_NAMESPACES)


@dataclass(frozen=True)
class Taint:
    """A node taint in Kubernetes spelling (`effect` is `NoSchedule`, `NoExecute` or `PreferNoSchedule`)."""

    key: str
    value: str
    effect: str

    def to_kubernetes(self) -> dict[str, str]:
        """The taint as it appears in a Node's `spec.taints`."""
        taint = {"key": self.key, "effect": self.effect}
        if self.value:
            taint["value"] = self.value
        return taint

    def to_eks(self) -> dict[str, str]:
        """The taint as the EKS node group API takes it (`NO_SCHEDULE` spelling)."""
        return {"key": self.key, "value": self.value, "effect": EKS_TAINT_EFFECTS[self.effect]}

    def toleration(self) -> dict[str, str]:
        """The narrowest toleration of exactly this taint."""
        toleration = {"key": self.key, "operator": "Equal", "value": self.value, "effect": self.effect}
        if not self.value:
            toleration = {"key": self.key, "operator": "Exists", "effect": self.effect}
        return toleration


@dataclass(frozen=True)
class PlacementContract:
    """Where GPU work goes: nodes labelled `label_key=label_value` and tainted with `taint`.

    `extra_labels` and `extra_taints` are what the GPU node group carries besides the contract;
    `gpu_product` is the `nvidia.com/gpu.product` of the stack's GPU node group, when all its instance
    types share one GPU model (`GpuNodeGroup` labels each group from its own instance types instead,
    components/pools/gpu_node_group.py gpu_node_labels).
    """

    label_key: str = "GPU"
    label_value: str = "true"
    taint: Taint = Taint("GPU", "true", "NoSchedule")
    extra_labels: dict[str, str] = field(default_factory=dict)
    extra_taints: tuple[Taint, ...] = ()
    gpu_product: str | None = None

    # Node group side (EKS API spelling).

    def node_labels(self) -> dict[str, str]:
        """Every label the GPU node group puts on its nodes."""
        labels = dict(self.extra_labels)
        labels[NVIDIA_GPU_PRESENT_LABEL] = "true"
        if self.gpu_product:
            labels[NVIDIA_GPU_PRODUCT_LABEL] = self.gpu_product
        labels[self.label_key] = self.label_value
        return labels

    def node_taints(self) -> tuple[Taint, ...]:
        """Every taint the GPU node group puts on its nodes, the contract taint first."""
        return (self.taint, *self.extra_taints)

    def eks_taints(self) -> list[dict[str, str]]:
        """The node group's taints in EKS API spelling."""
        return [taint.to_eks() for taint in self.node_taints()]

    # Workload side (Kubernetes spelling).

    def node_selector(self) -> dict[str, str]:
        """The nodeSelector that confines a pod to the GPU nodes."""
        return {self.label_key: self.label_value}

    def tolerations(self) -> list[dict[str, str]]:
        """Tolerations for every taint of the GPU nodes that keeps pods away."""
        return [taint.toleration() for taint in self.node_taints() if taint.effect in REPELLING_EFFECTS]

    def daemon_tolerations(self) -> list[dict[str, str]]:
        """`tolerations()` plus NVIDIA's own `nvidia.com/gpu` (Exists, NoSchedule) taint, for the DaemonSets that
        must reach every GPU node whoever tainted it (the device plugin, the DCGM exporter)."""
        result = self.tolerations()
        if NVIDIA_GPU_TOLERATION not in result:
            result.append(dict(NVIDIA_GPU_TOLERATION))
        return result

    def node_affinity(self, gpu_product: str | None = None, node_labels: dict[str, str] | None = None) -> dict:
        """A required node-affinity term on the contract label, on the GPU product when given, and on each of
        `node_labels` (a fleet pool's own label)."""
        expressions = [{"key": self.label_key, "operator": "In", "values": [self.label_value]}]
        if gpu_product:
            expressions.append({"key": NVIDIA_GPU_PRODUCT_LABEL, "operator": "In", "values": [gpu_product]})
        expressions += [{"key": key, "operator": "In", "values": [value]} for key, value in (node_labels or {}).items()]
        return {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchExpressions": expressions}],
            }
        }
