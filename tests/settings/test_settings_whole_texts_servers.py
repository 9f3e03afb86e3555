"""A vLLM server against the pool it runs on (`server_pool_problems`), the Cluster Autoscaler's release for the
Kubernetes version, and the checks across sections left out while a section they read is invalid, each pinned
whole on both sides of its boundary."""

from __future__ import annotations

import pytest

from components.facts import versions
from components.settings import parse_settings
from components.settings.reader import parse_stack_config
from components.settings.stack import autoscaler_release_problems
from tests.support.finding_values import problems_of

_FOUR = {"instanceTypes": ["g5.12xlarge"]}
_FACTOR = "from --pipeline-parallel-size, --prefill-context-parallel-size and --data-parallel-size"
_VPC = {"vpcId": "vpc-0123456789abcdef0", "privateSubnetIds": ["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"]}
_NETWORK_PROBLEM = (
    "network",
    "is set while cluster.vpcId 'vpc-0123456789abcdef0' brings its own VPC; allowed: remove network, or unset "
    "cluster.vpcId to let the stack create the VPC",
)


def _on(gpu: dict, **vllm) -> dict:
    return {"gpuNodeGroup": gpu, "vllm": {"model": "org/custom", **vllm}}


SERVERS = [
    pytest.param(
        _on(_FOUR, tensorParallelSize=8),
        [
            (
                "vllm.tensorParallelSize",
                "8 is more than the 4 GPU(s) per g5.12xlarge; allowed: 1-4, or larger GPU instance types",
            )
        ],
        id="a tensor parallel size past the instance's GPUs",
    ),
    pytest.param(
        _on({}, tensorParallelSize=2),
        [
            (
                "vllm.tensorParallelSize",
                "2 is more than the 1 GPU(s) per g5.xlarge; allowed: 1, or larger GPU instance types",
            )
        ],
        id="two GPUs on an instance of one",
    ),
    pytest.param(
        _on(_FOUR, tensorParallelSize=2, extraArgs=["--data-parallel-size", "4"]),
        [
            (
                "vllm.extraArgs",
                f"8 GPUs per server (tensorParallelSize 2 x 4 {_FACTOR}) is more than the 4 GPU(s) per g5.12xlarge; "
                "allowed: at most 4 in all, or larger GPU instance types",
            )
        ],
        id="extra parallelism past the instance's GPUs",
    ),
    pytest.param(
        _on({"instanceTypes": ["g5.xlarge", "g6.xlarge"]}, requireGpuProduct="NVIDIA-L4"),
        [
            (
                "vllm.requireGpuProduct",
                "'NVIDIA-L4' is not what the GPU node group provides; allowed: no single product (mixed GPU models)",
            )
        ],
        id="a product required of a group of two products",
    ),
    pytest.param(
        _on({}, requireGpuProduct="NVIDIA-L4"),
        [("vllm.requireGpuProduct", "'NVIDIA-L4' is not what the GPU node group provides; allowed: 'NVIDIA-A10G'")],
        id="a product the group does not have",
    ),
    pytest.param(
        {
            "gpuPools": {"a": {}, "b": {"instanceTypes": ["g6.xlarge"]}},
            "models": [{"name": "m", "pool": "b", "requireGpuProduct": "NVIDIA-A10G"}],
        },
        [("models.0.requireGpuProduct", "'NVIDIA-A10G' is not what gpuPools.b provides; allowed: 'NVIDIA-L4'")],
        id="a fleet's model names the pool it runs on",
    ),
]


@pytest.mark.parametrize(("values", "problems"), SERVERS)
def test_each_server_against_its_pool_is_reported_whole(values, problems):
    assert problems_of(values) == problems


@pytest.mark.parametrize(
    ("values", "gpus"),
    [
        pytest.param(_on(_FOUR, tensorParallelSize=4), 4, id="every GPU of the instance"),
        pytest.param(_on(_FOUR, tensorParallelSize=2, extraArgs=["--data-parallel-size", "2"]), 4, id="2 x 2 of 4"),
        pytest.param(_on({}, requireGpuProduct="NVIDIA-A10G"), 1, id="the product the group has"),
    ],
)
def test_the_passing_side_of_each_server_rule(values, gpus):
    assert parse_settings(values).vllm.gpus_per_replica == gpus


def test_a_kubernetes_version_without_a_pinned_autoscaler_is_reported_under_version():
    known = ", ".join(versions.CLUSTER_AUTOSCALER_VERSIONS)
    assert [(problem.key, problem.message) for problem in autoscaler_release_problems("1.31", "X")] == [
        ("version", f"'1.31' has no Cluster Autoscaler release pinned (facts/versions.py); allowed: {known}, or X")
    ]


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        pytest.param(
            {"gpuNodeGroup": {"minSize": "1"}},
            ("gpuNodeGroup.minSize", "Input should be a valid integer; got '1'"),
            id="gpuNodeGroup",
        ),
        pytest.param(
            {"gpuPlacement": {"taintEffect": "x"}},
            ("gpuPlacement.taintEffect", "unknown taint effect 'x'; allowed: NoSchedule, NoExecute"),
            id="gpuPlacement",
        ),
        pytest.param(
            {"vllm": {"replicas": -1}},
            ("vllm.replicas", "invalid value -1; allowed: an integer from 0 to 2,147,483,647 (a Deployment's int32)"),
            id="vllm",
        ),
        pytest.param(
            {"devicePlugin": {"enabled": "yes"}},
            ("devicePlugin.enabled", "Input should be a valid boolean; got 'yes'"),
            id="devicePlugin",
        ),
        pytest.param(
            {"systemNodeGroup": {"maxSize": 0, "minSize": 0, "desiredSize": 0}},
            ("systemNodeGroup.maxSize", "0; allowed: an integer >= 1 (EKS rejects 0)"),
            id="systemNodeGroup",
        ),
        pytest.param(
            {"gpuPools": {}, "models": []}, ("gpuPools", "empty map; allowed: at least one pool"), id="gpuPools"
        ),
        pytest.param(
            {"gpuPools": {"a": {}}, "models": [1]},
            ("models.0", "int value; allowed: the keys of vllm, with name and pool"),
            id="models",
        ),
    ],
)
def test_an_invalid_section_the_checks_across_sections_read_leaves_them_out(bad, problem):
    values = {"cluster": _VPC, "network": {"mode": "create"}, **bad}
    found = problems_of(values)
    assert found[0] == problem
    assert _NETWORK_PROBLEM not in found


def test_an_invalid_section_they_do_not_read_leaves_the_checks_across_sections_in():
    values = {"cluster": _VPC, "network": {"mode": "create"}, "cost": {"x": 1}}
    assert problems_of(values) == [
        ("cost.x", "unknown key 'x'; allowed: spotDiscount, maxMonthlyUsd"),
        _NETWORK_PROBLEM,
    ]


def test_pools_without_models_are_the_fleet_form():
    settings = parse_settings({"gpuPools": {"a": {}, "b": {"instanceTypes": ["g6.xlarge"]}}})
    assert (settings.fleet, [pool.config_key for pool in settings.pools], settings.servers) == (
        True,
        ["gpuPools.a", "gpuPools.b"],
        [],
    )


@pytest.mark.parametrize(
    ("config", "zones"),
    [
        pytest.param({"aws:region": "us-west-1"}, 2, id="a region of two zones lowers the default count"),
        pytest.param({"aws:region": "us-west-2"}, 3, id="a region of four keeps it"),
        pytest.param({}, 3, id="no region keeps it"),
    ],
)
def test_the_default_zone_count_follows_the_region(config, zones):
    assert parse_stack_config(config).network.az_count == zones


@pytest.mark.parametrize(
    ("values", "derived"),
    [
        pytest.param({}, (True, True, False, True, False), id="the defaults"),
        pytest.param({"gpuNodeGroup": {"amiFamily": "Bottlerocket"}}, (True, False, False, True, False), id="BR"),
        pytest.param({"devicePlugin": {"enabled": False}}, (True, False, False, True, False), id="plugin off"),
        pytest.param(
            {"devicePlugin": {"enabled": True}, "gpuNodeGroup": {"provisioner": "autoMode"}},
            (False, True, False, False, True),
            id="the plugin asked for on Auto Mode",
        ),
        pytest.param({"gpuNodeGroup": {"provisioner": "autoMode"}}, (False, False, False, False, True), id="autoMode"),
        pytest.param({"gpuNodeGroup": {"provisioner": "karpenter"}}, (True, True, True, False, False), id="karpenter"),
        pytest.param({"gpuNodeGroup": {"nodeRepair": False}}, (False, True, False, True, False), id="no repair"),
        pytest.param({"autoscaler": {"enabled": False}}, (True, True, False, False, False), id="no autoscaler"),
        pytest.param(
            {"gpuPools": {"a": {"provisioner": "autoMode"}, "b": {}}},
            (True, True, False, True, True),
            id="Auto Mode beside a node group",
        ),
    ],
)
def test_what_the_settings_install(values, derived):
    settings = parse_settings(values)
    assert (
        settings.node_repair,
        settings.device_plugin_enabled,
        settings.installs_karpenter,
        settings.installs_autoscaler,
        settings.installs_auto_mode,
    ) == derived
