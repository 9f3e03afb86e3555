"""The plan's fits gate: each model the stack config serves, on each instance type of its GPU pool (verdict 11).

The stack serves one model (`vllm`) on one GPU pool (`gpuNodeGroup`); the arithmetic lives in
`placement/model_fit.py`, a function of one model and one instance type, which this step calls per pair.
"""

from __future__ import annotations

from typing import Any

from ... import vllm_flags
from ...facts import gpu_catalog, model_catalog
from ...placement.model_fit import ModelFit, ServedModel, model_fit


def served_models(settings: Any, pools: list[dict[str, Any]]) -> list[ServedModel]:
    """The models `settings` serves, with their facts (the config's `vllm.modelFacts`, else the catalog's)."""
    vllm = settings.vllm
    if not vllm.enabled:
        return []
    gpu_pools = [pool["name"] for pool in pools if pool.get("gpusPerNode")]
    facts = vllm.model_facts.facts() if vllm.model_facts else model_catalog.lookup(vllm.model)
    extra = vllm_flags.check(vllm.extra_args)
    return [
        ServedModel(
            vllm.model,
            gpu_pools[0] if gpu_pools else "gpuNodeGroup",
            vllm.tensor_parallel_size,
            vllm.max_model_len,
            vllm.gpu_memory_utilization,
            facts,
            kv_cache_dtype=extra.kv_cache_dtype,
            context_overridden=extra.overrides_hf_config,
            pipeline_parallel_size=extra.pipeline_parallel_size,
        )
    ]


def model_fits(settings: Any, pools: list[dict[str, Any]]) -> list[ModelFit]:
    """One row per model and instance type of its pool (`gpuNodeGroup.instanceTypes`)."""
    return [
        model_fit(model, gpu_catalog.lookup(instance_type), instance_type)
        for model in served_models(settings, pools)
        for instance_type in settings.gpu_node_group.instance_types
    ]


def not_checked_warnings(fits: list[ModelFit]) -> list[str]:
    """The plan's warning for each row the gate could not check: it never passes silently."""
    return [f"model-fits-gpu {fit.reason}" for fit in fits if fit.fits is None]
