"""Settings of the NVIDIA device plugin DaemonSet (`devicePlugin`), components/gpu_agents/device_plugin.py."""

from __future__ import annotations

from typing import Annotated

from ..facts import versions
from .fields import release_tag
from .section import SectionModel


class DevicePluginSettings(SectionModel):
    """The NVIDIA device plugin DaemonSet (`devicePlugin`)."""

    enabled: bool | None = None
    """Deploy the plugin. Default: true, unless the GPU node group runs Bottlerocket, whose AMI runs it."""
    version: Annotated[str, release_tag(versions.DEVICE_PLUGIN_VERSION)] = versions.DEVICE_PLUGIN_VERSION
    """Image tag of nvcr.io/nvidia/k8s-device-plugin, a release `vX.Y.Z`."""
