"""Every rule of `stackcheck.aws.rules` on a request it refuses: each violation's place, value and whole rule text,
and no other violation. The request tests find a violation by its place; here its value and the reason a user
reads (the limit, the source) are pinned too."""

from __future__ import annotations

import pytest

from components.stackcheck.aws import rules

_TEMPLATE = "(EKS CreateNodegroup documentation in the botocore model)"
_NEXT_TO_TEMPLATE = f"must not be set next to a launch template, or the node group deployment fails {_TEMPLATE}"
_AUTO_TOGETHER = "EKS Auto Mode's compute, block storage and load balancing are enabled together"
_AUTO_ROLE = "EKS takes a node role with built-in node pools, and neither without the other"
_AUTO_ALL = {
    "storageConfig": {"blockStorage": {"enabled": True}},
    "kubernetesNetworkConfig": {"elasticLoadBalancing": {"enabled": True}},
    "bootstrapSelfManagedAddons": False,
}
_TAG = "tag keys starting with 'aws:' (any case) are reserved for AWS (EC2 user guide, tag restrictions)"
_POLICY = "(terraform-provider-aws verify.ValidIAMPolicyJSON)"
_NAMES = "so no pod matches this association (Kubernetes docs, Object Names and IDs)"


def _gp3(**ebs) -> dict:
    return {"Ebs": {"VolumeType": "gp3", **ebs}}


@pytest.mark.parametrize(
    ("rule", "args", "expected"),
    [
        pytest.param(
            rules.nodegroup_name,
            ({"nodegroupName": "-gpu"},),
            [
                (
                    "nodegroupName",
                    "-gpu",
                    "an EKS node group name is 1-63 letters, digits, '-' or '_', starting with a letter or digit; this "
                    "one has 4 characters (EKS node group naming rule, terraform-provider-aws aws_eks_node_group docs)",
                )
            ],
            id="a node group name starting with '-'",
        ),
        pytest.param(
            rules.taint_count,
            ({"taints": [{}] * 51},),
            [
                (
                    "taints",
                    "51 taints",
                    "an EKS node group carries at most 50 taints (aws.eks.NodeGroup docs; terraform-provider-aws "
                    "node_group.go)",
                )
            ],
            id="51 taints",
        ),
        pytest.param(
            rules.node_labels,
            ({"labels": {"kubernetes.io/role": "gpu", "GPU": "true"}},),
            [
                (
                    'labels["kubernetes.io/role"] (key)',
                    "kubernetes.io/role",
                    "the kubelet refuses node labels in the kubernetes.io and k8s.io namespaces except its own "
                    "(node.kubernetes.io/*, kubelet.kubernetes.io/*, kubernetes.io/os, kubernetes.io/arch, "
                    "topology.kubernetes.io/zone, ...), so the nodes never join (kubernetes "
                    "cmd/kubelet/app/options/options.go, IsKubeletLabel)",
                )
            ],
            id="a kubelet-reserved label beside an allowed one",
        ),
        pytest.param(
            rules.nodegroup_with_launch_template,
            ({"launchTemplate": {"id": "lt-1"}, "diskSize": 100, "remoteAccess": {"ec2SshKey": "k"}}, None),
            [("diskSize", 100, _NEXT_TO_TEMPLATE), ("remoteAccess", {"ec2SshKey": "k"}, _NEXT_TO_TEMPLATE)],
            id="disk size and remote access next to a launch template",
        ),
        pytest.param(
            rules.nodegroup_with_launch_template,
            ({"launchTemplate": {"id": "lt-1"}, "amiType": "AL2023_x86_64_NVIDIA"}, {"ImageId": "ami-1"}),
            [
                (
                    "amiType",
                    "AL2023_x86_64_NVIDIA",
                    f"the launch template names an image (ami-1), so amiType must be left out (EKS then reports "
                    f"CUSTOM) {_TEMPLATE}",
                )
            ],
            id="an AMI type next to a template's image",
        ),
        pytest.param(
            rules.nodegroup_with_launch_template,
            ({"launchTemplate": {"id": "lt-1"}}, {"NetworkInterfaces": [{}, {"SubnetId": "subnet-1"}]}),
            [
                (
                    "launchTemplate: LaunchTemplateData.NetworkInterfaces[1].SubnetId",
                    "subnet-1",
                    f"a managed node group's launch template must not name a subnet; give subnets on the node group "
                    f"{_TEMPLATE}",
                )
            ],
            id="a subnet in the template's second interface",
        ),
        pytest.param(
            rules.cluster_subnets,
            ({"resourcesVpcConfig": {"subnetIds": ["subnet-1", "subnet-1"]}},),
            [
                (
                    "resourcesVpcConfig.subnetIds",
                    ["subnet-1", "subnet-1"],
                    "EKS needs at least 2 subnets in different Availability Zones (EKS user guide, network-reqs); "
                    "whether they are in different zones cannot be known offline",
                )
            ],
            id="one subnet given twice",
        ),
        pytest.param(
            rules.auto_mode,
            ({"computeConfig": {"enabled": True}, "storageConfig": {"blockStorage": {"enabled": False}}},),
            [
                ("storageConfig.blockStorage.enabled", False, _AUTO_TOGETHER),
                ("kubernetesNetworkConfig.elasticLoadBalancing.enabled", None, _AUTO_TOGETHER),
                ("bootstrapSelfManagedAddons", None, "a cluster created with EKS Auto Mode must set it false"),
            ],
            id="Auto Mode's compute alone, the add-ons bootstrapped",
        ),
        pytest.param(
            rules.auto_mode,
            ({"computeConfig": {"enabled": True, "nodeRoleArn": "arn:aws:iam::1:role/n"}, **_AUTO_ALL},),
            [("computeConfig.nodeRoleArn", "arn:aws:iam::1:role/n", _AUTO_ROLE)],
            id="Auto Mode's node role without node pools",
        ),
        pytest.param(
            rules.auto_mode,
            ({"computeConfig": {"enabled": True, "nodePools": ["general-purpose"]}, **_AUTO_ALL},),
            [("computeConfig.nodePools", ["general-purpose"], _AUTO_ROLE)],
            id="Auto Mode's node pools without a node role",
        ),
        pytest.param(
            rules.gp3_volume_sizes,
            ({"BlockDeviceMappings": [_gp3(VolumeSize=1), _gp3(VolumeSize=0)]},),
            [
                (
                    "LaunchTemplateData.BlockDeviceMappings[1].Ebs.VolumeSize",
                    0,
                    "a gp3 volume holds 1 to 65536 GiB (64 TiB) (EBS volume types, gp3 limit raised from 16 TiB in "
                    "September 2025)",
                )
            ],
            id="a gp3 volume of 0 GiB after one of 1",
        ),
        pytest.param(
            rules.block_devices,
            ({"BlockDeviceMappings": [{"Ebs": {"SnapshotId": "snap-1", "Encrypted": True}}]},),
            [
                (
                    "LaunchTemplateData.BlockDeviceMappings[0].Ebs.SnapshotId",
                    "snap-1",
                    "an EBS snapshot id: 'snap-' and 8 or 17 lowercase hexadecimal digits",
                ),
                (
                    "LaunchTemplateData.BlockDeviceMappings[0].Ebs.Encrypted",
                    True,
                    "no encryption value next to SnapshotId: a volume from a snapshot is encrypted as its snapshot is",
                ),
            ],
            id="a bad snapshot id with an encryption value",
        ),
        pytest.param(
            rules.block_devices,
            (
                {
                    "BlockDeviceMappings": [
                        _gp3(Throughput=2001),
                        _gp3(Throughput=1000),
                        _gp3(Throughput=1000, Iops=4000),
                        _gp3(Throughput=125),
                    ]
                },
            ),
            [
                (
                    "LaunchTemplateData.BlockDeviceMappings[0].Ebs.Throughput",
                    2001,
                    "gp3 throughput of 125 to 2000 MiB/s",
                ),
                (
                    "LaunchTemplateData.BlockDeviceMappings[1].Ebs.Throughput",
                    1000,
                    "at most 0.25 MiB/s per IOPS: 750 MiB/s at 3000 IOPS",
                ),
            ],
            id="gp3 throughput past its range and past its IOPS, and on both limits",
        ),
        pytest.param(
            rules.reserved_tag_keys,
            (
                {
                    "tags": {"aws:x": "1", "ok": "2"},
                    "TagSpecifications": [{"Tags": [{"Key": "AWS:y", "Value": "1"}]}],
                    "x": [{"Tags": [{"TagKey": "aws:z"}]}],
                },
            ),
            [
                ('tags["aws:x"] (key)', "aws:x", _TAG),
                ("TagSpecifications[0].Tags[0].Key", "AWS:y", _TAG),
                ("x[0].Tags[0].TagKey", "aws:z", _TAG),
            ],
            id="reserved tag keys in a map, in Key items and in TagKey items",
        ),
        pytest.param(
            rules.policy_document,
            ("{",),
            [
                (
                    "PolicyDocument",
                    "{",
                    "is not JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1)) "
                    f"{_POLICY}",
                )
            ],
            id="a policy that is not JSON",
        ),
        pytest.param(
            rules.policy_document,
            ("[]",),
            [("PolicyDocument", "[]", f"a policy document is a JSON object {_POLICY}")],
            id="a policy that is a JSON list",
        ),
        pytest.param(
            rules.role_inline_policies,
            ("gpu-role", [("a", "x" * 6000), ("b", "y " * 5000)]),
            [
                (
                    "PolicyDocument",
                    "11000 characters",
                    "the inline policies of role gpu-role hold 11000 characters without white space (a 6000, b 5000); "
                    "IAM allows 10240 per role (IAM user guide, IAM and AWS STS quotas)",
                )
            ],
            id="two inline policies past the role's quota, white space not counted",
        ),
        pytest.param(
            rules.pod_identity_names,
            ({"namespace": "Bad_NS", "serviceAccount": "a..b"},),
            [
                (
                    "namespace",
                    "Bad_NS",
                    "a Kubernetes namespace name is an RFC 1123 DNS label (at most 63 lowercase letters, digits, '-', "
                    f"starting and ending with a letter or digit), {_NAMES}",
                ),
                (
                    "serviceAccount",
                    "a..b",
                    "a Kubernetes ServiceAccount name is a DNS subdomain name (at most 253 lowercase letters, digits, "
                    f"'-' or ., starting and ending with a letter or digit), {_NAMES}",
                ),
            ],
            id="a namespace and a ServiceAccount no pod can have",
        ),
    ],
)
def test_each_violation_has_its_place_value_and_whole_rule(rule, args, expected):
    assert [(found.path, found.value, found.rule) for found in rule(*args)] == expected


def test_a_violation_describes_its_place_value_and_rule():
    [found] = rules.taint_count({"taints": [{}] * 51})

    assert found.describe() == (
        "taints = '51 taints': an EKS node group carries at most 50 taints (aws.eks.NodeGroup docs; "
        "terraform-provider-aws node_group.go)"
    )


@pytest.mark.parametrize(
    ("rule", "args"),
    [
        pytest.param(rules.nodegroup_name, ({"nodegroupName": "g" + "_-9" * 20 + "ab"},), id="a name of 63"),
        pytest.param(rules.taint_count, ({"taints": [{}] * 50},), id="50 taints"),
        pytest.param(
            rules.cluster_subnets,
            ({"resourcesVpcConfig": {"subnetIds": ["subnet-1", "subnet-2"]}},),
            id="two subnets",
        ),
        pytest.param(
            rules.gp3_volume_sizes,
            ({"BlockDeviceMappings": [_gp3(VolumeSize=1), _gp3(VolumeSize=65536)]},),
            id="gp3 volumes of 1 and 65536 GiB",
        ),
        pytest.param(
            rules.block_devices,
            ({"BlockDeviceMappings": [_gp3(Throughput=2000, Iops=8000), _gp3(Throughput=750)]},),
            id="gp3 throughput of 2000 at 8000 IOPS and 750 at the baseline's 3000",
        ),
        pytest.param(
            rules.role_inline_policies,
            ("gpu-role", [("a", "x" * 6000), ("b", "y " * 4240)]),
            id="inline policies of 10240 characters",
        ),
        pytest.param(
            rules.auto_mode,
            (
                {
                    "computeConfig": {
                        "enabled": True,
                        "nodeRoleArn": "arn:aws:iam::1:role/n",
                        "nodePools": ["general-purpose"],
                    },
                    **_AUTO_ALL,
                },
            ),
            id="Auto Mode enabled whole, with a node role and node pools",
        ),
        pytest.param(
            rules.pod_identity_names,
            ({"namespace": "n" * 63, "serviceAccount": "a.b-c"},),
            id="a namespace of 63 and a dotted ServiceAccount",
        ),
    ],
)
def test_a_request_on_the_limit_passes(rule, args):
    assert rule(*args) == []
