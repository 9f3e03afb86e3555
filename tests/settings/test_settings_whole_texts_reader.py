"""Every problem and warning of the stack config reader (components/settings/reader.py, region.py) pinned whole:
dotted keys, secrets in plain text or under another namespace, a misspelt project namespace, `aws:region`, ARNs
and zones against the region, a workspace ID without a region, and the namespace warnings, with the cases each
lets pass."""

from __future__ import annotations

import pytest

from components.settings import ConfigError
from components.settings.reader import namespace_warnings, parse_stack_config

P = "eks-gpu-inference"
_ARN = "arn:aws:aps:us-east-1:123456789012:workspace/ws-1"
_TOP = (
    "cluster, systemNodeGroup, gpuNodeGroup, gpuPlacement, vllm, devicePlugin, network, autoscaler, observability, "
    "cost, gpuPools, models, hfToken, vllmApiKey"
)
_ZONES = "us-west-2b (usw2-az1), us-west-2a (usw2-az2), us-west-2c (usw2-az3), us-west-2d (usw2-az4)"


def _problems(config: dict, secret_keys: tuple[str, ...] = ()) -> list[str]:
    with pytest.raises(ConfigError) as error:
        parse_stack_config(config, secret_keys)
    return [str(problem) for problem in error.value.problems]


PROBLEMS = [
    pytest.param(
        {f"{P}:network.cidr": "10.0.0.0/16"},
        [
            f"{P}:network.cidr: unknown key 'network.cidr': Pulumi takes a dotted key as one name, not a path; "
            "allowed: cidr inside network, as pulumi config set --path 'network.cidr' <value> writes it"
        ],
        id="a dotted key of a section",
    ),
    pytest.param(
        {f"{P}:vllm.modelCache.size": "1Gi"},
        [
            f"{P}:vllm.modelCache.size: unknown key 'vllm.modelCache.size': Pulumi takes a dotted key as one name, "
            "not a path; allowed: modelCache.size inside vllm, as pulumi config set --path 'vllm.modelCache.size' "
            "<value> writes it"
        ],
        id="a dotted key two deep",
    ),
    pytest.param(
        {f"{P}:foo.bar": 1},
        [f"{P}:foo.bar: unknown key 'foo.bar'; allowed: {_TOP}"],
        id="a dotted key of no section is an unknown key",
    ),
    pytest.param(
        {f"{P}:hfToken": "t"},
        [
            f"{P}:hfToken: is set in plain text (value not shown); allowed: a secret value, set with pulumi config "
            "set --secret hfToken <value>"
        ],
        id="a token in plain text",
    ),
    pytest.param(
        {f"{P}:vllmApiKey": "k", f"{P}:hfToken": "t"},
        [
            f"{P}:hfToken: is set in plain text (value not shown); allowed: a secret value, set with pulumi config "
            "set --secret hfToken <value>",
            f"{P}:vllmApiKey: is set in plain text (value not shown); allowed: a secret value, set with pulumi config "
            "set --secret vllmApiKey <value>",
        ],
        id="both secrets in plain text, in declaration order",
    ),
    pytest.param(
        {"other:hfToken": "t"},
        [
            f"other:hfToken: this project's secret hfToken under namespace 'other', which the program never reads (it "
            f"would run without it); allowed: {P}:hfToken, set with pulumi config set --secret hfToken <value>"
        ],
        id="a secret under another namespace",
    ),
    pytest.param(
        {"eks-gpu-inferense:vllm": {}},
        [
            f"eks-gpu-inferense:vllm: namespace 'eks-gpu-inferense' is not this project's; did you mean {P}:vllm? "
            f"allowed: keys under {P}: (other namespaces, such as aws:, belong to their providers)"
        ],
        id="a misspelt project namespace",
    ),
    pytest.param({"aws:region": 5}, ["aws:region: int value 5; allowed: a region name such as us-west-2"], id="5"),
    pytest.param(
        {"aws:region": "us-west-9"},
        [
            "aws:region: unknown region 'us-west-9'; did you mean 'us-west-2' or 'us-west-1' or 'us-east-2'? "
            "allowed: a region where EKS runs"
        ],
        id="an unknown region",
    ),
    pytest.param(
        {
            "aws:region": "us-west-2",
            f"{P}:cluster": {
                "adminPrincipalArns": ["arn:aws:iam::123456789012:role/a", "arn:aws-cn:iam::123456789012:role/x"],
                "secretsKmsKeyArn": "arn:aws:kms:us-east-1:123456789012:key/x",
            },
        },
        [
            f"{P}:cluster.adminPrincipalArns: 'arn:aws-cn:iam::123456789012:role/x' is an ARN of partition 'aws-cn', "
            "not of us-west-2's; allowed: arn:aws:iam::...",
            f"{P}:cluster.secretsKmsKeyArn: 'arn:aws:kms:us-east-1:123456789012:key/x' is a key in us-east-1 (aws); "
            "allowed: a key of us-west-2 (arn:aws:kms:us-west-2:...), the cluster's region",
        ],
        id="an ARN of another partition and a key of another region",
    ),
    pytest.param(
        {
            "aws:region": "us-west-2",
            f"{P}:cluster": {"secretsKmsKeyArn": "arn:aws-cn:kms:us-west-2:123456789012:key/x"},
        },
        [
            f"{P}:cluster.secretsKmsKeyArn: 'arn:aws-cn:kms:us-west-2:123456789012:key/x' is a key in us-west-2 "
            "(aws-cn); allowed: a key of us-west-2 (arn:aws:kms:us-west-2:...), the cluster's region",
        ],
        id="a key of the region's name in another partition",
    ),
    pytest.param(
        {
            "aws:region": "us-west-2",
            f"{P}:observability": {
                "prometheus": {"ampWorkspace": "arn:aws-cn:aps:cn-north-1:123456789012:workspace/w"}
            },
        },
        [
            f"{P}:observability.prometheus.ampWorkspace: 'arn:aws-cn:aps:cn-north-1:123456789012:workspace/w' is a "
            "workspace of partition 'aws-cn', not of us-west-2's; allowed: a workspace ID, or an ARN arn:aws:aps:..."
        ],
        id="a workspace of another partition",
    ),
    pytest.param(
        {f"{P}:observability": {"prometheus": {"ampWorkspace": "ws-1"}}},
        [
            f"{P}:observability.prometheus.ampWorkspace: 'ws-1' is a workspace ID, and aws:region is not set to say "
            "its region; allowed: the workspace's ARN arn:aws:aps:<region>:<account>:workspace/<id>, or set aws:region"
        ],
        id="a workspace ID with no region",
    ),
    pytest.param(
        {"aws:region": "us-west-2", f"{P}:network": {"availabilityZones": ["us-west-2a", "us-east-1b"]}},
        [
            f"{P}:network.availabilityZones: 'us-east-1b' is not a zone of us-west-2 that EKS supports (zone table of "
            f"2026-12-01); allowed: {_ZONES}"
        ],
        id="a zone of another region",
    ),
    pytest.param(
        {"aws:region": "us-west-9", f"{P}:hfToken": "t", "other:vllmApiKey": "k", f"{P}:a.b": 1},
        [
            f"{P}:hfToken: is set in plain text (value not shown); allowed: a secret value, set with pulumi config "
            "set --secret hfToken <value>",
            "aws:region: unknown region 'us-west-9'; did you mean 'us-west-2' or 'us-west-1' or 'us-east-2'? "
            "allowed: a region where EKS runs",
            "other:vllmApiKey: this project's secret vllmApiKey under namespace 'other', which the program never "
            f"reads (it would run without it); allowed: {P}:vllmApiKey, set with pulumi config set --secret "
            "vllmApiKey <value>",
            f"{P}:a.b: unknown key 'a.b'; allowed: {_TOP}",
        ],
        id="every problem at once",
    ),
]


@pytest.mark.parametrize(("config", "problems"), PROBLEMS)
def test_each_problem_of_the_stack_config_is_reported_whole(config, problems):
    assert sorted(_problems(config)) == sorted(problems)


@pytest.mark.parametrize(
    ("config", "secret_keys", "field", "value"),
    [
        pytest.param({f"{P}:hfToken": "t"}, (f"{P}:hfToken",), "hf_token", "t", id="a secret token"),
        pytest.param({"kubernetes:cluster": "kind"}, (), "cluster.name", "gpu-inference", id="kubernetes:cluster"),
        pytest.param({"aws:region": "us-west-2"}, (), "region", "us-west-2", id="a known region"),
        pytest.param(
            {f"{P}:observability": {"prometheus": {"ampWorkspace": _ARN}}},
            (),
            "observability.prometheus.amp_workspace",
            _ARN,
            id="a workspace ARN with no region",
        ),
        pytest.param(
            {"aws:region": "us-west-2", f"{P}:observability": {"prometheus": {"ampWorkspace": _ARN}}},
            (),
            "observability.prometheus.amp_workspace",
            _ARN,
            id="a workspace of another region of the partition",
        ),
        pytest.param(
            {"aws:region": "us-west-2", f"{P}:observability": {"prometheus": {"ampWorkspace": "ws-1"}}},
            (),
            "observability.prometheus.amp_workspace",
            "ws-1",
            id="a workspace ID with a region",
        ),
        pytest.param(
            {
                "aws:region": "us-west-2",
                f"{P}:cluster": {"secretsKmsKeyArn": "arn:aws:kms:us-west-2:123456789012:key/x"},
            },
            (),
            "cluster.secrets_kms_key_arn",
            "arn:aws:kms:us-west-2:123456789012:key/x",
            id="a key of the region",
        ),
        pytest.param({"other:vllm": {"replicas": 3}}, (), "vllm.replicas", 1, id="another namespace's key unread"),
    ],
)
def test_what_the_reader_lets_pass(config, secret_keys, field, value):
    read = parse_stack_config(config, secret_keys)
    for name in field.split("."):
        read = getattr(read, name)
    assert read == value


def test_a_region_the_stack_config_names_is_the_settings_region():
    assert parse_stack_config({"aws:region": "eu-west-1"}).region == "eu-west-1"


@pytest.mark.parametrize(
    ("config", "warnings"),
    [
        pytest.param(
            {"other:vllm": {}},
            [
                "other:vllm: 'vllm' is a key of this project under namespace 'other', which this program does not "
                f"read; it reads {P}:vllm (pulumi config set vllm <value>)"
            ],
            id="a section under another namespace",
        ),
        pytest.param(
            {"other:network.cidr": "10.0.0.0/16"},
            [
                "other:network.cidr: 'network' is a key of this project under namespace 'other', which this program "
                f"does not read; it reads {P}:network.cidr (pulumi config set --path 'network.cidr' <value>)"
            ],
            id="a dotted key under another namespace, set with --path",
        ),
        pytest.param(
            {"kubernetes:vllm": {}},
            [
                "kubernetes:vllm: 'vllm' is a key of this project under namespace 'kubernetes', which this program "
                f"does not read; it reads {P}:vllm (pulumi config set vllm <value>)"
            ],
            id="a provider's namespace with a key not its own",
        ),
        pytest.param({"kubernetes:cluster": "kind"}, [], id="the Kubernetes provider's own cluster key"),
        pytest.param({"other:hfToken": "t"}, [], id="a secret, which is a problem instead"),
        pytest.param({"eks-gpu-inferense:vllm": {}}, [], id="a misspelt project namespace, a problem instead"),
        pytest.param({f"{P}:vllm": {}}, [], id="the project's own namespace"),
        pytest.param({"other:nothing": 1}, [], id="a key of no section"),
        pytest.param({"vllm": {}}, [], id="a key without a namespace"),
    ],
)
def test_the_namespace_warnings_whole(config, warnings):
    assert namespace_warnings(config) == warnings


def test_a_namespace_four_fifths_like_the_projects_is_its_misspelling_and_one_less_alike_a_warning():
    assert _problems({"eks-gpu-infeX:vllm": {}}) == [
        f"eks-gpu-infeX:vllm: namespace 'eks-gpu-infeX' is not this project's; did you mean {P}:vllm? allowed: keys "
        f"under {P}: (other namespaces, such as aws:, belong to their providers)"
    ]
    assert namespace_warnings({"eks-gpu-infeX:vllm": {}}) == []
    assert parse_stack_config({"eks-gpu-infXY:vllm": {}}).vllm.replicas == 1
    assert namespace_warnings({"eks-gpu-infXY:vllm": {}}) == [
        "eks-gpu-infXY:vllm: 'vllm' is a key of this project under namespace 'eks-gpu-infXY', which this program "
        f"does not read; it reads {P}:vllm (pulumi config set vllm <value>)"
    ]
