"""How the vLLM image can already be, or arrive faster, on a GPU node: the image cache modes and what each needs.

Standard library only: the settings, the node group and Karpenter builders, and the cold-start budget read it. Read
on 2026-12-02 from the sources named next to each fact.

- `none`: the kubelet pulls the image through containerd's default snapshotter.
- `soci`: SOCI parallel pull on AL2023 nodes. nodeadm's `NodeConfig` has the feature gate `FastImagePull`
  (awslabs/amazon-eks-ami nodeadm/api/v1alpha1/nodeconfig_types.go at v20260714, `Feature`; renamed to it in
  #2381, first released in AMI release v20250821). With it nodeadm writes the SOCI snapshotter's parallel pull
  configuration and points containerd and the kubelet at the snapshotter (nodeadm/internal/containerd/config.go,
  `UseSOCISnapshotter`; nodeadm/internal/kubelet/config.go). The snapshotter is installed on every AL2023 AMI,
  the NVIDIA variant included: templates/al2023/provisioners/install-worker.sh, which every AL2023 build runs
  (templates/al2023/template.json), installs and enables `soci-snapshotter`.
- `snapshot`: Bottlerocket's data volume (the second device, which holds containerd's images and the kubelet's
  files) restored from an EBS snapshot in which the vLLM image is already pulled.
"""

from __future__ import annotations

import math
import re
from types import MappingProxyType

MODES = ("none", "soci", "snapshot")
"""The values of `imageCache`."""

FAMILIES = MappingProxyType({"none": ("AL2023", "Bottlerocket"), "soci": ("AL2023",), "snapshot": ("Bottlerocket",)})
"""The AMI families each mode works on: `soci` is nodeadm's (AL2023's bootstrap); `snapshot` restores Bottlerocket's
data volume, which AL2023 does not have (its images live on the root volume with the OS)."""

SOCI_FEATURE_GATE = "FastImagePull"
"""nodeadm's feature gate for SOCI parallel pull (`NodeConfig.spec.featureGates`)."""
NODECONFIG_CONTENT_TYPE = "application/node.eks.aws"
"""The MIME type of a `NodeConfig` part in AL2023 user data (amazon-eks-ami nodeadm/doc/examples.md)."""

# nodeadm ignores the gate below these: `UseSOCISnapshotter` needs at least 4000 millicores and 7 GiB of memory as
# the kernel reports it ("an instance will have less available RAM shown in the kernel than its specs", ibid.).
SOCI_MIN_VCPUS = 4
SOCI_MIN_ONLINE_MEMORY_GIB = 7
SOCI_MIN_MEMORY_GIB = 8
"""The smallest instance memory (its specification) checked against: the kernel sees less than the specification,
so an instance of exactly 7 GiB falls below nodeadm's threshold."""

# nodeadm/doc/examples.md at v20260714, "Enabling fast image pull (experimental)": "Ensure you've configured
# additional EBS throughput for your instance root volume. We recommend at least 600MiB/s throughput. Below that
# value, you may see longer image pull times with this flag."
SOCI_ROOT_THROUGHPUT_MIBPS = 600
GP3_BASELINE_IOPS = 3000
"""gp3's included IOPS; 600 MiB/s needs 2400 at gp3's 0.25 MiB/s per IOPS, so the baseline suffices."""
GP3_INCLUDED_THROUGHPUT_MIBPS = 125
GP3_MAX_THROUGHPUT_MIBPS = 1000
"""gp3's included and highest throughput, MiB/s (EBS user guide, General Purpose SSD volumes)."""
GP3_MIBPS_PER_IOPS = 0.25
"""gp3's most throughput per provisioned IOPS (the EC2 API refuses more: stackcheck/aws's block-device rule)."""


def gp3_iops(throughput_mibps: int) -> int:
    """The IOPS a gp3 volume of `throughput_mibps` provisions: the included 3,000, or a quarter MiB/s each above."""
    return max(GP3_BASELINE_IOPS, math.ceil(throughput_mibps / GP3_MIBPS_PER_IOPS))


# Bottlerocket's volumes: "/dev/xvda" holds the OS, "/dev/xvdb" the data (images, containers, kubelet). Karpenter's
# Bottlerocket family gives these defaults, the OS volume 4Gi (aws/karpenter-provider-aws
# pkg/providers/amifamily/bottlerocket.go at v1.14.1, `DefaultBlockDeviceMappings`, `EphemeralBlockDevice`).
BOTTLEROCKET_OS_DEVICE = "/dev/xvda"
BOTTLEROCKET_DATA_DEVICE = "/dev/xvdb"
BOTTLEROCKET_OS_VOLUME_GIB = 4
ROOT_DEVICES = {"AL2023": BOTTLEROCKET_OS_DEVICE, "Bottlerocket": BOTTLEROCKET_DATA_DEVICE}
"""The volume each AMI family keeps images, containers and the kubelet on, which a launch template or an
EC2NodeClass sizes as the node's disk: AL2023's root `/dev/xvda` (the same device name as Bottlerocket's OS
volume), Bottlerocket's data volume."""

# EBS snapshot ids: `snap-` and 8 hexadecimal digits (the older form) or 17 (EC2 User Guide, "Resource IDs": "the
# IDs of ... snapshots ... use a longer format", 17 characters after the prefix). botocore's EC2 model types
# `SnapshotId` as a plain string (data/ec2/2016-11-15/service-2.json, botocore 1.44.8).
SNAPSHOT_ID = re.compile(r"snap-(?:[0-9a-f]{8}|[0-9a-f]{17})")
SNAPSHOT_ID_RULE = "an EBS snapshot id: 'snap-' and 8 or 17 lowercase hexadecimal digits"


def is_snapshot_id(value: str) -> bool:
    """Whether `value` is an EBS snapshot id."""
    return SNAPSHOT_ID.fullmatch(value) is not None


def supports(mode: str, ami_family: str) -> bool:
    """Whether nodes of `ami_family` can use the image cache `mode`."""
    return ami_family in FAMILIES.get(mode, ())


def nodeconfig_user_data(boundary: str = "//") -> str:
    """AL2023 user data that turns on SOCI parallel pull: one MIME part, a `NodeConfig` with the feature gate.

    A managed node group on an EKS AMI gets EKS's own `NodeConfig` (the cluster's name, endpoint and CA) appended to
    its user data ("For EKS-managed nodes based on native AMIs, the default NodeConfig is being added by EKS MNG under
    the hood, appended directly to the EC2's userdata": eksctl user guide, docs.aws.amazon.com/eks/latest/eksctl/
    node-bootstrapping.md, read 2026-12-02), and Karpenter appends its part to an EC2NodeClass's (aws/karpenter-
    provider-aws pkg/providers/amifamily/bootstrap/nodeadm.go at v1.14.1, `parseUserData`; website docs/concepts/
    nodeclasses.md, "Karpenter will merge the userData you specify"), so this part names only the gate.
    """
    return (
        "MIME-Version: 1.0\n"
        f'Content-Type: multipart/mixed; boundary="{boundary}"\n'
        "\n"
        f"--{boundary}\n"
        f"Content-Type: {NODECONFIG_CONTENT_TYPE}\n"
        "\n"
        "apiVersion: node.eks.aws/v1alpha1\n"
        "kind: NodeConfig\n"
        "spec:\n"
        "  featureGates:\n"
        f"    {SOCI_FEATURE_GATE}: true\n"
        "\n"
        f"--{boundary}--\n"
    )
