"""What the component package hosts: its components, its name and version, and the schema Pulumi infers.

The schema is not written by hand. Pulumi's analyzer (`pulumi.provider.experimental.analyzer`) reads the
type annotations of each component's `args` class and of the component's outputs; `ComponentProvider`
turns them into a package schema (`pulumi.provider.experimental.component`, `generate_schema`). The
plugin serves that schema to `pulumi package add`, which generates the consumer's SDK from it, and
`plugin/schema.json` holds a copy that reviewers and the tests read (scripts/generate.py).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
SCHEMA_FILE = Path(__file__).resolve().parent / "schema.json"
UPDATE_COMMAND = "python scripts/generate.py"
"""The command that rewrites `SCHEMA_FILE` (from the repository root)."""


def package_metadata(pyproject: Path = PYPROJECT) -> tuple[str, str]:
    """The package's name and version: `[project] name` and `version` of pyproject.toml.

    One name for the Python distribution, the Pulumi package and the type tokens
    (`eks-gpu-inference:index:GpuNodeGroup`), one version for all of them.
    """
    with pyproject.open("rb") as file:
        project = tomllib.load(file)["project"]
    return project["name"], project["version"]


def components() -> list[type]:
    """The components the package hosts, in the order the schema lists them: every component of the
    `components` package but the parts of others (`INTERNAL`).

    Imported here, not at module level, so that reading the name and version does not load the SDKs.
    """
    from components.autoscaling.cluster_autoscaler import ClusterAutoscaler
    from components.autoscaling.keda import Keda
    from components.cluster.cluster import EksCluster
    from components.cluster.network import Network
    from components.gpu_agents.dcgm_exporter import DcgmExporter
    from components.gpu_agents.device_plugin import NvidiaDevicePlugin
    from components.observability.monitoring import PrometheusMonitors
    from components.observability.prometheus_stack import PrometheusStack
    from components.pools.auto_mode.nodes import AutoMode
    from components.pools.auto_mode.pool import AutoModeNodePool
    from components.pools.gpu_node_group import GpuNodeGroup
    from components.pools.karpenter.controller import Karpenter
    from components.pools.karpenter.pool import KarpenterNodePool
    from components.vllm.server import VllmServer

    return [
        Network,
        EksCluster,
        GpuNodeGroup,
        Karpenter,
        KarpenterNodePool,
        AutoMode,
        AutoModeNodePool,
        NvidiaDevicePlugin,
        VllmServer,
        DcgmExporter,
        ClusterAutoscaler,
        PrometheusMonitors,
        Keda,
        PrometheusStack,
    ]


INTERNAL = ("NodeRole", "ServingQueue")
"""Components that are parts of others (the node IAM role of `EksCluster`, the request queue of `VllmServer`), not
meant to be built alone in another language."""


class SchemaError(Exception):
    """The analyzer cannot map a component's args or outputs to the schema; the message names each one."""


def provider(hosted: list[type] | None = None) -> Any:
    """The Pulumi provider that constructs the components (default: all of `components()`).

    The analyzer runs here. Its own errors do not say which component it was reading, so on a failure
    each component is analysed alone and `SchemaError` lists every one that fails.
    """
    from pulumi.provider.experimental.component import ComponentProvider

    hosted = components() if hosted is None else hosted
    name, version = package_metadata()
    try:
        return ComponentProvider(hosted, name, version=version)
    except Exception as error:  # re-raised below with the component named
        problems = analysis_problems(hosted, name) or [f"{type(error).__name__}: {error}"]
        raise SchemaError(
            "Pulumi's analyzer cannot build the package schema: "
            + "; ".join(problems)
            + " (args and outputs must be annotated with types it reads: pulumi.Input/Output of str, int, "
            "float, bool, lists, dicts with str keys, enums and classes of such fields, evaluated at runtime)"
        ) from error


def analysis_problems(hosted: list[type], name: str) -> list[str]:
    """`Component: error` for each component the analyzer fails on when it reads it alone."""
    from pulumi.provider.experimental.analyzer import Analyzer

    problems = []
    for component in hosted:
        try:
            Analyzer(name).analyze([component])
        except Exception as error:  # collected: every failing component is reported
            problems.append(f"{component.__name__}: {type(error).__name__}: {error}")
    return problems


def schema() -> dict[str, Any]:
    """The package schema, as the plugin serves it."""
    return json.loads(provider().schema)


def schema_text(document: dict[str, Any]) -> str:
    """The committed form of a schema: indented, keys in the analyzer's order, a final newline."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def serve() -> None:
    """Run the plugin: `component_provider_host` starts a gRPC provider server for the engine whose address
    is the first command-line argument, with the same components, name and version as `provider`."""
    from pulumi.provider.experimental import component_provider_host

    name, version = package_metadata()
    component_provider_host(components(), name, version=version)
