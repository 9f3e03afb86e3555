"""Each refusal of the control plane's, the network's, the cost estimate's, the device plugin's and the placement
contract's settings, pinned whole: every problem's key and full message, and no other (the passing side of each
limit, and the defaults, are in test_settings_whole_texts_limits.py). A test that reads a fragment of a message
lets the rest of it change unread."""

from __future__ import annotations

import pytest

from components.facts import versions
from tests.support.finding_values import problems_of

_NAME = "allowed: 1-100 letters, digits, '-' or '_', starting with a letter or digit"
_SUBNET = "allowed: subnets in at least two availability zones (EKS needs two for the control plane)"
_RETENTION = "1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653"
_VPC_CIDR = "allowed: an IPv4 CIDR block from /16 to /20, such as 10.0.0.0/16"
_ZONE = "allowed: zone names such as us-west-2a or zone IDs such as usw2-az1"
_KEY = (
    "allowed: 1-63 characters, an optional DNS-subdomain prefix and '/', then a name of letters, digits, '-', '_' "
    "or '.', starting and ending with a letter or digit"
)
_VALUE = "characters of letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
_EFFECTS = "allowed: NoSchedule, NoExecute"
_ARN = "arn:aws:iam::123456789012:role/"


def _row(values: dict, problems: list[tuple[str, str]], case: str):
    return pytest.param(values, problems, id=case)


def _cluster(**keys) -> dict:
    return {"cluster": keys}


def _network(**keys) -> dict:
    return {"network": keys}


def _placement(**keys) -> dict:
    return {"gpuPlacement": keys}


_VERSIONS = ", ".join(versions.SUPPORTED_KUBERNETES_VERSIONS)

CLUSTER = [
    _row(_cluster(name="-x"), [("cluster.name", f"invalid value '-x'; {_NAME}")], "a name starting with a hyphen"),
    _row(_cluster(name="a" * 101), [("cluster.name", f"invalid value '{'a' * 101}'; {_NAME}")], "a name of 101"),
    _row(
        _cluster(version="1.x"),
        [
            (
                "cluster.version",
                f"malformed version '1.x'; allowed: a Kubernetes minor version such as \"1.34\": {_VERSIONS}",
            )
        ],
        "a malformed version",
    ),
    _row(
        _cluster(version="1.99"),
        [("cluster.version", f"unsupported version '1.99'; allowed: {_VERSIONS}")],
        "a version EKS does not run",
    ),
    _row(
        _cluster(vpcId="vpc-123"),
        [("cluster.vpcId", "invalid value 'vpc-123'; allowed: a VPC id such as vpc-0123456789abcdef0")],
        "a malformed VPC id",
    ),
    _row(
        _cluster(secretsKmsKeyArn="arn:aws:kms:us-west-2:1:key/x"),
        [
            (
                "cluster.secretsKmsKeyArn",
                "invalid value 'arn:aws:kms:us-west-2:1:key/x'; allowed: a KMS key ARN such as "
                "arn:aws:kms:us-west-2:123456789012:key/<id>",
            )
        ],
        "a KMS key ARN without a 12-digit account",
    ),
    _row(
        _cluster(logTypes=["api", "bogus"]),
        [
            (
                "cluster.logTypes",
                "unknown log type 'bogus'; allowed: api, audit, authenticator, controllerManager, scheduler",
            )
        ],
        "an unknown log type",
    ),
    _row(
        _cluster(logTypes=["api", "api"]),
        [("cluster.logTypes", "duplicate log types in ['api', 'api']; allowed: each log type once")],
        "one log type twice",
    ),
    _row(
        _cluster(logRetentionDays=2),
        [("cluster.logRetentionDays", f"retention period CloudWatch Logs refuses: 2; allowed: {_RETENTION}")],
        "a retention CloudWatch refuses",
    ),
    _row(
        _cluster(adminPrincipalArns=["arn:aws:sts::123456789012:assumed-role/a/b"]),
        [
            (
                "cluster.adminPrincipalArns",
                "invalid value 'arn:aws:sts::123456789012:assumed-role/a/b'; allowed: IAM role or user ARNs such as "
                "arn:aws:iam::123456789012:role/admins (EKS takes no STS session ARNs)",
            )
        ],
        "an STS session as admin",
    ),
    _row(
        _cluster(adminPrincipalArns=[f"{_ARN}a", f"{_ARN}p/a"]),
        [
            (
                "cluster.adminPrincipalArns",
                f"same principal as '{_ARN}a': '{_ARN}p/a'; allowed: each principal once (EKS allows one access "
                "entry per principal; a role's path does not make it another role)",
            )
        ],
        "one role twice through its path",
    ),
    _row(
        _cluster(vpcId="vpc-0123abcd"),
        [
            (
                "cluster.vpcId",
                "'vpc-0123abcd' is set without subnets; allowed: set privateSubnetIds (or publicSubnetIds) of that "
                "VPC too",
            )
        ],
        "a VPC without subnets",
    ),
    _row(
        _cluster(privateSubnetIds=["subnet-0123abcd", "subnet-0123abce"]),
        [("cluster.vpcId", "missing while subnets are set; allowed: the id of the subnets' VPC")],
        "private subnets without their VPC",
    ),
    _row(
        _cluster(publicSubnetIds=["subnet-0123abcd", "subnet-0123abce"]),
        [("cluster.vpcId", "missing while subnets are set; allowed: the id of the subnets' VPC")],
        "public subnets without their VPC",
    ),
    _row(
        _cluster(vpcId="vpc-0123abcd", privateSubnetIds=["subnet-0123abcd"]),
        [("cluster.privateSubnetIds", f"['subnet-0123abcd'] is one subnet; {_SUBNET}")],
        "one private subnet",
    ),
    _row(
        _cluster(vpcId="vpc-0123abcd", publicSubnetIds=["subnet-0123abcd"]),
        [("cluster.publicSubnetIds", f"['subnet-0123abcd'] is one subnet; {_SUBNET}")],
        "one public subnet",
    ),
    _row(
        _cluster(vpcId="vpc-0123abcd", privateSubnetIds=["subnet-0123abcd"], publicSubnetIds=["subnet-0123abcd"]),
        [("cluster.privateSubnetIds", f"['subnet-0123abcd'] is one subnet; {_SUBNET}")],
        "the same subnet private and public",
    ),
    _row(
        _cluster(privateSubnetIds=["subnet-0123abcd", "subnet-0123abcd"]),
        [
            (
                "cluster.privateSubnetIds",
                "duplicate subnets in ['subnet-0123abcd', 'subnet-0123abcd']; allowed: each subnet once",
            )
        ],
        "one subnet twice",
    ),
    _row(
        _cluster(privateSubnetIds=["subnet-xyz"]),
        [
            (
                "cluster.privateSubnetIds",
                "invalid value 'subnet-xyz'; allowed: subnet ids such as subnet-0123456789abcdef0",
            )
        ],
        "a malformed subnet id",
    ),
    _row(
        _cluster(publicAccessCidrs=[]),
        [
            (
                "cluster.publicAccessCidrs",
                "[] with endpointPublicAccess true; allowed: at least one CIDR, or endpointPublicAccess false",
            )
        ],
        "a public endpoint open to no CIDR",
    ),
    _row(
        _cluster(publicAccessCidrs=["10.0.0.1/8"]),
        [("cluster.publicAccessCidrs", "invalid value '10.0.0.1/8'; allowed: IPv4 CIDR blocks such as 203.0.113.0/24")],
        "a CIDR with host bits",
    ),
    _row(
        _cluster(creatorAdmin=False),
        [
            (
                "cluster.creatorAdmin",
                "false with no adminPrincipalArns: nobody could administer the cluster or install its workloads; "
                "allowed: true, or list the admins (the identity running pulumi up among them) in adminPrincipalArns",
            )
        ],
        "no admin at all",
    ),
    _row(
        _cluster(nmae="x"),
        [
            (
                "cluster.nmae",
                "unknown key 'nmae'; did you mean 'name'?; allowed: name, version, vpcId, privateSubnetIds, "
                "publicSubnetIds, endpointPublicAccess, publicAccessCidrs, adminPrincipalArns, creatorAdmin, "
                "secretsKmsKeyArn, logTypes, logRetentionDays",
            )
        ],
        "a misspelt cluster key",
    ),
]

NETWORK = [
    _row(
        _network(cidr="10.0.0.0/15"),
        [("network.cidr", f"VPC size out of range: '10.0.0.0/15'; {_VPC_CIDR}")],
        "a VPC past /16",
    ),
    _row(
        _network(cidr="10.0.0.0/21"),
        [("network.cidr", f"VPC size out of range: '10.0.0.0/21'; {_VPC_CIDR}")],
        "a VPC under /20",
    ),
    _row(_network(cidr="10.0.0.1/16"), [("network.cidr", f"invalid CIDR '10.0.0.1/16'; {_VPC_CIDR}")], "host bits"),
    _row(
        _network(azCount=1),
        [("network.azCount", "invalid value 1; allowed: 2-6 (EKS needs subnets in two zones)")],
        "one zone",
    ),
    _row(
        _network(azCount=7),
        [("network.azCount", "invalid value 7; allowed: 2-6 (EKS needs subnets in two zones)")],
        "seven zones",
    ),
    _row(
        _network(availabilityZones=["us-west-2a"]),
        [
            (
                "network.availabilityZones",
                "wrong number of zones: ['us-west-2a']; allowed: 2-6 zones (EKS needs subnets in two zones)",
            )
        ],
        "one listed zone",
    ),
    _row(
        _network(availabilityZones=[f"us-west-2{z}" for z in "abcdefg"]),
        [
            (
                "network.availabilityZones",
                f"wrong number of zones: {[f'us-west-2{z}' for z in 'abcdefg']!r}; allowed: 2-6 zones (EKS needs "
                "subnets in two zones)",
            )
        ],
        "seven listed zones",
    ),
    _row(
        _network(availabilityZones=["us-west-2a", "us-west-2a"]),
        [("network.availabilityZones", "duplicate zones in ['us-west-2a', 'us-west-2a']; allowed: each zone once")],
        "one zone twice",
    ),
    _row(
        _network(availabilityZones=["us-west-2a", "bad zone", "usw2-az"]),
        [
            ("network.availabilityZones", f"invalid zone 'bad zone'; {_ZONE}"),
            ("network.availabilityZones", f"invalid zone 'usw2-az'; {_ZONE}"),
        ],
        "each malformed zone named",
    ),
    _row(
        _network(availabilityZones=["use1-az3", "use1-az1"]),
        [
            (
                "network.availabilityZones",
                "unsupported zone 'use1-az3'; allowed: zones other than use1-az3, usw1-az2, cac1-az3, where EKS "
                "places no control plane",
            )
        ],
        "a zone without EKS",
    ),
    _row(
        _network(availabilityZones=["us-west-2a", "us-west-2b"], azCount=3),
        [("network.azCount", "3 but availabilityZones lists 2; allowed: leave azCount out, or match the list")],
        "a count against the list",
    ),
    _row(
        _network(mode="other"),
        [("network.mode", "Input should be 'create' or 'defaultVpc'; got 'other'")],
        "an unknown mode",
    ),
    _row(
        _network(natGateways="two"),
        [("network.natGateways", "Input should be 'single' or 'perAz'; got 'two'")],
        "an unknown NAT layout",
    ),
]

SMALL_SECTIONS = [
    _row(
        {"cost": {"spotDiscount": 1}},
        [("cost.spotDiscount", "invalid value 1.0; allowed: a fraction with 0 <= x < 1, such as 0.6 for 60% off")],
        "a Spot discount of all",
    ),
    _row(
        {"cost": {"spotDiscount": -0.1}},
        [("cost.spotDiscount", "invalid value -0.1; allowed: a fraction with 0 <= x < 1, such as 0.6 for 60% off")],
        "a negative Spot discount",
    ),
    _row(
        {"cost": {"maxMonthlyUsd": 0}},
        [("cost.maxMonthlyUsd", "invalid value 0.0; allowed: a number of US dollars above 0")],
        "a budget of nothing",
    ),
    _row(
        {"devicePlugin": {"version": "0.17.0"}},
        [
            (
                "devicePlugin.version",
                f"invalid value '0.17.0'; allowed: a release tag such as {versions.DEVICE_PLUGIN_VERSION}",
            )
        ],
        "a plugin tag without its v",
    ),
    _row(
        {"devicePlugin": {"enabled": "x"}},
        [("devicePlugin.enabled", "Input should be a valid boolean; got 'x'")],
        "a plugin switch that is no boolean",
    ),
    _row(
        _placement(labelKey="kubernetes.io/gpu"),
        [
            (
                "gpuPlacement.labelKey",
                "the kubelet refuses node labels in the kubernetes.io and k8s.io namespaces, so the nodes would never "
                "join: 'kubernetes.io/gpu'; allowed: a key outside kubernetes.io and k8s.io (for example "
                "example.com/gpu), or under node.kubernetes.io/",
            )
        ],
        "a label key the kubelet refuses",
    ),
    _row(_placement(labelKey=""), [("gpuPlacement.labelKey", f"bad length of key ''; {_KEY}")], "an empty label key"),
    _row(
        _placement(taintKey="k" * 64),
        [("gpuPlacement.taintKey", f"bad length of key '{'k' * 64}'; {_KEY}")],
        "a taint key of 64",
    ),
    _row(
        _placement(labelKey="Bad_/x"),
        [("gpuPlacement.labelKey", f"invalid key 'Bad_/x'; {_KEY}")],
        "a prefix that is no DNS subdomain",
    ),
    _row(
        _placement(taintKey="example.com/-x"),
        [("gpuPlacement.taintKey", f"invalid key 'example.com/-x'; {_KEY}")],
        "a key name starting with a hyphen",
    ),
    _row(
        _placement(labelValue="-x"),
        [("gpuPlacement.labelValue", f"invalid value '-x'; allowed: 1-63 {_VALUE}")],
        "a label value starting with a hyphen",
    ),
    _row(
        _placement(labelValue=""),
        [("gpuPlacement.labelValue", f"empty value ''; allowed: 1-63 {_VALUE}")],
        "an empty label value",
    ),
    _row(
        _placement(labelValue="v" * 64),
        [("gpuPlacement.labelValue", f"bad length of value '{'v' * 64}'; allowed: 1-63 {_VALUE}")],
        "a label value of 64",
    ),
    _row(
        _placement(taintValue="-x"),
        [("gpuPlacement.taintValue", f"invalid value '-x'; allowed: 0-63 {_VALUE}")],
        "a taint value starting with a hyphen",
    ),
    _row(
        _placement(taintValue="v" * 64),
        [("gpuPlacement.taintValue", f"bad length of value '{'v' * 64}'; allowed: 0-63 {_VALUE}")],
        "a taint value of 64",
    ),
    _row(
        _placement(taintEffect="NO_EXECUTE"),
        [("gpuPlacement.taintEffect", f"EKS API spelling; write 'NoExecute' instead of 'NO_EXECUTE'; {_EFFECTS}")],
        "NoExecute in the EKS spelling",
    ),
    _row(
        _placement(taintEffect="NO_SCHEDULE"),
        [("gpuPlacement.taintEffect", f"EKS API spelling; write 'NoSchedule' instead of 'NO_SCHEDULE'; {_EFFECTS}")],
        "NoSchedule in the EKS spelling",
    ),
    _row(
        _placement(taintEffect="PreferNoSchedule"),
        [
            (
                "gpuPlacement.taintEffect",
                f"PreferNoSchedule does not keep pods off GPU nodes: 'PreferNoSchedule'; {_EFFECTS}",
            )
        ],
        "an effect that does not repel",
    ),
    _row(
        _placement(taintEffect="PREFER_NO_SCHEDULE"),
        [("gpuPlacement.taintEffect", f"unknown taint effect 'PREFER_NO_SCHEDULE'; {_EFFECTS}")],
        "the EKS spelling of an effect that does not repel",
    ),
    _row(
        _placement(taintEffect="Nope"),
        [("gpuPlacement.taintEffect", f"unknown taint effect 'Nope'; {_EFFECTS}")],
        "an unknown effect",
    ),
    _row(
        _placement(taintKy="x"),
        [
            (
                "gpuPlacement.taintKy",
                "unknown key 'taintKy'; did you mean 'taintKey'?; allowed: labelKey, labelValue, taintKey, taintValue, "
                "taintEffect, requireNodeAffinity",
            )
        ],
        "a misspelt placement key",
    ),
]


@pytest.mark.parametrize(("values", "problems"), CLUSTER + NETWORK + SMALL_SECTIONS)
def test_a_refused_setting_is_reported_whole_and_alone(values, problems):
    assert problems_of(values) == problems
