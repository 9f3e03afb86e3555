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
"""A pool's provisioner when Karpenter launches its nodes (`nodeGroup` otherwise)."""
BOTTLEROCKET_ALIAS_PREFIX = "bottlerocket@"
"""How an EC2NodeClass's `amiSelectorTerms` alias names a Bottlerocket release (`bottlerocket@v1.64.0`)."""
DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt"
"""Pod annotation: a Go duration keeps the pod's node from Karpenter's graceful disruption for that long after the
pod's `status.startTime`, `"true"` for ever (kubernetes-sigs/karpenter pkg/utils/pod/scheduling.go at v1.14.1,
`IsDoNotDisruptActive`: `podAge := clk.Now().Sub(pod.Status.StartTime.Time)`). The kubelet sets the start time when
it acknowledges the pod, "before the Kubelet pulled the container image(s)" (k8s.io/api core/v1 PodStatus.startTime),
so the image pull and the init containers spend the window too. It does not hold the forceful methods: expiry,
interruption, node repair (website/content/en/v1.14/concepts/disruption.md at 1d927085, "Pod-Level Controls")."""
NEVER_EXPIRE = "Never"
"""A NodePool's `expireAfter` that expires no node: expiry is forceful, neither rate-limited by the NodePool's
disruption budgets nor waiting for a replacement node (disruption.md at 1d927085, "Automated Forceful Methods"),
while drift is graceful, budgeted and starts the replacement first ("Automated Graceful Methods")."""
SPOT_SERVICE_LINKED_ROLE = "AWSServiceRoleForEC2Spot"
"""The role EC2 needs in an account before it launches Spot instances for Karpenter: its getting-started guide
creates it in a step of its own (website/content/en/v1.14/getting-started/getting-started-with-karpenter/scripts/
step06-add-spot-role.sh at 1d927085), as without it every Spot launch fails with
`AuthFailure.ServiceLinkedRoleCreationNotPermitted` (website/content/en/v1.14/troubleshooting.md, "Missing Service
Linked Role")."""
SPOT_SERVICE_LINKED_ROLE_COMMAND = "aws iam create-service-linked-role --aws-service-name spot.amazonaws.com"
"""What creates the Spot service-linked role, once per account (the guide's step06-add-spot-role.sh)."""
