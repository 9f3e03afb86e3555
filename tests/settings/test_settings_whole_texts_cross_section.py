"""The checks across sections of the whole stack config (`Settings.problems`, the forms, the secrets), the rules
across a node group's own fields and across the fleet's pools and models, each pinned
whole (key and full message, and no other problem) on both sides of its boundary."""

from __future__ import annotations

import pytest

from components.facts import versions
from components.facts.node_agents import NODE_POOL_LABEL_KEY
from components.settings import parse_settings
from components.settings.stack import autoscaler_release_problems
from tests.support.finding_values import problems_of

_VPC = "vpc-0123456789abcdef0"
_SUBNETS = ["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"]
_COMMIT = "0123456789abcdef0123456789abcdef01234567"
_ONE_FORM = "allowed: one form, gpuNodeGroup and vllm (one pool, one model) or gpuPools and models (several)"
_AMI = (
    "allowed: one AMI family for every pool (Bottlerocket runs the device plugin on the host, the other AMIs need "
    "the one device-plugin DaemonSet of every pool)"
)
_KARPENTER = (
    "'karpenter' without private subnets to tag for it; allowed: network.mode 'create' (the stack's own VPC), "
    "cluster.privateSubnetIds, or provisioner 'nodeGroup'"
)


def _fleet(pools: dict, *models: dict, **more) -> dict:
    return {"gpuPools": pools, "models": list(models or [{"name": "m", "pool": next(iter(pools))}]), **more}


def _no_autoscaler(gpu: dict, **more) -> dict:
    return {"gpuNodeGroup": {"minSize": 0, **gpu}, "autoscaler": {"enabled": False}, **more}


def _empty_pool_text(pool: str, replicas: str, zero: str) -> str:
    return (
        f"0 with autoscaler.enabled false and {replicas}: nothing ever adds a GPU node, so the server's pods stay "
        f"Pending; allowed: {pool}.desiredSize 1 or more (an autoscaler installed another way owns the size "
        f"afterwards, down to minSize), autoscaler.enabled true, or {zero}"
    )


ACROSS = [
    pytest.param(
        {"cluster": {"vpcId": _VPC, "privateSubnetIds": _SUBNETS}, "network": {"mode": "create"}},
        [
            (
                "network",
                f"is set while cluster.vpcId '{_VPC}' brings its own VPC; allowed: remove network, or unset "
                "cluster.vpcId to let the stack create the VPC",
            )
        ],
        id="a network beside a VPC of one's own",
    ),
    pytest.param(
        _no_autoscaler({"desiredSize": 0}),
        [("gpuNodeGroup.desiredSize", _empty_pool_text("gpuNodeGroup", "vllm.replicas 1", "vllm.replicas 0"))],
        id="an empty GPU node group with no autoscaler",
    ),
    pytest.param(
        _fleet(
            {"a": {"minSize": 0, "desiredSize": 0}},
            {"name": "m", "pool": "a", "replicas": 2},
            {"name": "n", "pool": "a"},
            autoscaler={"enabled": False},
        ),
        [
            (
                "gpuPools.a.desiredSize",
                _empty_pool_text(
                    "gpuPools.a",
                    "models.0.replicas 2 and models.1.replicas 1",
                    "models.0.replicas 0 or models.1.replicas 0",
                ),
            )
        ],
        id="an empty pool of two models with no autoscaler, each model named",
    ),
    pytest.param(
        {"gpuNodeGroup": {"provisioner": "karpenter"}, "cluster": {"vpcId": _VPC, "publicSubnetIds": _SUBNETS}},
        [("gpuNodeGroup.provisioner", _KARPENTER)],
        id="Karpenter in a VPC of one's own without private subnets",
    ),
    pytest.param(
        _fleet(
            {"a": {"provisioner": "nodeGroup"}, "b": {"provisioner": "karpenter"}, "c": {"provisioner": "karpenter"}},
            cluster={"vpcId": _VPC, "publicSubnetIds": _SUBNETS},
        ),
        [("gpuPools.b.provisioner", _KARPENTER)],
        id="the first Karpenter pool named in a fleet without private subnets",
    ),
    pytest.param(
        _fleet(
            {
                "k": {"provisioner": "karpenter"},
                "a": {"provisioner": "autoMode"},
                "j": {"provisioner": "karpenter"},
                "b": {"provisioner": "autoMode"},
            }
        ),
        [
            (
                "gpuPools.a.provisioner",
                "'autoMode' beside Karpenter pools (gpuPools.k, gpuPools.j); allowed: one of 'karpenter' and "
                "'autoMode' in a stack (both run the karpenter.sh NodePool API), or 'nodeGroup'",
            )
        ],
        id="Auto Mode beside Karpenter, every Karpenter pool named",
    ),
    pytest.param(
        {"devicePlugin": {"enabled": True}, "gpuNodeGroup": {"amiFamily": "Bottlerocket"}},
        [
            (
                "devicePlugin.enabled",
                "true with gpuNodeGroup.amiFamily 'Bottlerocket', whose AMI runs the device plugin itself; allowed: "
                "false or unset",
            )
        ],
        id="the device plugin on Bottlerocket",
    ),
    pytest.param(
        {"gpuNodeGroup": {"extraLabels": {"GPU": "x", "nvidia.com/gpu.present": "y"}}},
        [
            ("gpuNodeGroup.extraLabels.GPU", "'x' overrides a label the placement contract sets; allowed: other keys"),
            (
                "gpuNodeGroup.extraLabels.nvidia.com/gpu.present",
                "'y' overrides a label the placement contract sets; allowed: other keys",
            ),
        ],
        id="extra labels over the contract's",
    ),
    pytest.param(
        {
            "gpuPlacement": {"taintKey": "example.com/gpu"},
            "gpuNodeGroup": {"extraTaints": [{"key": "example.com/gpu", "value": "x", "effect": "NoExecute"}]},
        },
        [
            (
                "gpuNodeGroup.extraTaints",
                "repeats the contract taint key 'example.com/gpu' (gpuPlacement.taintKey); allowed: other keys",
            )
        ],
        id="an extra taint on the contract's key",
    ),
    pytest.param(
        {"gpuNodeGroup": {"extraTaints": [{"key": f"t{n}", "value": "x", "effect": "NoSchedule"} for n in range(50)]}},
        [("gpuNodeGroup.extraTaints", "51 taints with the contract taint; allowed: at most 50 per node group")],
        id="51 taints with the contract's",
    ),
    pytest.param(
        {"gpuNodeGroup": {}, "gpuPools": {"a": {}}},
        [("gpuPools", f"is set with gpuNodeGroup; {_ONE_FORM}")],
        id="the fleet's pools beside the one pool",
    ),
    pytest.param(
        {"gpuNodeGroup": {}, "vllm": {}, "gpuPools": {"a": {}}, "models": []},
        [("gpuPools", f"is set with gpuNodeGroup and vllm; {_ONE_FORM}")],
        id="both forms whole",
    ),
    pytest.param({"vllm": {}, "models": []}, [("models", f"is set with vllm; {_ONE_FORM}")], id="models beside vllm"),
    pytest.param(
        {"models": [{"name": "m", "pool": "a"}]},
        [("models", "is set without gpuPools; allowed: gpuPools with the pools they run on")],
        id="models without pools",
    ),
    pytest.param(
        {"hfToken": 5},
        [("hfToken", "int value; allowed: a string (pulumi config set --secret hfToken <value>)")],
        id="a token of another type",
    ),
    pytest.param(
        {"vllmApiKey": ""},
        [("vllmApiKey", "empty value; allowed: a non-empty string, or leave the key unset")],
        id="an empty API key",
    ),
    pytest.param(
        {"clustr": {}},
        [
            (
                "clustr",
                "unknown key 'clustr'; did you mean 'cluster'?; allowed: cluster, systemNodeGroup, gpuNodeGroup, "
                "gpuPlacement, vllm, devicePlugin, network, autoscaler, observability, cost, gpuPools, models, "
                "hfToken, vllmApiKey",
            )
        ],
        id="a misspelt section",
    ),
]


@pytest.mark.parametrize(("values", "problems"), ACROSS)
def test_each_check_across_sections_is_reported_whole(values, problems):
    assert problems_of(values) == problems


@pytest.mark.parametrize(
    "values",
    [
        pytest.param({"cluster": {"vpcId": _VPC, "privateSubnetIds": _SUBNETS}}, id="a VPC of one's own alone"),
        pytest.param(_no_autoscaler({"desiredSize": 1}), id="one GPU node with no autoscaler"),
        pytest.param(_no_autoscaler({"desiredSize": 0}, vllm={"replicas": 0}), id="an empty group with no server"),
        pytest.param(_no_autoscaler({"desiredSize": 0}, vllm={"enabled": False}), id="an empty group, vllm off"),
        pytest.param({"gpuNodeGroup": {"minSize": 0, "desiredSize": 0}}, id="an empty group with the autoscaler"),
        pytest.param(
            _no_autoscaler({"desiredSize": 0, "provisioner": "karpenter"}), id="an empty Karpenter pool, no autoscaler"
        ),
        pytest.param({"gpuNodeGroup": {"provisioner": "karpenter"}}, id="Karpenter in the stack's own VPC"),
        pytest.param(
            {"gpuNodeGroup": {"provisioner": "karpenter"}, "cluster": {"vpcId": _VPC, "privateSubnetIds": _SUBNETS}},
            id="Karpenter with private subnets of one's own",
        ),
        pytest.param(
            _fleet({"a": {"provisioner": "autoMode"}, "b": {"provisioner": "nodeGroup"}}), id="Auto Mode beside groups"
        ),
        pytest.param(
            {"devicePlugin": {"enabled": False}, "gpuNodeGroup": {"amiFamily": "Bottlerocket"}}, id="plugin off on BR"
        ),
        pytest.param({"devicePlugin": {"enabled": True}}, id="the device plugin on AL2023"),
        pytest.param(
            {
                "gpuNodeGroup": {
                    "extraTaints": [{"key": f"t{n}", "value": "x", "effect": "NoSchedule"} for n in range(49)]
                }
            },
            id="50 taints with the contract's",
        ),
        pytest.param({"gpuNodeGroup": {"extraLabels": {"GPU-model": "a10g"}}}, id="an extra label beside the contract"),
        pytest.param({"vllmApiKey": None}, id="no API key"),
    ],
)
def test_the_passing_side_of_each_check_across_sections(values):
    assert parse_settings(values).problems() == []


def test_a_kubernetes_version_without_a_pinned_autoscaler_names_every_pinned_one_and_the_way_out():
    known = ", ".join(versions.CLUSTER_AUTOSCALER_VERSIONS)
    assert [(problem.key, problem.message) for problem in autoscaler_release_problems("1.31", "X", "cv")] == [
        ("cv", f"'1.31' has no Cluster Autoscaler release pinned (facts/versions.py); allowed: {known}, or X")
    ]
    assert autoscaler_release_problems(next(iter(versions.CLUSTER_AUTOSCALER_VERSIONS)), "X") == []


NODE_GROUPS = [
    pytest.param(
        {"systemNodeGroup": {"minSize": 0, "desiredSize": 0, "maxSize": 0}},
        [
            ("systemNodeGroup.maxSize", "0; allowed: an integer >= 1 (EKS rejects 0)"),
            (
                "systemNodeGroup.minSize",
                "0; allowed: an integer >= 1, or CoreDNS and other add-ons have no untainted node to run on",
            ),
        ],
        id="an empty system node group",
    ),
    pytest.param(
        {"systemNodeGroup": {"instanceTypes": ["g5.xlarge", "m6g.large"]}},
        [
            (
                "systemNodeGroup.instanceTypes",
                "GPU instance types ['g5.xlarge'] in the system node group; allowed: non-GPU types such as m6i.large "
                "(GPU nodes belong in gpuNodeGroup)",
            ),
            (
                "systemNodeGroup.instanceTypes",
                "['g5.xlarge', 'm6g.large'] mix architectures ['arm64', 'x86_64']; allowed: one architecture",
            ),
        ],
        id="a GPU type and two architectures in the system node group",
    ),
    pytest.param(
        {"systemNodeGroup": {"minSize": 3, "desiredSize": 2, "maxSize": 3}},
        [("systemNodeGroup.minSize", "3 is greater than desiredSize 2; allowed: minSize <= desiredSize <= maxSize")],
        id="a system minimum above the desired size",
    ),
    pytest.param(
        {"gpuNodeGroup": {"minSize": 1, "desiredSize": 3, "maxSize": 2}},
        [("gpuNodeGroup.desiredSize", "3 is greater than maxSize 2; allowed: minSize <= desiredSize <= maxSize")],
        id="a GPU desired size above the maximum",
    ),
]


@pytest.mark.parametrize(("values", "problems"), NODE_GROUPS)
def test_each_node_group_rule_across_fields_is_reported_whole(values, problems):
    assert problems_of(values) == problems


@pytest.mark.parametrize(
    ("values", "size"),
    [
        pytest.param({"systemNodeGroup": {"minSize": 1, "desiredSize": 1, "maxSize": 1}}, 1, id="one system node"),
        pytest.param({"systemNodeGroup": {"minSize": 3, "desiredSize": 3, "maxSize": 3}}, 3, id="equal sizes"),
    ],
)
def test_the_passing_side_of_the_node_group_size_rules(values, size):
    group = parse_settings(values).system_node_group
    assert (group.min_size, group.desired_size, group.max_size) == (size, size, size)


FLEET = [
    pytest.param(
        _fleet({"a": {"amiFamily": "Bottlerocket"}, "b": {}, "c": {"amiFamily": "Bottlerocket"}}),
        [("gpuPools.b.amiFamily", f"'AL2023' while pool a has 'Bottlerocket'; {_AMI}")],
        id="a pool of another AMI family, only it named",
    ),
    pytest.param(
        _fleet({"a": {"extraLabels": {NODE_POOL_LABEL_KEY: "x"}}}),
        [
            (
                f"gpuPools.a.extraLabels.{NODE_POOL_LABEL_KEY}",
                "'x' overrides the label naming the pool, which the stack sets to the pool's name and its models "
                "require; allowed: other keys",
            )
        ],
        id="an extra label over the pool's name",
    ),
    pytest.param(
        {"gpuPools": {"a": 1}, "models": "x"},
        [
            ("gpuPools.a", "int value; allowed: the keys of gpuNodeGroup"),
            ("models", "str value; allowed: a list of models, each with name, model and pool"),
        ],
        id="a pool and the models of other types",
    ),
    pytest.param(
        {"gpuPools": {"a": {}}, "models": [{"name": "m", "pool": "a"}, 1]},
        [("models.1", "int value; allowed: the keys of vllm, with name and pool")],
        id="a model of another type at its position",
    ),
    pytest.param(
        {"gpuPools": [], "models": []},
        [("gpuPools", "list value; allowed: a map of pool name -> the keys of gpuNodeGroup")],
        id="pools given as a list",
    ),
]


@pytest.mark.parametrize(("values", "problems"), FLEET)
def test_each_fleet_rule_is_reported_whole(values, problems):
    assert problems_of(values) == problems
