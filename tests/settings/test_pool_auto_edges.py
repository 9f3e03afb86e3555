"""`pool: auto` at its edges: a table of fleets where each rule of the ranking decides the pool, one at a time.

The rule (components/settings/fleet.py `choose_pool`): a pool qualifies only when the model fits every one of its
instance types; among those, the least usable GPU memory per GPU (the pool's largest, to a tenth of a GiB), then the
lowest on-demand price of a node (the pool's first instance type) in the stack's region, a pool without a known
price after every priced one, then the fewest GPUs per node, then the name.

The figures each case turns on, worked from the facts the code reads:
- Usable memory per GPU = the memory CUDA reports x gpuMemoryUtilization 0.9 (facts/model_memory.py), CUDA's
  figures from facts/gpu_catalog.py (NVIDIA's and DCGM's reports): A10G 23028 MiB = 22.488 GiB -> 20.24; L4 23034
  MiB = 22.494 GiB -> 20.24 (20.2395 and 20.2447: equal to a tenth, the A10G less by the raw figure); L40S 46068 MiB
  = 44.988 GiB -> 40.49; H100 81559 MiB = 79.647 GiB -> 71.68.
- Qwen2.5-7B needs 7.61e9 x 2 bytes = 14.2 GiB of weights + 2.0 GiB reserve + its 8192-token KV cache (0.44 GiB)
  = 16.6 GiB per GPU: it fits every GPU above. Qwen2.5-14B needs 14.7e9 x 2 = 27.4 GiB of weights: more than an
  L4's or an A10G's 20.24, less than an L40S's 40.49 (facts/model_catalog.py).
- On-demand prices per node (facts/price_table.py, AWS Price List): us-west-2 g6.xlarge $0.8048, g5.xlarge $1.006,
  g6e.xlarge $1.861, g6.12xlarge $4.6016; eu-west-1 g5.xlarge $1.123 and no g6.xlarge price.
- GPUs per node (facts/gpu_catalog.py): g6.12xlarge 4, the others named here 1 (p5.48xlarge 8).
Every case names its pools so that the name alone would pick another one than the rule under test.
"""

from __future__ import annotations

import pytest

from components.settings import ConfigError, parse_stack_config

QWEN_7B = "Qwen/Qwen2.5-7B-Instruct"
QWEN_14B = "Qwen/Qwen2.5-14B-Instruct"


def chosen(pools: dict[str, list[str]], model: str, region: str | None) -> str:
    config = {
        "eks-gpu-inference:gpuPools": {name: {"instanceTypes": types} for name, types in pools.items()},
        "eks-gpu-inference:models": [{"name": "m", "model": model}],
        **({"aws:region": region} if region else {}),
    }
    [server] = parse_stack_config(config).servers
    return server.pool.key


CASES = [
    pytest.param(
        {"a-l40s": ["g6e.xlarge"], "b-h100": ["p5.48xlarge"], "c-l4": ["g6.xlarge"]},
        QWEN_7B,
        None,
        "c-l4",
        id="the-least-memory-that-fits-first",  # 20.24 < 40.49 < 71.68
    ),
    pytest.param(
        {"a-l40s": ["g6e.xlarge"], "b-l4x4": ["g6.12xlarge"]},
        QWEN_7B,
        "us-west-2",
        "b-l4x4",
        id="memory-before-price",  # 20.24 per GPU at $4.6016 a node beats 40.49 at $1.861
    ),
    pytest.param(
        {"a10g": ["g5.xlarge"], "l4": ["g6.xlarge"]},
        QWEN_7B,
        "us-west-2",
        "l4",
        # 20.2 both to a tenth (by the raw figure the A10G is less): $0.8048 < $1.006.
        id="price-breaks-a-memory-tie-to-a-tenth",
    ),
    pytest.param(
        {"a-l4": ["g6.xlarge"], "b-a10g": ["g5.xlarge"]},
        QWEN_7B,
        "eu-west-1",
        "b-a10g",
        id="an-unpriced-pool-ranks-after-a-priced-one-never-as-free",  # g6.xlarge unpriced there; g5.xlarge $1.123
    ),
    pytest.param(
        {"a-l4x4": ["g6.12xlarge"], "b-l4": ["g6.xlarge"]},
        QWEN_7B,
        None,
        "b-l4",
        id="fewer-gpus-per-node-breaks-a-tie-of-memory-and-unknown-prices",  # 1 GPU < 4, no region, no prices
    ),
    pytest.param(
        {"b-l4": ["g6.xlarge"], "a-a10g": ["g5.xlarge"]},
        QWEN_7B,
        None,
        "a-a10g",
        id="the-name-breaks-the-last-tie",  # 20.2 both, no prices, 1 GPU both: "a-a10g" < "b-l4"
    ),
    pytest.param(
        {"a-l4-or-l40s": ["g6.xlarge", "g6e.xlarge"], "b-h100": ["p5.48xlarge"]},
        QWEN_14B,
        None,
        "b-h100",
        # The 14B fits the L40S but not the L4: a node of the first pool may be a g6.xlarge it cannot run on.
        id="a-pool-qualifies-only-when-every-instance-type-fits",
    ),
    pytest.param(
        {"a-l4-or-l40s": ["g6.xlarge", "g6e.xlarge"], "b-l4x4": ["g6.12xlarge"]},
        QWEN_7B,
        None,
        "b-l4x4",
        # The 7B fits both of the first pool's types: it counts as 40.49, its largest, not 20.24.
        id="a-pools-memory-is-its-largest-instance-types",
    ),
    pytest.param(
        {"a-a10g-or-l4": ["g5.xlarge", "g6.xlarge"], "b-l4": ["g6.xlarge"]},
        QWEN_7B,
        "us-west-2",
        "b-l4",
        # A node of the first pool is priced as its first type, g5.xlarge $1.006, not its cheapest, $0.8048.
        id="a-pools-price-is-its-first-instance-types",
    ),
]


@pytest.mark.parametrize(("pools", "model", "region", "expected"), CASES)
def test_auto_chooses_by_each_rule_in_turn(pools, model, region, expected):
    assert chosen(pools, model, region) == expected


def test_a_pool_where_only_one_instance_type_fits_is_no_pool_for_the_model():
    """The 14B fits the L40S (40.49 GiB usable) and not the L4 (27.4 GiB of weights + 2.0 reserve > 20.2)."""
    config = {
        "eks-gpu-inference:gpuPools": {"mixed": {"instanceTypes": ["g6.xlarge", "g6e.xlarge"]}},
        "eks-gpu-inference:models": [{"name": "m", "model": QWEN_14B}],
    }
    with pytest.raises(ConfigError) as raised:
        parse_stack_config(config)

    assert [str(problem) for problem in raised.value.problems] == [
        f"eks-gpu-inference:models.0.pool: 'auto' finds no pool for {QWEN_14B}: no pool fits: {QWEN_14B} on "
        "g6.xlarge (TP 1): weights 27.4 GiB + reserve 2.0 GiB per GPU > 20.2 GiB usable per L4; allowed: one of mixed"
    ]
