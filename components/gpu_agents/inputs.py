"""The inputs of the agents on every GPU node: the NVIDIA device plugin and the DCGM exporter. How a declaration reads: components/args/declare.py."""

from __future__ import annotations

from ..args.declare import Args, Own, Take, _args, _object_name, _placement
from ..settings.device_plugin import DevicePluginSettings
from ..settings.observability import ObservabilitySettings
from ..settings.section import SectionModel

STACK_ONLY: dict[type[SectionModel], tuple[str, ...]] = {
    DevicePluginSettings: ("enabled",),
}
"""Settings fields of this concern no component takes: the stack config alone has them."""

ARGS: tuple[Args, ...] = (
    _args(
        "NvidiaDevicePluginArgs",
        "gpu_agents/args",
        "Inputs of `NvidiaDevicePlugin`. Every field is plain (it shapes the DaemonSet) and checked when the "
        "component is constructed.",
        _placement("The GPU placement contract: the plugin tolerates every repelling taint and selects the label."),
        Take(DevicePluginSettings),
        Own(
            "auto_mode_nodes",
            "bool | None",
            "Some GPU pools are EKS Auto Mode's, whose nodes run the device plugin themselves: the DaemonSet keeps "
            "off them. Default false.",
        ),
        _object_name("DaemonSet, its ServiceAccount and NetworkPolicy"),
        Own(
            "namespace",
            "str | None",
            "Namespace of the plugin; `system-node-critical` pods are admitted there by default. Default "
            "`kube-system`.",
        ),
    ),
    _args(
        "DcgmExporterArgs",
        "gpu_agents/args",
        "Inputs of `DcgmExporter`. Every field is plain (it shapes the DaemonSet and its policy) and checked when "
        "the component is constructed.",
        _placement("The GPU placement contract: the exporter tolerates every repelling taint and selects the label."),
        Take(ObservabilitySettings, only=("monitoring_namespace",)),
        Own(
            "bottlerocket",
            "bool | None",
            "The GPU nodes run Bottlerocket: the container runs privileged (see the module docstring). Default false.",
        ),
        Own(
            "auto_mode_nodes",
            "bool | None",
            "Some GPU pools are EKS Auto Mode's: the exporter keeps off their nodes (see the module docstring). "
            "Default false.",
        ),
        Own(
            "dcgm_host_engine",
            "bool | None",
            "The EKS node monitoring agent runs (`EksCluster`'s `node_monitoring_agent`), and with it DCGM's host "
            "engine `dcgm-server` on the GPU nodes it supports: there the exporter connects to that engine rather "
            "than embedding a second one, and a second DaemonSet embeds one on the other GPU nodes (see the module "
            "docstring). Pass true beside an `EksCluster` that installs the agent (its default); the plan's verdict "
            "`dcgm-exporter-covers-gpu-pools` fails on a mismatch. Default false.",
        ),
        Own(
            "pod_annotations",
            "dict[str, str] | None",
            "Annotations of the exporter pods, such as `prometheus.io/scrape`. Default none.",
        ),
        _object_name("DaemonSet, its Service, ServiceAccount and NetworkPolicy"),
        Own(
            "namespace",
            "str | None",
            "Namespace of the DaemonSet, Service and NetworkPolicy. Default `kube-system`, beside the device plugin.",
        ),
    ),
)
"""This concern's args classes, nested ones before the classes that use them (the generated module evaluates
annotations when a class is defined)."""
