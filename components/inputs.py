"""The components' inputs, declared once, and which of them each component's args class takes.

An input the stack config has too is declared in its settings model (components/settings/): its type with the
rule it must meet, its default and its docstring. Here each args class lists what it takes from those models
(`Take`), the inputs only components have (`Own`: the cluster name as an Output, `tags`, object names, ...), and
`STACK_ONLY` the settings fields no component takes (`vllm.enabled`, `network.mode`, ...).

`python scripts/generate.py` writes every args class from this module into its concern's `args.py`, a field taken from
a settings model becoming a plain `X | None = None` field of the same name, its docstring `Plain. ` and the
model's, its default sentence rendered from the model's default. It also writes, from the settings models,
Pulumi.yaml's config declarations, the reference pages of docs/reference/ and plugin/schema.json; `--check` only
compares, and the tests run it. No Pulumi here: the annotations of the inputs only components have are source
text, as the generated classes spell them.
"""

from __future__ import annotations

from .args.declare import Args, Own, Take, _args, _object_name, _placement
from .facts import versions
from .observability.inputs import OBSERVABILITY_ARGS
from .pools.auto_mode.inputs import AUTO_MODE_ARGS
from .settings.autoscaler import AutoscaledClusterSettings, AutoscalerSettings
from .settings.autoscaling import AutoscalingSettings
from .settings.cluster import ClusterSettings
from .settings.cost import CostSettings
from .settings.device_plugin import DevicePluginSettings
from .settings.gpu_placement import GpuPlacementSettings
from .settings.model_source import ModelSourceSettings
from .settings.network import NetworkSettings
from .settings.node_groups import GpuNodeGroupSettings, SystemNodeGroupSettings, TaintSettings
from .settings.observability import ObservabilitySettings, PrometheusSettings
from .settings.section import SectionModel
from .settings.vllm import ModelCacheSettings, VllmSettings

STACK_ONLY: dict[type[SectionModel], tuple[str, ...]] = {
    # Whether the stack builds the component at all.
    VllmSettings: ("enabled", "model_facts"),
    AutoscalerSettings: ("enabled",),
    DevicePluginSettings: ("enabled",),
    ObservabilitySettings: ("dcgm_exporter", "prometheus_operator", "prometheus"),
    # Where KEDA asks: the program hands it to each autoscaled server as `prometheus_url` (an AMP workspace as its
    # query URL and `amp_region`, and to `Keda` as `amp_workspace_arn`), and builds `PrometheusStack` for `install`.
    PrometheusSettings: ("url", "amp_workspace", "install"),
    # The stack's choice between its own VPC and the default one; `Network` always creates one.
    NetworkSettings: ("mode",),
    # Which component the stack builds for a pool: `GpuNodeGroup`, `KarpenterNodePool` or `AutoModeNodePool`.
    GpuNodeGroupSettings: ("provisioner",),
    # The offline plan's estimate and budget; nothing is registered from them.
    CostSettings: ("spot_discount", "max_monthly_usd"),
}
"""Settings fields no component takes: the stack config alone has them."""

ARGS: tuple[Args, ...] = (
    _args("TaintArgs", "args/placement", "A node taint in Kubernetes spelling.", Take(TaintSettings)),
    _args(
        "PlacementArgs",
        "args/placement",
        "The GPU placement contract: the label GPU workloads select and the taints that keep other pods off GPU "
        "nodes. Give the same value to the GPU node group and to every GPU workload (device plugin, DCGM exporter, "
        "vLLM server). Every field is plain: it shapes the node group and the pod specs.",
        Take(GpuPlacementSettings),
        Take(GpuNodeGroupSettings, only=("extra_labels", "extra_taints")),
    ),
    _args(
        "NetworkArgs",
        "cluster/args",
        "Inputs of `Network`. Every field is plain (it shapes the VPC) and checked when the component is "
        "constructed, with the rules of the stack config's `network` section.",
        Take(NetworkSettings),
        Own(
            "gpu_instance_types",
            "list[str] | None",
            "Instance types whose zones are preferred, and whose zones hold `gpu_subnet_ids`. Default none.",
        ),
        Own(
            "name_tag",
            "str | None",
            "Prefix of the `Name` tag of each network resource, usually the cluster name. Default: the component name.",
        ),
        Own("tags", "dict[str, str] | None", "Tags for every network resource. Default none."),
    ),
    _args(
        "ClusterNetwork",
        "cluster/args",
        "A VPC made elsewhere in the program (for example by `Network`) for the cluster to run in.",
        Own("vpc_id", "pulumi.Input[str]", "The VPC.", required=True),
        Own(
            "private_subnet_ids",
            "pulumi.Input[list[str]]",
            "Subnets for the nodes and the control plane's network interfaces.",
            required=True,
        ),
        Own(
            "public_subnet_ids",
            "pulumi.Input[list[str]]",
            "Subnets for internet-facing load balancers, also given to the control plane.",
            required=True,
        ),
    ),
    _args(
        "SystemNodeGroupArgs",
        "cluster/args",
        "The untainted node group where CoreDNS and other add-ons run. Every field is plain and checked with the "
        "rules of the stack config's `systemNodeGroup` section.",
        Take(SystemNodeGroupSettings),
    ),
    _args(
        "EksClusterArgs",
        "cluster/args",
        "Inputs of `EksCluster`. Fields without `Input` must be plain values: they shape the control plane and are "
        "checked when it is constructed, with the rules of the stack config's `cluster` section.",
        Take(
            ClusterSettings,
            defaults={
                "name": "Default: the component name.",
                "vpc_id": "Default: `network` when given, else the account's default VPC.",
            },
        ),
        Own(
            "network",
            "ClusterNetwork | None",
            "A VPC made in the same program (its ids may be unknown until deployed), instead of `vpcId`. Default none.",
            after="public_subnet_ids",
        ),
        Own(
            "system_node_group",
            "SystemNodeGroupArgs | None",
            "The untainted node group for add-ons. Default: the defaults of its fields.",
        ),
        Own(
            "node_monitoring_agent",
            "bool | None",
            "Install the `eks-node-monitoring-agent` add-on, which node auto repair relies on. Default true.",
        ),
        Own(
            "gpu_placement",
            "PlacementArgs | None",
            "The GPU placement contract: the node monitoring agent's `dcgm-server` tolerates its taints, so GPU health "
            "is monitored on the tainted GPU nodes. Default none (the add-on's own tolerations).",
        ),
        Own(
            "pod_identity_agent",
            "bool | None",
            "Install the `eks-pod-identity-agent` add-on, which the Cluster Autoscaler's credentials come through. "
            "Default false.",
        ),
        Own(
            "auto_mode",
            "bool | None",
            "Enable EKS Auto Mode's compute, block storage and load balancing together (pulumi-eks `autoMode`), "
            "for GPU pools of `AutoModeNodePool`s, without the built-in node pools: the system node group keeps "
            "CoreDNS and the controllers. Default false.",
        ),
        Own(
            "aws_profile",
            "str | None",
            "AWS CLI profile the Kubernetes provider's kubeconfig authenticates with (`aws eks get-token "
            "--profile`). Default none: the default credential chain.",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the AWS resources. Default none."),
    ),
    _args(
        "ClusterAutoscalerArgs",
        "autoscaling/args",
        "Inputs of `ClusterAutoscaler`. Fields without `Input` must be plain values (they go into the IAM policy "
        "and the autoscaler's flags) and are checked when it is constructed, with the rules of the stack config's "
        "`autoscaler` section.",
        Take(AutoscaledClusterSettings),
        Take(AutoscalerSettings),
        Own(
            "eks_cluster_name",
            "pulumi.Input[str] | None",
            "The cluster name as an output (`EksCluster.cluster_name`), so the Pod Identity association waits for "
            "the cluster. Default `cluster_name`.",
        ),
        Own(
            "region",
            "pulumi.Input[str] | None",
            "AWS region of the cluster, given to the autoscaler as `AWS_REGION`: with IMDSv2's hop limit of 1 (the "
            "node groups' launch templates) a pod cannot read it from instance metadata. Default: the provider's "
            "region.",
        ),
        Own(
            "pod_identity_agent",
            "aws.eks.Addon | None",
            "The `eks-pod-identity-agent` add-on that serves the credentials; the autoscaler starts after it. "
            "Default none (the add-on is managed elsewhere).",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the IAM role and the Pod Identity association. Default none."),
    ),
    _args(
        "GpuNodeGroupArgs",
        "pools/args",
        "Inputs of `GpuNodeGroup`. Fields without `Input` must be plain values: they shape the node group and are "
        "checked when it is constructed, with the rules of the stack config's `gpuNodeGroup` section.",
        Own(
            "cluster_name",
            "pulumi.Input[str]",
            "Name of the EKS cluster to join (`EksCluster.cluster_name`).",
            required=True,
        ),
        Own("node_role_arn", "pulumi.Input[str]", "IAM role of the nodes (`EksCluster.node_role_arn`).", required=True),
        Own(
            "subnet_ids",
            "pulumi.Input[list[str]]",
            "Subnets for the nodes, private ones in zones that offer the instance types.",
            required=True,
        ),
        Own(
            "kubernetes_version",
            "pulumi.Input[str] | None",
            "Kubernetes version of the nodes (`EksCluster.kubernetes_version`: the control plane's, once the add-ons "
            "the nodes need are at the versions EKS offers for it). Default none: EKS uses the control plane's at "
            "creation and leaves the nodes there when it is upgraded.",
        ),
        # The extra labels and taints are the contract's: every GPU workload given it tolerates them.
        Take(GpuNodeGroupSettings, without=("extra_labels", "extra_taints")),
        _placement("The placement contract: the nodes carry its label, extra labels and taints."),
        Own("tags", "dict[str, str] | None", "Tags for the AWS resources. Default none."),
    ),
    _args(
        "KarpenterArgs",
        "pools/karpenter/args",
        "Inputs of `Karpenter`: its controller, the controller's AWS access and interruption queue, and the node role "
        "its GPU pools launch nodes with.",
        Own(
            "cluster_name",
            "pulumi.Input[str]",
            "Name of the EKS cluster (`EksCluster.cluster_name`): the controller's `settings.clusterName`, the scope of "
            "its IAM policy and the value of the discovery tags.",
            required=True,
        ),
        Own(
            "node_security_group_id",
            "pulumi.Input[str]",
            "Security group of the nodes (`EksCluster.cluster_security_group_id`), tagged for discovery.",
            required=True,
        ),
        Own(
            "subnet_ids",
            "list[pulumi.Input[str]]",
            "Private subnets for the nodes, each tagged for discovery; Karpenter launches in those of their zones that "
            "offer an instance type.",
            required=True,
        ),
        Own(
            "pod_identity_agent",
            "aws.eks.Addon | None",
            "The `eks-pod-identity-agent` add-on that serves the controller's credentials; the controller starts after "
            "it. Default none (the add-on is managed elsewhere).",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the AWS resources. Default none."),
    ),
    _args(
        "KarpenterNodePoolArgs",
        "pools/karpenter/args",
        "Inputs of `KarpenterNodePool`. Fields without `Input` must be plain values: they shape the NodePool and are "
        "checked when it is constructed, with the rules of the stack config's `gpuNodeGroup` section.",
        Own(
            "cluster_name",
            "pulumi.Input[str]",
            "Name of the EKS cluster: the subnets and security groups tagged `karpenter.sh/discovery` with it are the "
            "nodes'.",
            required=True,
        ),
        Own(
            "node_role_name",
            "pulumi.Input[str]",
            "IAM role of the nodes (`Karpenter.node_role_name`).",
            required=True,
        ),
        Take(
            GpuNodeGroupSettings,
            only=(
                "instance_types",
                "ami_family",
                "capacity_type",
                "max_size",
                "disk_size",
                "image_cache",
                "snapshot_id",
            ),
            docs={
                "max_size": "Largest node count of the pool's largest instance type: the NodePool's limits are its "
                "GPUs and vCPUs times this."
            },
        ),
        _placement("The placement contract: the nodes carry its label, extra labels and taints."),
        Own(
            "name",
            "str | None",
            "Name of the NodePool and its EC2NodeClass, cluster-wide objects: two pools need two names. Default: the "
            "component name.",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the instances and volumes Karpenter launches. Default none."),
    ),
    *AUTO_MODE_ARGS,
    _args(
        "NvidiaDevicePluginArgs",
        "gpu_agents/args",
        "Inputs of `NvidiaDevicePlugin`. Every field is plain (it shapes the DaemonSet) and checked when the "
        "component is constructed.",
        _placement("The GPU placement contract: the plugin tolerates every repelling taint and selects the label."),
        Take(DevicePluginSettings),
        Own(
            "auto_mode_nodes",
            "bool | None",
            "Some GPU pools are EKS Auto Mode's, whose nodes run the device plugin themselves: the DaemonSet keeps "
            "off them. Default false.",
        ),
        _object_name("DaemonSet, its ServiceAccount and NetworkPolicy"),
        Own(
            "namespace",
            "str | None",
            "Namespace of the plugin; `system-node-critical` pods are admitted there by default. Default "
            "`kube-system`.",
        ),
    ),
    _args(
        "KedaArgs",
        "autoscaling/args",
        "Inputs of `Keda`. Fields without `Input` must be plain values; they are checked when the component is "
        "constructed.",
        Own(
            "version",
            "str | None",
            "Version of KEDA's official chart (kedacore/charts), whose ScaledObject schema the plan checks.",
            default=versions.KEDA_VERSION,
        ),
        Own(
            "amp_workspace_arn",
            "pulumi.Input[str] | None",
            "ARN of the Amazon Managed Service for Prometheus workspace the ScaledObjects query: KEDA's operator gets "
            "an IAM role allowed only to query it, through EKS Pod Identity. Needs `cluster_name`. Default none.",
        ),
        Own(
            "cluster_name",
            "pulumi.Input[str] | None",
            "Name of the EKS cluster, for the Pod Identity association of KEDA's operator. Default none.",
        ),
        Own(
            "pod_identity_agent",
            "aws.eks.Addon | None",
            "The `eks-pod-identity-agent` add-on that serves the operator's credentials; KEDA starts after it. "
            "Default none (the add-on is managed elsewhere).",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the IAM role and the Pod Identity association. Default none."),
    ),
    _args(
        "ModelCacheArgs",
        "vllm/args",
        "Where vLLM caches model weights.",
        Take(ModelCacheSettings),
    ),
    _args(
        "AutoscalingArgs",
        "vllm/args",
        "Replicas that follow vLLM's queue: a KEDA ScaledObject on the server's Deployment (KEDA must be installed, "
        "as `Keda` does).",
        Take(AutoscalingSettings),
    ),
    _args(
        "ModelSourceArgs",
        "vllm/args",
        "Where vLLM reads the model's weights.",
        Take(ModelSourceSettings),
    ),
    _args(
        "VllmServerArgs",
        "vllm/args",
        "Inputs of `VllmServer`. Fields without `Input` must be plain values: they shape the pod spec and the "
        "objects' names, and are checked when the component is constructed, with the rules of the stack config's "
        "`vllm` section.",
        Take(VllmSettings, defaults={"namespace": "Default: the component name."}),
        Take(
            GpuNodeGroupSettings,
            only=("instance_types",),
            docs={
                "instance_types": "GPU instance types of the node pool the server runs on; CPU and memory are sized "
                "to fit the smallest."
            },
            after="image",
        ),
        _placement(
            "The GPU placement contract: nodeSelector, tolerations and node affinity come from it.",
            after="instance_types",
        ),
        Own(
            "name",
            "str | None",
            "Name of the server's Deployment, Service, ServiceAccount, PodDisruptionBudget and NetworkPolicy (the "
            "Secrets and the claim add a suffix); two servers in one namespace need two names. Default: the "
            "component name.",
            after="shutdown_timeout_seconds",
        ),
        Own(
            "require_node_labels",
            "dict[str, str] | None",
            "Node labels the server also requires (a required node-affinity term), to keep it to one pool among "
            "several that share the placement contract, such as a fleet pool's `eks-gpu-inference/node-pool`. "
            "Default none.",
            after="require_gpu_product",
        ),
        Own(
            "create_namespace",
            "bool | None",
            "Create the namespace, labelled for the restricted Pod Security Standard. Default true; set false for "
            "all but one of the servers sharing a namespace (and let them depend on that one).",
            after="namespace",
        ),
        Own(
            "cluster_name",
            "pulumi.Input[str] | None",
            "The EKS cluster (`EksCluster.cluster_name`) the server's Pod Identity association is made in, for "
            "weights from S3 (`source.type` `s3`, where it is required; the cluster needs the "
            "`eks-pod-identity-agent` add-on). Default none.",
            after="source",
        ),
        Own(
            "pod_identity_agent",
            "aws.eks.Addon | None",
            "The `eks-pod-identity-agent` add-on that serves the credentials of weights from S3; the server's pods and "
            "the seeding Job start after it. Default none (the add-on is managed elsewhere).",
            after="cluster_name",
        ),
        Own(
            "tags",
            "dict[str, str] | None",
            "Tags for the AWS resources of weights from S3 (the bucket, the role, the Pod Identity association). "
            "Default none.",
            after="pod_identity_agent",
        ),
        Own(
            "metrics_namespace",
            "str | None",
            "Namespace of the Prometheus scraping `/metrics`: the NetworkPolicy admits it on port 8000. Default none.",
        ),
        Own(
            "prometheus_url",
            "str | None",
            "URL of the Prometheus HTTP API that KEDA asks for the server's queue when `autoscaling` is enabled. "
            "Default: `http://prometheus-operated.<metrics_namespace>.svc:9090` (`monitoring` when that is none), the "
            "Service the Prometheus operator creates.",
        ),
        Own(
            "amp_region",
            "str | None",
            "Region of the Amazon Managed Service for Prometheus workspace `prometheus_url` is the query endpoint of: "
            "the triggers sign their queries with SigV4 as KEDA's operator (`Keda`'s `amp_workspace_arn`), through a "
            "TriggerAuthentication beside the ScaledObject. Default none (no signing).",
        ),
        Own(
            "keda_namespace",
            "pulumi.Input[str] | None",
            "KEDA's namespace as an output (`Keda.namespace`), which resolves once KEDA's chart, and with it the "
            "ScaledObject CRD, is installed: the ScaledObject waits for it. Default none (KEDA is installed "
            "elsewhere).",
        ),
        Own(
            "pod_annotations",
            "dict[str, str] | None",
            "Annotations of the server pods, such as `prometheus.io/scrape`. Default none.",
        ),
        Own(
            "hf_token",
            "pulumi.Input[str] | None",
            "Hugging Face token for gated models, mounted as a file from a Secret; kept secret. Default none.",
        ),
        Own(
            "api_key",
            "pulumi.Input[str] | None",
            "Key clients must send, given to vLLM as `VLLM_API_KEY` from a Secret; kept secret. Default none (no key).",
        ),
    ),
    *OBSERVABILITY_ARGS,
)
"""Every args class, nested ones before the classes that use them (the generated modules evaluate annotations
when a class is defined)."""
