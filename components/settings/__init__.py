"""Stack settings: the typed, validated form of the stack config and of component arguments.

Every key of the config namespace is described once, with its default, in the module of its section
(`cluster`, `node_groups`, `gpu_placement`, `vllm`, `device_plugin`, `network`, `autoscaler`,
`observability`); `stack` holds the whole-stack model and the checks across sections, `fields` the
field types the sections share, `errors` the problems and how their keys are written, `reader` the
Pulumi config reader. `parse_settings` checks the whole config before any resource exists and raises
`ConfigError` listing every problem, each naming the key, the bad value and what is allowed;
`validate_section` does the same for one section given as component arguments. Only
`config_from_pulumi` imports Pulumi (when called), so the offline tools and the tests use the
settings without it.
"""

from ..facts.identity import PROJECT
from .autoscaler import AutoscalerSettings
from .cluster import DEFAULT_LOG_TYPES, ClusterSettings
from .device_plugin import DevicePluginSettings
from .errors import (
    ConfigError,
    ConfigProblem,
    Where,
    _bad,
    _known_keys,
    _suggestion,
    arguments,
    stack_config,
)
from .fields import (
    MAX_GP3_DISK_GIB,
    check_kubernetes_taint_effect,
    check_label_key,
    check_label_value,
    check_labels,
    check_namespace_name,
    check_node_label_key,
    check_node_labels,
)
from .gpu_placement import GpuPlacementSettings
from .network import MAX_AZ_COUNT, MAX_VPC_PREFIX, MIN_VPC_PREFIX, NetworkSettings
from .node_groups import (
    MIN_GPU_DISK_GIB,
    MIN_SYSTEM_DISK_GIB,
    GpuNodeGroupSettings,
    SystemNodeGroupSettings,
    TaintSettings,
)
from .observability import DcgmExporterSettings, ObservabilitySettings
from .reader import config_from_pulumi, parse_stack_config
from .section import SectionModel, validate_section
from .stack import (
    SECRET_KEYS,
    SECTIONS,
    TOP_LEVEL_KEYS,
    Settings,
    autoscaler_release_problems,
    contract_problems,
    parse_settings,
    server_pool_problems,
)
from .vllm import (
    SYSTEM_NAMESPACES,
    VLLM_MANAGED_FLAGS,
    VLLM_SECRET_FLAGS,
    ModelCacheSettings,
    VllmSettings,
)

__all__ = [
    "DEFAULT_LOG_TYPES",
    "MAX_AZ_COUNT",
    "MAX_GP3_DISK_GIB",
    "MAX_VPC_PREFIX",
    "MIN_GPU_DISK_GIB",
    "MIN_SYSTEM_DISK_GIB",
    "MIN_VPC_PREFIX",
    "PROJECT",
    "SECRET_KEYS",
    "SECTIONS",
    "SYSTEM_NAMESPACES",
    "TOP_LEVEL_KEYS",
    "VLLM_MANAGED_FLAGS",
    "VLLM_SECRET_FLAGS",
    "AutoscalerSettings",
    "ClusterSettings",
    "ConfigError",
    "ConfigProblem",
    "DcgmExporterSettings",
    "DevicePluginSettings",
    "GpuNodeGroupSettings",
    "GpuPlacementSettings",
    "ModelCacheSettings",
    "NetworkSettings",
    "ObservabilitySettings",
    "SectionModel",
    "Settings",
    "SystemNodeGroupSettings",
    "TaintSettings",
    "VllmSettings",
    "Where",
    "_bad",
    "_known_keys",
    "_suggestion",
    "arguments",
    "check_kubernetes_taint_effect",
    "check_label_key",
    "check_label_value",
    "check_labels",
    "check_namespace_name",
    "check_node_label_key",
    "check_node_labels",
    "config_from_pulumi",
    "autoscaler_release_problems",
    "contract_problems",
    "parse_settings",
    "server_pool_problems",
    "parse_stack_config",
    "stack_config",
    "validate_section",
]
