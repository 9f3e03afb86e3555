"""The passing side of each limit of the control plane's, the network's, the cost estimate's, the device plugin's,
the placement contract's and a server's replica-autoscaling settings: a value exactly at a limit is accepted and
reaches the parsed settings as written; and each field's default as the parsed settings hold it. A rule tested only
where it refuses may refuse its limit too, and a default read by no test may change unseen."""

from __future__ import annotations

import pytest

from components.facts import versions
from components.settings import parse_settings

_ARN = "arn:aws:iam::123456789012:role/"


def _accepted(section: str, values: dict) -> dict:
    """The parsed section's fields after `values` were given under `section` (a dotted section path)."""
    config: dict = values
    for part in reversed(section.split(".")):
        config = {part: config}
    parsed = parse_settings(config)
    for attribute in ("vllm.autoscaling" if section == "vllm.autoscaling" else _attribute(section)).split("."):
        parsed = getattr(parsed, attribute)
    return parsed.model_dump(by_alias=True, include=set(_fields(parsed, values)))


def _attribute(section: str) -> str:
    return {"gpuPlacement": "gpu_placement", "devicePlugin": "device_plugin"}.get(section, section)


def _fields(model, values: dict) -> list[str]:
    by_alias = {field.alias or name: name for name, field in type(model).model_fields.items()}
    return [by_alias[key] for key in values]


def _at(section: str, case: str, **values):
    return pytest.param(section, values, id=case)


@pytest.mark.parametrize(
    ("section", "values"),
    [
        _at("cluster", "a name of one character", name="a"),
        _at("cluster", "a name of 100 characters", name="a" + "-_9Z" * 24 + "abc"),
        _at("cluster", "a name starting with a digit", name="0gpu"),
        _at("cluster", "the oldest supported version", version=versions.SUPPORTED_KUBERNETES_VERSIONS[0]),
        _at("cluster", "the newest supported version", version=versions.SUPPORTED_KUBERNETES_VERSIONS[-1]),
        _at(
            "cluster",
            "a VPC id of 8 digits",
            vpcId="vpc-0123abcd",
            privateSubnetIds=["subnet-0123abcd", "subnet-0123abce"],
        ),
        _at(
            "cluster",
            "a VPC id of 17 digits with public subnets alone",
            vpcId="vpc-0123456789abcdef0",
            publicSubnetIds=["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"],
        ),
        _at(
            "cluster",
            "one private and one public subnet",
            vpcId="vpc-0123abcd",
            privateSubnetIds=["subnet-0123abcd"],
            publicSubnetIds=["subnet-0123abce"],
        ),
        _at("cluster", "no CIDR with a private endpoint", endpointPublicAccess=False, publicAccessCidrs=[]),
        _at("cluster", "a host CIDR", publicAccessCidrs=["203.0.113.7/32", "0.0.0.0/0"]),
        _at("cluster", "no creator admin with an admin", creatorAdmin=False, adminPrincipalArns=[f"{_ARN}admins"]),
        _at(
            "cluster",
            "a role and a user of one name",
            adminPrincipalArns=[f"{_ARN}a", "arn:aws:iam::123456789012:user/a"],
        ),
        _at(
            "cluster",
            "a KMS key of another partition",
            secretsKmsKeyArn="arn:aws-cn:kms:cn-north-1:123456789012:key/k-1",
        ),
        _at("cluster", "every log type", logTypes=["api", "audit", "authenticator", "controllerManager", "scheduler"]),
        _at("cluster", "no log type", logTypes=[]),
        _at("cluster", "the shortest retention", logRetentionDays=1),
        _at("cluster", "the longest retention", logRetentionDays=3653),
        _at("network", "a /16 VPC", cidr="10.1.0.0/16"),
        _at("network", "a /20 VPC", cidr="172.16.16.0/20"),
        _at("network", "two zones", azCount=2),
        _at("network", "six zones", azCount=6),
        _at("network", "two listed zones", availabilityZones=["us-west-2a", "usw2-az2"]),
        _at("network", "six listed zones", availabilityZones=[f"us-east-1{zone}" for zone in "abcdef"]),
        _at("network", "a count that matches the list", azCount=2, availabilityZones=["us-west-2a", "us-west-2b"]),
        _at("network", "the default VPC", mode="defaultVpc", natGateways="perAz", interfaceEndpoints=True),
        _at("cost", "no Spot discount", spotDiscount=0.0),
        _at("cost", "a Spot discount just under all", spotDiscount=0.99, maxMonthlyUsd=0.01),
        _at("devicePlugin", "another release tag", enabled=False, version="v0.17.1"),
        _at("gpuPlacement", "a label key of 63", labelKey="k" * 63, labelValue="v" * 63),
        _at("gpuPlacement", "a prefixed key", labelKey="example.com/gpu.type_a", taintKey="a.b-c/D_e.f"),
        _at("gpuPlacement", "a key under node.kubernetes.io", labelKey="node.kubernetes.io/gpu"),
        _at("gpuPlacement", "a label value of one", labelValue="x", taintValue=""),
        _at("gpuPlacement", "a taint value of 63", taintValue="v" * 63, taintKey="k" * 63),
        _at("gpuPlacement", "NoExecute", taintEffect="NoExecute", requireNodeAffinity=True),
        _at("vllm.autoscaling", "one replica", enabled=True, minReplicas=1, maxReplicas=1),
        _at("vllm.autoscaling", "a queue target of one", targetWaitingPerReplica=1, pollingIntervalSeconds=1),
        _at("vllm.autoscaling", "a full KV cache", targetKvCacheUsage=1.0),
        _at("vllm.autoscaling", "a small KV-cache target", targetKvCacheUsage=0.01),
        _at("vllm.autoscaling", "no window", scaleDownStabilizationSeconds=0),
        _at("vllm.autoscaling", "a window of an hour", scaleDownStabilizationSeconds=3600),
    ],
)
def test_a_value_at_a_limit_is_accepted_as_written(section, values):
    assert _accepted(section, values) == values


def test_each_field_has_its_documented_default():
    settings = parse_settings({})
    assert settings.cluster.model_dump(by_alias=True) == {
        "name": "gpu-inference",
        "version": versions.DEFAULT_KUBERNETES_VERSION,
        "vpcId": None,
        "privateSubnetIds": [],
        "publicSubnetIds": [],
        "endpointPublicAccess": True,
        "publicAccessCidrs": ["0.0.0.0/0"],
        "adminPrincipalArns": [],
        "creatorAdmin": True,
        "secretsKmsKeyArn": None,
        "logTypes": ["api", "audit", "authenticator"],
        "logRetentionDays": 90,
    }
    assert settings.network.model_dump(by_alias=True) == {
        "mode": "create",
        "cidr": "10.0.0.0/16",
        "azCount": 3,
        "availabilityZones": [],
        "natGateways": "single",
        "interfaceEndpoints": False,
    }
    assert settings.network.zone_count == 3
    assert settings.cost.model_dump(by_alias=True) == {"spotDiscount": None, "maxMonthlyUsd": None}
    assert settings.device_plugin.model_dump(by_alias=True) == {
        "enabled": None,
        "version": versions.DEVICE_PLUGIN_VERSION,
    }
    assert settings.gpu_placement.model_dump(by_alias=True) == {
        "labelKey": "GPU",
        "labelValue": "true",
        "taintKey": "GPU",
        "taintValue": "true",
        "taintEffect": "NoSchedule",
        "requireNodeAffinity": False,
    }
    assert settings.vllm.autoscaling.model_dump(by_alias=True) == {
        "enabled": False,
        "minReplicas": 1,
        "maxReplicas": 2,
        "targetWaitingPerReplica": 5,
        "targetKvCacheUsage": None,
        "scaleDownStabilizationSeconds": 3600,
        "pollingIntervalSeconds": 30,
    }


def test_the_zone_count_is_the_listed_zones_when_they_are_given():
    settings = parse_settings({"network": {"availabilityZones": ["us-west-2a", "us-west-2b"]}})
    assert (settings.network.az_count, settings.network.zone_count) == (3, 2)
