"""The placement contracts the fleet form derives (settings/fleet.py): each pool's (`pool_contract`: the shared
label and taint, the pool's own labels and the label naming it, its own taints and GPU product) and the one every
GPU node's DaemonSets follow (`every_pool_contract`: the shared label and taint, every pool's own taints once, the
GPU product only when every pool has the same one). A contract set in `gpuPlacement` (here `accelerator=nvidia`,
tainted `dedicated=gpu:NoExecute`) must reach both whole: a default in its place would leave the GPU nodes without
a device plugin, or the servers without a toleration.

The GPU products are the `nvidia.com/gpu.product` values of the catalog (facts/gpu_catalog.py): `NVIDIA-L4` for
g6.xlarge, `NVIDIA-L40S` for g6e.xlarge.
"""

from __future__ import annotations

import pytest

from components.facts.contract import PlacementContract, Taint
from components.facts.node_agents import NODE_POOL_LABEL_KEY
from components.settings import GpuNodeGroupSettings, VllmSettings, parse_settings
from components.settings.fleet import (
    Pool,
    Server,
    every_pool_contract,
    node_price,
    pool_contract,
    revision_warning,
    server_pool_problems,
)

SHARED = PlacementContract(label_key="accelerator", label_value="nvidia", taint=Taint("dedicated", "gpu", "NoExecute"))
TEAM = Taint("team", "x", "NoSchedule")
TIER = Taint("tier", "", "NoExecute")


def pool(key: str, instance_type: str, **keys) -> Pool:
    return Pool(key, GpuNodeGroupSettings.model_validate({"instanceTypes": [instance_type], **keys}))


L4_TEAM = pool("l4", "g6.xlarge", extraLabels={"team": "x"}, extraTaints=[{"key": "team", "value": "x"}])
L40S_TIERED = pool(
    "l40s", "g6e.xlarge", extraTaints=[{"key": "team", "value": "x"}, {"key": "tier", "effect": "NoExecute"}]
)


def test_a_pools_contract_keeps_the_shared_label_and_taint_and_adds_its_own():
    assert pool_contract(SHARED, L4_TEAM.settings, L4_TEAM.node_labels) == PlacementContract(
        label_key="accelerator",
        label_value="nvidia",
        taint=Taint("dedicated", "gpu", "NoExecute"),
        extra_labels={"team": "x", NODE_POOL_LABEL_KEY: "l4"},
        extra_taints=(TEAM,),
        gpu_product="NVIDIA-L4",
    )


def test_the_one_pool_forms_contract_has_no_label_naming_the_pool():
    one_pool = Pool(None, L40S_TIERED.settings)
    assert one_pool.node_labels == {}
    assert pool_contract(SHARED, one_pool.settings) == PlacementContract(
        label_key="accelerator",
        label_value="nvidia",
        taint=Taint("dedicated", "gpu", "NoExecute"),
        extra_labels={},
        extra_taints=(TEAM, TIER),
        gpu_product="NVIDIA-L40S",
    )


@pytest.mark.parametrize(
    ("pools", "expected"),
    [
        pytest.param(
            [L4_TEAM, L40S_TIERED],
            PlacementContract(
                label_key="accelerator",
                label_value="nvidia",
                taint=Taint("dedicated", "gpu", "NoExecute"),
                # `team=x` of both pools once, then `tier`; two GPU products: none named.
                extra_taints=(TEAM, TIER),
                gpu_product=None,
            ),
            id="two products, a shared taint once",
        ),
        pytest.param(
            [L4_TEAM, pool("l4-more", "g6.2xlarge")],
            PlacementContract(
                label_key="accelerator",
                label_value="nvidia",
                taint=Taint("dedicated", "gpu", "NoExecute"),
                extra_taints=(TEAM,),
                gpu_product="NVIDIA-L4",
            ),
            id="one product: named",
        ),
    ],
)
def test_every_gpu_nodes_contract_is_the_shared_one_with_every_pools_taints_once(pools, expected):
    assert every_pool_contract(SHARED, pools) == expected


def test_the_stack_configs_placement_reaches_the_fleets_contract_and_each_pools():
    settings = parse_settings(
        {
            "gpuPlacement": {
                "labelKey": "accelerator",
                "labelValue": "nvidia",
                "taintKey": "dedicated",
                "taintValue": "gpu",
                "taintEffect": "NoExecute",
            },
            "gpuPools": {"l4": {"instanceTypes": ["g6.xlarge"]}, "l40s": {"instanceTypes": ["g6e.xlarge"]}},
        }
    )
    assert settings.contract == PlacementContract(
        label_key="accelerator", label_value="nvidia", taint=Taint("dedicated", "gpu", "NoExecute")
    )
    assert [settings.pool_contract(each) for each in settings.pools] == [
        PlacementContract(
            label_key="accelerator",
            label_value="nvidia",
            taint=Taint("dedicated", "gpu", "NoExecute"),
            extra_labels={NODE_POOL_LABEL_KEY: key},
            gpu_product=product,
        )
        for key, product in (("l4", "NVIDIA-L4"), ("l40s", "NVIDIA-L40S"))
    ]


@pytest.mark.parametrize(
    ("name", "config_key", "resource"),
    [
        # The one-model form keeps the name stacks deployed before the fleet form have: `<cluster>-vllm`.
        pytest.param(None, "vllm", "ml-vllm", id="one-model form"),
        pytest.param("chat", "models.0", "ml-vllm-chat", id="fleet form"),
    ],
)
def test_a_servers_resource_name_in_each_form(name, config_key, resource):
    server = Server(name, VllmSettings(), L4_TEAM, config_key)
    assert (server.resource_name("ml"), server.pool_reason) == (resource, "")


@pytest.mark.parametrize(
    ("region", "price"),
    [
        # g6.xlarge in us-west-2: $0.8048 an hour (facts/prices.py, instances.vantage.sh as of 2026-01-21).
        pytest.param("us-west-2", 0.8048, id="priced region"),
        # No region, or a region the price table does not hold: unknown, not zero.
        pytest.param(None, None, id="no region"),
        pytest.param("xx-nowhere-1", None, id="unpriced region"),
    ],
)
def test_a_pools_node_price_is_its_first_instance_types_on_demand_price(region, price):
    assert node_price(L4_TEAM, region) == price


@pytest.mark.parametrize(
    ("revision", "warning"),
    [
        pytest.param(
            "main",
            "models.0.revision: revision 'main' looks like a branch: the weights it names can change under the same "
            "config; pin a commit id (40 hex digits) or a release tag",
            id="a branch",
        ),
        # 39 hex digits are not a commit id (a Hugging Face commit is 40), nor a release tag.
        pytest.param(
            "a" * 39,
            f"models.0.revision: revision {'a' * 39!r} looks like a branch: the weights it names can change under the "
            "same config; pin a commit id (40 hex digits) or a release tag",
            id="39 hex digits",
        ),
        pytest.param("0123456789abcdef0123456789abcdef01234567", None, id="a commit id"),
        pytest.param("v2.1.3-rc.1", None, id="a release tag with a suffix"),
    ],
)
def test_a_revision_that_may_move_is_warned_of_in_whole(revision, warning):
    assert revision_warning("models.0.revision", revision) == warning


def test_a_server_against_a_pool_the_caller_does_not_name_is_against_the_gpu_node_group():
    # `VllmServerArgs` checks a server against its one GPU node group, which it names so.
    l4 = GpuNodeGroupSettings.model_validate({"instanceTypes": ["g6.xlarge"]})
    [problem] = server_pool_problems(VllmSettings(require_gpu_product="NVIDIA-L40S"), l4)
    assert (problem.key, problem.message) == (
        "requireGpuProduct",
        "'NVIDIA-L40S' is not what the GPU node group provides; allowed: 'NVIDIA-L4'",
    )
