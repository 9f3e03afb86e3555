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
    "PlacementArgs": ".args.component_args",
    "TaintArgs": ".args.component_args",
    "contract_of": ".component_args",
    "Network": ".network",
    "NetworkArgs": ".args.network",
    "EksCluster": ".cluster",
    "EksClusterArgs": ".args.cluster",
    "ClusterNetwork": ".args.cluster",
    "SystemNodeGroupArgs": ".args.cluster",
    "ClusterAutoscaler": ".cluster_autoscaler",
    "ClusterAutoscalerArgs": ".args.cluster_autoscaler",
    "DcgmExporter": ".dcgm_exporter",
    "DcgmExporterArgs": ".args.dcgm_exporter",
    "GpuNodeGroup": ".gpu_node_group",
    "GpuNodeGroupArgs": ".args.gpu_node_group",
    "Karpenter": ".karpenter",
    "KarpenterArgs": ".args.karpenter",
    "KarpenterNodePool": ".karpenter_pool",
    "KarpenterNodePoolArgs": ".args.karpenter_pool",
    "AutoMode": ".auto_mode",
    "AutoModeArgs": ".args.auto_mode",
    "AutoModeNodePool": ".auto_mode_pool",
    "AutoModeNodePoolArgs": ".args.auto_mode_pool",
    "NvidiaDevicePlugin": ".device_plugin",
    "NvidiaDevicePluginArgs": ".args.device_plugin",
    "VllmServer": ".vllm_server",
    "VllmServerArgs": ".args.vllm_server",
    "ModelCacheArgs": ".args.vllm_server",
    "AutoscalingArgs": ".args.vllm_server",
    "Keda": ".keda",
    "KedaArgs": ".args.keda",
    "ModelSourceArgs": ".args.vllm_server",
    "PrometheusMonitors": ".monitoring",
    "PrometheusMonitorsArgs": ".args.monitoring",
    "ScrapeTarget": ".args.monitoring",
    "PrometheusStack": ".prometheus_stack",
    "PrometheusStackArgs": ".args.prometheus_stack",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # Relative to this package, so the same code serves `components` in the repository and
    # `eks_gpu_inference` installed (docs/architecture.md, "Import name").
    return getattr(import_module(_EXPORTS[name], __name__), name)
