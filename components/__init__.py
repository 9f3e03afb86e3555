"""Importable components for an EKS cluster with guarded GPU nodes, the NVIDIA device plugin and vLLM.

Names load on first use, so that importing the pure ones (settings, the placement contract, which lives in
facts/contract.py) does not pay for the Pulumi SDKs.
"""

from importlib import import_module

_EXPORTS = {
    "PlacementContract": ".facts.contract",
    "Taint": ".facts.contract",
    "Settings": ".settings",
    "ConfigError": ".settings",
    "parse_settings": ".settings",
    "PlacementArgs": ".args.placement",
    "TaintArgs": ".args.placement",
    "contract_of": ".args.validate",
    "Network": ".cluster.network",
    "NetworkArgs": ".cluster.args",
    "EksCluster": ".cluster.cluster",
    "EksClusterArgs": ".cluster.args",
    "ClusterNetwork": ".cluster.args",
    "SystemNodeGroupArgs": ".cluster.args",
    "ClusterAutoscaler": ".autoscaling.cluster_autoscaler",
    "ClusterAutoscalerArgs": ".autoscaling.args",
    "DcgmExporter": ".gpu_agents.dcgm_exporter",
    "DcgmExporterArgs": ".gpu_agents.args",
    "GpuNodeGroup": ".pools.gpu_node_group",
    "GpuNodeGroupArgs": ".pools.args",
    "Karpenter": ".pools.karpenter.controller",
    "KarpenterArgs": ".pools.karpenter.args",
    "KarpenterNodePool": ".pools.karpenter.pool",
    "KarpenterNodePoolArgs": ".pools.karpenter.args",
    "AutoMode": ".pools.auto_mode.nodes",
    "AutoModeArgs": ".pools.auto_mode.args",
    "AutoModeNodePool": ".pools.auto_mode.pool",
    "AutoModeNodePoolArgs": ".pools.auto_mode.args",
    "NvidiaDevicePlugin": ".gpu_agents.device_plugin",
    "NvidiaDevicePluginArgs": ".gpu_agents.args",
    "VllmServer": ".vllm.server",
    "VllmServerArgs": ".vllm.args",
    "ModelCacheArgs": ".vllm.args",
    "AutoscalingArgs": ".vllm.args",
    "CompileCacheArgs": ".vllm.args",
    "Keda": ".autoscaling.keda",
    "KedaArgs": ".autoscaling.args",
    "ModelSourceArgs": ".vllm.args",
    "QueueArgs": ".vllm.args",
    "ServingQueue": ".vllm.queue.serving_queue",
    "ServingQueueArgs": ".vllm.queue.args",
    "PrometheusMonitors": ".observability.monitoring",
    "PrometheusMonitorsArgs": ".observability.args",
    "ScrapeTarget": ".observability.args",
    "PrometheusStack": ".observability.prometheus_stack",
    "PrometheusStackArgs": ".observability.args",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # Relative to this package, so the same code serves `components` in the repository and
    # `eks_gpu_inference` installed (docs/architecture.md, "Import name").
    return getattr(import_module(_EXPORTS[name], __name__), name)
