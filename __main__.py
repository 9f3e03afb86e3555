"""An EKS cluster whose GPU nodes only GPU workloads reach, the NVIDIA device plugin, and vLLM."""

from typing import Any

import pulumi
import pulumi_aws as aws

from components.args.coerce import StackConfigError
from components.args.validate import args_from_settings, placement_args
from components.autoscaling.cluster_autoscaler import ClusterAutoscaler, ClusterAutoscalerArgs
from components.autoscaling.keda import Keda, KedaArgs
from components.autoscaling.keda_manifests import NAMESPACE as KEDA_NAMESPACE
from components.autoscaling.keda_manifests import amp_query_url, compatibility_warning
from components.cluster.args import ClusterNetwork, SystemNodeGroupArgs
from components.cluster.cluster import EksCluster, EksClusterArgs
from components.cluster.network import Network, NetworkArgs
from components.facts.eks_node import HOST_DEVICE_PLUGIN_AMI_FAMILY, ami_family_runs_device_plugin
from components.facts.identity import PROJECT
from components.facts.regions import dns_suffix, eks_regions
from components.gpu_agents.dcgm_exporter import NAME as DCGM_EXPORTER_NAME
from components.gpu_agents.dcgm_exporter import DcgmExporter, DcgmExporterArgs
from components.gpu_agents.device_plugin import DEFAULT_NAMESPACE as DEVICE_PLUGIN_NAMESPACE
from components.gpu_agents.device_plugin import NAME as DEVICE_PLUGIN_NAME
from components.gpu_agents.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs
from components.kube.labels import LABEL_PREFIX
from components.observability.monitoring import (
    PrometheusMonitors,
    PrometheusMonitorsArgs,
    dcgm_exporter_target,
    pod_scrape_annotations,
    vllm_target,
)
from components.observability.prometheus_stack import PrometheusStack, PrometheusStackArgs
from components.pools import provisioners
from components.pools.fast_snapshot_restore import register_fast_snapshot_restores, zone_names
from components.pools.gpu_node_group import GpuNodeGroup
from components.pools.karpenter.manifests import discovery_tags as karpenter_discovery_tags
from components.pools.quota import PoolDemand, checked_quotas
from components.settings import ConfigError, config_from_pulumi, namespace_warnings, parse_stack_config
from components.settings.stack_warnings import ignored_key_warnings, one_replica_warnings
from components.vllm.disruption import do_not_disrupt
from components.vllm.hub_facts import auto_pool_reads, preview_fits
from components.vllm.manifests import SERVER_NAME as VLLM_SERVER_NAME
from components.vllm.server import VllmServer, VllmServerArgs

stack_config, secret_keys = config_from_pulumi()
# `pool: auto` for a model neither the catalog nor modelFacts describes ranks the pools by the facts the Hub gives,
# so those models are read before the settings resolve `auto`; a Hub out of reach leaves such a model no pool.
hub_reads = auto_pool_reads(stack_config)
try:
    settings = parse_stack_config(stack_config, secret_keys, hub_reads=hub_reads)
except ConfigError as error:
    raise StackConfigError(error.problems) from None
# The components warn of valid settings that weaken the stack, naming the config keys (component_args.Validation);
# only keys of this project under another namespace are the config's own to warn of.
for warning in namespace_warnings(stack_config):
    pulumi.log.warn(warning)
# What valid settings leave to the months after: pool keys the provisioner never reads, models one node replacement
# takes offline.
for warning in [*ignored_key_warnings(settings.pools), *one_replica_warnings(settings.servers)]:
    pulumi.log.warn(warning)
# A model neither the catalog nor modelFacts describes is read from the Hub (config.json and the safetensors headers
# at its revision) and sized on its pool's GPUs before anything registers; a Hub out of reach is a warning.
hub_check = preview_fits(settings.servers, settings.hf_token, hub_reads)
for warning in hub_check.warnings:
    pulumi.log.warn(warning)
for note in hub_check.notes:
    pulumi.log.info(note)
if hub_check.problems:
    raise StackConfigError(hub_check.problems)
require_node_affinity = settings.gpu_placement.require_node_affinity
# What the DaemonSets of every GPU node follow; each pool and the servers on it follow the pool's own contract.
placement = placement_args(settings.contract, require_node_affinity)
name = settings.cluster.name
# The provisioners the GPU pools use, each once (components/pools/provisioners.py); the program names none of them.
pool_provisioners = provisioners.in_use(pool.settings.provisioner for pool in settings.pools)
tags = {f"{LABEL_PREFIX}/part-of": PROJECT, "pulumi:stack": pulumi.get_stack()}

# Where KEDA reads the servers' queues (observability.prometheus): an AMP workspace is asked at its query endpoint
# with SigV4, as KEDA's operator; otherwise the URL given, or the operator's Prometheus in the monitoring namespace.
autoscales = any(served.settings.scales for served in settings.servers)
# Servers fed from SQS queues: KEDA's operator reads their queues as an IAM role of its own (EKS Pod Identity).
queued = any(served.settings.queue.enabled for served in settings.servers)
prometheus_choice = settings.observability.prometheus
amp = prometheus_choice.amp_parts(settings.region or "") if autoscales else None
prometheus_url = prometheus_choice.url
if prometheus_choice.amp_workspace and not autoscales:
    pulumi.log.warn(
        "observability.prometheus.ampWorkspace is set, but no model autoscales: KEDA is not installed and nothing "
        "queries the workspace"
    )
if amp:
    amp_id, amp_region, amp_account = amp
    amp_partition = prometheus_choice.amp_partition() or eks_regions()[amp_region]
    prometheus_url = amp_query_url(amp_region, amp_id, dns_suffix(amp_partition))
    pulumi.log.warn(
        f"KEDA queries the Amazon Managed Service for Prometheus workspace {amp_id} ({amp_region}), which this stack "
        "neither creates nor writes to: the autoscaled models scale only once a collector of yours sends the vLLM "
        f"servers' metrics there; it must run in observability.monitoringNamespace "
        f"({settings.observability.monitoring_namespace}), the only namespace their NetworkPolicies admit scrapes from"
    )

network = None
if settings.creates_network:
    network = Network(
        f"{name}-network",
        args_from_settings(
            NetworkArgs,
            settings.network,
            name_tag=name,
            gpu_instance_types=settings.gpu_instance_types,
            tags=tags,
            # Karpenter finds its subnets by this tag; the subnets own their tags, so it is theirs to carry.
            private_subnet_tags=karpenter_discovery_tags(name) if settings.installs_karpenter else None,
        ),
    )
    pulumi.export("vpcId", network.vpc_id)
    pulumi.export("privateSubnetIds", network.private_subnet_ids)
    pulumi.export("availabilityZoneIds", network.availability_zones)

cluster = EksCluster(
    name,
    args_from_settings(
        EksClusterArgs,
        settings.cluster,
        system_node_group=args_from_settings(SystemNodeGroupArgs, settings.system_node_group),
        node_monitoring_agent=settings.node_repair,
        gpu_placement=placement,
        tags=tags,
        # The autoscalers and servers that read their weights from S3 take their credentials from the agent.
        pod_identity_agent=settings.installs_autoscaler
        or provisioners.needs_pod_identity(pool_provisioners)
        or any(served.settings.source.type == "s3" for served in settings.servers)
        or any(served.settings.compile_cache.enabled for served in settings.servers)
        or queued
        or amp is not None,
        network=ClusterNetwork(
            vpc_id=network.vpc_id,
            private_subnet_ids=network.private_subnet_ids,
            public_subnet_ids=network.public_subnet_ids,
        )
        if network
        else None,
        **provisioners.cluster_options(pool_provisioners),
        aws_profile=pulumi.Config("aws").get("profile"),
    ),
)


# What each provisioner in use installs once for all its pools; each controller takes what its args declare.
# A controller that launches nodes itself launches into the private subnets tagged for it, picking among their zones
# the ones offering an instance type. The stack's own subnets carry the tag in their own tags (above); only subnets
# the stack is given are tagged by the controller.
controller_inputs = {
    "cluster_name": cluster.cluster_name,
    "node_security_group_id": cluster.cluster_security_group_id,
    "subnet_ids": None if network else list(settings.cluster.private_subnet_ids),
    "pod_identity_agent": cluster.pod_identity_agent,
    "coredns": cluster.coredns,
    "tags": tags,
}
controllers: dict[str, Any] = {}
for provisioner_name, controller in provisioners.controllers(pool_provisioners).items():
    controller_args = controller.args_class()
    controllers[provisioner_name] = controller.component_class()(
        f"{name}-{controller.suffix}",
        controller_args(**provisioners.offered(controller_args, controller_inputs)),
        opts=pulumi.ResourceOptions(providers=[cluster.provider]) if controller.on_cluster else None,
    )

# The GPU node groups wait for their EC2 vCPU quotas to be read and judged: a group the quota refuses would end
# CREATE_FAILED and stay in the state (components/pools/quota.py). Karpenter launches its pools' instances itself, so
# a shortfall there leaves pods Pending rather than a failed resource; those pools are not judged.
quotas_checked = checked_quotas(
    [
        PoolDemand(
            f"{pulumi.get_project()}:{pool.config_key}",
            tuple(pool.settings.instance_types),
            pool.settings.capacity_type,
            pool.settings.desired_size,
            pool.settings.max_size,
        )
        for pool in settings.pools
        if pool.settings.node_group
    ]
)
# Only the zones that offer the GPU instance types: a node group elsewhere never gets instances.
gpu_subnet_ids = pulumi.Output.all(network.gpu_subnet_ids if network else cluster.subnet_ids, quotas_checked).apply(
    lambda parts: parts[0]
)
# What the stack offers every GPU pool; each takes what its args declare, with its own settings and placement.
pool_inputs = {
    "cluster_name": cluster.cluster_name,
    "node_role_arn": cluster.node_role_arn,
    "kubernetes_version": cluster.kubernetes_version,
    "subnet_ids": gpu_subnet_ids,
    "security_group_id": cluster.cluster_security_group_id,
    "tags": tags,
}
# Fast Snapshot Restore for each image snapshot a pool counts on, in each zone its nodes may launch in; the pool
# (its node class or launch template) waits for it, so no node restores a volume lazily while it is enabling.
snapshots = [pool.settings.snapshot_id or "" for pool in settings.pools if pool.settings.fast_snapshot_restore]
restores = register_fast_snapshot_restores(name, snapshots, zone_names(settings, network)) if snapshots else {}
gpu_pools: dict[str | None, "provisioners.GpuPool"] = {}
for pool in settings.pools:
    provisioner = provisioners.PROVISIONERS[pool.settings.provisioner]
    pool_args = provisioner.args_class()
    installed = controllers.get(pool.settings.provisioner)
    offer = {
        **pool_inputs,
        # The role of the nodes its controller launches.
        **({"node_role_name": installed.node_role_name} if installed is not None else {}),
        "placement": placement_args(settings.pool_contract(pool), require_node_affinity),
        "name": pool.node_pool_name,
    }
    waits_for = provisioner.controller.pools_wait_for if provisioner.controller else None
    pool_restores = restores.get(pool.settings.snapshot_id or "", []) if pool.settings.fast_snapshot_restore else []
    gpu_pools[pool.key] = provisioner.pool_class()(
        pool.resource_name(name),
        args_from_settings(
            pool_args, pool.settings, config_key=pool.config_key, **provisioners.offered(pool_args, offer)
        ),
        opts=pulumi.ResourceOptions(
            provider=cluster.provider,
            depends_on=[*([getattr(installed, waits_for)] if waits_for else []), *pool_restores] or None,
        )
        if provisioner.on_cluster
        # A node group's warm nodes are placeholder pods (components/pools/warm.py), on the cluster's provider.
        else pulumi.ResourceOptions(
            providers=[cluster.provider] if pool.settings.warm_nodes else None, depends_on=pool_restores or None
        ),
    )
on_cluster = pulumi.ResourceOptions(provider=cluster.provider)

# The Cluster Autoscaler scales node groups only (it discovers their Auto Scaling groups); Karpenter pools scale
# themselves, so with no node-group GPU pool it is not installed.
if settings.installs_autoscaler:
    ClusterAutoscaler(
        f"{name}-autoscaler",
        args_from_settings(
            ClusterAutoscalerArgs,
            settings.autoscaler,
            cluster_name=name,
            cluster_version=settings.cluster.version,
            eks_cluster_name=cluster.cluster_name,
            tags=tags,
            pod_identity_agent=cluster.pod_identity_agent,
        ),
        opts=pulumi.ResourceOptions(providers=[cluster.provider]),
    )

if settings.device_plugin_enabled:
    device_plugin = NvidiaDevicePlugin(
        f"{name}-device-plugin",
        args_from_settings(
            NvidiaDevicePluginArgs,
            settings.device_plugin,
            placement=placement,
            auto_mode_nodes=settings.installs_auto_mode or None,
            # The names deployed stacks have (not the component's): a new name would replace the live DaemonSet.
            name=DEVICE_PLUGIN_NAME,
            namespace=DEVICE_PLUGIN_NAMESPACE,
        ),
        opts=on_cluster,
    )
    pulumi.export("devicePlugin", device_plugin.daemonset_name)
else:
    pulumi.export(
        "devicePlugin",
        f"not deployed: the {settings.gpu_ami_family} NVIDIA AMI runs the device plugin on the host"
        if ami_family_runs_device_plugin(settings.gpu_ami_family)
        else "not deployed: EKS Auto Mode's nodes run the device plugin themselves"
        if settings.device_plugin.enabled is None
        else "not deployed: devicePlugin.enabled is false",
    )

pulumi.export("clusterName", cluster.cluster_name)
pulumi.export("kubeconfig", cluster.kubeconfig)
pulumi.export("systemNodeGroup", cluster.system_node_group_name)

# The fleet form exports each pool's and each model's outputs under its name; the one-pool form keeps the
# top-level outputs it always had.
SINGLE_POOL_OUTPUTS = {
    "nodeGroup": "gpuNodeGroup",
    "nodePool": "gpuNodePool",
    "amiType": "gpuAmiType",
    "labels": "gpuNodeLabels",
    "taints": "gpuNodeTaints",
}
SINGLE_SERVER_OUTPUTS = {
    "namespace": "vllmNamespace",
    "service": "vllmService",
    "port": "vllmPort",
    "model": "vllmModel",
    "try": "vllmTry",
    "weights": "vllmWeights",
    "queue": "vllmQueueUrl",
    "results": "vllmResults",
}


def pool_outputs(pool: "provisioners.GpuPool") -> dict[str, Any]:
    if isinstance(pool, GpuNodeGroup):
        return {
            "nodeGroup": pool.node_group_name,
            "amiType": pool.ami_type,
            "labels": pool.labels,
            "taints": pool.taints,
        }
    return {"nodePool": pool.node_pool_name, "labels": pool.labels, "taints": pool.taints}


if settings.fleet:
    pulumi.export("gpuPools", {key: pool_outputs(pool) for key, pool in gpu_pools.items()})
else:
    for key, value in pool_outputs(gpu_pools[None]).items():
        pulumi.export(SINGLE_POOL_OUTPUTS[key], value)

# KEDA scales the servers that autoscale on their queue; installed only when one does.
keda = None
if autoscales:
    amp_arn: pulumi.Input[str] | None = None
    if amp:
        amp_arn = (
            prometheus_choice.amp_workspace
            if amp_account
            else aws.get_caller_identity_output().account_id.apply(
                lambda account: f"arn:{amp_partition}:aps:{amp_region}:{account}:workspace/{amp_id}"
            )
        )
    keda = Keda(
        f"{name}-keda",
        KedaArgs(
            amp_workspace_arn=amp_arn,
            operator_role=queued or None,
            cluster_name=cluster.cluster_name if amp or queued else None,
            pod_identity_agent=cluster.pod_identity_agent if amp or queued else None,
            tags=tags if amp or queued else None,
        ),
        opts=on_cluster,
    )
    keda_warning = compatibility_warning(settings.cluster.version)
    if keda_warning:
        pulumi.log.warn(keda_warning)

scrape_targets = []
servers: dict[str, dict[str, Any]] = {}
# The system nodes run the weights copy Jobs; their bandwidth sets each copy's deadline.
system_types = list(settings.system_node_group.instance_types)
for served in settings.servers:
    # The one-model form keeps the names deployed stacks have (not the component's): a new name would replace
    # the live objects.
    server_name = served.resource_name(name)
    object_name = VLLM_SERVER_NAME if served.name is None else served.name
    scrape = vllm_target(server_name, served.settings.namespace, object_name)
    scrape_targets.append(scrape)
    pool = served.pool
    product = pool.settings.gpu_product
    server = VllmServer(
        server_name,
        args_from_settings(
            VllmServerArgs,
            served.settings,
            config_key=served.config_key,
            namespace=served.settings.namespace,
            instance_types=list(pool.settings.instance_types),
            placement=placement_args(settings.pool_contract(pool), require_node_affinity),
            # Among several pools, the GPU product label keeps the server on its own pool's nodes.
            require_gpu_product=served.settings.require_gpu_product or (product if settings.fleet else None),
            # The pool's own label, so a server keeps to its pool among pools of one GPU product too.
            require_node_labels=pool.node_labels or None,
            hf_token=pulumi.Output.secret(settings.hf_token) if settings.hf_token else None,
            api_key=pulumi.Output.secret(settings.vllm_api_key) if settings.vllm_api_key else None,
            metrics_namespace=settings.observability.monitoring_namespace,
            prometheus_url=prometheus_url,
            amp_region=amp[1] if amp else None,
            keda_namespace=keda.namespace if keda and served.settings.scales else None,
            keda_operator_role=keda.operator_role_name if keda and served.settings.queue.enabled else None,
            pod_annotations={
                **pod_scrape_annotations(settings.observability, scrape),
                # Karpenter (and Auto Mode, whose disruption is Karpenter's) leaves the pod's node alone for its
                # whole cold start from the pod's start time: the pull, the wait for the weights, the startup budget.
                **(
                    do_not_disrupt(served.settings, pool.settings, system_types) if not pool.settings.node_group else {}
                ),
            },
            name=object_name,
            cluster_name=cluster.cluster_name,
            pod_identity_agent=cluster.pod_identity_agent,
            tags=tags,
            system_instance_types=system_types,
        ),
        opts=pulumi.ResourceOptions(provider=cluster.provider, depends_on=[gpu_pools[pool.key]]),
    )
    outputs = {
        "namespace": server.namespace,
        "service": server.service_dns_name,
        "port": server.service_port,
        "model": server.model,
        "try": server.try_command,
    }
    if served.settings.source.type == "s3":
        # Where to seed the weights: the bucket the stack created is named only once it exists.
        outputs["weights"] = server.weights_uri
    if served.settings.queue.enabled:
        # Where `eks-gpu-batch submit` sends requests and `collect` reads their results.
        outputs["queue"] = server.queue_url
        outputs["results"] = server.results_uri
    if served.name is None:
        for key, value in outputs.items():
            pulumi.export(SINGLE_SERVER_OUTPUTS[key], value)
    else:
        servers[served.name] = outputs
if settings.fleet:
    pulumi.export("models", servers)

# GPU and model-server metrics: the exporter on every GPU node, and scrape configuration for both.
observability = settings.observability
if observability.dcgm_exporter.enabled:
    exporter_target = dcgm_exporter_target(f"{name}-dcgm-exporter", name=DCGM_EXPORTER_NAME)
    exporter = DcgmExporter(
        f"{name}-dcgm-exporter",
        args_from_settings(
            DcgmExporterArgs,
            observability,
            placement=placement,
            # The host-plugin family is Bottlerocket, whose NVIDIA runtime needs the exporter privileged.
            bottlerocket=settings.gpu_ami_family == HOST_DEVICE_PLUGIN_AMI_FAMILY,
            # With node repair, EksCluster installs the node monitoring agent and with it dcgm-server.
            dcgm_host_engine=settings.node_repair,
            auto_mode_nodes=settings.installs_auto_mode or None,
            pod_annotations=pod_scrape_annotations(observability, exporter_target),
            # The name deployed stacks have (not the component's): a new name would replace the live DaemonSet.
            name=DCGM_EXPORTER_NAME,
        ),
        opts=on_cluster,
    )
    scrape_targets.append(exporter_target)
    pulumi.export("dcgmExporter", exporter.daemonset_name)
# The alerts watch the servers this stack runs; with none, no server is expected to be scraped. In the fleet form
# each model with replicas is watched on its own, and GPU memory above the largest budget any model takes.
watched_servers: dict[str, Any] = (
    {
        "watched_models": [served.settings.model_name for served in settings.servers if served.settings.replicas > 0],
        "gpu_memory_utilization": max(
            (served.settings.gpu_memory_utilization for served in settings.servers),
            default=settings.vllm.gpu_memory_utilization,
        ),
    }
    if settings.fleet
    else {
        "vllm_model_name": settings.vllm.model_name,
        "replicas": settings.vllm.replicas if settings.vllm.enabled else 0,
        "gpu_memory_utilization": settings.vllm.gpu_memory_utilization,
    }
)
autoscaled_models = {
    served.settings.model_name: served.settings.autoscaling.max_replicas
    for served in settings.servers
    if served.settings.autoscaling.enabled
}
if autoscaled_models:
    watched_servers["autoscaled_models"] = autoscaled_models
# kube-prometheus-stack, when the stack installs it: the monitors and rules wait for its CRDs.
prometheus_stack = None
if prometheus_choice.install:
    prometheus_stack = PrometheusStack(
        f"{name}-prometheus",
        args_from_settings(PrometheusStackArgs, observability, keda_namespace=KEDA_NAMESPACE if keda else None),
        opts=on_cluster,
    )
if observability.operator_objects:
    PrometheusMonitors(
        f"{name}-monitors",
        args_from_settings(
            PrometheusMonitorsArgs,
            observability,
            targets=scrape_targets,
            **watched_servers,
        ),
        opts=pulumi.ResourceOptions(
            provider=cluster.provider, depends_on=[prometheus_stack] if prometheus_stack else None
        ),
    )
