"""Invalid stack settings, each with the key its error must name and a fragment of what is allowed.

Shared by the settings tests (parse_settings) and the offline plan tests (exit code 2). Each row becomes a
pytest case whose id names the key and its bad value (invalid_setting_id).
"""

import pytest

_UNSET = object()


def _leaves(values: dict, prefix: str = "") -> dict:
    """Each value of a nested settings dict by its dotted key; an empty section counts as one value."""
    leaves = {}
    for name, value in values.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict) and value:
            leaves.update(_leaves(value, f"{key}."))
        else:
            leaves[key] = value
    return leaves


def _short(value) -> str:
    """A value as an id shows it: as written up to 40 characters, longer ones by their size."""
    text = repr(value)
    if len(text) <= 40:
        return text
    if isinstance(value, str):
        return f"'{value[:3]}...' ({len(value)} characters)"
    return f"a {type(value).__name__} of {len(value)}"


def invalid_setting_id(values: dict, key: str) -> str:
    """A row's test id, from the key its error must name, the value there and the row's other values.

    For example "gpuNodeGroup.desiredSize=3 with maxSize=2 is rejected" (keys in the named key's section
    drop the section).
    """
    found = values
    for name in key.split("."):
        found = found.get(name, _UNSET) if isinstance(found, dict) else _UNSET
    head = f"{key} unset" if found is _UNSET else f"{key}={_short(found)}"
    section = key.split(".")[0] + "."
    others = [
        f"{name.removeprefix(section)}={_short(value)}"
        for name, value in _leaves(values).items()
        if name != key and not name.startswith(key + ".")
    ]
    return head + (" with " + ", ".join(others) if others else "") + " is rejected"


INVALID_SETTINGS = [
    ({"gpuPlacement": {"taintEffect": "NO_SCHEDULE"}}, "gpuPlacement.taintEffect", "write 'NoSchedule'"),
    ({"gpuPlacement": {"taintEffect": "NoSchedul"}}, "gpuPlacement.taintEffect", "NoSchedule, NoExecute"),
    ({"gpuPlacement": {"taintEffect": "PreferNoSchedule"}}, "gpuPlacement.taintEffect", "does not keep pods off"),
    ({"gpuPlacement": {"labelValue": ""}}, "gpuPlacement.labelValue", "empty value"),
    ({"gpuPlacement": {"labelKey": "k" * 64}}, "gpuPlacement.labelKey", "1-63 characters"),
    ({"gpuPlacement": {"taintKey": "bad key!"}}, "gpuPlacement.taintKey", "invalid key"),
    ({"gpuPlacement": {"taintValue": "v" * 64}}, "gpuPlacement.taintValue", "0-63 characters"),
    ({"gpuNodeGroup": {"instanceTypes": ["m5.large"]}}, "gpuNodeGroup.instanceTypes", "have no NVIDIA GPU (CPU types)"),
    (
        {"gpuNodeGroup": {"instanceTypes": ["g5.xlarge", "g5g.xlarge"]}},
        "gpuNodeGroup.instanceTypes",
        "mix architectures",
    ),
    ({"gpuNodeGroup": {"instanceTypes": ["g5.xlarge", "g5.12xlarge"]}}, "gpuNodeGroup.instanceTypes", "mix GPU counts"),
    ({"gpuNodeGroup": {"minSize": 2, "desiredSize": 1}}, "gpuNodeGroup.minSize", "minSize <= desiredSize"),
    ({"gpuNodeGroup": {"desiredSize": 3, "maxSize": 2}}, "gpuNodeGroup.desiredSize", "desiredSize <= maxSize"),
    ({"gpuNodeGroup": {"minSize": -1}}, "gpuNodeGroup.minSize", ">= 0"),
    ({"gpuNodeGroup": {"minSize": 0, "desiredSize": 0, "maxSize": 0}}, "gpuNodeGroup.maxSize", ">= 1"),
    ({"gpuNodeGroup": {"capacityType": "RESERVED"}}, "gpuNodeGroup.capacityType", "'ON_DEMAND' or 'SPOT'"),
    ({"gpuNodeGroup": {"amiFamily": "AL2"}}, "gpuNodeGroup.amiFamily", "'AL2023' or 'Bottlerocket'"),
    ({"gpuNodeGroup": {"diskSize": 20}}, "gpuNodeGroup.diskSize", "at least 50 GiB"),
    (
        {"gpuNodeGroup": {"extraTaints": [{"key": "a"}, {"key": "a", "effect": "NoExecute"}]}},
        "gpuNodeGroup.extraTaints",
        "duplicate taint keys",
    ),
    (
        {"gpuNodeGroup": {"extraTaints": [{"key": f"t{i}"} for i in range(50)]}},
        "gpuNodeGroup.extraTaints",
        "at most 50",
    ),
    ({"gpuNodeGroup": {"extraLabels": {"GPU": "false"}}}, "gpuNodeGroup.extraLabels.GPU", "overrides a label"),
    ({"gpuNodeGroup": {"maxSize": "2"}}, "gpuNodeGroup.maxSize", "valid integer"),
    ({"gpuNodeGroup": {"instanceTypes": "g5.xlarge"}}, "gpuNodeGroup.instanceTypes", "valid list"),
    ({"systemNodeGroup": {"instanceTypes": ["g5.xlarge"]}}, "systemNodeGroup.instanceTypes", "GPU instance types"),
    ({"systemNodeGroup": {"minSize": 0, "desiredSize": 0}}, "systemNodeGroup.minSize", "add-ons"),
    ({"cluster": {"version": "1.34.1"}}, "cluster.version", "malformed version"),
    ({"cluster": {"version": "1.20"}}, "cluster.version", "unsupported version"),
    ({"cluster": {"publicAccessCidrs": ["10.0.0.300/8"]}}, "cluster.publicAccessCidrs", "IPv4 CIDR"),
    ({"cluster": {"vpcId": "vpc-0123456789abcdef0"}}, "cluster.vpcId", "without subnets"),
    ({"cluster": {"logTypes": ["audit", "everything"]}}, "cluster.logTypes", "unknown log type"),
    ({"cluster": {"logRetentionDays": 100}}, "cluster.logRetentionDays", "90, 120"),
    ({"cluster": {"creatorAdmin": False}}, "cluster.creatorAdmin", "list the admins"),
    (
        {
            "cluster": {
                "adminPrincipalArns": ["arn:aws:iam::123456789012:role/a", "arn:aws:iam::123456789012:role/ops/a"]
            }
        },
        "cluster.adminPrincipalArns",
        "each principal once",
    ),
    (
        {"cluster": {"adminPrincipalArns": ["arn:aws:sts::123456789012:assumed-role/admins/alice"]}},
        "cluster.adminPrincipalArns",
        "no STS session ARNs",
    ),
    ({"vllm": {"tensorParallelSize": 2}}, "vllm.tensorParallelSize", "more than the 1 GPU(s)"),
    ({"vllm": {"tensorParallelSize": 0}}, "vllm.tensorParallelSize", ">= 1"),
    ({"vllm": {"tensorParallelSize": 1.5}}, "vllm.tensorParallelSize", "valid integer"),
    ({"vllm": {"gpuMemoryUtilization": 1.5}}, "vllm.gpuMemoryUtilization", "0 < x <= 1"),
    ({"vllm": {"gpuMemoryUtilization": 0}}, "vllm.gpuMemoryUtilization", "0 < x <= 1"),
    ({"vllm": {"image": "vllm/vllm-openai"}}, "vllm.image", "untagged image"),
    (
        {"vllm": {"image": "vllm/vllm-openai:v0.21.0"}},
        "vllm.image",
        "image too old: 'vllm/vllm-openai:v0.21.0'; "
        "allowed: v0.22.0 or newer, the first image with the non-root vllm user (UID 2000)",
    ),
    ({"vllm": {"requireGpuProduct": "NVIDIA-H100-80GB-HBM3"}}, "vllm.requireGpuProduct", "'NVIDIA-A10G'"),
    ({"vllm": {"extraArgs": ["--port=9000"]}}, "vllm.extraArgs[0]", "flag set by settings"),
    (
        {"vllm": {"extraArgs": ["-tp", "4"]}},
        "vllm.extraArgs[0]",
        "flag set by settings (read by vLLM as --tensor-parallel-size): '-tp'",
    ),
    ({"vllm": {"extraArgs": ["--api-key=k"]}}, "vllm.extraArgs[0]", "pulumi config set --secret vllmApiKey"),
    ({"vllmApiKey": ""}, "vllmApiKey", "empty value"),
    (
        {"devicePlugin": {"enabled": True}, "gpuNodeGroup": {"amiFamily": "Bottlerocket"}},
        "devicePlugin.enabled",
        "runs the device plugin itself",
    ),
    ({"gpuNodeGroup": {"diskSzie": 100}}, "gpuNodeGroup.diskSzie", "did you mean 'diskSize'"),
    ({"vllm": {"modelCache": {"sise": "1Gi"}}}, "vllm.modelCache.sise", "did you mean 'size'"),
    ({"gpuPlacment": {}}, "gpuPlacment", "did you mean 'gpuPlacement'"),
    ({"vllm": {"namespace": "kube-system"}}, "vllm.namespace", "system namespace"),
    ({"vllm": {"modelCache": {"type": "pvc"}, "replicas": 2}}, "vllm.modelCache.type", "ReadWriteOnce"),
    (
        {"cluster": {"vpcId": "vpc-0123456789abcdef0", "privateSubnetIds": ["subnet-0aaaaaaaaaaaaaaa1"]}},
        "cluster.privateSubnetIds",
        "at least two availability zones",
    ),
    (
        {"cluster": {"vpcId": "vpc-0123456789abcdef0", "publicSubnetIds": ["subnet-0aaaaaaaaaaaaaaa1"]}},
        "cluster.publicSubnetIds",
        "at least two availability zones",
    ),
    (
        {
            "cluster": {
                "vpcId": "vpc-0123456789abcdef0",
                "privateSubnetIds": ["subnet-0aaaaaaaaaaaaaaa1", "subnet-0aaaaaaaaaaaaaaa1"],
            }
        },
        "cluster.privateSubnetIds",
        "each subnet once",
    ),
    ({"cluster": {"version": "1.31"}}, "cluster.version", "unsupported version"),
    ({"gpuPlacement": {"labelKey": "kubernetes.io/gpu"}}, "gpuPlacement.labelKey", "never join"),
    ({"gpuNodeGroup": {"extraLabels": {"team.k8s.io/owner": "ml"}}}, "gpuNodeGroup.extraLabels", "never join"),
    ({"gpuNodeGroup": {"diskSize": 65537}}, "gpuNodeGroup.diskSize", "at most 65536 GiB"),
    ({"systemNodeGroup": {"diskSize": 100000}}, "systemNodeGroup.diskSize", "largest gp3 volume"),
    ({"gpuNodeGroup": {"maxSize": 2**31}}, "gpuNodeGroup.maxSize", "32-bit integers"),
    ({"network": {"cidr": "10.0.0.0/24"}}, "network.cidr", "/16 to /20"),
    ({"network": {"cidr": "10.0.0.1/16"}}, "network.cidr", "invalid CIDR"),
    ({"network": {"azCount": 1}}, "network.azCount", "2-6"),
    ({"network": {"availabilityZones": ["use1-az3", "use1-az1"]}}, "network.availabilityZones", "unsupported zone"),
    ({"network": {"availabilityZones": ["us-west-2a"]}}, "network.availabilityZones", "wrong number of zones"),
    (
        {"network": {"availabilityZones": ["us-west-2a", "us-west-2b"], "azCount": 3}},
        "network.azCount",
        "match the list",
    ),
    ({"network": {"natGateway": "single"}}, "network.natGateway", "did you mean 'natGateways'"),
    ({"autoscaler": {"expander": "cheapest"}}, "autoscaler.expander", "one of least-waste, priority"),
    ({"autoscaler": {"expander": "priority"}}, "autoscaler.expanderPriorities", "at least one priority"),
    ({"autoscaler": {"scaleDownUnneededTime": "10 minutes"}}, "autoscaler.scaleDownUnneededTime", "10m, 1h"),
    (
        {"autoscaler": {"expanderPriorities": {"high": ["gpu"]}, "expander": "priority"}},
        "autoscaler.expanderPriorities",
        "integer priorities",
    ),
    ({"network": {"mode": "default"}}, "network.mode", "'create' or 'defaultVpc'"),
    (
        {
            "cluster": {
                "vpcId": "vpc-0123456789abcdef0",
                "privateSubnetIds": ["subnet-0aaaaaaaaaaaaaaa1", "subnet-0aaaaaaaaaaaaaaa2"],
            },
            "network": {"azCount": 2},
        },
        "network",
        "unset cluster.vpcId",
    ),
    ({"observability": {"scrapeInterval": "30"}}, "observability.scrapeInterval", "non-zero Prometheus duration"),
    ({"observability": {"monitoringNamespace": "Monitoring"}}, "observability.monitoringNamespace", "DNS label"),
    (
        {"observability": {"dcgmExporter": {"enable": False}}},
        "observability.dcgmExporter.enable",
        "did you mean 'enabled'",
    ),
    ({"observability": {"prometheusOperator": "yes"}}, "observability.prometheusOperator", "valid boolean"),
]

# Rows as test cases with readable ids: "gpuNodeGroup.desiredSize=3 with maxSize=2 is rejected", not "values11-...".
INVALID_SETTINGS = [pytest.param(*row, id=invalid_setting_id(*row[:2])) for row in INVALID_SETTINGS]
