"""How the placement guard recognises the GPU DaemonSets the stack installs, and the labels that mark them.

The components label their DaemonSets with these values (`app.kubernetes.io/component`, one of the
Kubernetes recommended labels) and the guard in placement/ looks for them, so both read them here.
A DaemonSet is also recognised by its image, for one installed by other means (a Helm chart, an
operator). Standard library only.
"""

COMPONENT_LABEL_KEY = "app.kubernetes.io/component"
"""The Kubernetes recommended label naming a workload's role (kubernetes.io docs, "Recommended Labels")."""

DEVICE_PLUGIN_IMAGE_MARKER = "k8s-device-plugin"
"""Part of the NVIDIA device plugin's image name (nvcr.io/nvidia/k8s-device-plugin)."""
DEVICE_PLUGIN_LABEL_KEY = COMPONENT_LABEL_KEY
DEVICE_PLUGIN_LABEL_VALUE = "nvidia-device-plugin"
"""The component label of the device plugin DaemonSet (components/gpu_agents/device_plugin.py)."""

DCGM_EXPORTER_IMAGE_MARKER = "dcgm-exporter"
"""Part of the DCGM exporter's image name (nvcr.io/nvidia/k8s/dcgm-exporter)."""
DCGM_EXPORTER_LABEL_KEY = COMPONENT_LABEL_KEY
DCGM_EXPORTER_LABEL_VALUE = "dcgm-exporter"
"""The component label of the DCGM exporter DaemonSet (components/gpu_agents/dcgm_exporter.py)."""

DCGM_REMOTE_ENGINE_ENV = "DCGM_REMOTE_HOSTENGINE_INFO"
"""The variable that points the exporter at a DCGM host engine outside its container instead of embedding one
(dcgm-exporter pkg/cmd/app.go at 4.5.3-4.8.2, flag `--remote-hostengine-info`, `-r`): the component sets it, the
guard reads it."""
