"""Every pinned version this stack deploys, in one place.

Stack config may override the vLLM image and the device-plugin version; these are the defaults
and the floors the settings validate against.
"""

VLLM_IMAGE_REPOSITORY = "vllm/vllm-openai"
VLLM_VERSION = "v0.32.0"
VLLM_IMAGE = f"{VLLM_IMAGE_REPOSITORY}:{VLLM_VERSION}"
# The vllm/vllm-openai image runs as root by default (its `vllm-openai` stage sets no USER); it also
# creates an optional `vllm` user, UID 2000 and GID 0, with group-0-writable home and caches, for
# running under `--user 2000:0` (vllm-project/vllm docker/Dockerfile at v0.32.0, "Non-root support
# (opt-in)"; vllm-project/vllm#40275). The server pod runs as that user.
VLLM_USER_ID = 2000
VLLM_GROUP_ID = 0
# The first release whose image has that user: docker/Dockerfile of the v0.21.0 release has no
# `useradd --uid 2000`, v0.22.0's has it. Older images would run the pod as a UID without a passwd
# entry or home, so `vllm.image` may not be older. (`--shutdown-timeout`, from v0.18.0, is then always there.)
VLLM_MIN_VERSION = (0, 22, 0)

DEVICE_PLUGIN_IMAGE_REPOSITORY = "nvcr.io/nvidia/k8s-device-plugin"
DEVICE_PLUGIN_VERSION = "v0.20.0"

DEFAULT_KUBERNETES_VERSION = "1.34"
# EKS versions in standard or extended support that this stack is tested against. kubernetes-validate
# bundles schemas for each of them.
SUPPORTED_KUBERNETES_VERSIONS = ("1.32", "1.33", "1.34", "1.35")

# The node monitoring agent backs node auto repair. Pinned because its configuration values and the
# placement facts in components/node_agents.py come from its chart at the matching tag
# (aws/eks-node-monitoring-agent v1.7.0: values.yaml sets the image tag v1.7.0-eksbuild.1).
NODE_MONITORING_AGENT_ADDON = "eks-node-monitoring-agent"
NODE_MONITORING_AGENT_VERSION = "v1.7.0-eksbuild.1"
NODE_MONITORING_AGENT_CHART = "v1.7.0"
