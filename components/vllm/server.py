"""The vLLM OpenAI-compatible server on the GPU nodes, locked down to the restricted Pod Security Standard.

Every object is built by a pure function of the settings, the placement contract and the GPU
instance type (components/vllm/manifests.py), so the offline plan and the placement tools can render the
same manifests; the component only hands them to Pulumi.
"""

import math
from dataclasses import dataclass

import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s

from ..args.validate import Validation, args_path, argument_problem, coerce, placement_contract
from ..facts import gpu_catalog, pod_identity
from ..facts.contract import PlacementContract
from ..facts.identity import PROJECT
from ..kube.labels import created_name
from ..settings import GpuNodeGroupSettings, ObservabilitySettings, VllmSettings, arguments, server_pool_problems
from ..settings.fields import check_node_labels
from ..settings.fleet import revision_warning
from . import api_key as vllm_api_key
from . import compile_cache_manifests, weights_copy
from .args import VllmServerArgs
from .compile_cache import register_compile_cache
from .manifests import (
    PORT,
    TOKEN_KEY,
    api_key_secret,
    deployment,
    disruption_budget,
    model_cache_claim,
    namespace,
    network_policy,
    rollout_timeout,
    service,
    service_account,
    service_dns_name,
    token_secret,
    token_secret_name,
    try_command,
)
from .queue import manifests as queue_manifests
from .queue.args import ServingQueueArgs
from .queue.serving_queue import ServingQueue, register_consumer_identity
from .scaling_manifests import default_prometheus_url, scaled_object, trigger_authentication
from .weights import S3Weights, register_s3_weights, register_weights_copy, with_s3_weights


@dataclass(frozen=True)
class ServerPlan:
    """What `VllmServerArgs` resolve to once checked."""

    settings: VllmSettings
    contract: PlacementContract
    instance: gpu_catalog.InstanceType
    require_node_affinity: bool
    object_name: str
    node_labels: dict[str, str]


def validated(name: str, args: VllmServerArgs) -> ServerPlan:
    """The server's settings, contract, sizing instance and object name from `args`; raises `ConfigError` naming
    every bad argument."""
    where = args_path("VllmServer", name)
    validation = Validation(where, args)
    args = validation.known(args)
    settings = validation.section(VllmSettings, args, defaults={"namespace": name})
    pool = validation.section(GpuNodeGroupSettings, args)
    contract, require_node_affinity = placement_contract(args.placement, validation)
    if settings is not None and pool is not None:
        validation.add([problem.written(arguments(where)) for problem in server_pool_problems(settings, pool)])
    object_name = validation.object_name(args.name or name)
    if settings is not None:
        warning = revision_warning(validation.key("revision"), settings.revision)
        if warning:
            validation.warn(warning)
    node_labels = dict(args.require_node_labels or {})
    try:
        check_node_labels(node_labels)
    except ValueError as error:
        validation.add([argument_problem(f"{where}.require_node_labels", str(error))])
    # Read from the args as well, so that a bad bucket name and a missing cluster are reported together.
    reads_s3 = settings.source.type == "s3" if settings is not None else getattr(args.source, "type", None) == "s3"
    queued = settings.queue.enabled if settings is not None else getattr(args.queue, "enabled", None) is True
    cached = (
        settings.compile_cache.enabled if settings is not None else getattr(args.compile_cache, "enabled", None) is True
    )
    if cached and args.cluster_name is None:
        validation.add(
            [
                argument_problem(
                    f"{where}.cluster_name",
                    "is not set, and compile_cache.enabled is true: the cache's restore and saver take their S3 "
                    "credentials through an EKS Pod Identity association in that cluster; allowed: the cluster's "
                    "name (EksCluster.cluster_name), or compile_cache.enabled false",
                )
            ]
        )
    if queued and args.cluster_name is None:
        validation.add(
            [
                argument_problem(
                    f"{where}.cluster_name",
                    "is not set, and queue.enabled is true: the consumer beside vLLM takes its SQS and S3 "
                    "credentials through an EKS Pod Identity association in that cluster; allowed: the cluster's "
                    "name (EksCluster.cluster_name)",
                )
            ]
        )
    if settings is not None and settings.queue.enabled and settings.autoscaling.min_replicas == 0:
        minimum = validation.key("autoscaling") + (".minReplicas" if validation.config_section else ".min_replicas")
        validation.warn(
            f"{minimum} is 0: with no request waiting in the queue the server "
            "scales to zero, and online clients of its Service get connection refused (no endpoints) until a "
            "queued request wakes it and it has loaded, a cold start of minutes"
        )
    if reads_s3 and args.cluster_name is None:
        validation.add(
            [
                argument_problem(
                    f"{where}.cluster_name",
                    "is not set, and source.type 's3' reads the weights through an EKS Pod Identity association "
                    "in that cluster; allowed: the cluster's name (EksCluster.cluster_name), or source.type "
                    "'huggingface'",
                )
            ]
        )
    validation.secret("hf_token", args.hf_token, "hfToken")
    validation.secret("api_key", args.api_key, "vllmApiKey")
    validation.done()
    return ServerPlan(settings, contract, pool.smallest_instance, require_node_affinity, object_name, node_labels)


class VllmServer(pulumi.ComponentResource):
    """vLLM serving one model on the GPU nodes, behind a ClusterIP Service and a NetworkPolicy."""

    namespace: pulumi.Output[str]
    """Namespace of the server."""
    service_name: pulumi.Output[str]
    """Name of the ClusterIP Service."""
    service_dns_name: pulumi.Output[str]
    """Cluster DNS name of the Service (`<service>.<namespace>.svc.cluster.local`)."""
    service_port: pulumi.Output[int]
    """Port of the Service (OpenAI-compatible HTTP API and `/metrics`)."""
    model: pulumi.Output[str]
    """Model name clients send in requests."""
    try_command: pulumi.Output[str]
    """A shell line that port-forwards the Service and sends one chat request."""
    weights_uri: pulumi.Output[str]
    """`s3://<bucket>/<prefix>` the server reads its weights from, where to seed them; empty with weights from the
    Hugging Face Hub."""
    queue_url: pulumi.Output[str]
    """URL of the SQS queue the server takes requests from (`eks-gpu-batch submit --queue-url`); empty without
    `queue`."""
    results_uri: pulumi.Output[str]
    """`s3://<bucket>/<prefix>/` the queue's results are written to (`eks-gpu-batch collect --results`); empty
    without `queue`."""

    def __init__(self, name: str, args: VllmServerArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(VllmServerArgs, args, args_path("VllmServer", name))
        # Checked before anything is registered.
        plan = validated(name, args)
        super().__init__(f"{PROJECT}:index:VllmServer", name, None, opts)
        settings = plan.settings
        has_token = args.hf_token is not None
        has_api_key = args.api_key is not None

        namespace_needs: list[pulumi.Resource] = []
        self.namespace = pulumi.Output.from_input(settings.namespace)
        if args.create_namespace is not False:
            ns_manifest = namespace(name, settings)
            ns = k8s.core.v1.Namespace(
                f"{name}-ns", metadata=ns_manifest["metadata"], opts=pulumi.ResourceOptions(parent=self)
            )
            namespace_needs.append(ns)
            self.namespace = ns.metadata.apply(created_name)
        in_namespace = pulumi.ResourceOptions(parent=self, depends_on=namespace_needs)

        account = service_account(name, settings, plan.object_name)
        account_resource = k8s.core.v1.ServiceAccount(
            f"{name}-sa",
            metadata=account["metadata"],
            automount_service_account_token=account["automountServiceAccountToken"],
            opts=in_namespace,
        )
        pod_needs = [*namespace_needs, account_resource]
        if args.hf_token is not None:
            secret = token_secret(name, settings, plan.object_name)
            pod_needs.append(
                k8s.core.v1.Secret(
                    f"{name}-hf-token",
                    metadata=secret["metadata"],
                    type=secret["type"],
                    string_data={TOKEN_KEY: pulumi.Output.secret(args.hf_token)},
                    opts=in_namespace,
                )
            )
        if args.api_key is not None:
            secret = api_key_secret(name, settings, plan.object_name)
            pod_needs.append(
                k8s.core.v1.Secret(
                    f"{name}-api-key",
                    metadata=secret["metadata"],
                    type=secret["type"],
                    string_data={vllm_api_key.SECRET_DATA_KEY: pulumi.Output.secret(args.api_key)},
                    opts=in_namespace,
                )
            )
        if settings.model_cache.type == "pvc":
            claim = model_cache_claim(name, settings, plan.object_name)
            pod_needs.append(
                k8s.core.v1.PersistentVolumeClaim(
                    f"{name}-model-cache", metadata=claim["metadata"], spec=claim["spec"], opts=in_namespace
                )
            )

        weights = None
        # Where the copy Job runs: its deadline, and the server's wait for it, follow from these nodes' bandwidth.
        copy_nodes = tuple(args.system_instance_types or weights_copy.DEFAULT_NODE_TYPES)
        if settings.source.type == "s3" and args.cluster_name is not None:
            weights = register_s3_weights(
                name,
                bucket=settings.source.bucket,
                prefix=settings.weights_prefix,
                cluster_name=args.cluster_name,
                namespace=settings.namespace,
                service_account=plan.object_name,
                tags=args.tags,
                parent=self,
            )
            pod_needs += weights.needs
            if args.pod_identity_agent is not None:
                pod_needs.append(args.pod_identity_agent)
            if settings.seeds:
                register_weights_copy(
                    name,
                    weights=weights,
                    settings=settings,
                    node_types=copy_nodes,
                    server_name=plan.object_name,
                    cluster_name=args.cluster_name,
                    token_secret=token_secret_name(plan.object_name) if has_token else None,
                    tags=args.tags,
                    needs=list(pod_needs),
                    parent=self,
                )

        queue = None
        pods_role = weights.role if weights is not None else None
        if settings.queue.enabled and args.cluster_name is not None:
            queue, queue_needs, pods_role = self._queue(name, args, plan, weights, namespace_needs)
            pod_needs += queue_needs
        compile_cache = None
        if settings.compile_cache.enabled and args.cluster_name is not None:
            compile_cache = register_compile_cache(
                name,
                settings=settings,
                server_name=plan.object_name,
                cluster_name=args.cluster_name,
                role=pods_role,
                default_bucket=weights.bucket if weights is not None else None,
                namespace_needs=namespace_needs,
                tags=args.tags,
                parent=self,
            )
            pod_needs += compile_cache.needs
            if pods_role is None and args.pod_identity_agent is not None:
                pod_needs.append(args.pod_identity_agent)

        manifest = deployment(
            name,
            settings,
            plan.contract,
            plan.instance,
            require_node_affinity=plan.require_node_affinity,
            has_token=has_token,
            has_api_key=has_api_key,
            pod_annotations=dict(args.pod_annotations or {}),
            server_name=plan.object_name,
            node_labels=plan.node_labels,
        )
        if weights is not None:
            manifest = with_s3_weights(
                manifest,
                weights.uri,
                weights.region,
                settings,
                weights.bucket,
                plan.object_name,
                copy_nodes,
                baseline_gbps=plan.instance.network_baseline_gbps,
            )
        if queue is not None:
            region = (
                weights.region
                if weights is not None
                else aws.get_region_output(opts=pulumi.InvokeOutputOptions(parent=self)).region
            )
            consumer = queue_manifests.consumer_container(
                settings,
                queue_url=queue.queue_url,
                results_uri=queue.results_uri,
                region=region,
                api_key_env=vllm_api_key.environment_variable(plan.object_name) if has_api_key else None,
            )
            manifest = queue_manifests.with_consumer(manifest, settings, plan.object_name, consumer)
        if compile_cache is not None:
            manifest = compile_cache_manifests.with_compile_cache(
                manifest, settings, plan.object_name, compile_cache.env
            )
        timeout = rollout_timeout(settings)
        if weights is not None and settings.seeds:
            timeout = f"{math.ceil((manifest['spec']['progressDeadlineSeconds'] + 300) / 60)}m"
        deployment_resource = k8s.apps.v1.Deployment(
            f"{name}-deployment",
            metadata=manifest["metadata"],
            spec=manifest["spec"],
            opts=pulumi.ResourceOptions(
                parent=self,
                depends_on=pod_needs,
                custom_timeouts=pulumi.CustomTimeouts(create=timeout, update=timeout),
                # KEDA's HorizontalPodAutoscaler owns the replica count; `replicas` is only the initial one, and an
                # update must not reset what it chose.
                ignore_changes=["spec.replicas"] if settings.scales else None,
            ),
        )
        svc_manifest = service(name, settings, plan.object_name)
        svc = k8s.core.v1.Service(
            f"{name}-svc", metadata=svc_manifest["metadata"], spec=svc_manifest["spec"], opts=in_namespace
        )
        budget = disruption_budget(name, settings, plan.object_name)
        k8s.policy.v1.PodDisruptionBudget(
            f"{name}-pdb", metadata=budget["metadata"], spec=budget["spec"], opts=in_namespace
        )
        policy = network_policy(name, settings, metrics_namespace=args.metrics_namespace, server_name=plan.object_name)
        if weights is not None or queue is not None or compile_cache is not None:
            policy["spec"]["egress"].append(pod_identity.agent_egress())
        k8s.networking.v1.NetworkPolicy(
            f"{name}-netpol", metadata=policy["metadata"], spec=policy["spec"], opts=in_namespace
        )

        if settings.scales:
            prometheus_url = args.prometheus_url or default_prometheus_url(
                args.metrics_namespace or ObservabilitySettings().monitoring_namespace
            )
            signs = args.amp_region is not None or queue is not None
            queue_trigger = None
            if queue is not None:
                queue_trigger = queue_manifests.sqs_trigger(
                    settings,
                    queue_url=queue.queue_url,
                    region=aws.get_region_output(opts=pulumi.InvokeOutputOptions(parent=self)).region,
                    authentication=trigger_authentication(name, settings, plan.object_name)["metadata"]["name"],
                )
            scaler = scaled_object(
                name, settings, prometheus_url, plan.object_name, args.amp_region, queue_trigger=queue_trigger
            )
            metadata = scaler["metadata"]
            if args.keda_namespace is not None:
                # Waits for KEDA's release, which installs the ScaledObject CRD.
                metadata = pulumi.Output.all(args.keda_namespace).apply(lambda _: scaler["metadata"])
            scaler_needs: list[pulumi.Resource] = [*namespace_needs, deployment_resource]
            if signs:
                auth = trigger_authentication(name, settings, plan.object_name)
                auth_metadata = auth["metadata"]
                if args.keda_namespace is not None:
                    auth_metadata = pulumi.Output.all(args.keda_namespace).apply(lambda _: auth["metadata"])
                scaler_needs.append(
                    k8s.apiextensions.CustomResource(
                        f"{name}-scaler-auth",
                        api_version=auth["apiVersion"],
                        kind=auth["kind"],
                        metadata=auth_metadata,
                        spec=auth["spec"],
                        opts=pulumi.ResourceOptions(parent=self, depends_on=namespace_needs),
                    )
                )
            k8s.apiextensions.CustomResource(
                f"{name}-scaler",
                api_version=scaler["apiVersion"],
                kind=scaler["kind"],
                metadata=metadata,
                spec=scaler["spec"],
                opts=pulumi.ResourceOptions(parent=self, depends_on=scaler_needs),
            )
        self.service_name = svc.metadata.apply(created_name)
        self.service_dns_name = pulumi.Output.all(self.service_name, self.namespace).apply(
            lambda parts: service_dns_name(parts[1], parts[0])
        )
        self.service_port = pulumi.Output.from_input(PORT)
        self.model = pulumi.Output.from_input(settings.model_name)
        self.weights_uri = weights.uri if weights is not None else pulumi.Output.from_input("")
        self.queue_url = queue.queue_url if queue is not None else pulumi.Output.from_input("")
        self.results_uri = queue.results_uri if queue is not None else pulumi.Output.from_input("")
        self.try_command = pulumi.Output.all(self.namespace, self.service_name).apply(
            lambda parts: try_command(parts[0], parts[1], settings.model_name)
        )
        self.register_outputs(
            {
                "namespace": self.namespace,
                "service_name": self.service_name,
                "service_dns_name": self.service_dns_name,
                "service_port": self.service_port,
                "model": self.model,
                "try_command": self.try_command,
                "weights_uri": self.weights_uri,
                "queue_url": self.queue_url,
                "results_uri": self.results_uri,
            }
        )

    def _queue(
        self,
        name: str,
        args: VllmServerArgs,
        plan: ServerPlan,
        weights: S3Weights | None,
        namespace_needs: list[pulumi.Resource],
    ) -> tuple[ServingQueue, list[pulumi.Resource], pulumi.Output[str]]:
        """The server's request queue, what its pods wait for (the queue with the consumer's grant, the
        consumer's ConfigMap, and the Pod Identity association when the weights gave the pods none) and the role
        the pods take."""
        settings = plan.settings
        assert args.cluster_name is not None
        needs: list[pulumi.Resource] = []
        if weights is not None:
            role = weights.role
        else:
            role, association = register_consumer_identity(
                name,
                cluster_name=args.cluster_name,
                namespace=settings.namespace,
                service_account=plan.object_name,
                tags=args.tags,
                parent=self,
            )
            needs.append(association)
            if args.pod_identity_agent is not None:
                needs.append(args.pod_identity_agent)
        queue_settings = settings.queue
        queue = ServingQueue(
            f"{name}-queue",
            ServingQueueArgs(
                visibility_timeout_seconds=queue_settings.visibility_timeout_seconds,
                message_retention_seconds=queue_settings.message_retention_seconds,
                max_receive_count=queue_settings.max_receive_count,
                results_bucket=queue_settings.results_bucket,
                results_prefix=queue_manifests.results_prefix(settings, plan.object_name),
                default_results_bucket=weights.bucket if weights is not None else None,
                consumer_role=role,
                keda_operator_role=args.keda_operator_role,
                tags=args.tags,
            ),
            opts=pulumi.ResourceOptions(parent=self),
        )
        script = queue_manifests.config_map(name, settings, plan.object_name)
        config_map = k8s.core.v1.ConfigMap(
            f"{name}-queue-script",
            metadata=script["metadata"],
            data=script["data"],
            opts=pulumi.ResourceOptions(parent=self, depends_on=namespace_needs),
        )
        return queue, [*needs, queue, config_map], role
