"""Where the EKS-managed node agents run: sourced facts about pods the stack does not render.

A GPU node also runs pods that EKS or an EKS add-on creates: the VPC CNI (`aws-node`), kube-proxy,
CoreDNS, and, with node auto repair, the node monitoring agent and its DCGM host engine
(`dcgm-server`). If one of them does not tolerate the GPU taint, the node is half-working although
every pod the stack renders lands where it should. Each `NodeAgent` records, for the add-on version
range named in its `versions`, the scheduling fields of its pod template (tolerations, nodeSelector,
node affinity, priority class, host network) and the source they come from, so the offline plan can
place these pods like the stack's own (stackcheck/plan/node_agents.py) and check that every agent lands on
every pool it must cover. Facts are written here, not copied; standard library only.

EKS installs the VPC CNI, kube-proxy and CoreDNS on every cluster (Amazon EKS user guide, "Amazon
EKS add-ons": "Amazon EKS automatically installs self-managed add-ons such as the Amazon VPC CNI
plugin for Kubernetes, kube-proxy, and CoreDNS for every cluster"); the stack takes those three over as
EKS managed add-ons (components/cluster/addons.py), CoreDNS with a node affinity for the system node group. It also
installs the node monitoring agent add-on, and the pod identity agent add-on when the Cluster Autoscaler is on
(it gets its AWS credentials through EKS Pod Identity).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from . import versions
from .identity import PROJECT
from .kubernetes import KUBE_SYSTEM

NODE_POOL_LABEL_KEY = f"{PROJECT}/node-pool"
"""The label naming the node pool a node belongs to: `system`, or a GPU pool's name in the fleet form."""
SYSTEM_POOL_LABEL = (NODE_POOL_LABEL_KEY, "system")
"""The label the system node group's nodes carry, which the CoreDNS add-on's node affinity selects."""

# Where an agent must land (placement/agents.py checks each rule).
EVERY_NODE = "every-node"
"""On every node of every pool: without it a node has no pod network, Service routing or health checks."""
EVERY_NVIDIA_NODE = "every-nvidia-node"
"""On every GPU node that the agent's own node affinity admits (the add-on's supported types and
architectures); a GPU pool outside it is reported, not failed: no configuration can change that."""
A_NON_GPU_POOL = "a-non-gpu-pool"
"""On some non-GPU pool with nodes, so that it never waits for, or takes room on, a GPU node."""
COVERAGE = (EVERY_NODE, EVERY_NVIDIA_NODE, A_NON_GPU_POOL)

SYSTEM_NODE_CRITICAL = "system-node-critical"
SYSTEM_CLUSTER_CRITICAL = "system-cluster-critical"
TOLERATE_EVERYTHING = ({"operator": "Exists"},)
NOT_ON_SPECIAL_COMPUTE = {
    "key": "eks.amazonaws.com/compute-type",
    "operator": "NotIn",
    "values": ["fargate", "hybrid", "auto"],
}


@dataclass(frozen=True)
class NodeAgent:
    """One pod template EKS or an EKS add-on runs on the nodes, as far as scheduling goes."""

    name: str
    """Name of the DaemonSet or Deployment in `kube-system`."""
    kind: str
    """`DaemonSet` or `Deployment`."""
    addon: str
    """The EKS add-on that ships it."""
    installed_by: str
    """`eks` (on every cluster) or `stack` (only when the stack registers the add-on)."""
    coverage: str
    """Where it must land: one of COVERAGE."""
    versions: str
    """The add-on versions the facts were checked against."""
    source: str
    """Where the facts come from."""
    pod_spec: dict | None
    """Scheduling fields of the pod template; None when no source could be cited (the plan then says
    the agent is not checked)."""
    requests: dict = field(default_factory=dict)
    """CPU and memory requests, where they decide where a Deployment fits."""
    config_key: str | None = None
    """The key of the add-on's configuration values whose `tolerations` and `affinity` replace the chart default
    (`""`: the top level of the values)."""
    replicas: int = 1
    """Replicas of a Deployment (DaemonSets: one per node)."""

    def required_node_terms(self) -> list[dict]:
        """Copies of the node selector terms of the pod template's required node affinity, for a component that
        extends them or takes their complement."""
        assert self.pod_spec is not None, f"facts/node_agents.py records {self.name}'s pod spec"
        required = self.pod_spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        return copy.deepcopy(required["nodeSelectorTerms"])


def _every_linux_node_on_the_host_network() -> dict:
    """The pod template both the VPC CNI and the pod identity agent charts ship: every taint tolerated, every
    Linux node on amd64 or arm64 except Fargate, hybrid and Auto Mode nodes, host network, node-critical."""
    return {
        "tolerations": [dict(t) for t in TOLERATE_EVERYTHING],
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {
                            "matchExpressions": [
                                {"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
                                {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64", "arm64"]},
                                dict(NOT_ON_SPECIAL_COMPUTE),
                            ]
                        }
                    ]
                }
            }
        },
        "priorityClassName": SYSTEM_NODE_CRITICAL,
        "hostNetwork": True,
    }


VPC_CNI = NodeAgent(
    name="aws-node",
    kind="DaemonSet",
    addon="vpc-cni",
    installed_by="eks",
    coverage=EVERY_NODE,
    versions="v1.19.0-v1.23.0",
    source="aws/amazon-vpc-cni-k8s charts/aws-vpc-cni/values.yaml (tolerations, affinity, priorityClassName; "
    "identical from v1.19.0 to v1.23.0) and templates/daemonset.yaml (hostNetwork)",
    pod_spec=_every_linux_node_on_the_host_network(),
)

KUBE_PROXY = NodeAgent(
    name="kube-proxy",
    kind="DaemonSet",
    addon="kube-proxy",
    installed_by="eks",
    coverage=EVERY_NODE,
    versions="unknown",
    # EKS publishes no manifest or chart of its kube-proxy DaemonSet, and its add-on takes no
    # tolerations (aws/containers-roadmap#2604): nothing to cite, so the plan reports it unchecked.
    source="no public manifest of the EKS kube-proxy DaemonSet",
    pod_spec=None,
)

COREDNS = NodeAgent(
    name="coredns",
    kind="Deployment",
    addon="coredns",
    installed_by="eks",
    coverage=A_NON_GPU_POOL,
    versions="v1.11.4-eksbuild.10 (Kubernetes 1.32) to v1.13.2-eksbuild.19 (Kubernetes 1.34)",
    source="eksctl-io/eksctl pkg/addons/default/assets/coredns-1.32.json and coredns-1.34.json, the EKS CoreDNS "
    "manifests eksctl ships (tolerations, nodeAffinity, priorityClassName, requests and replicas are the "
    "same in both)",
    pod_spec={
        "tolerations": [
            {"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"},
            {"key": "CriticalAddonsOnly", "operator": "Exists"},
        ],
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {
                            "matchExpressions": [
                                {"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
                                {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64", "arm64"]},
                            ]
                        }
                    ]
                }
            }
        },
        "priorityClassName": SYSTEM_CLUSTER_CRITICAL,
    },
    requests={"cpu": "100m", "memory": "70Mi"},
    replicas=2,
    # The add-on's configuration schema has `tolerations` and `affinity` at its top level (AWS containers blog,
    # "Amazon EKS add-ons: Advanced configuration").
    config_key="",
)

_MONITORING_SOURCE = (
    f"aws/eks-node-monitoring-agent {versions.NODE_MONITORING_AGENT_CHART} "
    "charts/eks-node-monitoring-agent/values.yaml and templates/{template}"
)
_NOT_ON_HYPERPOD = {"key": "sagemaker.amazonaws.com/compute-type", "operator": "NotIn", "values": ["hyperpod"]}

NODE_MONITORING_AGENT = NodeAgent(
    name="eks-node-monitoring-agent",
    kind="DaemonSet",
    addon=versions.NODE_MONITORING_AGENT_ADDON,
    installed_by="stack",
    coverage=EVERY_NODE,
    versions=versions.NODE_MONITORING_AGENT_VERSION,
    source=_MONITORING_SOURCE.format(template="daemonset.yaml"),
    pod_spec={
        "tolerations": [dict(t) for t in TOLERATE_EVERYTHING],
        "nodeSelector": {"kubernetes.io/os": "linux"},
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {
                            "matchExpressions": [
                                {
                                    "key": "eks.amazonaws.com/compute-type",
                                    "operator": "NotIn",
                                    "values": ["fargate", "auto", "hybrid"],
                                },
                                dict(_NOT_ON_HYPERPOD),
                                {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64", "arm64"]},
                            ]
                        }
                    ]
                }
            }
        },
        "priorityClassName": SYSTEM_NODE_CRITICAL,
        "hostNetwork": True,
    },
    config_key="nodeAgent",
)

# The instance types dcgm-server's node affinity admits (values.yaml, dcgmAgent.affinity).
DCGM_INSTANCE_TYPES = (
    "g3.16xlarge",
    "g3.4xlarge",
    "g3.8xlarge",
    "g3s.xlarge",
    "g4dn.12xlarge",
    "g4dn.16xlarge",
    "g4dn.2xlarge",
    "g4dn.4xlarge",
    "g4dn.8xlarge",
    "g4dn.metal",
    "g4dn.xlarge",
    "g5.12xlarge",
    "g5.16xlarge",
    "g5.24xlarge",
    "g5.2xlarge",
    "g5.48xlarge",
    "g5.4xlarge",
    "g5.8xlarge",
    "g5.xlarge",
    "g5g.16xlarge",
    "g5g.2xlarge",
    "g5g.4xlarge",
    "g5g.8xlarge",
    "g5g.metal",
    "g5g.xlarge",
    "g6.12xlarge",
    "g6.16xlarge",
    "g6.24xlarge",
    "g6.2xlarge",
    "g6.48xlarge",
    "g6.4xlarge",
    "g6.8xlarge",
    "g6.xlarge",
    "g6e.12xlarge",
    "g6e.16xlarge",
    "g6e.24xlarge",
    "g6e.2xlarge",
    "g6e.48xlarge",
    "g6e.4xlarge",
    "g6e.8xlarge",
    "g6e.xlarge",
    "g6f.2xlarge",
    "g6f.4xlarge",
    "g6f.large",
    "g6f.xlarge",
    "g7.12xlarge",
    "g7.24xlarge",
    "g7.2xlarge",
    "g7.48xlarge",
    "g7.4xlarge",
    "g7.8xlarge",
    "g7e.12xlarge",
    "g7e.24xlarge",
    "g7e.2xlarge",
    "g7e.48xlarge",
    "g7e.4xlarge",
    "g7e.8xlarge",
    "gr6.4xlarge",
    "gr6.8xlarge",
    "gr6f.4xlarge",
    "p2.16xlarge",
    "p2.8xlarge",
    "p2.xlarge",
    "p3.16xlarge",
    "p3.2xlarge",
    "p3.8xlarge",
    "p3dn.24xlarge",
    "p4d.24xlarge",
    "p4de.24xlarge",
    "p5.48xlarge",
    "p5.4xlarge",
    "p5e.48xlarge",
    "p5en.48xlarge",
    "p6-b200.48xlarge",
    "p6-b300.48xlarge",
    "p6e-gb200.36xlarge",
    "p6e-gb300.36xlarge",
)

# The port `nv-hostengine` serves DCGM on, which dcgm-server publishes on the node (containerPort and hostPort
# 5555 in dcgm-daemonset.yaml; DCGM's default port, dcgm-exporter's `--remote-hostengine-info` default).
DCGM_SERVER_HOST_PORT = 5555

DCGM_SERVER = NodeAgent(
    name="dcgm-server",
    kind="DaemonSet",
    addon=versions.NODE_MONITORING_AGENT_ADDON,
    installed_by="stack",
    coverage=EVERY_NVIDIA_NODE,
    versions=versions.NODE_MONITORING_AGENT_VERSION,
    source=_MONITORING_SOURCE.format(template="dcgm-daemonset.yaml"),
    pod_spec={
        # The chart default: no tolerations at all (dcgmAgent.tolerations: []).
        "tolerations": [],
        "nodeSelector": {"kubernetes.io/os": "linux"},
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {
                            "matchExpressions": [
                                {
                                    "key": "node.kubernetes.io/instance-type",
                                    "operator": "In",
                                    "values": list(DCGM_INSTANCE_TYPES),
                                },
                                {
                                    "key": "eks.amazonaws.com/compute-type",
                                    "operator": "NotIn",
                                    "values": ["fargate", "auto", "hybrid"],
                                },
                                dict(_NOT_ON_HYPERPOD),
                                {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"]},
                            ]
                        }
                    ]
                }
            }
        },
        "priorityClassName": SYSTEM_NODE_CRITICAL,
    },
    config_key="dcgmAgent",
)

POD_IDENTITY_AGENT = NodeAgent(
    name="eks-pod-identity-agent",
    kind="DaemonSet",
    addon=versions.POD_IDENTITY_AGENT_ADDON,
    installed_by="stack",
    coverage=EVERY_NODE,
    versions="v0.1.37 (chart 1.2.0)",
    source="aws/eks-pod-identity-agent v0.1.37 charts/eks-pod-identity-agent/values.yaml (tolerations, affinity, "
    "priorityClassName) and templates/daemonset.yaml (hostNetwork)",
    pod_spec=_every_linux_node_on_the_host_network(),
)

EKS_DEFAULT_AGENTS = (VPC_CNI, KUBE_PROXY, COREDNS)
"""On every cluster, whatever the stack registers."""
ADDON_AGENTS: dict[str, tuple[NodeAgent, ...]] = {
    versions.VPC_CNI_ADDON: (VPC_CNI,),
    versions.KUBE_PROXY_ADDON: (KUBE_PROXY,),
    versions.COREDNS_ADDON: (COREDNS,),
    versions.NODE_MONITORING_AGENT_ADDON: (NODE_MONITORING_AGENT, DCGM_SERVER),
    versions.POD_IDENTITY_AGENT_ADDON: (POD_IDENTITY_AGENT,),
}
"""The pod templates of each add-on the stack may register, by add-on name."""


def workload(agent: NodeAgent, configuration: dict | None = None) -> dict:
    """The agent as a workload the placement model reads: a DaemonSet or Deployment in `kube-system`.

    `configuration` is the add-on's configuration values (already parsed); `tolerations` and `affinity` under
    the agent's `config_key` replace the chart's, as the chart's templates render them. Labelled
    `eks.amazonaws.com/component` with the agent's name and annotated with its source. Raises
    ValueError for an agent without facts (`pod_spec` None).
    """
    if agent.pod_spec is None:
        raise ValueError(f"{agent.name}: no placement facts ({agent.source})")
    spec = copy.deepcopy(agent.pod_spec)
    values = configuration or {}
    overrides = {} if agent.config_key is None else values.get(agent.config_key) if agent.config_key else values
    if isinstance(overrides, dict) and isinstance(overrides.get("tolerations"), list):
        spec["tolerations"] = copy.deepcopy(overrides["tolerations"])
    if isinstance(overrides, dict) and isinstance(overrides.get("affinity"), dict):
        spec["affinity"] = copy.deepcopy(overrides["affinity"])
    spec["containers"] = [
        {
            "name": agent.name,
            "image": f"eks/{agent.addon}",
            **({"resources": {"requests": dict(agent.requests)}} if agent.requests else {}),
        }
    ]
    labels = {"eks.amazonaws.com/component": agent.name}
    template = {"metadata": {"labels": labels}, "spec": spec}
    body: dict[str, object] = {"selector": {"matchLabels": labels}, "template": template}
    if agent.kind == "Deployment":
        body["replicas"] = agent.replicas
    return {
        "apiVersion": "apps/v1",
        "kind": agent.kind,
        "metadata": {
            "name": agent.name,
            "namespace": KUBE_SYSTEM,
            "labels": labels,
            "annotations": {"eks-gpu-inference/placement-source": agent.source},
        },
        "spec": body,
    }
