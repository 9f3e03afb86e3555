"""Every pinned version this stack deploys, in one place.

Stack config may override the vLLM image and the device-plugin version; these are the defaults
and the floors the settings validate against.
"""

VLLM_IMAGE_REPOSITORY = "vllm/vllm-openai"
VLLM_VERSION = "v0.32.0"
VLLM_IMAGE = f"{VLLM_IMAGE_REPOSITORY}:{VLLM_VERSION}"
# The image runs as this non-root user; `--shutdown-timeout` exists from v0.18.0.
VLLM_USER_ID = 2000
VLLM_GROUP_ID = 0
VLLM_MIN_VERSION_SHUTDOWN_TIMEOUT = (0, 18, 0)

DEVICE_PLUGIN_IMAGE_REPOSITORY = "nvcr.io/nvidia/k8s-device-plugin"
DEVICE_PLUGIN_VERSION = "v0.20.0"

DEFAULT_KUBERNETES_VERSION = "1.34"
# EKS versions in standard or extended support that this stack is tested against. kubernetes-validate
# bundles schemas for each of them.
SUPPORTED_KUBERNETES_VERSIONS = ("1.32", "1.33", "1.34", "1.35")

# The node monitoring agent backs node auto repair; EKS picks the add-on version matching the
# cluster when none is given, so only the name is pinned here.
NODE_MONITORING_AGENT_ADDON = "eks-node-monitoring-agent"
