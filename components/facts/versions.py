"""Every pinned version this stack deploys, in one place.

Stack config may override the vLLM image and the device-plugin version; these are the defaults
and the floors the settings validate against.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

VLLM_IMAGE_REPOSITORY = "vllm/vllm-openai"
VLLM_VERSION = "v0.32.0"
VLLM_IMAGE = f"{VLLM_IMAGE_REPOSITORY}:{VLLM_VERSION}"
# The image the weights copy Job runs (and the server's init container, which waits for its marker): the vLLM
# image carries both libraries the copy needs. huggingface_hub is a requirement of vLLM itself; boto3 comes with
# the `runai` extra the image installs for the S3 streamer: vllm-project/vllm docker/Dockerfile (the
# `vllm-openai-base` stage installs `boto3 runai-model-streamer runai-model-streamer[s3]`; snapshot 0000977e,
# the v0.32.0 tag's own Dockerfile was not readable here), and runai-model-streamer-s3 0.15.7's wheel metadata
# on PyPI (`Requires-Dist: boto3`), read 2026-12-02. The same pinned image means no packages fetched at start.
WEIGHTS_COPY_IMAGE = VLLM_IMAGE
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


@dataclass(frozen=True)
class EksVersion:
    """One Kubernetes minor version on EKS and the dates of its support.

    EKS gives each minor version 14 months of standard support from its release, then 12 months of
    extended support billed at a higher per-cluster-hour rate; after that clusters are upgraded
    automatically (EKS user guide, "Understand the Kubernetes version lifecycle on EKS").
    """

    version: str
    released: date
    end_of_standard_support: date
    end_of_extended_support: date
    source: str


# Dates from the EKS Kubernetes release calendar (EKS user guide, kubernetes-versions page; mirrored by
# endoflife.date/amazon-eks). 1.36 is not in that calendar yet: its release is the first EKS-optimized
# AL2023 NVIDIA AMI for 1.36 (awslabs/amazon-eks-ami CHANGELOG, AMI release v20260610), and its end
# dates follow the 14 + 12 month rule above, to the month. Versions whose extended support has ended
# (1.31 on 2026-11-26) are not offered. Every version here has schemas in kubernetes-validate.
EKS_VERSIONS = (
    EksVersion("1.32", date(2025, 1, 25), date(2026, 3, 23), date(2027, 3, 23), "EKS release calendar"),
    EksVersion("1.33", date(2025, 5, 28), date(2026, 7, 29), date(2027, 7, 29), "EKS release calendar"),
    EksVersion("1.34", date(2025, 10, 6), date(2026, 12, 2), date(2027, 12, 2), "EKS release calendar"),
    EksVersion("1.35", date(2026, 1, 28), date(2027, 3, 27), date(2028, 3, 27), "EKS release calendar"),
    EksVersion(
        "1.36",
        date(2026, 6, 10),
        date(2027, 8, 10),
        date(2028, 8, 10),
        "amazon-eks-ami v20260610 (first 1.36 AMIs); end dates by the 14 + 12 month rule",
    ),
)
# The day the table above was last checked against the EKS release calendar.
EKS_VERSIONS_AS_OF = date(2026, 12, 1)
EKS_VERSION_BY_NAME = {entry.version: entry for entry in EKS_VERSIONS}
SUPPORTED_KUBERNETES_VERSIONS = tuple(entry.version for entry in EKS_VERSIONS)
# The newest version in standard support; settings warn when a chosen version is in extended support
# or leaves standard support within this many days.
DEFAULT_KUBERNETES_VERSION = "1.36"
STANDARD_SUPPORT_WARNING_DAYS = 60


def today() -> date:
    """The date support is judged on (a function, so tests can move the calendar)."""
    return date.today()


def support_ended(version: str, on: date) -> bool:
    """Whether EKS no longer offers `version` at all on `on` (past extended support)."""
    return on > EKS_VERSION_BY_NAME[version].end_of_extended_support


def support_warning(version: str, today: date) -> str | None:
    """Why `version` costs more or soon will on EKS as of `today`, or None when it is in standard support."""
    entry = EKS_VERSION_BY_NAME[version]
    if today > entry.end_of_standard_support:
        return (
            f"Kubernetes {version} is in EKS extended support since {entry.end_of_standard_support} (until "
            f"{entry.end_of_extended_support}): the control plane is billed at the extended-support rate "
            f"per cluster hour; {DEFAULT_KUBERNETES_VERSION} is in standard support"
        )
    days_left = (entry.end_of_standard_support - today).days
    if days_left <= STANDARD_SUPPORT_WARNING_DAYS:
        return (
            f"Kubernetes {version} leaves EKS standard support on {entry.end_of_standard_support} (in "
            f"{days_left} days); after that the control plane is billed at the extended-support rate; "
            "plan the upgrade"
        )
    return None


# The node monitoring agent backs node auto repair. Pinned because its configuration values and the
# placement facts in facts/node_agents.py come from its chart at the matching tag
# (aws/eks-node-monitoring-agent v1.7.0: values.yaml sets the image tag v1.7.0-eksbuild.1).
NODE_MONITORING_AGENT_ADDON = "eks-node-monitoring-agent"
NODE_MONITORING_AGENT_VERSION = "v1.7.0-eksbuild.1"
NODE_MONITORING_AGENT_CHART = "v1.7.0"


# Cluster Autoscaler releases track Kubernetes minors; run the newest patch of the cluster's minor
# (kubernetes/autoscaler README, "Releases"). Tags `cluster-autoscaler-<version>` in kubernetes/autoscaler,
# newest patch per minor as of 2026-08-22; images at registry.k8s.io/autoscaling/cluster-autoscaler.
CLUSTER_AUTOSCALER_IMAGE_REPOSITORY = "registry.k8s.io/autoscaling/cluster-autoscaler"
CLUSTER_AUTOSCALER_VERSIONS = {
    "1.32": "v1.32.7",
    "1.33": "v1.33.6",
    "1.34": "v1.34.5",
    "1.35": "v1.35.2",
    "1.36": "v1.36.1",
}

# EKS Pod Identity gives pods AWS credentials; the agent add-on must run on the nodes where they run.
POD_IDENTITY_AGENT_ADDON = "eks-pod-identity-agent"
COREDNS_ADDON = "coredns"
KUBE_PROXY_ADDON = "kube-proxy"
VPC_CNI_ADDON = "vpc-cni"


@dataclass(frozen=True)
class AddonPin:
    """The version of one EKS add-on the stack installs when EKS cannot be asked (offline), per Kubernetes minor.

    At preview the stack asks EKS for the add-on's newest version for the cluster's Kubernetes version
    (DescribeAddonVersions, through `aws.eks.get_addon_version`); these pins are the answer the EKS user guide
    published for that question, used when there is nobody to ask. A Kubernetes version without a pin leaves the
    choice to EKS (CreateAddon without `addonVersion` installs the add-on's default version).
    """

    addon: str
    versions: dict[str, str]
    """Add-on version by Kubernetes minor (`"1.36"`)."""
    source: str
    as_of: date
    """The day the source was read."""


# The tables of the EKS user guide's pages "Manage CoreDNS for DNS in Amazon EKS clusters"
# (https://docs.aws.amazon.com/eks/latest/userguide/managing-coredns.html#coredns-versions) and "Manage kube-proxy
# in Amazon EKS clusters" (https://docs.aws.amazon.com/eks/latest/userguide/managing-kube-proxy.html
# #kube-proxy-versions), "the latest version of the Amazon EKS add-on type for each Kubernetes version". The
# newest edition read, the one listing 1.36, was the Japanese one of each page (its Markdown, ja_jp/.../*.md).
# The VPC CNI's page (https://docs.aws.amazon.com/eks/latest/userguide/managing-vpc-cni.html
# #vpc-cni-latest-available-version) lists one version for every Kubernetes version; the newest edition read
# ends at 1.33, so 1.34 and later have no pin. No EKS page lists the pod identity agent's versions per
# Kubernetes version ("Set up the Amazon EKS Pod Identity Agent", pod-id-agent-setup.html, names none): EKS picks.
_PINS = (
    AddonPin(
        COREDNS_ADDON,
        {
            "1.32": "v1.11.4-eksbuild.40",
            "1.33": "v1.12.4-eksbuild.18",
            "1.34": "v1.13.2-eksbuild.11",
            "1.35": "v1.14.3-eksbuild.3",
            "1.36": "v1.14.3-eksbuild.3",
        },
        "EKS user guide, managing-coredns (CoreDNS versions)",
        date(2026, 12, 1),
    ),
    AddonPin(
        KUBE_PROXY_ADDON,
        {
            "1.32": "v1.32.13-eksbuild.16",
            "1.33": "v1.33.10-eksbuild.13",
            "1.34": "v1.34.6-eksbuild.13",
            "1.35": "v1.35.3-eksbuild.13",
            "1.36": "v1.36.0-eksbuild.14",
        },
        "EKS user guide, managing-kube-proxy (kube-proxy versions)",
        date(2026, 12, 1),
    ),
    AddonPin(
        VPC_CNI_ADDON,
        {"1.32": "v1.20.1-eksbuild.3", "1.33": "v1.20.1-eksbuild.3"},
        "EKS user guide, managing-vpc-cni (Amazon VPC CNI versions)",
        date(2026, 12, 1),
    ),
    AddonPin(
        POD_IDENTITY_AGENT_ADDON,
        {},
        "no per-version table published (EKS user guide, pod-id-agent-setup)",
        date(2026, 12, 1),
    ),
    AddonPin(
        NODE_MONITORING_AGENT_ADDON,
        {version.version: NODE_MONITORING_AGENT_VERSION for version in EKS_VERSIONS},
        f"the version whose configuration schema is committed (chart {NODE_MONITORING_AGENT_CHART})",
        date(2026, 12, 1),
    ),
)
ADDON_PINS = {pin.addon: pin for pin in _PINS}
"""The pins by add-on name."""

# Add-ons whose configuration values are written against a committed configuration schema: EKS must offer
# exactly the version of that schema, or the values may not mean what they meant (components/data/README.md).
SCHEMA_VERSIONS = {NODE_MONITORING_AGENT_ADDON: NODE_MONITORING_AGENT_VERSION}


def pinned_addon_version(addon: str, kubernetes_version: str) -> str | None:
    """The pinned version of `addon` for `kubernetes_version`, or None when the stack leaves it to EKS."""
    pin = ADDON_PINS.get(addon)
    return pin.versions.get(kubernetes_version) if pin else None


# NVIDIA dcgm-exporter, tag `<DCGM version>-<exporter version>-<image variant>` (NVIDIA/dcgm-exporter RELEASE.md).
# 4.5.3-4.8.2 is the newest release (NVIDIA/dcgm-exporter tag 4.5.3-4.8.2, 2026-05-06; its own
# dcgm-exporter.yaml and Helm chart deploy the `-distroless` variant). It matches the driver generation of
# the EKS accelerated AMIs: the image is built on the CUDA 13.2.1 base (docker/Dockerfile at the tag), and
# CUDA 13 needs the R580 driver branch or later (CUDA Toolkit 13.0 release notes, "CUDA Toolkit and
# Corresponding Driver Versions"); the AL2023 NVIDIA AMIs ship driver 580.159.03
# (awslabs/amazon-eks-ami CHANGELOG, AMI release v20260714, `kmod-nvidia-latest-dkms`), and from v20260917 a 580
# and a 595 tree, one chosen per instance at boot (facts/nvidia_driver.py): R580 or later either way. DCGM itself runs
# on R450 and later drivers (DCGM user guide, "Supported Platforms"), which covers Bottlerocket's too.
DCGM_EXPORTER_IMAGE_REPOSITORY = "nvcr.io/nvidia/k8s/dcgm-exporter"
DCGM_EXPORTER_VERSION = "4.5.3-4.8.2"
DCGM_EXPORTER_IMAGE = f"{DCGM_EXPORTER_IMAGE_REPOSITORY}:{DCGM_EXPORTER_VERSION}-distroless"


# Karpenter, installed from its OCI Helm chart (chart and controller share the version). 1.14.1 is the newest release
# (aws/karpenter-provider-aws tag v1.14.1; `docs: update for patch release v1.14.1`, 1d927085, sets the docs'
# KARPENTER_VERSION and charts/karpenter/Chart.yaml to it). Its compatibility matrix gives 1.14.x Kubernetes 1.26 to
# 1.36 (hack/docs/compatibilitymatrix_gen/compatibility.yaml at v1.14.1), which holds every version above.
KARPENTER_VERSION = "1.14.1"
KARPENTER_CHART = "oci://public.ecr.aws/karpenter/karpenter"
# Karpenter's CRDs as a chart of their own, published from the release commit at the controller's version
# (hack/release/common.sh at v1.14.1, publishHelmChart "karpenter-crd"); its templates are pkg/apis/crds at the tag,
# the CRDs the plan checks against. They are templates, which `helm upgrade` upgrades, while the main chart's `crds/`
# Helm installs only on the first install (website/content/en/v1.14/upgrading/upgrade-guide.md at 1d927085, "CRD
# Upgrades", read 2026-12-02), so the docs recommend this chart for the CRDs' lifecycle.
KARPENTER_CRD_CHART = "oci://public.ecr.aws/karpenter/karpenter-crd"
KARPENTER_KUBERNETES_VERSIONS = ("1.26", "1.36")
"""The oldest and newest Kubernetes minor the pinned Karpenter release supports."""
# The EKS-optimized AL2023 AMI release Karpenter pools boot, as an EC2NodeClass alias (`al2023@<release>`).
# v20260917 is the first release whose driver brings up every GPU of the catalog: it bakes a 580 and a 595 driver
# tree and picks one per instance type at first boot, so g7's RTX PRO 4500, which the 580 open module's device list
# of v20260714 lacks, gets 595 (awslabs/amazon-eks-ami#2768 and #2819; facts/nvidia_driver.py, whose test fails when
# a catalog GPU lacks a driver in this release). Karpenter resolves the alias to the standard, NVIDIA and Neuron variants and gives each instance type the one its
# hardware needs (pkg/providers/amifamily/al2023.go at v1.14.1, DescribeImageQuery).
KARPENTER_AL2023_AMI_RELEASE = "v20260917"
# The Bottlerocket release Karpenter pools of `amiFamily: Bottlerocket` boot, as an EC2NodeClass alias
# (`bottlerocket@<release>`). v1.61.0 (2026-05-18) added the `aws-k8s-1.36-nvidia` variants
# (bottlerocket-os/bottlerocket#4841, its CHANGELOG) and v1.30 variants went on 2026-07-23 (#4879), so a release
# after both has NVIDIA variants of every Kubernetes version above; v1.64.0 was released on 2026-08-05
# (bottlerocket-os/bottlerocket#4895, "Bottlerocket 1.64.0 has been released"; read 2026-12-02). Karpenter reads
# `/aws/service/bottlerocket/aws-k8s-<version>-nvidia/<arch>/<release>/image_id` for the NVIDIA variant and gives
# it to instance types with GPUs (`karpenter.k8s.aws/instance-gpu-count` exists: pkg/providers/amifamily/
# bottlerocket.go and types.go at v1.14.1, `DescribeImageQuery`, `VariantNvidia`).
KARPENTER_BOTTLEROCKET_RELEASE = "v1.64.0"
# The Kubernetes minors each pinned alias release has NVIDIA AMIs for: a cluster of another version finds no AMI
# under the alias, and Karpenter launches no GPU node. AL2023 v20260714: the `amazon-eks-node-al2023-{x86_64,arm64}-
# nvidia-<version>-v20260714` images of 1.30 to 1.36 (awslabs/amazon-eks-ami CHANGELOG.md at 81fec2e8, "AMI Release
# v20260714"). Bottlerocket v1.64.0 (2026-08-05): `aws-k8s-1.36-nvidia` came in v1.61.0 (bottlerocket-os/bottlerocket
# #4841), `aws-k8s-1.30*` went with #4880 (merged 2026-07-10, for EKS's end of 1.30 on 2026-07-23, #4879) and
# `aws-k8s-1.29*` in v1.58.0 (#4797); no removal of 1.31 is recorded before v1.64.0 (read 2026-12-04).
KARPENTER_ALIAS_KUBERNETES_VERSIONS: dict[tuple[str, str], tuple[str, ...]] = {
    ("AL2023", KARPENTER_AL2023_AMI_RELEASE): ("1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36"),
    ("Bottlerocket", KARPENTER_BOTTLEROCKET_RELEASE): ("1.31", "1.32", "1.33", "1.34", "1.35", "1.36"),
}
"""The Kubernetes minors with an NVIDIA AMI in each (AMI family, pinned alias release) Karpenter pools boot."""

# KEDA, which scales the vLLM servers on their queue, from its official chart (kedacore/charts, tag v2.20.2,
# keda/Chart.yaml: version and appVersion 2.20.2, `kubeVersion: ">=v1.23.0-0"`, so Helm installs it on every
# version above). KEDA tests each release on three Kubernetes minors (keda.sh/docs/2.22/operate/cluster/,
# "Kubernetes Compatibility": v2.20 on v1.33 - v1.35); the newest release stored with its source is 2.20.2
# (kedacore/keda tag v2.20.2, 68a5b5028f35b22d50597c69819ab32c4e92f21a), whose ScaledObject schema is
# stackcheck/plan/crds/keda.sh_v1alpha1_scaledobject.json.
KEDA_CHART = "keda"
KEDA_CHART_REPOSITORY = "https://kedacore.github.io/charts"
KEDA_VERSION = "2.20.2"
KEDA_TESTED_KUBERNETES = ("1.33", "1.35")
"""The oldest and newest Kubernetes minor KEDA's release is tested on; outside them the stack warns."""

# kube-prometheus-stack, installed when `observability.prometheus.install` is true, from its official chart
# (prometheus-community/helm-charts tag kube-prometheus-stack-88.5.3, ea930baeebeba39f56d6b44e351f23b2a072a600, the
# newest tag of the chart stored with its source, read 2026-12-02). charts/kube-prometheus-stack/Chart.yaml at the tag:
# appVersion v0.93.1 (the Prometheus operator), `kubeVersion: ">=1.25.0-0"` (every version above), and the
# subcharts kube-state-metrics 8.4.0 (appVersion 2.20.0, charts/kube-state-metrics/Chart.yaml at tag
# kube-state-metrics-8.4.0) and prometheus-node-exporter 4.56.1. Its defaults are
# stackcheck/plan/charts/kube-prometheus-stack-88.5.3.json.
KUBE_PROMETHEUS_STACK_CHART = "kube-prometheus-stack"
KUBE_PROMETHEUS_STACK_CHART_REPOSITORY = "https://prometheus-community.github.io/helm-charts"
KUBE_PROMETHEUS_STACK_VERSION = "88.5.3"
KUBE_STATE_METRICS_VERSION = "2.20.0"
"""The kube-state-metrics release the pinned kube-prometheus-stack installs, whose metrics the dashboard reads."""
