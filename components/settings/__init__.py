"""Stack settings: the typed, validated form of the stack config and of component arguments.

Every key of the config namespace is declared once, with its rule, default and docstring, in the module of its
section (`cluster`, `node_groups`, `gpu_placement`, `vllm`, `device_plugin`, `network`, `autoscaler`,
`observability`, and `cost`, which only the offline plan reads); the components' args classes (each concern's
`args.py`), Pulumi.yaml's config declarations and the configuration reference (docs/reference/configuration.md) are
generated from those declarations (each concern's inputs.py). `stack` holds the
whole-stack model and the checks across sections, `fields` the field types the sections share, `errors` the
problems and how their keys are written, `reader` the Pulumi config reader. `parse_settings` checks the whole
config before any resource exists and raises `ConfigError` listing every problem, each naming the key, the bad
value and what is allowed; `validate_section` does the same for one section given as component arguments.
Only `config_from_pulumi` imports Pulumi (when called), so the offline tools and the tests use the settings
without it.

This package exports what the components, the program and the offline tools import; the rest is imported from
its module.
"""

from ..facts.identity import PROJECT
from .autoscaler import AutoscalerSettings
from .cluster import DEFAULT_LOG_TYPES, ClusterSettings
from .device_plugin import DevicePluginSettings
from .errors import ConfigError, ConfigProblem, arguments
from .fields import check_namespace_name
from .gpu_placement import GpuPlacementSettings
from .network import NetworkSettings
from .node_groups import MIN_GPU_DISK_GIB, MIN_SYSTEM_DISK_GIB, GpuNodeGroupSettings, SystemNodeGroupSettings
from .observability import ObservabilitySettings
from .reader import config_from_pulumi, namespace_warnings, parse_stack_config
from .section import validate_section
from .stack import (
    SECTIONS,
    Settings,
    autoscaler_release_problems,
    contract_problems,
    parse_settings,
    server_pool_problems,
)
from .vllm import VLLM_MANAGED_FLAGS, VllmSettings

__all__ = [
    "DEFAULT_LOG_TYPES",
    "MIN_GPU_DISK_GIB",
    "MIN_SYSTEM_DISK_GIB",
    "PROJECT",
    "SECTIONS",
    "VLLM_MANAGED_FLAGS",
    "AutoscalerSettings",
    "ClusterSettings",
    "ConfigError",
    "ConfigProblem",
    "DevicePluginSettings",
    "GpuNodeGroupSettings",
    "GpuPlacementSettings",
    "NetworkSettings",
    "ObservabilitySettings",
    "Settings",
    "SystemNodeGroupSettings",
    "VllmSettings",
    "arguments",
    "autoscaler_release_problems",
    "check_namespace_name",
    "config_from_pulumi",
    "contract_problems",
    "namespace_warnings",
    "parse_settings",
    "parse_stack_config",
    "server_pool_problems",
    "validate_section",
]
