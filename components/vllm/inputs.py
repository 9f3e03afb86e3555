"""The inputs of the vLLM server and its parts (model cache, weights source, autoscaling). How a declaration reads: components/args/declare.py."""

from __future__ import annotations

from ..args.declare import Args, Own, Take, _args, _placement
from ..settings.autoscaling import AutoscalingSettings
from ..settings.compile_cache import CompileCacheSettings
from ..settings.model_source import ModelSourceSettings
from ..settings.node_groups import GpuNodeGroupSettings
from ..settings.queue import QueueSettings
from ..settings.section import SectionModel
from ..settings.vllm import ModelCacheSettings, VllmSettings

STACK_ONLY: dict[type[SectionModel], tuple[str, ...]] = {
    # Whether the stack builds the component at all.
    VllmSettings: ("enabled", "model_facts"),
}
"""Settings fields of this concern no component takes: the stack config alone has them."""

ARGS: tuple[Args, ...] = (
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
        "QueueArgs",
        "vllm/args",
        "Requests that wait in an SQS queue for the server: the queue and its dead-letter queue (`ServingQueue`), "
        "the consumer beside vLLM, and KEDA's SQS trigger (KEDA must be installed, as `Keda` does).",
        Take(QueueSettings),
    ),
    _args(
        "CompileCacheArgs",
        "vllm/args",
        "vLLM's compile cache kept in S3: restored into the pod before vLLM starts, saved after its first start.",
        Take(CompileCacheSettings),
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
            "system_instance_types",
            "list[str] | None",
            "Instance types of the system nodes, where the weights copy Job runs (`source.seed`): the copy's "
            "deadline, and the server's wait for it, follow from the model's size and the slowest type's network "
            "baseline (facts/system_nodes.py). Default: the system node group's default types.",
            after="tags",
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
            "keda_operator_role",
            "pulumi.Input[str] | None",
            "The name of the IAM role KEDA's operator runs as (`Keda.operator_role_name`): with `queue`, the server "
            "grants it reading its queue's attributes, the counts KEDA scales on. Default none (grant it yourself: "
            "`components.vllm.queue.manifests.keda_policy`).",
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
)
"""This concern's args classes, nested ones before the classes that use them (the generated module evaluates
annotations when a class is defined)."""
