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
    "PlacementArgs": ".component_args",
    "TaintArgs": ".component_args",
    "contract_of": ".component_args",
    "Network": ".network",
    "NetworkArgs": ".network",
    "EksCluster": ".cluster",
    "EksClusterArgs": ".cluster",
    "ClusterNetwork": ".cluster",
    "SystemNodeGroupArgs": ".cluster",
    "ClusterAutoscaler": ".cluster_autoscaler",
    "ClusterAutoscalerArgs": ".cluster_autoscaler",
    "DcgmExporter": ".dcgm_exporter",
    "DcgmExporterArgs": ".dcgm_exporter",
    "GpuNodeGroup": ".gpu_node_group",
    "GpuNodeGroupArgs": ".gpu_node_group",
    "NvidiaDevicePlugin": ".device_plugin",
    "NvidiaDevicePluginArgs": ".device_plugin",
    "VllmServer": ".vllm_server",
    "VllmServerArgs": ".vllm_server",
    "ModelCacheArgs": ".vllm_server",
    "PrometheusMonitors": ".monitoring",
    "PrometheusMonitorsArgs": ".monitoring",
    "ScrapeTarget": ".monitoring",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # Relative to this package, so the same code serves `components` in the repository and
    # `eks_gpu_inference` installed (docs/architecture.md, "Import name").
    return getattr(import_module(_EXPORTS[name], __name__), name)
