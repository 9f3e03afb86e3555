"""The fleet form of the stack config (`gpuPools`, `models`): each rule as the user reads it, and `pool: auto`.

The auto cases state their arithmetic (facts/model_memory.py): usable = GPU memory as CUDA reports it x 0.9 (L4
22.49 GiB -> 20.2, L40S 44.99 -> 40.5, H100 79.65 -> 71.7); weights = parameters x 2 bytes / TP; reserve 2 GiB.
"""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog, prices
from components.facts.contract import PlacementContract, Taint
from components.settings import ConfigError, GpuNodeGroupSettings, parse_settings, parse_stack_config
from components.settings.fleet import AUTO_POOL, Pool, revision_warning

L4 = {"instanceTypes": ["g6.xlarge"]}
L40S = {"instanceTypes": ["g6e.xlarge"]}
H100 = {"instanceTypes": ["p5.48xlarge"], "maxSize": 1}


def model(name: str, model_id: str = "Qwen/Qwen2.5-1.5B-Instruct", **keys) -> dict:
    return {"name": name, "model": model_id, **keys}


def problems_of(values: dict) -> list[str]:
    with pytest.raises(ConfigError) as error:
        parse_settings(values)
    return [str(problem) for problem in error.value.problems]


def test_pools_and_models_resolve_to_servers_on_their_pools():
    settings = parse_settings(
        {"gpuPools": {"l4": L4, "l40s": L40S}, "models": [model("small", pool="l4"), model("mid", pool="l40s")]}
    )

    assert [pool.key for pool in settings.pools] == ["l4", "l40s"]
    assert [(server.name, server.pool.key, server.config_key) for server in settings.servers] == [
        ("small", "l4", "models.0"),
        ("mid", "l40s", "models.1"),
    ]
    # Each model's namespace is its own name unless set.
    assert [server.settings.namespace for server in settings.servers] == ["small", "mid"]
    assert settings.gpu_instance_types == ["g6.xlarge", "g6e.xlarge"]


def test_the_one_pool_form_is_one_pool_and_one_server_under_its_own_keys():
    settings = parse_settings({})

    assert [(pool.key, pool.config_key) for pool in settings.pools] == [(None, "gpuNodeGroup")]
    assert [(server.name, server.config_key, server.settings.namespace) for server in settings.servers] == [
        (None, "vllm", "vllm")
    ]
    assert parse_settings({"vllm": {"enabled": False}}).servers == []


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        pytest.param(
            {"gpuNodeGroup": {}, "gpuPools": {"l4": L4}},
            "eks-gpu-inference:gpuPools: is set with gpuNodeGroup; allowed: one form, gpuNodeGroup and vllm (one "
            "pool, one model) or gpuPools and models (several)",
            id="both forms",
        ),
        pytest.param(
            {"vllm": {}, "gpuPools": {"l4": L4}, "models": [model("a", pool="l4")]},
            "eks-gpu-inference:gpuPools: is set with vllm; allowed: one form, gpuNodeGroup and vllm (one pool, one "
            "model) or gpuPools and models (several)",
            id="both forms, vllm beside the fleet",
        ),
        pytest.param(
            {"models": [model("a")]},
            "eks-gpu-inference:models: is set without gpuPools; allowed: gpuPools with the pools they run on",
            id="models without pools",
        ),
        pytest.param(
            {"gpuPools": {}},
            "eks-gpu-inference:gpuPools: empty map; allowed: at least one pool",
            id="no pool",
        ),
        pytest.param(
            {"gpuPools": [L4]},
            "eks-gpu-inference:gpuPools: list value; allowed: a map of pool name -> the keys of gpuNodeGroup",
            id="pools as a list",
        ),
        pytest.param(
            {"gpuPools": {"L4": L4}},
            "eks-gpu-inference:gpuPools: invalid pool name 'L4'; allowed: 1-32 lowercase letters, digits or '-', "
            "starting with a letter and ending with a letter or digit, other than 'auto' or 'system'",
            id="pool name not a DNS label",
        ),
        pytest.param(
            {"gpuPools": {"auto": L4}},
            "eks-gpu-inference:gpuPools: invalid pool name 'auto'; allowed: 1-32 lowercase letters, digits or '-', "
            "starting with a letter and ending with a letter or digit, other than 'auto' or 'system'",
            id="pool named auto",
        ),
        pytest.param(
            {"gpuPools": {"system": L4}},
            "eks-gpu-inference:gpuPools: invalid pool name 'system'; allowed: 1-32 lowercase letters, digits or '-', "
            "starting with a letter and ending with a letter or digit, other than 'auto' or 'system'",
            id="pool named system",
        ),
        pytest.param(
            {"gpuPools": {"l4": {**L4, "extraLabels": {"eks-gpu-inference/node-pool": "x"}}}},
            "eks-gpu-inference:gpuPools.l4.extraLabels.eks-gpu-inference/node-pool: 'x' overrides the label naming "
            "the pool, which the stack sets to the pool's name and its models require; allowed: other keys",
            id="a pool relabelled",
        ),
        pytest.param(
            {"gpuPools": {"l4": {"instanceTypes": ["m6i.large"]}}},
            "eks-gpu-inference:gpuPools.l4.instanceTypes: ['m6i.large'] have no NVIDIA GPU (CPU types); allowed: sizes of "
            f"{', '.join(gpu_catalog.gpu_families())} (facts/gpu_catalog.py)",
            id="a pool's own rule, under its key",
        ),
        pytest.param(
            {"gpuPools": {"l4": L4}, "models": {"a": {}}},
            "eks-gpu-inference:models: dict value; allowed: a list of models, each with name, model and pool",
            id="models as a map",
        ),
        pytest.param(
            {"gpuPools": {"l4": L4}, "models": [{"model": "Qwen/Qwen2.5-1.5B-Instruct", "pool": "l4"}]},
            "eks-gpu-inference:models.0.name: Field required; got {'model': 'Qwen/Qwen2.5-1.5B-Instruct', 'pool': 'l4'}",
            id="a model without a name",
        ),
        pytest.param(
            {"gpuPools": {"l4": L4}, "models": [model("a", pool="l5")]},
            "eks-gpu-inference:models.0.pool: unknown pool 'l5'; did you mean 'l4'?; allowed: l4, auto",
            id="an unknown pool, the nearest suggested",
        ),
        pytest.param(
            {"gpuPools": {"l4": L4}, "models": [model("a", pool="l4"), model("a", pool="l4", namespace="other")]},
            "eks-gpu-inference:models.1.name: 'a' is also models.0's; allowed: a name no other model has",
            id="two models of one name",
        ),
        pytest.param(
            {"gpuPools": {"l4": L4}, "models": [model("a", pool="l4"), model("b", pool="l4", namespace="a")]},
            "eks-gpu-inference:models.1.namespace: 'a' is also model a's; allowed: a namespace of its own (each "
            "server owns its namespace and deletes it on destroy)",
            id="two models in one namespace",
        ),
        pytest.param(
            {"gpuPools": {"l4": L4, "br": {**L40S, "amiFamily": "Bottlerocket"}}},
            "eks-gpu-inference:gpuPools.br.amiFamily: 'Bottlerocket' while pool l4 has 'AL2023'; allowed: one AMI "
            "family for every pool (Bottlerocket runs the device plugin on the host, the other AMIs need the one "
            "device-plugin DaemonSet of every pool)",
            id="pools of two AMI families",
        ),
        pytest.param(
            {
                "gpuPools": {
                    "a": {**L4, "extraTaints": [{"key": "team", "value": "x"}]},
                    "b": {**L40S, "extraTaints": [{"key": "team", "value": "y"}]},
                }
            },
            "eks-gpu-inference:gpuPools.b.extraTaints.0: taint 'team' is 'y':NoSchedule here and 'x':NoSchedule in "
            "pool a; allowed: the same value and effect in every pool that has the key (the device plugin and the DCGM "
            "exporter tolerate each once)",
            id="one taint key, two values",
        ),
        pytest.param(
            {
                "gpuPools": {"l4": L4},
                "models": [model("big", "Qwen/Qwen2.5-7B-Instruct", pool="l4", tensorParallelSize=2)],
            },
            "eks-gpu-inference:models.0.tensorParallelSize: 2 is more than the 1 GPU(s) per g6.xlarge; allowed: 1, or "
            "larger GPU instance types",
            id="a model against its pool: TP above the GPUs per node",
        ),
        pytest.param(
            {
                "gpuPools": {"l4": {**L4, "minSize": 0, "desiredSize": 0}},
                "models": [model("a", pool="l4")],
                "autoscaler": {"enabled": False},
            },
            "eks-gpu-inference:gpuPools.l4.desiredSize: 0 with autoscaler.enabled false and models.0.replicas 1: "
            "nothing ever adds a GPU node, so the server's pods stay Pending; allowed: gpuPools.l4.desiredSize 1 or "
            "more (an autoscaler installed another way owns the size afterwards, down to minSize), "
            "autoscaler.enabled true, or models.0.replicas 0",
            id="a pool at zero with a model and no autoscaler",
        ),
        pytest.param(
            {
                "gpuPools": {"br": {**L4, "amiFamily": "Bottlerocket"}},
                "devicePlugin": {"enabled": True},
            },
            "eks-gpu-inference:devicePlugin.enabled: true with gpuPools.br.amiFamily 'Bottlerocket', whose AMI runs "
            "the device plugin itself; allowed: false or unset",
            id="the device plugin on Bottlerocket pools",
        ),
        pytest.param(
            {
                "gpuPools": {"l4": L4},
                "models": [model("a", "Qwen/Qwen2.5-1.5B-Instruct", pool="l4", maxModelLen=65536)],
            },
            "eks-gpu-inference:models.0.maxModelLen: maxModelLen 65536 > the model's context 32768 of "
            "Qwen/Qwen2.5-1.5B-Instruct (the model catalog): vLLM refuses to start; allowed: at most 32768, or rope "
            "scaling through --hf-overrides in extraArgs",
            id="a model's own rule (its context), under its position",
        ),
    ],
)
def test_each_fleet_rule_names_the_key_the_value_and_what_is_allowed(values, expected):
    # The whole message, and no other problem: a prefix would let the reason after "allowed:" go unread.
    assert problems_of(values) == [expected]


def test_every_problem_of_every_pool_and_model_is_reported_at_once():
    problems = problems_of(
        {
            "gpuPools": {"l4": {"instanceTypes": ["g6"]}, "h100": {**H100, "maxSize": 0}},
            "models": [model("a", replicas=-1), model("B")],
        }
    )

    keys = [problem.split(": ", 1)[0] for problem in problems]
    assert keys == [
        "eks-gpu-inference:gpuPools.l4.instanceTypes",
        "eks-gpu-inference:gpuPools.h100.maxSize",
        "eks-gpu-inference:gpuPools.h100.desiredSize",
        "eks-gpu-inference:models.0.replicas",
        "eks-gpu-inference:models.1.name",
    ]


def test_auto_picks_the_pool_with_the_least_gpu_memory_that_fits():
    # Qwen2.5-7B: 7.61e9 x 2 bytes = 14.2 GiB + 2 GiB reserve + 0.44 GiB KV (8192 tokens) = 16.6 GiB, which fits
    # an L4 (20.2 usable), an L40S (40.5) and an H100 (71.7): the L4 has the least.
    settings = parse_settings(
        {"gpuPools": {"h100": H100, "l40s": L40S, "l4": L4}, "models": [model("a", "Qwen/Qwen2.5-7B-Instruct")]}
    )

    [server] = settings.servers
    assert server.pool.key == "l4"
    assert (
        server.pool_reason
        == "pool auto: l4, the least GPU memory that fits (20.2 GiB usable per GPU), of 3 pools that fit"
    )


def test_auto_passes_over_a_pool_the_model_does_not_fit():
    # Qwen2.5-14B: 14.7e9 x 2 = 27.4 GiB of weights > 20.2 usable per L4; it fits an L40S (40.5).
    settings = parse_settings(
        {"gpuPools": {"l4": L4, "l40s": L40S}, "models": [model("a", "Qwen/Qwen2.5-14B-Instruct", pool=AUTO_POOL)]}
    )

    [server] = settings.servers
    assert server.pool.key == "l40s"
    assert server.pool_reason.endswith("the only pool that fits")


def test_auto_with_no_pool_that_fits_names_the_numbers():
    # Llama-3.3-70B: 70.56e9 x 2 = 131.4 GiB of weights at TP 1, beyond any one GPU.
    problems = problems_of(
        {"gpuPools": {"l4": L4, "l40s": L40S}, "models": [model("a", "meta-llama/Llama-3.3-70B-Instruct")]}
    )

    llama = "meta-llama/Llama-3.3-70B-Instruct"
    assert problems == [
        f"eks-gpu-inference:models.0.pool: 'auto' finds no pool for {llama}: no pool fits: {llama} on g6.xlarge "
        f"(TP 1): weights 131.4 GiB + reserve 2.0 GiB per GPU > 20.2 GiB usable per L4; {llama} on g6e.xlarge (TP 1): "
        "weights 131.4 GiB + reserve 2.0 GiB per GPU > 40.5 GiB usable per L40S; allowed: one of l4, l40s"
    ]


def test_auto_without_the_models_facts_asks_for_a_pool_or_facts():
    problems = problems_of({"gpuPools": {"l4": L4}, "models": [model("a", "example/unknown-model")]})

    [problem] = problems
    assert problem.startswith(
        "eks-gpu-inference:models.0.pool: 'auto' cannot choose a pool for example/unknown-model: neither the model "
        "catalog nor modelFacts describes it"
    )
    assert problem.endswith(
        "allowed: pool set to one of l4 (the plan then names the model not checked, and preview "
        "checks it), or models.0.modelFacts with its facts"
    )


def test_a_disabled_model_is_not_served_and_needs_no_pool():
    settings = parse_settings(
        {"gpuPools": {"l4": L4}, "models": [model("a", "example/unknown-model", enabled=False), model("b", pool="l4")]}
    )

    assert [server.name for server in settings.servers] == ["b"]


def test_daemonsets_tolerate_every_pools_taints_and_each_pool_carries_only_its_own():
    settings = parse_settings(
        {
            "gpuPools": {
                "a": {**L4, "extraTaints": [{"key": "team", "value": "x"}]},
                "b": {**L40S, "extraTaints": [{"key": "team", "value": "x"}, {"key": "tier", "effect": "NoExecute"}]},
            }
        }
    )
    a, b = settings.pools

    assert [(t.key, t.value) for t in settings.contract.extra_taints] == [("team", "x"), ("tier", "")]
    assert [t.key for t in settings.pool_contract(a).node_taints()] == ["GPU", "team"]
    assert [t.key for t in settings.pool_contract(b).node_taints()] == ["GPU", "team", "tier"]
    assert settings.pool_contract(a).gpu_product == "NVIDIA-L4"
    assert settings.contract.gpu_product is None  # two products


def test_the_fleets_contract_names_the_gpu_product_when_every_pool_has_the_same_one():
    same = parse_settings({"gpuPools": {"a": L4, "b": {**L4, "extraTaints": [{"key": "team", "value": "x"}]}}})

    assert same.contract == PlacementContract(
        label_key="GPU",
        label_value="true",
        taint=Taint("GPU", "true", "NoSchedule"),
        extra_taints=(Taint("team", "x", "NoSchedule"),),
        gpu_product="NVIDIA-L4",
    )


def test_a_pool_with_a_bad_key_is_reported_once_not_again_as_missing_for_its_models():
    """A model on a pool whose own keys are wrong is not told its pool does not exist: the pool's problem is the
    one to fix, and the models are checked against the pools once the pools parse."""
    found = problems_of({"gpuPools": {"a": L4, "b": {**L4, "minSize": -1}}, "models": [model("chat", pool="b")]})

    assert found == ["eks-gpu-inference:gpuPools.b.minSize: negative size -1; allowed: an integer >= 0"]


def test_a_fleet_keeps_the_label_the_config_gives_for_its_daemonsets_and_each_pool():
    """`gpuPlacement.labelKey`/`labelValue` set to `accelerator=nvidia`: the GPU nodes carry that label, so the
    device plugin and the DCGM exporter (the fleet's contract) and each pool's servers must select exactly it; the
    default value `true` in its place would leave every GPU node without a device plugin."""
    settings = parse_settings(
        {"gpuPlacement": {"labelKey": "accelerator", "labelValue": "nvidia"}, "gpuPools": {"a": L4, "b": L40S}}
    )

    assert (settings.contract.label_key, settings.contract.label_value) == ("accelerator", "nvidia")
    for pool in settings.pools:
        assert (settings.pool_contract(pool).label_key, settings.pool_contract(pool).label_value) == (
            "accelerator",
            "nvidia",
        )


@pytest.mark.parametrize(
    ("revision", "warns"),
    [
        ("a" * 40, False),  # a commit id
        ("v1.2.0", False),
        ("2.0", False),
        ("main", True),
        ("refs/pr/1", True),
        (None, False),
    ],
)
def test_a_revision_that_may_move_warns(revision, warns):
    warning = revision_warning("models.0.revision", revision)

    assert (warning is not None) is warns
    if warns:
        assert warning.startswith(f"models.0.revision: revision {revision!r} looks like a branch")


def test_auto_breaks_a_tie_of_gpu_memory_by_the_regions_node_price():
    # Qwen2.5-7B fits both: an A10G (g5.xlarge) and an L4 (g6.xlarge) each leave 20.2 GiB usable per GPU, so the
    # region's on-demand price decides (facts/prices.py).
    config = {
        "aws:region": "us-west-2",
        "eks-gpu-inference:gpuPools": {"a10g": {"instanceTypes": ["g5.xlarge"]}, "l4": L4},
        "eks-gpu-inference:models": [model("a", "Qwen/Qwen2.5-7B-Instruct")],
    }
    a10g, l4 = (prices.on_demand(name, "us-west-2").usd_per_hour for name in ("g5.xlarge", "g6.xlarge"))
    assert l4 < a10g

    [server] = parse_stack_config(config).servers

    assert server.pool.key == "l4"
    assert server.pool_reason == (
        "pool auto: l4, the least GPU memory that fits (20.2 GiB usable per GPU), the cheapest of 2 with as much "
        f"(${l4:.3f} an hour per node in us-west-2), of 2 pools that fit"
    )
    # Without a region no price is known: the name decides.
    [unpriced] = parse_settings({key.split(":")[1]: value for key, value in config.items() if "gpu-inf" in key}).servers
    assert unpriced.pool.key == "a10g"


def s3_model(name: str, model_id: str, revision: str, **source) -> dict:
    return model(
        name, model_id, pool="l4", revision=revision, source={"type": "s3", "bucket": "team-weights", **source}
    )


def test_two_different_models_on_one_bucket_and_prefix_are_refused_naming_both_keys():
    problems = problems_of(
        {
            "gpuPools": {"l4": L4},
            "models": [
                s3_model("chat", "Qwen/Qwen2.5-1.5B-Instruct", "a" * 40, prefix="models/shared"),
                s3_model("code", "Qwen/Qwen2.5-0.5B-Instruct", "b" * 40, prefix="models/shared"),
            ],
        }
    )

    assert problems == [
        "eks-gpu-inference:models.1.source.prefix: s3://team-weights/models/shared holds models.0's "
        f"Qwen/Qwen2.5-1.5B-Instruct at revision {'a' * 40} (models.0.source.prefix), and this model is "
        f"Qwen/Qwen2.5-0.5B-Instruct at revision {'b' * 40}: each would stop the other's copy or load its weights; "
        "allowed: a prefix of its own"
    ]


def test_one_model_served_twice_from_one_prefix_is_allowed_and_so_are_prefixes_of_their_own():
    same = s3_model("chat", "Qwen/Qwen2.5-1.5B-Instruct", "a" * 40, prefix="models/shared")
    # The migration recipe: a second server of the same weights.
    twice = parse_settings({"gpuPools": {"l4": L4}, "models": [same, {**same, "name": "chat-v2"}]})
    # The default prefix is the model id and revision: two models never meet there.
    apart = parse_settings(
        {
            "gpuPools": {"l4": L4},
            "models": [
                s3_model("chat", "Qwen/Qwen2.5-1.5B-Instruct", "a" * 40),
                s3_model("code", "Qwen/Qwen2.5-0.5B-Instruct", "b" * 40),
            ],
        }
    )

    assert [(model.name, model.pool) for model in twice.models] == [("chat", "l4"), ("chat-v2", "l4")]
    assert [model.name for model in apart.models] == ["chat", "code"]


def test_two_revisions_of_one_model_on_one_prefix_are_refused_too():
    problems = problems_of(
        {
            "gpuPools": {"l4": L4},
            "models": [
                s3_model("old", "Qwen/Qwen2.5-1.5B-Instruct", "a" * 40, prefix="qwen"),
                s3_model("new", "Qwen/Qwen2.5-1.5B-Instruct", "c" * 40, prefix="qwen"),
            ],
        }
    )

    assert [problem.partition(": ")[0] for problem in problems] == ["eks-gpu-inference:models.1.source.prefix"]


@pytest.mark.parametrize(
    ("key", "names"),
    [
        # The one-pool form keeps the names stacks deployed before the fleet form have (the GPU node group
        # `<cluster>-gpu`, the NodePool `gpu`), so moving to a newer release replaces nothing.
        pytest.param(None, ("ml-gpu", "gpu", "gpuNodeGroup"), id="one-pool-form"),
        pytest.param("l4", ("ml-gpu-l4", "gpu-l4", "gpuPools.l4"), id="fleet-form"),
    ],
)
def test_a_pools_names_in_each_form(key, names):
    pool = Pool(key, GpuNodeGroupSettings())
    assert (pool.resource_name("ml"), pool.node_pool_name, pool.config_key) == names
