"""What Karpenter's nodes carry, as the placement model and the components both read it.

Well-known labels of Karpenter nodes at the pinned release (`versions.KARPENTER_VERSION`): Karpenter sets
`karpenter.sh/nodepool` and `karpenter.sh/capacity-type` on every node it launches, and
`karpenter.k8s.aws/instance-family` and `karpenter.k8s.aws/instance-gpu-count` from the instance type
(aws/karpenter-provider-aws website/content/en/docs/concepts/scheduling.md, "Well-Known Labels", at 1d927085, the
docs of v1.14.1; pkg/apis/v1/labels.go at v1.14.1).
Standard library only.
"""

from __future__ import annotations

NODE_POOL_LABEL = "karpenter.sh/nodepool"
CAPACITY_TYPE_LABEL = "karpenter.sh/capacity-type"
INSTANCE_FAMILY_LABEL = "karpenter.k8s.aws/instance-family"
INSTANCE_GPU_COUNT_LABEL = "karpenter.k8s.aws/instance-gpu-count"
# Karpenter's `karpenter.sh/capacity-type` values for the EKS capacity types of the pool settings.
CAPACITY_TYPES = {"ON_DEMAND": "on-demand", "SPOT": "spot"}
EKS_CAPACITY_TYPES = {value: key for key, value in CAPACITY_TYPES.items()}
PROVISIONER = "karpenter"
BOTTLEROCKET_ALIAS_PREFIX = "bottlerocket@"
"""How an EC2NodeClass's `amiSelectorTerms` alias names a Bottlerocket release (`bottlerocket@v1.64.0`)."""
"""A pool's provisioner when Karpenter launches its nodes (`nodeGroup` otherwise)."""
