"""Importable components for an EKS cluster with guarded GPU nodes, the NVIDIA device plugin and vLLM.

Names load on first use, so that importing the pure ones (settings, the placement contract, which lives in
facts/contract.py) does not pay for the Pulumi SDKs.
"""

from importlib import import_module

_EXPORTS = {
    "PlacementContract": "facts.contract",
    "Taint": "facts.contract",
    "Settings": "components.settings",
    "ConfigError": "components.settings",
    "parse_settings": "components.settings",
    "PlacementArgs": "components.component_args",
    "TaintArgs": "components.component_args",
    "EksCluster": "components.cluster",
    "EksClusterArgs": "components.cluster",
    "ClusterNetwork": "components.cluster",
    "SystemNodeGroupArgs": "components.cluster",
    "DcgmExporter": "components.dcgm_exporter",
    "DcgmExporterArgs": "components.dcgm_exporter",
    "GpuNodeGroup": "components.gpu_node_group",
    "GpuNodeGroupArgs": "components.gpu_node_group",
    "NvidiaDevicePlugin": "components.device_plugin",
    "NvidiaDevicePluginArgs": "components.device_plugin",
    "VllmServer": "components.vllm_server",
    "VllmServerArgs": "components.vllm_server",
    "ModelCacheArgs": "components.vllm_server",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'components' has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)
